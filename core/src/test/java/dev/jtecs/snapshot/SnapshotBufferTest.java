package dev.jtecs.snapshot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;

/** The reused output buffer: it grows geometrically and only when asked for more than it has, and frees on close. */
class SnapshotBufferTest {
    @Test
    void anEmptyBufferHandsOutNothingForZeroBytesAndAllocatesOnTheFirstRealRequest() {
        try (SnapshotBuffer buffer = new SnapshotBuffer()) {
            assertEquals(0, buffer.capacity());
            assertSame(MemorySegment.NULL, buffer.ensure(0), "nothing allocated for nothing");
            assertEquals(0, buffer.capacity());
            MemorySegment first = buffer.ensure(100);
            assertEquals(100, first.byteSize());
            assertEquals(100, buffer.capacity(), "the first size is what was asked");
            assertEquals(0, first.address() % 64, "aligned for bulk copies");
            assertEquals(0, buffer.ensure(0).byteSize());
            assertEquals("SnapshotBuffer[capacity=100]", buffer.toString());
        }
    }

    @Test
    void itGrowsToTwiceItsRoomOrTheRequestWhicheverIsLargerAndKeepsItsRoomOtherwise() {
        try (SnapshotBuffer buffer = new SnapshotBuffer(64)) {
            assertEquals(64, buffer.capacity());
            MemorySegment same = buffer.ensure(64);
            same.set(ValueLayout.JAVA_BYTE, 63, (byte) 7);
            assertEquals(64, buffer.capacity(), "exactly its room: no growth");
            assertEquals(10, buffer.ensure(10).byteSize());
            assertEquals(7, buffer.ensure(64).get(ValueLayout.JAVA_BYTE, 63),
                    "the contents stay while it does not grow");
            buffer.ensure(65);
            assertEquals(128, buffer.capacity(), "twice its room");
            buffer.ensure(1000);
            assertEquals(1000, buffer.capacity(), "the request, larger than twice its room");
            assertEquals(10, buffer.ensure(10).byteSize());
            assertEquals(1000, buffer.capacity(), "a smaller request keeps the room");
        }
    }

    @Test
    void growingReleasesTheOldMemoryAndCloseReleasesTheLast() {
        SnapshotBuffer buffer = new SnapshotBuffer(16);
        MemorySegment old = buffer.ensure(16);
        buffer.ensure(17);
        assertThrows(IllegalStateException.class, () -> old.get(ValueLayout.JAVA_BYTE, 0), "the old arena is closed");
        MemorySegment last = buffer.ensure(32);
        buffer.close();
        assertThrows(IllegalStateException.class, () -> last.get(ValueLayout.JAVA_BYTE, 0));
        assertEquals(0, buffer.capacity());
        buffer.close(); // idempotent
        assertEquals(8, buffer.ensure(8).byteSize(), "a closed buffer allocates afresh");
        buffer.close();
    }

    @Test
    void negativeSizesAreRefused() {
        assertEquals("bytes=-1 must not be negative",
                assertThrows(IllegalArgumentException.class, () -> new SnapshotBuffer(-1)).getMessage());
        try (SnapshotBuffer buffer = new SnapshotBuffer(0)) {
            assertEquals(0, buffer.capacity());
            assertEquals("bytes=-2 must not be negative",
                    assertThrows(IllegalArgumentException.class, () -> buffer.ensure(-2)).getMessage());
        }
    }
}
