package dev.jtecs.storage.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.component.internal.RecordCodec;
import org.junit.jupiter.api.Test;

class RecordWritersTest {
    record All(byte b, boolean z, short s, char c, int i, float f, long l, double d) {}

    private record Hidden(int secret) {}

    /** A record whose last accessor throws while {@code armed} is set. */
    record Fused(int first, double second) {
        static boolean armed;

        @Override
        public double second() {
            if (armed) {
                throw new IllegalStateException("accessor");
            }
            return second;
        }
    }

    @Test
    void oneWriterPerRecordType() {
        assertSame(RecordWriters.of(RecordCodec.of(All.class)), RecordWriters.of(RecordCodec.of(All.class)));
    }

    @Test
    void writeAllStoresEveryKindIntoItsOwnColumnAtTheRowThroughASpunWriter() {
        All value = new All((byte) -3, true, (short) -300, 'q', 123456, 1.5f, -9L, 2.25);
        RecordWriter writer = RecordWriters.of(RecordCodec.of(All.class));
        assertNotNull(writer);
        try (java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofConfined()) {
            java.lang.foreign.MemorySegment[] columns = columns(arena, 11);
            writer.write(value, columns, 3, 2); // fields go to columns 3..10, row 2
            assertEquals((byte) -3, columns[3].getAtIndex(java.lang.foreign.ValueLayout.JAVA_BYTE, 2));
            assertTrue(columns[4].getAtIndex(java.lang.foreign.ValueLayout.JAVA_BOOLEAN, 2));
            assertEquals((short) -300, columns[5].getAtIndex(java.lang.foreign.ValueLayout.JAVA_SHORT, 2));
            assertEquals('q', columns[6].getAtIndex(java.lang.foreign.ValueLayout.JAVA_CHAR, 2));
            assertEquals(123456, columns[7].getAtIndex(java.lang.foreign.ValueLayout.JAVA_INT, 2));
            assertEquals(1.5f, columns[8].getAtIndex(java.lang.foreign.ValueLayout.JAVA_FLOAT, 2));
            assertEquals(-9L, columns[9].getAtIndex(java.lang.foreign.ValueLayout.JAVA_LONG, 2));
            assertEquals(2.25, columns[10].getAtIndex(java.lang.foreign.ValueLayout.JAVA_DOUBLE, 2));
            for (int c = 0; c < 3; c++) {
                assertEquals(0L, columns[c].get(java.lang.foreign.ValueLayout.JAVA_LONG, 16), "columns before base");
            }
            assertEquals(0, columns[7].getAtIndex(java.lang.foreign.ValueLayout.JAVA_INT, 1), "other rows");
            assertThrows(IndexOutOfBoundsException.class, () -> writer.write(value, columns, 3, 1_000));
        }
    }

    /**
     * {@code writeAt} stores each field at its column's address plus the row times the field's width, the bits
     * {@code write} stores (a NaN's payload, {@code true} as 1, a char's 16 bits), in the cached writer and a fresh
     * spin alike, and touches nothing else; an accessor that throws leaves the row as it was. It needs the segment
     * that spans memory, so it runs where {@link RawRows#ENABLED}: the default execution; the checked-rows one,
     * which never calls it (records go through {@code write} there, bits through the column segments), checks that it
     * is that execution.
     */
    @Test
    void writeAtStoresWhatWriteStoresAtEachColumnsAddress() throws Throwable {
        if (!RawRows.ENABLED) {
            assertTrue(Boolean.getBoolean("jtecs.checkedRows"), "RawRows is off only in the checked-rows execution");
            return;
        }
        All value = new All((byte) -3, true, (short) -300, '\uffff', 123456, Float.intBitsToFloat(0x7fc00001),
                -9L << 33, Double.longBitsToDouble(0x7FF8_0000_0000_1234L));
        RecordCodec codec = RecordCodec.of(All.class);
        for (RecordWriter writer : new RecordWriter[] {RecordWriters.of(codec), RecordWriters.spinFor(codec)}) {
            try (java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofConfined()) {
                java.lang.foreign.MemorySegment[] byAddress = columns(arena, 11);
                java.lang.foreign.MemorySegment[] bySegment = columns(arena, 11);
                long[] addresses = addressesOf(byAddress);
                writer.writeAt(value, addresses, 3, 2); // fields go to columns 3..10, row 2
                writer.write(value, bySegment, 3, 2);
                for (int c = 0; c < byAddress.length; c++) {
                    assertEquals(-1L, byAddress[c].mismatch(bySegment[c]), "column " + c + ": what write stores");
                }
                assertEquals(0x7FF8_0000_0000_1234L, byAddress[10].getAtIndex(
                        java.lang.foreign.ValueLayout.JAVA_LONG, 2), "raw bits");
                assertEquals((short) -1, byAddress[6].getAtIndex(java.lang.foreign.ValueLayout.JAVA_SHORT, 2));
                assertEquals(1, byAddress[4].get(java.lang.foreign.ValueLayout.JAVA_BYTE, 2), "true as 1");
                assertEquals(123456, byAddress[7].getAtIndex(java.lang.foreign.ValueLayout.JAVA_INT, 2));
                assertEquals(0, byAddress[7].getAtIndex(java.lang.foreign.ValueLayout.JAVA_INT, 1), "other rows");
                assertEquals(0, byAddress[7].getAtIndex(java.lang.foreign.ValueLayout.JAVA_INT, 3), "other rows");
            }
        }
        RecordWriter writer = RecordWriters.of(RecordCodec.of(Fused.class));
        assertAThrowingAccessorLeavesRowTwo((columns, fused) -> writer.writeAt(fused,
                new long[] {columns[0].address(), columns[1].address()}, 0, 2));
    }

