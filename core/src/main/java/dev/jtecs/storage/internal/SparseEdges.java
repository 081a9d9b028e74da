package dev.jtecs.storage.internal;

import dev.jtecs.component.BaseRelationship;
import dev.jtecs.entity.Entity;
import dev.jtecs.entity.internal.Growth;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.function.LongPredicate;

/**
 * One world's sparse relationship edges: for each sparse relationship, the targets of each source entity (by
 * slot, ascending, no duplicates) and, when the relationship keeps a reverse index, the sources of each target
 * (ascending). Archetypes carry only the relationship marker of a source with at least one sparse edge; the edges
 * live here, so a source's target set never creates an archetype. Entries belong to the entity living in the slot:
 * the world empties a slot when its entity dies, so a recycled slot starts without edges.
 *
 * <p>Layout. An exclusive relationship ({@code ChildOf}) holds at most one target per source, so its targets are
 * one {@code long} per source slot (0: none) and its payloads one reference per slot: a walk up is a chain of
 * array loads, and a hierarchy entity costs 8 bytes of target instead of a list object. Any other relationship
 * keeps a list per slot. The reverse index keeps each target's sources sorted, so readers get them in id order
 * without sorting; an edit finds its place by binary search.
 */
public final class SparseEdges {
    private final Map<BaseRelationship<?>, Edges> byRelationship = new IdentityHashMap<>();
    // the same relationships' edges (each names its relationship) in ascending id order: walked per despawned
    // entity without an iterator or a lookup, in an order that does not depend on identity hashes
    private Edges[] ordered = new Edges[4];
    private int orderedCount;
    private final StructureClock clock;
    // the last relationship looked up and its edges: walks and loops ask for one relationship many times in a row
    private BaseRelationship<?> lastRelationship;
    private Edges lastEdges;
    private static final long[] NONE = new long[0];

    /** The edges of one sparse relationship. */
    private static final class Edges {
        final BaseRelationship<?> relationship;
        final boolean exclusive;
        // exclusive: by source slot, the one target (0: none) and its payload (null array: target-only)
        long[] single;
        Object[] singlePayloads;
        // otherwise: by source slot, ascending targets in [0, counts[slot]) and their payloads (null: target-only)
        long[][] targets;
        Object[][] payloads;
        int[] counts;
        final TargetLists sources; // target -> sources (ascending, element 0 is the count); null: no index

        Edges(BaseRelationship<?> relationship) {
            this.relationship = relationship;
            this.exclusive = relationship.isExclusive();
            sources = relationship.hasReverseIndex() ? new TargetLists() : null;
            boolean payload = relationship.payloadType() != null;
            if (exclusive) {
                single = new long[16];
                singlePayloads = payload ? new Object[16] : null;
            } else {
                targets = new long[16][];
                counts = new int[16];
                payloads = payload ? new Object[16][] : null;
            }
        }

        /** The number of targets the source in {@code slot} holds. */
        int count(int slot) {
            if (exclusive) {
                return slot < single.length && single[slot] != 0 ? 1 : 0;
            }
            return slot < counts.length ? counts[slot] : 0;
        }

        /** The {@code i}-th target (ascending) of the source in {@code slot}; {@code i < count(slot)}. */
        long target(int slot, int i) {
            return exclusive ? single[slot] : targets[slot][i];
        }

        /** The payload of the {@code i}-th target, or {@code null} for a target-only relationship. */
        Object payload(int slot, int i) {
            if (exclusive) {
                return singlePayloads == null ? null : singlePayloads[slot];
            }
            return payloads == null ? null : payloads[slot][i];
        }

        /** Room for {@code slot}: every array grown into a local first, so a failed growth changes nothing. */
        void ensure(int slot) {
            if (exclusive) {
                if (slot >= single.length) {
                    int capacity = Growth.nextCapacity(single.length, slot + 1, Long.BYTES);
                    long[] grownSingle = Growth.copyOf(single, capacity);
                    Object[] grownPayloads = singlePayloads == null ? null : Growth.copyOf(singlePayloads, capacity);
                    single = grownSingle;
                    singlePayloads = grownPayloads;
                }
                return;
            }
            if (slot >= counts.length) {
                int capacity = Growth.nextCapacity(counts.length, slot + 1, Growth.REFERENCES);
                long[][] grownTargets = Growth.copyOf(targets, capacity);
                int[] grownCounts = Growth.copyOf(counts, capacity);
                Object[][] grownPayloads = payloads == null ? null : Growth.copyOf(payloads, capacity);
                targets = grownTargets;
                counts = grownCounts;
                payloads = grownPayloads;
            }
        }
    }

    /** An empty store whose edge changes advance {@code clock} (see {@link StructureClock}). */
    public SparseEdges(StructureClock clock) {
        this.clock = clock;
    }

    /** The edges of {@code relationship}, or {@code null} when it never had one. */
    private Edges find(BaseRelationship<?> relationship) {
        if (relationship == lastRelationship) {
            return lastEdges;
        }
        Edges edges = byRelationship.get(relationship);
        if (edges != null) {
            lastRelationship = relationship;
            lastEdges = edges;
        }
        return edges;
    }

