package dev.jtecs.builtin;

import dev.jtecs.component.Relationship;
import dev.jtecs.component.Relationships;

/**
 * The parent relationship of hierarchies: {@code ChildOf.COMPONENT.to(parent)}. Exclusive (one parent), with a
 * reverse index (children of a parent, traversal), cascading (despawning a parent despawns its subtree in the
 * same commit), and sparse: the edges live in the world's edge store, so the children of every parent share
 * archetypes instead of making one archetype per parent (see {@code docs/relationships.md}, "Hierarchies at
 * scale"). The signature holds the {@code ChildOf} marker alone.
 */
public final class ChildOf {
    /** The registered relationship, named {@code "ChildOf"}. */
    public static final Relationship COMPONENT =
            Relationships.register("ChildOf", o -> o.sparse().exclusive().reverseIndex().cascadeDelete());

    /**
     * The same relationship, named for its use as a query term: {@code exclude(ChildOf.ANY)} selects roots,
     * {@code include(ChildOf.ANY)} entities with a parent, whoever it is. Being sparse, it has no selector for
     * one parent; {@code world.relationshipSources(ChildOf.COMPONENT, p)} lists one parent's children.
     */
    public static final Relationship ANY = COMPONENT;

    private ChildOf() {
    }
}
