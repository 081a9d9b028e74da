package dev.jtecs.kernels;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.jtecs.kernels.vector.VectorBoundsOps;
import dev.jtecs.kernels.vector.VectorParticleOps;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The vector bounds reduction against its scalar twin, bit for bit (minimum and maximum are exact), on sizes
 * straddling the lane count with NaN, {@code -0.0}, infinities and huge values; the NaN policy (skipped), the
 * empty range, the padding never read, and bad arguments refused with nothing changed.
 */
class BoundsOpsTest {
    private static final BoundsOps VECTOR = VectorBoundsOps.INSTANCE;
    private static final BoundsOps SCALAR = BoundsOps.SCALAR;
    private static final float[] SPECIALS = {Float.NaN, -0.0f, 0.0f, Float.POSITIVE_INFINITY,
        Float.NEGATIVE_INFINITY, Float.MAX_VALUE, -Float.MAX_VALUE, Float.MIN_VALUE, -Float.MIN_VALUE, 1e30f,
        -1e30f};

    private static int[] sizes() {
        int lanes = VectorParticleOps.lanes();
        return new int[] {0, 1, lanes - 1, lanes, lanes + 1, 2 * lanes + 3, 1000, 4099};
    }

    @Test
    void vectorMatchesTwinBitForBitOnSpecialsAndLaneStraddlingSizes() {
        long seed = 0xb0b0L;
        System.out.println("BoundsOpsTest seed=" + seed);
        SplittableRandom random = new SplittableRandom(seed);
        for (int round = 0; round < 40; round++) {
            if (round == 20) {
                warm();
            }
            for (int count : sizes()) {
                double specialRate = new double[] {0, 0.05, 0.5, 1}[round % 4];
                float[] values = new float[count];
                for (int i = 0; i < count; i++) {
                    values[i] = random.nextDouble() < specialRate ? SPECIALS[random.nextInt(SPECIALS.length)]
                            : (float) random.nextDouble(-1e4, 1e4);
                }
                try (Arena arena = Arena.ofShared()) {
                    MemorySegment column = column(arena, values, -1e38f); // padding beyond every value: never read
                    float[] v = {Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY};
                    float[] s = {Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY};
                    VECTOR.minMax(column, count, v);
                    SCALAR.minMax(column, count, s);
                    String where = "seed=" + seed + " round=" + round + " count=" + count;
                    assertEquals(Float.floatToRawIntBits(s[0]), Float.floatToRawIntBits(v[0]), "min " + where);
                    assertEquals(Float.floatToRawIntBits(s[1]), Float.floatToRawIntBits(v[1]), "max " + where);
                    float[] expected = reference(values);
                    assertEquals(Float.floatToRawIntBits(expected[0]), Float.floatToRawIntBits(s[0]), "twin min " + where);
                    assertEquals(Float.floatToRawIntBits(expected[1]), Float.floatToRawIntBits(s[1]), "twin max " + where);
                }
            }
        }
    }

    /** The policy by definition: NaN skipped, Math.min/max over the rest, the empty range for nothing left. */
    private static float[] reference(float[] values) {
        float min = Float.POSITIVE_INFINITY;
        float max = Float.NEGATIVE_INFINITY;
        for (float value : values) {
            if (!Float.isNaN(value)) {
                min = Math.min(min, value);
                max = Math.max(max, value);
            }
        }
        return new float[] {min, max};
    }

    private static void warm() {
        try (Arena arena = Arena.ofShared()) {
            MemorySegment column = column(arena, new float[256], 0f);
            float[] range = new float[2];
            for (int i = 0; i < 50_000; i++) {
                range[0] = Float.POSITIVE_INFINITY;
                range[1] = Float.NEGATIVE_INFINITY;
                VectorBoundsOps.INSTANCE.minMax(column, 1 + i % 256, range);
            }
        }
    }

