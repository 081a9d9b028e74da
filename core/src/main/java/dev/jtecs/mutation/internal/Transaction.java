package dev.jtecs.mutation.internal;

import dev.jtecs.entity.internal.Growth;

import dev.jtecs.component.Component;
import dev.jtecs.component.ComponentValue;
import dev.jtecs.component.Components;
import dev.jtecs.component.Input;
import dev.jtecs.component.NativeComponent;
import dev.jtecs.component.TagComponent;
import dev.jtecs.entity.Entity;
import dev.jtecs.storage.internal.StagedValues;
import dev.jtecs.storage.internal.Table;
import java.util.Arrays;

/**
 * The staged work of the open transaction, stored flat: one record per entity (id, slot, state) and, per record,
 * a linked list of entries (component, last staged input; a {@code null} input stages a removal).
 *
 * <p>Records are plain {@code int} handles into parallel arrays, so staging a million spawns creates no objects
 * beyond the amortized growth of a few arrays, and a steady state of stage/commit allocates nothing.
 *
 * <p>A committed entity's lone change of one tag without requirements, or its lone removal of a plain component
 * (see {@link #stageTagMove}), is kept more compactly still, as a tag move (id, component, add or remove, staging
 * position): no record, no entry. Any later call that stages for its slot
 * turns it into a record ({@link #find}), and so does a batch boundary, so every other path sees records only.
 *
 * <p>A committed entity's despawn while its slot has nothing staged and no batch boundary is open is a quiet
 * despawn ({@link #stageQuietDespawn}): its slot's doom mark and its id in a list, with its staging position, and no
 * record. Every staging path reads the doom mark before looking for a record, so none needs one; the drain
 * publishes quiet despawns among the despawn records in call order.
 *
 * <p>Invariants: a slot has at most one open record or tag move ({@code recordBySlot[slot]} is a record's handle
 * + 1, a tag move's -(index + 1), or 0); entry
 * lists keep first-staging order and hold each component at most once; records handed to the drain by
 * {@link #seal()} can no longer be found by slot, so work staged while the drain runs opens fresh records (the
 * next wave).
 *
 * <pre>
 *   record r:  id[r]  slot[r]  state[r]  head[r] ─► entry e0 ─► e3 ─► -1
 *   entry e:   component[e]  input[e]  next[e]
 * </pre>
 */
public final class Transaction {
    private int[] recordBySlot = new int[1024];

    // records of the open wave: [0, size); records of the sealed wave: [sealedStart, sealedEnd)
    private long[] ids = new long[64];
    private int[] slots = new int[64];
    private TxState[] states = new TxState[64];
    private int[] heads = new int[64];
    private int[] tails = new int[64];
    private int size;
    private int sealedStart;
    private int sealedEnd;

    // batch operations in call order; those of the sealed wave are [0, sealedOps)
    private final java.util.ArrayList<BatchOp> ops = new java.util.ArrayList<>();
    // the last of ops, or null when there is none: a spawn queue asks for it on every spawn (isLastOpenOp)
    private BatchOp lastOp;
    private int sealedOps;
    private int openBoundaries;
    private int batchCancels;
    private boolean sealedBatchCancels;
    // records below this handle (and at or above sealedEnd) precede a batch boundary: closed to further staging
    private int closedBefore;
    // slots whose entity is being despawned in this transaction (bit per slot): a staged batchDespawn selected
    // it, a despawn is staged for it, or a cascade despawned it; unlike records, marks stay findable while draining
    private long[] doomed = new long[16];

    // explicit ids of spawn batches, one range per batch; reused once no batch operation is left
    private long[] batchIds = new long[0];
    private int batchIdCount;

    // tag moves: a committed entity's one staged change of one tag (no requirements), kept as (id, tag id, add)
    // instead of a record; recordBySlot[slot] is -(move + 1). Sealed ones are [0, sealedTagEnd). A move's mark is
    // the number of records begun before it: it publishes after those records' moves and before the others.
    private long[] tagIds = new long[64];
    private int[] tagComponents = new int[64]; // the tag's id, + 1 << 31 when the move removes it
    private int[] tagMarks = new int[64];
    // the value a move adds (a plain component's ComponentValue), or null (a tag, a removal); only moves below
    // tagInputsEnd can hold one, so a wave of tag moves never clears the array
    private Input[] tagInputs = new Input[64];
    private int tagInputsEnd;
    // or the value a move adds as its index in the staged values of its component (a plain record's fields, read
    // when the call was made: see StagedValues), -1 for none; set for every move
    private int[] tagValues = new int[64];
    // the native components asked about so far (few in a world: a list, not an array by component id, since ids
    // are process-wide), each with its staged values, or null for one whose values are kept as objects; the last
    // one found is remembered, as calls and runs of moves name the same component again and again
    private int[] stagedIds = new int[4];
    private StagedValues[] stagedFor = new StagedValues[4];
    private int stagedCount;
    private int lastStaged; // the index of the last one found (nothing to find while stagedCount is 0)
    private StagedValues[] stagedInUse = new StagedValues[4];
    private int stagedInUseCount;
    private int tagCount;
    private int sealedTagEnd;
    private long seals;

    // the open tag moves as one run, while they are one (runState RUN): each left runTable with the same change
    // (runPacked) and the same mark (runMark), none lapsed since, and runStamp is runTable's structural count when
    // the first was staged. The drain plans such a run once instead of move by move, while that table is unchanged
    // (see MovePlacement.planRun). sealedRunTable is the sealed wave's run table, or null when it has none.
    private static final int NO_RUN = 0;
    private static final int RUN = 1;
    private static final int MIXED = 2;
    private int runState;
    private Table runTable;
    private int runPacked;
    private int runMark;
    private long runStamp;
    private Table sealedRunTable;
    private long sealedRunStamp;

