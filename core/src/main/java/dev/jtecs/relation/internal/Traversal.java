package dev.jtecs.relation.internal;

import dev.jtecs.entity.internal.Growth;

import dev.jtecs.component.BaseRelationship;
import dev.jtecs.entity.Entity;
import dev.jtecs.entity.internal.EntityIndex;
import dev.jtecs.relation.AncestorVisitor;
import dev.jtecs.relation.TraversalVisitor;
import dev.jtecs.storage.internal.ArchetypeRegistry;
import java.util.Objects;

/**
 * Walks along a relationship's edges over published state: {@link #traverse} down from a target to every entity
 * that reaches it, {@link #walkUp} up from a source along first edges. Both reuse their scratch (a stack and
 * per-slot visit stamps, a path), so they allocate nothing per entity; a walk started from a visitor of another
 * walk gets scratch of its own.
 */
public final class Traversal {
    private final EntityIndex index;
    private final ArchetypeRegistry archetypes;

    public Traversal(EntityIndex index, ArchetypeRegistry archetypes) {
        this.index = index;
        this.archetypes = archetypes;
        this.idleStack = new TraversalStack(archetypes);
    }

    /**
     * Visits, depth first, every entity that reaches {@code root} through edges of {@code relationship} (its
     * children, their children, ...): the root itself is not visited, direct children have depth 0, children are
     * visited in ascending id order, and each entity at most once (cycles end there).
     */
    public void traverse(long root, BaseRelationship<?> relationship, TraversalVisitor visitor) {
        ReverseIndex.requireReverseIndex(relationship, "traverse");
        Objects.requireNonNull(visitor, "visitor");
        PreorderIndex forest = preorderIndex(relationship);
        if (forest != null && currentPreorder(forest)) {
            int at = forest.positionOf(root);
            if (at >= 0) {
                traverseForest(forest, at, root, relationship, visitor);
                return;
            }
        }
        traverseStore(root, relationship, visitor, forest);
    }

    /** {@link #traverse} by the flat child index or the store, with a stack and visit stamps. */
    private void traverseStore(long root, BaseRelationship<?> relationship, TraversalVisitor visitor,
            PreorderIndex forest) {
        // a nested walk (from a visitor) gets a stack of its own
        TraversalStack stack = idleStack != null ? idleStack : new TraversalStack(archetypes);
        idleStack = null;
        try {
            stack.newVisit();
            if (index.isAlive(root)) { // a dead root (a sparse edge kept its id) must not hide its slot's new entity
                stack.markSeen(Entity.slot(root));
            }
            ChildIndex children = forest == null ? childIndex(relationship) : null;
            if (children != null && children.wanted() && !children.isCurrent()) {
                children.build();
            }
            int visited = walkStack(stack, push(children, stack, relationship, root, 0, 0), children, relationship,
                    visitor);
            if (forest != null && !forest.isCurrent()) { // walked the store: enough of that, and lay it out
                forest.noteSlowWork(visited + 1, index.highWater());
            } else if (children != null && !children.isCurrent()) {
                children.noteSlowWork(visited + 1, index.highWater());
            }
        } finally {
            idleStack = stack;
        }
    }

    /** Pops and visits until the stack is empty, pushing each visited entity's children; returns the visits. */
    private static int walkStack(TraversalStack stack, int top, ChildIndex children,
            BaseRelationship<?> relationship, TraversalVisitor visitor) {
        int visited = 0;
        while (top > 0) {
            top--;
            long entity = stack.entities[top];
            int depth = stack.depths[top];
            int slot = Entity.slot(entity);
            if (!stack.markSeen(slot)) {
                continue;
            }
            visitor.visit(entity, depth);
            visited++;
            top = push(children, stack, relationship, entity, depth + 1, top);
        }
        return visited;
    }

    /**
     * {@link #traverse} over the preorder index: the run of positions after {@code at} that lie deeper. When a visit
     * changes the relationship's edges, the rest of the walk goes on from the store exactly as a walk on the store
     * would have: the entities still waiting are the later siblings of each entity on the path down to the one just
     * visited, as the index had them, and that entity's children come from the store.
     */
    private void traverseForest(PreorderIndex forest, int at, long root, BaseRelationship<?> relationship,
            TraversalVisitor visitor) {
        long version = forest.builtVersion();
        long[] ids = forest.ids;
        int[] depths = forest.depths;
        int count = forest.count;
        int base = depths[at] + 1;
        for (int q = at + 1; q < count; q++) {
            int depth = depths[q];
            if (depth < base) {
                return;
            }
            visitor.visit(ids[q], depth - base);
            if (forest.version() != version) {
                resumeOnStore(ids, depths, count, at, q, root, relationship, visitor);
                return;
            }
        }
    }

