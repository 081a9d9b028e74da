package dev.jtecs.mutation.internal;

import dev.jtecs.builtin.EntityKey;
import dev.jtecs.component.Component;
import dev.jtecs.component.ComponentValue;
import dev.jtecs.component.Input;
import dev.jtecs.component.PairComponent;
import dev.jtecs.component.BaseRelationship;
import dev.jtecs.component.RelationshipValue;
import dev.jtecs.entity.Entity;
import dev.jtecs.entity.internal.EntityIndex;
import dev.jtecs.storage.internal.ArchetypeRegistry;
import dev.jtecs.storage.internal.SignatureBuilder;
import dev.jtecs.storage.internal.Table;
import java.util.Arrays;

/**
 * Publishes staged work in waves. Each wave first resolves every destination archetype and reserves its
 * capacity, then runs, in order: despawns (rows removed, slots freed), spawns (rows placed, ids published),
 * moves (rows relocated with their final values), and the sparse edge writes. Work staged by callbacks while a wave
 * runs forms the next wave; more than {@link #MAX_WAVES} waves is reported as a likely observer cascade.
 *
 * <pre>
 *   Transaction ──seal──► wave: resolve+reserve → despawns → spawns → moves → sparse writes
 *                                 ▲                                                  │
 *                                 └──────────── staged by callbacks? next wave ◄─────┘
 * </pre>
 *
 * <p>Callbacks (entity observers, archetype creation) run at consistent points: "removed" before a row leaves,
 * "added" after the row is placed, written and published. When anything throws, rows already published stay,
 * every record not yet published is discarded (reserved spawn slots are released), and the exception
 * propagates; the world stays consistent and usable.
 */
public final class CommitDrain {
    /** The most waves one commit runs before it gives up. */
    public static final int MAX_WAVES = 64;

    private final EntityIndex index;
    private final ArchetypeRegistry registry;
    private final Transaction transaction;
    private final SparseWriteQueue sparseWrites;
    private final KeyIndex keys;
    private final LifecycleEvents lifecycle;
    private final DrainHooks hooks;
    private final SignatureBuilder signature = new SignatureBuilder();
    private final RequirementPlan requirements;
    private final BulkPaths bulk;
    private boolean draining;
    private SpawnShape lastShape;
    private Table[] reserved = new Table[16];
    private Table[] moveTargets = new Table[64];
    private boolean[] replan = new boolean[64];
    private int waveStart;
    private int[] reservedRows = new int[16];
    private int[] reservationOf = new int[16];

    /**
     * A drain publishing {@code transaction} and {@code sparseWrites}; {@code keys} confirms the key claims of what
     * it published, {@code lifecycle} forgets the observers of ids it releases unpublished, and {@code hooks}
     * hears what the relationship layer must settle (see {@link DrainHooks} for the order).
     */
    public CommitDrain(EntityIndex index, ArchetypeRegistry registry, Transaction transaction,
            SparseWriteQueue sparseWrites, KeyIndex keys, LifecycleEvents lifecycle, DrainHooks hooks) {
        this.index = index;
        this.registry = registry;
        this.transaction = transaction;
        this.sparseWrites = sparseWrites;
        this.keys = keys;
        this.lifecycle = lifecycle;
        this.hooks = java.util.Objects.requireNonNull(hooks, "hooks");
        this.requirements = new RequirementPlan(registry.pairs());
        this.callPlan = new RequirementPlan(registry.pairs());
        this.bulk = new BulkPaths(this, index, registry, transaction, requirements, keys);
    }

