package dev.jtecs.component;

/**
 * A target-only relationship: an entity holds edges to other entities ({@link #to}) that carry nothing beyond
 * their target. Stored densely by default: each (relationship, target) pair is a component of its own in the
 * archetype signature, allocated by the world that first sees it. A {@link RelationshipOptions#sparse() sparse}
 * relationship keeps its edges in the world's per-entity edge store instead. Either way the relationship itself
 * is present as a marker while the entity holds at least one edge: {@code has(id, FOLLOWS)} asks for any edge,
 * {@code get(id, FOLLOWS)} answers the first edge in ascending target order, and queries that include the
 * relationship match entities with any edge of it.
 *
 * <p>Non-exclusive by default: adding an edge to a target the entity already has changes nothing and keeps the
 * other edges. An {@link RelationshipOptions#exclusive() exclusive} relationship keeps one edge per entity, the
 * last one set. A bare relationship is not an input: pass {@code relationship.to(target)}.
 */
public final class Relationship extends BaseRelationship<RelationshipValue> {
    Relationship(int id, String name, RelationshipOptions options) {
        super(id, name, RelationshipValue.class, options);
    }

    /** An edge from the entity it is given to, to {@code target}. */
    public RelationshipValue to(long target) {
        return new RelationshipValue(this, target);
    }

    @Override
    public Class<? extends Record> payloadType() {
        return null;
    }

    @Override
    public RelationshipValue edgeValue(long target, Object payload) {
        return to(target);
    }
}
