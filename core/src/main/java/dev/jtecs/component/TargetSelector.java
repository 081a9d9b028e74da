package dev.jtecs.component;

import dev.jtecs.entity.Entity;

/**
 * One target of a dense relationship, as a query term ({@code include}, {@code includeAny}, {@code exclude}) or
 * an archetype test ({@code archetype.has}): it matches archetypes whose entities hold the edge
 * {@code relationship -> target}. It is resolved in each world against that world's pairs, so one selector
 * serves every world. Not an input: add edges with {@link Relationship#to}.
 */
public final class TargetSelector extends BaseComponent<Boolean> {
    /** The id every selector reports: selectors never enter a signature. */
    public static final int NO_ID = -1;

    private final Relationship relationship;
    private final long target;

    TargetSelector(Relationship relationship, long target) {
        super(NO_ID, Boolean.class, new ComponentOptions<>(),
                relationship.name() + "->" + Entity.toString(target));
        this.relationship = relationship;
        this.target = target;
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

    @Override
    public boolean equals(Object other) {
        return other instanceof TargetSelector s && s.relationship == relationship && s.target == target;
    }

    @Override
    public int hashCode() {
        return relationship.hashCode() * 31 + Long.hashCode(target);
    }
}
