package dev.jtecs.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.jtecs.component.PrimitiveKind;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;

class BooleanColumnTest {
    @Test
    void rowsRoundTripThroughTheSegment() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment segment = arena.allocate(1 * 64L, 64);
            BooleanColumn column = new BooleanColumn(segment);
            assertEquals(64, column.capacityRows());
            assertEquals(PrimitiveKind.BOOLEAN, column.kind());
            assertSame(segment, column.segment());
            assertEquals(false, column.get(5));
            column.set(63, true);
            assertEquals(true, column.get(63));
            assertEquals(false, column.get(62));
        }
    }

    @Test
    void rowsOutsideTheSegmentAreRejected() {
        try (Arena arena = Arena.ofConfined()) {
            BooleanColumn column = new BooleanColumn(arena.allocate(1 * 64L, 64));
            assertThrows(IndexOutOfBoundsException.class, () -> column.get(64));
            assertThrows(IndexOutOfBoundsException.class, () -> column.get(-1));
        }
    }

    @Test
    void useAfterTheOwnerClosesThrows() {
        Arena arena = Arena.ofConfined();
        BooleanColumn column = new BooleanColumn(arena.allocate(1 * 64L, 64));
        arena.close();
        assertThrows(IllegalStateException.class, () -> column.get(0));
    }
}
