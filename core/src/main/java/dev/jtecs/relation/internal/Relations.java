package dev.jtecs.relation.internal;

import dev.jtecs.component.PairComponent;
import dev.jtecs.component.BaseRelationship;
import dev.jtecs.entity.Entity;
import dev.jtecs.entity.internal.EntityIndex;
import dev.jtecs.mutation.internal.SparseWriteQueue;
import dev.jtecs.mutation.internal.Transaction;
import dev.jtecs.mutation.internal.TxState;
import dev.jtecs.storage.internal.ArchetypeRegistry;
import dev.jtecs.storage.internal.PairRegistry;
import dev.jtecs.storage.internal.SparseEdges;
import dev.jtecs.storage.internal.Table;
import java.util.List;
import java.util.Objects;
import dev.jtecs.relation.AncestorVisitor;
import dev.jtecs.mutation.internal.DrainHooks;
import dev.jtecs.mutation.internal.LifecycleEvents;
import dev.jtecs.mutation.internal.MutationModel;
import dev.jtecs.mutation.internal.Staging;
import dev.jtecs.relation.TraversalVisitor;

/**
 * The world's relationship machinery beyond staging: lookups from a target to its sources, traversal and
 * {@code walkUp}, and what a dying target does to the edges pointing at it (removal, or a cascade of despawns),
 * settled once the target's segment of a publication has applied its moves.
 *
 * <p>Dense edges need no separate reverse index: the sources of (REL, t) are the rows of the archetypes holding
 * that pair, found through the component index. Sparse edges live in the world's {@link SparseEdges} store,
 * which keeps its own reverse index; this class is the sink its staged writes flush into, and it keeps each
 * sparse marker in step with the store. Traversals use a reusable stack and per-slot visit stamps, so they
 * allocate nothing per entity; a nested traversal (from a visitor or observer) gets its own stack.
 */
public final class Relations implements DrainHooks {
    private final EntityIndex index;
    private final ArchetypeRegistry archetypes;
    private final PairRegistry pairs;
    private final SparseEdges sparse;
    private Transaction transaction;
    private Staging staging;
    private LifecycleEvents lifecycle;

    /** The relationship machinery over a world's entities and archetypes; {@link #bind} it before publishing. */
    public Relations(EntityIndex index, ArchetypeRegistry archetypes) {
        this.index = index;
        this.archetypes = archetypes;
        this.pairs = archetypes.pairs();
        this.sparse = archetypes.sparseEdges();
    }

    /**
     * Attaches the mutation model this machinery stages its settlements through (edge removals, cascading
     * despawns, marker corrections). Once, before the first publication: the model is built with this object as
     * its drain's hooks, so the two cannot be handed to each other's constructors.
     *
     * @throws IllegalStateException when already bound
     */
    public void bind(MutationModel model) {
        if (staging != null) {
            throw new IllegalStateException("relations are bound to a mutation model already");
        }
        this.transaction = model.transaction();
        this.staging = model.staging();
        this.lifecycle = model.lifecycle();
    }

    /**
     * The published entities holding an edge of {@code relationship} to {@code target}, ascending.
     *
     * @throws IllegalArgumentException when the relationship has no reverse index
     */
    public long[] sources(BaseRelationship<?> relationship, long target) {
        requireReverseIndex(relationship, "relationshipSources");
        return sourcesOf(relationship, target);
    }

    /** Visits the sources of edges of {@code relationship} to {@code target}, in ascending id order. */
    public void targets(long target, BaseRelationship<?> relationship, java.util.function.LongConsumer action) {
        requireReverseIndex(relationship, "targets");
        Objects.requireNonNull(action, "action");
        for (long source : sourcesOf(relationship, target)) {
            action.accept(source);
        }
    }

