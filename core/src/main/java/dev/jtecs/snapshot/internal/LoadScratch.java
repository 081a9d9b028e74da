package dev.jtecs.snapshot.internal;

import dev.jtecs.entity.internal.Growth;
import java.util.Arrays;

/**
 * The arrays a load needs in proportion to the world it restores, kept by the engine from one load to the next:
 * the slot table's cells (one per slot below {@code nextEntityId}) and the restored slots laid out in slot order
 * with their generations and rows (one each per restored entity). A load that allocated them afresh asked the heap
 * for a few arrays of megabytes each time, and on G1 each such array starts a collection cycle: a run of
 * million-entity loads took about a sixth longer, and varied far more, than with the arrays kept. Kept, a
 * repeated load (a rollback, a benchmark, a level restart) allocates none of them.
 *
 * <p>Every array is handed out at least as long as asked and may be longer; the callers read only the prefix they
 * asked for. {@link #cells} alone promises contents (zeros over what is asked); the others are overwritten before
 * they are read. Nothing here outlives a load except the arrays: loads never nest (a load from inside a load's
 * callbacks is refused), so one set serves them all. They grow through {@link Growth}, so an allocation that
 * fails (or a fault injected there) is a failed load like any other: it happens while the input is validated,
 * before the world changes, and leaves the scratch holding nothing.
 */
final class LoadScratch {
    private static final int[] EMPTY = new int[0];
    private static final int SLOTS = 0;
    private static final int GENERATIONS = 1;
    private static final int POSITIONS = 2;
    private static final int FRAME_SLOTS = 3;
    private static final int FRAME_ROWS = 4;

    private int[] cells = EMPTY;
    private int dirty; // cells[0, dirty) may hold what the last load recorded
    private final int[][] lists = {EMPTY, EMPTY, EMPTY, EMPTY, EMPTY}; // indexed by SLOTS .. FRAME_ROWS

    /** The slot table's cells: at least {@code length} of them, zero in {@code [0, length)}. */
    int[] cells(int length) {
        if (cells.length < length) {
            cells = EMPTY; // the old array is not kept while its successor is allocated
            dirty = 0;
            cells = Growth.copyOf(EMPTY, length); // zeros, through the engine's fault-injectable growth
        } else if (dirty > 0) {
            Arrays.fill(cells, 0, dirty, 0);
        }
        dirty = length;
        return cells;
    }

    /** The restored slots in slot order: at least {@code n}. */
    int[] slots(int n) {
        return list(SLOTS, n);
    }

    /** The generation of each restored slot: at least {@code n}. */
    int[] generations(int n) {
        return list(GENERATIONS, n);
    }

    /** The position of each restored slot's entity over all frames: at least {@code n}. */
    int[] positions(int n) {
        return list(POSITIONS, n);
    }

    /** Every frame's slots, frame after frame (a snapshot of several frames): at least {@code n}. */
    int[] frameSlots(int n) {
        return list(FRAME_SLOTS, n);
    }

    /** Every frame's rows, at the indices of {@link #frameSlots}: at least {@code n}. */
    int[] frameRows(int n) {
        return list(FRAME_ROWS, n);
    }

    private int[] list(int which, int n) {
        if (lists[which].length < n) {
            lists[which] = EMPTY; // the old array is not kept while its successor is allocated
            lists[which] = Growth.copyOf(EMPTY, n);
        }
        return lists[which];
    }

    /** The bytes the kept arrays hold. */
    long bytes() {
        long ints = cells.length;
        for (int[] list : lists) {
            ints += list.length;
        }
        return 4 * ints;
    }

    /** Gives every array back to the heap; the next load allocates what it needs again. */
    void release() {
        cells = EMPTY;
        dirty = 0;
        Arrays.fill(lists, EMPTY);
    }
}