    // quiet despawns: the despawn of a published entity whose slot had nothing staged while no batch boundary was
    // open, kept as its id (its slot is doomed) instead of a record. Sealed ones are [0, sealedQuietEnd); a mark is
    // the number of records begun before the despawn: it publishes before record {@code mark}, as a record would.
    private long[] quietIds = new long[64];
    private int[] quietMarks = new int[64];
    private int quietCount;
    private int sealedQuietEnd;

    // compact spawns (CompactSpawns): a staged spawn kept as its id and its values' bits, no record;
    // recordBySlot[slot] is COMPACT. Those of the sealed wave are the first sealedCompact
    private static final int COMPACT = Integer.MIN_VALUE;
    private CompactSpawns compact;
    private int sealedCompact;
    private int openCompact; // the compact spawns of the open wave (one field: tag moves read it on every call)

    private Component<?>[] entryComponents = new Component<?>[128];
    private Input[] entryInputs = new Input[128];
    private int[] entryNext = new int[128];
    private int entryCount;

    /**
     * The open record of a slot, or -1 when the slot has nothing staged. A tag move staged for the slot becomes
     * a record first (with its one entry), so every caller sees records only.
     */
    public int find(int slot) {
        if (slot >= recordBySlot.length) {
            return -1;
        }
        int handle = recordBySlot[slot];
        if (handle == COMPACT) {
            promoteCompactSpawns();
            return recordBySlot[slot] - 1;
        }
        return handle >= 0 ? handle - 1 : promote(-handle - 1);
    }

    /** Whether anything is staged for a slot: an open or closed record of this wave, or a tag move. */
    public boolean hasStaged(int slot) {
        return slot < recordBySlot.length && recordBySlot[slot] != 0;
    }

    /** The open record of a slot, or -1 when it has none (a tag move or a compact spawn staged for it stays one). */
    public int peek(int slot) {
        return slot < recordBySlot.length ? Math.max(recordBySlot[slot], 0) - 1 : -1;
    }

    // ---------------------------------------------------------------- tag moves

    private static final int REMOVAL = 1 << 31;

    /**
     * Stages the lone change of one tag (without requirements) of a committed entity whose slot has nothing
     * staged, while no batch boundary is open: a compact move the drain publishes like a record's, at a fraction
     * of a record's cost. Any later staging call for the slot turns it into a record ({@link #find}). A removal
     * may name any component whose removal is a plain row move (no value to write, nothing to release beyond
     * the row: the caller decides, see {@code Staging}).
     */
    public void stageTagMove(long id, int slot, Component<?> tag, boolean add, Table table) {
        assert !add || tag instanceof TagComponent : "a compact addition of a data component carries its value: " + tag;
        stageTagMove(id, slot, tag, add, null, table);
    }

    /**
     * {@link #stageTagMove(long, int, Component, boolean, Table)} of an addition that carries the component's value: the
     * lone addition of a plain component without requirements (again the caller decides, see {@code Staging});
     * the drain writes {@code value} into the moved row.
     */
    public void stageValueMove(long id, int slot, Input value, Table table) {
        StagedValues values = value instanceof ComponentValue<?> given ? stagedValuesOf(given.component()) : null;
        if (values == null) {
            stageTagMove(id, slot, value.component(), true, value, table);
            return;
        }
        if (values.size() == 0) {
            noteStagedInUse(values); // listed before its first value, so that every value it holds is reset
        }
        // the fields next (growth before anything is written); should the move's own growth then fail, the value
        // is one nobody refers to, dropped with the others at the next reset
        int at = values.append(((ComponentValue<?>) value).value());
        stageTagMove(id, slot, value.component(), true, null, table);
        tagValues[tagCount - 1] = at;
    }

    /**
     * {@link #stageValueMove} of a plain record's value given as its fields' bits ({@code RecordWriter.bits}, one
     * long a field), of a component whose values are staged as bits ({@code StagedValues.plainWriter} has one).
     */
    public void stageBitsMove(long id, int slot, NativeComponent<?> component, long[] bits, Table table) {
        StagedValues values = stagedValuesOf(component);
        if (values.size() == 0) {
            noteStagedInUse(values);
        }
        int at = values.appendBits(bits); // growth first, as stageValueMove's append
        stageTagMove(id, slot, component, true, null, table);
        tagValues[tagCount - 1] = at;
    }

    /** The staged values of {@code component} when its values are staged as bits, else null. */
    private StagedValues stagedValuesOf(Component<?> component) {
        int id = component.id();
        int k = stagedIndex(id);
        if (k >= 0) {
            return stagedFor[k];
        }
        StagedValues values = StagedValues.holds(component) ? new StagedValues((NativeComponent<?>) component) : null;
        if (stagedCount == stagedIds.length) {
            var grownIds = Growth.copyOf(stagedIds, stagedCount * 2); // both first: they stay in step
            var grownFor = Growth.copyOf(stagedFor, stagedCount * 2);
            stagedIds = grownIds;
            stagedFor = grownFor;
        }
        stagedIds[stagedCount] = id;
        stagedFor[stagedCount] = values;
        lastStaged = stagedCount++;
        return values;
    }

    /** The staged values of component {@code id}, which a move holds a value of. */
    private StagedValues stagedValuesById(int id) {
        int k = stagedIndex(id);
        if (k < 0) {
            throw new IllegalStateException("no staged values of component " + id);
        }
        return stagedFor[k];
    }

    /** Where component {@code id} is in the list of components asked about, or -1; the last one found first. */
    private int stagedIndex(int id) {
        if (lastStaged < stagedCount && stagedIds[lastStaged] == id) {
            return lastStaged;
        }
        for (int k = 0; k < stagedCount; k++) {
            if (stagedIds[k] == id) {
                lastStaged = k;
                return k;
            }
        }
        return -1;
    }

