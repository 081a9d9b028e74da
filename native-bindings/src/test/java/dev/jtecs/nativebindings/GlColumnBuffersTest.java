package dev.jtecs.nativebindings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class GlColumnBuffersTest {
    private static GlContext context;

    @BeforeAll
    static void openContext() {
        context = GlContext.open(GlContext.Surface.OFFSCREEN, 16, 16, "GlColumnBuffersTest");
    }

    @AfterAll
    static void closeContext() {
        context.close();
    }

    private static MemorySegment ramp(Arena arena, int floats, float start) {
        MemorySegment segment = arena.allocate(ValueLayout.JAVA_FLOAT, floats);
        for (int i = 0; i < floats; i++) {
            segment.setAtIndex(ValueLayout.JAVA_FLOAT, i, start + i);
        }
        return segment;
    }

    @Test
    void uploadedBytesReadBackFromTheGpu() {
        try (Arena arena = Arena.ofConfined(); GlColumnBuffers buffers = new GlColumnBuffers(2)) {
            buffers.grow(0, 400, 0);
            buffers.grow(1, 400, 0);
            MemorySegment column = ramp(arena, 100, 1f);
            buffers.upload(1, 40, column.address() + 8, 80); // floats 2..21 into bytes 40..120
            MemorySegment back = arena.allocate(80);
            buffers.readBack(1, 40, back);
            assertEquals(-1, back.mismatch(column.asSlice(8, 80)));
        }
    }

    @Test
    void growingKeepsTheBytesAskedForAndReplacesTheBufferObject() {
        try (Arena arena = Arena.ofConfined(); GlColumnBuffers buffers = new GlColumnBuffers(1)) {
            int[] grown = new int[1];
            buffers.onGrow(field -> grown[0]++);
            buffers.grow(0, 64, 0);
            int first = buffers.buffer(0);
            MemorySegment column = ramp(arena, 16, 7f);
            buffers.upload(0, 0, column.address(), 64);
            buffers.grow(0, 4096, 64);
            assertNotEquals(first, buffers.buffer(0));
            assertEquals(4096, buffers.capacityBytes(0));
            assertEquals(2, grown[0]);
            MemorySegment back = arena.allocate(64);
            buffers.readBack(0, 0, back);
            assertEquals(-1, back.mismatch(column));
        }
    }

    @Test
    void outOfRangeCallsThrowBeforeGlSeesThem() {
        try (Arena arena = Arena.ofConfined(); GlColumnBuffers buffers = new GlColumnBuffers(1)) {
            buffers.grow(0, 64, 0);
            MemorySegment column = ramp(arena, 32, 0f);
            IllegalArgumentException past = assertThrows(IllegalArgumentException.class,
                    () -> buffers.upload(0, 32, column.address(), 64));
            assertEquals("field=0 byteOffset=32 byteCount=64 capacityBytes=64 address=" + column.address(),
                    past.getMessage());
            assertThrows(IllegalArgumentException.class, () -> buffers.upload(0, 0, 0L, 4));
            assertThrows(IndexOutOfBoundsException.class, () -> buffers.upload(1, 0, column.address(), 4));
            assertThrows(IllegalArgumentException.class, () -> buffers.grow(0, 32, 64));
            assertThrows(IllegalArgumentException.class, () -> buffers.readBack(0, 0, MemorySegment.ofArray(new byte[4])));
            assertThrows(IllegalArgumentException.class, () -> new GlColumnBuffers(0));
        }
    }

    @Test
    void aClosedSetRefusesUploads() {
        GlColumnBuffers buffers = new GlColumnBuffers(1);
        buffers.grow(0, 64, 0);
        buffers.close();
        buffers.close();
        assertThrows(IllegalStateException.class, () -> buffers.upload(0, 0, 64, 4));
    }
}
