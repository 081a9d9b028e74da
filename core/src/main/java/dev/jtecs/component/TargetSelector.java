package dev.jtecs.component;

import dev.jtecs.entity.Entity;

/**
 * One target of a dense relationship, as a query term ({@code include}, {@code includeAny}, {@code exclude}), an
 * archetype test ({@code archetype.has}) or a read: it matches archetypes whose entities hold the edge
 * {@code relationship -> target}, and {@code world.get(id, selector)} returns that edge's value. For a payload
 * relationship whose record is stored natively, its field handles ({@link #floatField} and friends) select the
 * pair's columns in {@code Archetype.get}; the {@code target} field has no handle, since the world maintains it.
 * A selector is resolved in each world against that world's pairs, so one selector serves every world. Not an
 * input: add edges with {@code relationship.to(target)} or {@code of(record)}.
 *
 * @param <V> what reads of the edge return (see {@link BaseRelationship})
 */
public final class TargetSelector<V> extends BaseComponent<V> implements FieldSource {
    /** The id every selector reports: selectors never enter a signature. */
    public static final int NO_ID = -1;

    private final BaseRelationship<V> relationship;
    private final long target;

    TargetSelector(BaseRelationship<V> relationship, long target) {
        super(NO_ID, relationship.valueType(), new ComponentOptions<>(),
                relationship.name() + "->" + Entity.toString(target));
        this.relationship = relationship;
        this.target = target;
    }

    public BaseRelationship<V> relationship() {
        return relationship;
    }

    public long target() {
        return target;
    }

    @Override
    public StorageKind storage() {
        return relationship.edgeStorage();
    }

    @Override
    public ComponentLayout layout() {
        return relationship.edgeLayout();
    }

    /**
     * The edge's value with nothing but its target known: for a target-only relationship the edge itself, for a
     * payload relationship a record with its other fields zero.
     */
    @Override
    public V newDefault() {
        return relationship.edgeValue(target, relationship instanceof RelationshipDefinition<?> definition
                ? definition.to(target).payload() : null);
    }

    @Override
    public Component<?> fieldOwner() {
        return this;
    }

    @Override
    public int fieldIndex(String field) {
        if (!(relationship instanceof RelationshipDefinition<?> definition)
                || definition.payloadStorage() != StorageKind.NATIVE) {
            throw new IllegalArgumentException("relationship " + relationship.name() + " has no native payload "
                    + "columns");
        }
        int index = definition.payloadLayout().indexOf(field);
        if (index < 0) {
            throw new IllegalArgumentException("relationship " + relationship.name() + " has no field '" + field
                    + "'; fields: " + definition.payloadLayout().fieldNames());
        }
        if (index == definition.targetField()) {
            throw new IllegalArgumentException("the target of a " + relationship.name() + " edge is maintained by "
                    + "the world (set an edge to another target instead); it has no column handle");
        }
        return index;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof TargetSelector<?> s && s.relationship == relationship && s.target == target;
    }

    @Override
    public int hashCode() {
        return relationship.hashCode() * 31 + Long.hashCode(target);
    }
}
