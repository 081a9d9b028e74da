package dev.jtecs.kernels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.kernels.vector.VectorFillOps;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * The vector fills against their scalar twins, bit for bit over the whole column (rows outside the range must keep
 * their bits), on range lengths straddling the lane count and starting on and off the lanes; values that do not
 * depend on how a range is cut; the random fill's pinned values and distribution; refused arguments.
 */
class FillOpsTest {
    private static final FillOps VECTOR = VectorFillOps.INSTANCE;
    private static final FillOps SCALAR = FillOps.SCALAR;
    private static final FillOps[] BOTH = {VECTOR, SCALAR};
    private static final float SENTINEL = Float.intBitsToFloat(0x7fc0a5a5); // a NaN payload, kept exact

    private static int[] sizes() {
        int lanes = VectorFillOps.lanes();
        return new int[] {0, 1, lanes - 1, lanes, lanes + 1, 2 * lanes + 3, 1000, 4099};
    }

    private static int[] starts() {
        int lanes = VectorFillOps.lanes();
        return new int[] {0, 1, lanes - 1, lanes, lanes + 3, 37};
    }

    /** A native column of {@code rows} rows (a multiple of 64), every row set to {@link #SENTINEL}. */
    private static MemorySegment column(Arena arena, int rows) {
        MemorySegment segment = arena.allocate((long) rows * Float.BYTES, 64);
        for (int row = 0; row < rows; row++) {
            segment.setAtIndex(ValueLayout.JAVA_FLOAT, row, SENTINEL);
        }
        return segment;
    }

    private static int capacityFor(int rows) {
        return Math.max(64, (rows + 63) / 64 * 64);
    }

    private interface Fill {
        void apply(FillOps ops, MemorySegment column, int fromRow, int toRow);
    }

    /** Runs {@code fill} vector and scalar on every size and start; the whole columns must match bit for bit. */
    private static void assertTwins(String name, Fill fill) {
        for (int count : sizes()) {
            for (int from : starts()) {
                try (Arena arena = Arena.ofShared()) {
                    int capacity = capacityFor(from + count);
                    MemorySegment vector = column(arena, capacity);
                    MemorySegment scalar = column(arena, capacity);
                    fill.apply(VECTOR, vector, from, from + count);
                    fill.apply(SCALAR, scalar, from, from + count);
                    assertSameBits(scalar, vector, name + " from=" + from + " count=" + count);
                    for (int row = 0; row < capacity; row++) {
                        if (row < from || row >= from + count) {
                            assertEquals(Float.floatToRawIntBits(SENTINEL),
                                    Float.floatToRawIntBits(vector.getAtIndex(ValueLayout.JAVA_FLOAT, row)),
                                    name + " from=" + from + " count=" + count + ": row " + row + " is outside");
                        }
                    }
                }
            }
        }
    }

    private static void assertSameBits(MemorySegment expected, MemorySegment actual, String where) {
        long mismatch = expected.mismatch(actual);
        if (mismatch >= 0) {
            long row = mismatch / Float.BYTES;
            throw new AssertionError(where + " row=" + row + ": scalar "
                    + expected.getAtIndex(ValueLayout.JAVA_FLOAT, row) + " vs vector "
                    + actual.getAtIndex(ValueLayout.JAVA_FLOAT, row));
        }
    }

    @Test
    void constantMatchesTwinBitForBitAndKeepsEveryBit() {
        for (float value : new float[] {2.5f, -0.0f, Float.intBitsToFloat(0x7fc00123), Float.NEGATIVE_INFINITY,
            Float.MIN_VALUE}) {
            assertTwins("constant " + value, (ops, c, from, to) -> ops.constant(c, from, to, value));
        }
        try (Arena arena = Arena.ofShared()) {
            MemorySegment c = column(arena, 64);
            VECTOR.constant(c, 3, 40, -0.0f);
            assertEquals(Float.floatToRawIntBits(-0.0f),
                    Float.floatToRawIntBits(c.getAtIndex(ValueLayout.JAVA_FLOAT, 20)));
        }
    }

