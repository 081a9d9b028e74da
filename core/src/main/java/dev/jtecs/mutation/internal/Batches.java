package dev.jtecs.mutation.internal;

import dev.jtecs.builtin.EntityKey;
import dev.jtecs.component.Component;
import dev.jtecs.component.ComponentValue;
import dev.jtecs.component.Input;
import dev.jtecs.component.PairComponent;
import dev.jtecs.component.BaseRelationship;
import dev.jtecs.component.RelationshipValue;
import dev.jtecs.component.StorageKind;
import dev.jtecs.component.TagComponent;
import dev.jtecs.component.TargetSelector;
import dev.jtecs.entity.Entity;
import dev.jtecs.entity.internal.EntityIndex;
import java.util.function.Supplier;
import dev.jtecs.query.Query;
import dev.jtecs.storage.Archetype;
import dev.jtecs.storage.internal.ArchetypeRegistry;
import dev.jtecs.storage.internal.SegmentReads;
import dev.jtecs.storage.internal.Table;
import java.lang.foreign.MemorySegment;
import java.util.BitSet;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import dev.jtecs.mutation.BatchCallback;
import dev.jtecs.mutation.BatchIds;
import dev.jtecs.storage.internal.PairRegistry;

/**
 * The world's bulk calls: validation and capture at the call, descriptors for the drain. Everything here is
 * checked before anything is reserved or staged, so a rejected call changes nothing.
 */
final class Batches {
    private static final int CHUNK = 4096;

    private final EntityIndex index;
    private final ArchetypeRegistry archetypes;
    private final Transaction transaction;
    private final CommitDrain drain;
    private final KeyIndex keys;
    private final PairRegistry pairs;
    private final Staging staging;
    private final Scopes scopes;
    private final LifecycleEvents lifecycle;
    private final InputChecks checks;
    private final Supplier<TagComponent> stateTag;
    private long[] listedSlots = new long[0]; // a bulk despawn's duplicate check: one bit per slot, cleared after

    Batches(EntityIndex index, ArchetypeRegistry archetypes, Transaction transaction, CommitDrain drain,
            KeyIndex keys, PairRegistry pairs, Staging staging, Scopes scopes, LifecycleEvents lifecycle,
            InputChecks checks, Supplier<TagComponent> stateTag) {
        this.index = index;
        this.archetypes = archetypes;
        this.transaction = transaction;
        this.drain = drain;
        this.keys = keys;
        this.pairs = pairs;
        this.staging = staging;
        this.scopes = scopes;
        this.lifecycle = lifecycle;
        this.checks = checks;
        this.stateTag = stateTag;
    }

    // ---------------------------------------------------------------- spawn batches

    /**
     * Turns edges into what they add (the pair, then the relationship marker; for an exclusive relationship only
     * the last edge given counts) and refuses what is not an input in a batch: a bare relationship, a pair, a
     * selector.
     */
    private Input[] expandEdges(String operation, Input[] inputs) {
        java.util.List<Input> expanded = new java.util.ArrayList<>(inputs.length + 2);
        for (int i = 0; i < inputs.length; i++) {
            Input input = inputs[i];
            refuseRelationship(operation, input);
            if (input instanceof RelationshipValue edge) {
                if (edge.relationship().isExclusive() && laterEdgeOf(inputs, i, edge.relationship())) {
                    continue;
                }
                if (edge.relationship().isSparse()) { // the marker; the edge goes to the store at placement
                    expanded.add(edge.relationship());
                    continue;
                }
                PairComponent pair = pairs.pair(edge.relationship(), edge.target());
                expanded.add(Staging.pairInput(pair, edge));
                expanded.add(edge.relationship());
            } else {
                expanded.add(input);
            }
        }
        return expanded.toArray(Input[]::new);
    }

    /** The sparse edges among a spawn batch's inputs (an exclusive relationship's last one), or {@code null}. */
    private static BatchOp.SparseEdit sparseEdgesOf(Input[] inputs) {
        java.util.List<RelationshipValue> edges = new java.util.ArrayList<>();
        for (int i = 0; i < inputs.length; i++) {
            if (inputs[i] instanceof RelationshipValue edge && edge.relationship().isSparse()
                    && !(edge.relationship().isExclusive() && laterEdgeOf(inputs, i, edge.relationship()))) {
                edges.add(edge);
            }
        }
        return edges.isEmpty() ? null : edit(SparseWriteQueue.ADD, edges.toArray(RelationshipValue[]::new));
    }

