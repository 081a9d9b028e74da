package dev.jtecs.storage;

import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;

class ColumnTest {
    @Test
    void checkSegmentAcceptsWholeElementsOnly() {
        MemorySegment empty = MemorySegment.NULL;
        assertSame(empty, Column.checkSegment(empty, 8));
        assertThrows(NullPointerException.class, () -> Column.checkSegment(null, 4));
        MemorySegment heap = MemorySegment.ofArray(new byte[10]);
        assertThrows(IllegalArgumentException.class, () -> Column.checkSegment(heap, 4));
    }
}
