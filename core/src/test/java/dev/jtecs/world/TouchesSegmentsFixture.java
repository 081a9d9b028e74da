package dev.jtecs.world;

import java.lang.foreign.MemorySegment;

/** A world class that reads a segment itself: breaks the segment fence (see {@code CoreArchitectureRulesTest}). */
final class TouchesSegmentsFixture {
    private TouchesSegmentsFixture() {}

    static long size(MemorySegment segment) {
        return segment.byteSize();
    }
}