    /**
     * Plans a spawn batch at the call: the destination table of {@code inputs} (distinct components, the last
     * input of a component winning) with their requirements, and how each of its columns is written.
     *
     * @throws IllegalArgumentException when the signature holds {@code EntityKey} and {@code allowKey} is false
     */
    public BatchOp.SpawnPlan planSpawn(Input[] inputs, boolean allowKey) {
        Component<?>[] components = new Component<?>[inputs.length];
        Input[] chosen = new Input[inputs.length];
        int n = 0;
        for (Input input : inputs) {
            int k = 0;
            while (k < n && components[k] != input.component()) {
                k++;
            }
            components[k] = input.component();
            chosen[k] = input;
            n = Math.max(n, k + 1);
        }
        callSignature.clear();
        callPlan.planAdditions(components, n, callSignature);
        if (!allowKey && callSignature.contains(EntityKey.COMPONENT)) {
            throw new IllegalArgumentException("a batch spawn cannot include EntityKey (directly or through "
                    + "requirements): one shared value cannot claim distinct keys; set keys one by one");
        }
        Table table = callSignature.resolve(registry);
        java.util.List<RelationshipValue> sparseRequired = new java.util.ArrayList<>(0);
        for (int i = 0; i < callPlan.size(); i++) {
            if (callPlan.inputAt(i) instanceof RelationshipValue edge && edge.relationship().isSparse()) {
                sparseRequired.add(edge);
            }
        }
        int[] positions = new int[table.componentCount()];
        Input[] values = new Input[positions.length];
        byte[] modes = new byte[positions.length];
        for (int p = 0; p < positions.length; p++) {
            Component<?> component = table.componentAt(p);
            positions[p] = p;
            int k = 0;
            while (k < n && components[k] != component) {
                k++;
            }
            if (k < n) {
                values[p] = chosen[k];
                modes[p] = chosen[k] instanceof ComponentValue<?> ? BatchOp.VALUE : BulkPaths.initialMode(component);
            } else {
                Input required = callPlan.inputFor(component);
                values[p] = required;
                modes[p] = required instanceof ComponentValue<?> ? BatchOp.SHARED : BatchOp.DEFAULT;
            }
        }
        return new BatchOp.SpawnPlan(table, positions, values, modes, table.has(EntityKey.COMPONENT.id()),
                sparseRequired.toArray(RelationshipValue[]::new));
    }

    private final RequirementPlan callPlan;
    private final SignatureBuilder callSignature = new SignatureBuilder();

    public boolean isDraining() {
        return draining;
    }

    /** Applies a batch's sparse edge edit to the entities in rows {@code [from, to)} of {@code table}. */
    void sparseRows(BatchOp.SparseEdit edit, Table table, int from, int to) {
        for (int row = from; row < to; row++) {
            long entity = table.entityAt(row);
            for (int e = 0; e < edit.relationships().length; e++) {
                hooks.applySparse(entity, edit.op(), edit.relationships()[e], edit.targets()[e], edit.payloads()[e]);
            }
        }
    }

    // requirements the current wave's plans added as sparse edges: (entity, relationship), consumed by REQUIRE
    private long[] plannedEntities = new long[8];
    private BaseRelationship<?>[] plannedRelationships = new BaseRelationship<?>[8];
    private int plannedCount;

    private void planRequiredEdge(long entity, BaseRelationship<?> relationship) {
        if (plannedCount == plannedEntities.length) {
            plannedEntities = java.util.Arrays.copyOf(plannedEntities, plannedCount * 2);
            plannedRelationships = java.util.Arrays.copyOf(plannedRelationships, plannedCount * 2);
        }
        plannedEntities[plannedCount] = entity;
        plannedRelationships[plannedCount++] = relationship;
    }

    /** Whether the plan added this requirement; consumes it (one required edge per relationship arrives). */
    private boolean consumeRequiredEdge(long entity, BaseRelationship<?> relationship) {
        for (int i = 0; i < plannedCount; i++) {
            if (plannedEntities[i] == entity && plannedRelationships[i] == relationship) {
                plannedEntities[i] = plannedEntities[--plannedCount];
                plannedRelationships[i] = plannedRelationships[plannedCount];
                plannedRelationships[plannedCount] = null;
                return true;
            }
        }
        return false;
    }

    /** What the queue flushes into: required edges pass only when planned, the rest goes to the store. */
    private final SparseWriteQueue.Sink flushSink = new SparseWriteQueue.Sink() {
        @Override
        public void apply(long entity, byte op, BaseRelationship<?> relationship, long target, Object payload) {
            if (op != SparseWriteQueue.REQUIRE) {
                hooks.applySparse(entity, op, relationship, target, payload);
            } else if (consumeRequiredEdge(entity, relationship)) {
                hooks.applySparse(entity, SparseWriteQueue.ADD, relationship, target, payload);
            }
        }

        @Override
        public void settle() {
            hooks.settleSparse();
        }
    };

    /** Whether anything waits for a drain: staged records or sparse writes, or a settlement left over. */
    public boolean hasWork() {
        return !transaction.isEmpty() || !sparseWrites.isEmpty() || hooks.pendingSettlement();
    }

