package dev.jtecs.storage;

import dev.jtecs.component.PrimitiveKind;
import java.lang.foreign.MemorySegment;

/**
 * A typed view of one off-heap column. {@link ObjectColumn} is the heap counterpart.
 *
 * <p>The raw {@link #segment()} is what kernels use: 64-byte aligned, its capacity a multiple of 64 rows, so a
 * vector loop may run to the lane-rounded count without a tail.
 */
public sealed interface Column permits ByteColumn, BooleanColumn, ShortColumn, CharColumn, IntColumn, FloatColumn, LongColumn, DoubleColumn {
    MemorySegment segment();

    int capacityRows();

    PrimitiveKind kind();

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
