package dev.jtecs.mutation.internal;

import dev.jtecs.component.Component;
import dev.jtecs.component.Input;
import dev.jtecs.component.BaseRelationship;
import dev.jtecs.storage.internal.Table;
import dev.jtecs.mutation.BatchCallback;
import java.util.Objects;

/**
 * One staged batch operation: a compact descriptor in place of per-entity records.
 *
 * <p>Spawn batches ({@link Kind#SPAWN}, {@link Kind#SPAWN_AT}) hold their destination table, their ids (a first id
 * when consecutive, else a range of an array: their own, or the transaction's id pool) and the column writes
 * planned at the call. Query
 * batches ({@link Kind#SET}, {@link Kind#REMOVE}, {@link Kind#DESPAWN}) hold, per archetype the query matched at
 * the call, the ids of its rows then and its structural count then: when the count is unchanged at publication
 * the archetype still holds exactly those rows, and the whole-archetype path applies.
 */
public final class BatchOp implements dev.jtecs.storage.internal.RowCapture {
    /** What a batch does. */
    public enum Kind { SPAWN, SPAWN_AT, SET, REMOVE, DESPAWN }

    /** How a planned spawn column is written. */
    static final byte VALUE = 0;
    static final byte ZERO = 1;
    static final byte DEFAULT = 2;
    static final byte NONE = 3;
    static final byte SHARED = 4;

    final Kind kind;
    int recordMark;

    // spawn batches
    Table table; // (not final: a recyclable spawn batch is refilled, see recyclableSpawn)
    int count; // grows while a spawn queue appends to its open batch
    long firstId;
    long[] ids;
    int idsFrom; // the batch's ids are ids[idsFrom, idsFrom + count)
    // a spawn queue's batch: its native columns come from these staged rows [stagedFrom, stagedFrom + count)
    dev.jtecs.storage.internal.StagedRows staged;
    int stagedFrom;
    boolean done; // placed, or released by a failed or discarded publication
    java.lang.foreign.MemorySegment idSegment; // a restoration's ids: count native longs, read at publication
    int[] restoredSlots; // a restoration's slots ascending, or null
    int[] restoredRows; // the batch index of each of restoredSlots' entities
    int restoredFrom; // where this batch's entries start in restoredSlots and restoredRows
    BatchCallback callback;
    int[] positions;
    Input[] inputs;
    byte[] modes;
    boolean keyed;
    boolean recyclable; // a plain spawn batch the transaction keeps for the next one once it is dropped

    // query batches
    final Table[] tables;
    final long[][] members; // null entries: not copied yet (the table's rows are unchanged since the call)
    final long[] structuralCounts;
    final int[] counts;
    private final Transaction transaction;
    final Component<?> component;
    final Input value;

    // sparse relationship edges the batch edits on each entity it places or changes (null: none)
    SparseEdit sparse;

    private BatchOp(Kind kind, Table table, int count, long firstId, long[] ids, int idsFrom,
            BatchCallback callback, int[] positions, Input[] inputs, byte[] modes, boolean keyed, Table[] tables,
            long[][] members, long[] structuralCounts, int[] counts, Component<?> component, Input value,
            Transaction transaction) {
        this.kind = kind;
        this.table = table;
        this.count = count;
        this.firstId = firstId;
        this.ids = ids;
        this.idsFrom = idsFrom;
        this.callback = callback;
        this.positions = positions;
        this.inputs = inputs;
        this.modes = modes;
        this.keyed = keyed;
        this.tables = tables;
        this.members = members;
        this.structuralCounts = structuralCounts;
        this.counts = counts;
        this.component = component;
        this.value = value;
        this.transaction = transaction;
    }

    /**
     * A spawn batch: consecutive ids from {@code firstId} when {@code ids} is {@code null}, else {@code ids}.
     */
    public static BatchOp spawn(Kind kind, SpawnPlan plan, int count, long firstId, long[] ids,
            BatchCallback callback) {
        return spawn(kind, plan, count, firstId, ids, 0, callback);
    }

    /**
     * A spawn batch whose explicit ids are {@code ids[idsFrom, idsFrom + count)} (a range of a shared pool, which
     * nobody writes while the batch is staged); consecutive from {@code firstId} when {@code ids} is {@code null}.
     */
    public static BatchOp spawn(Kind kind, SpawnPlan plan, int count, long firstId, long[] ids, int idsFrom,
            BatchCallback callback) {
        return new BatchOp(kind, plan.table(), count, firstId, ids, idsFrom, callback, plan.positions(),
                plan.inputs(), plan.modes(), plan.keyed(), null, null, null, null, null, null, null);
    }

