package dev.jtecs.kernels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.builtin.TTL;
import dev.jtecs.kernels.vector.VectorLifetimeLerpOps;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The vector lifetime interpolation against its scalar twin, bit for bit (NaN compared as NaN), on sizes straddling
 * the lane count, on lifetimes that break careless kernels (NaN, -0.0, infinities, zero and negative starts, huge
 * values), and with one, three and four channels; the twin's progress is TTL's own {@code percentComplete}.
 */
class LifetimeLerpOpsTest {
    private static final LifetimeLerpOps VECTOR = VectorLifetimeLerpOps.INSTANCE;
    private static final LifetimeLerpOps SCALAR = LifetimeLerpOps.SCALAR;
    private static final double[] SPECIALS = {Double.NaN, -0.0, 0.0, Double.POSITIVE_INFINITY,
        Double.NEGATIVE_INFINITY, Double.MAX_VALUE, -Double.MAX_VALUE, Double.MIN_VALUE, 1e300, -1e-300, 1.0 / 60, 1.0,
        3.0};
    private static final float OUT_PADDING = -777.25f;

    private static int[] sizes() {
        int lanes = VectorLifetimeLerpOps.lanes();
        return new int[] {0, 1, lanes - 1, lanes, lanes + 1, 2 * lanes + 3, 1000, 4099};
    }

    private static int capacity(int count) {
        return Math.max(64, (count + 63) / 64 * 64);
    }

    private static MemorySegment doubles(Arena arena, double[] values) {
        int capacity = capacity(values.length);
        MemorySegment segment = arena.allocate((long) capacity * Double.BYTES, 64);
        for (int row = values.length; row < capacity; row++) {
            segment.setAtIndex(ValueLayout.JAVA_DOUBLE, row, Double.NaN); // padding: whatever an earlier row left
        }
        MemorySegment.copy(values, 0, segment, ValueLayout.JAVA_DOUBLE, 0, values.length);
        return segment;
    }

    private static MemorySegment floats(Arena arena, int count) {
        int capacity = capacity(count);
        MemorySegment segment = arena.allocate((long) capacity * Float.BYTES, 64);
        for (int row = 0; row < capacity; row++) {
            segment.setAtIndex(ValueLayout.JAVA_FLOAT, row, OUT_PADDING);
        }
        return segment;
    }

    /** A lifetime field: mostly ordinary values around {@code scale}, some specials. */
    private static double[] lifetimes(SplittableRandom random, int count, double scale) {
        double[] values = new double[count];
        for (int i = 0; i < count; i++) {
            values[i] = random.nextInt(8) == 0 ? SPECIALS[random.nextInt(SPECIALS.length)]
                    : (random.nextDouble() * 1.4 - 0.2) * scale; // below zero and above the start too
        }
        return values;
    }

    private static void assertTwins(String name, float[] from, float[] to) {
        long seed = name.hashCode();
        SplittableRandom random = new SplittableRandom(seed);
        for (int count : sizes()) {
            try (Arena arena = Arena.ofShared()) {
                double[] start = lifetimes(random, count, 5.0);
                double[] left = lifetimes(random, count, 5.0);
                int n = from.length;
                MemorySegment[] vector = new MemorySegment[n + 2];
                MemorySegment[] scalar = new MemorySegment[n + 2];
                for (int c = 0; c < n; c++) {
                    vector[c] = floats(arena, count);
                    scalar[c] = floats(arena, count);
                }
                vector[n] = doubles(arena, start);
                scalar[n] = vector[n];
                vector[n + 1] = doubles(arena, left);
                scalar[n + 1] = vector[n + 1];
                VECTOR.lerp(vector, from, to, count);
                SCALAR.lerp(scalar, from, to, count);
                for (int c = 0; c < n; c++) {
                    for (int row = 0; row < count; row++) {
                        float s = scalar[c].getAtIndex(ValueLayout.JAVA_FLOAT, row);
                        float v = vector[c].getAtIndex(ValueLayout.JAVA_FLOAT, row);
                        if (Float.floatToIntBits(s) != Float.floatToIntBits(v)) {
                            throw new AssertionError(name + " seed=" + seed + " count=" + count + " channel=" + c
                                    + " row=" + row + " startingTime=" + start[row] + " remaining=" + left[row]
                                    + ": scalar " + s + " vs vector " + v);
                        }
                    }
                }
            }
        }
    }

    @Test
    void lerpMatchesTwinBitForBitOnOneThreeAndFourChannels() {
        assertTwins("size", new float[] {4f}, new float[] {0.5f});
        assertTwins("rgb", new float[] {1f, 0.9f, 0.2f}, new float[] {0.3f, 0f, 0f});
        assertTwins("rgba", new float[] {1f, 1f, 1f, 1f}, new float[] {1f, 0.25f, 0f, 0f});
        assertTwins("hugeAndSigned", new float[] {-Float.MAX_VALUE, Float.MAX_VALUE, -0.0f, 1e-40f},
                new float[] {Float.MAX_VALUE, -Float.MAX_VALUE, 0.0f, -1e30f});
    }

