package dev.jtecs.storage.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.component.Component;
import dev.jtecs.component.Components;
import dev.jtecs.component.ManagedComponent;
import dev.jtecs.component.NativeComponent;
import dev.jtecs.component.ScalarComponent;
import dev.jtecs.entity.internal.AllocationFaults;
import java.util.Arrays;
import java.util.Comparator;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class StagedValuesTest {
    /** One field of every primitive kind: every width, every encoding. */
    record All(byte b, boolean z, short s, char c, int i, float f, long l, double d) {}

    record Pair(int x, float y) {}

    /** Not plain: its accessor is code of its own. */
    record Loud(int x) {
        @Override
        public int x() {
            return x + 0;
        }
    }

    record Note(String text) {}

    static final NativeComponent<All> ALL = Components.registerNative(All.class);
    static final NativeComponent<Pair> PAIR = Components.registerNative(Pair.class);
    static final NativeComponent<Loud> LOUD = Components.registerNative(Loud.class);
    static final ManagedComponent<Note> NOTE = Components.registerManaged(Note.class);
    static final ScalarComponent.OfInt LEVEL = Components.scalar("test.stagedValues.Level", 5);

    private final NativeMemory memory = new NativeMemory();
    private final Table table = table(ALL, PAIR);

    @AfterEach
    void tearDown() {
        table.release();
        memory.close();
        AllocationFaults.disarm();
    }

    private Table table(Component<?>... components) {
        Component<?>[] sorted = components.clone();
        Arrays.sort(sorted, Comparator.comparingInt(Component::id));
        return new Table(1, sorted, memory);
    }

    private static All all(SplittableRandom random) {
        return new All((byte) random.nextInt(), random.nextBoolean(), (short) random.nextInt(),
                (char) random.nextInt(65536), random.nextInt(), Float.intBitsToFloat(random.nextInt()),
                random.nextLong(), Double.longBitsToDouble(random.nextLong()));
    }

    @Test
    void onlyPlainRecordsOfNativeComponentsAreHeldAsBits() {
        assertTrue(StagedValues.holds(ALL));
        assertTrue(StagedValues.holds(PAIR));
        assertFalse(StagedValues.holds(LOUD), "an accessor of its own: kept as the object");
        assertFalse(StagedValues.holds(NOTE), "a managed component");
        assertFalse(StagedValues.holds(LEVEL), "a scalar component");
    }

    @Test
    void valuesOfEveryKindGoToTheirRowsBitForBitOneByOneAndInRuns() {
        long seed = Long.getLong("jtecs.stagedValuesSeed", System.nanoTime());
        System.out.println("StagedValuesTest seed " + seed + " (-Djtecs.stagedValuesSeed=" + seed + " replays it)");
        for (boolean spun : new boolean[] {true, false}) {
            valuesGoToTheirRows(seed, new StagedValues(ALL, spun), spun);
        }
    }

    private void valuesGoToTheirRows(long seed, StagedValues values, boolean spun) {
        SplittableRandom random = new SplittableRandom(seed);
        All[] given = new All[300];
        for (int v = 0; v < given.length; v++) {
            given[v] = all(random);
            assertEquals(v, values.append(given[v]));
        }
        assertEquals(300, values.size());
        int first = table.appendRows(400);
        String how = spun ? " (spun writer)" : " (getters)";
        int position = table.position(ALL.id());
        values.copyInto(table, position, first + 100, 0, 1); // one value
        values.copyInto(table, position, first + 101, 1, 299); // the rest in one run
        for (int v = 0; v < given.length; v++) {
            All read = (All) table.readValue(position, first + 100 + v);
            // compare bits: NaN payloads and -0.0 must come back as they went
            assertEquals(Float.floatToRawIntBits(given[v].f()), Float.floatToRawIntBits(read.f()), "seed " + seed);
            assertEquals(Double.doubleToRawLongBits(given[v].d()), Double.doubleToRawLongBits(read.d()),
                    "seed " + seed);
            assertEquals(new All(given[v].b(), given[v].z(), given[v].s(), given[v].c(), given[v].i(), 0f,
                    given[v].l(), 0.0), new All(read.b(), read.z(), read.s(), read.c(), read.i(), 0f, read.l(), 0.0),
                    "seed " + seed + how + " value " + v);
        }
        assertEquals(new Pair(0, 0f), table.readValue(table.position(PAIR.id()), first + 100),
                "the other component's columns are untouched");
        values.copyInto(table, position, first, 300, 0); // nothing, even at the end
        assertEquals(new All((byte) 0, false, (short) 0, '\0', 0, 0f, 0L, 0.0), table.readValue(position, first),
                "an empty copy writes nothing");
        assertThrows(IndexOutOfBoundsException.class, () -> values.copyInto(table, position, first, 299, 2));
        assertThrows(IndexOutOfBoundsException.class, () -> values.copyInto(table, position, first, 0, -1));
        assertThrows(IndexOutOfBoundsException.class, () -> values.copyInto(table, position, first, -1, 1));
    }

    @Test
    void onlyPlainRecordTypesWithASpunWriterHaveAPlainWriter() {
        assertNotNull(StagedValues.plainWriter(ALL));
        assertNotNull(StagedValues.plainWriter(PAIR));
        assertNull(StagedValues.plainWriter(LOUD), "an accessor of its own: user code");
    }

    /**
     * A value staged from the bits the plain writer read ({@code appendBits}) is the value {@code append} stages
     * from the record, bit for bit (NaN payloads, -0.0, chars, booleans), in any mix of the two.
     */
    @Test
    void aValueStagedFromItsBitsIsTheValueStagedFromItsRecord() {
        long seed = Long.getLong("jtecs.stagedValuesSeed", System.nanoTime());
        System.out.println("StagedValuesTest seed " + seed + " (-Djtecs.stagedValuesSeed=" + seed + " replays it)");
        SplittableRandom random = new SplittableRandom(seed);
        RecordWriter writer = StagedValues.plainWriter(ALL);
        StagedValues fromRecords = new StagedValues(ALL);
        StagedValues mixed = new StagedValues(ALL);
        StagedValues mixedByGetters = new StagedValues(ALL, false); // the way without a spun writer
        long[] bits = new long[8];
        for (int v = 0; v < 200; v++) {
            All value = all(random);
            fromRecords.append(value);
            if (random.nextBoolean()) {
                writer.bits(value, bits);
                assertEquals(v, mixed.appendBits(bits), "seed " + seed);
                assertEquals(v, mixedByGetters.appendBits(bits), "seed " + seed);
            } else {
                assertEquals(v, mixed.append(value), "seed " + seed);
                assertEquals(v, mixedByGetters.append(value), "seed " + seed);
            }
        }
        int first = table.appendRows(600);
        int position = table.position(ALL.id());
        fromRecords.copyInto(table, position, first, 0, 200);
        mixed.copyInto(table, position, first + 200, 0, 200);
        mixedByGetters.copyInto(table, position, first + 400, 0, 200);
        for (int f = 0; f < 8; f++) {
            java.lang.foreign.MemorySegment column = table.nativeSegment(table.nativeStartAt(position) + f);
            long size = dev.jtecs.component.internal.RecordCodec.of(All.class).kind(f).byteSize();
            for (int run : new int[] {200, 400}) {
                assertEquals(-1L, column.asSlice((first + run) * size, 200 * size).mismatch(
                        column.asSlice(first * size, 200 * size)), "seed " + seed + " field " + f + " run " + run);
            }
        }
    }

    @Test
    void aRecordIsBuiltAgainEqualToTheOneGivenAndTheResetForgetsTheValues() {
        StagedValues values = new StagedValues(PAIR);
        Pair given = new Pair(-7, Float.NaN);
        values.append(new Pair(1, 1f));
        values.append(given);
        Object again = values.record(1);
        assertEquals(given, again);
        assertNotSame(given, again, "built from the bits: the record given is not kept");
        values.reset();
        assertEquals(0, values.size());
        assertThrows(IndexOutOfBoundsException.class, () -> values.record(0));
        assertEquals(0, values.append(new Pair(2, 2f)), "indexes start again at 0");
        assertEquals(new Pair(2, 2f), values.record(0));
    }

    @Test
    void aFailedGrowthLeavesEveryValueAsItWas() {
        assertTrue(AllocationFaults.ENABLED, "the suite runs with -Djtecs.allocationFaults");
        StagedValues values = new StagedValues(ALL);
        SplittableRandom random = new SplittableRandom(11);
        All[] given = new All[64];
        for (int v = 0; v < 64; v++) { // fills the first room exactly
            given[v] = all(random);
            values.append(given[v]);
        }
        for (int k = 1; k <= 8; k++) { // each of the eight field arrays' growth fails in turn
            AllocationFaults.failAt(AllocationFaults.Kind.HEAP, k);
            assertThrows(OutOfMemoryError.class, () -> values.append(new All((byte) 0, false, (short) 0, 'x', 0,
                    0f, 0L, 0.0)));
            assertEquals(64, values.size(), "growth " + k);
            for (int v = 0; v < 64; v++) {
                assertEquals(given[v], values.record(v), "growth " + k + " value " + v);
            }
        }
        long[] bits = new long[8];
        StagedValues.plainWriter(ALL).bits(given[1], bits);
        AllocationFaults.failAt(AllocationFaults.Kind.HEAP, 3);
        assertThrows(OutOfMemoryError.class, () -> values.appendBits(bits));
        assertEquals(64, values.size(), "appendBits grows first too");
        assertEquals(given[63], values.record(63));
        AllocationFaults.disarm();
        assertEquals(64, values.append(given[0]), "and it grows once allowed");
        assertEquals(given[0], values.record(64));
    }
}
