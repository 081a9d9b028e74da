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
}
