package dev.jtecs.relation.internal;

import dev.jtecs.component.BaseRelationship;
import dev.jtecs.entity.Entity;
import dev.jtecs.entity.internal.Growth;
import dev.jtecs.storage.internal.SparseEdges;
import dev.jtecs.storage.internal.StructureClock;

/**
 * A flat child index of one sparse, reverse-indexed relationship, for {@link Traversal#traverse}: by target slot,
 * the target's id and the range of its sources in one array, ascending. A walk then reads two array elements and a
 * run of children per entity, where the store's reverse index costs a hash probe and a list object per entity, in
 * memory order unrelated to the walk's.
 *
 * <p>Currency. The index is a copy of the store's reverse index as it was at {@link #build}: it is
 * {@linkplain #isCurrent current} exactly while the relationship's structure counter has not moved since, and every
 * change to its edges moves that counter ({@link StructureClock}). A walk checks it before each read, so a visitor
 * that changes edges mid-walk sends the rest of the walk to the store.
 *
 * <p>When it is built. Building costs a pass over the reverse index and the target slots. A walk that finds the
 * index stale uses the store and adds the entities it reached to a {@link BuildTally}, which restarts whenever the
 * counter moves; once the tally since the last change reaches half the slots in use ({@link #noteSlowWork}), the
 * next walk builds. So a world whose edges change between every pair of short walks never pays a build per walk,
 * and one whose hierarchy holds still builds once and walks flat arrays.
 *
 * <p>A target slot whose reverse index holds two ids (a dead target kept by non-cascading edges, and the live
 * entity now in its slot) is marked {@link #AMBIGUOUS}; walks read those targets from the store.
 *
 * <p>Memory: by slot an id and a start (12 bytes), by edge a source id (8 bytes), held only once built. A build
 * that cannot allocate leaves the index stale and the walks on the store: the index is a cache, not state.
 */
final class ChildIndex {
    /** {@link #owners} entry of a slot whose children are read from the store. */
    static final long AMBIGUOUS = -1;

    private final BaseRelationship<?> relationship;
    private final SparseEdges sparse;
    private final StructureClock clock;

    private long[] owners = new long[0]; // by target slot: the target whose children start there, 0, or AMBIGUOUS
    private int[] starts = new int[1];   // by target slot: its children are children[starts[s], starts[s + 1])
    private long[] children = new long[0];
    private boolean built;
    private long builtVersion;

    private final BuildTally tally = new BuildTally();

    // the build's passes
    private final SparseEdges.SourceListVisitor counter = this::count;
    private final SparseEdges.SourceListVisitor copier = this::copy;

    ChildIndex(BaseRelationship<?> relationship, SparseEdges sparse, StructureClock clock) {
        if (!relationship.isSparse() || !relationship.hasReverseIndex()) {
            throw new IllegalArgumentException("a child index needs a sparse, reverse-indexed relationship: "
                    + relationship.name());
        }
        this.relationship = relationship;
        this.sparse = sparse;
        this.clock = clock;
    }

    /** Whether the index describes the store as it is now. */
    boolean isCurrent() {
        return built && clock.version(relationship.id()) == builtVersion;
    }

    /**
     * A walk on the store reached {@code entities} entities; returns whether the walks since the counter last
     * moved reached at least half of {@code slotsInUse}, so that building now costs no more than they did.
     */
    boolean noteSlowWork(int entities, int slotsInUse) {
        return tally.note(clock.version(relationship.id()), entities, slotsInUse);
    }

    /** Whether the walks on the store since the counter last moved have earned a {@link #build}. */
    boolean wanted() {
        return tally.earnedAt(clock.version(relationship.id()));
    }

    /**
     * Copies the store's reverse index: one pass counts each target's sources by slot, one copies them. Returns
     * whether the index is current; when an allocation fails it is not, and nothing else changed.
     */
    boolean build() {
        long version = clock.version(relationship.id());
        built = false;
        tally.spend();
        highestSlot = 0;
        edges = 0;
        sparse.forEachSourceList(relationship, this::measure);
        long[] newOwners;
        int[] newStarts;
        long[] newChildren;
        try { // starts keeps one entry more than owners: a slot's end is the next slot's start
            boolean grow = owners.length <= highestSlot;
            newOwners = grow ? Growth.newLongs(highestSlot + 1) : owners;
            newStarts = grow ? Growth.copyOf(new int[0], highestSlot + 2) : starts;
            newChildren = children.length >= edges ? children : Growth.newLongs(edges);
        } catch (OutOfMemoryError failure) {
            return false; // walks stay on the store; the next tally may try again
        }
        owners = newOwners;
        starts = newStarts;
        children = newChildren;
        java.util.Arrays.fill(owners, 0);
        java.util.Arrays.fill(starts, 0);
        sparse.forEachSourceList(relationship, counter);
        int sum = 0;
        for (int s = 0; s < starts.length; s++) { // counts to starts; each slot's end is the next slot's start
            int n = starts[s];
            starts[s] = sum;
            sum += n;
        }
        sparse.forEachSourceList(relationship, copier);
        for (int s = starts.length - 1; s > 0; s--) { // the copy advanced each start to its end: shift back
            starts[s] = starts[s - 1];
        }
        starts[0] = 0;
        builtVersion = version;
        built = true;
        return true;
    }

    private int highestSlot;
    private int edges;

    private void measure(long target, long[] list, int from, int count) {
        highestSlot = Math.max(highestSlot, Entity.slot(target));
        edges += count;
    }

    private void count(long target, long[] list, int from, int count) {
        int slot = Entity.slot(target);
        long owner = owners[slot];
        if (owner == 0) {
            owners[slot] = target;
            starts[slot] = count;
        } else { // a second id in the slot: neither is indexed
            owners[slot] = AMBIGUOUS;
            starts[slot] = 0;
        }
    }

    private void copy(long target, long[] list, int from, int count) {
        int slot = Entity.slot(target);
        if (owners[slot] == target) {
            int at = starts[slot];
            System.arraycopy(list, from, children, at, count);
            starts[slot] = at + count;
        }
    }

    /**
     * Pushes the children of {@code parent} onto {@code stack} so that they pop in ascending id order, at
     * {@code depth}; returns the new top. The index must be {@linkplain #isCurrent current}; a target marked
     * {@link #AMBIGUOUS} is read from the store.
     */
    int push(TraversalStack stack, long parent, int depth, int top) {
        int slot = Entity.slot(parent);
        if (slot >= owners.length) {
            return top; // no target in this slot had sources when the index was built
        }
        long owner = owners[slot];
        if (owner != parent) {
            return owner == AMBIGUOUS ? stack.pushChildren(relationship, parent, depth, top) : top;
        }
        int from = starts[slot];
        int to = starts[slot + 1];
        return stack.pushDescending(children, from, to, depth, top);
    }
}
