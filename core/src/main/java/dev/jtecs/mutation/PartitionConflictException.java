package dev.jtecs.mutation;

import dev.jtecs.component.TagComponent;
import dev.jtecs.entity.Entity;

/**
 * Thrown in {@link PartitionConflicts#RAISE} mode by the second of two different operations on one partition
 * dimension of one entity in one submission. The second operation changed nothing; the first stays staged.
 */
public final class PartitionConflictException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    private final long entity;
    private final transient PartitionDimension dimension; // a registration of this process: not serialized

    public PartitionConflictException(long entity, PartitionDimension dimension, String first, String second) {
        super("partition conflict on " + Entity.toString(entity) + " in dimension " + dimension.name() + ": "
                + second + " after " + first + " in the same submission (one operation per dimension and entity "
                + "per submission; the first stays)");
        this.entity = entity;
        this.dimension = dimension;
    }

    /** Describes one operation as the messages write it, as {@code setTag(Running)} or {@code unsetTag(Hungry)}. */
    public static String describe(TagComponent tag, boolean set) {
        return (set ? "setTag(" : "unsetTag(") + tag.name() + ")";
    }

    public long entity() {
        return entity;
    }

    /** The dimension of the conflict ({@code null} in a copy deserialized from another process). */
    public PartitionDimension dimension() {
        return dimension;
    }
}