    private Edges edges(BaseRelationship<?> relationship) {
        Edges edges = find(relationship);
        if (edges == null) {
            clock.reserve(relationship.id()); // before anything changes: ticking allocates nothing
            edges = new Edges(relationship);
            Edges[] room = orderedCount < ordered.length ? ordered : Growth.copyOf(ordered, orderedCount * 2);
            byRelationship.put(relationship, edges); // the last allocation: the list entry below cannot fail
            ordered = room;
            int at = orderedCount;
            while (at > 0 && ordered[at - 1].relationship.id() > relationship.id()) {
                ordered[at] = ordered[at - 1];
                at--;
            }
            ordered[at] = edges;
            orderedCount++;
        }
        return edges;
    }

    /** Whether no sparse edge was ever stored (a world without sparse relationships skips every lookup). */
    public boolean isEmpty() {
        return byRelationship.isEmpty();
    }

    /**
     * Adds the edge {@code source -> target} carrying {@code payload} ({@code null} for a target-only
     * relationship); an exclusive relationship replaces the source's other edge, and an edge to a target the
     * source already holds gets the new payload. Returns whether the set of targets changed.
     *
     * <p>All or nothing: every array the edge needs (the slot tables, the source's target list, the target's
     * reverse-index entry) is allocated before anything changes, so a failed allocation leaves the store as it
     * was. An exclusive relationship's replaced edge goes after the new one's room is made, since removing never
     * allocates.
     */
    public boolean add(BaseRelationship<?> relationship, long source, long target, Object payload) {
        Edges edges = edges(relationship);
        int slot = Entity.slot(source);
        edges.ensure(slot);
        if (edges.exclusive) {
            return addSingle(edges, relationship, source, slot, target, payload);
        }
        int count = edges.counts[slot];
        long[] list = edges.targets[slot];
        int at = count == 0 ? -1 : Arrays.binarySearch(list, 0, count, target);
        if (at >= 0) {
            if (edges.payloads != null) {
                edges.payloads[slot][at] = payload;
            }
            return false;
        }
        // every allocation first
        long[] grownList = list;
        Object[] grownValues = edges.payloads == null ? null : edges.payloads[slot];
        if (list == null || count == list.length) {
            int capacity = list == null ? 2 : count * 2;
            grownList = list == null ? Growth.newLongs(capacity) : Growth.copyOf(list, capacity);
            if (edges.payloads != null) {
                grownValues = grownValues == null ? Growth.newObjects(capacity) : Growth.copyOf(grownValues, capacity);
            }
        }
        long[] targetList = null;
        if (edges.sources != null) {
            targetList = prepareLinks(edges.sources, target, 1); // the last allocation: after it, nothing can fail
        }
        edges.targets[slot] = grownList;
        if (edges.payloads != null) {
            edges.payloads[slot] = grownValues;
        }
        int insert = -at - 1;
        System.arraycopy(grownList, insert, grownList, insert + 1, count - insert);
        grownList[insert] = target;
        if (grownValues != null) {
            System.arraycopy(grownValues, insert, grownValues, insert + 1, count - insert);
            grownValues[insert] = payload;
        }
        edges.counts[slot] = count + 1;
        if (targetList != null) {
            link(targetList, source);
        }
        clock.tickEdges(relationship.id());
        return true;
    }

    /** {@link #add} for an exclusive relationship: the slot's one target is replaced (room for the slot made). */
    private boolean addSingle(Edges edges, BaseRelationship<?> relationship, long source, int slot, long target,
            Object payload) {
        long old = edges.single[slot];
        if (old == target) {
            if (edges.singlePayloads != null) {
                edges.singlePayloads[slot] = payload;
            }
            return false;
        }
        long[] targetList = null;
        if (edges.sources != null) {
            targetList = prepareLinks(edges.sources, target, 1); // the only allocation: after it, nothing can fail
            if (old != 0) {
                unlink(edges.sources, old, source); // another list: old is not target
            }
        }
        edges.single[slot] = target;
        if (edges.singlePayloads != null) {
            edges.singlePayloads[slot] = payload;
        }
        if (targetList != null) {
            link(targetList, source);
        }
        clock.tickEdges(relationship.id());
        return true;
    }