    /**
     * Writes {@code Fused(7, 0.5)} into row 2 of two fresh columns with {@code write}, then {@code Fused(9, 1.5)}
     * with its accessor armed to throw, and finds the first value whole.
     */
    private static void assertAThrowingAccessorLeavesRowTwo(
            java.util.function.BiConsumer<java.lang.foreign.MemorySegment[], Fused> write) {
        try (java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofConfined()) {
            java.lang.foreign.MemorySegment[] columns = {arena.allocate(4 * 4, 8), arena.allocate(8 * 4, 8)};
            write.accept(columns, new Fused(7, 0.5));
            Fused.armed = true;
            try {
                assertThrows(IllegalStateException.class, () -> write.accept(columns, new Fused(9, 1.5)));
            } finally {
                Fused.armed = false;
            }
            assertEquals(7, columns[0].getAtIndex(java.lang.foreign.ValueLayout.JAVA_INT, 2), "no torn first field");
            assertEquals(0.5, columns[1].getAtIndex(java.lang.foreign.ValueLayout.JAVA_DOUBLE, 2));
        }
    }

    @Test
    void aPrivateRecordGetsASpunWriterToo() {
        RecordWriter hidden = RecordWriters.of(RecordCodec.of(Hidden.class));
        assertNotNull(hidden);
        try (java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofConfined()) {
            java.lang.foreign.MemorySegment[] one = {arena.allocate(16, 8)};
            hidden.write(new Hidden(41), one, 0, 3);
            assertEquals(41, one[0].getAtIndex(java.lang.foreign.ValueLayout.JAVA_INT, 3));
        }
    }

    @Test
    void anAccessorThatThrowsLeavesTheRowAsItWas() {
        RecordWriter writer = RecordWriters.of(RecordCodec.of(Fused.class));
        assertNotNull(writer);
        assertAThrowingAccessorLeavesRowTwo((columns, fused) -> writer.write(fused, columns, 0, 2));
    }