    @Test
    void rangeMatchesTwinBitForBit() {
        assertTwins("range", (ops, c, from, to) -> ops.range(c, from, to, 0, 10f, 0.1f));
        assertTwins("rangeFromIndex", (ops, c, from, to) -> ops.range(c, from, to, 12345, -3f, -0.37f));
        // indices past 2^24 round when converted to float: the vector conversion must round as the cast does
        assertTwins("rangeRounding", (ops, c, from, to) -> ops.range(c, from, to, (1 << 24) - 7, 0f, 1f));
        assertTwins("rangeOverflow", (ops, c, from, to) -> ops.range(c, from, to, 0, -0.0f, Float.MAX_VALUE / 3));
    }

    @Test
    void uniformMatchesTwinBitForBit() {
        SplittableRandom random = new SplittableRandom(11);
        for (long key : new long[] {0L, -1L, Long.MIN_VALUE, random.nextLong(), random.nextLong()}) {
            assertTwins("uniform key=" + key, (ops, c, from, to) -> ops.uniform(c, from, to, key, -1f, 1f));
            assertTwins("uniformHuge key=" + key,
                    (ops, c, from, to) -> ops.uniform(c, from, to, key, -1e38f, 1e38f));
            assertTwins("uniformTiny key=" + key,
                    (ops, c, from, to) -> ops.uniform(c, from, to, key, Float.MIN_VALUE, 4 * Float.MIN_VALUE));
            // one ulp wide at 2^24: about half the rows round up to hi and are pulled back below it
            assertTwins("uniformRoundsToHi key=" + key,
                    (ops, c, from, to) -> ops.uniform(c, from, to, key, 0x1p24f, 0x1p24f + 2f));
        }
    }

    @Test
    void twinsAgreeOnceCompiled() {
        VectorFillOps.warmUp();
        VectorFillOps.warmUp(); // idempotent
        assertTwins("rangeCompiled", (ops, c, from, to) -> ops.range(c, from, to, 77, 1f, 0.25f));
        assertTwins("uniformCompiled", (ops, c, from, to) -> ops.uniform(c, from, to, 0x1234_5678_9abcL, 3f, 7f));
        assertTwins("constantCompiled", (ops, c, from, to) -> ops.constant(c, from, to, 1.5f));
    }

    @Test
    void valuesDoNotDependOnHowTheRangeIsCut() {
        int from = 5;
        int to = 4099;
        for (FillOps ops : BOTH) {
            try (Arena arena = Arena.ofShared()) {
                MemorySegment wholeRange = column(arena, capacityFor(to));
                MemorySegment wholeUniform = column(arena, capacityFor(to));
                ops.range(wholeRange, from, to, 0, -2f, 0.01f);
                ops.uniform(wholeUniform, from, to, 42L, 0f, 100f);
                for (int cut : new int[] {from, from + 1, 16, 17, 100, 2048, 4000, to}) {
                    for (FillOps other : BOTH) { // each piece by either implementation
                        MemorySegment range = column(arena, capacityFor(to));
                        MemorySegment uniform = column(arena, capacityFor(to));
                        ops.range(range, from, cut, 0, -2f, 0.01f);
                        other.range(range, cut, to, cut - from, -2f, 0.01f);
                        ops.uniform(uniform, from, cut, 42L, 0f, 100f);
                        other.uniform(uniform, cut, to, 42L, 0f, 100f);
                        String where = ops.mode() + " then " + other.mode() + " cut=" + cut;
                        assertSameBits(wholeRange, range, "range " + where);
                        assertSameBits(wholeUniform, uniform, "uniform " + where);
                    }
                }
            }
        }
    }