    /**
     * Visits, depth first, every entity that reaches {@code root} through edges of {@code relationship} (its
     * children, their children, ...): the root itself is not visited, direct children have depth 0, children are
     * visited in ascending id order, and each entity at most once (cycles end there).
     */
    public void traverse(long root, BaseRelationship<?> relationship, TraversalVisitor visitor) {
        requireReverseIndex(relationship, "traverse");
        Objects.requireNonNull(visitor, "visitor");
        TraversalStack stack = idleStack != null ? idleStack : new TraversalStack(); // nested walks get their own
        idleStack = null;
        try {
            stack.newVisit();
            if (index.isAlive(root)) { // a dead root (a sparse edge kept its id) must not hide its slot's new entity
                stack.markSeen(Entity.slot(root));
            }
            int top = stack.pushChildren(relationship, root, 0, 0);
            while (top > 0) {
                top--;
                long entity = stack.entities[top];
                int depth = stack.depths[top];
                int slot = Entity.slot(entity);
                if (!stack.markSeen(slot)) {
                    continue;
                }
                visitor.visit(entity, depth);
                top = stack.pushChildren(relationship, entity, depth + 1, top);
            }
        } finally {
            idleStack = stack;
        }
    }

    private TraversalStack idleStack = new TraversalStack();

    /** A reusable depth-first stack of (entity, depth): traversals allocate only to grow it. */
    private final class TraversalStack {
        long[] entities = new long[64];
        int[] depths = new int[64];
        private int[] stamps = new int[64]; // per slot: the visit that saw it (no clearing between visits)
        private int visit;

        private void ensure(int size) {
            if (size > entities.length) {
                int capacity = Math.max(size, entities.length * 2);
                entities = java.util.Arrays.copyOf(entities, capacity);
                depths = java.util.Arrays.copyOf(depths, capacity);
            }
        }

        /**
         * Sorts {@code a[from, to)} descending: insertion sort for the few children a node usually has (the
         * library sort's set-up costs more than the whole job there), the library sort beyond that.
         */
        private static void sortDescending(long[] a, int from, int to) {
            if (to - from > 24) {
                java.util.Arrays.sort(a, from, to);
                for (int i = from, j = to - 1; i < j; i++, j--) {
                    long swap = a[i];
                    a[i] = a[j];
                    a[j] = swap;
                }
                return;
            }
            for (int i = from + 1; i < to; i++) {
                long value = a[i];
                int j = i - 1;
                while (j >= from && a[j] < value) {
                    a[j + 1] = a[j];
                    j--;
                }
                a[j + 1] = value;
            }
        }

        /** Starts a visit: every slot counts as unseen again. */
        void newVisit() {
            if (++visit == Integer.MAX_VALUE) {
                java.util.Arrays.fill(stamps, 0);
                visit = 1;
            }
        }

        /** Marks a slot seen in this visit; returns whether it was unseen. */
        boolean markSeen(int slot) {
            if (slot >= stamps.length) {
                stamps = java.util.Arrays.copyOf(stamps, Math.max(slot + 1, stamps.length * 2));
            }
            if (stamps[slot] == visit) {
                return false;
            }
            stamps[slot] = visit;
            return true;
        }

        /**
         * Pushes the sources of edges to {@code parent} so that they pop in ascending id order (read from the
         * archetypes holding the pair in bulk); returns the new top.
         */
        int pushChildren(BaseRelationship<?> relationship, long parent, int depth, int top) {
            int start = top;
            if (relationship.isSparse()) {
                int n = sparse.sourceCount(relationship, parent);
                ensure(top + n);
                top = sparse.copySources(relationship, parent, entities, top);
            } else {
                PairComponent pair = pairs.find(relationship, parent);
                if (pair == null) {
                    return top;
                }
                for (Table table : archetypes.withComponent(pair.id())) {
                    int n = table.count();
                    ensure(top + n);
                    table.readEntities(0, n, entities, top);
                    top += n;
                }
            }
            sortDescending(entities, start, top); // so the smallest pops first
            java.util.Arrays.fill(depths, start, top, depth);
            return top;
        }
    }

