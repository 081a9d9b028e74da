package dev.jtecs.storage.internal;

import dev.jtecs.entity.internal.Growth;

import java.util.Arrays;

/**
 * The rows below a table's appended suffix that swap-removes overwrote since the last clear: a set of at most
 * {@link #LIMIT} distinct rows, which overflows (and stops recording) when one more distinct row arrives.
 *
 * <p>Invariants: every row held is below the bound last given to {@link #dropFrom} (rows at or above it were
 * truncated away or belong to the appended suffix, so a consumer copies them anyway); a row is held at most once;
 * the count of rows held is exact, so overflow happens at the same row as with a plain list that is filtered on
 * every shrink.
 *
 * <pre>
 *   heap:   max-heap of the rows held          dropFrom(bound): pop while max &gt;= bound   (each row popped once)
 *   slots:  open-addressing set of row + 1     add(row): membership, then push            (rebuilt, not deleted from)
 * </pre>
 *
 * @implNote Every operation is O(1) amortized: {@code add} costs a probe and a sift over at most 64 rows, and a
 *     shrink that drops nothing costs one comparison. Popped rows stay in the hash set (they are at or above the
 *     bound, and only rows below it are ever looked up), which is rebuilt from the heap when it fills. Both arrays
 *     start empty and only grow, so a table that never overwrites a row allocates nothing here.
 */
final class TouchedRows {
    /** The most distinct rows recorded before the set overflows. */
    static final int LIMIT = 64;

    private static final int[] NONE = new int[0];
    private static final int MIN_SLOTS = 16;

    private int[] heap = NONE;
    private int size;
    private int[] slots = NONE; // row + 1, 0 = empty; may also hold rows the heap dropped
    private int used;
    private boolean overflowed;

    /**
     * Records an overwritten row, below every bound given so far; a row already held is not added twice. Does
     * nothing once the set has overflowed.
     */
    void add(int row) {
        if (overflowed) {
            return;
        }
        if (used + 1 > slots.length - (slots.length >>> 2)) {
            rebuild();
        }
        int mask = slots.length - 1;
        int i = mix(row) & mask;
        for (int entry = slots[i]; entry != 0; entry = slots[i]) {
            if (entry == row + 1) {
                return;
            }
            i = (i + 1) & mask;
        }
        if (size == LIMIT) {
            overflowed = true;
            return;
        }
        if (size == heap.length) { // grown before the row is recorded anywhere: a failed growth records nothing
            heap = Growth.copyOf(heap, Math.min(LIMIT, Math.max(8, size * 2)));
        }
        slots[i] = row + 1;
        used++;
        push(row);
    }

    /** Makes room for one more row, so the next {@link #add} allocates nothing (a caller about to remove a row). */
    void reserveOne() {
        if (!overflowed && size == heap.length && size < LIMIT) {
            heap = Growth.copyOf(heap, Math.min(LIMIT, Math.max(8, size * 2)));
        }
        if (used + 1 > slots.length - (slots.length >>> 2)) {
            rebuild();
        }
    }

    /**
     * Makes room for {@code n} more rows, so the next {@code n} calls of {@link #add} allocate nothing, whatever
     * {@link #dropFrom} calls come between them: past one row the heap takes its full {@link #LIMIT} and the hash set
     * room for {@code LIMIT + 1} rows at most half full, so no rebuild grows it.
     */
    void reserve(int n) {
        if (n <= 1) {
            if (n == 1) {
                reserveOne();
            }
            return;
        }
        if (overflowed) {
            return;
        }
        if (heap.length < LIMIT) {
            heap = Growth.copyOf(heap, LIMIT);
        }
        int capacity = Math.max(MIN_SLOTS, slots.length);
        while ((LIMIT + 1) * 2 > capacity) {
            capacity *= 2;
        }
        if (capacity != slots.length) {
            slots = new int[capacity];
            rebuildInPlace();
        }
    }

    /** Drops the rows at or above {@code bound}: they no longer exist, or a consumer copies them anyway. */
    void dropFrom(int bound) {
        while (size > 0 && heap[0] >= bound) {
            pop();
        }
    }

    /** Whether more than {@link #LIMIT} distinct rows arrived since the last {@link #clear()}. */
    boolean overflowed() {
        return overflowed;
    }

    /** The number of rows held. */
    int size() {
        return size;
    }

    /** A fresh array of the rows held, ascending. */
    int[] sorted() {
        int[] rows = Growth.copyOf(heap, size);
        Arrays.sort(rows);
        return rows;
    }

    /**
     * Writes the rows held, ascending, into {@code rows[0, size())} and returns {@code size()}: the allocation-free
     * form of {@link #sorted()} for a consumer that keeps an array of {@link #LIMIT} rows.
     *
     * @throws IllegalArgumentException when {@code rows} is shorter than {@code size()}
     */
    int sortedInto(int[] rows) {
        if (rows.length < size) {
            throw new IllegalArgumentException("rows.length=" + rows.length + " size=" + size + " (an array of "
                    + LIMIT + " always fits)");
        }
        System.arraycopy(heap, 0, rows, 0, size);
        Arrays.sort(rows, 0, size);
        return size;
    }

    /** Forgets every row and the overflow; keeps the arrays. */
    void clear() {
        size = 0;
        overflowed = false;
        if (used > 0) {
            Arrays.fill(slots, 0);
            used = 0;
        }
    }

    /** Refills the hash set from the heap (dropping popped rows), growing it when the rows held need room. */
    private void rebuild() {
        int capacity = Math.max(MIN_SLOTS, slots.length);
        while ((size + 1) * 2 > capacity) { // held rows fill at most half: the next rebuild is far away
            capacity *= 2;
        }
        if (capacity != slots.length) {
            slots = new int[capacity];
        } else {
            Arrays.fill(slots, 0);
        }
        rebuildInPlace();
    }

    /** Refills the (empty) hash set from the heap. */
    private void rebuildInPlace() {
        int mask = slots.length - 1;
        for (int k = 0; k < size; k++) {
            int i = mix(heap[k]) & mask;
            while (slots[i] != 0) {
                i = (i + 1) & mask;
            }
            slots[i] = heap[k] + 1;
        }
        used = size;
    }

    private void push(int row) { // the caller made room
        int i = size++;
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (heap[parent] >= row) {
                break;
            }
            heap[i] = heap[parent];
            i = parent;
        }
        heap[i] = row;
    }

    private void pop() {
        int last = heap[--size];
        int i = 0;
        int half = size >>> 1;
        while (i < half) {
            int child = 2 * i + 1;
            if (child + 1 < size && heap[child + 1] > heap[child]) {
                child++;
            }
            if (last >= heap[child]) {
                break;
            }
            heap[i] = heap[child];
            i = child;
        }
        if (size > 0) {
            heap[i] = last;
        }
    }

    private static int mix(int row) {
        return row * 0x9E3779B9 >>> 16 ^ row; // spreads runs of adjacent rows over the slots
    }
}
