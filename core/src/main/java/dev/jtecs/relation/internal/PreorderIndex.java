package dev.jtecs.relation.internal;

import dev.jtecs.component.BaseRelationship;
import dev.jtecs.entity.Entity;
import dev.jtecs.entity.internal.EntityIndex;
import dev.jtecs.entity.internal.Growth;
import dev.jtecs.storage.internal.SparseEdges;
import dev.jtecs.storage.internal.StructureClock;

/**
 * The forest of one sparse, exclusive, reverse-indexed relationship (a hierarchy such as {@code ChildOf}) laid out
 * in preorder, for {@link Traversal}: every tree is a run of positions, its root first, each entity followed by its
 * descendants, children in ascending id order. Beside each position sit the entity's depth below its tree's root and
 * its parent's position. A {@code traverse} from an entity is then the run of positions after it whose depth is
 * greater, read front to back; a {@code walkUp} follows parent positions.
 *
 * <p>What it holds. The trees grow from the roots: targets that are not sources themselves (a target that is dead,
 * or alive with no edge of its own). Because each source has one target, every entity reached from a root is
 * reached once. Entities on a cycle, or below one, have no root and are left out: a walk from them reads the store.
 * A slot that two indexed ids share (a dead target kept by its sources, and the live entity now in its slot that is
 * a source) is left out the same way, so that a lookup by slot never answers for the wrong id. Every source is alive
 * when the index is built (an edge from an entity that is not is no hierarchy to lay out: the build gives up, and
 * walks read the store), and stays alive while it is current, since a source's death drops its edge.
 *
 * <p>Currency. The index is a copy of the store's edges as they were at {@link #build}: it is {@linkplain
 * #isCurrent current} exactly while the relationship's edge counter has not moved since, and every change to
 * the edge set moves that counter ({@link StructureClock.EdgeCounter}, held here: one load per reading). A source
 * that dies drops its edge, which moves it too; a root that dies changes nothing a walk reads, since a root has no
 * parent and its sources keep pointing at its id.
 *
 * <p>When it is built. The relationship's first walk builds it at once ({@link #neverTried}), so that a still
 * hierarchy is never walked on the store and the JIT profiles the walks as they will run. After that, as for
 * {@link ChildIndex}: walks that find the index stale read the store and add what they reached to a
 * {@link BuildTally}, which restarts whenever the counter moves; once it reaches half the slots in use, the next
 * walk builds. A failed build counts as the first. Each build lays out into new arrays and never writes them again,
 * so a walk whose visitor starts another walk (which may build) goes on reading the arrays it started with; it then
 * finds the counter moved and goes on from the store.
 *
 * <p>Memory: by indexed entity an id, a depth and a parent position (16 bytes), by slot a position (4 bytes), held
 * once built. The build allocates a stack and a list of roots besides. A build that cannot allocate leaves the index
 * stale and the walks on the store: the index is a cache, not state.
 */
final class PreorderIndex {
    private static final int[] NO_INTS = new int[0];

    private final BaseRelationship<?> relationship;
    private final SparseEdges sparse;
    // the relationship's edge counter: read after every visit of a walk, one load (see StructureClock.EdgeCounter)
    private final StructureClock.EdgeCounter edges;
    private final EntityIndex index;

    /** By position: the entity. */
    long[] ids = new long[0];
    /** By position: its depth below its tree's root (a root's is 0). */
    int[] depths = new int[0];
    /** By position: its parent's position, or -1 for a root. */
    int[] parents = new int[0];
    /** Positions in use. */
    int count;
    private int[] places = new int[0]; // by slot: position + 1 of the entity there, 0 for none, -1 when two share it

    private boolean built;
    private boolean tried; // a build was tried, successful or not: the first walk's is not earned, later ones are
    private long builtVersion;

    private final BuildTally tally = new BuildTally();

    // the build's scratch, dropped after each build
    private long[] roots;
    private int rootCount;
    private int edgeCount;
    private boolean unpublishedSource;

    PreorderIndex(BaseRelationship<?> relationship, SparseEdges sparse, StructureClock clock, EntityIndex index) {
        if (!relationship.isSparse() || !relationship.isExclusive() || !relationship.hasReverseIndex()) {
            throw new IllegalArgumentException("a preorder index needs a sparse, exclusive, reverse-indexed "
                    + "relationship: " + relationship.name());
        }
        this.relationship = relationship;
        this.sparse = sparse;
        this.edges = clock.edgeCounter(relationship.id());
        this.index = index;
    }

    /** Whether the index describes the store as it is now. */
    boolean isCurrent() {
        return isCurrentAt(edges.value());
    }

    /** Whether the index describes the store at {@code version} of the relationship's counter. */
    boolean isCurrentAt(long version) {
        return built && version == builtVersion;
    }

    /** The relationship's edge counter now: a walk compares it with {@link #builtVersion} after each visit. */
    long version() {
        return edges.value();
    }

    /** The counter the index was built at. */
    long builtVersion() {
        return builtVersion;
    }