    /** The spawn edit with the sparse edges that requirements bring appended. */
    private static BatchOp.SparseEdit withRequired(BatchOp.SparseEdit explicit, BatchOp.SpawnPlan plan) {
        RelationshipValue[] required = plan.sparseRequired();
        if (required.length == 0) {
            return explicit;
        }
        if (explicit == null) {
            return edit(SparseWriteQueue.ADD, required);
        }
        int n = explicit.targets().length;
        BaseRelationship<?>[] relationships = java.util.Arrays.copyOf(explicit.relationships(), n + required.length);
        long[] targets = java.util.Arrays.copyOf(explicit.targets(), n + required.length);
        Object[] payloads = java.util.Arrays.copyOf(explicit.payloads(), n + required.length);
        for (int i = 0; i < required.length; i++) {
            relationships[n + i] = required[i].relationship();
            targets[n + i] = required[i].target();
            payloads[n + i] = required[i].payload();
        }
        return new BatchOp.SparseEdit(SparseWriteQueue.ADD, relationships, targets, payloads);
    }

    private static BatchOp.SparseEdit edit(byte op, RelationshipValue... edges) {
        BaseRelationship<?>[] relationships = new BaseRelationship<?>[edges.length];
        long[] targets = new long[edges.length];
        Object[] payloads = new Object[edges.length];
        for (int i = 0; i < edges.length; i++) {
            relationships[i] = edges[i].relationship();
            targets[i] = edges[i].target();
            payloads[i] = op == SparseWriteQueue.ADD ? edges[i].payload() : null;
        }
        return new BatchOp.SparseEdit(op, relationships, targets, payloads);
    }

    private static boolean laterEdgeOf(Input[] inputs, int from, BaseRelationship<?> relationship) {
        for (int j = from + 1; j < inputs.length; j++) {
            if (inputs[j] instanceof RelationshipValue later && later.relationship() == relationship) {
                return true;
            }
        }
        return false;
    }

    private static void refuseRelationship(String operation, Input input) {
        if (input instanceof BaseRelationship<?> || input instanceof PairComponent || input instanceof TargetSelector<?>) {
            throw new IllegalArgumentException(operation + ": " + input + " is not an edge: pass "
                    + "RELATIONSHIP.to(target)");
        }
    }

    /**
     * A spawn batch's signature as planned at the call: the caller's inputs (the cache key; {@code null} when the
     * plan must not be reused), the state tag it was planned under, the drain's column plan and the sparse edges
     * every entity gets.
     */
    record Planned(Input[] given, TagComponent stateTag, BatchOp.SpawnPlan plan, BatchOp.SparseEdit sparse) {
        boolean matches(List<? extends Input> inputs, TagComponent tag, ArchetypeRegistry archetypes) {
            if (tag != stateTag || inputs.size() != given.length
                    || archetypes.get(plan.table().id()) != plan.table()) {
                return false;
            }
            for (int i = 0; i < given.length; i++) {
                if (inputs.get(i) != given[i]) {
                    return false;
                }
            }
            return true;
        }
    }

    private Planned lastPlanned;

    BatchIds spawn(int count, List<? extends Input> inputs, BatchCallback initializer) {
        Planned planned = plan(count, inputs);
        scopes.enter();
        boolean ok = false;
        try {
            BatchOp op = stageSpawn(count, planned, initializer);
            BatchIds ids = op.hasConsecutiveIds() ? new BatchIds(op.firstId(), count, null)
                    : new BatchIds(0, count, op.copyIds(new long[count], 0));
            ok = true;
            return ids;
        } finally {
            scopes.exit(ok);
        }
    }

    /** {@link #spawn} writing the ids into {@code out[offset, offset + count)} instead of returning them. */
    void spawnInto(int count, List<? extends Input> inputs, BatchCallback initializer, long[] out, int offset) {
        Objects.requireNonNull(out, "ids");
        if (offset < 0 || offset > out.length || count > out.length - offset) {
            throw new IllegalArgumentException("batchSpawn: ids.length=" + out.length + " from offset=" + offset
                    + " cannot hold count=" + count + " ids");
        }
        Planned planned = plan(count, inputs);
        scopes.enter();
        boolean ok = false;
        try {
            stageSpawn(count, planned, initializer).copyIds(out, offset);
            ok = true;
        } finally {
            scopes.exit(ok);
        }
    }