    /**
     * One publication: drains every wave, then tells the hooks it ended (also when it failed) and confirms the
     * key claims it staged (only those, never every key: claims of rows it published stand, claims of discarded
     * ones lapse, since their entity does not hold the key).
     */
    public void publish() {
        boolean published = false;
        try {
            drain();
            published = true;
        } finally {
            hooks.publicationEnded(published);
            if (keys.hasPending()) {
                keys.reconcile();
            }
        }
    }

    /** Publishes everything staged, wave after wave, until nothing is left. A reentrant call returns at once. */
    public void drain() {
        if (draining) {
            return; // a commit requested from a callback joins the active drain
        }
        draining = true;
        try {
            int waves = 0;
            while (hasWork()) {
                if (++waves > MAX_WAVES) {
                    discardStaged();
                    throw new IllegalStateException("commit did not reach a fixed point after " + MAX_WAVES
                            + " waves: likely observer cascade (observers or callbacks keep staging work)");
                }
                runWave();
            }
        } finally {
            draining = false;
        }
    }

    /**
     * Runs one wave. Query batches (set, remove, despawn) split it into segments: the records staged before such
     * a call publish, in the usual phases, before it runs; those staged after it publish after it. Spawn batches
     * are placed in the spawn phase of the segment they were called in, before the single spawns.
     */
    private void runWave() {
        transaction.seal();
        sparseWrites.seal();
        int from = transaction.sealedStart();
        int to = transaction.sealedEnd();
        int ops = transaction.sealedOps();
        boolean cancels = transaction.sealedBatchCancels();
        int segmentStart = from; // the segment being published, for a failure's edge completion
        int segmentEnd = from;
        int segmentMark = 0;
        try {
            int segment = from;
            int firstOp = 0;
            for (int k = 0; k <= ops; k++) {
                BatchOp op = k < ops ? transaction.op(k) : null;
                if (op != null && !op.isBoundary()) {
                    continue;
                }
                int end = op == null ? to : op.recordMark;
                segmentStart = segment;
                segmentEnd = end;
                segmentMark = op == null ? Integer.MAX_VALUE : k;
                runSegment(segment, end, firstOp, k, cancels);
                sparseWrites.flush(op == null ? Integer.MAX_VALUE : k, index, flushSink);
                hooks.segmentDone();
                if (op != null) {
                    bulk.run(op);
                    ranOps = k + 1;
                    hooks.segmentDone();
                }
                segment = end;
                firstOp = k + 1;
            }
            plannedCount = 0; // a requirement whose REQUIRE did not come is not ours to add
            java.util.Arrays.fill(plannedRelationships, null);
            hooks.settleSparse(); // markers follow the edges where the wave left them
        } catch (RuntimeException | Error failure) {
            completePublishedEdges(failure, segmentStart, segmentEnd, segmentMark);
            releaseUnpublished(from, to);
            releaseOps(ranOps, ops);
            transaction.recycle();
            discardStaged();
            throw failure;
        } finally {
            ranOps = 0;
        }
        transaction.recycle();
        sparseWrites.recycle();
    }

    private int ranOps;

    /**
     * A wave failed part way through a segment: the entities whose records it already published get their
     * sparse edge writes of that segment now, so a published row never carries a relationship marker without its
     * edges (or the other way round); the writes of everything not published are discarded with it.
     */
    private void completePublishedEdges(Throwable failure, int segmentStart, int segmentEnd, int segmentMark) {
        int count = 0;
        int[] published = null;
        for (int record = segmentStart; record < segmentEnd; record++) {
            if (transaction.state(record) == TxState.COMMITTED) {
                if (published == null) {
                    published = new int[segmentEnd - segmentStart];
                }
                published[count++] = transaction.slot(record);
            }
        }
        if (published == null) {
            return;
        }
        int[] slots = Arrays.copyOf(published, count);
        Arrays.sort(slots);
        try {
            sparseWrites.flushPublished(segmentMark, index, flushSink, slot -> Arrays.binarySearch(slots, slot) >= 0);
        } catch (RuntimeException | Error e) {
            failure.addSuppressed(e);
        }
    }

    /** Publishes records {@code [from, to)} and the spawn batches among ops {@code [firstOp, endOp)}. */
    private void runSegment(int from, int to, int firstOp, int endOp, boolean cancels) {
        resolveAndReserve(from, to, firstOp, endOp);
        for (int record = from; record < to; record++) {
            publish(record, 0);
        }
        for (BatchOp.Kind kind : SPAWN_ORDER) {
            for (int k = firstOp; k < endOp; k++) {
                BatchOp op = transaction.op(k);
                if (op.kind == kind) {
                    bulk.place(op, cancels);
                    ranOps = Math.max(ranOps, k + 1);
                }
            }
        }
        for (int phase = 1; phase < 3; phase++) {
            for (int record = from; record < to; record++) {
                publish(record, phase);
            }
        }
    }

