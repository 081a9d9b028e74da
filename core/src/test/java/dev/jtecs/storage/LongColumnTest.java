package dev.jtecs.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.jtecs.component.PrimitiveKind;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;

class LongColumnTest {
    @Test
    void rowsRoundTripThroughTheSegment() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment segment = arena.allocate(8 * 64L, 64);
            LongColumn column = new LongColumn(segment);
            assertEquals(64, column.capacityRows());
            assertEquals(PrimitiveKind.LONG, column.kind());
            assertSame(segment, column.segment());
            assertEquals(0L, column.get(5));
            column.set(63, Long.MIN_VALUE + 3);
            assertEquals(Long.MIN_VALUE + 3, column.get(63));
            assertEquals(0L, column.get(62));
        }
    }

    @Test
    void rowsOutsideTheSegmentAreRejected() {
        try (Arena arena = Arena.ofConfined()) {
            LongColumn column = new LongColumn(arena.allocate(8 * 64L, 64));
            assertThrows(IndexOutOfBoundsException.class, () -> column.get(64));
            assertThrows(IndexOutOfBoundsException.class, () -> column.get(-1));
        }
    }

    @Test
    void segmentSizeMustBeWholeRows() {
        try (Arena arena = Arena.ofConfined()) {
            assertThrows(IllegalArgumentException.class, () -> new LongColumn(arena.allocate(8 * 64L + 1, 64)));
        }
        assertThrows(NullPointerException.class, () -> new LongColumn(null));
    }

    @Test
    void useAfterTheOwnerClosesThrows() {
        Arena arena = Arena.ofConfined();
        LongColumn column = new LongColumn(arena.allocate(8 * 64L, 64));
        arena.close();
        assertThrows(IllegalStateException.class, () -> column.get(0));
    }
}