    @Test
    void nanIsSkippedNegativeZeroIsBelowZeroAndNothingIsEmpty() {
        int lanes = VectorParticleOps.lanes();
        for (BoundsOps ops : new BoundsOps[] {VECTOR, SCALAR}) {
            try (Arena arena = Arena.ofShared()) {
                float[] values = new float[2 * lanes + 3];
                java.util.Arrays.fill(values, Float.NaN);
                values[lanes + 2] = 0.0f;   // in a whole vector
                values[2 * lanes + 1] = -0.0f; // in the tail
                float[] range = {Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY};
                ops.minMax(column(arena, values, 5f), values.length, range);
                assertArrayEquals(new float[] {-0.0f, 0.0f}, range, ops.mode() + ": NaN skipped, -0.0 < 0.0");
                assertEquals(Float.floatToRawIntBits(-0.0f), Float.floatToRawIntBits(range[0]), ops.mode().toString());

                float[] nothing = {Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY};
                ops.minMax(column(arena, new float[] {Float.NaN, Float.NaN}, 1f), 2, nothing);
                assertArrayEquals(new float[] {Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY}, nothing,
                        ops.mode() + ": only NaN leaves the range empty");
                ops.minMax(column(arena, new float[0], 1f), 0, nothing);
                assertArrayEquals(new float[] {Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY}, nothing,
                        ops.mode() + ": no rows leave it empty");
            }
        }
    }

    @Test
    void rangesAccumulateAcrossCalls() {
        for (BoundsOps ops : new BoundsOps[] {VECTOR, SCALAR}) {
            try (Arena arena = Arena.ofShared()) {
                float[] range = {Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY};
                ops.minMax(column(arena, new float[] {3, 4, 5}, 0f), 3, range);
                ops.minMax(column(arena, new float[] {-1, 2}, 0f), 2, range);
                assertArrayEquals(new float[] {-1, 5}, range, ops.mode().toString());
            }
        }
    }

    @Test
    void badArgumentsAreRefusedAndChangeNothing() {
        for (BoundsOps ops : new BoundsOps[] {VECTOR, SCALAR}) {
            try (Arena arena = Arena.ofShared()) {
                MemorySegment column = column(arena, new float[] {1, 2, 3}, 0f); // 64 rows of capacity
                float[] range = {7, 8};
                IllegalArgumentException tooMany = assertThrows(IllegalArgumentException.class,
                        () -> ops.minMax(column, 65, range));
                assertEquals("count=65 outside 0..64 (segment byteSize=256)", tooMany.getMessage());
                assertThrows(IllegalArgumentException.class, () -> ops.minMax(column, -1, range));
                IllegalArgumentException shortRange = assertThrows(IllegalArgumentException.class,
                        () -> ops.minMax(column, 3, new float[1]));
                assertEquals("range length=1 needs 2 (min, max)", shortRange.getMessage());
                IllegalArgumentException nan = assertThrows(IllegalArgumentException.class,
                        () -> ops.minMax(column, 3, new float[] {Float.NaN, 0}));
                assertEquals(true, nan.getMessage().contains("min=NaN max=0.0"), nan.getMessage());
                assertArrayEquals(new float[] {7, 8}, range, ops.mode() + ": unchanged");
            }
        }
    }

    @Test
    void aReductionAllocatesNothingOnceWarm() {
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        long thread = Thread.currentThread().threadId();
        try (Arena arena = Arena.ofShared()) {
            MemorySegment column = column(arena, new float[1000], 0f);
            float[] range = {Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY};
            for (BoundsOps ops : new BoundsOps[] {VECTOR, SCALAR}) {
                long best = Long.MAX_VALUE;
                // vector code allocates until C2 compiles it: keep the best round, for up to 20 seconds
                long deadline = System.nanoTime() + 20_000_000_000L;
                for (int round = 0; best > 0 && (round < 20 || System.nanoTime() < deadline); round++) {
                    long before = threads.getThreadAllocatedBytes(thread);
                    for (int i = 0; i < 5_000; i++) {
                        ops.minMax(column, 1 + i % 1000, range);
                    }
                    best = Math.min(best, threads.getThreadAllocatedBytes(thread) - before);
                }
                assertEquals(0, best, ops.mode() + ": bytes allocated by 5000 reductions in the best round");
            }
        }
    }

    @Test
    void theProviderPicksItsModesImplementation() {
        assertEquals(KernelProvider.mode(), KernelProvider.bounds().mode());
    }

    /** A native column padded like a jtecs one, padding set to {@code padding}. */
    private static MemorySegment column(Arena arena, float[] values, float padding) {
        int capacity = Math.max(64, (values.length + 63) / 64 * 64);
        MemorySegment segment = arena.allocate((long) capacity * Float.BYTES, 64);
        for (int row = values.length; row < capacity; row++) {
            segment.setAtIndex(ValueLayout.JAVA_FLOAT, row, padding);
        }
        MemorySegment.copy(values, 0, segment, ValueLayout.JAVA_FLOAT, 0, values.length);
        return segment;
    }
}
