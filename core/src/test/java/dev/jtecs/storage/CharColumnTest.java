package dev.jtecs.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.jtecs.component.PrimitiveKind;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;

class CharColumnTest {
    @Test
    void rowsRoundTripThroughTheSegment() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment segment = arena.allocate(2 * 64L, 64);
            CharColumn column = new CharColumn(segment);
            assertEquals(64, column.capacityRows());
            assertEquals(PrimitiveKind.CHAR, column.kind());
            assertSame(segment, column.segment());
            assertEquals((char) 0, column.get(5));
            column.set(63, 'z');
            assertEquals('z', column.get(63));
            assertEquals((char) 0, column.get(62));
        }
    }

    @Test
    void rowsOutsideTheSegmentAreRejected() {
        try (Arena arena = Arena.ofConfined()) {
            CharColumn column = new CharColumn(arena.allocate(2 * 64L, 64));
            assertThrows(IndexOutOfBoundsException.class, () -> column.get(64));
            assertThrows(IndexOutOfBoundsException.class, () -> column.get(-1));
        }
    }

    @Test
    void segmentSizeMustBeWholeRows() {
        try (Arena arena = Arena.ofConfined()) {
            assertThrows(IllegalArgumentException.class, () -> new CharColumn(arena.allocate(2 * 64L + 1, 64)));
        }
        assertThrows(NullPointerException.class, () -> new CharColumn(null));
    }

    @Test
    void useAfterTheOwnerClosesThrows() {
        Arena arena = Arena.ofConfined();
        CharColumn column = new CharColumn(arena.allocate(2 * 64L, 64));
        arena.close();
        assertThrows(IllegalStateException.class, () -> column.get(0));
    }
}
