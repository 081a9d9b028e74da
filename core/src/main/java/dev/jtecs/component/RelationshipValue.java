package dev.jtecs.component;

import dev.jtecs.entity.Entity;
import java.util.Objects;

/**
 * One edge of a target-only relationship: as an input it adds the edge to the entity it is given to; as a value
 * it is what {@code get} and {@code forEachRelationship} report.
 *
 * @param relationship the relationship
 * @param target the entity the edge points at
 */
public record RelationshipValue(Relationship relationship, long target) implements Input {
    public RelationshipValue {
        Objects.requireNonNull(relationship, "relationship");
        Relationship.checkTarget(target);
    }

    /** The relationship itself: the marker every entity with an edge of it carries. */
    @Override
    public Component<?> component() {
        return relationship;
    }

    @Override
    public String toString() {
        return relationship.name() + "(" + Entity.toString(target) + ")";
    }
}