    /**
     * {@link RecordWriters#spinFor} and {@link RecordWriters#spin} called directly: {@link RecordWriters#of} spins
     * once per record type for the life of the JVM (a class value), so only a direct call shows what a fresh spin
     * builds.
     */
    @Test
    void aFreshSpinStoresEveryKindAtItsColumnAndRowAndReadsEveryAccessorFirst() throws Throwable {
        RecordCodec codec = RecordCodec.of(All.class);
        RecordWriter spun = RecordWriters.spinFor(codec);
        assertNotNull(spun);
        assertTrue(spun != RecordWriters.of(codec), "a class of its own");
        try (java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofConfined()) {
            java.lang.foreign.MemorySegment[] columns = columns(arena, 10);
            spun.write(new All((byte) 7, true, (short) 700, 'z', -70_000, -7.5f, 7L << 40, -0.125), columns, 2, 3);
            assertEquals((byte) 7, columns[2].getAtIndex(java.lang.foreign.ValueLayout.JAVA_BYTE, 3));
            assertTrue(columns[3].getAtIndex(java.lang.foreign.ValueLayout.JAVA_BOOLEAN, 3));
            assertEquals((short) 700, columns[4].getAtIndex(java.lang.foreign.ValueLayout.JAVA_SHORT, 3));
            assertEquals('z', columns[5].getAtIndex(java.lang.foreign.ValueLayout.JAVA_CHAR, 3));
            assertEquals(-70_000, columns[6].getAtIndex(java.lang.foreign.ValueLayout.JAVA_INT, 3));
            assertEquals(-7.5f, columns[7].getAtIndex(java.lang.foreign.ValueLayout.JAVA_FLOAT, 3));
            assertEquals(7L << 40, columns[8].getAtIndex(java.lang.foreign.ValueLayout.JAVA_LONG, 3));
            assertEquals(-0.125, columns[9].getAtIndex(java.lang.foreign.ValueLayout.JAVA_DOUBLE, 3));
            for (int c = 0; c < 2; c++) {
                for (int row = 0; row < 4; row++) {
                    assertEquals(0L, columns[c].getAtIndex(java.lang.foreign.ValueLayout.JAVA_LONG, row),
                            "columns before base");
                }
            }
        }

        RecordCodec fused = RecordCodec.of(Fused.class);
        RecordWriter guarded = RecordWriters.spin(new dev.jtecs.component.PrimitiveKind[] {fused.kind(0), fused.kind(1)},
                new java.lang.invoke.MethodHandle[] {fused.getterHandle(0), fused.getterHandle(1)});
        try (java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofConfined()) {
            java.lang.foreign.MemorySegment[] columns = {arena.allocate(4 * 4, 8), arena.allocate(8 * 4, 8)};
            guarded.write(new Fused(7, 0.5), columns, 0, 1);
            Fused.armed = true;
            try {
                assertThrows(IllegalStateException.class, () -> guarded.write(new Fused(9, 1.5), columns, 0, 1));
            } finally {
                Fused.armed = false;
            }
            assertEquals(7, columns[0].getAtIndex(java.lang.foreign.ValueLayout.JAVA_INT, 1), "no torn first field");
            assertEquals(0.5, columns[1].getAtIndex(java.lang.foreign.ValueLayout.JAVA_DOUBLE, 1));
        }
    }

    /**
     * {@code stage} stores into one heap array per field, at the index, the bits {@code write} stores into a column
     * (floats and doubles as raw bits, booleans as 0 or 1, chars as their short bits), in a fresh spin and in the
     * cached writer alike; an accessor that throws leaves every array as it was.
     */
    @Test
    void stageStoresEveryKindsBitsIntoItsArrayAtTheIndexAsWriteDoes() throws Throwable {
        All value = new All((byte) -3, true, (short) -300, 'q', 123456, -1.5f, -9L << 33, Double.longBitsToDouble(
                0x7FF8_0000_0000_1234L)); // a NaN with a payload: raw bits, not the canonical NaN
        RecordCodec codec = RecordCodec.of(All.class);
        for (RecordWriter writer : new RecordWriter[] {RecordWriters.of(codec), RecordWriters.spinFor(codec)}) {
            Object[] arrays = {new byte[4], new byte[4], new short[4], new short[4], new int[4], new int[4],
                new long[4], new long[4]};
            writer.stage(value, arrays, 2);
            try (java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofConfined()) {
                java.lang.foreign.MemorySegment[] columns = columns(arena, 8);
                writer.write(value, columns, 0, 2);
                java.lang.foreign.ValueLayout[] widths = {java.lang.foreign.ValueLayout.JAVA_BYTE,
                    java.lang.foreign.ValueLayout.JAVA_BYTE, java.lang.foreign.ValueLayout.JAVA_SHORT,
                    java.lang.foreign.ValueLayout.JAVA_SHORT, java.lang.foreign.ValueLayout.JAVA_INT,
                    java.lang.foreign.ValueLayout.JAVA_INT, java.lang.foreign.ValueLayout.JAVA_LONG,
                    java.lang.foreign.ValueLayout.JAVA_LONG};
                for (int f = 0; f < arrays.length; f++) {
                    java.lang.foreign.MemorySegment staged = switch (arrays[f]) {
                        case byte[] b -> java.lang.foreign.MemorySegment.ofArray(b);
                        case short[] sh -> java.lang.foreign.MemorySegment.ofArray(sh);
                        case int[] in -> java.lang.foreign.MemorySegment.ofArray(in);
                        default -> java.lang.foreign.MemorySegment.ofArray((long[]) arrays[f]);
                    };
                    long size = widths[f].byteSize();
                    assertEquals(-1L, staged.asSlice(2 * size, size).mismatch(columns[f].asSlice(2 * size, size)),
                            "field " + f + ": the same bits as write");
                    assertEquals(-1L, staged.asSlice(0, 2 * size).mismatch(
                            java.lang.foreign.MemorySegment.ofArray(new long[2]).asSlice(0, 2 * size)),
                            "field " + f + ": other indexes untouched");
                }
            }
            assertEquals(0x7FF8_0000_0000_1234L, ((long[]) arrays[7])[2], "raw bits");
            assertEquals(1, ((byte[]) arrays[1])[2], "true as 1");
        }
        RecordWriter writer = RecordWriters.of(RecordCodec.of(Fused.class));
        Object[] arrays = {new int[3], new long[3]};
        writer.stage(new Fused(7, 0.5), arrays, 1);
        Fused.armed = true;
        try {
            assertThrows(IllegalStateException.class, () -> writer.stage(new Fused(9, 1.5), arrays, 1));
        } finally {
            Fused.armed = false;
        }
        assertEquals(7, ((int[]) arrays[0])[1], "no torn first field");
        assertEquals(Double.doubleToRawLongBits(0.5), ((long[]) arrays[1])[1]);
        assertThrows(ArrayIndexOutOfBoundsException.class, () -> writer.stage(new Fused(1, 1), arrays, 3));
    }

