package dev.jtecs.relation.internal;

import dev.jtecs.entity.internal.Growth;

import dev.jtecs.component.BaseRelationship;
import dev.jtecs.component.PairComponent;
import dev.jtecs.entity.Entity;
import dev.jtecs.entity.internal.EntityIndex;
import dev.jtecs.mutation.internal.CommitDrain;
import dev.jtecs.mutation.internal.LifecycleEvents;
import dev.jtecs.mutation.internal.Staging;
import dev.jtecs.mutation.internal.Transaction;
import dev.jtecs.mutation.internal.TxState;
import dev.jtecs.storage.internal.ArchetypeRegistry;
import dev.jtecs.storage.internal.PairRegistry;
import dev.jtecs.storage.internal.SparseEdges;
import dev.jtecs.storage.internal.Table;
import java.util.List;
import java.util.function.LongPredicate;

/**
 * What a dying target does to the edges pointing at it: a publication notes each target that died with edges to
 * it ({@link #despawnedTarget}, {@link #dropEdgesToDead}); once the target's segment has applied its moves,
 * {@link #settleDeadTargets} despawns the sources of cascading edges (whole subtrees, staged for the next wave of
 * the same commit) and removes the other edges, reading rows where the segment left them, so a source re-targeted
 * or detached earlier in call order is spared.
 *
 * <pre>
 *   despawn(target) ──► note target ──(segment done)──► cascading: stage despawn of every source subtree
 *                                                      otherwise: stage removal of the edge (REL, target)
 *   failed publication ──► the settlements it staged were discarded ──► noted again for the next one
 * </pre>
 *
 * <p>Invariants: a target is noted at most once per settlement (per-slot stamps, O(1)); no edge outlives its target
 * across publications, failed ones included; the cascade allocates nothing per entity.
 */
final class Settlement {
    private final EntityIndex index;
    private final ArchetypeRegistry archetypes;
    private final PairRegistry pairs;
    private final SparseEdges sparse;
    private final Transaction transaction;
    private final Staging staging;
    private final LifecycleEvents lifecycle;
    private TraversalStack idleStack;
    private final LongPredicate isAlive;
    private final CommitDrain drain;

    Settlement(EntityIndex index, ArchetypeRegistry archetypes, Transaction transaction, Staging staging,
            LifecycleEvents lifecycle, CommitDrain drain) {
        this.drain = drain;
        this.index = index;
        this.archetypes = archetypes;
        this.pairs = archetypes.pairs();
        this.sparse = archetypes.sparseEdges();
        this.transaction = transaction;
        this.staging = staging;
        this.lifecycle = lifecycle;
        this.idleStack = new TraversalStack(archetypes);
        this.isAlive = index::isAlive;
    }

    /** Whether {@link #despawnedTarget} may do anything: false while the world holds no sparse edge and no pair. */
    boolean hearsDespawns() {
        return !sparse.isEmpty() || !pairs.isEmpty();
    }

    /**
     * Whether the despawn of {@code id}, published in {@code table}, gives this settlement anything to do: the
     * entity holds a sparse edge or is the target of one with a reverse index, holds a pair, or a pair names it.
     * False promises that {@link #despawnedTarget} would do nothing for it and note nothing.
     */
    boolean hearsDespawnOf(long id, Table table) {
        if (!sparse.isEmpty() && sparse.involves(id)) {
            return true;
        }
        return !pairs.isEmpty() && (table.hasPairs() || !pairs.targeting(id).isEmpty());
    }

    /**
     * A publication despawned {@code id}: when edges point at it, it is noted; once its segment has published
     * its moves, {@link #settleDeadTargets} despawns the sources of cascading edges (whole subtrees, in the next
     * wave of the same commit) and removes the other edges.
     */
    void despawnedTarget(long id) {
        if (!sparse.isEmpty()) {
            sparse.removeSource(id); // its own sparse edges go with it; the slot's next entity starts without
            // lists of sources that died with it (freed before it was told) go whole; live cascading ones wait
            if (sparse.dropListsOfDeadSources(id, isAlive)) {
                noteDeadTarget(id);
                return;
            }
        }
        if (pairs.isEmpty() || pairs.targeting(id).isEmpty()) {
            return;
        }
        noteDeadTarget(id);
    }

