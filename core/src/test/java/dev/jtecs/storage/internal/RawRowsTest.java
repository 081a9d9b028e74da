package dev.jtecs.storage.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;

/** Runs in the default test execution, where native access is enabled and the raw copies are taken. */
class RawRowsTest {
    @Test
    void theRawWayIsTakenWhereNativeAccessIsEnabled() {
        assertTrue(RawRows.ENABLED, "the suite runs with --enable-native-access=ALL-UNNAMED, as the launcher does");
    }

    @Test
    void anAddressIsGivenOnlyForAnElementInsideALiveSegment() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment column = arena.allocate(64, 8);
            assertEquals(column.address(), RawRows.at(column, 0, 8));
            assertEquals(column.address() + 60, RawRows.at(column, 60, 4), "the last int");
            assertEquals(column.address() + 56, RawRows.at(column, 56, 8), "the last long");
            for (long offset : new long[] {-4, 61, 64, Long.MAX_VALUE - 2}) {
                var outside = assertThrows(IndexOutOfBoundsException.class, () -> RawRows.at(column, offset, 4));
                assertTrue(outside.getMessage().contains("outside its column"), outside.getMessage());
            }
            assertThrows(IndexOutOfBoundsException.class, () -> RawRows.at(column, 57, 8), "a long past the end");
        }
    }

    @Test
    void aHeapSegmentGivesNoAddress() {
        MemorySegment heap = MemorySegment.ofArray(new int[16]);
        var thrown = assertThrows(IllegalStateException.class, () -> RawRows.at(heap, 0, 4));
        assertTrue(thrown.getMessage().contains("heap segment"), thrown.getMessage());
        assertThrows(IllegalStateException.class, () -> RawRows.storeInt(heap, 1, 7));
        assertEquals(0, heap.getAtIndex(ValueLayout.JAVA_INT, 1), "nothing written");
    }

    @Test
    void aFreedSegmentGivesNoAddress() {
        MemorySegment freed;
        try (Arena arena = Arena.ofShared()) {
            freed = arena.allocate(64, 8);
        }
        var thrown = assertThrows(IllegalStateException.class, () -> RawRows.at(freed, 0, 4));
        assertTrue(thrown.getMessage().contains("(freed)"), thrown.getMessage());
    }

    @Test
    void copiesMoveExactlyOneElement() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment ints = arena.allocate(16, 8);
            MemorySegment longs = arena.allocate(32, 8);
            ints.setAtIndex(ValueLayout.JAVA_INT, 1, 0xCAFE_BABE);
            longs.setAtIndex(ValueLayout.JAVA_LONG, 0, 0x0123_4567_89AB_CDEFL);
            RawRows.copyInt(RawRows.at(ints, 4, 4), RawRows.at(ints, 12, 4));
            RawRows.copyLong(RawRows.at(longs, 0, 8), RawRows.at(longs, 16, 8));
            assertEquals(0xCAFE_BABE, ints.getAtIndex(ValueLayout.JAVA_INT, 3));
            assertEquals(0, ints.getAtIndex(ValueLayout.JAVA_INT, 2), "its neighbours untouched");
            assertEquals(0x0123_4567_89AB_CDEFL, longs.getAtIndex(ValueLayout.JAVA_LONG, 2));
            assertEquals(0, longs.getAtIndex(ValueLayout.JAVA_LONG, 1));
            assertEquals(0, longs.getAtIndex(ValueLayout.JAVA_LONG, 3));
        }
    }

    @Test
    void storesWriteEveryKindAtItsRowAndRefuseARowPastTheColumn() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment bytes = arena.allocate(4, 8);
            MemorySegment shorts = arena.allocate(8, 8);
            MemorySegment ints = arena.allocate(16, 8);
            MemorySegment longs = arena.allocate(32, 8);
            RawRows.storeByte(bytes, 1, (byte) -5);
            RawRows.storeBoolean(bytes, 2, true);
            RawRows.storeShort(shorts, 1, (short) -300);
            RawRows.storeChar(shorts, 2, 'q');
            RawRows.storeInt(ints, 1, -40);
            RawRows.storeFloat(ints, 3, 2.5f);
            RawRows.storeLong(longs, 1, Long.MIN_VALUE);
            RawRows.storeDouble(longs, 3, -0.125);
            assertEquals(-5, bytes.get(ValueLayout.JAVA_BYTE, 1));
            assertEquals(true, bytes.get(ValueLayout.JAVA_BOOLEAN, 2));
            assertEquals(0, bytes.get(ValueLayout.JAVA_BYTE, 0), "row 0 untouched");
            assertEquals(-300, shorts.getAtIndex(ValueLayout.JAVA_SHORT, 1));
            assertEquals('q', shorts.getAtIndex(ValueLayout.JAVA_CHAR, 2));
            assertEquals(-40, ints.getAtIndex(ValueLayout.JAVA_INT, 1));
            assertEquals(2.5f, ints.getAtIndex(ValueLayout.JAVA_FLOAT, 3));
            assertEquals(Long.MIN_VALUE, longs.getAtIndex(ValueLayout.JAVA_LONG, 1));
            assertEquals(-0.125, longs.getAtIndex(ValueLayout.JAVA_DOUBLE, 3));
            assertEquals(0, longs.getAtIndex(ValueLayout.JAVA_LONG, 2), "row 2 untouched");
            assertThrows(IndexOutOfBoundsException.class, () -> RawRows.storeInt(ints, 4, 1));
            assertThrows(IndexOutOfBoundsException.class, () -> RawRows.storeDouble(longs, -1, 1));
            assertThrows(IndexOutOfBoundsException.class, () -> RawRows.storeByte(bytes, 4, (byte) 1));
        }
    }
}