    /**
     * Follows the first edge of {@code relationship} (ascending target order) from {@code id} upward: the direct
     * target at depth 1, its first target at depth 2, ..., until an entity has no edge or the visitor returns
     * false.
     *
     * @throws IllegalStateException on a cycle, or when the walk would go deeper than {@code maxDepth}
     */
    public void walkUp(long id, BaseRelationship<?> relationship, AncestorVisitor visitor, int maxDepth) {
        Objects.requireNonNull(relationship, "relationship");
        Objects.requireNonNull(visitor, "visitor");
        if (maxDepth < 0) {
            throw new IllegalArgumentException("walkUp: maxDepth=" + maxDepth + " must not be negative");
        }
        long[] path = walkPath != null ? walkPath : new long[16]; // a nested walk (from a visitor) gets its own
        walkPath = null;
        try {
            path[0] = id;
            long current = id;
            for (int depth = 1; ; depth++) {
                if (!index.isAlive(current)) {
                    return;
                }
                int slot = Entity.slot(current);
                long parent = archetypes.ofStore(index.storeOf(slot)).firstTarget(relationship, index.rowOf(slot));
                if (parent == 0) {
                    return;
                }
                for (int i = 0; i < depth; i++) { // the ancestors so far: a repeat is a cycle
                    if (path[i] == parent) {
                        throw new IllegalStateException("walkUp: " + relationship.name()
                                + " edges form a cycle at " + Entity.toString(parent));
                    }
                }
                if (depth > maxDepth) {
                    throw new IllegalStateException("walkUp: deeper than " + maxDepth + " levels of "
                            + relationship.name() + " from " + Entity.toString(id));
                }
                if (!visitor.visit(parent, depth)) {
                    return;
                }
                if (depth >= path.length) {
                    path = java.util.Arrays.copyOf(path, path.length * 2);
                }
                path[depth] = parent;
                current = parent;
            }
        } finally {
            walkPath = path;
        }
    }

    private long[] walkPath = new long[16];

    private static void requireReverseIndex(BaseRelationship<?> relationship, String operation) {
        if (!Objects.requireNonNull(relationship, "relationship").hasReverseIndex()) {
            throw new IllegalArgumentException(operation + ": relationship " + relationship.name()
                    + " has no reverse index (register it with reverseIndex())");
        }
    }

    /**
     * The published sources of edges to {@code target}, ascending: the archetypes holding the pair, read (dense),
     * or the store's reverse index (sparse).
     */
    private long[] sourcesOf(BaseRelationship<?> relationship, long target) {
        if (relationship.isSparse()) {
            return sparse.sources(relationship, target);
        }
        PairComponent pair = pairs.find(relationship, target);
        if (pair == null) {
            return new long[0];
        }
        int total = 0;
        for (Table table : archetypes.withComponent(pair.id())) {
            total += table.count();
        }
        long[] sources = new long[total];
        int n = 0;
        for (Table table : archetypes.withComponent(pair.id())) {
            table.readEntities(0, table.count(), sources, n);
            n += table.count();
        }
        java.util.Arrays.sort(sources);
        return sources;
    }

    /**
     * A publication despawned {@code id}: when edges point at it, it is noted; once its segment has published
     * its moves, {@link #settleDeadTargets} despawns the sources of cascading edges (whole subtrees, in the next
     * wave of the same commit) and removes the other edges.
     */
    @Override
    public void despawned(long id) {
        despawnedTarget(id);
    }

    @Override
    public void placedWithPairs(Table table, int fromRow, int toRow) {
        dropEdgesToDead(table, fromRow, toRow);
    }

    @Override
    public void segmentDone() {
        settleDeadTargets();
    }

    @Override
    public boolean pendingSettlement() {
        return hasUnsettledTargets();
    }

    public void despawnedTarget(long id) {
        if (!sparse.isEmpty()) {
            sparse.removeSource(id); // its own sparse edges go with it; the slot's next entity starts without
            if (cascadingSparseSources(id)) {
                noteDeadTarget(id);
                return;
            }
        }
        if (pairs.isEmpty() || pairs.targeting(id).isEmpty()) {
            return;
        }
        noteDeadTarget(id);
    }