    /**
     * {@link #add} of the edges {@code ids[i] -> target} for every {@code i} in {@code [from, to)}, with payloads
     * {@code payloads[i]} ({@code null} array for a target-only relationship), in one step, when the sources are in
     * ascending id order, the relationship is exclusive and every source holds the same other target (or none):
     * a run of reparentings from one parent to another. Each reverse-index list then changes in one pass, the run
     * leaving the old target's list and merging into the new one's, instead of a search and a shift per source.
     * The store ends as {@code add} in a loop would leave it, with the relationship's edge counter ticked once.
     * Returns true when it added them all; false, having changed nothing, when the run is not of that form (the
     * caller then adds them one by one).
     *
     * <p>All or nothing: the room the run needs (the slot tables, the new target's list) is made before anything
     * changes, so a failed allocation leaves the store as it was.
     */
    public boolean addRun(BaseRelationship<?> relationship, long[] ids, int from, int to, long target,
            Object[] payloads) {
        if (!relationship.isExclusive() || to - from < 1) {
            return false;
        }
        int highest = -1;
        for (int i = from; i < to; i++) {
            if (i > from && ids[i] <= ids[i - 1]) {
                return false; // not ascending
            }
            highest = Math.max(highest, Entity.slot(ids[i]));
        }
        Edges edges = edges(relationship); // a new relationship's edges: every old target below is none
        edges.ensure(highest);
        long[] single = edges.single;
        long old = single[Entity.slot(ids[from])];
        if (old == target) {
            return false;
        }
        for (int i = from + 1; i < to; i++) {
            if (single[Entity.slot(ids[i])] != old) {
                return false;
            }
        }
        long[] targetList = null;
        if (edges.sources != null) {
            targetList = prepareLinks(edges.sources, target, to - from); // the last allocation
            if (old != 0) {
                unlinkRun(edges.sources, old, ids, from, to); // another list: old is not target
            }
        }
        Object[] singlePayloads = edges.singlePayloads;
        for (int i = from; i < to; i++) {
            int slot = Entity.slot(ids[i]);
            single[slot] = target;
            if (singlePayloads != null) {
                singlePayloads[slot] = payloads == null ? null : payloads[i];
            }
        }
        if (targetList != null) {
            linkRun(targetList, ids, from, to);
        }
        clock.tickEdges(relationship.id());
        return true;
    }

    /** Removes the edge {@code source -> target}; returns whether it was there. */
    public boolean remove(BaseRelationship<?> relationship, long source, long target) {
        Edges edges = find(relationship);
        int slot = Entity.slot(source);
        if (edges == null || edges.count(slot) == 0) {
            return false;
        }
        if (edges.exclusive) {
            if (edges.single[slot] != target) {
                return false;
            }
            dropSingle(edges, source, slot);
            clock.tickEdges(relationship.id());
            return true;
        }
        int count = edges.counts[slot];
        long[] list = edges.targets[slot];
        int at = Arrays.binarySearch(list, 0, count, target);
        if (at < 0) {
            return false;
        }
        System.arraycopy(list, at + 1, list, at, count - at - 1);
        if (edges.payloads != null) {
            Object[] values = edges.payloads[slot];
            System.arraycopy(values, at + 1, values, at, count - at - 1);
            values[count - 1] = null;
        }
        edges.counts[slot] = count - 1;
        if (edges.sources != null) {
            unlink(edges.sources, target, source);
        }
        clock.tickEdges(relationship.id());
        return true;
    }

    /** Empties the slot of an exclusive relationship's source that holds an edge; allocates nothing. */
    private void dropSingle(Edges edges, long source, int slot) {
        if (edges.sources != null) {
            unlink(edges.sources, edges.single[slot], source);
        }
        edges.single[slot] = 0;
        if (edges.singlePayloads != null) {
            edges.singlePayloads[slot] = null;
        }
    }

    /** Removes every edge of {@code relationship} from {@code source}; returns whether there was one. */
    public boolean removeAll(BaseRelationship<?> relationship, long source) {
        return removeAll(find(relationship), source);
    }

    private boolean removeAll(Edges edges, long source) {
        if (edges == null || !dropAll(edges, source)) {
            return false;
        }
        clock.tickEdges(edges.relationship.id());
        return true;
    }

    /** Empties the source's slot of {@code edges}, unlinked from its targets' lists; returns whether it held one. */
    private boolean dropAll(Edges edges, long source) {
        int slot = Entity.slot(source);
        int count = edges.count(slot);
        if (count == 0) {
            return false;
        }
        if (edges.exclusive) {
            dropSingle(edges, source, slot);
            return true;
        }
        if (edges.sources != null) {
            long[] list = edges.targets[slot];
            for (int i = 0; i < count; i++) {
                unlink(edges.sources, list[i], source);
            }
        }
        if (edges.payloads != null) {
            Arrays.fill(edges.payloads[slot], 0, count, null);
        }
        edges.counts[slot] = 0;
        return true;
    }

    /**
     * Whether the entity {@code id} holds an edge of any relationship here, or is the target of one that keeps a
     * reverse index (a list of its sources): what {@link #removeSource} and {@link #dropListsOfDeadSources} would
     * find when it dies. Allocates nothing.
     */
    public boolean involves(long id) {
        int slot = Entity.slot(id);
        for (int i = 0; i < orderedCount; i++) {
            Edges edges = ordered[i];
            if (edges.count(slot) != 0 || edges.sources != null && edges.sources.get(id) != null) {
                return true;
            }
        }
        return false;
    }

    /** Removes every sparse edge of the entity in {@code slot}, of any relationship (its entity died). */
    public void removeSource(long source) {
        for (int i = 0; i < orderedCount; i++) {
            removeAll(ordered[i], source); // no lookup per relationship: this runs per despawn
        }
    }

    /**
     * Removes every sparse edge of the entities {@code ids[from, to)}, which died together: the same as
     * {@link #removeSource} for each, in order, with each relationship's edge counter ticked once (when it lost an
     * edge) instead of once per edge. Allocates nothing.
     */
    public void removeSources(long[] ids, int from, int to) {
        for (int r = 0; r < orderedCount; r++) {
            removeSources(ordered[r], ids, from, to);
        }
    }

