package dev.jtecs.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;

class ColumnTest {
    /** Rows compared and copied may reach either view's capacity, and not past it; kinds must match. */
    @Test
    void pairsOfViewsAreCheckedAgainstBothCapacitiesAndCompareFromTheFirstByte() {
        try (java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofConfined()) {
            IntColumn small = new IntColumn(arena.allocate(4 * 64L, 64));
            IntColumn large = new IntColumn(arena.allocate(4 * 128L, 64));
            for (int row = 0; row < 64; row++) {
                small.set(row, row);
            }
            small.copyRowsTo(large, 64); // exactly the smaller capacity
            assertTrue(large.sameRows(small, 64));
            assertTrue(small.sameRows(large, 0), "no rows: the same");
            for (int rows : new int[] {-1, 65}) {
                assertThrows(IllegalArgumentException.class, () -> small.sameRows(large, rows), "rows " + rows);
                assertThrows(IllegalArgumentException.class, () -> large.sameRows(small, rows), "rows " + rows);
                assertThrows(IllegalArgumentException.class, () -> large.copyRowsTo(small, rows), "rows " + rows);
            }
            large.set(0, -1); // the rows differ in their first byte
            assertFalse(large.sameRows(small, 64));
            assertFalse(small.sameRows(large, 1));
            FloatColumn floats = new FloatColumn(arena.allocate(4 * 64L, 64));
            assertThrows(IllegalArgumentException.class, () -> small.sameRows(floats, 1), "kinds differ");
            assertEquals(-1, large.get(0), "a refused copy wrote nothing");
        }
    }

    @Test
    void checkSegmentAcceptsWholeElementsOnly() {
        MemorySegment empty = MemorySegment.NULL;
        assertSame(empty, Column.checkSegment(empty, 8));
        assertThrows(NullPointerException.class, () -> Column.checkSegment(null, 4));
        MemorySegment heap = MemorySegment.ofArray(new byte[10]);
        assertThrows(IllegalArgumentException.class, () -> Column.checkSegment(heap, 4));
    }
}
