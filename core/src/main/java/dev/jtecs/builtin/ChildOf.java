package dev.jtecs.builtin;

import dev.jtecs.component.Relationship;
import dev.jtecs.component.Relationships;

/**
 * The parent relationship of hierarchies: {@code ChildOf.COMPONENT.to(parent)}. Exclusive (one parent), with a
 * reverse index (children of a parent, traversal), and cascading: despawning a parent despawns its subtree in the
 * same commit.
 */
public final class ChildOf {
    /** The registered relationship, named {@code "ChildOf"}. */
    public static final Relationship COMPONENT =
            Relationships.register("ChildOf", o -> o.exclusive().reverseIndex().cascadeDelete());

    /**
     * The same relationship, named for its use as a query term: {@code exclude(ChildOf.ANY)} selects roots,
     * {@code include(ChildOf.ANY)} entities with a parent, whoever it is ({@code COMPONENT.targeting(p)} selects one
     * parent's children).
     */
    public static final Relationship ANY = COMPONENT;

    private ChildOf() {
    }
}
