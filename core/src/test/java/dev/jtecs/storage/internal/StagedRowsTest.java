package dev.jtecs.storage.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.component.Component;
import dev.jtecs.component.ComponentValue;
import dev.jtecs.component.Components;
import dev.jtecs.component.Input;
import dev.jtecs.component.ManagedComponent;
import dev.jtecs.component.NativeComponent;
import dev.jtecs.component.PrimitiveKind;
import dev.jtecs.component.ScalarComponent;
import dev.jtecs.component.TagComponent;
import dev.jtecs.entity.internal.AllocationFaults;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class StagedRowsTest {
    /** One field of every primitive kind: every column width, every encoding. */
    record All(byte b, boolean z, short s, char c, int i, float f, long l, double d) {}

    record Seeded(int a, double b) {}

    record Plain(int x, float y) {}

    record Note(String text) {}

    static final NativeComponent<All> ALL = Components.registerNative(All.class);
    static final int[] FACTORY_CALLS = new int[1];
    static final boolean[] FACTORY_FAILS = new boolean[1];
    static final NativeComponent<Seeded> SEEDED = Components.registerNative(Seeded.class, o -> o.defaults(() -> {
        if (FACTORY_FAILS[0]) {
            throw new IllegalStateException("no default today");
        }
        FACTORY_CALLS[0]++;
        return new Seeded(7 + FACTORY_CALLS[0], 2.5);
    }));
    static final NativeComponent<Plain> PLAIN = Components.registerNative(Plain.class);
    static final ManagedComponent<Note> NOTE = Components.registerManaged(Note.class);
    static final ScalarComponent.OfInt LEVEL = Components.scalar("test.staged.Level", 5);
    static final ScalarComponent.OfLong SCORE = Components.scalar("test.staged.Score", -9L);
    static final ScalarComponent.OfDouble SPEED = Components.scalar("test.staged.Speed", 1.25);
    static final ScalarComponent.OfBoolean AWAKE = Components.scalar("test.staged.Awake", true);
    static final TagComponent MARK = Components.tag("test.staged.Mark");

    private final NativeMemory memory = new NativeMemory();
    private final Table table = table(ALL, SEEDED, PLAIN, NOTE, LEVEL, SCORE, SPEED, AWAKE, MARK);

    @AfterEach
    void tearDown() {
        table.release();
        memory.close();
        FACTORY_FAILS[0] = false;
    }

    private Table table(Component<?>... components) {
        Component<?>[] sorted = components.clone();
        Arrays.sort(sorted, Comparator.comparingInt(Component::id));
        return new Table(1, sorted, memory);
    }

    /** The inputs of a spawn plan: {@code value} at its component's position, nothing elsewhere. */
    private Input[] inputs(ComponentValue<?>... values) {
        Input[] inputs = new Input[table.componentCount()];
        for (ComponentValue<?> value : values) {
            inputs[table.position(value.component().id())] = value;
        }
        return inputs;
    }

    private Object read(Component<?> component, int row) {
        return table.readValue(table.position(component.id()), row);
    }

    /** Places {@code n} staged rows from {@code stagedRow} at the end of the table; returns the first table row. */
    private int place(StagedRows staged, int stagedRow, int n) {
        int first = table.appendRows(n);
        staged.copyInto(first, stagedRow, n);
        return first;
    }

    @Test
    void aRowStartsWithTheGivenValuesTheScalarDefaultsAndTheFactorysValue() {
        All all = new All((byte) -3, true, (short) -300, 'q', 70000, -1.5f, 1L << 40, Math.PI);
        StagedRows staged = StagedRows.of(table, inputs(new ComponentValue<>(ALL, all),
                new ComponentValue<>(PLAIN, new Plain(3, 4f)), new ComponentValue<>(LEVEL, 12)));
        assertSame(table, staged.table());
        staged.ensureRoom();
        int before = FACTORY_CALLS[0];
        assertEquals(0, staged.append());
        assertEquals(before + 1, FACTORY_CALLS[0], "the factory runs once per row");
        assertEquals(1, staged.size());
        int row = place(staged, 0, 1);
        assertEquals(all, read(ALL, row));
        assertEquals(new Seeded(7 + before + 1, 2.5), read(SEEDED, row));
        assertEquals(new Plain(3, 4f), read(PLAIN, row), "the factory's columns end where PLAIN's begin");
        assertEquals(12, read(LEVEL, row), "the given value, not the default");
        assertEquals(-9L, read(SCORE, row));
        assertEquals(1.25, read(SPEED, row));
        assertEquals(true, read(AWAKE, row));
    }

    @Test
    void scalarValuesGivenAsInputOfEveryKindAreEncoded() {
        StagedRows staged = StagedRows.of(table, inputs(new ComponentValue<>(SCORE, Long.MIN_VALUE + 1),
                new ComponentValue<>(SPEED, -0.0), new ComponentValue<>(AWAKE, false)));
        staged.ensureRoom();
        staged.append();
        int row = place(staged, 0, 1);
        assertEquals(Long.MIN_VALUE + 1, read(SCORE, row));
        assertEquals(-0.0, read(SPEED, row));
        assertEquals(false, read(AWAKE, row));
        assertEquals(5, read(LEVEL, row));
        assertEquals(new Plain(0, 0f), read(PLAIN, row), "a native definition without factory: zero bits");
    }

    @Test
    void reservedRowsAppendWithoutGrowingAndKeepTheRowsHeld() {
        assertTrue(dev.jtecs.entity.internal.AllocationFaults.ENABLED, "the suite runs with -Djtecs.allocationFaults");
        StagedRows staged = StagedRows.of(table, inputs());
        int x = staged.column(table.position(ALL.id()), 4);
        for (int r = 0; r < 10; r++) {
            staged.ensureRoom();
            staged.append();
            staged.setInt(x, r, r * 7);
        }
        staged.reserve(500); // the rows held count: room for 490 more
        dev.jtecs.entity.internal.AllocationFaults.disarm();
        for (int r = 10; r < 500; r++) {
            // room reserved: no growth (the reserved chunk takes over from the first once it is full, at row 64)
            assertEquals(r == 64, staged.ensureRoom(), "the current chunk changes once, at row " + r);
            staged.append();
            staged.setInt(x, r, r * 7);
        }
        assertEquals(0, dev.jtecs.entity.internal.AllocationFaults.seen(dev.jtecs.entity.internal.AllocationFaults.Kind.HEAP));
        Object held = staged.arrays(x, 1)[0];
        assertTrue(staged.ensureRoom(), "the 501st: beyond the room, it grows");
        assertNotSame(held, staged.arrays(x, 1)[0], "growth replaced the array handed out, as ensureRoom said");
        assertTrue(dev.jtecs.entity.internal.AllocationFaults.seen(dev.jtecs.entity.internal.AllocationFaults.Kind.HEAP) > 0);
        for (int r = 0; r < 500; r++) {
            assertEquals(r * 7, staged.bits(x, r), "row " + r);
        }
        staged.reserve(10); // less than the room: nothing
        assertEquals(500, staged.size());
    }

    @Test
    void eachRowGetsItsOwnFactoryValueAndTheSettersWriteEveryKind() {
        StagedRows staged = StagedRows.of(table, inputs());
        int allAt = table.position(ALL.id());
        int[] column = new int[8];
        for (int f = 0; f < 8; f++) {
            column[f] = staged.column(allAt, f);
        }
        assertEquals(PrimitiveKind.BYTE, staged.kind(column[0]));
        assertEquals(PrimitiveKind.DOUBLE, staged.kind(column[7]));
        int n = 150; // past the first room (64 rows) and its first doubling
        int firstCall = FACTORY_CALLS[0];
        for (int r = 0; r < n; r++) {
            staged.ensureRoom();
            assertEquals(r, staged.append());
            staged.setByte(column[0], r, (byte) r);
            staged.setBoolean(column[1], r, r % 3 == 0);
            staged.setShort(column[2], r, (short) (r * 100));
            staged.setChar(column[3], r, (char) ('a' + r % 26));
            staged.setInt(column[4], r, -r);
            staged.setFloat(column[5], r, r + 0.5f);
            staged.setLong(column[6], r, (long) r << 33);
            staged.setDouble(column[7], r, r / 4.0);
        }
        assertEquals(n, staged.size());
        assertEquals(-7, staged.bits(column[4], 7));
        assertEquals(Double.doubleToRawLongBits(7 / 4.0), staged.bits(column[7], 7));
        int first = place(staged, 0, n);
        for (int r = 0; r < n; r++) {
            All expected = new All((byte) r, r % 3 == 0, (short) (r * 100), (char) ('a' + r % 26), -r, r + 0.5f,
                    (long) r << 33, r / 4.0);
            assertEquals(expected, read(ALL, first + r), "row " + r);
            assertEquals(new Seeded(7 + firstCall + r + 1, 2.5), read(SEEDED, first + r), "row " + r);
            assertEquals(5, read(LEVEL, first + r));
        }
    }

    @Test
    void firstColumnsByIdNameEachNativeComponentsFirstColumnBelowTheLimit() {
        StagedRows staged = StagedRows.of(table, inputs());
        int[] all = staged.firstColumnsById(Components.MAX_COMPONENT_ID);
        int named = 0;
        for (int p = 0; p < table.componentCount(); p++) {
            int id = table.componentAt(p).id();
            int expected = table.nativeCountAt(p) == 0 ? 0 : table.nativeStartAt(p) + 1; // tags and NOTE: none
            assertEquals(expected, id < all.length ? all[id] : 0, table.componentAt(p).name());
            named += expected == 0 ? 0 : 1;
        }
        assertEquals(named, java.util.Arrays.stream(all).filter(first -> first != 0).count(), "no other id");
        assertEquals(7, named, "ALL, SEEDED, PLAIN and the four scalars");
        int limit = PLAIN.id(); // PLAIN and every later registration are left out
        int[] below = staged.firstColumnsById(limit);
        assertEquals(SEEDED.id() + 1, below.length, "as long as the last id below the limit needs");
        for (int id = 0; id < below.length; id++) {
            assertEquals(all[id], below[id], "id " + id);
        }
    }

    @Test
    void aCopyTakesTheStagedRowsAskedForToTheTableRowsAskedFor() {
        StagedRows staged = StagedRows.of(table, inputs());
        int level = staged.column(table.position(LEVEL.id()), 0);
        for (int r = 0; r < 6; r++) {
            staged.ensureRoom();
            staged.append();
            staged.setInt(level, r, 100 + r);
        }
        table.appendRows(2); // rows the copy must leave alone
        table.writeValue(table.position(LEVEL.id()), 0, 1);
        table.writeValue(table.position(LEVEL.id()), 1, 2);
        int first = place(staged, 2, 3); // staged rows 2, 3, 4 to table rows 2, 3, 4
        assertEquals(2, first);
        assertEquals(1, read(LEVEL, 0));
        assertEquals(2, read(LEVEL, 1));
        assertEquals(102, read(LEVEL, 2));
        assertEquals(103, read(LEVEL, 3));
        assertEquals(104, read(LEVEL, 4));
    }

    /**
     * Rows grow by chunks, each as large as all before it, without copying the rows staged: a run of rows that spans
     * chunks keeps every value, a setter reaches a row of an earlier chunk (an earlier spawn's), a copy spans the
     * chunks, and after a reset the rows start in the first chunk again and grow nothing while they fit.
     */
    @Test
    void rowsGrowByChunksWithoutCopyingAndTheChunksServeTheRowsAfterAReset() {
        assertTrue(AllocationFaults.ENABLED, "the suite runs with -Djtecs.allocationFaults=true");
        StagedRows staged = StagedRows.of(table, inputs());
        int level = staged.column(table.position(LEVEL.id()), 0);
        int score = staged.column(table.position(SCORE.id()), 0);
        int n = 1_000; // chunks of 64, 64, 128, 256, 512 rows
        for (int round = 0; round < 2; round++) {
            AllocationFaults.disarm();
            List<Integer> offsets = new ArrayList<>();
            for (int r = 0; r < n; r++) {
                if (staged.ensureRoom()) {
                    offsets.add(staged.offset());
                }
                assertEquals(r, staged.append());
                staged.setInt(level, r, 10 * r + round);
                staged.setLong(score, r, -r);
            }
            staged.setInt(level, 100, -100); // row 100 lies in the second chunk, before the current one
            if (round == 0) {
                assertEquals(List.of(0, 64, 128, 256, 512), offsets, "a new chunk each time the last is full");
                assertTrue(AllocationFaults.seen(AllocationFaults.Kind.HEAP) > 0);
            } else {
                assertEquals(List.of(0, 64, 128, 256, 512), offsets, "the same chunks, from the first again");
                assertEquals(0, AllocationFaults.seen(AllocationFaults.Kind.HEAP), "the chunks were kept");
            }
            for (int r = 0; r < n; r++) {
                assertEquals(r == 100 ? -100 : 10 * r + round, staged.bits(level, r), "row " + r);
            }
            int first = place(staged, 60, 700); // rows 60 to 759: five chunks
            for (int r = 60; r < 760; r++) {
                assertEquals(r == 100 ? -100 : 10 * r + round, read(LEVEL, first + r - 60), "row " + r);
                assertEquals((long) -r, read(SCORE, first + r - 60), "row " + r);
            }
            staged.reset();
            assertEquals(0, staged.size());
            for (int r = 0; r < n; r++) {
                assertEquals(0, staged.bits(level, r), "a reset zeroes row " + r);
            }
        }
    }

    @Test
    void aReservationWhileAnEarlierChunkIsFullAddsRoomAtTheEndAndTheRowsGoOnInOrder() {
        StagedRows staged = StagedRows.of(table, inputs());
        int level = staged.column(table.position(LEVEL.id()), 0);
        for (int r = 0; r < 300; r++) { // chunks of 64, 64, 128 and 256 rows
            staged.ensureRoom();
            staged.append();
        }
        staged.reset();
        for (int r = 0; r < 64; r++) { // the first chunk again, full
            staged.ensureRoom();
            staged.append();
            staged.setInt(level, r, r);
        }
        staged.reserve(1_000); // past the 512 rows the chunks hold: a chunk at the end
        for (int r = 64; r < 1_000; r++) {
            staged.ensureRoom();
            assertEquals(r, staged.append());
            staged.setInt(level, r, r);
        }
        int first = place(staged, 0, 1_000);
        for (int r = 0; r < 1_000; r++) {
            assertEquals(r, read(LEVEL, first + r), "row " + r);
        }
    }

    @Test
    void reservingAddsOneChunkForTheRowsMissingAndAFullChunkGoesOnIntoIt() {
        StagedRows staged = StagedRows.of(table, inputs());
        int level = staged.column(table.position(LEVEL.id()), 0);
        for (int r = 0; r < 10; r++) {
            staged.ensureRoom();
            staged.append();
            staged.setInt(level, r, r);
        }
        staged.reserve(5_000); // a chunk of 4,936 rows after the first 64
        AllocationFaults.disarm();
        for (int r = 10; r < 5_000; r++) {
            staged.ensureRoom();
            staged.append();
            staged.setInt(level, r, r);
        }
        assertEquals(0, AllocationFaults.seen(AllocationFaults.Kind.HEAP), "the reserved room holds them");
        assertEquals(64, staged.offset());
        int first = place(staged, 0, 5_000);
        for (int r = 0; r < 5_000; r += 7) {
            assertEquals(r, read(LEVEL, first + r), "row " + r);
        }
    }

    @Test
    void aResetOrADroppedRowLeavesNothingOfItsValuesForTheNextRow() {
        StagedRows staged = StagedRows.of(table, inputs());
        int allAt = table.position(ALL.id());
        int plainX = staged.column(table.position(PLAIN.id()), 0);
        for (int r = 0; r < 3; r++) {
            staged.ensureRoom();
            staged.append();
            for (int f = 0; f < 8; f++) {
                writeOnes(staged, staged.column(allAt, f), r);
            }
            staged.setInt(plainX, r, 99);
            staged.setInt(staged.column(table.position(LEVEL.id()), 0), r, 77);
        }
        staged.dropLast();
        assertEquals(2, staged.size());
        staged.ensureRoom();
        assertEquals(2, staged.append(), "the dropped row's place");
        assertAtStart(staged, 2);
        assertEquals(99, staged.bits(plainX, 1), "the rows before stay");
        staged.reset();
        assertEquals(0, staged.size());
        for (int r = 0; r < 3; r++) {
            staged.ensureRoom();
            assertEquals(r, staged.append());
            assertAtStart(staged, r);
        }
    }

    private void assertAtStart(StagedRows staged, int row) {
        int allAt = table.position(ALL.id());
        for (int f = 0; f < 8; f++) {
            assertEquals(0, staged.bits(staged.column(allAt, f), row), "field " + f + " of row " + row);
        }
        assertEquals(0, staged.bits(staged.column(table.position(PLAIN.id()), 0), row));
        assertEquals(5, staged.bits(staged.column(table.position(LEVEL.id()), 0), row), "the default again");
    }

    private static void writeOnes(StagedRows staged, int column, int row) {
        switch (staged.kind(column)) {
            case BYTE -> staged.setByte(column, row, (byte) -1);
            case BOOLEAN -> staged.setBoolean(column, row, true);
            case SHORT -> staged.setShort(column, row, (short) -1);
            case CHAR -> staged.setChar(column, row, (char) 0xFFFF);
            case INT -> staged.setInt(column, row, -1);
            case FLOAT -> staged.setFloat(column, row, Float.intBitsToFloat(-1));
            case LONG -> staged.setLong(column, row, -1L);
            case DOUBLE -> staged.setDouble(column, row, Double.longBitsToDouble(-1L));
        }
    }

    @Test
    void aThrowingFactoryAppendsNothing() {
        StagedRows staged = StagedRows.of(table, inputs());
        staged.ensureRoom();
        staged.append();
        FACTORY_FAILS[0] = true;
        assertThrows(IllegalStateException.class, staged::append);
        assertEquals(1, staged.size());
        FACTORY_FAILS[0] = false;
        assertEquals(1, staged.append());
    }

    @Test
    void aGivenValueOfAComponentWithAFactoryIsUsedInsteadOfTheFactory() {
        StagedRows staged = StagedRows.of(table, inputs(new ComponentValue<>(SEEDED, new Seeded(-4, 0.125))));
        staged.ensureRoom();
        int calls = FACTORY_CALLS[0];
        staged.append();
        staged.ensureRoom();
        staged.append();
        assertEquals(calls, FACTORY_CALLS[0], "no factory call");
        int first = place(staged, 0, 2);
        assertEquals(new Seeded(-4, 0.125), read(SEEDED, first));
        assertEquals(new Seeded(-4, 0.125), read(SEEDED, first + 1));
    }

    /**
     * Blank rows start at zero bits and run no factory; a record type's spun writer fills a row through the arrays
     * {@code arrays} hands out (the same ones until the rows grow), and {@code boxed} reads each field back as its
     * record component takes it, bits intact.
     */
    @Test
    void blankRowsTakeARecordsFieldsThroughItsWriterAndGiveThemBackBoxed() {
        StagedRows staged = StagedRows.blank(table);
        int before = FACTORY_CALLS[0];
        staged.ensureRoom();
        assertEquals(0, staged.append());
        assertEquals(before, FACTORY_CALLS[0], "no factory runs for a blank row");
        int start = staged.column(table.position(ALL.id()), 0);
        Object[] arrays = staged.arrays(start, 8);
        assertSame(arrays, staged.arrays(start, 8), "kept while the rows do not grow");
        All all = new All((byte) -7, true, (short) -2, 'x', -9, Float.intBitsToFloat(0x7fc00001), -5L, -0.0);
        table.plainWriter(table.position(ALL.id())).stage(all, arrays, 0);
        assertEquals((byte) -7, staged.boxed(start, 0, PrimitiveKind.BYTE));
        assertEquals(true, staged.boxed(start + 1, 0, PrimitiveKind.BOOLEAN));
        assertEquals((short) -2, staged.boxed(start + 2, 0, PrimitiveKind.SHORT));
        assertEquals('x', staged.boxed(start + 3, 0, PrimitiveKind.CHAR));
        assertEquals(-9, staged.boxed(start + 4, 0, PrimitiveKind.INT));
        assertEquals(0x7fc00001, Float.floatToRawIntBits((Float) staged.boxed(start + 5, 0, PrimitiveKind.FLOAT)));
        assertEquals(-5L, staged.boxed(start + 6, 0, PrimitiveKind.LONG));
        assertEquals(Double.doubleToRawLongBits(-0.0),
                Double.doubleToRawLongBits((Double) staged.boxed(start + 7, 0, PrimitiveKind.DOUBLE)));
        int row = place(staged, 0, 1);
        assertEquals(all.toString(), read(ALL, row).toString());
        assertEquals(new Seeded(0, 0.0), read(SEEDED, row), "zero bits, not the factory's value");
        for (int i = 1; i < 200; i++) {
            staged.ensureRoom();
            staged.append();
        }
        assertNotSame(arrays, staged.arrays(start, 8), "growth replaced the arrays");
    }

}
