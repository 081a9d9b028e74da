package dev.jtecs.mutation;

/**
 * What happens when one submission holds two different operations ({@code setTag}/{@code unsetTag}) on the same
 * partition dimension of the same entity. Repeating an identical operation is never a conflict.
 */
public enum PartitionConflicts {
    /** The second operation throws {@code PartitionConflictException} and changes nothing; the first stays. */
    RAISE,
    /**
     * The operation with the highest tag value stays (see {@code PartitionDimension.valueOf}), and the conflict is
     * logged at {@code ERROR} through {@code System.Logger} {@code dev.jtecs.mutation.Partitions}.
     */
    HIGHEST_WINS
}