    /**
     * Validates and plans a spawn batch (nothing is reserved). The last plan is reused when the same inputs (by
     * identity, none of them an edge) come again under the same state tag and its archetype is still registered:
     * a batch spawned every frame plans once.
     */
    private Planned plan(int count, List<? extends Input> inputs) {
        Objects.requireNonNull(inputs, "inputs");
        TagComponent tag = stateTag.get();
        Planned planned = lastPlanned;
        if (planned == null || !planned.matches(inputs, tag, archetypes)) {
            Input[] given = checks.batchInputs(inputs);
            Input[] tagged = withTag(given, tag);
            BatchOp.SparseEdit sparse = sparseEdgesOf(tagged);
            Input[] expanded = expandEdges("batchSpawn", tagged);
            checkSpawnCount(count); // before planning: a refused call creates no archetype
            BatchOp.SpawnPlan plan = drain.planSpawn(expanded, false);
            planned = new Planned(hasEdge(given) ? null : given, tag, plan, withRequired(sparse, plan));
            lastPlanned = planned.given() != null ? planned : null;
            return planned;
        }
        checkSpawnCount(count);
        return planned;
    }

    /**
     * Plans a spawn queue's shape under the state tag {@code tag}: the inputs (checked already) with the tag, their
     * edges expanded and their requirements, as a batch is planned (nothing is reserved).
     *
     * @throws IllegalArgumentException for {@code EntityKey} in the shape, directly or through requirements
     */
    Planned planQueue(Input[] given, TagComponent tag) {
        Input[] tagged = withTag(given, tag);
        BatchOp.SparseEdit sparse = sparseEdgesOf(tagged);
        Input[] expanded = expandEdges("spawnQueue", tagged);
        BatchOp.SpawnPlan plan = perEntityDefaults(drain.planSpawn(expanded, false));
        return new Planned(given, tag, plan, withRequired(sparse, plan));
    }

    /**
     * {@code plan} with each managed component named by its definition given its default per entity, as
     * {@code World.spawn} gives it (a batch leaves such a column empty for its initializer to fill; a queue's
     * spawn has none).
     */
    private static BatchOp.SpawnPlan perEntityDefaults(BatchOp.SpawnPlan plan) {
        byte[] modes = plan.modes().clone();
        for (int p = 0; p < modes.length; p++) {
            if (modes[p] == BatchOp.NONE && plan.table().componentAt(p).storage() == StorageKind.MANAGED) {
                modes[p] = BatchOp.DEFAULT;
            }
        }
        return new BatchOp.SpawnPlan(plan.table(), plan.positions(), plan.inputs(), modes, plan.keyed(),
                plan.sparseRequired());
    }

    private void checkSpawnCount(int count) {
        if (count < 1) {
            throw new IllegalArgumentException("batchSpawn: count must be at least 1, was " + count);
        }
        if (count > index.available()) {
            throw new IllegalStateException("world is full: a batch of " + count + " does not fit (maxEntities="
                    + index.maxEntities() + ", " + index.available() + " ids left)");
        }
    }

    /** {@code inputs} with {@code tag} appended, unless it is {@code null} or the inputs name it already. */
    private static Input[] withTag(Input[] inputs, TagComponent tag) {
        if (tag == null) {
            return inputs;
        }
        for (Input input : inputs) {
            if (input.component() == tag) {
                return inputs;
            }
        }
        Input[] tagged = java.util.Arrays.copyOf(inputs, inputs.length + 1);
        tagged[inputs.length] = tag;
        return tagged;
    }

    private static boolean hasEdge(Input[] inputs) {
        for (Input input : inputs) {
            if (input instanceof RelationshipValue) {
                return true; // its target is checked at every call, and its pair may be pruned
            }
        }
        return false;
    }