    private void noteStagedInUse(StagedValues values) {
        if (stagedInUseCount == stagedInUse.length) {
            stagedInUse = Growth.copyOf(stagedInUse, stagedInUseCount * 2);
        }
        stagedInUse[stagedInUseCount++] = values;
    }

    // table: the entity's table now (the move's source)
    private void stageTagMove(long id, int slot, Component<?> tag, boolean add, Input value, Table table) {
        if (slot >= recordBySlot.length) {
            growSlots(slot);
        }
        if (recordBySlot[slot] != 0) {
            throw new IllegalStateException("slot " + slot + " already has staged work");
        }
        if (tagCount == tagIds.length) {
            growTagMoves();
        }
        int move = tagCount++;
        int packed = add ? tag.id() : tag.id() | REMOVAL;
        tagIds[move] = id;
        tagComponents[move] = packed;
        tagMarks[move] = size;
        int staged = size + openCompact; // a compact spawn ends a run as its record would
        if (runState == RUN) {
            if (table != runTable || packed != runPacked || staged != runMark) {
                runState = MIXED;
            }
        } else if (runState == NO_RUN) {
            runState = RUN;
            runTable = table;
            runPacked = packed;
            runMark = staged;
            runStamp = table.dirty().structuralCount();
        }
        if (value != null) {
            tagInputs[move] = value;
            tagInputsEnd = move + 1;
        }
        tagValues[move] = -1;
        recordBySlot[slot] = -(move + 1);
    }

    /** Makes room in the slot index for {@code slot} (out of line: the staging paths that call it stay small). */
    private void growSlots(int slot) {
        recordBySlot = Growth.copyOf(recordBySlot, Math.max(slot + 1, recordBySlot.length * 2));
    }

    /** Doubles the tag-move arrays (out of line, as {@link #growSlots}). */
    private void growTagMoves() {
        int capacity = tagCount * 2;
        // every array first, then assign: a failed growth leaves them all as they were, in step
        var grownIds = Growth.copyOf(tagIds, capacity);
        var grownComponents = Growth.copyOf(tagComponents, capacity);
        var grownMarks = Growth.copyOf(tagMarks, capacity);
        var grownInputs = Growth.copyOf(tagInputs, capacity);
        var grownValues = Growth.copyOf(tagValues, capacity);
        tagIds = grownIds;
        tagComponents = grownComponents;
        tagMarks = grownMarks;
        tagInputs = grownInputs;
        tagValues = grownValues;
    }

    /**
     * Turns open tag move {@code move} into a record with its one entry; returns the record. The record and its
     * entry are made room for first, so a failed allocation leaves the move as it was.
     */
    private int promote(int move) {
        ensureRecordRoom();
        ensureEntryRoom();
        Input value = tagMoveInput(move); // a value staged as bits is built again here, before anything changes
        long id = tagIds[move];
        int slot = Entity.slot(id);
        int packed = tagComponents[move];
        tagIds[move] = 0; // lapsed: the record carries it now
        runState = MIXED;
        recordBySlot[slot] = 0;
        int record = begin(id, slot, TxState.STAGED_MUTATE);
        Component<?> tag = Components.findById(packed & ~REMOVAL);
        put(record, tag, (packed & REMOVAL) != 0 ? null : value != null ? value : tag);
        return record;
    }

    /** Turns every open tag move into a record (a batch boundary is staged: call order must hold). */
    private void promoteAll() {
        for (int move = sealedTagEnd; move < tagCount; move++) {
            if (tagIds[move] != 0) {
                promote(move);
            }
        }
    }

    /** Whether the open wave holds a tag move that no later call has turned into a record. */
    public boolean hasOpenTagMoves() {
        for (int move = sealedTagEnd; move < tagCount; move++) {
            if (tagIds[move] != 0) {
                return true;
            }
        }
        return false;
    }

    /**
     * The table every sealed tag move left when they are one run: the same change, the same mark, none lapsed, each
     * staged while its entity was in this table. {@code null} otherwise. The run's entities are still all in it
     * while its structural count is {@link #sealedRunStamp()} (nothing has entered or left it since).
     */
    public Table sealedRunTable() {
        return sealedRunTable;
    }

    /** {@link #sealedRunTable()}'s structural count when the run's first move was staged. */
    public long sealedRunStamp() {
        return sealedRunStamp;
    }

    /** The sealed tag moves: {@code [0, sealedTagMoves())}; a lapsed one has id 0. */
    public int sealedTagMoves() {
        return sealedTagEnd;
    }

    /** The entity a tag move changes, or 0 once it lapsed (turned into a record) or was published. */
    public long tagMoveId(int move) {
        return tagIds[move];
    }

    /** The tag a move adds or removes. */
    public int tagMoveComponent(int move) {
        return tagComponents[move] & ~REMOVAL;
    }

    public boolean tagMoveAdds(int move) {
        return (tagComponents[move] & REMOVAL) == 0;
    }

    /**
     * The value an addition writes into the moved row, or {@code null} for a tag or a removal. A value staged as
     * bits is built again (a new, equal record): the drain writes values with {@link #writeTagMoveValue} instead.
     */
    public Input tagMoveInput(int move) {
        int at = tagValues[move];
        if (at >= 0) {
            StagedValues values = stagedValuesById(tagComponents[move] & ~REMOVAL);
            @SuppressWarnings("unchecked")
            NativeComponent<Record> component = (NativeComponent<Record>) values.component();
            return component.of((Record) values.record(at));
        }
        return move < tagInputsEnd ? tagInputs[move] : null;
    }

    /** The index of move {@code move}'s value among its component's values staged as bits, or -1. */
    public int tagMoveStagedValue(int move) {
        return tagValues[move];
    }

