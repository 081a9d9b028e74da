package dev.jtecs.component;

import dev.jtecs.entity.Entity;

/**
 * The component of one (relationship, target) pair in one world: what a dense edge adds to an archetype
 * signature. Its id lies at or above {@link Components#FIRST_PAIR_ID} and is meaningful only in the world that
 * allocated it; worlds create pairs, user code meets them only when listing an archetype's components.
 */
public final class PairComponent extends BaseComponent<Boolean> {
    private final Relationship relationship;
    private final long target;

    private PairComponent(int id, Relationship relationship, long target) {
        super(id, Boolean.class, new ComponentOptions<>(),
                relationship.name() + "(" + Entity.toString(target) + ")");
        this.relationship = relationship;
        this.target = target;
    }

    /**
     * Creates the pair component of a world; worlds call this once per pair they meet.
     *
     * @throws IllegalArgumentException for an id below {@link Components#FIRST_PAIR_ID} or a malformed target
     */
    public static PairComponent create(int id, Relationship relationship, long target) {
        if (id < Components.FIRST_PAIR_ID) {
            throw new IllegalArgumentException("pair ids start at " + Components.FIRST_PAIR_ID + ", got " + id);
        }
        Relationship.checkTarget(target);
        return new PairComponent(id, relationship, target);
    }

    public Relationship relationship() {
        return relationship;
    }

    public long target() {
        return target;
    }

    @Override
    public StorageKind storage() {
        return StorageKind.TAG;
    }

    @Override
    public ComponentLayout layout() {
        return ComponentLayout.NONE;
    }

    @Override
    public Boolean newDefault() {
        return Boolean.TRUE;
    }
}