    /** {@link #removeSources} for one relationship's edges. */
    private void removeSources(Edges edges, long[] ids, int from, int to) {
        boolean removed = false;
        if (edges.exclusive) {
            removed = removeSingles(edges, ids, from, to);
        } else {
            for (int i = from; i < to; i++) {
                removed |= dropAll(edges, ids[i]);
            }
        }
        if (removed) {
            clock.tickEdges(edges.relationship.id());
        }
    }

    /**
     * {@link #removeSources} for an exclusive relationship: {@link #dropAll} in a loop of its own, the arrays read
     * once for the run (a cascade's subtree reports here, entity by entity).
     */
    private boolean removeSingles(Edges edges, long[] ids, int from, int to) {
        long[] single = edges.single;
        Object[] payloads = edges.singlePayloads;
        TargetLists sources = edges.sources;
        boolean removed = false;
        for (int i = from; i < to; i++) {
            long source = ids[i];
            int slot = Entity.slot(source);
            if (slot < single.length && single[slot] != 0) {
                if (sources != null) {
                    unlink(sources, single[slot], source); // (a target that died with it has no list left)
                }
                single[slot] = 0;
                if (payloads != null) {
                    payloads[slot] = null;
                }
                removed = true;
            }
        }
        return removed;
    }

    /**
     * A target died: each reverse-index list of it whose sources have all died too goes at once, instead of
     * source by source as each of them is told of its own death. A despawn frees a run of entities before it
     * tells the store of any of them, so when a parent is told, the children that die with it are already dead:
     * a subtree leaves its lists whole, with no search and no shift per child, and the parent does not wait for a
     * settlement that would find no source. A list with a source still {@code alive} stays as it is. Each source's
     * own edge is removed as before, when it is told; until then it names a target with no list, which removing
     * it allows. Returns whether a list of a {@link BaseRelationship#isCascadeDelete() cascading} relationship
     * stays (its sources wait for the target's settlement): the one lookup per list a despawn makes. Allocates
     * nothing.
     */
    public boolean dropListsOfDeadSources(long target, LongPredicate alive) {
        boolean cascadingSourcesLeft = false;
        for (int r = 0; r < orderedCount; r++) {
            cascadingSourcesLeft |= dropListOfDeadSources(ordered[r], target, alive);
        }
        return cascadingSourcesLeft;
    }

    /**
     * {@link #dropListsOfDeadSources} for one relationship's edges: returns whether a list of a cascading
     * relationship stays.
     */
    private boolean dropListOfDeadSources(Edges edges, long target, LongPredicate alive) {
        TargetLists sources = edges.sources;
        long[] list = sources == null ? null : sources.get(target);
        if (list == null) {
            return false;
        }
        int n = (int) list[0];
        boolean anyAlive = false;
        for (int i = 1; i <= n && !anyAlive; i++) {
            anyAlive = alive.test(list[i]);
        }
        if (anyAlive) {
            return edges.relationship.isCascadeDelete();
        }
        sources.remove(target);
        stash(list, true);
        clock.tickEdges(edges.relationship.id());
        return false;
    }

    /**
     * Whether none of {@code ids[0, n)} is the target of an edge of {@code relationship}, so none has sources that
     * its despawn would reach: true when the relationship has no edges here, false when it keeps no reverse index
     * (nothing here could tell without a search). One lookup per id; reads only.
     */
    public boolean targetsNone(BaseRelationship<?> relationship, long[] ids, int n) {
        Edges edges = find(relationship);
        if (edges == null) {
            return true;
        }
        TargetLists sources = edges.sources;
        if (sources == null) {
            return false;
        }
        for (int i = 0; i < n && sources.size() != 0; i++) {
            if (sources.get(ids[i]) != null) {
                return false;
            }
        }
        return true;
    }

    // ---------------------------------------------------------------- a subtree that dies whole

    /** What {@link #readSubtreeSources} answers when the target's list is beside the reverse index's cells. */
    public static final int BESIDE_CELLS = Integer.MIN_VALUE;
    private Edges subtree; // the relationship of the subtree being read, since beginSubtree
    // bit k: the k-th target read since beginSubtree had its list in its cell (the lists subtreeDied drops)
    private long[] subtreeListed = new long[1];
    private int subtreeReads;

    /**
     * Begins reading a subtree of {@code relationship} (exclusive, with a reverse index) that is about to die whole:
     * {@link #readSubtreeSources} for its root, then for each member in the order the walk meets it, then
     * {@link #subtreeDied} once the members died. Changes nothing.
     */
    public void beginSubtree(BaseRelationship<?> relationship) {
        subtree = find(relationship);
        subtreeReads = 0;
    }

