package dev.jtecs.storage.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;

class SegmentReadsTest {
    @Test
    void countsWholeLongsAndCopiesARangeInOneGo() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment ids = arena.allocate(5 * Long.BYTES + 3, 1); // three stray bytes at the end
            for (int i = 0; i < 5; i++) {
                ids.setAtIndex(ValueLayout.JAVA_LONG_UNALIGNED, i, 100 + i);
            }
            assertEquals(5, SegmentReads.longCount(ids));
            long[] into = new long[4];
            SegmentReads.longs(ids, 2, into, 1, 3);
            assertArrayEquals(new long[] {0, 102, 103, 104}, into);
        }
    }

    @Test
    void aRangeBeyondTheSegmentIsRefused() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment ids = arena.allocate(2 * Long.BYTES);
            assertThrows(IndexOutOfBoundsException.class, () -> SegmentReads.longs(ids, 1, new long[2], 0, 2));
            assertThrows(IndexOutOfBoundsException.class, () -> SegmentReads.longs(ids, 0, new long[1], 0, 2));
        }
    }
}