    private static final BatchOp.Kind[] SPAWN_ORDER = {BatchOp.Kind.SPAWN, BatchOp.Kind.SPAWN_AT};

    /** Releases what the batch operations {@code [from, to)} of a failed wave hold (reserved slots, marks). */
    private void releaseOps(int from, int to) {
        for (int k = 0; k < to; k++) {
            BatchOp op = transaction.op(k);
            if (op.isBoundary()) {
                if (k >= from) {
                    bulk.releaseQuery(op);
                }
            } else {
                bulk.releaseSpawn(op); // frees only slots still reserved
            }
        }
    }

    /**
     * Resolves every spawn's and move's destination and grows each destination once for all rows the wave
     * brings it, net of the rows this wave's despawns free there (they run first), so no buffer is reallocated
     * while the wave's callbacks run and no entity moves twice.
     */
    private void resolveAndReserve(int from, int to, int firstOp, int endOp) {
        waveStart = from;
        if (moveTargets.length < to - from) {
            moveTargets = new Table[Math.max(to - from, moveTargets.length * 2)];
            replan = new boolean[moveTargets.length];
        }
        int distinct = 0;
        try {
            for (int record = from; record < to; record++) {
                TxState state = transaction.state(record);
                Table table;
                int delta;
                if (state == TxState.STAGED_SPAWN) {
                    table = shapeOf(record).table;
                    delta = 1;
                } else if (state == TxState.STAGED_MUTATE) {
                    Table current = currentTable(record);
                    if (current == null) {
                        continue; // the entity died before this segment: the record lapses in move()
                    }
                    table = resolveTarget(record, current);
                    moveTargets[record - from] = table;
                    replan[record - from] = requirements.size() > 0;
                    delta = 1;
                } else if (state == TxState.STAGED_DESPAWN && index.isAlive(transaction.id(record))) {
                    table = registry.ofStore(index.storeOf(transaction.slot(record)));
                    delta = -1;
                } else {
                    continue;
                }
                distinct = tally(table, delta, distinct);
            }
            for (int k = firstOp; k < endOp; k++) {
                BatchOp op = transaction.op(k);
                distinct = tally(op.table, op.count, distinct);
            }
            for (int k = 0; k < distinct; k++) {
                if (reservedRows[k] > 0) {
                    reserved[k].ensureCapacity(reserved[k].count() + reservedRows[k]);
                }
            }
        } finally {
            for (int k = 0; k < distinct; k++) {
                reservationOf[reserved[k].id()] = 0;
                reserved[k] = null;
            }
        }
    }

    /**
     * The table a record's entity is in when its segment starts: where it lives, or, for an entity of a spawn
     * batch this segment places, that batch's table; {@code null} when it is dead.
     */
    private Table currentTable(int record) {
        long id = transaction.id(record);
        int slot = transaction.slot(record);
        if (index.isAlive(id)) {
            return registry.ofStore(index.storeOf(slot));
        }
        if (index.stateOf(id) == EntityIndex.RESERVED && index.batchArchetype(slot) >= 0) {
            return registry.get(index.batchArchetype(slot));
        }
        return null;
    }

    /** Adds {@code delta} rows to a table's tally for this wave (O(1) by table id); returns the tallies in use. */
    private int tally(Table table, int delta, int distinct) {
        if (table.id() >= reservationOf.length) {
            reservationOf = Arrays.copyOf(reservationOf, Math.max(table.id() + 1, reservationOf.length * 2));
        }
        int k = reservationOf[table.id()] - 1;
        if (k < 0) {
            if (distinct == reserved.length) {
                reserved = Arrays.copyOf(reserved, distinct * 2);
                reservedRows = Arrays.copyOf(reservedRows, distinct * 2);
            }
            k = distinct++;
            reserved[k] = table;
            reservedRows[k] = 0;
            reservationOf[table.id()] = k + 1;
        }
        reservedRows[k] += delta;
        return distinct;
    }