    /** {@code stageBits} stores what {@code bits} read as {@code stage} stores the record, at the index only. */
    @Test
    void stageBitsStoresWhatStageStoresForTheRecordTheBitsCameFrom() throws Throwable {
        All value = new All((byte) -3, true, (short) -300, '\uffff', -123456, Float.intBitsToFloat(0xffc00001),
                -9L << 33, Double.longBitsToDouble(0xFFF8_0000_0000_1234L));
        RecordCodec codec = RecordCodec.of(All.class);
        for (RecordWriter writer : new RecordWriter[] {RecordWriters.of(codec), RecordWriters.spinFor(codec)}) {
            Object[] fromBits = {new byte[4], new byte[4], new short[4], new short[4], new int[4], new int[4],
                new long[4], new long[4]};
            Object[] fromRecord = {new byte[4], new byte[4], new short[4], new short[4], new int[4], new int[4],
                new long[4], new long[4]};
            long[] bits = new long[8];
            writer.bits(value, bits);
            writer.stageBits(bits, fromBits, 2);
            writer.stage(value, fromRecord, 2);
            for (int f = 0; f < fromBits.length; f++) {
                assertTrue(java.util.Objects.deepEquals(fromBits[f], fromRecord[f]), "field " + f);
            }
            assertEquals(-123456, ((int[]) fromBits[4])[2]);
            assertEquals(0, ((int[]) fromBits[4])[1], "other indexes untouched");
            assertEquals(0, ((int[]) fromBits[4])[3], "other indexes untouched");
            assertThrows(ArrayIndexOutOfBoundsException.class, () -> writer.stageBits(bits, fromBits, 4));
        }
    }

