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
        // a nested walk (from a visitor) gets a stack of its own
        TraversalStack stack = idleStack != null ? idleStack : new TraversalStack(archetypes);
        idleStack = null;
        try {
            stack.newVisit();
            if (index.isAlive(root)) { // a dead root (a sparse edge kept its id) must not hide its slot's new entity
                stack.markSeen(Entity.slot(root));
            }
            ChildIndex children = childIndex(relationship);
            if (children != null && children.wanted() && !children.isCurrent()) {
                children.build();
            }
            int visited = 0;
            int top = push(children, stack, relationship, root, 0, 0);
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
            if (children != null && !children.isCurrent()) { // walked the store: enough of that, and index
                children.noteSlowWork(visited + 1, index.highWater());
            }
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
        long[] path = walkPath != null ? walkPath : new long[16]; // a nested walk (from a visitor) gets its own
        walkPath = null;
        try {
            path[0] = id;
            long current = id;
            for (int depth = 1; ; depth++) {
                if (!index.isAlive(current)) {
                    return;
                }
                long parent = firstTarget(relationship, current);
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
                    path = Growth.copyOf(path, path.length * 2);
                }
                path[depth] = parent;
                current = parent;
            }
        } finally {
            walkPath = path;
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