    /**
     * Reserves the batch's ids (one consecutive run when the free slots allow, else a range of the transaction's
     * id pool) and stages the batch; inside a scope.
     */
    private BatchOp stageSpawn(int count, Planned planned, BatchCallback initializer) {
        BatchOp.SpawnPlan plan = planned.plan();
        // the op and its room first: once ids are reserved, nothing below allocates (a failure would leak them)
        BatchOp op = BatchOp.recyclableSpawn(transaction.takeSpareSpawn(), plan, count, 0, null, 0, initializer)
                .withSparse(planned.sparse());
        transaction.reserveOps(1);
        long[] ids = null;
        int idsFrom = 0;
        long first = index.allocateConsecutive(count, plan.table().id());
        if (first == 0) {
            idsFrom = transaction.reserveBatchIds(count);
            ids = transaction.batchIds();
            first = index.allocateScattered(count, plan.table().id(), ids, idsFrom);
            if (first != 0) {
                ids = null; // recycled slots that happen to line up
            }
        }
        op.firstId = first;
        op.ids = ids;
        op.idsFrom = idsFrom;
        transaction.addOp(op);
        return op;
    }

    void spawnAt(long[] ids, Input[] inputs, BatchCallback initializer) {
        long[] copy = ids.clone(); // read once: planning may run callbacks (groupBy, ArchetypeCreated) that change it
        BatchOp.SparseEdit sparse = sparseEdgesOf(inputs);
        inputs = expandEdges("batchSpawnAt", inputs);
        BitSet seen = new BitSet();
        for (long id : copy) {
            checkRestorable(id, seen, "batchSpawnAt");
        }
        if (copy.length == 0) {
            return;
        }
        BatchOp.SpawnPlan plan = drain.planSpawn(inputs, false);
        scopes.run(() -> {
            BatchOp op = BatchOp.spawn(BatchOp.Kind.SPAWN_AT, plan, copy.length, 0, copy, initializer)
                    .withSparse(withRequired(sparse, plan));
            transaction.reserveOps(1); // the op and its room before the ids are reserved
            reserveAll(copy, copy.length, plan.table(), "batchSpawnAt");
            transaction.addOp(op);
        });
    }

    void spawnAtRaw(MemorySegment ids, int count, Input[] inputs, BatchCallback initializer) {
        BatchOp.SparseEdit sparse = sparseEdgesOf(inputs);
        inputs = expandEdges("batchSpawnAtRaw", inputs);
        if (count < 0) {
            throw new IllegalArgumentException("batchSpawnAtRaw: count must not be negative, was " + count);
        }
        if (SegmentReads.longCount(ids) < count) {
            throw new IllegalArgumentException("batchSpawnAtRaw: the array holds " + SegmentReads.longCount(ids)
                    + " ids, fewer than count=" + count);
        }
        long[] copy = new long[count]; // read once: planning may run callbacks that change the array
        SegmentReads.longs(ids, 0, copy, 0, count);
        BitSet seen = new BitSet();
        for (long id : copy) {
            checkRestorable(id, seen, "batchSpawnAtRaw");
        }
        if (count == 0) {
            return;
        }
        for (Input input : inputs) {
            if (input.component() == EntityKey.COMPONENT && input instanceof ComponentValue<?> value) {
                if (count > 1) {
                    throw new IllegalArgumentException("batchSpawnAtRaw: one EntityKey value cannot be claimed by "
                            + count + " entities; pass EntityKey.COMPONENT and write keys in the initializer");
                }
                keys.checkClaim((String) value.value(), 0);
            }
        }
        BatchOp.SpawnPlan plan = drain.planSpawn(inputs, true);
        Input[] planned = inputs;
        scopes.run(() -> {
            BatchOp op = BatchOp.spawn(BatchOp.Kind.SPAWN_AT, plan, count, 0, copy, initializer)
                    .withSparse(withRequired(sparse, plan));
            transaction.reserveOps(1); // the op and its room before the ids are reserved
            reserveAll(copy, count, plan.table(), "batchSpawnAtRaw");
            for (Input input : planned) {
                if (input.component() == EntityKey.COMPONENT && input instanceof ComponentValue<?> value) {
                    keys.stageClaim((String) value.value(), copy[0]); // count is 1 here: checked above
                }
            }
            transaction.addOp(op);
        });
    }