    /**
     * Copies the sources of the subtree relationship's edges to {@code target} (ascending) into {@code into} from
     * {@code at} and returns the new end: {@code at} when it has none. Answers {@link #BESIDE_CELLS} when its list is
     * beside the reverse index's cells, and {@code -1 - count} when {@code into} lacks room; neither counts as the
     * target's read, so the caller grows and asks again. Reads only: nothing changes until {@link #subtreeDied}.
     */
    public int readSubtreeSources(long target, long[] into, int at) {
        TargetLists sources = subtree.sources;
        long[] list = sources.inCell(target);
        int n = list == null ? 0 : (int) list[0];
        if (list == null && sources.isBesideCells(target)) {
            return BESIDE_CELLS;
        }
        if (into.length - at < n) {
            return -1 - n;
        }
        int word = subtreeReads >>> 6;
        if (word == subtreeListed.length) {
            subtreeListed = Growth.copyOf(subtreeListed, word * 2); // before the read counts
        }
        if (list != null) {
            subtreeListed[word] |= 1L << subtreeReads;
            System.arraycopy(list, 1, into, at, n);
        } else {
            subtreeListed[word] &= ~(1L << subtreeReads);
        }
        subtreeReads++;
        return at + n;
    }

    /**
     * {@link #readSubtreeSources} of each of {@code queue[from, to)} in turn, appending from {@code tail}: returns the
     * new tail, {@link #BESIDE_CELLS} when a member's list is beside the reverse index's cells, or {@code -1 - n}
     * when the queue lacks room for the {@code n} sources the level adds; neither of those counts any read. The
     * members' lists are all found first, then copied: the finds do not wait on one another, so their cache misses
     * overlap, where one member at a time waited for each list before the next.
     */
    public int readSubtreeLevel(long[] queue, int from, int to, int tail) {
        TargetLists sources = subtree.sources;
        int members = to - from;
        int reads = subtreeReads + members;
        int words = (int) ((reads + 63L) >>> 6);
        if (words > subtreeListed.length) {
            subtreeListed = Growth.copyOf(subtreeListed, Math.max(words, subtreeListed.length * 2));
        }
        if (levelLists.length < members) {
            var lists = Growth.copyOf(levelLists, Math.max(members, levelLists.length * 2)); // both first
            var at = Growth.newInts(lists.length);
            levelLists = lists;
            levelMembers = at;
        }
        long[][] found = levelLists; // the lists the level's members have, in member order
        int[] foundAt = levelMembers; // and whose each one is (its member's place in the level)
        boolean beside = sources.hasListsBesideCells();
        int k = 0;
        long added = 0;
        for (int i = 0; i < members; i++) { // each find is its own: nothing here waits for the last one's list
            long member = queue[from + i];
            long[] list = sources.inCell(member);
            if (list != null) {
                found[k] = list;
                foundAt[k++] = i;
                added += (int) list[0];
            } else if (beside && sources.isBesideCells(member)) {
                java.util.Arrays.fill(found, 0, k, null);
                return BESIDE_CELLS;
            }
        }
        if (queue.length - tail < added) {
            java.util.Arrays.fill(found, 0, k, null);
            return (int) Math.max(Integer.MIN_VALUE + 1, -1 - added);
        }
        clearBits(subtreeListed, subtreeReads, reads); // a member without a list: its bit clear
        for (int j = 0; j < k; j++) {
            long[] list = found[j];
            found[j] = null;
            int read = subtreeReads + foundAt[j];
            subtreeListed[read >>> 6] |= 1L << read;
            int n = (int) list[0];
            System.arraycopy(list, 1, queue, tail, n);
            tail += n;
        }
        subtreeReads = reads;
        return tail;
    }

    /** Clears bits {@code [from, to)} of {@code bits} (bit {@code b} is bit {@code b % 64} of word {@code b / 64}). */
    static void clearBits(long[] bits, int from, int to) {
        if (from >= to) {
            return;
        }
        int first = from >>> 6;
        int last = (to - 1) >>> 6;
        long fromOn = -1L << from; // the shifts take the count mod 64: the bits of the word from `from` on
        long beforeTo = -1L >>> -to; // and those below `to` (all of them when `to` is a multiple of 64)
        if (first == last) {
            bits[first] &= ~(fromOn & beforeTo);
            return;
        }
        bits[first] &= ~fromOn;
        for (int w = first + 1; w < last; w++) {
            bits[w] = 0;
        }
        bits[last] &= ~beforeTo;
    }

    // the lists a level's members have and the members' places in the level (readSubtreeLevel's scratch, empty
    // between calls: no list is held past the call)
    private long[][] levelLists = new long[16][];
    private int[] levelMembers = new int[16];