    /**
     * A {@link Kind#SPAWN} batch as {@link #spawn(Kind, SpawnPlan, int, long, long[], int, BatchCallback)} makes
     * it, refilling {@code spare} (a batch the transaction recycled, see {@link Transaction#takeSpareSpawn}) when
     * there is one: a burst spawned every frame then allocates no descriptor. The batch is recyclable: once it is
     * dropped from the transaction (published or discarded) the transaction keeps it for the next one.
     */
    static BatchOp recyclableSpawn(BatchOp spare, SpawnPlan plan, int count, long firstId, long[] ids, int idsFrom,
            BatchCallback callback) {
        BatchOp op = spare;
        if (op == null) {
            op = spawn(Kind.SPAWN, plan, count, firstId, ids, idsFrom, callback);
        } else {
            op.table = plan.table();
            op.count = count;
            op.firstId = firstId;
            op.ids = ids;
            op.idsFrom = idsFrom;
            op.callback = callback;
            op.positions = plan.positions();
            op.inputs = plan.inputs();
            op.modes = plan.modes();
            op.keyed = plan.keyed();
        }
        op.recyclable = true;
        return op;
    }

    /**
     * Clears a recyclable batch the transaction dropped: every per-batch field back to what a new batch holds, and
     * no reference kept to the caller's callback, ids or inputs while it waits.
     */
    void recycle() {
        recordMark = 0;
        table = null;
        count = 0;
        firstId = 0;
        ids = null;
        idsFrom = 0;
        staged = null;
        stagedFrom = 0;
        done = false;
        idSegment = null;
        restoredSlots = null;
        restoredRows = null;
        restoredFrom = 0;
        callback = null;
        positions = null;
        inputs = null;
        modes = null;
        keyed = false;
        sparse = null;
    }

    /**
     * A query batch over the members of {@code tables} at the call. A {@code null} entry of {@code members} is a
     * lazy capture: the op registers itself with that table, which hands it a copy of its rows before they first
     * change ({@link #materialize}); an explicit entry was filtered at the call.
     */
    public static BatchOp query(Kind kind, Table[] tables, long[][] members, long[] structuralCounts, int[] counts,
            Component<?> component, Input value, BatchCallback writer, Transaction transaction) {
        BatchOp op = new BatchOp(kind, null, 0, 0, null, 0, writer, null, null, null, false, tables, members,
                structuralCounts, counts, component, value, transaction);
        int t = 0;
        try {
            for (; t < tables.length; t++) {
                if (members[t] == null) {
                    tables[t].addCapture(op);
                }
            }
        } catch (RuntimeException | Error e) { // all or none: a capture left behind would doom rows of no op
            for (int done = 0; done < t; done++) {
                if (members[done] == null) {
                    tables[done].removeCapture(op);
                }
            }
            throw e;
        }
        return op;
    }

    /**
     * An empty spawn batch of a spawn queue: members join one by one ({@link #addQueued}); its native columns are
     * copied from {@code staged} rows starting at {@code stagedFrom}, its other columns written as planned.
     */
    static BatchOp queued(SpawnPlan plan, dev.jtecs.storage.internal.StagedRows staged, int stagedFrom,
            int idsFrom) {
        BatchOp op = spawn(Kind.SPAWN, plan, 0, 0, null, idsFrom, null);
        op.staged = staged;
        op.stagedFrom = stagedFrom;
        return op;
    }

    /**
     * Adds a queued member whose id the queue has already written at {@code pool[idsFrom + count]} (the queue
     * writes every member's id there, and passes its current array: it may have grown). Ids stay implicit while
     * they are consecutive packed ids; the first one that is not makes the batch read them from the pool.
     */
    void addQueued(long id, long[] pool) {
        if (count == 0) {
            firstId = id;
        } else if (ids == null && id != firstId + count) {
            ids = pool;
        }
        if (ids != null) {
            ids = pool;
        }
        count++;
    }

    /** Attaches the sparse edge edit applied to each entity this batch places or changes; returns this op. */
    public BatchOp withSparse(SparseEdit edit) {
        this.sparse = edit;
        return this;
    }