    private void publish(int record, int phase) {
        TxState state = transaction.state(record);
        if (phase == 0 && state == TxState.STAGED_DESPAWN) {
            despawn(record);
        } else if (phase == 0 && state == TxState.CANCELLED_SPAWN) {
            transaction.setState(record, TxState.COMMITTED);
            index.free(transaction.slot(record));
            hooks.despawned(transaction.id(record)); // edges staged to it must not outlive it
        } else if (phase == 1 && state == TxState.STAGED_SPAWN) {
            spawn(record);
        } else if (phase == 2 && state == TxState.STAGED_MUTATE) {
            move(record);
        }
    }

    // ---------------------------------------------------------------- despawn

    private void despawn(int record) {
        int slot = transaction.slot(record);
        long id = transaction.id(record);
        if (!index.isAlive(id)) {
            if (index.stateOf(id) == EntityIndex.RESERVED) {
                index.free(slot); // a member of a spawn batch not placed yet: it never gets a row
                transaction.undoom(slot); // its despawn's mark: the slot must come back unmarked
                hooks.despawned(id);
            }
            transaction.setState(record, TxState.COMMITTED);
            return;
        }
        Table table = registry.ofStore(index.storeOf(slot));
        int row = index.rowOf(slot);
        notifyRemoved(table, row, row + 1, null);
        transaction.setState(record, TxState.COMMITTED);
        removeRow(index, table, row);
        index.free(slot);
        transaction.undoom(slot); // a capture copied while the row left may have marked it
        hooks.despawned(id);
    }

    /** Whether whole-archetype despawns call the despawn listener per entity (a pass the world needs only once
     * relationships exist). */
    public void reportWholeDespawns(boolean report) {
        this.wholeDespawns = report;
    }

    private boolean wholeDespawns;

    boolean reportsWholeDespawns() {
        return wholeDespawns;
    }

    void reportDespawned(long id) {
        hooks.despawned(id);
    }

    void reportReleased(long id) {
        lifecycle.released(id);
    }

    /** Rows {@code [from, to)} were placed in {@code table}: edges to dead targets are settled, observers told. */
    void placed(Table table, int from, int to, Table other) {
        if (table.hasPairs()) {
            hooks.placedWithPairs(table, from, to);
        }
        notifyAdded(table, from, to, other);
    }

    /** Swap-removes a row, relocates the entity that filled the hole, and tells the table's observers. */
    static void removeRow(EntityIndex index, Table table, int row) {
        int last = table.count() - 1;
        long moved = table.swapRemove(row);
        if (moved != 0) {
            index.relocate(Entity.slot(moved), table.store(), row);
        }
        Notifications.swapRemoved(table, moved, last, row);
    }

    // ---------------------------------------------------------------- spawn

    private void spawn(int record) {
        SpawnShape shape = shapeOf(record);
        Table target = shape.table;
        int row = target.appendRow(transaction.id(record));
        try {
            for (int k = 0; k < shape.defaultPositions.length; k++) {
                Input input = shape.defaultInputs[k];
                target.writeInput(shape.defaultPositions[k], row, input);
                if (input instanceof RelationshipValue edge && edge.relationship().isSparse()) { // a required edge
                    planRequiredEdge(transaction.id(record), edge.relationship()); // lands with its REQUIRE
                }
            }
            int i = 0;
            for (int e = transaction.firstEntry(record); e >= 0; e = transaction.nextEntry(e)) {
                int position = shape.entryPositions[i++];
                if (position >= 0) { // negative: a relationship marker its pairs' removal dropped
                    target.writeInput(position, row, transaction.entryInput(e));
                }
            }
        } catch (RuntimeException | Error e) {
            target.swapRemove(row);
            throw e;
        }
        index.publish(transaction.slot(record), target.store(), row);
        transaction.setState(record, TxState.COMMITTED);
        placed(target, row, row + 1, null);
    }