    /**
     * The subtree read since {@link #beginSubtree} died: its root before it, then {@code ids[0, n)}, the members in
     * the order they were read (rows gone, slots freed). Every list of sources read goes out of the reverse index
     * whole (all its sources died), and every member's own edge goes without a search, since the list it was on
     * is gone; the relationship's counter ticks once. Every other sparse relationship hears of the deaths as
     * {@link #dropListsOfDeadSources} and {@link #removeSources} would tell it: a list whose sources all died goes,
     * each member's own edges go. Allocates nothing.
     */
    public void subtreeDied(long root, long[] ids, int n, LongPredicate alive) {
        Edges edges = subtree;
        subtree = null;
        TargetLists sources = edges.sources;
        long[] listed = subtreeListed;
        for (int w = 0, words = (n + 64) >>> 6; w < words; w++) { // the reads that found a list: few, bit by bit
            for (long bits = listed[w]; bits != 0; bits &= bits - 1) {
                int read = w << 6 | Long.numberOfTrailingZeros(bits); // read 0 is the root's, read i + 1 ids[i]'s
                if (read <= n) { // (bits past the last read are stale)
                    stash(sources.clearCell(read == 0 ? root : ids[read - 1]), true); // the stash keeps a few
                }
            }
        }
        long[] single = edges.single;
        for (int i = 0; i < n; i++) { // a member was on its parent's list: it holds the edge, within the array
            single[Entity.slot(ids[i])] = 0;
        }
        Object[] payloads = edges.singlePayloads;
        for (int i = 0; payloads != null && i < n; i++) {
            payloads[Entity.slot(ids[i])] = null;
        }
        clock.tickEdges(edges.relationship.id());
        for (int r = 0; r < orderedCount; r++) {
            Edges other = ordered[r];
            if (other == edges) {
                continue;
            }
            if (other.sources != null) {
                for (int i = 0; i < n; i++) {
                    dropListOfDeadSources(other, ids[i], alive);
                }
            }
            removeSources(other, ids, 0, n);
        }
    }

    /** The number of edges of {@code relationship} the entity in {@code source}'s slot holds. */
    public int count(BaseRelationship<?> relationship, long source) {
        Edges edges = find(relationship);
        return edges == null ? 0 : edges.count(Entity.slot(source));
    }

    /**
     * The targets of the source's edges, ascending, in a fresh array (empty when none). For lookups that must not
     * allocate, use {@link #count} and {@link #targetAt}.
     */
    public long[] targets(BaseRelationship<?> relationship, long source) {
        int count = count(relationship, source);
        if (count == 0) {
            return NONE;
        }
        Edges edges = find(relationship);
        int slot = Entity.slot(source);
        return edges.exclusive ? new long[] {edges.single[slot]} : Arrays.copyOf(edges.targets[slot], count);
    }

    /** Visits the source's edges in ascending target order with their payloads. */
    public void forEach(BaseRelationship<?> relationship, long source, Table.EdgeVisitor visitor) {
        int count = count(relationship, source);
        if (count == 0) {
            return;
        }
        Edges edges = find(relationship);
        int slot = Entity.slot(source);
        for (int i = 0; i < count && i < edges.count(slot); i++) { // a visitor may not shrink the list under us
            visitor.edge(edges.target(slot, i), edges.payload(slot, i));
        }
    }

    /** The payload of the source's edge to {@code target}, or {@code null} (no such edge, or target-only). */
    public Object payload(BaseRelationship<?> relationship, long source, long target) {
        int count = count(relationship, source);
        if (count == 0) {
            return null;
        }
        Edges edges = find(relationship);
        int slot = Entity.slot(source);
        if (edges.exclusive) {
            return edges.single[slot] == target ? edges.payload(slot, 0) : null;
        }
        if (edges.payloads == null) {
            return null;
        }
        int at = Arrays.binarySearch(edges.targets[slot], 0, count, target);
        return at < 0 ? null : edges.payloads[slot][at];
    }

    /** The first (lowest) target of the source's edges, or 0 when it holds none: one lookup, no allocation. */
    public long firstTarget(BaseRelationship<?> relationship, long source) {
        Edges edges = find(relationship);
        if (edges == null) {
            return 0;
        }
        int slot = Entity.slot(source);
        if (edges.exclusive) {
            long[] single = edges.single;
            return slot < single.length ? single[slot] : 0;
        }
        return slot >= edges.counts.length || edges.counts[slot] == 0 ? 0 : edges.targets[slot][0];
    }

    /** The {@code index}-th target (ascending) of the source's edges; the caller checked {@link #count}. */
    public long targetAt(BaseRelationship<?> relationship, long source, int index) {
        return find(relationship).target(Entity.slot(source), index);
    }

    /**
     * The sources holding an edge to {@code target}, ascending, in a fresh array.
     *
     * @throws IllegalStateException when the relationship keeps no reverse index
     */
    public long[] sources(BaseRelationship<?> relationship, long target) {
        Edges edges = find(relationship);
        if (edges == null) {
            return NONE;
        }
        if (edges.sources == null) {
            throw new IllegalStateException("relationship " + relationship.name() + " keeps no reverse index");
        }
        long[] list = edges.sources.get(target);
        if (list == null) {
            return NONE;
        }
        return Arrays.copyOfRange(list, 1, 1 + (int) list[0]); // kept ascending
    }

    /** The number of sources holding an edge to {@code target} (reverse-indexed relationships; else 0). */
    public int sourceCount(BaseRelationship<?> relationship, long target) {
        return sourceCount(find(relationship), target);
    }

    private static int sourceCount(Edges edges, long target) {
        long[] list = edges == null || edges.sources == null ? null : edges.sources.get(target);
        return list == null ? 0 : (int) list[0];
    }

    /**
     * Copies the sources of edges to {@code target}, ascending (so that a queue reads them in id order), into
     * {@code into} from {@code at}; returns the new end. When {@code into} has room for fewer than all of them,
     * copies nothing and returns {@code -1 - count}. One lookup, no allocation.
     */
    public int copySourcesAscending(BaseRelationship<?> relationship, long target, long[] into, int at) {
        return copySources(relationship, target, into, at, true);
    }

