package dev.jtecs.component;

import dev.jtecs.entity.Entity;
import java.util.Objects;

/**
 * One edge: as an input it adds the edge to the entity it is given to (for an existing target, a payload
 * relationship replaces that edge's payload); as a value it is what {@code get} and {@code forEachRelationship}
 * report for a target-only relationship.
 *
 * @param relationship the relationship
 * @param target the entity the edge points at
 * @param payload the edge's record for a payload relationship (its {@code target} field equals {@code target}),
 *     {@code null} for a target-only one
 */
public record RelationshipValue(BaseRelationship<?> relationship, long target, Object payload) implements Input {
    public RelationshipValue {
        Objects.requireNonNull(relationship, "relationship");
        BaseRelationship.checkTarget(target);
        Class<? extends Record> type = relationship.payloadType();
        if (type == null ? payload != null : !type.isInstance(payload)) {
            throw new IllegalArgumentException("relationship " + relationship.name() + " carries "
                    + (type == null ? "no payload" : type.getName()) + ", not "
                    + (payload == null ? "null" : payload.getClass().getName()));
        }
    }

    /** A target-only edge. */
    public RelationshipValue(Relationship relationship, long target) {
        this(relationship, target, null);
    }

    /** The relationship itself: the marker every entity with an edge of it carries. */
    @Override
    public Component<?> component() {
        return relationship;
    }

    @Override
    public String toString() {
        return relationship.name() + "(" + Entity.toString(target) + (payload == null ? "" : ", " + payload) + ")";
    }
}
