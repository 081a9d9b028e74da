package dev.jtecs.component;

import dev.jtecs.entity.Entity;

/**
 * The component of one (relationship, target) pair in one world: what a dense edge adds to an archetype
 * signature. Its id lies at or above {@link Components#FIRST_PAIR_ID} and is meaningful only in the world that
 * allocated it; worlds create pairs, user code meets them only when listing an archetype's components. A pair of
 * a target-only relationship is a tag; a pair of a payload relationship holds the edge's record in its columns
 * (natively or as a reference, as the relationship stores payloads).
 */
public final class PairComponent extends BaseComponent<Object> {
    private final BaseRelationship<?> relationship;
    private final long target;

    private PairComponent(int id, BaseRelationship<?> relationship, long target) {
        super(id, Object.class, new ComponentOptions<>(),
                relationship.name() + "(" + Entity.toString(target) + ")");
        this.relationship = relationship;
        this.target = target;
    }

    /**
     * Creates the pair component of a world; worlds call this once per pair they meet.
     *
     * @throws IllegalArgumentException for an id below {@link Components#FIRST_PAIR_ID}, a malformed target or a
     *     sparse relationship (whose edges never enter a signature)
     */
    public static PairComponent create(int id, BaseRelationship<?> relationship, long target) {
        if (id < Components.FIRST_PAIR_ID) {
            throw new IllegalArgumentException("pair ids start at " + Components.FIRST_PAIR_ID + ", got " + id);
        }
        if (relationship.isSparse()) {
            throw new IllegalArgumentException("relationship " + relationship.name() + " is sparse: it has no pairs");
        }
        BaseRelationship.checkTarget(target);
        return new PairComponent(id, relationship, target);
    }

    public BaseRelationship<?> relationship() {
        return relationship;
    }

    public long target() {
        return target;
    }

    /** The payload record type, or {@code null} for a target-only relationship's pair. */
    public Class<? extends Record> payloadType() {
        return relationship.payloadType();
    }

    @Override
    public StorageKind storage() {
        return relationship.edgeStorage();
    }

    @Override
    public ComponentLayout layout() {
        return relationship.edgeLayout();
    }

    /** {@code TRUE} for a tag pair; a payload pair's record with every field but the target zero. */
    @Override
    public Object newDefault() {
        return relationship instanceof RelationshipDefinition<?> definition ? definition.to(target).payload()
                : Boolean.TRUE;
    }
}