    /** The same comparison once C2 has compiled the kernel (blends, D2F and all as intrinsics). */
    @Test
    void lerpMatchesTwinBitForBitOnceCompiled() {
        VectorLifetimeLerpOps.warmUp();
        VectorLifetimeLerpOps.warmUp(); // idempotent
        assertTwins("sizeCompiled", new float[] {4f}, new float[] {0.5f});
        assertTwins("rgbaCompiled", new float[] {1f, 1f, 1f, 1f}, new float[] {1f, 0.25f, 0f, 0f});
    }

    @Test
    void progressIsTtlsOwnPercentComplete() {
        for (double start : SPECIALS) {
            for (double left : SPECIALS) {
                assertEquals(Double.doubleToLongBits(new TTL(start, left).percentComplete()),
                        Double.doubleToLongBits(ScalarLifetimeLerpOps.percentComplete(start, left)),
                        "startingTime=" + start + " remaining=" + left);
            }
        }
        long seed = 5;
        SplittableRandom random = new SplittableRandom(seed);
        for (int i = 0; i < 100_000; i++) {
            double start = random.nextDouble(-1, 10);
            double left = random.nextDouble(-2, 12);
            assertEquals(new TTL(start, left).percentComplete(), ScalarLifetimeLerpOps.percentComplete(start, left),
                    "seed=" + seed + " i=" + i);
        }
    }

    @Test
    void specificationOnKnownValues() {
        for (LifetimeLerpOps ops : new LifetimeLerpOps[] {VECTOR, SCALAR}) {
            try (Arena arena = Arena.ofShared()) {
                // fresh, half, spent, overdue, never started, remaining above the start, NaN, a third
                double[] start = {2, 2, 2, 2, 0, 2, 2, 3};
                double[] left = {2, 1, 0, -5, 1, 9, Double.NaN, 1};
                MemorySegment[] columns = {floats(arena, 8), floats(arena, 8), doubles(arena, start),
                    doubles(arena, left)};
                ops.lerp(columns, new float[] {0.1f, 10f}, new float[] {0.7f, -10f}, 8);
                float[] alpha = new float[8];
                float[] size = new float[8];
                MemorySegment.copy(columns[0], ValueLayout.JAVA_FLOAT, 0, alpha, 0, 8);
                MemorySegment.copy(columns[1], ValueLayout.JAVA_FLOAT, 0, size, 0, 8);
                String where = ops.mode().toString();
                assertEquals(0.1f, alpha[0], where + ": exactly the start when fresh");
                assertEquals(0.5f * 0.1f + 0.5f * 0.7f, alpha[1], where);
                assertEquals(0f, size[1], where);
                assertEquals(0.7f, alpha[2], where + ": exactly the end when spent");
                assertEquals(-10f, size[3], where + ": clamped at the end");
                assertEquals(-10f, size[4], where + ": a lifetime that never started counts as spent");
                assertEquals(10f, size[5], where + ": clamped at the start");
                assertTrue(Float.isNaN(alpha[6]) && Float.isNaN(size[6]), where + ": NaN, as percentComplete");
                float third = (float) (1 - 1.0 / 3);
                assertEquals((1f - third) * 10f + third * -10f, size[7], where + ": t rounded to float once");
            }
        }
    }

    @Test
    void badArgumentsAreRefusedAndWriteNothing() {
        for (LifetimeLerpOps ops : new LifetimeLerpOps[] {VECTOR, SCALAR}) {
            try (Arena arena = Arena.ofShared()) {
                MemorySegment out = floats(arena, 10);
                MemorySegment start = doubles(arena, new double[10]);
                MemorySegment left = doubles(arena, new double[10]);
                MemorySegment[] columns = {out, start, left};
                float[] one = {1f};
                String where = ops.mode().toString();
                IllegalArgumentException lengths = assertThrows(IllegalArgumentException.class,
                        () -> ops.lerp(columns, one, new float[] {1f, 2f}, 10), where);
                assertTrue(lengths.getMessage().contains("to.length=2"), lengths.getMessage());
                assertThrows(IllegalArgumentException.class, () -> ops.lerp(columns, new float[0], new float[0], 10));
                assertThrows(IllegalArgumentException.class,
                        () -> ops.lerp(new MemorySegment[] {out, start}, one, one, 10), where + ": no remaining");
                assertThrows(IllegalArgumentException.class, () -> ops.lerp(columns, one, one, -1), where);
                assertThrows(IllegalArgumentException.class, () -> ops.lerp(columns, one, one, 65), where);
                MemorySegment tight = arena.allocate(10L * Double.BYTES, 64);
                IllegalArgumentException shortColumn = assertThrows(IllegalArgumentException.class,
                        () -> ops.lerp(new MemorySegment[] {out, start, tight}, one, one, 11), where);
                assertTrue(shortColumn.getMessage().contains("column 2"), shortColumn.getMessage());
                for (int row = 0; row < 64; row++) {
                    assertEquals(OUT_PADDING, out.getAtIndex(ValueLayout.JAVA_FLOAT, row), where + " row " + row);
                }
            }
        }
    }
}