    /**
     * Goes on from the store after the visit of position {@code q} changed the edges of a preorder walk, reading the
     * arrays that walk read (a build from within the visitor made new ones; it never writes these).
     */
    private void resumeOnStore(long[] ids, int[] depths, int count, int at, int q, long root,
            BaseRelationship<?> relationship, TraversalVisitor visitor) {
        TraversalStack stack = idleStack != null ? idleStack : new TraversalStack(archetypes);
        idleStack = null;
        try {
            int base = depths[at] + 1;
            stack.newVisit();
            if (index.isAlive(root)) {
                stack.markSeen(Entity.slot(root));
            }
            for (int p = at + 1; p <= q; p++) {
                stack.markSeen(Entity.slot(ids[p]));
            }
            // level by level from the root's children down to q: push the later siblings of the one holding q
            int top = 0;
            int levelEnd = PreorderIndex.subtreeEnd(depths, count, at);
            int child = at + 1;
            while (true) {
                int end = PreorderIndex.subtreeEnd(depths, count, child);
                while (end <= q) { // this child's subtree lies before q: on to its next sibling
                    child = end;
                    end = PreorderIndex.subtreeEnd(depths, count, child);
                }
                int siblings = 0;
                for (int s = end; s < levelEnd; s = PreorderIndex.subtreeEnd(depths, count, s)) {
                    siblings++;
                }
                long[] later = new long[siblings]; // the rare path: a visitor changed the hierarchy mid-walk
                int k = 0;
                for (int s = end; s < levelEnd; s = PreorderIndex.subtreeEnd(depths, count, s)) {
                    later[k++] = ids[s];
                }
                top = stack.pushDescending(later, 0, siblings, depths[child] - base, top);
                if (child == q) {
                    break;
                }
                levelEnd = end;
                child++;
            }
            top = stack.pushChildren(relationship, ids[q], depths[q] - base + 1, top);
            walkStack(stack, top, null, relationship, visitor);
        } finally {
            idleStack = stack;
        }
    }

    private TraversalStack idleStack;

    /** Pushes {@code parent}'s children: from the flat index while it is current, else from the store. */
    private static int push(ChildIndex children, TraversalStack stack, BaseRelationship<?> relationship,
            long parent, int depth, int top) {
        if (children != null && children.isCurrent()) {
            return children.push(stack, parent, depth, top);
        }
        return stack.pushChildren(relationship, parent, depth, top);
    }

    // The flat child indexes of the sparse relationships walked (one map lookup a walk, not one an entity).
    private final java.util.IdentityHashMap<BaseRelationship<?>, ChildIndex> childIndexes =
            new java.util.IdentityHashMap<>();

    // The preorder indexes of the sparse, exclusive relationships walked.
    private final java.util.IdentityHashMap<BaseRelationship<?>, PreorderIndex> preorderIndexes =
            new java.util.IdentityHashMap<>();

    private BaseRelationship<?> lastWalked; // the relationship of the last walk, and its preorder index or null
    private PreorderIndex lastPreorder;

    /** The preorder index of a sparse, exclusive, reverse-indexed relationship, or null for any other. */
    PreorderIndex preorderIndex(BaseRelationship<?> relationship) {
        if (relationship == lastWalked) {
            return lastPreorder;
        }
        PreorderIndex forest = null;
        if (relationship.isSparse() && relationship.isExclusive() && relationship.hasReverseIndex()) {
            forest = preorderIndexes.get(relationship);
            if (forest == null) {
                forest = new PreorderIndex(relationship, archetypes.sparseEdges(), archetypes.clock(), index);
                preorderIndexes.put(relationship, forest);
            }
        }
        lastWalked = relationship;
        lastPreorder = forest;
        return forest;
    }

    /**
     * Whether the preorder index is current, after building it: at the relationship's first walk, or once walks on
     * the store have earned it since the last change.
     */
    private boolean currentPreorder(PreorderIndex forest) {
        long version = forest.version();
        if (forest.isCurrentAt(version)) {
            return true;
        }
        return (forest.wantedAt(version) || forest.neverTried()) && forest.build();
    }