    /**
     * {@code bits} reads every field, widened to a long, whose low bytes are the bits {@code write} stores (a NaN's
     * payload, {@code true} as 1, a char's 16 bits), into {@code out[f]} and nothing past the fields, in the cached
     * writer and a fresh spin alike; an accessor that throws leaves the array as it was.
     */
    @Test
    void bitsReadsEveryFieldsBitsIntoOneLongEachAsWriteStoresThem() throws Throwable {
        All value = new All((byte) -3, true, (short) -300, '\uffff', 123456, Float.intBitsToFloat(0x7fc00001),
                -9L << 33, Double.longBitsToDouble(0x7FF8_0000_0000_1234L));
        RecordCodec codec = RecordCodec.of(All.class);
        for (RecordWriter writer : new RecordWriter[] {RecordWriters.of(codec), RecordWriters.spinFor(codec)}) {
            long[] out = new long[9];
            out[8] = 77;
            writer.bits(value, out);
            try (java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofConfined()) {
                java.lang.foreign.MemorySegment[] columns = columns(arena, 8);
                writer.write(value, columns, 0, 1);
                for (int f = 0; f < 8; f++) {
                    long size = codec.kind(f).byteSize();
                    java.lang.foreign.MemorySegment low = java.lang.foreign.MemorySegment.ofArray(new long[] {out[f]})
                            .asSlice(0, size); // little-endian: the low bytes first
                    assertEquals(-1L, low.mismatch(columns[f].asSlice(size, size)), "field " + f + ": write's bits");
                }
            }
            assertEquals(0x7FF8_0000_0000_1234L, out[7], "raw bits");
            assertEquals(0x7fc00001, (int) out[5], "a float's raw bits");
            assertEquals(1L, out[1], "true as 1");
            assertEquals(0xffff, (int) out[3] & 0xffff, "a char's 16 bits");
            assertEquals(77, out[8], "nothing past the fields");
        }
        RecordWriter writer = RecordWriters.of(RecordCodec.of(Fused.class));
        long[] out = new long[2];
        writer.bits(new Fused(7, 0.5), out);
        Fused.armed = true;
        try {
            assertThrows(IllegalStateException.class, () -> writer.bits(new Fused(9, 1.5), out));
        } finally {
            Fused.armed = false;
        }
        assertEquals(7, out[0], "no torn first field");
        assertEquals(Double.doubleToRawLongBits(0.5), out[1]);
        assertThrows(ArrayIndexOutOfBoundsException.class, () -> writer.bits(new Fused(1, 1), new long[1]));
    }

    /**
     * {@code writeBitsAt} stores what {@code bits} read at each column's address plus the row times the field's
     * width: the same bytes {@code writeAt} stores for the record, and nothing beside them. Where
     * {@link RawRows#ENABLED} only, as {@code writeAt}.
     */
    @Test
    void writeBitsAtStoresWhatWriteAtStoresForTheRecordTheBitsCameFrom() throws Throwable {
        if (!RawRows.ENABLED) {
            assertTrue(Boolean.getBoolean("jtecs.checkedRows"), "RawRows is off only in the checked-rows execution");
            return;
        }
        All value = new All((byte) -3, true, (short) -300, '\uffff', -123456, Float.intBitsToFloat(0xffc00001),
                -9L << 33, Double.longBitsToDouble(0xFFF8_0000_0000_1234L));
        RecordCodec codec = RecordCodec.of(All.class);
        for (RecordWriter writer : new RecordWriter[] {RecordWriters.of(codec), RecordWriters.spinFor(codec)}) {
            try (java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofConfined()) {
                java.lang.foreign.MemorySegment[] fromBits = columns(arena, 11);
                java.lang.foreign.MemorySegment[] fromRecord = columns(arena, 11);
                long[] bitsAddresses = addressesOf(fromBits);
                long[] recordAddresses = addressesOf(fromRecord);
                long[] bits = new long[8];
                writer.bits(value, bits);
                writer.writeBitsAt(bits, bitsAddresses, 3, 2); // fields go to columns 3..10, row 2
                writer.writeAt(value, recordAddresses, 3, 2);
                for (int c = 0; c < fromBits.length; c++) {
                    assertEquals(-1L, fromBits[c].mismatch(fromRecord[c]), "column " + c + ": what writeAt stores");
                }
                assertEquals(-123456, fromBits[7].getAtIndex(java.lang.foreign.ValueLayout.JAVA_INT, 2));
                assertEquals(0, fromBits[7].getAtIndex(java.lang.foreign.ValueLayout.JAVA_INT, 3), "other rows");
                assertEquals((byte) -3, fromBits[3].get(java.lang.foreign.ValueLayout.JAVA_BYTE, 2));
                assertEquals(0, fromBits[3].get(java.lang.foreign.ValueLayout.JAVA_BYTE, 3), "one byte, not eight");
            }
        }
    }

    /** {@code count} zeroed columns of four 8-byte rows, every width's element fitting a row. */
    private static java.lang.foreign.MemorySegment[] columns(java.lang.foreign.Arena arena, int count) {
        java.lang.foreign.MemorySegment[] columns = new java.lang.foreign.MemorySegment[count];
        for (int c = 0; c < count; c++) {
            columns[c] = arena.allocate(8 * 4, 8);
        }
        return columns;
    }

    /** The columns' base addresses, as {@code writeAt} and {@code writeBitsAt} take them. */
    private static long[] addressesOf(java.lang.foreign.MemorySegment[] columns) {
        long[] addresses = new long[columns.length];
        for (int c = 0; c < columns.length; c++) {
            addresses[c] = columns[c].address();
        }
        return addresses;
    }
}
