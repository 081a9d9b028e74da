package dev.jtecs.mutation.internal;

import dev.jtecs.entity.Entity;
import dev.jtecs.entity.internal.EntityIndex;
import dev.jtecs.entity.internal.Failures;
import dev.jtecs.entity.internal.Growth;
import dev.jtecs.storage.internal.ArchetypeRegistry;
import dev.jtecs.storage.internal.Table;

/**
 * The drain's despawn of a run of staged despawn records whose entities all live in one table that no entity
 * observer watches (a countdown's spent list, despawned in one call): the same rows leave in the same order as
 * {@link CommitDrain}'s one-record despawn would take them, so the table ends with the same rows in the same
 * order, the entity index and free list end the same, and the same despawns are reported; only the work is
 * grouped.
 *
 * <pre>
 *   reserve for the whole run: free-list room, the table's removal residue, the hooks' despawn room, scratch
 *   per record, in record order:  COMMITTED, swap-remove (entity column, marks, count), relocate, free, undoom
 *                                  (last, row) recorded: the native values are not copied yet
 *   per native column:             the recorded copies, in order                      (Table.copyNativeRows)
 *   (a run of every row instead:   per record COMMITTED, free, undoom; then one truncation of the table)
 *   per record:                    hooks.despawned(id), every one even when one throws; the first throw propagates
 * </pre>
 *
 * <p>Why it is cheaper: the one-record path runs its bookkeeping (reservations, notifications, hooks) between
 * every two row copies, and each copy touches a random row of every column. Here the bookkeeping is one pass
 * over the records and the copies of one column follow each other with nothing in between, so the processor
 * overlaps their cache misses.
 *
 * <p>Failure: everything that may allocate (or fail an injected allocation) happens before the first record
 * changes, and no user code runs until every row has left; a failure before that leaves the whole run staged,
 * as a failure in the first of its one-record despawns would. A hook that throws when told of a despawn does not
 * stop the others being told: the rows and slots are gone either way ({@code CommitDrain.reportRemovedRow}).
 */
final class BatchDespawns {
    /** The shortest run of despawn records taken as a batch; shorter runs go one record at a time. */
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
     * The end of the run of records from {@code record} (below {@code to}) that despawn alive entities of one
     * unobserved table, or {@code record} itself when that run is shorter than {@link #MIN_RUN}.
     */
    int runEnd(int record, int to) {
        if (to - record < MIN_RUN || !despawnsAlive(record)) {
            return record;
        }
        int store = index.storeOf(transaction.slot(record));
        if (registry.ofStore(store).observers().length != 0) {
            return record;
        }
        int end = record + 1;
        while (end < to && despawnsAlive(end) && index.storeOf(transaction.slot(end)) == store) {
            end++;
        }
        return end - record >= MIN_RUN ? end : record;
    }

    private boolean despawnsAlive(int record) {
        return transaction.state(record) == TxState.STAGED_DESPAWN && index.isAlive(transaction.id(record));
    }

    /** Despawns the entities of records {@code [from, to)}, a run {@link #runEnd} found. */
    void despawn(int from, int to) {
        int n = to - from;
        Table table = registry.ofStore(index.storeOf(transaction.slot(from)));
        int highestSlot = 0;
        for (int record = from; record < to; record++) {
            highestSlot = Math.max(highestSlot, transaction.slot(record));
        }
        // everything that allocates, before anything changes: a failure leaves the run staged
        reserve(n);
        index.reserveFree(n);
        table.prepareRowRemovals(n);
        drain.prepareDespawns(n, highestSlot);
        if (n == table.count()) {
            emptyTable(table, from, n);
        } else {
            touchRows(table, from, n);
            removeRows(table, from, n);
        }
        Throwable failure = null;
        for (int i = 0; i < n; i++) {
            try {
                drain.reportDespawned(ids[i]);
            } catch (RuntimeException | Error e) {
                failure = Failures.fold(failure, e);
            }
        }
        Failures.throwIfAny(failure);
    }

    /**
     * Loads what {@link #removeRows} will read and write at scattered places, in loops of independent loads: the
     * row of each record's slot and the entity column there, and the index entries of the entities in the last
     * {@code n} rows (the ones the swap-removes move). In {@code removeRows} each of these cache misses waits
     * behind the previous record's bookkeeping; here the processor overlaps them. Changes nothing, allocates
     * nothing; a stale guess (a row that an earlier removal of the run moves) only warms a line for nothing.
     */
    private void touchRows(Table table, int from, int n) {
        int count = table.count();
        long sum = 0;
        for (int i = 0; i < n; i++) {
            int row = index.rowOf(transaction.slot(from + i));
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

    /** The rows of records {@code [from, from + n)} leave, in record order; allocates nothing, runs no user code. */
    private void removeRows(Table table, int from, int n) {
        int store = table.store();
        int moves = 0;
        try {
            for (int i = 0; i < n; i++) {
                int record = from + i;
                int slot = transaction.slot(record);
                ids[i] = transaction.id(record);
                transaction.setState(record, TxState.COMMITTED);
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
     * The run takes every row of the table (its records name distinct entities, each in the table): the slots are
     * freed in record order, as {@link #removeRows} frees them, and the table is emptied with one truncation, as
     * a whole-archetype despawn empties it, instead of swap-removing row after row into rows that go next.
     * Allocates nothing, runs no user code.
     */
    private void emptyTable(Table table, int from, int n) {
        for (int i = 0; i < n; i++) {
            int record = from + i;
            int slot = transaction.slot(record);
            ids[i] = transaction.id(record);
            transaction.setState(record, TxState.COMMITTED);
            index.free(slot);
            transaction.undoom(slot);
        }
        table.truncate(0);
    }

    private void reserve(int n) {
        if (ids.length < n) {
            int capacity = Math.max(n, ids.length * 2);
            var grownFrom = Growth.copyOf(fromRows, capacity); // all first: they stay in step
            var grownTo = Growth.copyOf(toRows, capacity);
            var grownIds = Growth.copyOf(ids, capacity);
            fromRows = grownFrom;
            toRows = grownTo;
            ids = grownIds;
        }
    }
}