    /**
     * A whole-world restoration, inside the caller's scope: clears every entity (as {@link #clear}, the entity
     * index laid out by {@link EntityIndex#prepareRestoreReserved} in the same pass that clears it), plans every
     * batch (requirements expand as for {@code spawnAt}), reserves its ids and stages it. The caller has checked
     * every id and input.
     *
     * <p>The ids are reserved in slot order, in that same layout pass, not in the batches' row order: a snapshot's rows name their slots in whatever order the saved world's moves left them, and
     * touching the index's arrays in that order is a cache miss per entity. They are reserved before the batches
     * are planned, so the callbacks planning runs cannot spawn into them; a planning callback that throws
     * releases them again.
     * A batch that knows its slots in order ({@link MutationModel.RestoreBatch#slots}) is stamped and, unless
     * something cancels a member, published in that order too.
     *
     * @param restoredSlots every batch's slots, ascending, in {@code [0, restoredCount)}
     * @param restoredGenerations the generation of each restored slot's id, in the same order
     */
    void restore(int highWater, int[] freeSlots, int[] freeGenerations, int[] restoredSlots,
            int[] restoredGenerations, int restoredCount, MutationModel.RestoreBatch[] restored) {
        transaction.reserveOps(restored.length); // before anything goes: the batches' room
        clearStorage();
        // Reserved before planning, which creates archetypes and so runs ArchetypeCreated observers: a spawn of
        // theirs must take a slot the snapshot leaves free, not one it restores. The layout reserves them in the
        // same pass that clears the index, so nothing can have taken one meanwhile.
        index.prepareRestoreReserved(highWater, freeSlots, freeGenerations, restoredSlots, restoredGenerations,
                restoredCount, EntityIndex.RESTORING); // stamped with their tables once those are planned
        clearAddressesAndKeys();
        BatchOp.SpawnPlan[] plans = new BatchOp.SpawnPlan[restored.length];
        try {
            for (int b = 0; b < restored.length; b++) {
                plans[b] = drain.planSpawn(restorationInputs(restored[b].inputs()), true);
                leaveToInitializer(plans[b], restored[b].initialized());
            }
        } catch (RuntimeException | Error e) {
            // no op holds them yet: released as a discarded spawn releases its slot (the ids go stale)
            for (int i = 0; i < restoredCount; i++) {
                index.free(restoredSlots[i]);
            }
            throw e;
        }
        if (restored.length == 1) {
            index.stampSlots(restoredSlots, 0, restoredCount, plans[0].table().id());
        }
        long[] chunk = null; // only a batch of several with no slots in order reads its ids back
        for (int b = 0; b < restored.length; b++) {
            MutationModel.RestoreBatch batch = restored[b];
            int tableId = plans[b].table().id();
            if (restored.length > 1 && batch.slots() != null) {
                index.stampSlots(batch.slots(), batch.from(), batch.from() + batch.count(), tableId);
            } else if (restored.length > 1) {
                if (chunk == null) {
                    chunk = new long[CHUNK];
                }
                for (int done = 0; done < batch.count(); done += chunk.length) {
                    int n = Math.min(chunk.length, batch.count() - done);
                    SegmentReads.longs(batch.ids(), done, chunk, 0, n);
                    for (int i = 0; i < n; i++) {
                        index.stampBatch(Entity.slot(chunk[i]), tableId);
                    }
                }
            }
            transaction.addOp(BatchOp.restore(plans[b], batch.ids(), batch.count(), batch.initializer(),
                    batch.slots(), batch.rows(), batch.from())
                    .withSparse(withRequired(null, plans[b])));
        }
    }

    /**
     * Plans no zeroing or default fill for the columns of {@code initialized}: a restoration's initializer writes
     * every row of them (a load copies their saved values over whatever was there), so a first pass would only
     * be overwritten.
     */
    private static void leaveToInitializer(BatchOp.SpawnPlan plan, java.util.Set<Component<?>> initialized) {
        if (initialized == null || initialized.isEmpty()) {
            return;
        }
        byte[] modes = plan.modes();
        for (int p = 0; p < modes.length; p++) {
            if ((modes[p] == BatchOp.ZERO || modes[p] == BatchOp.DEFAULT)
                    && initialized.contains(plan.table().componentAt(plan.positions()[p]))) {
                modes[p] = BatchOp.NONE;
            }
        }
    }