    @Override
    public void materialize(Table table) {
        for (int t = 0; t < tables.length; t++) {
            if (tables[t] == table && members[t] == null) {
                dev.jtecs.entity.internal.AllocationFaults.beforeHeapGrowth(counts[t]); // the copy, as a growth
                long[] ids = new long[counts[t]];
                table.readEntities(0, ids.length, ids, 0);
                if (kind == Kind.DESPAWN) {
                    for (long id : ids) {
                        transaction.doom(dev.jtecs.entity.Entity.slot(id));
                    }
                }
                members[t] = ids;
            }
        }
    }

    @Override
    public boolean dooms() {
        return kind == Kind.DESPAWN;
    }

    /** Withdraws the lazy captures still registered (the op ran or was discarded). */
    void withdrawCaptures() {
        for (int t = 0; t < tables.length; t++) {
            if (members[t] == null) {
                tables[t].removeCapture(this);
            }
        }
    }

    /**
     * The ids a query batch captured, one array per archetype ({@code null} where not copied yet); shared, not
     * copied: do not modify.
     */
    public long[][] membersView() {
        return members;
    }

    public Kind kind() {
        return kind;
    }

    /** Whether later staging must publish after this operation (query batches), not before it. */
    public boolean isBoundary() {
        return kind == Kind.SET || kind == Kind.REMOVE || kind == Kind.DESPAWN;
    }

    /**
     * A restoration batch whose ids are the first {@code count} longs (native byte order) of {@code ids}, read at
     * publication: nothing per entity is copied at the call. {@code slots} (ascending) and {@code rows} (each
     * one's index in the batch), at {@code [slotsFrom, slotsFrom + count)} when not {@code null}, let the batch be
     * published in slot order.
     */
    static BatchOp restore(SpawnPlan plan, java.lang.foreign.MemorySegment ids, int count, BatchCallback callback,
            int[] slots, int[] rows, int slotsFrom) {
        BatchOp op = spawn(Kind.SPAWN_AT, plan, count, 0, null, 0, callback);
        op.idSegment = ids;
        op.restoredSlots = slots;
        op.restoredRows = rows;
        op.restoredFrom = slotsFrom;
        return op;
    }

    /** The id of entity {@code i} of a spawn batch. */
    long idAt(int i) {
        if (idSegment != null) {
            return dev.jtecs.storage.internal.SegmentReads.longAt(idSegment, i);
        }
        if (ids != null) {
            return ids[idsFrom + i];
        }
        return firstId + i;
    }

    /** Whether a spawn batch's ids are consecutive: entity {@code i} is {@link #firstId()} {@code + i}. */
    public boolean hasConsecutiveIds() {
        return ids == null && idSegment == null;
    }

    /** The first id of a spawn batch. */
    public long firstId() {
        return idSegment != null ? idAt(0) : ids == null ? firstId : ids[idsFrom];
    }

    /** Writes a spawn batch's ids, in batch order, into {@code out[offset, offset + count)}; returns {@code out}. */
    public long[] copyIds(long[] out, int offset) {
        if (idSegment != null) {
            dev.jtecs.storage.internal.SegmentReads.longs(idSegment, 0, out, offset, count);
        } else if (ids != null) {
            System.arraycopy(ids, idsFrom, out, offset, count);
        } else {
            for (int i = 0; i < count; i++) {
                out[offset + i] = firstId + i;
            }
        }
        return out;
    }

    /**
     * Sparse edge writes a batch applies to every entity it places or changes, right after the rows land: one
     * {@link SparseWriteQueue} operation over parallel arrays of relationships and targets.
     */
    public record SparseEdit(byte op, BaseRelationship<?>[] relationships, long[] targets, Object[] payloads) {
        public SparseEdit {
            if (relationships.length != targets.length || targets.length != payloads.length) {
                throw new IllegalArgumentException("one target and one payload per relationship");
            }
        }

        /** One edit of one edge (its payload {@code null} for a target-only relationship or a removal). */
        public static SparseEdit of(byte op, BaseRelationship<?> relationship, long target, Object payload) {
            return new SparseEdit(op, new BaseRelationship<?>[] {relationship}, new long[] {target},
                    new Object[] {payload});
        }
    }

    /** The planned writes of a spawn batch's columns, resolved at the call. */
    public record SpawnPlan(Table table, int[] positions, Input[] inputs, byte[] modes, boolean keyed,
            dev.jtecs.component.RelationshipValue[] sparseRequired) {
        public SpawnPlan {
            Objects.requireNonNull(table, "table");
            Objects.requireNonNull(sparseRequired, "sparseRequired");
        }
    }
}