    /**
     * Copies the values staged as bits of moves {@code [move, move + n)}, which follow one another among their
     * component's staged values ({@link #tagMoveStagedValue} one apart), into rows {@code [row, row + n)} of
     * {@code target}, where their component sits at {@code position}: one copy a field.
     */
    public void writeStagedValues(int move, int n, Table target, int position, int row) {
        stagedValuesById(tagComponents[move] & ~REMOVAL).copyInto(target, position, row, tagValues[move], n);
    }

    /** Whether move {@code move} adds a value (it writes one into the moved row). */
    public boolean tagMoveHasValue(int move) {
        return tagValues[move] >= 0 || move < tagInputsEnd && tagInputs[move] != null;
    }

    /**
     * Writes the value move {@code move} adds into row {@code row} of {@code target}, where its component sits at
     * {@code position}; writes nothing for a move without one ({@link #tagMoveHasValue}). A value kept as an object
     * is written through its accessors (user code, which may throw); one staged as bits is copied.
     */
    public void writeTagMoveValue(int move, Table target, int position, int row) {
        if (tagValues[move] >= 0) {
            writeStagedValues(move, 1, target, position, row);
            return;
        }
        Input value = move < tagInputsEnd ? tagInputs[move] : null;
        if (value != null) {
            target.writeInput(position, row, value);
        }
    }

    /** The number of the wave's records begun before the move was staged: it publishes before record {@code mark}. */
    public int tagMoveMark(int move) {
        return tagMarks[move];
    }

    /** Marks a sealed tag move published (or lapsed). */
    public void tagMoveDone(int move) {
        tagIds[move] = 0;
    }

    /** {@link #tagMoveDone} for moves {@code [from, to)}. */
    public void tagMovesDone(int from, int to) {
        java.util.Arrays.fill(tagIds, from, to, 0L);
    }

    /** The tag and direction of a move in one int: equal for two moves that make the same change. */
    public int tagMovePacked(int move) {
        return tagComponents[move];
    }

    /**
     * Whether a record precedes a batch boundary of the open wave: its work publishes before that batch
     * operation runs, so later calls for its slot open a new record instead of changing it.
     */
    public boolean isClosed(int record) {
        return record < closedBefore;
    }

    /** Opens a record for a slot that has none (or only a closed one); returns its handle. */
    public int begin(long id, int slot, TxState state) {
        if (slot >= recordBySlot.length) {
            growSlots(slot);
        }
        int handle = recordBySlot[slot];
        if (handle < 0 || handle != 0 && !isClosed(handle - 1)) { // (a tag move is never closed)
            throw new IllegalStateException("slot " + slot + " already has staged work");
        }
        ensureRecordRoom();
        int record = size++;
        ids[record] = id;
        slots[record] = slot;
        states[record] = state;
        heads[record] = -1;
        tails[record] = -1;
        recordBySlot[slot] = record + 1;
        return record;
    }

    /** Grows the record arrays when full. */
    private void ensureRecordRoom() {
        if (size == ids.length) {
            growRecords(ids.length * 2);
        }
    }

    /** Grows the record arrays to {@code capacity}, all of them first, then assigned: a failure leaves them in step. */
    private void growRecords(int capacity) {
        var grownIds = Growth.copyOf(ids, capacity);
        var grownSlots = Growth.copyOf(slots, capacity);
        var grownStates = Growth.copyOf(states, capacity);
        var grownHeads = Growth.copyOf(heads, capacity);
        var grownTails = Growth.copyOf(tails, capacity);
        ids = grownIds;
        slots = grownSlots;
        states = grownStates;
        heads = grownHeads;
        tails = grownTails;
    }

    public long id(int record) {
        return ids[record];
    }

    public int slot(int record) {
        return slots[record];
    }

    public TxState state(int record) {
        return states[record];
    }

    public void setState(int record, TxState state) {
        states[record] = state;
    }

    // ---------------------------------------------------------------- entries

    /** The first entry of a record, or -1. */
    public int firstEntry(int record) {
        return heads[record];
    }

    /** The entry after {@code entry}, or -1. */
    public int nextEntry(int entry) {
        return entryNext[entry];
    }

    public Component<?> entryComponent(int entry) {
        return entryComponents[entry];
    }

    /** The staged input of an entry, or {@code null} when it stages a removal. */
    public Input entryInput(int entry) {
        return entryInputs[entry];
    }

    /** The entry of a component in a record, or -1. */
    public int findEntry(int record, Component<?> component) {
        for (int e = heads[record]; e >= 0; e = entryNext[e]) {
            if (entryComponents[e] == component) {
                return e;
            }
        }
        return -1;
    }

    /** Stages a write ({@code input}) or a removal ({@code null}) of one component; the last one wins. */
    public void put(int record, Component<?> component, Input input) {
        int existing = findEntry(record, component);
        if (existing >= 0) {
            entryInputs[existing] = input;
            return;
        }
        ensureEntryRoom();
        int entry = entryCount++;
        entryComponents[entry] = component;
        entryInputs[entry] = input;
        entryNext[entry] = -1;
        if (tails[record] < 0) {
            heads[record] = entry;
        } else {
            entryNext[tails[record]] = entry;
        }
        tails[record] = entry;
    }

    /** Grows the entry arrays when full. */
    private void ensureEntryRoom() {
        if (entryCount == entryComponents.length) {
            growEntries(entryCount * 2);
        }
    }

    /** Grows the entry arrays to {@code capacity}, all of them first, then assigned: a failure leaves them in step. */
    private void growEntries(int capacity) {
        var grownEntryComponents = Growth.copyOf(entryComponents, capacity);
        var grownEntryInputs = Growth.copyOf(entryInputs, capacity);
        var grownEntryNext = Growth.copyOf(entryNext, capacity);
        entryComponents = grownEntryComponents;
        entryInputs = grownEntryInputs;
        entryNext = grownEntryNext;
    }