    /**
     * A restoration's inputs as a batch takes them: edges expanded into pairs and markers, and a bare sparse
     * relationship kept as its marker (the batch initializer writes each entity's sparse edges).
     */
    private Input[] restorationInputs(Input[] inputs) {
        java.util.List<Input> others = new java.util.ArrayList<>(inputs.length);
        java.util.List<Input> markers = new java.util.ArrayList<>();
        for (Input input : inputs) {
            if (input instanceof BaseRelationship<?> relationship && relationship.isSparse()) {
                markers.add(relationship);
            } else {
                others.add(input);
            }
        }
        Input[] expanded = expandEdges("loadSnapshot", others.toArray(Input[]::new));
        if (markers.isEmpty()) {
            return expanded;
        }
        Input[] all = java.util.Arrays.copyOf(expanded, expanded.length + markers.size());
        for (int i = 0; i < markers.size(); i++) {
            all[expanded.length + i] = markers.get(i);
        }
        return all;
    }

    /**
     * Reserves the first {@code count} restoration ids for a batch bound for {@code table}, all or none. The ids
     * were checked (and found distinct) before the batch was planned, but planning may create the archetype, and
     * its callbacks may have spawned into one of these slots meanwhile: every id is checked again before the first
     * is reserved, so a refusal leaves no slot reserved.
     */
    private void reserveAll(long[] ids, int count, Table table, String operation) {
        for (int i = 0; i < count; i++) {
            index.checkReservable(ids[i], operation);
        }
        for (int i = 0; i < count; i++) {
            index.reserveAt(ids[i], operation);
            index.stampBatch(Entity.slot(ids[i]), table.id());
        }
    }

    private void checkRestorable(long id, BitSet seen, String operation) {
        index.checkReservable(id, operation);
        int slot = Entity.slot(id);
        if (seen.get(slot)) {
            throw new IllegalArgumentException(operation + ": slot " + slot + " appears twice (id "
                    + Entity.toString(id) + ")");
        }
        seen.set(slot);
    }

    // ---------------------------------------------------------------- despawning a list of ids

    /**
     * Despawns {@code ids[from, to)} in one scope, each exactly as {@code despawn(id)} would in that order (events
     * during the call, staged despawn records, the same publication), after checking every id: a dead, stale or
     * malformed id, or one listed twice, throws before anything is staged or delivered.
     *
     * @return how many of them this call began despawning (the others were being despawned already)
     */
    int despawn(long[] ids, int from, int to) {
        Objects.requireNonNull(ids, "ids");
        if (from < 0 || from > to || to > ids.length) {
            throw new IndexOutOfBoundsException("despawn: from=" + from + " to=" + to + " outside ids.length="
                    + ids.length);
        }
        checkDespawnable(ids, from, to);
        scopes.enter();
        boolean ok = false;
        try {
            int began = 0;
            for (int i = from; i < to; i++) {
                long id = ids[i];
                byte state = index.stateOf(id);
                if (state != EntityIndex.ALIVE && state != EntityIndex.RESERVED) {
                    continue; // an observer of an earlier id despawned it and published (unwind): it is gone
                }
                TxState before = staging.despawn(id, Entity.slot(id));
                if (before != null) {
                    lifecycle.despawned(id, before);
                    began++;
                }
            }
            ok = true;
            return began;
        } finally {
            scopes.exit(ok);
        }
    }

    /** Checks that every id of the range is alive or reserved and listed once; changes nothing. */
    private void checkDespawnable(long[] ids, int from, int to) {
        int words = (index.highWater() + 63) >>> 6;
        if (listedSlots.length < words) {
            listedSlots = new long[Math.max(words, listedSlots.length * 2)];
        }
        int i = from;
        try {
            for (; i < to; i++) {
                long id = ids[i];
                byte state = index.stateOf(id);
                if (state != EntityIndex.ALIVE && state != EntityIndex.RESERVED) {
                    throw new IllegalArgumentException(index.describeDead(id, "despawn ids[" + i + "]"));
                }
                int slot = Entity.slot(id);
                if ((listedSlots[slot >>> 6] & 1L << slot) != 0) {
                    throw new IllegalArgumentException("despawn ids[" + i + "]: entity " + Entity.toString(id)
                            + " is listed twice in ids[" + from + ", " + to + ")");
                }
                listedSlots[slot >>> 6] |= 1L << slot;
            }
        } finally {
            for (int k = from; k < i; k++) { // only slots of checked (valid) ids were marked
                int slot = Entity.slot(ids[k]);
                listedSlots[slot >>> 6] &= ~(1L << slot);
            }
        }
    }