    private boolean cascadingSparseSources(long target) {
        for (BaseRelationship<?> relationship : sparse.relationships()) {
            if (relationship.isCascadeDelete() && sparse.sourceCount(relationship, target) > 0) {
                return true;
            }
        }
        return false;
    }

    private void noteDeadTarget(long id) {
        int slot = Entity.slot(id);
        if (slot >= notedStamps.length) {
            int capacity = Math.max(slot + 1, notedStamps.length * 2);
            notedStamps = java.util.Arrays.copyOf(notedStamps, capacity);
            notedIds = java.util.Arrays.copyOf(notedIds, capacity);
        }
        if (notedStamps[slot] == notedEpoch && notedIds[slot] == id) {
            return; // noted already for this settlement (each placed range with an edge to it notes it again)
        }
        notedStamps[slot] = notedEpoch;
        notedIds[slot] = id;
        if (deadTargetCount == deadTargets.length) {
            deadTargets = java.util.Arrays.copyOf(deadTargets, deadTargetCount * 2);
        }
        deadTargets[deadTargetCount++] = id;
    }

    private long[] deadTargets = new long[16];
    private int deadTargetCount;

    /**
     * Whether targets that died wait for their edges to be settled: a failed publication left them for the next
     * one, which must run even when nothing else is staged.
     */
    public boolean hasUnsettledTargets() {
        return deadTargetCount > 0;
    }
    // per slot: the settlement (epoch) that noted the id there, so noting is O(1) and never twice per settlement
    private int[] notedStamps = new int[64];
    private long[] notedIds = new long[64];
    private int notedEpoch = 1;

    /** Starts a new settlement: every target counts as not noted again. */
    private void nextNoteEpoch() {
        if (++notedEpoch == Integer.MAX_VALUE) {
            java.util.Arrays.fill(notedStamps, 0);
            notedEpoch = 1;
        }
    }

    /**
     * After a segment published its moves: the edges still pointing at targets that died in it are handled,
     * reading rows where the segment left them, so a source re-targeted or detached earlier in call order is
     * spared. Cascading sources are despawned (whole subtrees, staged now), other edges removed.
     */
    public void settleDeadTargets() {
        settleLandedOnDead();
        for (int i = 0; i < deadTargetCount; i++) {
            long id = deadTargets[i];
            if (!sparse.isEmpty()) {
                for (BaseRelationship<?> relationship : sparse.relationships()) {
                    if (relationship.isCascadeDelete()) {
                        cascade(relationship, id); // non-cascading sparse edges keep the dead id
                    }
                }
            }
            for (PairComponent pair : List.copyOf(pairs.targeting(id))) {
                if (pair.relationship().isCascadeDelete()) {
                    cascade(pair.relationship(), id);
                    continue;
                }
                for (Table table : archetypes.withComponent(pair.id())) {
                    for (int row = 0; row < table.count(); row++) {
                        long source = table.entityAt(row);
                        if (index.isAlive(source)) {
                            staging.remove(source, Entity.slot(source), pair);
                        }
                    }
                }
            }
        }
        for (int i = 0; i < deadTargetCount; i++) { // what was staged publishes in a later wave, or is discarded
            settled(deadTargets[i]);
        }
        deadTargetCount = 0;
        nextNoteEpoch();
    }

    private long[] settled = new long[16];
    private int settledCount;

    /** Remembers a target whose settlement this publication staged, to settle again should the publication fail. */
    private void settled(long target) {
        if (settledCount == settled.length) {
            settled = java.util.Arrays.copyOf(settled, settledCount * 2);
        }
        settled[settledCount++] = target;
    }

    /**
     * The outermost publication ended. When it failed, the despawns and removals its settlements staged for
     * later waves were discarded with them: those targets are settled again by the next publication, so no edge
     * outlives its target.
     */
    @Override
    public void publicationEnded(boolean published) {
        if (!published) {
            nextNoteEpoch();
            for (int i = 0; i < settledCount; i++) {
                noteDeadTarget(settled[i]);
            }
        }
        settledCount = 0;
    }