    /**
     * The resolved shape of a staged spawn: consecutive spawns with the same component sequence (the common
     * case) reuse the last one, so placing a row costs no signature work.
     */
    private SpawnShape shapeOf(int record) {
        SpawnShape cached = lastShape;
        if (cached != null && cached.matches(transaction, record)) {
            return cached;
        }
        Table root = registry.root();
        Table target = resolveTarget(record, root);
        int entries = 0;
        for (int e = transaction.firstEntry(record); e >= 0; e = transaction.nextEntry(e)) {
            entries++;
        }
        Component<?>[] components = new Component<?>[entries];
        int[] entryPositions = new int[entries];
        int i = 0;
        int placed = 0; // entries the table holds: a marker whose last pair staging dropped is normalized away
        for (int e = transaction.firstEntry(record); e >= 0; e = transaction.nextEntry(e)) {
            components[i] = transaction.entryComponent(e);
            entryPositions[i] = target.position(components[i].id());
            placed += entryPositions[i] >= 0 ? 1 : 0;
            i++;
        }
        int defaults = target.componentCount() - placed;
        int[] defaultPositions = new int[defaults];
        Input[] defaultInputs = new Input[defaults];
        int k = 0;
        for (int position = 0; position < target.componentCount(); position++) {
            Component<?> component = target.componentAt(position);
            if (transaction.findEntry(record, component) < 0) {
                Input required = requirements.inputFor(component);
                defaultPositions[k] = position;
                defaultInputs[k++] = required != null ? required : component;
            }
        }
        lastShape = new SpawnShape(components, target, entryPositions, defaultPositions, defaultInputs);
        return lastShape;
    }

    /** A spawn's component sequence resolved to its table and column positions. */
    private record SpawnShape(Component<?>[] components, Table table, int[] entryPositions, int[] defaultPositions,
            Input[] defaultInputs) {
        boolean matches(Transaction transaction, int record) {
            int i = 0;
            for (int e = transaction.firstEntry(record); e >= 0; e = transaction.nextEntry(e)) {
                if (i == components.length || components[i++] != transaction.entryComponent(e)) {
                    return false;
                }
            }
            return i == components.length;
        }
    }

    // ---------------------------------------------------------------- move

    private void move(int record) {
        int slot = transaction.slot(record);
        if (!index.isAlive(transaction.id(record))) {
            moveTargets[record - waveStart] = null;
            transaction.setState(record, TxState.COMMITTED); // its entity died in an earlier segment
            return;
        }
        Table current = registry.ofStore(index.storeOf(slot));
        int row = index.rowOf(slot);
        Table target = moveTargets[record - waveStart];
        moveTargets[record - waveStart] = null;
        if (replan[record - waveStart]) {
            resolveTarget(record, current); // plans the requirement inputs written below
        } else {
            requirements.reset();
        }
        if (target == current) {
            writeInPlace(record, current, row);
            transaction.setState(record, TxState.COMMITTED);
            return;
        }
        notifyRemoved(current, row, row + 1, target);
        int destinationRow = current.moveRowTo(row, target);
        try {
            writeMovedRow(record, target, destinationRow, current.missingPositionsFor(target));
        } catch (RuntimeException | Error e) {
            target.swapRemove(destinationRow);
            notifyAdded(current, row, row + 1, target); // it never left: undo the removal report
            throw e;
        }
        index.relocate(slot, target.store(), destinationRow);
        transaction.setState(record, TxState.COMMITTED);
        removeRow(index, current, row);
        placed(target, destinationRow, destinationRow + 1, current);
    }

    /** Writes the planned requirement values (a later staged value of the same component overwrites it). */
    private void writeRequirements(Table target, int row) {
        for (int i = 0; i < requirements.size(); i++) {
            int position = target.position(requirements.componentAt(i).id());
            Input input = requirements.inputAt(i);
            target.writeInput(position, row, input);
            target.markDirty(position);
            if (input instanceof RelationshipValue edge && edge.relationship().isSparse()) {
                planRequiredEdge(target.entityAt(row), edge.relationship()); // lands with its REQUIRE
            }
        }
    }

    /** Net signature unchanged: write the staged values where the row already is. */
    private void writeInPlace(int record, Table table, int row) {
        writeRequirements(table, row);
        writeEntries(record, table, row);
    }

    /** Writes a record's staged values into its row (entries the final signature dropped are skipped). */
    private void writeEntries(int record, Table table, int row) {
        for (int e = transaction.firstEntry(record); e >= 0; e = transaction.nextEntry(e)) {
            Input input = transaction.entryInput(e);
            if (input != null) {
                int position = table.position(transaction.entryComponent(e).id());
                if (position >= 0) {
                    table.writeInput(position, row, input);
                    table.markDirty(position);
                }
            }
        }
    }