    /** Removes a component from a staged spawn's shape. */
    public void drop(int record, Component<?> component) {
        int previous = -1;
        for (int e = heads[record]; e >= 0; previous = e, e = entryNext[e]) {
            if (entryComponents[e] == component) {
                if (previous < 0) {
                    heads[record] = entryNext[e];
                } else {
                    entryNext[previous] = entryNext[e];
                }
                if (tails[record] == e) {
                    tails[record] = previous;
                }
                entryComponents[e] = null;
                entryInputs[e] = null;
                return;
            }
        }
    }

    /** Moves a record to a new state, forgetting its staged entries (a despawn cancels them). */
    public void cancelInto(int record, TxState state) {
        for (int e = heads[record]; e >= 0; e = entryNext[e]) {
            entryComponents[e] = null;
            entryInputs[e] = null;
        }
        heads[record] = -1;
        tails[record] = -1;
        states[record] = state;
    }

    // ---------------------------------------------------------------- waves

    // ---------------------------------------------------------------- batch operations

    /** A recycled spawn batch to refill ({@link BatchOp#recyclableSpawn}), or null; the transaction forgets it. */
    BatchOp takeSpareSpawn() {
        BatchOp spare = spareSpawn;
        spareSpawn = null;
        return spare;
    }

    private BatchOp spareSpawn; // the last recyclable spawn batch dropped, kept for the next one

    private int opsRoom; // the capacity ops is known to have (an ArrayList hides its own)

    /**
     * Makes room for {@code n} more batch operations, so that the {@link #addOp}s that follow cannot fail: a caller
     * reserves before it changes anything (ids reserved, slots doomed, captures registered), and a failed
     * allocation then leaves everything as it was.
     */
    public void reserveOps(int n) {
        opsRoom = Growth.reserve(ops, opsRoom, ops.size() + n);
    }

    /**
     * Stages a batch operation after every record staged so far, in room {@link #reserveOps} made (or makes now,
     * before anything changes). A boundary operation (batch set, remove or despawn) closes those records: they
     * publish before it runs, and work staged afterwards publishes after it.
     */
    public void addOp(BatchOp op) {
        reserveOps(1);
        if (op.isBoundary()) {
            promoteCompactSpawns(); // staged before the boundary: records of its segment, where call order puts them
        }
        if (op.isBoundary() && tagCount > sealedTagEnd) {
            promoteAll(); // staged before the boundary: they publish before it, as records
        }
        op.recordMark = size;
        ops.add(op);
        lastOp = op;
        if (op.isBoundary()) {
            openBoundaries++;
            closedBefore = size;
        }
    }

    /**
     * Reserves {@code count} longs of the id pool for one spawn batch's explicit ids and returns where they start
     * in {@link #batchIds()} (read the array after this call: the pool may have grown). Growth copies into a new
     * array, and ranges handed out are never written again, so a batch may keep the array it was given. The pool
     * is reused from the start once no batch operation is left, so a steady state of batches allocates nothing.
     */
    public int reserveBatchIds(int count) {
        if (count > batchIds.length - batchIdCount) {
            batchIds = Growth.copyOf(batchIds, Math.max(batchIdCount + count, batchIds.length * 2));
        }
        int from = batchIdCount;
        batchIdCount += count;
        return from;
    }

    /** The id pool {@link #reserveBatchIds} hands out ranges of. */
    public long[] batchIds() {
        return batchIds;
    }

    /** Notes that a member of a spawn batch was despawned before placement (the batch must skip it). */
    public void noteBatchCancel() {
        batchCancels++;
    }

    /** Whether any spawn-batch member of the sealed wave was cancelled (placement then checks each id). */
    public boolean sealedBatchCancels() {
        return sealedBatchCancels;
    }

    /** Whether the open wave holds a batch set, remove or despawn (write-through would overtake it). */
    public boolean hasOpenBoundary() {
        return openBoundaries > 0;
    }

    /** The batch operations staged since the last seal (what a sparse write staged now comes after). */
    public int openOps() {
        return ops.size() - sealedOps;
    }

    /** The batch operations of the sealed wave, in call order. */
    public int sealedOps() {
        return sealedOps;
    }

    /**
     * Whether {@code op} is the last batch operation of the open wave: work staged now still comes after it in
     * call order, so a spawn queue may add members to it.
     */
    boolean isLastOpenOp(BatchOp op) {
        return lastOp == op && ops.size() > sealedOps;
    }

    public BatchOp op(int index) {
        return ops.get(index);
    }

    // ---------------------------------------------------------------- doomed entities

    /** Makes room for selection marks on every slot below {@code slots}, so that {@link #doom} cannot fail. */
    public void reserveDoom(int slots) {
        int words = (slots + 63) >>> 6;
        if (words > doomed.length) {
            doomed = Growth.copyOf(doomed, Math.max(words, doomed.length * 2));
        }
    }

    /** Marks a slot whose entity is being despawned (selected by a batch despawn, or its despawn staged). */
    public void doom(int slot) {
        int word = slot >>> 6;
        if (word >= doomed.length) {
            reserveDoom(slot + 1);
        }
        if ((doomed[word] & (1L << slot)) == 0) {
            doomed[word] |= 1L << slot;
            doomedCount++;
        }
    }

    /** Drops every selection mark (the world cleared its entities). */
    public void undoomAll() {
        Arrays.fill(doomed, 0L);
        doomedCount = 0;
    }

    /** Whether any slot carries a selection mark. */
    public boolean anyDoomed() {
        return doomedCount > 0;
    }

    private int doomedCount;

    public boolean isDoomed(int slot) {
        if (doomedCount == 0) { // the common case: no despawn staged, and the bitset stays out of the cache
            return false;
        }
        int word = slot >>> 6;
        return word < doomed.length && (doomed[word] & (1L << slot)) != 0;
    }