    // ---------------------------------------------------------------- query batches

    void set(Query query, Component<?> component, Input value, BatchCallback writer) {
        BatchOp.SparseEdit sparse = null;
        if (value instanceof RelationshipValue edge && edge.relationship().isSparse()) {
            component = edge.relationship(); // the marker; each member's edge goes to the store
            value = edge.relationship();
            sparse = edit(SparseWriteQueue.ADD, edge);
        } else if (value instanceof RelationshipValue edge) { // constant mode takes edges: the pair stands for it
            PairComponent pair = pairs.pair(edge.relationship(), edge.target());
            component = pair;
            value = Staging.pairInput(pair, edge);
        } else if (writer != null && (component instanceof BaseRelationship<?> || component instanceof PairComponent
                || component instanceof TargetSelector<?>)) {
            throw new IllegalArgumentException("batchSet: a writer cannot set relationship " + component
                    + ": pass an edge value, batchSet(query, REL.to(target))");
        } else {
            refuseRelationship("batchSet", value != null ? value : component);
        }
        Component<?> chosen = component;
        Input chosenValue = value;
        if (bringsKey(component)) {
            throw new IllegalArgumentException("batchSet: EntityKey cannot be set in bulk (directly or through "
                    + "requirements of " + component.name() + "): one value cannot be claimed by several entities");
        }
        BatchOp.SparseEdit chosenEdit = sparse;
        scopes.run(() -> capture(query, BatchOp.Kind.SET, chosen, chosenValue, writer).withSparse(chosenEdit));
    }

    /** Whether adding {@code component} adds {@code EntityKey}: itself, or anywhere in its requirement closure. */
    private static boolean bringsKey(Component<?> component) {
        java.util.ArrayDeque<Component<?>> queue = new java.util.ArrayDeque<>();
        Set<Component<?>> seen = new HashSet<>();
        queue.add(component);
        while (!queue.isEmpty()) {
            Component<?> next = queue.poll();
            if (next == EntityKey.COMPONENT) {
                return true;
            }
            if (seen.add(next)) {
                for (Input required : next.requires()) {
                    queue.add(required.component());
                }
            }
        }
        return false;
    }

    void remove(Query query, Component<?> component) {
        if (component instanceof TargetSelector<?> edge) { // one edge
            PairComponent pair = pairs.find(edge.relationship(), edge.target());
            if (pair == null) {
                return; // no entity of this world ever had it
            }
            component = pair;
        } else if (component instanceof PairComponent pair) {
            throw new IllegalArgumentException("batchRemove: pass REL or REL.targeting(target), not the pair "
                    + pair.name());
        }
        Component<?> chosen = component;
        BatchOp.SparseEdit sparse = component instanceof BaseRelationship<?> relationship && relationship.isSparse()
                ? BatchOp.SparseEdit.of(SparseWriteQueue.REMOVE_ALL, relationship, 0, null)
                : null;
        scopes.run(() -> capture(query, BatchOp.Kind.REMOVE, chosen, null, null).withSparse(sparse));
    }

    /** Removes one sparse edge from every member; a member left without edges loses the marker afterwards. */
    void removeSparseEdge(Query query, RelationshipValue edge) {
        scopes.run(() -> capture(query, BatchOp.Kind.REMOVE, edge.relationship(), null, null)
                .withSparse(edit(SparseWriteQueue.REMOVE, edge)));
    }

    void despawn(Query query) {
        scopes.run(() -> {
            BatchOp op = capture(query, BatchOp.Kind.DESPAWN, null, null, null);
            if (!lifecycle.anyDespawnObserver()) {
                return;
            }
            long[][] members = op.membersView();
            Table[] tables = capturedTables; // observers may capture again
            int[] counts = capturedCounts;
            RuntimeException failure = null;
            for (int t = 0; t < members.length; t++) {
                long[] ids = members[t];
                if (ids == null) { // not copied: the archetype's rows are the members (stable during this call)
                    ids = new long[counts[t]];
                    tables[t].readEntities(0, ids.length, ids, 0);
                }
                for (long id : ids) {
                    try {
                        lifecycle.despawned(id, TxState.COMMITTED);
                    } catch (RuntimeException e) { // the batch stays staged: every member still hears its event
                        if (failure == null) {
                            failure = e;
                        } else if (failure != e) {
                            failure.addSuppressed(e);
                        }
                    }
                }
            }
            if (failure != null) {
                throw failure;
            }
        });
    }

