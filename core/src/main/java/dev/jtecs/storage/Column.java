package dev.jtecs.storage;

import dev.jtecs.component.PrimitiveKind;
import java.lang.foreign.MemorySegment;

/**
 * A typed view of one off-heap column. {@link ObjectColumn} is the heap counterpart.
 *
 * <p>The raw {@link #segment()} is what kernels use: 64-byte aligned, its capacity a multiple of 64 rows, so a
 * vector loop may run to the lane-rounded count without a tail. A view of an archetype's column stays valid while
 * {@link #owner()}'s {@link Archetype#storageVersion()} equals {@link #storageVersion()}.
 */
public sealed interface Column
        permits ByteColumn, BooleanColumn, ShortColumn, CharColumn, IntColumn, FloatColumn, LongColumn, DoubleColumn {
    MemorySegment segment();

    int capacityRows();

    PrimitiveKind kind();

    /** The archetype this view belongs to, or {@code null} for a detached view of a caller's segment. */
    Archetype owner();

    /** The owner's storage version when this view was taken (0 for a detached view). */
    long storageVersion();

    /**
     * Whether rows {@code [0, rows)} hold the same bytes here and in {@code other}.
     *
     * @throws IllegalArgumentException when the kinds differ or either view has fewer than {@code rows} rows
     */
    default boolean sameRows(Column other, int rows) {
        long bytes = checkPair(other, rows);
        return MemorySegment.mismatch(segment(), 0, bytes, other.segment(), 0, bytes) < 0;
    }

    /**
     * Copies rows {@code [0, rows)} into {@code target} with one bulk copy (the caller marks the target dirty).
     *
     * @throws IllegalArgumentException when the kinds differ or either view has fewer than {@code rows} rows
     */
    default void copyRowsTo(Column target, int rows) {
        long bytes = checkPair(target, rows);
        MemorySegment.copy(segment(), 0, target.segment(), 0, bytes);
    }

    private long checkPair(Column other, int rows) {
        if (other.kind() != kind()) {
            throw new IllegalArgumentException("column kinds differ: " + kind() + " and " + other.kind());
        }
        if (rows < 0 || rows > capacityRows() || rows > other.capacityRows()) {
            throw new IllegalArgumentException("rows=" + rows + " outside the capacities " + capacityRows()
                    + " and " + other.capacityRows());
        }
        return rows * kind().byteSize();
    }

    static MemorySegment checkSegment(MemorySegment segment, long elementBytes) {
        if (segment == null) {
            throw new NullPointerException("segment");
        }
        if (segment.byteSize() % elementBytes != 0) {
            throw new IllegalArgumentException("segment byteSize=" + segment.byteSize()
                    + " is not a multiple of elementBytes=" + elementBytes);
        }
        return segment;
    }
}
