package dev.jtecs.component.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.component.PrimitiveKind;
import java.util.List;
import org.junit.jupiter.api.Test;

class RecordCodecTest {
    record All(byte b, boolean z, short s, char c, int i, float f, long l, double d) {}

    private record Hidden(int secret) {}

    record NotPrimitive(String s) {}

    @Test
    void readsEveryPrimitiveKindWithoutBoxing() {
        All value = new All((byte) -3, true, (short) -300, 'q', 123456, 1.5f, -9L, 2.25);
        RecordCodec codec = RecordCodec.of(All.class);
        assertEquals(8, codec.fieldCount());
        assertEquals((byte) -3, codec.getByte(value, 0));
        assertTrue(codec.getBoolean(value, 1));
        assertEquals((short) -300, codec.getShort(value, 2));
        assertEquals('q', codec.getChar(value, 3));
        assertEquals(123456, codec.getInt(value, 4));
        assertEquals(1.5f, codec.getFloat(value, 5));
        assertEquals(-9L, codec.getLong(value, 6));
        assertEquals(2.25, codec.getDouble(value, 7));
        assertEquals(PrimitiveKind.CHAR, codec.kind(3));
        assertArrayEquals(new String[] {"b", "z", "s", "c", "i", "f", "l", "d"}, codec.names());
    }

    @Test
    void constructsFromBoxedFields() {
        RecordCodec codec = RecordCodec.of(All.class);
        Object built = codec.construct(new Object[] {(byte) 1, false, (short) 2, 'x', 3, 4f, 5L, 6d});
        assertEquals(new All((byte) 1, false, (short) 2, 'x', 3, 4f, 5L, 6d), built);
        assertThrows(IllegalArgumentException.class, () -> codec.construct(new Object[] {1}));
    }

    @Test
    void isCachedPerClassAndSpinsFastGettersOnTheClassPath() {
        assertSame(RecordCodec.of(All.class), RecordCodec.of(All.class));
        assertTrue(RecordCodec.of(All.class).isSpun());
        assertEquals(All.class, RecordCodec.of(All.class).type());
    }

    @Test
    void handlesPrivateRecords() {
        RecordCodec codec = RecordCodec.of(Hidden.class);
        assertEquals(41, codec.getInt(new Hidden(41), 0));
        assertEquals(new Hidden(9), codec.construct(new Object[] {9}));
    }

    @Test
    void rejectsNonRecordsAndReferenceFields() {
        assertThrows(IllegalArgumentException.class, () -> RecordCodec.of(String.class));
        assertThrows(IllegalArgumentException.class, () -> RecordCodec.of(NotPrimitive.class));
        assertFalse(RecordCodec.isPrimitiveRecord(NotPrimitive.class));
        assertFalse(RecordCodec.isPrimitiveRecord(List.class));
        assertTrue(RecordCodec.isPrimitiveRecord(All.class));
    }
}