    /**
     * Writes a moved row: defaults where a new component has no staged value, the values of components that
     * requirements (re-)added, then the staged values.
     */
    private void writeMovedRow(int record, Table target, int row, int[] missing) {
        for (int position : missing) {
            Component<?> component = target.componentAt(position);
            int entry = transaction.findEntry(record, component);
            if ((entry < 0 || transaction.entryInput(entry) == null) && requirements.inputFor(component) == null) {
                target.writeInput(position, row, component);
            }
        }
        writeRequirements(target, row);
        writeEntries(record, target, row);
    }

    /**
     * The table a record's row ends in: its staged entries replayed on {@code before}, requirements included
     * (planned into {@link #requirements}), exactly as the same calls made one at a time would end. A lone
     * change without requirements follows the cached graph edge; anything else is assembled in a scratch
     * signature and looked up once, so no intermediate archetype is ever created.
     */
    private Table resolveTarget(int record, Table before) {
        int first = transaction.firstEntry(record);
        if (first >= 0 && transaction.nextEntry(first) < 0 && !isRelational(transaction.entryComponent(first))) {
            Component<?> component = transaction.entryComponent(first);
            if (transaction.entryInput(first) == null) {
                requirements.reset();
                return registry.withRemoved(before, component);
            }
            if (component.requires().isEmpty() || before.has(component.id())) {
                requirements.reset();
                return registry.withAdded(before, component);
            }
        }
        signature.loadFrom(before);
        requirements.plan(transaction, record, signature);
        if (touchesRelationships(record)) {
            signature.normalizeRelationships(); // a relationship marker stays exactly while one of its pairs does
        }
        return signature.resolve(registry);
    }

    private static boolean isRelational(Component<?> component) {
        return component instanceof PairComponent || component instanceof BaseRelationship<?>;
    }

    private boolean touchesRelationships(int record) {
        for (int e = transaction.firstEntry(record); e >= 0; e = transaction.nextEntry(e)) {
            if (isRelational(transaction.entryComponent(e))) {
                return true;
            }
        }
        return false;
    }

    // ---------------------------------------------------------------- notifications

    /**
     * Tells a table's observers that rows {@code [from, to)} are about to leave (for {@code other}, or die); when
     * one throws, the rows stay and the others hear them come back ({@link Notifications#removed}).
     */
    static void notifyRemoved(Table table, int from, int to, Table other) {
        Notifications.removed(table, from, to, other);
    }

    /** Tells a table's observers that rows {@code [from, to)} arrived (activation first when it was empty). */
    static void notifyAdded(Table table, int from, int to, Table other) {
        Notifications.added(table, from, to, other);
    }

    /** Tells a table's observers it became empty, when it did. */
    static void notifyDeactivated(Table table) {
        Notifications.deactivated(table);
    }

    // ---------------------------------------------------------------- failure

    /** Releases the reserved slots of spawns a failed wave never published; other records simply lapse. */
    private void releaseUnpublished(int from, int to) {
        for (int record = from; record < to; record++) {
            TxState state = transaction.state(record);
            if (state == TxState.STAGED_SPAWN || state == TxState.CANCELLED_SPAWN) {
                index.free(transaction.slot(record)); // never published: the reserved id goes stale
                lifecycle.released(transaction.id(record));
            } else if (state == TxState.STAGED_DESPAWN) {
                transaction.undoom(transaction.slot(record)); // a cascade's mark: the entity stays alive
            }
            transaction.setState(record, TxState.COMMITTED);
        }
    }

    /**
     * Empties every table: membership callbacks see each table's rows leave (and the table deactivate), then
     * everything staged, including what those callbacks staged, is discarded. The caller then resets the entity
     * index.
     */
    public void clearAll() {
        for (int i = 0; i < registry.size(); i++) {
            Table table = registry.get(i);
            if (table != null && table.count() > 0) {
                notifyRemoved(table, 0, table.count(), null);
            }
        }
        for (int i = 0; i < registry.size(); i++) {
            Table table = registry.get(i);
            if (table != null && table.count() > 0) {
                table.truncate(0);
                notifyDeactivated(table);
            }
        }
        discardStaged();
        transaction.undoomAll();
    }

    /** Drops everything still staged (used when a commit fails or gives up, and by clearing). */
    public void discardStaged() {
        sparseWrites.clear();
        plannedCount = 0;
        java.util.Arrays.fill(plannedRelationships, null);
        if (transaction.isEmpty()) {
            return;
        }
        transaction.seal();
        releaseUnpublished(transaction.sealedStart(), transaction.sealedEnd());
        releaseOps(0, transaction.sealedOps());
        transaction.recycle();
    }
}