    /**
     * A publication despawned {@code ids[from, to)} together (every row gone and every slot freed before this
     * call): what {@link #despawnedTarget} does for each in order, in two passes instead of one per entity. The
     * lists of each first (so the edges of sources that died with their target leave with the target's list, unread
     * one by one), then every source's own edges, relationship by relationship (the edge counters tick once each).
     * The dead targets are noted in the run's order, as one by one. Allocates nothing after {@link #reserve}.
     */
    void despawnedRun(long[] ids, int from, int to) {
        boolean anySparse = !sparse.isEmpty();
        boolean anyPairs = !pairs.isEmpty();
        if (!anySparse && !anyPairs) {
            return;
        }
        for (int i = from; i < to; i++) {
            long id = ids[i];
            if (anySparse && sparse.dropListsOfDeadSources(id, isAlive)) {
                noteDeadTarget(id); // live cascading sources wait for its settlement
            } else if (anyPairs && !pairs.targeting(id).isEmpty()) {
                noteDeadTarget(id);
            }
        }
        if (anySparse) {
            sparse.removeSources(ids, from, to);
        }
    }

    /** Makes room to note {@code count} dead targets of slots up to {@code highestSlot} without allocating. */
    void reserve(int count, int highestSlot) {
        noted.reserve(highestSlot);
        if (highestSlot >= notedIds.length) {
            notedIds = Growth.copyOf(notedIds, Growth.nextCapacity(notedIds.length, highestSlot + 1, Long.BYTES));
        }
        if (deadTargetCount + count > deadTargets.length) {
            int capacity = Growth.nextCapacity(deadTargets.length, deadTargetCount + count, Long.BYTES);
            deadTargets = Growth.copyOf(deadTargets, capacity);
        }
    }

    private void noteDeadTarget(long id) {
        int slot = Entity.slot(id);
        reserve(1, slot); // before it is marked noted: a failed growth must not leave it noted but unlisted
        if (!noted.mark(slot) && notedIds[slot] == id) {
            return; // noted already for this settlement (each placed range with an edge to it notes it again)
        }
        notedIds[slot] = id;
        deadTargets[deadTargetCount++] = id;
    }

    private long[] deadTargets = new long[16];
    private int deadTargetCount;

    /**
     * Whether targets that died wait for their edges to be settled, or sources whose cascading sparse edge landed
     * on a dead target wait to follow it: a failed publication left them for the next one, which must run even when
     * nothing else is staged.
     */
    boolean hasUnsettledTargets() {
        // (a cascading sparse edge that landed on a dead target in a flush whose wave then failed waits too)
        return deadTargetCount > 0 || !landedOnDead.isEmpty();
    }
    // per slot: marked in the settlement (round) that noted the id there, so noting is O(1) and never twice per
    // settlement; a new settlement starts a new round
    private final SlotStamps noted = new SlotStamps();
    private long[] notedIds = new long[64];

