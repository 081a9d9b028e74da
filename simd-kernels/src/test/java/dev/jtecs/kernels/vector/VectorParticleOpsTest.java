package dev.jtecs.kernels.vector;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.kernels.ParticleOps;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Vector kernels agree bit for bit with their scalar twins, on sizes straddling the lane count. */
class VectorParticleOpsTest {
    private static final float[] SPECIALS = {Float.NaN, -0.0f, 0.0f, Float.POSITIVE_INFINITY,
        Float.NEGATIVE_INFINITY, Float.MAX_VALUE, -Float.MAX_VALUE, Float.MIN_VALUE, 1e30f, -1e-30f};

    private static int[] sizes() {
        int lanes = VectorParticleOps.lanes();
        return new int[] {0, 1, lanes - 1, lanes, lanes + 1, 2 * lanes + 3, 1000, 4099};
    }

    /** A native segment padded like a jtecs column (capacity a multiple of 64 rows). */
    private static MemorySegment column(Arena arena, float[] values) {
        int capacity = Math.max(64, (values.length + 63) / 64 * 64);
        MemorySegment segment = arena.allocate((long) capacity * Float.BYTES, 64);
        MemorySegment.copy(values, 0, segment, ValueLayout.JAVA_FLOAT, 0, values.length);
        return segment;
    }

    private static float[] read(MemorySegment segment, int count) {
        float[] out = new float[count];
        MemorySegment.copy(segment, ValueLayout.JAVA_FLOAT, 0, out, 0, count);
        return out;
    }

    private static float[] randomFloats(SplittableRandom random, int count) {
        float[] values = new float[count];
        for (int i = 0; i < count; i++) {
            values[i] = random.nextInt(10) == 0
                    ? SPECIALS[random.nextInt(SPECIALS.length)]
                    : (float) (random.nextDouble() * 200 - 100);
        }
        return values;
    }

    @Test
    void integrate2dMatchesScalarTwinBitForBit() {
        long seed = 1234;
        SplittableRandom random = new SplittableRandom(seed);
        for (int count : sizes()) {
            float[] x = randomFloats(random, count);
            float[] y = randomFloats(random, count);
            float[] vx = randomFloats(random, count);
            float[] vy = randomFloats(random, count);
            try (Arena arena = Arena.ofShared()) {
                MemorySegment vecX = column(arena, x);
                MemorySegment vecY = column(arena, y);
                MemorySegment sclX = column(arena, x);
                MemorySegment sclY = column(arena, y);
                MemorySegment vx1 = column(arena, vx);
                MemorySegment vy1 = column(arena, vy);
                VectorParticleOps.INSTANCE.integrate2d(vecX, vecY, vx1, vy1, count, 1f / 60f);
                ParticleOps.SCALAR.integrate2d(sclX, sclY, vx1, vy1, count, 1f / 60f);
                assertBitsEqual(read(sclX, count), read(vecX, count), "x seed=" + seed + " count=" + count);
                assertBitsEqual(read(sclY, count), read(vecY, count), "y seed=" + seed + " count=" + count);
            }
        }
    }

    @Test
    void integrate2dSpecificationOnKnownValues() {
        try (Arena arena = Arena.ofShared()) {
            MemorySegment x = column(arena, new float[] {1, 2});
            MemorySegment y = column(arena, new float[] {0, 0});
            MemorySegment vx = column(arena, new float[] {10, -20});
            MemorySegment vy = column(arena, new float[] {5, 5});
            ParticleOps.SCALAR.integrate2d(x, y, vx, vy, 2, 0.5f);
            assertArrayEquals(new float[] {6, -8}, read(x, 2));
            assertArrayEquals(new float[] {2.5f, 2.5f}, read(y, 2));
        }
    }

    @Test
    void countdownMatchesScalarTwinAndListsExpiredRowsAscending() {
        long seed = 99;
        SplittableRandom random = new SplittableRandom(seed);
        for (int count : sizes()) {
            float[] remaining = new float[count];
            for (int i = 0; i < count; i++) {
                remaining[i] = random.nextInt(8) == 0 ? SPECIALS[random.nextInt(SPECIALS.length)]
                        : (float) (random.nextDouble() * 0.1);
            }
            try (Arena arena = Arena.ofShared()) {
                MemorySegment vector = column(arena, remaining);
                MemorySegment scalar = column(arena, remaining);
                // padding rows hold values that would "expire": they must never be reported
                for (int row = count; row < vector.byteSize() / Float.BYTES; row++) {
                    vector.setAtIndex(ValueLayout.JAVA_FLOAT, row, -1f);
                }
                int[] vectorRows = new int[count + 1];
                int[] scalarRows = new int[count + 1];
                int nv = VectorParticleOps.INSTANCE.countdown(vector, count, 0.05f, vectorRows);
                int ns = ParticleOps.SCALAR.countdown(scalar, count, 0.05f, scalarRows);
                assertEquals(ns, nv, "seed=" + seed + " count=" + count);
                assertArrayEquals(Arrays.copyOf(scalarRows, ns), Arrays.copyOf(vectorRows, nv));
                assertBitsEqual(read(scalar, count), read(vector, count), "seed=" + seed + " count=" + count);
                for (int i = 1; i < nv; i++) {
                    assertTrue(vectorRows[i - 1] < vectorRows[i]);
                }
            }
        }
    }

    @Test
    void rejectsSegmentsThatAreNotPaddedColumns() {
        try (Arena arena = Arena.ofShared()) {
            MemorySegment tight = arena.allocate(Float.BYTES * 3L, 64);
            MemorySegment ok = arena.allocate(Float.BYTES * 64L, 64);
            assertThrows(IllegalArgumentException.class,
                    () -> VectorParticleOps.INSTANCE.integrate2d(tight, ok, ok, ok, 3, 1f));
            assertThrows(IllegalArgumentException.class,
                    () -> VectorParticleOps.INSTANCE.integrate2d(ok, ok, ok, ok, -1, 1f));
            assertThrows(IllegalArgumentException.class,
                    () -> VectorParticleOps.INSTANCE.countdown(tight, 3, 1f, new int[3]));
        }
    }

    @Test
    void warmUpIsIdempotentAndLeavesKernelsCorrect() {
        VectorParticleOps.warmUp();
        VectorParticleOps.warmUp();
        try (Arena arena = Arena.ofShared()) {
            MemorySegment x = column(arena, new float[] {1});
            MemorySegment v = column(arena, new float[] {2});
            VectorParticleOps.INSTANCE.integrate2d(x, x, v, v, 1, 0.5f);
            assertEquals(3f, read(x, 1)[0]);
        }
    }

    @Test
    void paddedCountRoundsUpToWholeVectors() {
        int lanes = VectorParticleOps.lanes();
        assertEquals(0, VectorParticleOps.paddedCount(0));
        assertEquals(lanes, VectorParticleOps.paddedCount(1));
        assertEquals(lanes, VectorParticleOps.paddedCount(lanes));
        assertEquals(2 * lanes, VectorParticleOps.paddedCount(lanes + 1));
        assertTrue(64 % lanes == 0, "64-row column padding covers every lane count");
    }

    private static void assertBitsEqual(float[] expected, float[] actual, String message) {
        assertEquals(expected.length, actual.length, message);
        for (int i = 0; i < expected.length; i++) {
            assertEquals(Float.floatToRawIntBits(expected[i]) == Float.floatToRawIntBits(actual[i])
                    || Float.isNaN(expected[i]) && Float.isNaN(actual[i]), true, message + " row " + i + ": "
                    + expected[i] + " vs " + actual[i]);
        }
    }
}
