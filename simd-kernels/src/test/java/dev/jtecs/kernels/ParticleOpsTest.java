package dev.jtecs.kernels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.kernels.vector.VectorParticleOps;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The vector {@link ParticleOps} against the scalar twins, bit for bit, on sizes straddling the lane count and on
 * values that break careless kernels (NaN, -0.0, infinities, huge values); conditional kernels also agree on
 * whether anything changed and leave the padding rows alone.
 *
 * <p>One exception to "bit for bit": Java does not define which payload a NaN produced by arithmetic carries
 * (x86 keeps the first operand's, and the JIT may commute a vector add), so arithmetic kernels compare NaNs as
 * NaN. Conditional kernels do no arithmetic on the lanes they keep, so they must keep even NaN payloads exactly.
 */
class ParticleOpsTest {
    private static final ParticleOps VECTOR = VectorParticleOps.INSTANCE;
    private static final ParticleOps SCALAR = ParticleOps.SCALAR;
    private static final float[] SPECIALS = {Float.NaN, Float.intBitsToFloat(0x7fc00123), -0.0f, 0.0f,
        Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, Float.MAX_VALUE, -Float.MAX_VALUE, Float.MIN_VALUE,
        1e30f, -1e30f, -1e-30f};
    private static final float PADDING = 12345.5f; // out of every bound the tests use

    private static int[] sizes() {
        int lanes = VectorParticleOps.lanes();
        return new int[] {0, 1, lanes - 1, lanes, lanes + 1, 2 * lanes + 3, 1000, 4099};
    }

    private interface Op {
        /** Runs one kernel on {@code columns} and returns its change report (true for unconditional kernels). */
        boolean apply(ParticleOps ops, MemorySegment[] columns, int count);
    }

    /** Runs {@code op} vector and scalar on copies of the same columns; asserts equal bits and reports. */
    private static void assertTwins(String name, int columnCount, Op op, double specialRate, float spread) {
        assertTwins(name, columnCount, op, specialRate, spread, false);
    }

    private static void assertTwins(String name, int columnCount, Op op, double specialRate, float spread,
            boolean exactNaN) {
        long seed = name.hashCode();
        SplittableRandom random = new SplittableRandom(seed);
        for (int count : sizes()) {
            try (Arena arena = Arena.ofShared()) {
                MemorySegment[] vector = new MemorySegment[columnCount];
                MemorySegment[] scalar = new MemorySegment[columnCount];
                for (int c = 0; c < columnCount; c++) {
                    float[] values = values(random, count, specialRate, spread);
                    vector[c] = column(arena, values);
                    scalar[c] = column(arena, values);
                }
                boolean v = op.apply(VECTOR, vector, count);
                boolean s = op.apply(SCALAR, scalar, count);
                String where = name + " seed=" + seed + " count=" + count;
                assertEquals(s, v, "change report " + where);
                for (int c = 0; c < columnCount; c++) {
                    assertBitsEqual(scalar[c], vector[c], count, exactNaN, where + " column=" + c);
                }
            }
        }
    }

    private static float[] values(SplittableRandom random, int count, double specialRate, float spread) {
        float[] values = new float[count];
        for (int i = 0; i < count; i++) {
            values[i] = random.nextDouble() < specialRate ? SPECIALS[random.nextInt(SPECIALS.length)]
                    : (float) ((random.nextDouble() * 2 - 1) * spread);
        }
        return values;
    }

    /** A native column padded like a jtecs one (capacity a multiple of 64 rows), padding set to {@link #PADDING}. */
    private static MemorySegment column(Arena arena, float[] values) {
        int capacity = Math.max(64, (values.length + 63) / 64 * 64);
        MemorySegment segment = arena.allocate((long) capacity * Float.BYTES, 64);
        segment.fill((byte) 0);
        for (int row = values.length; row < capacity; row++) {
            segment.setAtIndex(ValueLayout.JAVA_FLOAT, row, PADDING);
        }
        MemorySegment.copy(values, 0, segment, ValueLayout.JAVA_FLOAT, 0, values.length);
        return segment;
    }

    private static void assertBitsEqual(MemorySegment expected, MemorySegment actual, int count, boolean exactNaN,
            String where) {
        for (int row = 0; row < count; row++) {
            float ev = expected.getAtIndex(ValueLayout.JAVA_FLOAT, row);
            float av = actual.getAtIndex(ValueLayout.JAVA_FLOAT, row);
            int e = exactNaN ? Float.floatToRawIntBits(ev) : Float.floatToIntBits(ev);
            int a = exactNaN ? Float.floatToRawIntBits(av) : Float.floatToIntBits(av);
            if (e != a) {
                throw new AssertionError(where + " row=" + row + ": scalar " + Float.intBitsToFloat(e) + " ("
                        + Integer.toHexString(e) + ") vs vector " + Float.intBitsToFloat(a) + " ("
                        + Integer.toHexString(a) + ")");
            }
        }
    }

    private static void assertPaddingUntouched(MemorySegment column, int count) {
        for (long row = count; row < column.byteSize() / Float.BYTES; row++) {
            assertEquals(PADDING, column.getAtIndex(ValueLayout.JAVA_FLOAT, row), "padding row " + row);
        }
    }

    @Test
    void integrate2dMatchesTwinBitForBit() {
        assertTwins("integrate2d", 4, (ops, c, n) -> {
            ops.integrate2d(c[0], c[1], c[2], c[3], n, 1f / 60f);
            return true;
        }, 0.1, 100f);
    }

    @Test
    void integrate3dMatchesTwinBitForBit() {
        assertTwins("integrate3d", 6, (ops, c, n) -> {
            ops.integrate3d(c[0], c[1], c[2], c[3], c[4], c[5], n, 1f / 60f);
            return true;
        }, 0.1, 100f);
        assertTwins("integrate3dHugeStep", 6, (ops, c, n) -> { // overflow to infinity, inf - inf = NaN
            ops.integrate3d(c[0], c[1], c[2], c[3], c[4], c[5], n, 1e30f);
            return true;
        }, 0.3, 1e10f);
    }

    @Test
    void integrate3dMatchesTwinBitForBitOnceCompiled() {
        VectorParticleOps.warmUp();
        assertTwins("integrate3dCompiled", 6, (ops, c, n) -> {
            ops.integrate3d(c[0], c[1], c[2], c[3], c[4], c[5], n, 1f / 60f);
            return true;
        }, 0.1, 100f);
    }

    @Test
    void integrate3dMovesEachAxisByItsOwnVelocity() {
        for (ParticleOps ops : new ParticleOps[] {VECTOR, SCALAR}) {
            try (Arena arena = Arena.ofShared()) {
                SplittableRandom random = new SplittableRandom(77);
                int count = 1000;
                float[][] values = new float[6][];
                MemorySegment[] c = new MemorySegment[6];
                for (int i = 0; i < 6; i++) {
                    values[i] = values(random, count, 0.1, 100f);
                    c[i] = column(arena, values[i]);
                }
                ops.integrate3d(c[0], c[1], c[2], c[3], c[4], c[5], count, 0.25f);
                for (int axis = 0; axis < 3; axis++) {
                    for (int row = 0; row < count; row++) {
                        float expected = values[axis][row] + values[axis + 3][row] * 0.25f;
                        assertEquals(Float.floatToIntBits(expected),
                                Float.floatToIntBits(c[axis].getAtIndex(ValueLayout.JAVA_FLOAT, row)),
                                ops.mode() + " axis=" + axis + " row=" + row);
                    }
                }
            }
        }
    }

    @Test
    void accelerateMatchesTwinBitForBit() {
        assertTwins("accelerate", 1, (ops, c, n) -> {
            ops.accelerate(c[0], n, -9.81f, 1f / 60f);
            return true;
        }, 0.1, 100f);
    }

    @Test
    void scaleMatchesTwinBitForBit() {
        assertTwins("scale", 1, (ops, c, n) -> {
            ops.scale(c[0], n, (float) Math.pow(0.3, 1.0 / 60)); // a damping factor
            return true;
        }, 0.1, 100f);
        assertTwins("scaleByZero", 1, (ops, c, n) -> { // 0 * inf = NaN, 0 * -x = -0.0
            ops.scale(c[0], n, 0f);
            return true;
        }, 0.3, 100f);
    }

    @Test
    void wrapMatchesTwinBitForBitAndReportsTheSameChange() {
        assertTwins("wrap", 1, (ops, c, n) -> ops.wrap(c[0], n, -50f, 50f), 0.1, 100f, true);
        assertTwins("wrapAtZero", 1, (ops, c, n) -> ops.wrap(c[0], n, 0f, 1f), 0.3, 2f, true);
    }

    @Test
    void clampMatchesTwinBitForBitAndReportsTheSameChange() {
        assertTwins("clamp", 1, (ops, c, n) -> ops.clamp(c[0], n, -50f, 50f), 0.1, 100f, true);
        // -0.0 against a bound of 0.0: a lanewise max would write 0.0, the twin keeps -0.0
        assertTwins("clampAtZero", 1, (ops, c, n) -> ops.clamp(c[0], n, 0f, 1f), 0.3, 2f, true);
    }

    @Test
    void conditionalKernelsNeverTouchThePaddingAndReportNoChangeWhenAllInBounds() {
        for (ParticleOps ops : new ParticleOps[] {VECTOR, SCALAR}) {
            for (int count : sizes()) {
                try (Arena arena = Arena.ofShared()) {
                    float[] inside = new float[count];
                    for (int i = 0; i < count; i++) {
                        inside[i] = (i % 3 == 0) ? Float.NaN : (i % 3 == 1 ? -0.0f : 0.25f);
                    }
                    MemorySegment c = column(arena, inside);
                    assertFalse(ops.wrap(c, count, -1f, 1f), ops.mode() + " wrap count=" + count);
                    assertFalse(ops.clamp(c, count, -1f, 1f), ops.mode() + " clamp count=" + count);
                    assertPaddingUntouched(c, count);
                    // infinities are out of bounds but do not move when wrapped: no change either
                    if (count > 0) {
                        c.setAtIndex(ValueLayout.JAVA_FLOAT, count - 1, Float.POSITIVE_INFINITY);
                        assertFalse(ops.wrap(c, count, -1f, 1f), ops.mode() + " wrap inf count=" + count);
                        assertTrue(ops.clamp(c, count, -1f, 1f), ops.mode() + " clamp inf count=" + count);
                    }
                    assertPaddingUntouched(c, count);
                }
            }
        }
    }

    @Test
    void specificationOnKnownValues() {
        try (Arena arena = Arena.ofShared()) {
            MemorySegment c = column(arena, new float[] {-1.5f, 1f, 0.5f, -0.0f, Float.NaN});
            assertTrue(ScalarParticleOps.wrap(c, 0, 5, -1f, 1f));
            assertEquals(0.5f, c.getAtIndex(ValueLayout.JAVA_FLOAT, 0));
            assertEquals(-1f, c.getAtIndex(ValueLayout.JAVA_FLOAT, 1)); // max is exclusive
            assertEquals(0.5f, c.getAtIndex(ValueLayout.JAVA_FLOAT, 2));
            MemorySegment d = column(arena, new float[] {-3f, 3f, -0.0f, Float.NaN});
            assertTrue(ScalarParticleOps.clamp(d, 0, 4, 0f, 2f));
            assertEquals(0f, d.getAtIndex(ValueLayout.JAVA_FLOAT, 0));
            assertEquals(2f, d.getAtIndex(ValueLayout.JAVA_FLOAT, 1));
            assertEquals(Float.floatToRawIntBits(-0.0f),
                    Float.floatToRawIntBits(d.getAtIndex(ValueLayout.JAVA_FLOAT, 2)));
            assertTrue(Float.isNaN(d.getAtIndex(ValueLayout.JAVA_FLOAT, 3)));
            MemorySegment v = column(arena, new float[] {1f});
            ScalarParticleOps.accelerate(v, 0, 1, -10f, 0.5f);
            assertEquals(-4f, v.getAtIndex(ValueLayout.JAVA_FLOAT, 0));
            ScalarParticleOps.scale(v, 0, 1, 0.5f);
            assertEquals(-2f, v.getAtIndex(ValueLayout.JAVA_FLOAT, 0));
        }
    }
}
