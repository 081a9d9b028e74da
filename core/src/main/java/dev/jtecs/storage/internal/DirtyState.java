package dev.jtecs.storage.internal;

import java.util.Arrays;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * One table's dirty tracking: a bit per component for value writes, one structural flag for placements, moves
 * and swap-removes, and the bounded row residue since the last clear (the appended suffix and up to
 * {@link TouchedRows#LIMIT} rows that swap-removes overwrote). Write counts and the structural count survive
 * clearing; the table reports each first dirtying after a clear to the world's dirty queue.
 *
 * @implNote Every mark, including the residue kept on a swap-remove, is O(1) amortized: a despawn costs the same
 *     whatever the residue holds (see {@link TouchedRows}).
 */
public final class DirtyState {
    private final Table table;
    /**
     * Everything a value mark touches, in one array (one or two cache lines for a typical archetype, which a
     * pass over many small archetypes reaches cold): {@code [0, words)} the dirty bits,
     * {@code [words, words + components)} the write counts, then {@code words} words of tracked-column bits.
     */
    private final long[] marks;
    private final int words;
    private final int components;
    private boolean structural;
    private long structuralCount;
    private long valueCount;
    private boolean queued;
    private Consumer<Table> listener = table -> { };
    private long residueFrom;
    // the first row appended since the last clear: at most the count (a clear sets it to the count, a removal
    // lowers it with the count), so an append, which starts at the count, leaves it as it is
    private int addedFrom;
    private final TouchedRows touched = new TouchedRows();

    DirtyState(Table table, int components) {
        this.table = table;
        this.words = (components + 63) >>> 6;
        this.components = components;
        marks = new long[words + components + words];
    }

    // ---------------------------------------------------------------- marks

    /** Records a structural change (placement, move in, swap-remove): every column may have changed. */
    public void markStructural() {
        structural = true;
        structuralCount++;
        enqueue();
    }

    /** {@link #markStructural} made {@code times} times in a row (nobody reads in between). */
    public void markStructural(int times) {
        structural = true;
        structuralCount += times;
        enqueue();
    }

    /** Records a value write of the component at {@code position}. */
    public void markDirty(int position) {
        Objects.checkIndex(position, components); // the array is shared: a stray position must not land elsewhere
        long[] m = marks;
        long bit = 1L << position;
        m[position >>> 6] |= bit;
        m[words + position]++;
        if ((m[words + components + (position >>> 6)] & bit) != 0) {
            valueCount++;
        }
        enqueue();
    }

    public void markAllDirty() {
        for (int p = 0; p < components; p++) {
            markDirty(p);
        }
    }

    private void enqueue() {
        if (!queued) {
            queued = true;
            listener.accept(table);
        }
    }

    /** Called once each time the table turns dirty after a world-wide clear (the world's dirty queue). */
    public void onFirstDirty(Consumer<Table> firstDirty) {
        this.listener = Objects.requireNonNull(firstDirty, "listener");
    }

    /** Forgets that the table is in the world's dirty queue (the world cleared its queue). */
    public void dequeue() {
        queued = false;
    }

    // ---------------------------------------------------------------- row residue (fed by the table)

    /** A swap-remove overwrote {@code row} with the last row. */
    void overwrote(int row) {
        if (row < addedFrom) { // inside the appended suffix the row is new anyway
            touched.add(row);
        }
    }

    /** Makes room to record one more overwritten row, so {@link #overwrote} allocates nothing. */
    void reserveOverwrite() {
        touched.reserveOne();
    }

    /** Makes room to record {@code n} more overwritten rows, so that many {@link #overwrote} calls allocate nothing. */
    void reserveOverwrites(int n) {
        touched.reserve(n);
    }

    /** The table now holds {@code count} rows after removals. */
    void shrunk(int count) {
        if (addedFrom > count) {
            addedFrom = count;
            touched.dropFrom(count); // rows past the end no longer exist: nothing to re-read there
        }
    }

    // ---------------------------------------------------------------- readers

    /**
     * Whether the row residue describes every structural change a consumer missed since it saw
     * {@code previousCount}: it saw the state at or after the last clear, and the touched rows stayed within
     * the bound. When false the consumer must refresh everything.
     */
    public boolean structuralDescribed(long previousCount) {
        return !touched.overflowed() && previousCount >= residueFrom && previousCount <= structuralCount;
    }

    /** The first row appended since the last clear: rows {@code [structuralAdded(), count)} are new. */
    public int structuralAdded() {
        return addedFrom;
    }

    /** The rows below {@link #structuralAdded()} that swap-removes overwrote since the last clear, ascending. */
    public int[] structuralTouched() {
        return touched.sorted();
    }

    /** The most rows {@link #structuralTouched()} holds: one more overflows the residue. */
    public static final int TOUCHED_LIMIT = TouchedRows.LIMIT;

    /** {@link #structuralTouched()} written into {@code rows}, ascending; returns how many. */
    public int structuralTouched(int[] rows) {
        return touched.sortedInto(rows);
    }

    /** Counts value writes of one column into {@link #valueCount()} from now on. */
    public void trackValueCount(int position) {
        Objects.checkIndex(position, components);
        marks[words + components + (position >>> 6)] |= 1L << position;
    }

    /** Value writes (not structural ones) declared on tracked columns; survives clearing. */
    public long valueCount() {
        return valueCount;
    }

    public boolean isDirty(int position) {
        Objects.checkIndex(position, components);
        return structural || (marks[position >>> 6] & (1L << position)) != 0;
    }

    public boolean anyDirty() {
        if (structural) {
            return true;
        }
        for (int w = 0; w < words; w++) {
            if (marks[w] != 0) {
                return true;
            }
        }
        return false;
    }

    public boolean isStructurallyDirty() {
        return structural;
    }

    /** Clears the bits and the structural flag, and starts a new row-residue window; counts survive. */
    public void clear() {
        Arrays.fill(marks, 0, words, 0L);
        structural = false;
        residueFrom = structuralCount;
        addedFrom = table.count();
        touched.clear();
    }

    public long structuralCount() {
        return structuralCount;
    }

    public long writeCount(int position) {
        Objects.checkIndex(position, components);
        return marks[words + position];
    }
}