    /**
     * Rows just placed in an archetype with pairs: an edge whose target died earlier in this publication (or
     * whose staged target was cancelled) must not outlive it. The target is settled with the others once this
     * segment has applied its moves ({@link #settleDeadTargets}), so the placed rows are treated as if they had
     * been sources when it died: a row re-targeted later in the same segment is spared, as a published one is.
     */
    public void dropEdgesToDead(Table table, int fromRow, int toRow) {
        for (int p = table.componentCount() - 1; p >= 0; p--) {
            if (!(table.componentAt(p) instanceof PairComponent pair)) {
                break; // pairs sort last
            }
            byte state = index.stateOf(pair.target());
            if (state != EntityIndex.ALIVE && state != EntityIndex.RESERVED) {
                noteDeadTarget(pair.target());
            }
        }
    }

    /**
     * Stages the despawn of every entity below {@code root} through a cascading relationship, and below each of
     * those through every cascading relationship (a {@code ChildOf} subtree under a sparse holder goes too), so
     * the whole subtree is staged now and a source detached later in call order is already taken.
     */
    private void cascade(BaseRelationship<?> relationship, long root) {
        TraversalStack stack = idleStack != null ? idleStack : new TraversalStack();
        idleStack = null;
        cascadingSparseCount = 0; // gathered once per root: the loop below allocates nothing per entity
        if (!sparse.isEmpty()) {
            for (BaseRelationship<?> each : sparse.relationships()) {
                if (each.isCascadeDelete()) {
                    if (cascadingSparseCount == cascadingSparse.length) {
                        cascadingSparse = java.util.Arrays.copyOf(cascadingSparse, cascadingSparseCount * 2);
                    }
                    cascadingSparse[cascadingSparseCount++] = each;
                }
            }
        }
        try {
            int top = stack.pushChildren(relationship, root, 0, 0);
            while (top > 0) {
                long child = stack.entities[--top];
                if (!index.isAlive(child)) {
                    continue;
                }
                if (despawnSource(child)) {
                    top = pushCascadingSources(stack, child, top);
                }
            }
        } finally {
            idleStack = stack;
        }
    }

    private BaseRelationship<?>[] cascadingSparse = new BaseRelationship<?>[4];
    private int cascadingSparseCount;

    /** Pushes the sources of every cascading relationship's edges to {@code target}, sparse then dense. */
    private int pushCascadingSources(TraversalStack stack, long target, int top) {
        for (int i = 0; i < cascadingSparseCount; i++) {
            top = stack.pushChildren(cascadingSparse[i], target, 0, top);
        }
        List<PairComponent> targeting = pairs.targeting(target);
        for (int i = 0; i < targeting.size(); i++) {
            PairComponent pair = targeting.get(i);
            if (pair.relationship().isCascadeDelete()) {
                top = stack.pushChildren(pair.relationship(), target, 0, top);
            }
        }
        return top;
    }

    /**
     * Stages the despawn of a cascading edge's source and reports it; returns whether it was staged (not already
     * being despawned). The source is marked like a batch despawn's selection: while its despawn waits in a wave
     * being drained, later calls (a cascade reaching it again among them) leave it alone.
     */
    private boolean despawnSource(long source) {
        TxState before = staging.despawn(source, Entity.slot(source));
        if (before == null) {
            return false;
        }
        transaction.doom(Entity.slot(source));
        lifecycle.despawned(source, before);
        return true;
    }

    // ---------------------------------------------------------------- sparse edge writes

    private long[] touchedEntities = new long[16];
    private BaseRelationship<?>[] touchedRelationships = new BaseRelationship<?>[16];
    private int touchedCount;