    /**
     * Copies the sources of edges to {@code target}, descending (so that a stack pops them ascending), into
     * {@code into} from {@code at}; returns the new end. When {@code into} has room for fewer than all of them,
     * copies nothing and returns {@code -1 - count}. One lookup, no allocation.
     */
    public int copySourcesDescending(BaseRelationship<?> relationship, long target, long[] into, int at) {
        return copySources(relationship, target, into, at, false);
    }

    private int copySources(BaseRelationship<?> relationship, long target, long[] into, int at, boolean ascending) {
        Edges edges = find(relationship);
        long[] list = edges == null || edges.sources == null ? null : edges.sources.get(target);
        if (list == null) {
            return at;
        }
        int n = (int) list[0];
        if (into.length - at < n) {
            return -1 - n;
        }
        if (ascending) {
            System.arraycopy(list, 1, into, at, n);
            return at + n;
        }
        for (int i = n; i >= 1; i--) {
            into[at++] = list[i];
        }
        return at;
    }

    /** What {@link #forEachSourceList} hands each target with sources to. */
    public interface SourceListVisitor {
        /**
         * The sources of edges to {@code target}: {@code list[from, from + count)}, ascending. The array is the
         * store's own: read it during the call only, and never write it.
         */
        void sources(long target, long[] list, int from, int count);
    }

    /**
     * Visits every target holding sources of {@code relationship}, in no particular order, with its sources
     * ascending: one pass over the reverse index, for building indexes of its own. Allocates nothing.
     *
     * @throws IllegalStateException when the relationship keeps no reverse index
     */
    public void forEachSourceList(BaseRelationship<?> relationship, SourceListVisitor visitor) {
        Edges edges = find(relationship);
        if (edges == null) {
            return;
        }
        if (edges.sources == null) {
            throw new IllegalStateException("relationship " + relationship.name() + " keeps no reverse index");
        }
        edges.sources.forEach((target, list) -> visitor.sources(target, list, 1, (int) list[0]));
    }

    /** The sparse relationships with stored edges (or that had some), in ascending id order. */
    public Iterable<BaseRelationship<?>> relationships() {
        BaseRelationship<?>[] relationships = new BaseRelationship<?>[orderedCount];
        for (int i = 0; i < orderedCount; i++) {
            relationships[i] = ordered[i].relationship;
        }
        return java.util.List.of(relationships);
    }

    /** The number of {@link #relationships()}: with {@link #relationshipAt}, a walk that allocates nothing. */
    public int relationshipCount() {
        return orderedCount;
    }

    /** The {@code i}-th of {@link #relationships()}, ascending by id. */
    public BaseRelationship<?> relationshipAt(int i) {
        return ordered[java.util.Objects.checkIndex(i, orderedCount)].relationship;
    }

    /** The lists the stash holds now, by its count (for the tests: no source id outlives its edge there). */
    long[][] stashedLists() {
        return Arrays.copyOf(stash, stashed);
    }

    /**
     * How many lists the stash still references, counted cell by cell, whatever its count says (what the tests
     * check: {@link #clear} lets every kept list go, up to 16 of 32 KiB each).
     */
    int stashReferences() {
        return references(stash);
    }

    /**
     * How many relationships' edges the store still references from its ordered list, counted cell by cell,
     * whatever its count says (what the tests check: {@link #clear} lets go of every relationship's per-slot
     * arrays).
     */
    int listedEdgesReferences() {
        return references(ordered);
    }

    /** The cells of {@code cells} that are not null. */
    private static int references(Object[] cells) {
        int n = 0;
        for (Object cell : cells) {
            if (cell != null) {
                n++;
            }
        }
        return n;
    }

    /** Drops every edge (the world cleared its entities), and the lists kept for reuse with them. */
    public void clear() {
        for (BaseRelationship<?> relationship : byRelationship.keySet()) {
            clock.tickEdges(relationship.id());
        }
        byRelationship.clear();
        Arrays.fill(stash, 0, stashed, null);
        stashed = 0;
        Arrays.fill(ordered, 0, orderedCount, null);
        orderedCount = 0;
        lastRelationship = null;
        lastEdges = null;
    }

    /** At most this many emptied reverse-index lists are kept for reuse, each of at most {@link #STASHED_MAX}. */
    private static final int STASH = 16;
    private static final int STASHED_MAX = 4096;
    // reverse-index lists a target no longer uses (emptied, or outgrown), kept for the next list that needs room:
    // sources that leave a target and join another (reparenting) reuse them instead of allocating per move
    private final long[][] stash = new long[STASH][];
    private int stashed;

