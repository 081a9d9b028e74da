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

    /** Its accessor throws {@link #failure}: a checked exception too, undeclared. */
    record Failing(int value) {
        static Throwable failure;

        @Override
        public int value() {
            throw Failing.<RuntimeException>sneaky(failure);
        }

        @SuppressWarnings("unchecked")
        private static <E extends Throwable> E sneaky(Throwable failure) throws E {
            throw (E) failure;
        }
    }

    record Ints(int value) {}

    /**
     * Where jtecs cannot spin getters (a record in a module that gives it no full-privilege access), it reads each
     * kind through method handles: the same values, and an accessor's failure passes through as it was thrown,
     * a checked one wrapped in an {@link IllegalStateException}.
     */
    @Test
    void methodHandleGettersReadEveryKindAndPassFailuresOn() {
        RecordCodec codec = RecordCodec.unspun(All.class);
        assertFalse(codec.isSpun());
        All all = new All((byte) -1, true, (short) -2, 'z', -3, -4.5f, -5L, -6.5);
        assertEquals((byte) -1, codec.getByte(all, 0));
        assertTrue(codec.getBoolean(all, 1));
        assertEquals((short) -2, codec.getShort(all, 2));
        assertEquals('z', codec.getChar(all, 3));
        assertEquals(-3, codec.getInt(all, 4));
        assertEquals(-4.5f, codec.getFloat(all, 5));
        assertEquals(-5L, codec.getLong(all, 6));
        assertEquals(-6.5, codec.getDouble(all, 7));
        assertTrue(RecordCodec.of(All.class).isSpun(), "the cached codec is still the spun one");

        assertEquals(7, RecordCodec.unspun(Ints.class).getInt(new Ints(7), 0));
        RecordCodec failing = RecordCodec.unspun(Failing.class);
        Failing record = new Failing(1);
        IllegalArgumentException refusal = new IllegalArgumentException("refused");
        Failing.failure = refusal;
        assertSame(refusal, assertThrows(IllegalArgumentException.class, () -> failing.getInt(record, 0)));
        StackOverflowError error = new StackOverflowError();
        Failing.failure = error;
        assertSame(error, assertThrows(StackOverflowError.class, () -> failing.getInt(record, 0)));
        java.io.IOException checked = new java.io.IOException("checked");
        Failing.failure = checked;
        IllegalStateException wrapped = assertThrows(IllegalStateException.class, () -> failing.getInt(record, 0));
        assertSame(checked, wrapped.getCause());
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

    /** The values 1, 2, 3, ... for every component of a record, boxed, in order. */
    static Object[] countingValues(Class<?> type) {
        java.lang.reflect.RecordComponent[] parts = type.getRecordComponents();
        Object[] values = new Object[parts.length];
        for (int i = 0; i < parts.length; i++) {
            values[i] = parts[i].getType() == long.class ? (Object) (long) (i + 1) : (Object) (i + 1);
        }
        return values;
    }

    // issue 18, smaller item: records with the most fields the JVM allows failed with a JDK-internal message
    @Test
    void aRecordWiderThanAConstructorHandleTakesIsRefusedNamingItAndTheLimit() {
        for (Class<?> widest : List.of(WideRecords.Ints254.class, WideRecords.Longs127.class)) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RecordCodec.of(widest));
            assertTrue(e.getMessage().startsWith("record " + widest.getName() + " has "), e.getMessage());
            assertTrue(e.getMessage().contains("taking 254 parameter slots"), e.getMessage());
            assertTrue(e.getMessage().contains("of at most 253 slots: split the record"), e.getMessage());
            assertFalse(e.getMessage().contains("bad parameter count"), e.getMessage());
            assertEquals(null, e.getCause(), "no JDK-internal cause");
        }
        assertEquals(253, RecordCodec.MAX_CONSTRUCTOR_SLOTS);
        for (Class<?> widestTaken : List.of(WideRecords.Ints253.class, WideRecords.Longs126Int1.class)) {
            RecordCodec codec = RecordCodec.of(widestTaken); // the limit is the real one: one slot less works
            Object[] values = countingValues(widestTaken);
            Object record = codec.construct(values);
            int last = codec.fieldCount() - 1;
            assertEquals(((Number) values[last]).longValue(), codec.kind(last) == PrimitiveKind.LONG
                    ? codec.getLong(record, last) : codec.getInt(record, last));
            Class<?>[] types = java.util.Arrays.stream(widestTaken.getRecordComponents())
                    .map(java.lang.reflect.RecordComponent::getType).toArray(Class<?>[]::new);
            assertEquals(253, RecordCodec.slots(types));
        }
    }
}