    /** Applies one flushed (or batch) sparse edge write to a live entity. */
    @Override
    public void applySparse(long entity, byte op, BaseRelationship<?> relationship, long target, Object payload) {
        boolean changed = switch (op) {
            case SparseWriteQueue.ADD -> sparse.add(relationship, entity, target, payload);
            case SparseWriteQueue.REMOVE -> sparse.remove(relationship, entity, target);
            default -> sparse.removeAll(relationship, entity);
        };
        if (changed) {
            touch(entity, relationship);
        }
        if (op == SparseWriteQueue.ADD && relationship.isCascadeDelete() && !isLiveTarget(target)) {
            // its target died before the edge landed; a later write of the same flush may still re-target it,
            // so the cascade is decided where the flush (or batch) leaves the store: settleLandedOnDead
            landedOnDead.add(entity);
        }
    }

    private boolean isLiveTarget(long target) {
        byte state = index.stateOf(target);
        return state == EntityIndex.ALIVE || state == EntityIndex.RESERVED;
    }

    /** Sources whose cascading sparse edge landed on a dead target in the current flush or batch. */
    private final java.util.Set<Long> landedOnDead = new java.util.LinkedHashSet<>();

    /**
     * After a flush or a batch: a source still holding a cascading sparse edge to a dead target goes the way of
     * that target, as a dense source placed with such an edge does. One re-targeted or detached by a later write
     * of the same step keeps its new state.
     */
    private void settleLandedOnDead() {
        if (landedOnDead.isEmpty()) {
            return;
        }
        Long[] sources = landedOnDead.toArray(new Long[0]);
        landedOnDead.clear();
        for (long source : sources) {
            if (!index.isAlive(source)) {
                continue;
            }
            for (BaseRelationship<?> relationship : sparse.relationships()) {
                if (relationship.isCascadeDelete() && holdsDeadTarget(relationship, source)) {
                    settleDeadTargetsOf(relationship, source); // first: should the despawn's observers throw,
                    despawnSource(source); // the failed publication leaves these targets to the next one
                    break;
                }
            }
        }
    }

    private void settleDeadTargetsOf(BaseRelationship<?> relationship, long source) {
        int count = sparse.count(relationship, source);
        for (int i = 0; i < count; i++) {
            long target = sparse.targetAt(relationship, source, i);
            if (!isLiveTarget(target)) {
                settled(target);
            }
        }
    }

    private boolean holdsDeadTarget(BaseRelationship<?> relationship, long source) {
        int count = sparse.count(relationship, source);
        for (int i = 0; i < count; i++) {
            if (!isLiveTarget(sparse.targetAt(relationship, source, i))) {
                return true;
            }
        }
        return false;
    }

    private void touch(long entity, BaseRelationship<?> relationship) {
        if (touchedCount == touchedEntities.length) {
            touchedEntities = java.util.Arrays.copyOf(touchedEntities, touchedCount * 2);
            touchedRelationships = java.util.Arrays.copyOf(touchedRelationships, touchedCount * 2);
        }
        touchedEntities[touchedCount] = entity;
        touchedRelationships[touchedCount++] = relationship;
    }

    /**
     * After a flush or a batch: each entity whose sparse edges changed carries the relationship marker exactly
     * while it holds an edge. Where they disagree (its last edge was removed, or an edge landed while the marker
     * was being removed) the marker change is staged for the next wave, unless a later call already stages it.
     */
    @Override
    public void settleSparse() {
        for (int i = 0; i < touchedCount; i++) {
            long entity = touchedEntities[i];
            BaseRelationship<?> relationship = touchedRelationships[i];
            touchedRelationships[i] = null;
            if (!index.isAlive(entity)) {
                continue;
            }
            int slot = Entity.slot(entity);
            boolean marked = archetypes.ofStore(index.storeOf(slot)).has(relationship.id());
            boolean holds = sparse.count(relationship, entity) > 0;
            if (marked != holds && !staging.isDoomed(slot)) {
                staging.correctSparseMarker(entity, slot, relationship, holds);
            }
        }
        touchedCount = 0;
    }
}