    private Table[] capturedTables;
    private int[] capturedCounts;

    /**
     * Captures the query's committed members now, per non-empty archetype, and stages the op. The ids are not
     * copied (the archetype hands them over before its rows first change); only a despawn that must skip
     * entities already being despawned copies and filters them at once.
     */
    private BatchOp capture(Query query, BatchOp.Kind kind, Component<?> component, Input value,
            BatchCallback writer) {
        List<Archetype> matched = query.archetypes();
        int nonEmpty = 0;
        for (Archetype archetype : matched) {
            if (archetype.count() > 0) {
                nonEmpty++;
            }
        }
        Table[] tables = new Table[nonEmpty];
        long[][] members = new long[nonEmpty][];
        long[] structural = new long[nonEmpty];
        int[] counts = new int[nonEmpty];
        boolean filter = kind == BatchOp.Kind.DESPAWN && (transaction.openRecords() > 0
                || transaction.hasOpenTagMoves() || transaction.anyDoomed()); // (tag moves become records below)
        // every allocation first (the op's room, the marks' room, the members, the op): the marks come last
        transaction.reserveOps(1);
        if (filter) {
            transaction.reserveDoom(index.highWater());
        }
        int t = 0;
        for (Archetype archetype : matched) {
            if (archetype.count() == 0) {
                continue;
            }
            Table table = archetypes.get(archetype.id());
            tables[t] = table;
            structural[t] = table.dirty().structuralCount();
            counts[t] = table.count();
            if (kind == BatchOp.Kind.DESPAWN && table.hasPendingDespawn()) {
                members[t] = new long[0]; // an earlier batch despawn already claimed every row
            } else if (filter) {
                long[] ids = new long[table.count()];
                table.readEntities(0, ids.length, ids, 0);
                members[t] = unselected(ids);
            }
            t++;
        }
        capturedTables = tables;
        capturedCounts = counts;
        BatchOp op = BatchOp.query(kind, tables, members, structural, counts, component, value, writer, transaction);
        if (filter) { // nothing below allocates: the marks fit the room reserved, the op its room
            for (long[] selected : members) {
                for (long id : selected) {
                    transaction.doom(Entity.slot(id));
                }
            }
        }
        transaction.addOp(op);
        return op;
    }

    /**
     * Drops members already being despawned (a slot is in one table: no member's mark can change another's
     * answer, so the despawn marks its members afterwards, once everything it needs is allocated).
     */
    private long[] unselected(long[] ids) {
        int kept = 0;
        for (long id : ids) {
            int slot = Entity.slot(id);
            if (transaction.isDoomed(slot) || isDespawning(slot)) {
                continue;
            }
            ids[kept++] = id;
        }
        return kept == ids.length ? ids : java.util.Arrays.copyOf(ids, kept);
    }

    private boolean isDespawning(int slot) {
        int record = transaction.peek(slot); // a tag move is no despawn: it need not become a record here
        if (record < 0) {
            return false;
        }
        TxState state = transaction.state(record);
        return state == TxState.STAGED_DESPAWN || state == TxState.CANCELLED_SPAWN;
    }

    // ---------------------------------------------------------------- clearing

    /** Drops every entity and everything staged (the caller checked it may). */
    void clear() {
        index.reserveForClear(); // before the rows leave: the index's clear then allocates nothing
        clearStorage();
        index.clear();
        clearAddressesAndKeys();
    }

    /** The first part of {@link #clear}: the rows leave (membership callbacks), staged work is dropped. */
    private void clearStorage() {
        drain.clearAll();
        keys.dropPending();
    }

    /** The last part of {@link #clear}, after the entity index: addresses, keys and sparse edges go. */
    private void clearAddressesAndKeys() {
        lifecycle.clearEntityAddresses();
        keys.clear();
        archetypes.sparseEdges().clear();
    }
}
