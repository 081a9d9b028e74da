package dev.jtecs.mutation.internal;

import dev.jtecs.entity.Entity;
import dev.jtecs.entity.internal.EntityIndex;
import dev.jtecs.entity.internal.Growth;
import dev.jtecs.storage.internal.ArchetypeRegistry;
import dev.jtecs.storage.internal.Table;

/**
 * The drain's despawn of a run of staged despawns (records, or quiet despawns: ids only) whose entities all live in
 * one table that no entity observer watches (a countdown's spent list, despawned in one call): the same rows leave
 * in the same order as {@link CommitDrain}'s one-at-a-time despawn would take them, so the table ends with the
 * same rows in the same order, the entity index and free list end the same, and the same despawns are reported;
 * only the work is grouped.
 *
 * <pre>
 *   reserve for the whole run: free-list room, the table's removal residue, the hooks' despawn room, scratch
 *   per entity, in run order:      swap-remove (entity column, marks, count), relocate, free, undoom
 *                                  (last, row) recorded: the native values are not copied yet
 *   per native column:             the recorded copies, in order                      (Table.copyNativeRows)
 *   (a run of every row instead:   per entity free; the marks dropped (in one fill when they are all the run's);
 *                                  then one truncation of the table)
 *   the caller:                    marks the run published (records COMMITTED, or its quiet cursor past it)
 *   per entity:                    hooks.despawned(id), every one even when one throws; the first throw propagates
 * </pre>
 *
 * <p>Why it is cheaper: the one-at-a-time path runs its bookkeeping (reservations, notifications, hooks) between
 * every two row copies, and each copy touches a random row of every column. Here the bookkeeping is one pass
 * over the run and the copies of one column follow each other with nothing in between, so the processor
 * overlaps their cache misses.
 *
 * <p>Failure: everything that may allocate (or fail an injected allocation) happens before the first entity
 * changes, and no user code runs until every row has left; a failure before that leaves the whole run staged,
 * as a failure in the first of its one-at-a-time despawns would. A hook that throws when told of a despawn does
 * not stop the others being told: the rows and slots are gone either way ({@code CommitDrain.reportRemovedRow}).
 */
final class BatchDespawns {
    /** The shortest run of despawns taken as a batch; shorter runs go one at a time. */
    static final int MIN_RUN = 8;

    private final EntityIndex index;
    private final ArchetypeRegistry registry;
    private final Transaction transaction;
    private final CommitDrain drain;
    private int[] fromRows = new int[0];
    private int[] toRows = new int[0];
    private long[] ids = new long[0];
    private long touched; // the sum of touchRows' loads, kept so the loads are not optimized away

    BatchDespawns(EntityIndex index, ArchetypeRegistry registry, Transaction transaction, CommitDrain drain) {
        this.index = index;
        this.registry = registry;
        this.transaction = transaction;
        this.drain = drain;
    }

    /**
     * The end of the run of despawns from {@code from} (below {@code to}) of alive entities of one unobserved
     * table, or {@code from} itself when that run is shorter than {@link #MIN_RUN}. {@code ids} holds the records'
     * ids when {@code records} (a record must stage a despawn to join), the quiet despawns' ids otherwise.
     */
    int runEnd(long[] ids, int from, int to, boolean records) {
        if (to - from < MIN_RUN || !despawnsAlive(ids, from, records)) {
            return from;
        }
        int store = index.storeOf(Entity.slot(ids[from]));
        if (registry.ofStore(store).observers().length != 0) {
            return from;
        }
        int end = from + 1;
        while (end < to && despawnsAlive(ids, end, records) && index.storeOf(Entity.slot(ids[end])) == store) {
            end++;
        }
        return end - from >= MIN_RUN ? end : from;
    }

    private boolean despawnsAlive(long[] ids, int i, boolean records) {
        return (!records || transaction.state(i) == TxState.STAGED_DESPAWN) && index.isAlive(ids[i]);
    }

    /**
     * Removes the rows and frees the slots of the despawns {@code [from, to)} of {@code ids}, a run {@link #runEnd}
     * found; the caller then marks them published and calls {@link #reportRun}. Everything that allocates happens
     * before anything changes: a failure leaves the run staged.
     */
    void removeRun(long[] ids, int from, int to) {
        int n = to - from;
        Table table = registry.ofStore(index.storeOf(Entity.slot(ids[from])));
        int highestSlot = 0;
        for (int i = from; i < to; i++) {
            highestSlot = Math.max(highestSlot, Entity.slot(ids[i]));
        }
        boolean whole = n == table.count();
        reserve(n, !whole);
        index.reserveFree(n);
        table.prepareRowRemovals(n);
        drain.prepareDespawns(n, highestSlot);
        System.arraycopy(ids, from, this.ids, 0, n); // what reportRun reports, whatever the caller's array becomes
        if (whole) {
            emptyTable(table, n);
        } else {
            touchRows(table, n);
            removeRows(table, n);
        }
    }

