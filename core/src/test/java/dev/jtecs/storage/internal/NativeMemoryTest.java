package dev.jtecs.storage.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;

class NativeMemoryTest {
    @Test
    void allocatesZeroedAlignedBuffersAndAccountsBytes() {
        try (NativeMemory memory = new NativeMemory()) {
            MemorySegment a = memory.allocate(100);
            MemorySegment b = memory.allocate(256);
            assertEquals(0, a.address() % NativeMemory.ALIGNMENT);
            assertEquals(0, b.address() % NativeMemory.ALIGNMENT);
            assertEquals(0, a.get(ValueLayout.JAVA_BYTE, 99));
            assertEquals(356, memory.reservedBytes());
            assertEquals(2, memory.liveBuffers());
            memory.free(a);
            assertEquals(256, memory.reservedBytes());
            assertEquals(1, memory.liveBuffers());
            assertEquals(2, memory.totalAllocations());
            assertThrows(IllegalStateException.class, () -> a.get(ValueLayout.JAVA_BYTE, 0));
        }
    }

    @Test
    void freeingTwiceOrForeignSegmentsIsRejected() {
        try (NativeMemory memory = new NativeMemory()) {
            MemorySegment a = memory.allocate(8);
            memory.free(a);
            assertThrows(IllegalArgumentException.class, () -> memory.free(a));
            assertThrows(IllegalArgumentException.class, () -> memory.free(MemorySegment.ofArray(new byte[8])));
            assertThrows(IllegalArgumentException.class, () -> memory.allocate(0));
            assertEquals(0, memory.reservedBytes());
        }
    }

    @Test
    void closeFreesEverythingAndRejectsLaterUse() {
        NativeMemory memory = new NativeMemory();
        MemorySegment a = memory.allocate(64);
        memory.close();
        memory.close();
        assertTrue(memory.isClosed());
        assertEquals(0, memory.reservedBytes());
        assertEquals(0, memory.liveBuffers());
        assertThrows(IllegalStateException.class, () -> a.get(ValueLayout.JAVA_BYTE, 0));
        assertThrows(IllegalStateException.class, () -> memory.allocate(8));
        assertThrows(IllegalStateException.class, () -> memory.free(a));
    }
}
