package dev.jtecs.storage.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
    void copiesMoveExactlyOneElement() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment ints = arena.allocate(16, 8);
            MemorySegment longs = arena.allocate(32, 8);
            ints.setAtIndex(ValueLayout.JAVA_INT, 1, 0xCAFE_BABE);
            longs.setAtIndex(ValueLayout.JAVA_LONG, 0, 0x0123_4567_89AB_CDEFL);
            RawRows.copyInt(ints.address() + 4, ints.address() + 12);
            RawRows.copyLong(longs.address(), longs.address() + 16);
            assertEquals(0xCAFE_BABE, ints.getAtIndex(ValueLayout.JAVA_INT, 3));
            assertEquals(0, ints.getAtIndex(ValueLayout.JAVA_INT, 2), "its neighbours untouched");
            assertEquals(0x0123_4567_89AB_CDEFL, longs.getAtIndex(ValueLayout.JAVA_LONG, 2));
            assertEquals(0x0123_4567_89AB_CDEFL, RawRows.loadLong(longs.address() + 16));
            assertEquals(0, longs.getAtIndex(ValueLayout.JAVA_LONG, 1));
            assertEquals(0, longs.getAtIndex(ValueLayout.JAVA_LONG, 3));
        }
    }

    /** Each store writes its width's bits at the address and nothing beside it (a NaN's payload, true as 1). */
    @Test
    void storesAtAnAddressWriteEveryKindThereAndNothingElse() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment bytes = arena.allocate(4, 8);
            MemorySegment shorts = arena.allocate(8, 8);
            MemorySegment ints = arena.allocate(16, 8);
            MemorySegment longs = arena.allocate(32, 8);
            RawRows.storeByteAt(bytes.address() + 1, (byte) -5);
            RawRows.storeByteAt(bytes.address() + 2, (byte) 1); // a boolean's true
            RawRows.storeShortAt(shorts.address() + 2, (short) -300);
            RawRows.storeShortAt(shorts.address() + 4, (short) '\uffff'); // a char's 16 bits
            RawRows.storeIntAt(ints.address() + 4, -40);
            RawRows.storeIntAt(ints.address() + 12, Float.floatToRawIntBits(Float.intBitsToFloat(0x7fc0_0001)));
            RawRows.storeLongAt(longs.address() + 8, Long.MIN_VALUE);
            RawRows.storeLongAt(longs.address() + 24,
                    Double.doubleToRawLongBits(Double.longBitsToDouble(0x7ff8_0000_0000_0002L)));
            assertEquals(-5, bytes.get(ValueLayout.JAVA_BYTE, 1));
            assertEquals(1, bytes.get(ValueLayout.JAVA_BYTE, 2), "true as 1");
            assertEquals(0, bytes.get(ValueLayout.JAVA_BYTE, 0), "row 0 untouched");
            assertEquals(0, bytes.get(ValueLayout.JAVA_BYTE, 3), "row 3 untouched");
            assertEquals(-300, shorts.getAtIndex(ValueLayout.JAVA_SHORT, 1));
            assertEquals(-1, shorts.getAtIndex(ValueLayout.JAVA_SHORT, 2), "a char's 16 bits");
            assertEquals(0, shorts.getAtIndex(ValueLayout.JAVA_SHORT, 3));
            assertEquals(-40, ints.getAtIndex(ValueLayout.JAVA_INT, 1));
            assertEquals(0x7fc0_0001, ints.getAtIndex(ValueLayout.JAVA_INT, 3), "the NaN's payload");
            assertEquals(0, ints.getAtIndex(ValueLayout.JAVA_INT, 2), "row 2 untouched");
            assertEquals(Long.MIN_VALUE, longs.getAtIndex(ValueLayout.JAVA_LONG, 1));
            assertEquals(0x7ff8_0000_0000_0002L, longs.getAtIndex(ValueLayout.JAVA_LONG, 3), "the NaN's payload");
            assertEquals(0, longs.getAtIndex(ValueLayout.JAVA_LONG, 2), "row 2 untouched");
            assertEquals(0, longs.getAtIndex(ValueLayout.JAVA_LONG, 0), "row 0 untouched");
        }
    }
}