    public void undoom(int slot) {
        int word = slot >>> 6;
        if (word < doomed.length && (doomed[word] & (1L << slot)) != 0) {
            doomed[word] &= ~(1L << slot);
            doomedCount--;
        }
    }

    /**
     * Drops the marks of the slots of {@code ids[0, n)}, distinct entities whose despawns were staged, so each slot
     * carries a mark. When theirs are the only marks and the bitset is no more than eight words per slot of the run,
     * every word is cleared in one fill instead of one read-modify-write per slot (a despawn of a whole archetype, a
     * cascade's subtree).
     */
    public void undoomRun(long[] ids, int n) {
        if (n == doomedCount && doomed.length <= 8L * n) {
            assert allDoomed(ids, n) : "a run's slot without its despawn's mark";
            Arrays.fill(doomed, 0L);
            doomedCount = 0;
            return;
        }
        for (int i = 0; i < n; i++) {
            undoom(Entity.slot(ids[i]));
        }
    }

    private boolean allDoomed(long[] ids, int n) {
        for (int i = 0; i < n; i++) {
            if (!isDoomed(Entity.slot(ids[i]))) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether no entity has anything staged: no record or tag move (in the wave being drained either), no batch
     * operation, no quiet despawn waiting and no slot marked.
     */
    public boolean holdsNoWork() {
        return size == 0 && tagCount == 0 && ops.size() == 0 && quietCount == sealedQuietEnd && doomedCount == 0
                && compactCount() == 0;
    }

    /** Whether the open wave has no records, tag moves, quiet despawns, batch operations or compact spawns. */
    public boolean isEmpty() {
        return size == sealedEnd && ops.size() == sealedOps && tagCount == sealedTagEnd
                && quietCount == sealedQuietEnd && openCompact == 0;
    }

    // ---------------------------------------------------------------- compact spawns

    /** Hands the transaction the world's compact spawns (once, as the model is built). */
    void attach(CompactSpawns spawns) {
        compact = spawns;
    }

    private int compactCount() {
        return compact == null ? 0 : compact.count();
    }

    /** The compact spawns of the sealed wave (placed first in its spawn phase). */
    public int sealedCompactSpawns() {
        return sealedCompact;
    }

    /** The tag moves of the open wave (what a compact spawn staged now comes after). */
    int openTagMoves() {
        return tagCount - sealedTagEnd;
    }

    /** The quiet despawns of the open wave (what a compact spawn staged now comes after). */
    int openQuietDespawns() {
        return quietCount - sealedQuietEnd;
    }

    /** Makes room in the slot index for every slot below {@code slots}, so that {@link #markCompact} cannot fail. */
    void reserveSlotMarks(int slots) {
        if (slots > recordBySlot.length) {
            growSlots(slots - 1);
        }
    }

    /** Marks the slot of a compact spawn just staged: a later call for it finds the spawn as a record. */
    void markCompact(int slot) {
        recordBySlot[slot] = COMPACT;
        openCompact++;
    }

    /**
     * Turns every compact spawn of the open wave into the record it stands for, where call order puts it among
     * the records: before the record its mark names and after those begun before it, each with its inputs rebuilt
     * from their bits, in call order, and the state tag last, as {@code World.spawn} stages them. The marks of the
     * tag moves, quiet despawns and batch operations staged after a spawn move up by the records now before them.
     * Everything that allocates (the inputs, the room) is made first, so a failure changes nothing.
     */
    private void promoteCompactSpawns() {
        int k = openCompact;
        if (k == 0) {
            return;
        }
        assert sealedEnd == 0 && sealedCompact == 0 : "compact spawns are staged only while no drain runs";
        Input[][] inputs = compact.rebuildInputs();
        int entries = 0;
        for (Input[] spawn : inputs) {
            entries += spawn.length;
        }
        if (ids.length < size + k) {
            growRecords(Math.max(size + k, ids.length * 2));
        }
        if (entryComponents.length < entryCount + entries) {
            growEntries(Math.max(entryCount + entries, entryComponents.length * 2));
        }
        // merge, from the back: spawn i goes before the record its mark names (recordsBefore), after those before
        int r = size - 1;
        int i = k - 1;
        for (int w = size + k - 1; w >= 0; w--) {
            if (r >= 0 && (i < 0 || r >= compact.recordsBefore(i))) {
                ids[w] = ids[r];
                slots[w] = slots[r];
                states[w] = states[r];
                heads[w] = heads[r];
                tails[w] = tails[r];
                if (recordBySlot[slots[w]] > 0) {
                    recordBySlot[slots[w]] = w + 1;
                }
                r--;
            } else {
                long id = compact.id(i);
                int slot = Entity.slot(id);
                ids[w] = id;
                slots[w] = slot;
                states[w] = TxState.STAGED_SPAWN;
                heads[w] = -1;
                tails[w] = -1;
                recordBySlot[slot] = w + 1;
                for (Input input : inputs[i]) {
                    put(w, input.component(), input);
                }
                i--;
            }
        }
        size += k;
        closedBefore = closedBefore == 0 ? 0 : closedBefore + k;
        int spawn = 0;
        for (int move = 0; move < tagCount; move++) { // (no sealed moves: no drain runs)
            while (spawn < k && compact.tagMovesBefore(spawn) <= move) {
                spawn++;
            }
            tagMarks[move] += spawn;
        }
        if (runState == RUN) {
            runState = MIXED; // its moves' marks may differ now
        }
        spawn = 0;
        for (int q = 0; q < quietCount; q++) {
            while (spawn < k && compact.quietBefore(spawn) <= q) {
                spawn++;
            }
            quietMarks[q] += spawn;
        }
        for (int op = sealedOps; op < ops.size(); op++) {
            // spawn batches (no boundary is open while compact spawns are): a mark only a boundary reads
            ops.get(op).recordMark += k;
        }
        compact.clear();
        openCompact = 0;
    }

    // ---------------------------------------------------------------- quiet despawns

    /**
     * Stages the despawn of a published entity whose slot has nothing staged (no record, no tag move), while no
     * batch boundary is open: its slot is doomed, which every later staging call for it checks first, and its id
     * is listed instead of a record. The drain publishes it exactly where a despawn record begun now would
     * publish. Room is made first: a failed allocation leaves nothing staged and the slot unmarked.
     */
    public void stageQuietDespawn(long id, int slot) {
        assert !isDoomed(slot) && !hasStaged(slot) : "slot " + slot + " already has staged work";
        if (quietCount == quietIds.length) {
            growQuietDespawns(quietCount * 2);
        }
        doom(slot); // (may grow the marks first: a failure there changes nothing either)
        quietIds[quietCount] = id;
        quietMarks[quietCount] = size;
        quietCount++;
    }

    /**
     * Makes room for {@code count} more quiet despawns of slots up to {@code highestSlot}, so that the next
     * {@code count} {@link #stageQuietDespawn} calls allocate nothing. A failed allocation changes nothing.
     */
    public void reserveQuietDespawns(int count, int highestSlot) {
        if (quietCount + count > quietIds.length) {
            growQuietDespawns(Growth.nextCapacity(quietIds.length, quietCount + count, Long.BYTES));
        }
        reserveDoom(highestSlot + 1);
    }

    private void growQuietDespawns(int capacity) {
        var grownIds = Growth.copyOf(quietIds, capacity); // both first: a failure leaves them in step
        var grownMarks = Growth.copyOf(quietMarks, capacity);
        quietIds = grownIds;
        quietMarks = grownMarks;
    }

    /** The sealed quiet despawns: {@code [0, sealedQuietDespawns())}, in call order. */
    public int sealedQuietDespawns() {
        return sealedQuietEnd;
    }

    /** The ids of the quiet despawns (read {@code [0, sealedQuietDespawns())}); the array itself, not a copy. */
    long[] quietDespawnIds() {
        return quietIds;
    }

    /** The quiet despawns staged so far, sealed and open: {@code [0, quietDespawnCount())}. */
    public int quietDespawnCount() {
        return quietCount;
    }

    /** The id of quiet despawn {@code despawn}, below {@link #quietDespawnCount()}. */
    public long quietDespawnId(int despawn) {
        return quietIds[despawn];
    }

    /**
     * Reverses the order of the open quiet despawns {@code [from, to)} when they all publish at the same place
     * among the records (the same mark: no record was begun between them); returns whether it did. Their slots,
     * marks and number stay as they were; only the order in which they publish (and free their slots) changes.
     *
     * @throws IllegalArgumentException when the range is not within the open quiet despawns
     */
    public boolean reverseQuietDespawns(int from, int to) {
        if (from < sealedQuietEnd || from > to || to > quietCount) {
            throw new IllegalArgumentException("quiet despawns [" + from + ", " + to + ") are not within the open ["
                    + sealedQuietEnd + ", " + quietCount + ")");
        }
        if (to - from < 2 || quietMarks[from] != quietMarks[to - 1]) {
            return false; // (marks never decrease along the list: equal ends, equal all)
        }
        for (int i = from, j = to - 1; i < j; i++, j--) {
            long swap = quietIds[i];
            quietIds[i] = quietIds[j];
            quietIds[j] = swap;
        }
        return true;
    }

    /** The number of the wave's records begun before a quiet despawn: it publishes before record {@code mark}. */
    public int quietDespawnMark(int despawn) {
        return quietMarks[despawn];
    }

    /** The ids of the records (read {@code [sealedStart(), sealedEnd())}); the array itself, not a copy. */
    long[] recordIds() {
        return ids;
    }

    /** Marks records {@code [from, to)} published. */
    void commitRecords(int from, int to) {
        Arrays.fill(states, from, to, TxState.COMMITTED);
    }

    /**
     * Counts a submission that was published without being staged (a call the drain published at once), as its
     * wave's seal would have: work staged before it belongs to an earlier submission.
     */
    public void countSubmission() {
        seals++;
    }

    /** How many waves were sealed so far: the work staged between two seals is one submission. */
    public long seals() {
        return seals;
    }

    /**
     * What the open wave holds, for a cascade report: records by state, tag moves, batch operations and the
     * first entity a record or tag move names.
     */
    public String describeOpen() {
        int spawns = 0;
        int moves = 0;
        int despawns = 0;
        long first = 0;
        int compactOpen = openCompact;
        if (compactOpen > 0) { // they come before every record in call order
            spawns += compactOpen;
            first = compact.id(sealedCompact);
        }
        for (int r = sealedEnd; r < size; r++) {
            switch (states[r]) {
                case STAGED_SPAWN -> spawns++;
                case STAGED_MUTATE -> moves++;
                default -> despawns++;
            }
            if (first == 0) {
                first = ids[r];
            }
        }
        int tags = 0;
        for (int move = sealedTagEnd; move < tagCount; move++) {
            if (tagIds[move] != 0) {
                tags++;
                if (first == 0) {
                    first = tagIds[move];
                }
            }
        }
        for (int k = sealedQuietEnd; k < quietCount; k++) {
            despawns++;
            if (first == 0) {
                first = quietIds[k];
            }
        }
        return spawns + " spawns, " + moves + " moves, " + despawns + " despawns, " + tags + " tag moves and "
                + (ops.size() - sealedOps) + " batch operations" + (first == 0 ? ""
                        : ", the first for entity " + Entity.toString(first));
    }

    /** The number of records in the open wave. */
    public int openRecords() {
        return size - sealedEnd;
    }

    /**
     * Hands the open wave to the drain: its records stay readable as handles {@code [sealedStart(), sealedEnd())}
     * until {@link #recycle()}, but are no longer found by slot. Later staging opens a new wave.
     */
    public void seal() {
        seals++;
        if (sealedEnd != sealedStart || sealedOps != 0 || sealedTagEnd != 0 || sealedQuietEnd != 0
                || sealedCompact != 0) {
            throw new IllegalStateException("a sealed wave of " + (sealedEnd - sealedStart) + " records, "
                    + sealedTagEnd + " tag moves and " + sealedQuietEnd + " quiet despawns is draining");
        }
        sealedStart = 0;
        sealedEnd = size;
        for (int r = sealedStart; r < sealedEnd; r++) {
            recordBySlot[slots[r]] = 0;
        }
        sealedTagEnd = tagCount;
        for (int move = 0; move < sealedTagEnd; move++) {
            if (tagIds[move] != 0) {
                recordBySlot[Entity.slot(tagIds[move])] = 0;
            }
        }
        sealedRunTable = runState == RUN ? runTable : null;
        sealedRunStamp = runStamp;
        runState = NO_RUN;
        runTable = null;
        sealedQuietEnd = quietCount;
        sealedCompact = compactCount();
        openCompact = 0;
        for (int shape = 0; sealedCompact > 0 && shape < compact.shapes(); shape++) {
            long[] ids = compact.ids(shape);
            for (int row = 0, rows = compact.rows(shape); row < rows; row++) {
                recordBySlot[Entity.slot(ids[row])] = 0; // no longer found by slot, as a sealed record
            }
        }
        sealedOps = ops.size();
        openBoundaries = 0;
        sealedBatchCancels = batchCancels > 0;
        batchCancels = 0;
        closedBefore = 0;
    }

    public int sealedStart() {
        return sealedStart;
    }

    public int sealedEnd() {
        return sealedEnd;
    }

    /**
     * Ends the drained wave. Records staged meanwhile (the next wave) move to the front; entry storage is reused
     * once no record is open.
     */
    public void recycle() {
        int next = size - sealedEnd;
        if (next == 0) {
            Arrays.fill(entryComponents, 0, entryCount, null);
            Arrays.fill(entryInputs, 0, entryCount, null);
            entryCount = 0;
        } else {
            System.arraycopy(ids, sealedEnd, ids, 0, next);
            System.arraycopy(slots, sealedEnd, slots, 0, next);
            System.arraycopy(states, sealedEnd, states, 0, next);
            System.arraycopy(heads, sealedEnd, heads, 0, next);
            System.arraycopy(tails, sealedEnd, tails, 0, next);
            for (int r = 0; r < next; r++) {
                recordBySlot[slots[r]] = r + 1;
            }
        }
        Arrays.fill(states, next, size, null);
        size = next;
        for (int k = 0; k < sealedOps; k++) {
            BatchOp op = ops.get(k);
            if (op.recyclable) { // dropped now: nobody refers to it any more
                op.recycle();
                spareSpawn = op;
            }
        }
        if (sealedOps == ops.size()) {
            ops.clear(); // the usual case; subList(...).clear() would allocate a view per publication
            lastOp = null;
        } else if (sealedOps > 0) {
            ops.subList(0, sealedOps).clear(); // (the last one stays)
        }
        if (ops.isEmpty()) {
            batchIdCount = 0; // no batch reads its range any more
        }
        for (int k = 0; k < ops.size(); k++) {
            ops.get(k).recordMark -= sealedEnd;
        }
        closedBefore = Math.max(0, closedBefore - sealedEnd);
        int nextTags = tagCount - sealedTagEnd;
        if (nextTags > 0) { // staged while the wave drained: the next wave's, moved to the front
            System.arraycopy(tagIds, sealedTagEnd, tagIds, 0, nextTags);
            System.arraycopy(tagComponents, sealedTagEnd, tagComponents, 0, nextTags);
            System.arraycopy(tagMarks, sealedTagEnd, tagMarks, 0, nextTags);
            System.arraycopy(tagInputs, sealedTagEnd, tagInputs, 0, nextTags);
            System.arraycopy(tagValues, sealedTagEnd, tagValues, 0, nextTags);
            for (int move = 0; move < nextTags; move++) {
                tagMarks[move] -= sealedEnd; // as the records they follow, which move to the front too
                if (tagIds[move] != 0) {
                    recordBySlot[Entity.slot(tagIds[move])] = -(move + 1);
                }
            }
        }
        if (tagInputsEnd > nextTags) { // the published values go: the array keeps no entity's value alive
            java.util.Arrays.fill(tagInputs, nextTags, tagInputsEnd, null);
        }
        tagInputsEnd = Math.max(0, tagInputsEnd - sealedTagEnd);
        if (nextTags == 0) { // no move refers to a staged value any more
            for (int k = 0; k < stagedInUseCount; k++) {
                stagedInUse[k].reset();
                stagedInUse[k] = null;
            }
            stagedInUseCount = 0;
        }
        tagCount = nextTags;
        sealedTagEnd = 0;
        runMark -= sealedEnd; // the open run's moves, if any, moved to the front with their marks
        sealedRunTable = null;
        int nextQuiet = quietCount - sealedQuietEnd;
        if (nextQuiet > 0) { // staged while the wave drained: the next wave's, moved to the front
            System.arraycopy(quietIds, sealedQuietEnd, quietIds, 0, nextQuiet);
            System.arraycopy(quietMarks, sealedQuietEnd, quietMarks, 0, nextQuiet);
            for (int k = 0; k < nextQuiet; k++) {
                quietMarks[k] -= sealedEnd; // as the records they follow, which move to the front too
            }
        }
        quietCount = nextQuiet;
        sealedQuietEnd = 0;
        if (sealedCompact > 0) { // placed or released by now (none is staged while a wave drains)
            compact.clear();
            sealedCompact = 0;
        }
        sealedOps = 0;
        sealedStart = 0;
        sealedEnd = 0;
    }
}