    /**
     * Reports the despawns of the run {@link #removeRun} removed last, every one even when one throws; none when
     * the hooks would do nothing with any of them (a world without edges or pairs: one check, not one per entity).
     */
    void reportRun(int n) {
        if (drain.reportsDespawns()) {
            drain.reportDespawnedRun(ids, 0, n); // together: the hooks may drop a subtree's edges in a few passes
        }
    }

    /**
     * Loads what {@link #removeRows} will read and write at scattered places, in loops of independent loads: the
     * row of each record's slot and the entity column there, and the index entries of the entities in the last
     * {@code n} rows (the ones the swap-removes move). In {@code removeRows} each of these cache misses waits
     * behind the previous record's bookkeeping; here the processor overlaps them. Changes nothing, allocates
     * nothing; a stale guess (a row that an earlier removal of the run moves) only warms a line for nothing.
     */
    private void touchRows(Table table, int n) {
        int count = table.count();
        long sum = 0;
        for (int i = 0; i < n; i++) {
            int row = index.rowOf(Entity.slot(ids[i]));
            if (row < count) {
                sum += table.entityAt(row);
            }
        }
        for (int row = Math.max(0, count - n); row < count; row++) {
            int slot = Entity.slot(table.entityAt(row));
            sum += index.rowOf(slot) + index.storeOf(slot);
        }
        touched = sum;
    }

    /** The rows of the run's entities leave, in its order; allocates nothing, runs no user code. */
    private void removeRows(Table table, int n) {
        int store = table.store();
        int moves = 0;
        try {
            for (int i = 0; i < n; i++) {
                int slot = Entity.slot(ids[i]);
                int row = index.rowOf(slot);
                int last = table.count() - 1;
                long moved = table.swapRemoveDeferringValues(row);
                if (moved != 0) {
                    index.relocate(Entity.slot(moved), store, row);
                    fromRows[moves] = last;
                    toRows[moves++] = row;
                }
                index.free(slot);
                transaction.undoom(slot); // a capture copied while the rows left may have marked it
            }
        } finally {
            table.copyNativeRows(fromRows, toRows, moves); // the values follow the rows the loop moved
        }
    }

    /**
     * The run takes every row of the table (it names distinct entities, each in the table): the slots are
     * freed in the run's order, as {@link #removeRows} frees them, and the table is emptied with one truncation, as
     * a whole-archetype despawn empties it, instead of swap-removing row after row into rows that go next.
     * Allocates nothing, runs no user code.
     */
    private void emptyTable(Table table, int n) {
        index.freeInOrder(ids, n);
        transaction.undoomRun(ids, n);
        table.truncate(0);
    }

    /** A subtree despawned at once may span at most this many tables; a wider one is staged as before. */
    static final int SUBTREE_TABLES = 32;
    private final Table[] subtreeTables = new Table[SUBTREE_TABLES];
    private final int[] subtreeStores = new int[SUBTREE_TABLES];
    private final int[] subtreeCounts = new int[SUBTREE_TABLES];
    private final boolean[] subtreeWhole = new boolean[SUBTREE_TABLES];
    private int[] subtreeMembers = new int[0]; // per entity, the index of its table, when there are several

    /**
     * Despawns {@code ids[0, n)}, distinct, at once and silently, in the reverse of their order (a cascade's walk
     * lists a subtree level by level; it dies deepest level first): the rows leave and the slots are freed from
     * {@code ids[n - 1]} down to {@code ids[0]}, ending exactly as those despawns published as quiet despawns in
     * that order would ({@link #removeRun} for runs of one table, one at a time otherwise): a table whose every row
     * goes is truncated, any other loses each row by a swap-remove, and the free list takes the slots in that
     * order. Returns {@code false}, having changed nothing, when an entity is not alive, or lives in a table an
     * entity observer watches or that holds pairs (their despawns have pairs to settle), or the ids span more than
     * {@value #SUBTREE_TABLES} tables. Everything that allocates happens before the first change; no user code runs
     * and nothing is reported.
     *
     * <p>Ids that all live in one table (a subtree usually does) are checked as their slots are freed, each slot's
     * word read once ({@link EntityIndex#freeInReverseOrderIfAliveIn}), and the rows leave after; when one of them
     * lives elsewhere that free puts back what it did, and the ids are checked one table's run at a time first, then
     * removed.
     */
    boolean removeSubtree(long[] ids, int n) {
        if (n == 0) {
            return true;
        }
        int first = index.aliveStore(ids[0]);
        if (first < 0) {
            return false;
        }
        Table table = registry.ofStore(first);
        if (table.observers().length != 0 || table.hasPairs()) {
            return false;
        }
        if (table.count() >= n) { // room for them all in the first one's table
            index.reserveFree(n);
            table.prepareRowRemovals(n); // (the rows of pending batches copied, room reserved: nothing one can see)
            if (index.freeInReverseOrderIfAliveIn(ids, n, first)) { // from here on nothing allocates
                removeFreedRows(table, ids, n);
                subtreesFreedAsChecked++;
                return true;
            }
        }
        return removeSubtreeOfTables(ids, n);
    }