    @Test
    void uniformIsPinnedForEveryRelease() {
        // the generator is part of what a seed reproduces: these values must never change
        assertEquals(0xAE6F80F1, ScalarFillOps.bits(0L, 1));
        assertEquals(0xE0C361F9, ScalarFillOps.bits(1L, 37));
        assertEquals(0x92D99920, ScalarFillOps.bits(-1L, 4099));
        assertEquals(0x70F57538, ScalarFillOps.bits(0x5EED1234_9E3779B9L, Integer.MAX_VALUE));
        assertEquals(0xCC4B4124, ScalarFillOps.bits(Long.MIN_VALUE, 0));
        assertEquals(1052533480, Float.floatToIntBits(ScalarFillOps.uniform(0x5EED1234_9E3779B9L, 37, -1f, 1f)));
        for (FillOps ops : BOTH) {
            try (Arena arena = Arena.ofShared()) {
                MemorySegment c = column(arena, 64);
                ops.uniform(c, 30, 40, 0x5EED1234_9E3779B9L, -1f, 1f);
                assertEquals(1052533480, Float.floatToIntBits(c.getAtIndex(ValueLayout.JAVA_FLOAT, 37)),
                        ops.mode().toString());
            }
        }
    }

    @Test
    void uniformStaysInsideItsBoundsAndPullsRoundedValuesBelowHi() {
        for (FillOps ops : BOTH) {
            try (Arena arena = Arena.ofShared()) {
                MemorySegment c = column(arena, 4096);
                ops.uniform(c, 0, 4096, 9L, 0x1p24f, 0x1p24f + 2f); // representable values: lo and hi only
                for (int row = 0; row < 4096; row++) {
                    assertEquals(0x1p24f, c.getAtIndex(ValueLayout.JAVA_FLOAT, row), ops.mode() + " row " + row);
                }
                ops.uniform(c, 0, 4096, 10L, -3f, 5f);
                for (int row = 0; row < 4096; row++) {
                    float value = c.getAtIndex(ValueLayout.JAVA_FLOAT, row);
                    assertTrue(value >= -3f && value < 5f, ops.mode() + " row " + row + ": " + value);
                    assertEquals(ScalarFillOps.uniform(10L, row, -3f, 5f), value, ops.mode() + " row " + row);
                }
            }
        }
    }

    /** Fixed keys, so the bounds below are checked against the same numbers every run (they are 6 sigma or more). */
    @Test
    void uniformDistributionIsSound() {
        int n = 1 << 20;
        try (Arena arena = Arena.ofShared()) {
            MemorySegment a = column(arena, n);
            MemorySegment b = column(arena, n);
            KernelProvider.fills().uniform(a, 0, n, 0xC0FFEEL, 0f, 1f);
            KernelProvider.fills().uniform(b, 0, n, 0xC0FFEFL, 0f, 1f); // the neighbouring key
            float[] x = new float[n];
            float[] y = new float[n];
            MemorySegment.copy(a, ValueLayout.JAVA_FLOAT, 0, x, 0, n);
            MemorySegment.copy(b, ValueLayout.JAVA_FLOAT, 0, y, 0, n);
            double mean = 0;
            double squares = 0;
            double lag = 0;
            double cross = 0;
            long[] buckets = new long[64];
            for (int i = 0; i < n; i++) {
                mean += x[i];
                squares += (double) x[i] * x[i];
                lag += (x[i] - 0.5) * (x[(i + 1) % n] - 0.5);
                cross += (x[i] - 0.5) * (y[i] - 0.5);
                buckets[(int) (x[i] * 64)]++;
            }
            mean /= n;
            double variance = squares / n - mean * mean;
            double expected = n / 64.0;
            double chi2 = 0;
            for (long count : buckets) {
                chi2 += (count - expected) * (count - expected) / expected;
            }
            String report = "mean=" + mean + " variance=" + variance + " lag1=" + lag / n + " crossKey=" + cross / n
                    + " chi2(63 dof)=" + chi2;
            System.out.println("uniform fill, 2^20 rows: " + report);
            assertEquals(0.5, mean, 0.002, report);              // sigma of the mean: 0.00028
            assertEquals(1.0 / 12, variance, 0.0008, report);    // sigma: 0.00007
            assertEquals(0, lag / n, 0.0015, report);            // sigma: 0.00008
            assertEquals(0, cross / n, 0.0015, report);
            assertTrue(chi2 < 140, report);                      // mean 63, sigma 11.2
            int[] bits = new int[n];
            for (int row = 0; row < n; row++) {
                bits[row] = ScalarFillOps.bits(0xC0FFEEL, row);
            }
            Arrays.sort(bits);
            for (int i = 1; i < n; i++) {
                assertTrue(bits[i - 1] != bits[i], "rows of one key get distinct words: " + bits[i]);
            }
        }
    }