    /**
     * Makes room for {@code count} more sources of {@code target} in the reverse index: its list grown (to at least
     * twice its length), or a new list entered with no sources (the map grown first when it must). A stashed list
     * serves when one is long enough. Returns the list {@link #link} or {@link #linkRun} then adds to, allocating
     * nothing.
     */
    private long[] prepareLinks(TargetLists sources, long target, int count) {
        long[] list = sources.get(target);
        long needed = (list == null ? 0 : (int) list[0]) + 1L + count;
        if (list != null && needed <= list.length) {
            return list;
        }
        if (needed > Integer.MAX_VALUE - 8) {
            throw new OutOfMemoryError("a reverse-index list of " + needed + " sources");
        }
        int capacity = list == null ? 4 : list.length * 2;
        while (capacity < needed) {
            capacity = (int) Math.min(Integer.MAX_VALUE - 8, 2L * capacity);
        }
        int spare = stashedAtLeast(capacity);
        long[] grown = spare >= 0 ? stash[spare] : Growth.newLongs(capacity);
        if (list != null) {
            System.arraycopy(list, 0, grown, 0, (int) list[0] + 1); // a stashed list is all zeros past it
        }
        sources.put(target, grown); // a new key grows the map whole or not at all; an existing one allocates nothing
        unstash(spare);
        if (list != null) {
            stash(list, true);
        }
        return grown;
    }

    /**
     * Takes the ascending sources {@code ids[from, to)} out of {@code target}'s list in one pass, keeping it
     * ascending (a source not on it is skipped); an emptied list leaves the map for the stash.
     */
    private void unlinkRun(TargetLists sources, long target, long[] ids, int from, int to) {
        long[] list = sources.get(target);
        if (list == null) {
            return;
        }
        int n = (int) list[0];
        int start = Arrays.binarySearch(list, 1, 1 + n, ids[from]);
        int write = start >= 0 ? start : -start - 1;
        int i = from;
        for (int read = write; read <= n; read++) {
            long source = list[read];
            while (i < to && ids[i] < source) {
                i++;
            }
            if (i < to && ids[i] == source) {
                i++;
            } else {
                list[write++] = source;
            }
        }
        Arrays.fill(list, write, n + 1, 0L); // every entry past the count stays zero
        list[0] -= n + 1 - write; // the count, in the header's low half
        if ((int) list[0] == 0) {
            sources.remove(target);
            list[0] = 0;
            stash(list, false);
        }
    }

    /**
     * Merges the ascending sources {@code ids[from, to)}, none of them on it, into a target's ascending list, the
     * one {@link #prepareLinks} made room in, from the back (the usual run, of later ids, only appends).
     */
    private static void linkRun(long[] list, long[] ids, int from, int to) {
        int n = (int) list[0];
        int read = n;
        int write = n + to - from;
        for (int i = to - 1; i >= from; i--) {
            long source = ids[i];
            while (read >= 1 && list[read] > source) {
                list[write--] = list[read--];
            }
            list[write--] = source;
        }
        list[0] += to - from; // the count, in the header's low half
    }

    /** The index of a stashed list of at least {@code length} elements, the last stashed first; -1 for none. */
    private int stashedAtLeast(int length) {
        for (int i = stashed - 1; i >= 0; i--) {
            if (stash[i].length >= length) {
                return i;
            }
        }
        return -1;
    }

    /** Takes stashed list {@code i} out of the stash (nothing for -1). */
    private void unstash(int i) {
        if (i < 0) {
            return;
        }
        stash[i] = stash[--stashed];
        stash[stashed] = null;
    }

    /**
     * Keeps a list no target uses any more, all zeros, while the stash has room and the list is not too long: no
     * source id outlives its edge here, and a reused list starts empty. {@code clear}: the list still holds ids
     * (an outgrown one); a list {@link #unlink} emptied is all zeros already.
     */
    private void stash(long[] list, boolean clear) {
        if (stashed < STASH && list.length <= STASHED_MAX) {
            if (clear) {
                Arrays.fill(list, 0L);
            }
            stash[stashed++] = list;
        }
    }

    /** Adds {@code source} to a target's ascending list, the one {@link #prepareLinks} made room in and returned. */
    private static void link(long[] list, long source) {
        int n = (int) list[0];
        int insert; // sources usually come in ascending order (a batch, a walk over ids): then it goes last
        if (n == 0 || list[n] < source) {
            insert = n + 1;
        } else {
            int at = Arrays.binarySearch(list, 1, 1 + n, source);
            insert = at >= 0 ? at : -at - 1;
        }
        System.arraycopy(list, insert, list, insert + 1, 1 + n - insert);
        list[insert] = source;
        list[0]++; // the count, in the header's low half (the high half names the target: TargetLists)
    }

    /**
     * Takes {@code source} out of {@code target}'s list, keeping it ascending; an emptied list leaves the map for
     * the stash.
     */
    private void unlink(TargetLists sources, long target, long source) {
        long[] list = sources.get(target);
        if (list == null) {
            return;
        }
        int n = (int) list[0];
        // the first is the usual one to leave (sources leaving in the ascending order they came in)
        int at = n > 0 && list[1] == source ? 1 : Arrays.binarySearch(list, 1, 1 + n, source);
        if (at >= 0) {
            System.arraycopy(list, at + 1, list, at, n - at);
            list[n] = 0;
            list[0]--; // the count, in the header's low half
        }
        if ((int) list[0] == 0) {
            sources.remove(target);
            list[0] = 0; // the header's owner; every removal zeroed the entry past the new count: all zeros now
            stash(list, false);
        }
    }
}