    private long subtreesFreedAsChecked;

    /** How many {@link #removeSubtree} calls took the one-table path, the ids checked as they were freed (tests). */
    long subtreesFreedAsChecked() {
        return subtreesFreedAsChecked;
    }

    /**
     * Removes the rows of {@code ids[0, n)}, last to first, from {@code table}, where every one of them lived when the
     * index freed their slots: the table is truncated when they were all its rows, and loses each by a swap-remove
     * otherwise ({@link CommitDrain#detachRow}). The free left each slot's row in the index
     * ({@link EntityIndex#freeInReverseOrderIfAliveIn}), so the rows are found as before it, and a member that a swap
     * moves is relocated as before it (its slot's state and generation stay those of the free).
     */
    private void removeFreedRows(Table table, long[] ids, int n) {
        if (table.count() == n) { // n distinct entities alive in it: they are its rows
            table.truncate(0);
            return;
        }
        for (int i = n - 1; i >= 0; i--) {
            CommitDrain.detachRow(index, table, index.rowOf(Entity.slot(ids[i])));
        }
    }

    /** {@link #removeSubtree} of ids that span tables, or of which one is not alive: each checked first. */
    private boolean removeSubtreeOfTables(long[] ids, int n) {
        int tables = 0;
        try {
            for (int i = 0; i < n; ) { // read only: each run of entities in one table, and that table
                int store = index.aliveStore(ids[i]);
                if (store < 0) {
                    return false;
                }
                int end = index.aliveRunEnd(ids, i + 1, n, store);
                int t = tableOf(store, tables);
                if (t < 0) {
                    Table table = registry.ofStore(store);
                    if (tables == SUBTREE_TABLES || table.observers().length != 0 || table.hasPairs()) {
                        return false;
                    }
                    if (tables == 1) { // a second table: from here on each entity's table is written down
                        if (subtreeMembers.length < n) {
                            subtreeMembers = Growth.newInts(Math.max(n, subtreeMembers.length * 2));
                        }
                        java.util.Arrays.fill(subtreeMembers, 0, i, 0);
                    }
                    subtreeTables[tables] = table;
                    subtreeStores[tables] = store;
                    subtreeCounts[tables] = 0;
                    t = tables++;
                }
                subtreeCounts[t] += end - i;
                if (tables > 1) {
                    java.util.Arrays.fill(subtreeMembers, i, end, t);
                }
                i = end;
            }
            index.reserveFree(n);
            boolean anyPartial = false;
            for (int t = 0; t < tables; t++) {
                subtreeTables[t].prepareRowRemovals(subtreeCounts[t]);
                subtreeWhole[t] = subtreeCounts[t] == subtreeTables[t].count();
                anyPartial |= !subtreeWhole[t];
            }
            for (int i = n - 1; anyPartial && i >= 0; i--) { // from here on nothing allocates
                int t = tables > 1 ? subtreeMembers[i] : 0;
                if (!subtreeWhole[t]) {
                    Table table = subtreeTables[t];
                    int row = index.rowOf(Entity.slot(ids[i]));
                    long moved = table.swapRemove(row);
                    if (moved != 0) {
                        index.relocate(Entity.slot(moved), subtreeStores[t], row);
                    }
                }
            }
            for (int t = 0; t < tables; t++) {
                if (subtreeWhole[t]) {
                    subtreeTables[t].truncate(0);
                }
            }
            index.freeInReverseOrder(ids, n);
            return true;
        } finally {
            java.util.Arrays.fill(subtreeTables, 0, tables, null); // no table is held past the call
        }
    }

    /** The index of {@code store} among the first {@code tables} of the subtree's tables, or -1. */
    private int tableOf(int store, int tables) {
        for (int t = 0; t < tables; t++) {
            if (subtreeStores[t] == store) {
                return t;
            }
        }
        return -1;
    }

    /**
     * Room for a run of {@code n}: its ids, and the row moves its swaps record when {@code rowMoves} (a run that
     * empties its table swaps nothing, so a cascade's subtree or a whole archetype does not size them).
     */
    private void reserve(int n, boolean rowMoves) {
        if (ids.length < n) {
            ids = Growth.copyOf(ids, Math.max(n, ids.length * 2));
        }
        if (rowMoves && fromRows.length < n) {
            int capacity = Math.max(n, fromRows.length * 2);
            var grownFrom = Growth.copyOf(fromRows, capacity); // both first: they stay in step
            var grownTo = Growth.copyOf(toRows, capacity);
            fromRows = grownFrom;
            toRows = grownTo;
        }
    }

    /** The row moves a run can record without growing (tests). */
    int rowMoveRoom() {
        return fromRows.length;
    }
}
