package dev.jtecs.storage.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.component.Component;
import dev.jtecs.component.Components;
import dev.jtecs.component.ManagedComponent;
import dev.jtecs.component.NativeComponent;
import dev.jtecs.component.ScalarComponent;
import dev.jtecs.component.TagComponent;
import java.util.Arrays;
import java.util.Comparator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class TableValuesTest {
    record Blob(String s) {}

    static final NativeComponent<TableTest.Vec> VEC = TableTest.VEC;
    static final ManagedComponent<Blob> BLOB = Components.registerManaged(Blob.class);
    static final ScalarComponent.OfLong COUNT = TableTest.COUNT;
    static final TagComponent FLAG = TableTest.FLAG;

    /** A record with a field of every primitive kind, the narrow ones first. */
    record Narrow(byte b, boolean z, short s, char c, int i, float f, long l, double d) {}

    static final NativeComponent<Narrow> NARROW = Components.registerNative(Narrow.class);
    static final ScalarComponent.OfBoolean ON = Components.scalar("test.values.On", true);
    static final ScalarComponent.OfInt LEVEL = Components.scalar("test.values.Level", 7);
    static final ScalarComponent.OfDouble WEIGHT = Components.scalar("test.values.Weight", 2.5);

    private final NativeMemory memory = new NativeMemory();

    @AfterEach
    void tearDown() {
        memory.close();
    }

    /** Fills rows with consecutive ids from 100 and x = row, y = -row, blob "b"+row, count = row. */
    private static void fill(Table table, int n) {
        int from = table.appendRows(n);
        table.writeConsecutiveEntities(from, n, 100);
        for (int row = from; row < from + n; row++) {
            table.writeValue(table.position(VEC.id()), row, new TableTest.Vec(row, -row));
            if (table.has(BLOB.id())) {
                table.writeValue(table.position(BLOB.id()), row, new Blob("b" + row));
            }
            if (table.has(COUNT.id())) {
                table.writeValue(table.position(COUNT.id()), row, (long) row);
            }
        }
    }

    private Table table(Component<?>... components) {
        Component<?>[] sorted = components.clone();
        Arrays.sort(sorted, Comparator.comparingInt(Component::id));
        return new Table(1, sorted, memory);
    }

    static final NativeComponent<RecordWritersTest.Fused> FUSED = Components.registerNative(RecordWritersTest.Fused.class);

    @Test
    void aRecordWhoseAccessorThrowsLeavesTheRowAsItWasOnBothWritePaths() {
        for (boolean spun : new boolean[] {true, false}) {
            Table table = table(FUSED, COUNT);
            if (!spun) {
                table.values().forgetSpunWriters();
            }
            table.appendRow(1);
            int fused = table.position(FUSED.id());
            table.writeValue(fused, 0, new RecordWritersTest.Fused(3, 4.5));
            RecordWritersTest.Fused.armed = true;
            try {
                assertThrows(IllegalStateException.class,
                        () -> table.writeValue(fused, 0, new RecordWritersTest.Fused(8, 9.5)));
            } finally {
                RecordWritersTest.Fused.armed = false;
            }
            assertEquals(new RecordWritersTest.Fused(3, 4.5), table.readValue(fused, 0), spun ? "spun" : "by field");
            table.writeValue(fused, 0, new RecordWritersTest.Fused(-1, -2.5));
            assertEquals(new RecordWritersTest.Fused(-1, -2.5), table.readValue(fused, 0), "still writes");
        }
    }

    /**
     * {@code writePlainBits}: a plain record ({@code Vec}, {@code Narrow}: generated accessors and constructor), given
     * as its fields' bits, is written through its spun writer, bit for bit; a record with an accessor of its own
     * ({@code Fused}), a component that is not native, and any record once the spun writers are forgotten are refused
     * with nothing written, so the caller takes the general path, where that code runs.
     */
    @Test
    void onlyAPlainRecordWithASpunWriterIsWrittenAsPlain() {
        Table table = table(VEC, NARROW, FUSED, BLOB, COUNT);
        table.appendRow(1);
        int vec = table.position(VEC.id());
        int narrow = table.position(NARROW.id());
        int fused = table.position(FUSED.id());
        table.writeValue(fused, 0, new RecordWritersTest.Fused(3, 4.5));
        table.writeValue(table.position(COUNT.id()), 0, 5L);

        assertTrue(table.values().isPlainRecord(vec));
        assertFalse(table.values().isPlainRecord(fused));
        assertFalse(table.values().isPlainRecord(table.position(COUNT.id())));
        assertTrue(table.values().writePlainBits(vec, 0, TableTest.bitsOf(VEC, new TableTest.Vec(1.5f, -0.0f))));
        assertEquals(new TableTest.Vec(1.5f, -0.0f), table.readValue(vec, 0));
        Narrow every = new Narrow((byte) -3, true, (short) -4, 'q', -5, Float.intBitsToFloat(0x7fc00001), -6L,
                Double.longBitsToDouble(0x7ff8000000000002L));
        assertTrue(table.values().writePlainBits(narrow, 0, TableTest.bitsOf(NARROW, every)));
        Narrow read = (Narrow) table.readValue(narrow, 0);
        assertEquals(every, read);
        assertEquals(0x7fc00001, Float.floatToRawIntBits(read.f()), "NaN payload kept");
        assertEquals(0x7ff8000000000002L, Double.doubleToRawLongBits(read.d()), "NaN payload kept");

        assertFalse(table.values().writePlainBits(fused, 0, new long[] {8, 0}),
                "an accessor of its own: not plain");
        assertEquals(new RecordWritersTest.Fused(3, 4.5), table.readValue(fused, 0), "nothing written");
        assertFalse(table.values().writePlainBits(table.position(BLOB.id()), 0, new long[1]), "managed");
        assertFalse(table.values().writePlainBits(table.position(COUNT.id()), 0, new long[] {9}), "scalar");
        assertEquals(5L, table.readValue(table.position(COUNT.id()), 0), "nothing written");

        int capacity = table.capacityRows();
        for (int row : new int[] {-1, capacity, Integer.MAX_VALUE}) { // no row of the buffers: refused, by either way
            assertThrows(IndexOutOfBoundsException.class, () -> table.values().writePlainBits(vec, row,
                    TableTest.bitsOf(VEC, new TableTest.Vec(9, 9))), "row " + row);
            assertThrows(IndexOutOfBoundsException.class, () -> table.writeValue(narrow, row, every), "row " + row);
        }
        assertEquals(new TableTest.Vec(1.5f, -0.0f), table.readValue(vec, 0), "nothing written");
        assertEquals(every, table.readValue(narrow, 0), "nothing written");

        table.values().forgetSpunWriters();
        assertFalse(table.values().isPlainRecord(vec));
        assertFalse(table.values().writePlainBits(vec, 0, TableTest.bitsOf(VEC, new TableTest.Vec(7, 8))),
                "no spun writer");
        assertEquals(new TableTest.Vec(1.5f, -0.0f), table.readValue(vec, 0), "nothing written");
    }

    @Test
    void defaultsAndInputsWriteEveryKind() {
        Table table = table(VEC, BLOB, COUNT, FLAG);
        table.appendRow(1);
        for (int p = 0; p < table.componentCount(); p++) {
            if (table.componentAt(p) != BLOB) {
                table.values().writeDefault(p, 0);
            } else {
                table.writeInput(p, 0, BLOB.of(new Blob("z")));
            }
        }
        assertEquals(new TableTest.Vec(0, 0), table.readValue(table.position(VEC.id()), 0));
        assertEquals(3L, table.readValue(table.position(COUNT.id()), 0));
        assertEquals(Boolean.TRUE, table.readValue(table.position(FLAG.id()), 0));
        assertEquals(new Blob("z"), table.readValue(table.position(BLOB.id()), 0));
        table.writeInput(table.position(COUNT.id()), 0, COUNT.of(9L));
        assertEquals(9L, table.readValue(table.position(COUNT.id()), 0));
    }


    @Test
    void fillInputReplicatesAConstantAndZeroRowsClears() {
        Table table = table(VEC, BLOB, COUNT, FLAG);
        fill(table, 200);
        int vec = table.position(VEC.id());
        table.values().fillInput(vec, 10, 173, VEC.of(new TableTest.Vec(1.5f, 2.5f)));
        assertEquals(new TableTest.Vec(9, -9), table.readValue(vec, 9));
        for (int row = 10; row < 173; row++) {
            assertEquals(new TableTest.Vec(1.5f, 2.5f), table.readValue(vec, row));
        }
        assertEquals(new TableTest.Vec(173, -173), table.readValue(vec, 173));
        table.values().fillInput(table.position(COUNT.id()), 0, 200, COUNT);
        assertEquals(3L, table.readValue(table.position(COUNT.id()), 199), "a definition writes its default");
        Blob shared = new Blob("shared");
        table.values().fillInput(table.position(BLOB.id()), 0, 2, BLOB.of(shared));
        assertSame(shared, table.readValue(table.position(BLOB.id()), 1));
        table.values().fillInput(table.position(FLAG.id()), 0, 200, FLAG);
        table.values().zeroRows(vec, 20, 30);
        assertEquals(new TableTest.Vec(0, 0), table.readValue(vec, 25));
        assertEquals(new TableTest.Vec(1.5f, 2.5f), table.readValue(vec, 30));
        table.values().fillInput(vec, 5, 5, VEC.of(new TableTest.Vec(9, 9)));
        assertEquals(new TableTest.Vec(5, -5), table.readValue(vec, 5), "an empty range writes nothing");
    }


    @Test
    void everyPrimitiveKindRoundTripsAndIsZeroedInItsOwnWidthOnly() {
        Table table = table(NARROW, ON, LEVEL, WEIGHT);
        table.appendRows(3);
        int narrow = table.position(NARROW.id());
        Narrow a = new Narrow((byte) -7, true, (short) -30000, '\u20ac', -5, 1.25f, Long.MIN_VALUE + 3, -0.5);
        Narrow b = new Narrow(Byte.MAX_VALUE, true, Short.MAX_VALUE, '\uffff', Integer.MAX_VALUE, -2f, -1L, 1e300);
        table.writeValue(narrow, 0, a);
        table.writeValue(narrow, 1, b);
        table.writeValue(narrow, 2, a);
        assertEquals(a, table.readValue(narrow, 0));
        assertEquals(b, table.readValue(narrow, 1));
        assertEquals(a, table.readValue(narrow, 2), "no write spilled into a neighbouring row");
        table.values().writeDefault(narrow, 1); // no default factory: zero bits, field by field
        assertEquals(new Narrow((byte) 0, false, (short) 0, '\0', 0, 0f, 0L, 0d), table.readValue(narrow, 1));
        assertEquals(a, table.readValue(narrow, 0), "zeroing stays inside its row");
        assertEquals(a, table.readValue(narrow, 2));

        int on = table.position(ON.id());
        int level = table.position(LEVEL.id());
        int weight = table.position(WEIGHT.id());
        for (int row = 0; row < 3; row++) {
            table.writeValue(on, row, row != 1);
            table.writeValue(level, row, -row);
            table.writeValue(weight, row, row + 0.25);
        }
        for (int row = 0; row < 3; row++) {
            assertEquals(row != 1, table.readValue(on, row));
            assertEquals(-row, table.readValue(level, row));
            assertEquals(row + 0.25, table.readValue(weight, row));
        }
        table.values().writeDefault(on, 1);
        table.values().writeDefault(level, 1);
        table.values().writeDefault(weight, 1);
        assertEquals(true, table.readValue(on, 1), "a scalar's default, not zero");
        assertEquals(7, table.readValue(level, 1));
        assertEquals(2.5, table.readValue(weight, 1));
    }

    static final ScalarComponent.OfString LABEL = Components.scalar("test.values.Label", "none");

    record Seeded(int a, long b) {}

    static final NativeComponent<Seeded> SEEDED = Components.registerNative(Seeded.class,
            o -> o.defaults(() -> new Seeded(41, -2L)));

    @Test
    void theFieldByFieldPathWritesEveryKind() {
        Table table = table(NARROW, VEC);
        table.values().forgetSpunWriters();
        table.appendRows(2);
        Narrow first = new Narrow((byte) -7, true, (short) -12345, '\u20ac', Integer.MIN_VALUE + 3, -0.25f,
                Long.MAX_VALUE - 5, -1e300);
        Narrow second = new Narrow((byte) 1, false, (short) 2, 'z', 4, 5.5f, 6L, 7.25);
        table.writeValue(table.position(NARROW.id()), 0, first);
        table.writeValue(table.position(NARROW.id()), 1, second);
        table.writeValue(table.position(VEC.id()), 0, new TableTest.Vec(3, 4));
        assertEquals(first, table.readValue(table.position(NARROW.id()), 0));
        assertEquals(second, table.readValue(table.position(NARROW.id()), 1));
        assertEquals(new TableTest.Vec(3, 4), table.readValue(table.position(VEC.id()), 0));
    }

    @Test
    void aScalarHeldOnTheHeapIsWrittenThereEvenAsTheFirstHeapColumn() {
        Table table = table(LABEL, LEVEL);
        table.appendRows(1);
        table.writeValue(table.position(LABEL.id()), 0, "hello");
        table.writeValue(table.position(LEVEL.id()), 0, 12);
        assertEquals("hello", table.readValue(table.position(LABEL.id()), 0));
        assertEquals(12, table.readValue(table.position(LEVEL.id()), 0));
        table.values().writeDefault(table.position(LABEL.id()), 0);
        assertEquals("none", table.readValue(table.position(LABEL.id()), 0));
    }

    @Test
    void aDefaultWritesItsOwnColumnsOnlyAndAFactorysValueWhereThereIsOne() {
        Table table = table(VEC, SEEDED, NARROW);
        table.appendRows(1);
        Narrow narrow = new Narrow((byte) 1, true, (short) 3, 'c', 5, 6f, 7L, 8.0);
        table.writeValue(table.position(VEC.id()), 0, new TableTest.Vec(1, 2));
        table.writeValue(table.position(SEEDED.id()), 0, new Seeded(3, 4L));
        table.writeValue(table.position(NARROW.id()), 0, narrow);
        table.values().writeDefault(table.position(VEC.id()), 0);
        assertEquals(new TableTest.Vec(0, 0), table.readValue(table.position(VEC.id()), 0));
        assertEquals(new Seeded(3, 4L), table.readValue(table.position(SEEDED.id()), 0), "the next columns stay");
        table.values().writeDefault(table.position(SEEDED.id()), 0);
        assertEquals(new Seeded(41, -2L), table.readValue(table.position(SEEDED.id()), 0), "the factory's value");
        assertEquals(narrow, table.readValue(table.position(NARROW.id()), 0));
        table.writeValue(table.position(SEEDED.id()), 0, new Seeded(3, 4L));
        table.values().zeroRows(table.position(VEC.id()), 0, 1);
        assertEquals(new Seeded(3, 4L), table.readValue(table.position(SEEDED.id()), 0), "zeroing stays in VEC");
        table.values().zeroRows(table.position(SEEDED.id()), 0, 1);
        assertEquals(narrow, table.readValue(table.position(NARROW.id()), 0));
    }

    @Test
    void aColumnFilledWithOneBoxedValueOfEachKindHoldsItInTheRowsAskedFor() {
        Table table = table(NARROW);
        table.appendRows(6);
        int p = table.position(NARROW.id());
        Narrow before = new Narrow((byte) 9, false, (short) 9, '9', 9, 9f, 9L, 9.0);
        for (int row = 0; row < 6; row++) {
            table.writeValue(p, row, before);
        }
        Object[] boxed = {(byte) -2, true, (short) -3, 'x', -4, 1.5f, -5L, 2.75};
        for (int f = 0; f < boxed.length; f++) {
            table.fillColumn(p, f, 1, 5, boxed[f]);
        }
        table.fillColumn(p, 4, 3, 3, 77); // an empty range writes nothing
        Narrow filled = new Narrow((byte) -2, true, (short) -3, 'x', -4, 1.5f, -5L, 2.75);
        assertEquals(before, table.readValue(p, 0));
        for (int row = 1; row < 5; row++) {
            assertEquals(filled, table.readValue(p, row), "row " + row);
        }
        assertEquals(before, table.readValue(p, 5));
    }

    @Test
    void fillsAndZeroingsLongerThanOneBulkCopyStayInTheirRows() {
        Table table = table(LEVEL); // an int column: 5,000 rows are 20,000 bytes, more than one 16 KiB copy
        int n = 10_000;
        table.appendRows(n);
        int level = table.position(LEVEL.id());
        table.values().fillInput(level, 5_000, n, LEVEL.of(-1));
        table.values().fillInput(level, 0, 5_000, LEVEL.of(8));
        for (int row = 0; row < n; row += 7) {
            assertEquals(row < 5_000 ? 8 : -1, table.readValue(level, row), "row " + row);
        }
        assertEquals(8, table.readValue(level, 4_999));
        assertEquals(-1, table.readValue(level, 5_000));
        table.values().zeroRows(level, 5_000, n);
        for (int row = 0; row < n; row += 7) {
            assertEquals(row < 5_000 ? 8 : 0, table.readValue(level, row), "row " + row);
        }
        assertEquals(0, table.readValue(level, n - 1));
    }

    /**
     * A constant replicated over many rows lands in every row of the range, in every element width, and nowhere
     * else; once warm it allocates nothing (the copies read the column itself, where a heap tile of up to 16 KiB
     * per column was made for every fill).
     */
    @Test
    void aLongFillReachesEveryRowOfEveryWidthAndAllocatesNothing() {
        Table table = table(NARROW);
        int n = 9_001; // past the 16 KiB tile in every width but the byte ones, and not a multiple of it
        table.appendRows(n + 1);
        int p = table.position(NARROW.id());
        Narrow edge = new Narrow((byte) -1, false, (short) -2, 'e', -3, -4f, -5L, -6.0);
        table.writeValue(p, 0, edge);
        table.writeValue(p, n, edge);
        Narrow value = new Narrow((byte) 7, true, (short) 300, 'x', 70_000, 1.25f, 1L << 40, Math.PI);
        table.values().fillInput(p, 1, n, NARROW.of(value)); // warm: the spun writer, the copies
        table.values().fillInput(p, 1, n, NARROW.of(edge));
        var input = NARROW.of(value);
        // the least of five fills: one that the compiler deoptimizes part way allocates a few hundred bytes (seen
        // once in a full run of the core tests), a steady one nothing
        long allocated = dev.jtecs.testing.Allocations.fewestBytes(5, () -> table.values().fillInput(p, 1, n, input));
        for (int row = 1; row < n; row++) {
            assertEquals(value, table.readValue(p, row), "row " + row);
        }
        assertEquals(edge, table.readValue(p, 0), "the row before the range");
        assertEquals(edge, table.readValue(p, n), "the row after the range");
        assertEquals(0, allocated, "a warm fill of " + (n - 1) + " rows allocated " + allocated + " bytes");
    }
}
