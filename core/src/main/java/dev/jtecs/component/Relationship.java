package dev.jtecs.component;

import dev.jtecs.entity.Entity;

/**
 * A target-only relationship: an entity holds edges to other entities ({@link #to}). Stored densely by default:
 * each (relationship, target) pair is a component of its own in the archetype signature, allocated by the world
 * that first sees it. A {@link RelationshipOptions#sparse() sparse} relationship keeps its edges in the world's
 * per-entity edge store instead. Either way the relationship itself is present as a marker while the entity holds
 * at least one edge:
 * {@code has(id, FOLLOWS)} asks for any edge, {@code get(id, FOLLOWS)} answers the first edge in ascending
 * target order, and queries that include the relationship match entities with any edge of it.
 *
 * <p>Non-exclusive by default: adding an edge to a target the entity already has changes nothing and keeps the
 * other edges. An {@link RelationshipOptions#exclusive() exclusive} relationship keeps one edge per entity, the
 * last one set. A bare relationship is not an input: pass {@code relationship.to(target)}.
 */
public final class Relationship extends BaseComponent<RelationshipValue> {
    private final boolean exclusive;
    private final boolean reverseIndex;
    private final boolean cascadeDelete;
    private final boolean sparse;

    Relationship(int id, String name, RelationshipOptions options) {
        super(id, RelationshipValue.class, options.componentOptions(), name);
        this.exclusive = options.isExclusive();
        this.reverseIndex = options.hasReverseIndex();
        this.cascadeDelete = options.isCascadeDelete();
        this.sparse = options.isSparse();
        if (cascadeDelete && !(exclusive && reverseIndex)) {
            throw new IllegalArgumentException("relationship " + name + ": cascadeDelete requires exclusive() and "
                    + "reverseIndex()");
        }
    }

    /** Whether lookups from a target to its sources are enabled ({@code relationshipSources}, traversal). */
    public boolean hasReverseIndex() {
        return reverseIndex;
    }

    /** Whether despawning a target despawns its sources, recursively, in the same commit. */
    public boolean isCascadeDelete() {
        return cascadeDelete;
    }

    /** An edge from the entity it is given to, to {@code target}. */
    public RelationshipValue to(long target) {
        return new RelationshipValue(this, target);
    }

    /** Whether edges live in the world's per-entity edge store rather than in archetype signatures. */
    public boolean isSparse() {
        return sparse;
    }

    /**
     * A query term (and archetype test) matching entities that hold the edge to {@code target}. Selectors for
     * the same relationship and target are equal.
     *
     * @throws IllegalArgumentException for a sparse relationship (its targets are not in the signature) or a
     *     malformed target
     */
    public TargetSelector targeting(long target) {
        if (sparse) {
            throw new IllegalArgumentException("relationship " + name() + " is sparse: its targets are not part of "
                    + "archetypes, so it has no targeting selector (use relationshipSources or forEachRelationship)");
        }
        checkTarget(target);
        return new TargetSelector(this, target);
    }

    /** Whether an entity holds at most one edge of this relationship (setting another replaces it). */
    public boolean isExclusive() {
        return exclusive;
    }

    @Override
    public StorageKind storage() {
        return StorageKind.TAG;
    }

    @Override
    public ComponentLayout layout() {
        return ComponentLayout.NONE;
    }

    /**
     * A relationship has no default value.
     *
     * @throws UnsupportedOperationException always: an edge needs a target
     */
    @Override
    public RelationshipValue newDefault() {
        throw new UnsupportedOperationException("relationship " + name() + " has no default; pass "
                + name() + ".to(target)");
    }

    static void checkTarget(long target) {
        if (!Entity.isWellFormed(target)) {
            throw new IllegalArgumentException("relationship target " + target + " is not an entity id");
        }
    }
}