    /**
     * After a segment published its moves: the edges still pointing at targets that died in it are handled,
     * reading rows where the segment left them, so a source re-targeted or detached earlier in call order is
     * spared. Cascading sources are despawned (whole subtrees, staged now), other edges removed.
     */
    void settleDeadTargets() {
        settleLandedOnDead();
        for (int i = 0; i < deadTargetCount; i++) {
            long id = deadTargets[i];
            cascadeSparse(id); // non-cascading sparse edges keep the dead id
            if (pairs.isEmpty() || pairs.targeting(id).isEmpty()) {
                continue; // no dense edge points at it: nothing to copy or walk
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
        noted.nextRound();
    }

    private long[] settled = new long[16];
    private int settledCount;

    /** Remembers a target whose settlement this publication staged, to settle again should the publication fail. */
    private void settled(long target) {
        if (settledCount == settled.length) {
            settled = Growth.copyOf(settled, settledCount * 2);
        }
        settled[settledCount++] = target;
    }

    /**
     * The outermost publication ended. When it failed, the despawns and removals its settlements staged for
     * later waves were discarded with them: those targets are settled again by the next publication, so no edge
     * outlives its target.
     */
    void publicationEnded(boolean published) {
        if (!published) {
            noted.nextRound();
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
    void dropEdgesToDead(Table table, int fromRow, int toRow) {
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

    /** {@link #cascade} below {@code id} through every cascading sparse relationship. */
    private void cascadeSparse(long id) {
        for (int r = 0, n = sparse.relationshipCount(); r < n; r++) {
            BaseRelationship<?> relationship = sparse.relationshipAt(r);
            if (relationship.isCascadeDelete()) {
                cascade(relationship, id);
            }
        }
    }

    /**
     * The subtree below {@code id}, whose despawn was just staged, staged now as the subtree of a target that died
     * would be ({@link #settleDeadTargets}): through every cascading relationship, sparse and dense, so a source that
     * a later call detaches (across a query batch) is already taken.
     */
    private void cascadeBelow(long id) {
        cascadeSparse(id);
        if (pairs.isEmpty()) {
            return;
        }
        for (PairComponent pair : List.copyOf(pairs.targeting(id))) {
            if (pair.relationship().isCascadeDelete()) {
                cascade(pair.relationship(), id);
            }
        }
    }

    /**
     * Stages the despawn of every entity below {@code root} through a cascading relationship, and below each of
     * those through every cascading relationship (a {@code ChildOf} subtree under a sparse holder goes too), so
     * the whole subtree is staged now and a source detached later in call order is already taken.
     */
    private void cascade(BaseRelationship<?> relationship, long root) {
        TraversalStack stack = idleStack != null ? idleStack : new TraversalStack(archetypes);
        idleStack = null;
        cascadingSparseCount = 0; // gathered once per root: the loop below allocates nothing per entity
        if (!sparse.isEmpty()) {
            for (int r = 0, n = sparse.relationshipCount(); r < n; r++) {
                BaseRelationship<?> each = sparse.relationshipAt(r);
                if (each.isCascadeDelete()) {
                    if (cascadingSparseCount == cascadingSparse.length) {
                        cascadingSparse = Growth.copyOf(cascadingSparse, cascadingSparseCount * 2);
                    }
                    cascadingSparse[cascadingSparseCount++] = each;
                }
            }
        }
        // nobody to tell (no OnDespawn observer at the world or at any entity): an entity with nothing staged is
        // staged in short, as despawnSource would stage it; anything else takes despawnSource
        boolean silent = lifecycle.despawnIsSilent();
        boolean single = silent && cascadingSparseCount == 1 && cascadingSparse[0] == relationship && pairs.isEmpty();
        try {
            if (silent && relationship.isSparse() && despawnAtOnce(relationship, root)) {
                return; // nothing else staged either: the subtree died here, as a set
            }
            // breadth first, each entity's sources ascending: the order in which a subtree is usually spawned, so
            // the slots, rows and edge cells the walk visits go in ascending order
            int tail = enqueueSources(stack, relationship, root, 0);
            if (single) {
                stageLastLevelFirst(stack, tail); // one cascading relationship: nobody is reached twice
                return;
            }
            // the quiet despawns staged from here on are the subtree's alone while nothing else (an observer's
            // call) appends one or begins a record: then they are published in reverse, deepest level first, as
            // stageLastLevelFirst stages them (observers still hear the subtree level by level)
            int quietStart = transaction.quietDespawnCount();
            boolean alone = true;
            for (int head = 0; head < tail; head++) {
                long child = queue[head];
                boolean staged;
                if (silent && staging.stageQuietDespawn(child)) {
                    staged = true;
                } else if (index.isAlive(child)) {
                    int before = transaction.quietDespawnCount();
                    staged = despawnSource(child);
                    int after = transaction.quietDespawnCount();
                    alone &= staged ? after == before + 1 && transaction.quietDespawnId(before) == child
                            : after == before;
                } else {
                    staged = false;
                }
                if (staged) {
                    tail = enqueueCascadingSources(stack, child, tail);
                }
            }
            if (alone) {
                transaction.reverseQuietDespawns(quietStart, transaction.quietDespawnCount());
            }
        } finally {
            idleStack = stack;
        }
    }

    /**
     * The silent cascade through a sparse relationship, when nothing is staged: the subtree below {@code root}
     * despawned here and now, as a set, instead of staged for the next wave. Walks it breadth first as
     * {@link #stageLastLevelFirst} does, reading each member's list of sources once, a level at a time
     * ({@link SparseEdges#readSubtreeLevel}: a level's lists are all found before any is copied, so their cache misses
     * overlap); then the drain checks each member alive and frees its slot, in the reverse of that order (deepest level
     * first, the order the staged despawns would publish in), and removes the rows
     * ({@link CommitDrain#despawnSubtreeAtOnce}); then the edge store drops the lists read and the members' own edges
     * without a search ({@link SparseEdges#subtreeDied}). Nothing could tell this from the staged despawns: nobody
     * hears a despawn, no table of the subtree has an entity observer or holds a pair, no pair points at a member (so
     * no member's despawn has a pair to settle: the world may hold pairs elsewhere), no member is the target of another
     * cascading sparse relationship's edge (whose sources would die with it: the world may hold such edges elsewhere),
     * and nothing else is staged that the next wave would publish first. Returns {@code false}, having changed nothing,
     * when any of that fails (the drain refuses, a pair or another cascading edge names a member, a list sits beside
     * the index's cells); a failed allocation changes nothing either and propagates, leaving the target noted for the
     * next publication, as a failed staging does.
     */
    private boolean despawnAtOnce(BaseRelationship<?> relationship, long root) {
        if (!transaction.holdsNoWork()) {
            return false; // (the drain checks again, with what only it knows)
        }
        sparse.beginSubtree(relationship);
        int tail = read(root, 0);
        for (int head = 0; head < tail; ) {
            int end = tail;
            tail = readLevel(head, end, tail);
            head = end;
        }
        if (tail <= 0) {
            return tail == 0; // no source: nothing to despawn
        }
        for (int r = 0; r < cascadingSparseCount; r++) {
            BaseRelationship<?> other = cascadingSparse[r];
            if (other != relationship && !sparse.targetsNone(other, queue, tail)) {
                return false; // a member has sources through another cascading relationship: they die with it
            }
        }
        if (!pairs.namesNone(queue, tail)) {
            return false; // a pair points at a member: its despawn has pairs to settle
        }
        if (!drain.despawnSubtreeAtOnce(queue, tail)) {
            return false;
        }
        sparse.subtreeDied(root, queue, tail, isAlive);
        subtreesAtOnce++;
        return true;
    }

    private long subtreesAtOnce;

    /** How many subtrees {@link #despawnAtOnce} despawned (tests). */
    long subtreesDespawnedAtOnce() {
        return subtreesAtOnce;
    }

    /** {@link #read} of each of {@code queue[from, to)}, a level of the walk ({@link SparseEdges#readSubtreeLevel}). */
    private int readLevel(int from, int to, int tail) {
        int end = sparse.readSubtreeLevel(queue, from, to, tail);
        if (end == SparseEdges.BESIDE_CELLS) {
            return -1;
        }
        if (end < 0) { // no room: grow, then read
            growQueue(tail, end);
            end = sparse.readSubtreeLevel(queue, from, to, tail);
        }
        return end;
    }

    /**
     * Appends the sources of {@code target} to the queue from {@code tail} ({@link SparseEdges#readSubtreeSources});
     * returns the new tail, or -1 when the target's list is beside the cells (which ends the walk). The queue
     * doubles when it grows here: the walk meets a large subtree in small steps, each a copy of the queue.
     */
    private int read(long target, int tail) {
        int end = sparse.readSubtreeSources(target, queue, tail);
        if (end == SparseEdges.BESIDE_CELLS) {
            return -1;
        }
        if (end < 0) { // no room: grow, then read
            growQueue(tail, end);
            end = sparse.readSubtreeSources(target, queue, tail);
        }
        return end;
    }

    /** Grows the queue for a read that found no room after {@code tail}: {@code refused} is its {@code -1 - n}. */
    private void growQueue(int tail, int refused) {
        long needed = (long) tail - 1 - refused;
        queue = Growth.copyOf(queue, (int) Math.min(Integer.MAX_VALUE - 8, Math.max(needed, 2L * queue.length)));
    }

    /**
     * The silent cascade through a single relationship: walks the subtree breadth first as {@link #cascade} does,
     * then stages the quiet despawns in the reverse of that order, deepest level first, each level from its
     * highest id down. Freeing them in that order leaves the subtree's lowest slot on top of the free stack, so a
     * subtree spawned again (a level reloaded, a prefab respawned) takes its slots in the order it took them
     * before, and keeps the locality of a new world; staged in walk order, each such round scrambled the slots
     * further. An entity that cannot be staged in short (something staged for it already) takes
     * {@link #despawnSource} during the walk, as in {@link #cascade}. Each entity is in one list only (the
     * relationship is exclusive), so the walk meets it once; room for the quiet despawns is made before the first.
     */
    private void stageLastLevelFirst(TraversalStack stack, int tail) {
        int quiet = 0;
        int highestSlot = 0;
        for (int head = 0; head < tail; head++) {
            long child = queue[head];
            if (staging.canStageQuietDespawn(child)) {
                quiet++;
                highestSlot = Math.max(highestSlot, Entity.slot(child));
            } else {
                queue[head] = 0; // not staged in short (below): staged here, or left to its own despawn
                if (!index.isAlive(child) || !despawnSource(child)) {
                    continue;
                }
            }
            tail = enqueueCascadingSources(stack, child, tail);
        }
        transaction.reserveQuietDespawns(quiet, highestSlot);
        for (int i = tail - 1; i >= 0; i--) {
            long child = queue[i];
            if (child != 0) {
                transaction.stageQuietDespawn(child, Entity.slot(child));
            }
        }
    }

    private BaseRelationship<?>[] cascadingSparse = new BaseRelationship<?>[4];
    private int cascadingSparseCount;
    // the cascade's breadth-first queue: every entity of the subtree, in the order the walk meets it; kept for the
    // next cascade
    private long[] queue = new long[64];

    /**
     * Appends the sources of every cascading relationship's edges to {@code target} to the queue, sparse then
     * dense, each ascending; returns the new tail.
     */
    private int enqueueCascadingSources(TraversalStack stack, long target, int tail) {
        for (int i = 0; i < cascadingSparseCount; i++) {
            tail = enqueueSources(stack, cascadingSparse[i], target, tail);
        }
        if (pairs.isEmpty()) {
            return tail; // no dense edge in this world: no lookup per entity
        }
        List<PairComponent> targeting = pairs.targeting(target);
        for (int i = 0; i < targeting.size(); i++) {
            PairComponent pair = targeting.get(i);
            if (pair.relationship().isCascadeDelete()) {
                tail = enqueueSources(stack, pair.relationship(), target, tail);
            }
        }
        return tail;
    }

    /**
     * Appends the sources of {@code relationship}'s edges to {@code target} to the queue, ascending; returns the
     * new tail. Sparse ones are copied from the store's reverse index; dense ones are read through {@code stack},
     * which gathers and sorts them. The queue grows first: a failed growth leaves it as it was.
     */
    private int enqueueSources(TraversalStack stack, BaseRelationship<?> relationship, long target, int tail) {
        if (relationship.isSparse()) {
            int end = sparse.copySourcesAscending(relationship, target, queue, tail);
            if (end < 0) { // no room: grow, then copy (the one case that looks the target up twice)
                growQueue(tail - 1 - end);
                end = sparse.copySourcesAscending(relationship, target, queue, tail);
            }
            return end;
        }
        int top = stack.pushChildren(relationship, target, 0, 0); // pops ascending: the smallest on top
        growQueue(tail + top);
        for (int i = top - 1; i >= 0; i--) {
            queue[tail++] = stack.entities[i];
        }
        return tail;
    }

    private void growQueue(int size) {
        if (size > queue.length) {
            queue = Growth.copyOf(queue, Growth.nextCapacity(queue.length, size, Long.BYTES));
        }
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

    boolean isLiveTarget(long target) {
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
        for (Long source : sources) { // each leaves the notes once settled: a failure leaves it and the rest noted
            if (index.isAlive(source)) {
                for (BaseRelationship<?> relationship : sparse.relationships()) {
                    if (relationship.isCascadeDelete() && holdsDeadTarget(relationship, source)) {
                        settleDeadTargetsOf(relationship, source); // first: should the despawn's observers throw,
                        if (despawnSource(source)) { // the failed publication leaves these targets to the next one
                            cascadeBelow(source); // its subtree goes in this step too, as a dead parent's does
                        }
                        break;
                    }
                }
            }
            landedOnDead.remove(source); // the boxed note itself: removing it allocates nothing
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

    /** A cascading sparse edge of {@code source} landed on a dead target in the current flush or batch. */
    void noteLandedOnDead(long source) {
        landedOnDead.add(source);
    }
}
