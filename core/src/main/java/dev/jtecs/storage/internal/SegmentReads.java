package dev.jtecs.storage.internal;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Bulk reads from caller-owned native arrays (restoration ids handed to {@code batchSpawnAtRaw}): the one place
 * outside the tables where the core reads a segment it does not own, kept in storage like every other segment
 * access.
 */
public final class SegmentReads {
    private SegmentReads() {}

    /** How many whole {@code long}s {@code segment} holds. */
    public static long longCount(MemorySegment segment) {
        return segment.byteSize() / Long.BYTES;
    }

    /**
     * Copies {@code count} {@code long}s starting at element {@code fromIndex} of {@code segment} into
     * {@code into[offset...]} with one bulk copy (native byte order, unaligned access allowed).
     */
    public static void longs(MemorySegment segment, long fromIndex, long[] into, int offset, int count) {
        MemorySegment.copy(segment, ValueLayout.JAVA_LONG_UNALIGNED, fromIndex * Long.BYTES, into, offset, count);
    }

    /** The {@code long} at element {@code index} of {@code segment} (native byte order, unaligned allowed). */
    public static long longAt(MemorySegment segment, long index) {
        return segment.getAtIndex(ValueLayout.JAVA_LONG_UNALIGNED, index);
    }
}