    /** The child index of a sparse, reverse-indexed relationship, or null for a dense one (read by archetype). */
    ChildIndex childIndex(BaseRelationship<?> relationship) {
        if (!relationship.isSparse()) {
            return null;
        }
        ChildIndex children = childIndexes.get(relationship);
        if (children == null) {
            children = new ChildIndex(relationship, archetypes.sparseEdges(), archetypes.clock());
            childIndexes.put(relationship, children);
        }
        return children;
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
        PreorderIndex forest = preorderIndex(relationship);
        if (forest != null && currentPreorder(forest) && walkUpForest(forest, id, relationship, visitor, maxDepth)) {
            return;
        }
        int levels = walkUpStore(id, relationship, visitor, maxDepth, null, 1);
        if (forest != null && !forest.isCurrent()) {
            forest.noteSlowWork(levels, index.highWater());
        }
    }

    /**
     * {@link #walkUp} by parent positions. An indexed entity with a parent is a source, so it is alive, and an
     * indexed root has no edge to follow (a dead one's slot may hold another entity, whose edges are not its own):
     * the walk the store would take, without its checks. A forest has no cycle. When a visit changes the
     * relationship's edges, the walk goes on from the store. Returns false, having visited nothing, when {@code id}
     * is not indexed (the caller walks the store). The position is looked up here, so that a walk by the index is
     * one call from {@code walkUp} whether or not the JIT inlines it.
     */
    private boolean walkUpForest(PreorderIndex forest, long id, BaseRelationship<?> relationship,
            AncestorVisitor visitor, int maxDepth) {
        int at = forest.positionOf(id);
        if (at < 0) {
            return false; // not indexed: the caller walks the store
        }
        long version = forest.builtVersion();
        long[] ids = forest.ids;
        int[] parents = forest.parents;
        int depth = 1;
        for (int p = parents[at]; p >= 0; p = parents[p], depth++) {
            if (depth > maxDepth) {
                throw tooDeep(relationship, id, maxDepth);
            }
            if (!visitor.visit(ids[p], depth)) {
                return true;
            }
            if (forest.version() != version) {
                long[] path = new long[depth + 16]; // the rare path: a visitor changed the hierarchy mid-walk
                for (int k = 1, q = parents[at]; k <= depth; k++, q = parents[q]) { // up from the start to p
                    path[k] = ids[q];
                }
                path[0] = id;
                walkUpStore(id, relationship, visitor, maxDepth, path, depth + 1);
                return true;
            }
        }
        return true;
    }

    private static IllegalStateException tooDeep(BaseRelationship<?> relationship, long id, int maxDepth) {
        return new IllegalStateException("walkUp: deeper than " + maxDepth + " levels of " + relationship.name()
                + " from " + Entity.toString(id));
    }

    /**
     * {@link #walkUp} on the store, from depth {@code from} with the path so far ({@code given[0, from)}, or the
     * start alone when null); returns the entities it read (a tally for the preorder index).
     */
    private int walkUpStore(long id, BaseRelationship<?> relationship, AncestorVisitor visitor, int maxDepth,
            long[] given, int from) {
        long[] path = given != null ? given : walkPath != null ? walkPath : new long[16]; // nested walks own theirs
        if (given == null) {
            walkPath = null;
        }
        try {
            path[0] = id;
            long current = path[from - 1];
            for (int depth = from; ; depth++) {
                if (!index.isAlive(current)) {
                    return depth;
                }
                long parent = firstTarget(relationship, current);
                if (parent == 0) {
                    return depth;
                }
                for (int i = 0; i < depth; i++) { // the ancestors so far: a repeat is a cycle
                    if (path[i] == parent) {
                        throw new IllegalStateException("walkUp: " + relationship.name()
                                + " edges form a cycle at " + Entity.toString(parent));
                    }
                }
                if (depth > maxDepth) {
                    throw tooDeep(relationship, id, maxDepth);
                }
                if (!visitor.visit(parent, depth)) {
                    return depth;
                }
                if (depth >= path.length) {
                    path = Growth.copyOf(path, path.length * 2);
                }
                path[depth] = parent;
                current = parent;
            }
        } finally {
            if (given == null) {
                walkPath = path;
            }
        }
    }

    private long[] walkPath = new long[16];

    /** The first target of a live entity's edges, or 0: a sparse edge straight from the store, a dense one by row. */
    private long firstTarget(BaseRelationship<?> relationship, long entity) {
        if (relationship.isSparse()) {
            return archetypes.sparseEdges().firstTarget(relationship, entity);
        }
        int slot = Entity.slot(entity);
        return archetypes.ofStore(index.storeOf(slot)).firstTarget(relationship, index.rowOf(slot));
    }
}