    @Test
    void badArgumentsAreRefusedAndWriteNothing() {
        for (FillOps ops : BOTH) {
            try (Arena arena = Arena.ofShared()) {
                MemorySegment c = column(arena, 64);
                MemorySegment before = column(arena, 64);
                String mode = ops.mode().toString();
                assertRefused(c, before, mode + " lo == hi", "lo=1.0", () -> ops.uniform(c, 0, 10, 1L, 1f, 1f));
                assertRefused(c, before, mode + " lo > hi", "hi=-1.0", () -> ops.uniform(c, 0, 10, 1L, 1f, -1f));
                assertRefused(c, before, mode + " NaN", "lo=NaN", () -> ops.uniform(c, 0, 10, 1L, Float.NaN, 1f));
                assertRefused(c, before, mode + " infinite", "hi=Infinity",
                        () -> ops.uniform(c, 0, 10, 1L, 0f, Float.POSITIVE_INFINITY));
                assertRefused(c, before, mode + " infinite width", "hi=3.4028235E38",
                        () -> ops.uniform(c, 0, 10, 1L, -Float.MAX_VALUE, Float.MAX_VALUE));
                assertRefused(c, before, mode + " negative fromRow", "fromRow=-1",
                        () -> ops.constant(c, -1, 10, 1f));
                assertRefused(c, before, mode + " fromRow past toRow", "toRow=9",
                        () -> ops.range(c, 10, 9, 0, 0f, 1f));
                assertRefused(c, before, mode + " past the column", "toRow=65",
                        () -> ops.uniform(c, 60, 65, 1L, 0f, 1f));
                assertRefused(c, before, mode + " negative index", "firstIndex=-1",
                        () -> ops.range(c, 0, 10, -1, 0f, 1f));
                assertRefused(c, before, mode + " index overflow", "firstIndex=2147483640",
                        () -> ops.range(c, 0, 10, Integer.MAX_VALUE - 7, 0f, 1f));
                assertRefused(c, before, mode + " NaN step", "step=NaN", () -> ops.range(c, 0, 10, 0, 0f, Float.NaN));
                assertThrows(NullPointerException.class, () -> ops.constant(null, 0, 1, 1f), mode);
                ops.range(c, 0, 10, Integer.MAX_VALUE - 9, 0f, 1f); // the last index is exactly MAX_VALUE: allowed
            }
        }
    }

    private static void assertRefused(MemorySegment column, MemorySegment untouched, String where, String named,
            Executable call) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call, where);
        assertTrue(e.getMessage().contains(named), where + ": " + e.getMessage());
        assertSameBits(untouched, column, where + ": the column changed");
    }

    @Test
    void fillsAllocateNothingOnceWarm() {
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long thread = Thread.currentThread().threadId();
        try (Arena arena = Arena.ofShared()) {
            MemorySegment c = column(arena, 4096);
            for (FillOps ops : BOTH) {
                long best = Long.MAX_VALUE;
                // vector code allocates until C2 compiles it: keep the best round, for up to 20 seconds
                long deadline = System.nanoTime() + 20_000_000_000L;
                for (int round = 0; best > 0 && (round < 40 || System.nanoTime() < deadline); round++) {
                    long before = threads.getThreadAllocatedBytes(thread);
                    for (int i = 0; i < 500; i++) {
                        ops.constant(c, i & 7, 4000 + (i & 7), 1f);
                        ops.range(c, i & 7, 4000 + (i & 7), i, 0f, 0.5f);
                        ops.uniform(c, i & 7, 4000 + (i & 7), i, -1f, 1f);
                    }
                    best = Math.min(best, threads.getThreadAllocatedBytes(thread) - before);
                }
                assertEquals(0, best, ops.mode() + ": bytes allocated by 500 rounds of fills in the best round");
            }
        }
    }
}