    /** The position of {@code id}, or -1 when it is not indexed (or shares its slot with another indexed id). */
    int positionOf(long id) {
        int slot = Entity.slot(id);
        if (slot >= places.length) {
            return -1;
        }
        int at = places[slot] - 1;
        return at >= 0 && ids[at] == id ? at : -1;
    }

    /** The end (exclusive) of the subtree at {@code at}: the first later position no deeper than it. */
    int subtreeEnd(int at) {
        return subtreeEnd(depths, count, at);
    }

    /** {@link #subtreeEnd(int)} in the arrays of one build ({@code depths[0, count)}). */
    static int subtreeEnd(int[] depths, int count, int at) {
        int depth = depths[at];
        int end = at + 1;
        while (end < count && depths[end] > depth) {
            end++;
        }
        return end;
    }

    /**
     * A walk on the store reached {@code entities} entities; returns whether the walks since the counter last
     * moved reached at least half of {@code slotsInUse}, so that building now costs no more than they did.
     */
    boolean noteSlowWork(int entities, int slotsInUse) {
        return tally.note(edges.value(), entities, slotsInUse);
    }

    /** Whether no {@link #build} was ever tried (a failed one counts). */
    boolean neverTried() {
        return !tried;
    }

    /** Whether the walks on the store since the counter last moved have earned a {@link #build}. */
    boolean wanted() {
        return wantedAt(edges.value());
    }

    /** {@link #wanted} at {@code version} of the relationship's counter. */
    boolean wantedAt(long version) {
        return tally.earnedAt(version);
    }

    /**
     * Lays the store's forest out in preorder, into new arrays. Returns whether the index is current; when an
     * allocation fails it is not, and the walks stay on the store.
     */
    boolean build() {
        long version = edges.value();
        tried = true;
        built = false;
        tally.spend();
        rootCount = 0;
        edgeCount = 0;
        try {
            roots = Growth.newLongs(16);
            unpublishedSource = false;
            sparse.forEachSourceList(relationship, this::noteTarget);
            if (unpublishedSource) {
                return false;
            }
            java.util.Arrays.sort(roots, 0, rootCount); // trees in ascending root order: a layout that repeats
            // sources are distinct live entities (fewer than 2^30), roots distinct targets of theirs: no overflow
            int nodes = edgeCount + rootCount;
            // new arrays every build, never written after it: a walk holds the ones it started with, and a walk
            // nested in its visitor may build new ones; every array first, then assign, so a failure leaves them
            long[] newIds = Growth.newLongs(nodes);
            int[] newDepths = Growth.copyOf(NO_INTS, nodes);
            int[] newParents = Growth.copyOf(NO_INTS, nodes);
            int[] newPlaces = Growth.copyOf(NO_INTS, index.highWater());
            ids = newIds;
            depths = newDepths;
            parents = newParents;
            places = newPlaces;
            count = 0;
            if (!layOut(nodes)) {
                return false;
            }
        } catch (OutOfMemoryError failure) {
            count = 0;
            return false; // walks stay on the store; the next tally may try again
        } finally {
            roots = null;
        }
        builtVersion = version;
        built = true;
        return true;
    }

    private void noteTarget(long target, long[] list, int from, int n) {
        edgeCount += n;
        for (int i = from; i < from + n; i++) {
            if (!index.isAlive(list[i])) {
                unpublishedSource = true; // only published sources hold edges; if one does not, walk the store
            }
        }
        boolean hasParent = index.isAlive(target) && sparse.firstTarget(relationship, target) != 0;
        if (!hasParent) {
            if (rootCount == roots.length) {
                roots = Growth.copyOf(roots, rootCount * 2);
            }
            roots[rootCount++] = target;
        }
    }

    /** Depth first from each root, children ascending; returns false if the store held more than it counted. */
    private boolean layOut(int nodes) {
        long[] stack = Growth.newLongs(64);
        int[] stackParents = Growth.copyOf(NO_INTS, 64);
        int[] stackDepths = Growth.copyOf(NO_INTS, 64);
        for (int r = 0; r < rootCount; r++) {
            int top = 0;
            stack[top] = roots[r];
            stackParents[top] = -1;
            stackDepths[top++] = 0;
            while (top > 0) {
                top--;
                long entity = stack[top];
                int parent = stackParents[top];
                int depth = stackDepths[top];
                if (count == nodes) {
                    return false;
                }
                int at = count++;
                ids[at] = entity;
                depths[at] = depth;
                parents[at] = parent;
                int slot = Entity.slot(entity);
                places[slot] = places[slot] == 0 ? at + 1 : -1;
                int end = sparse.copySourcesDescending(relationship, entity, stack, top);
                if (end < 0) {
                    int capacity = Growth.nextCapacity(stack.length, top - 1 - end, Long.BYTES);
                    stack = Growth.copyOf(stack, capacity);
                    stackParents = Growth.copyOf(stackParents, capacity);
                    stackDepths = Growth.copyOf(stackDepths, capacity);
                    end = sparse.copySourcesDescending(relationship, entity, stack, top);
                }
                for (int k = top; k < end; k++) {
                    stackParents[k] = at;
                    stackDepths[k] = depth + 1;
                }
                top = end;
            }
        }
        return true;
    }
}
