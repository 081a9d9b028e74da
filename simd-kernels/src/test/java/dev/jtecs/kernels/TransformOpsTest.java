package dev.jtecs.kernels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.kernels.vector.VectorParticleOps;
import dev.jtecs.kernels.vector.VectorTransformOps;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The vector {@link TransformOps} against the scalar twins (and {@code model3d} against JOML) on sizes straddling the lane count and on special
 * values (NaN, -0.0, infinities, huge angles and scales).
 *
 * <p>Not quite bit for bit: the vector kernel takes sine and cosine from the Vector API's lanewise
 * {@code SIN}/{@code COS}, which may differ from {@code (float) Math.sin}/{@code cos} by about an ulp (SVML on
 * x86; other platforms may fall back to {@code Math} and agree exactly). One ulp in {@code c} or {@code s} becomes
 * at most about two ulps in a product with a scale (two is what the compiled path shows on AVX-512), so the
 * rotation-scale entries may differ by {@link #MAX_ULPS}; the translation entries are copies and agree to the raw
 * bit. {@code model3d} has no sine or cosine and agrees bit for bit with its twin and with JOML. NaN compares as NaN (arithmetic
 * NaN payloads are unspecified), and NaN on one side only fails.
 */
class TransformOpsTest {
    /** The largest ulp distance allowed between twin rotation-scale entries (see the class comment). */
    static final int MAX_ULPS = 3;
    private static final TransformOps VECTOR = VectorTransformOps.INSTANCE;
    private static final TransformOps SCALAR = TransformOps.SCALAR;
    private static final float[] SPECIALS = {Float.NaN, -0.0f, 0.0f, Float.POSITIVE_INFINITY,
        Float.NEGATIVE_INFINITY, Float.MAX_VALUE, -Float.MAX_VALUE, Float.MIN_VALUE, 1e30f, -1e30f, -1e-30f,
        (float) Math.PI, (float) (Math.PI / 2), 1e6f, -1e7f};
    private static final float PADDING = 12345.5f;

    private static int[] sizes() {
        int lanes = VectorParticleOps.lanes();
        return new int[] {0, 1, lanes - 1, lanes, lanes + 1, 2 * lanes + 3, 1000, 4099};
    }

    @Test
    void affine2dMatchesTwinWithinUlpsAndCopiesTranslationExactly() {
        assertTwins(0x7a2dL);
    }

    /** The same comparison once C2 has compiled the kernel: only then do the intrinsic SIN/COS run. */
    @Test
    void affine2dMatchesTwinWithinUlpsOnceCompiled() {
        VectorTransformOps.warmUp();
        VectorTransformOps.warmUp(); // idempotent
        assertTwins(0x7a2eL);
    }

    private static void assertTwins(long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        int worst = 0;
        for (int count : sizes()) {
            try (Arena arena = Arena.ofShared()) {
                MemorySegment[] in = new MemorySegment[5];
                for (int c = 0; c < in.length; c++) {
                    in[c] = column(arena, values(random, count, 0.15, c == 2 ? 50f : 1000f));
                }
                MemorySegment[] v = outputs(arena, count);
                MemorySegment[] s = outputs(arena, count);
                VECTOR.affine2d(in[0], in[1], in[2], in[3], in[4], v[0], v[1], v[2], v[3], v[4], v[5], count);
                SCALAR.affine2d(in[0], in[1], in[2], in[3], in[4], s[0], s[1], s[2], s[3], s[4], s[5], count);
                String where = "seed=" + seed + " count=" + count;
                for (int m = 0; m < 6; m++) {
                    boolean copy = m == 2 || m == 5;
                    for (int row = 0; row < count; row++) {
                        float e = s[m].getAtIndex(ValueLayout.JAVA_FLOAT, row);
                        float a = v[m].getAtIndex(ValueLayout.JAVA_FLOAT, row);
                        String at = where + " entry=" + m + " row=" + row + " rotation="
                                + in[2].getAtIndex(ValueLayout.JAVA_FLOAT, row) + ": scalar " + e + " vector " + a;
                        if (copy) {
                            assertEquals(Float.floatToRawIntBits(e), Float.floatToRawIntBits(a), at);
                        } else {
                            int ulps = ulpDistance(e, a, at);
                            worst = Math.max(worst, ulps);
                        }
                    }
                }
            }
        }
        System.out.println("affine2d twin: worst ulp distance " + worst + " (allowed " + MAX_ULPS + ")");
    }

    @Test
    void model3dMatchesTwinAndJomlBitForBit() {
        model3dTwins(0x3d3dL);
    }

    @Test
    void model3dMatchesTwinAndJomlBitForBitOnceCompiled() {
        VectorTransformOps.warmUp();
        model3dTwins(0x3d3eL);
    }

    /**
     * Vector and scalar {@code model3d} on the same Transform3D columns, each entry against the other and against
     * {@code Transform3D.toMatrix} (JOML) per row: bit for bit, NaN as NaN.
     */
    private static void model3dTwins(long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        for (int count : sizes()) {
            try (Arena arena = Arena.ofShared()) {
                MemorySegment[] v = new MemorySegment[26];
                MemorySegment[] s = new MemorySegment[26];
                for (int c = 0; c < 16; c++) {
                    v[c] = column(arena, new float[count]);
                    s[c] = column(arena, new float[count]);
                }
                for (int c = 16; c < 26; c++) {
                    boolean quaternion = c >= 19 && c < 23;
                    v[c] = column(arena, values(random, count, 0.05, quaternion ? 1f : 1000f));
                    s[c] = v[c]; // read only
                }
                VECTOR.model3d(v, count);
                SCALAR.model3d(s, count);
                org.joml.Matrix4f joml = new org.joml.Matrix4f();
                float[] expected = new float[16];
                for (int row = 0; row < count; row++) {
                    float[] in = new float[10];
                    for (int c = 0; c < 10; c++) {
                        in[c] = v[16 + c].getAtIndex(ValueLayout.JAVA_FLOAT, row);
                    }
                    new dev.jtecs.builtin.Transform3D(in[0], in[1], in[2], in[3], in[4], in[5], in[6], in[7], in[8],
                            in[9]).toMatrix(joml).get(expected);
                    for (int m = 0; m < 16; m++) {
                        String at = "seed=" + seed + " count=" + count + " row=" + row + " entry=" + m;
                        float e = expected[m];
                        assertEquals(Float.floatToIntBits(e),
                                Float.floatToIntBits(s[m].getAtIndex(ValueLayout.JAVA_FLOAT, row)), "scalar " + at);
                        assertEquals(Float.floatToIntBits(e),
                                Float.floatToIntBits(v[m].getAtIndex(ValueLayout.JAVA_FLOAT, row)), "vector " + at);
                    }
                }
            }
        }
    }

    @Test
    void compose2dMatchesTwinAndTransform2DComposeBitForBit() {
        compose2dTwins(0xc0de2dL);
    }

    @Test
    void compose2dMatchesTwinAndTransform2DComposeBitForBitOnceCompiled() {
        VectorTransformOps.warmUp();
        compose2dTwins(0xc0de2eL);
    }

    /**
     * Vector and scalar {@code compose2d} on the same offsets and the same old transforms, with parents drawn
     * with specials: every written row against the other twin and against {@code parent.compose(offset)}, bit for
     * bit (NaN as NaN); padding rows keep their exact bits; both report a change, and a second run over the
     * result reports none when no row computed a NaN (a NaN's payload is the platform's: which operand's NaN an
     * operation returns may change once the JIT reorders operands, so a NaN row may read as changed again).
     */
    private static void compose2dTwins(long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        for (int count : sizes()) {
            for (int round = 0; round < 4; round++) {
                try (Arena arena = Arena.ofShared()) {
                    MemorySegment[] v = new MemorySegment[TransformOps.COMPOSE2D_COLUMNS];
                    MemorySegment[] s = new MemorySegment[TransformOps.COMPOSE2D_COLUMNS];
                    for (int c = 0; c < 7; c++) {
                        float[] old = c == 3 ? ints(random, count) : values(random, count, 0.1, 100f);
                        v[c] = column(arena, old);
                        s[c] = column(arena, old);
                    }
                    for (int c = 7; c < 13; c++) {
                        v[c] = column(arena, values(random, count, 0.05, c == 10 ? 3f : 50f));
                        s[c] = v[c]; // read only
                    }
                    float[] pose = values(random, 6, round == 0 ? 0.5 : 0.05, 500f);
                    int layer = random.nextInt(-5, 5);
                    float c = (float) Math.cos(pose[3]);
                    float sn = (float) Math.sin(pose[3]);
                    String where = "seed=" + seed + " count=" + count + " round=" + round;
                    boolean vectorChanged = VECTOR.compose2d(v, 0, count, pose[0], pose[1], pose[2], layer, pose[3],
                            pose[4], pose[5], c, sn);
                    boolean scalarChanged = SCALAR.compose2d(s, 0, count, pose[0], pose[1], pose[2], layer, pose[3],
                            pose[4], pose[5], c, sn);
                    assertEquals(count > 0, vectorChanged, "vector " + where);
                    assertEquals(count > 0, scalarChanged, "scalar " + where);
                    boolean nan = false;
                    dev.jtecs.builtin.Transform2D parent = new dev.jtecs.builtin.Transform2D(pose[0], pose[1],
                            pose[2], layer, pose[3], pose[4], pose[5]);
                    for (int row = 0; row < count; row++) {
                        dev.jtecs.builtin.Transform2D expected = parent.compose(new dev.jtecs.builtin.RelativeTransform2D(
                                f(v[7], row), f(v[8], row), f(v[9], row), f(v[10], row), f(v[11], row),
                                f(v[12], row), 0, 0));
                        float[] want = {expected.x(), expected.y(), expected.z(), Float.intBitsToFloat(layer),
                            expected.rotation(), expected.scaleX(), expected.scaleY()};
                        for (int m = 0; m < 7; m++) {
                            nan |= m != 3 && Float.isNaN(want[m]);
                            String at = where + " row=" + row + " column=" + m;
                            int bits = m == 3 ? layer : Float.floatToIntBits(want[m]);
                            assertEquals(bits, canonicalBits(s[m], row, m), "scalar " + at);
                            assertEquals(bits, canonicalBits(v[m], row, m), "vector " + at);
                        }
                    }
                    int capacity = (int) (v[0].byteSize() / Float.BYTES);
                    for (int m = 0; m < 7; m++) {
                        for (int row = count; row < capacity; row++) {
                            assertEquals(Float.floatToRawIntBits(PADDING),
                                    v[m].getAtIndex(ValueLayout.JAVA_INT, row), where + " vector padding " + m);
                            assertEquals(Float.floatToRawIntBits(PADDING),
                                    s[m].getAtIndex(ValueLayout.JAVA_INT, row), where + " scalar padding " + m);
                        }
                    }
                    if (nan) {
                        continue; // which NaN an operation returns may change as the JIT reorders operands
                    }
                    assertFalse(VECTOR.compose2d(v, 0, count, pose[0], pose[1], pose[2], layer, pose[3], pose[4],
                            pose[5], c, sn), "vector again: nothing changes " + where);
                    assertFalse(SCALAR.compose2d(s, 0, count, pose[0], pose[1], pose[2], layer, pose[3], pose[4],
                            pose[5], c, sn), "scalar again: nothing changes " + where);
                }
            }
        }
    }

    /**
     * The change report is exact to the bit and to the row: a difference in the last row of a partial vector
     * counts, a difference only in padding does not, and {@code -0.0} replacing {@code 0.0} counts.
     */
    @Test
    void compose2dReportsExactlyTheRowsThatChanged() {
        int lanes = VectorParticleOps.lanes();
        for (TransformOps ops : new TransformOps[] {VECTOR, SCALAR}) {
            for (int count : new int[] {1, lanes - 1, lanes + 1, 2 * lanes + 3}) {
                try (Arena arena = Arena.ofShared()) {
                    MemorySegment[] cols = new MemorySegment[TransformOps.COMPOSE2D_COLUMNS];
                    for (int c = 0; c < cols.length; c++) {
                        cols[c] = column(arena, new float[count]);
                    }
                    for (int row = 0; row < count; row++) {
                        for (int c : new int[] {11, 12}) { // unit relative scales; the old scales are 0
                            cols[c].setAtIndex(ValueLayout.JAVA_FLOAT, row, 1f);
                        }
                    }
                    String where = ops.mode() + " count=" + count;
                    assertTrue(ops.compose2d(cols, 0, count, 0f, 0f, 0f, 0, 0f, 1f, 1f, 1f, 0f), where);
                    assertFalse(ops.compose2d(cols, 0, count, 0f, 0f, 0f, 0, 0f, 1f, 1f, 1f, 0f), where);
                    cols[9].setAtIndex(ValueLayout.JAVA_FLOAT, count - 1, 0.5f); // z of the last row
                    assertTrue(ops.compose2d(cols, 0, count, 0f, 0f, 0f, 0, 0f, 1f, 1f, 1f, 0f), "last row " + where);
                    cols[9].setAtIndex(ValueLayout.JAVA_FLOAT, count, 7f); // padding of a read column
                    assertFalse(ops.compose2d(cols, 0, count, 0f, 0f, 0f, 0, 0f, 1f, 1f, 1f, 0f), "padding " + where);
                    assertEquals(PADDING, cols[2].getAtIndex(ValueLayout.JAVA_FLOAT, count), "padding kept " + where);
                    cols[11].setAtIndex(ValueLayout.JAVA_FLOAT, count - 1, 0f); // scaleX of the last row: 1 to 0
                    assertTrue(ops.compose2d(cols, 0, count, 0f, 0f, 0f, 0, 0f, 1f, 1f, 1f, 0f), "to 0.0 " + where);
                    cols[11].setAtIndex(ValueLayout.JAVA_FLOAT, count - 1, -0.0f); // 0.0 to -0.0: only a bit
                    assertTrue(ops.compose2d(cols, 0, count, 0f, 0f, 0f, 0, 0f, 1f, 1f, 1f, 0f), "-0.0 " + where);
                    assertEquals(Float.floatToRawIntBits(-0.0f),
                            cols[5].getAtIndex(ValueLayout.JAVA_INT, count - 1), where);
                    assertTrue(ops.compose2d(cols, 0, count, 0f, 0f, 0f, 3, 0f, 1f, 1f, 1f, 0f), "layer " + where);
                    assertEquals(3, cols[3].getAtIndex(ValueLayout.JAVA_INT, count - 1), where);
                }
            }
        }
    }

    @Test
    void compose2dReadsItsColumnsFromBase() {
        try (Arena arena = Arena.ofShared()) {
            MemorySegment[] cols = new MemorySegment[2 * TransformOps.COMPOSE2D_COLUMNS];
            for (int c = 0; c < cols.length; c++) {
                cols[c] = column(arena, new float[] {c >= 13 && c % 13 >= 11 ? 2f : 1f});
            }
            for (TransformOps ops : new TransformOps[] {VECTOR, SCALAR}) {
                ops.compose2d(cols, 13, 1, 10f, 20f, 0f, 0, 0f, 1f, 1f, 1f, 0f);
                assertEquals(11f, cols[13].getAtIndex(ValueLayout.JAVA_FLOAT, 0), ops.mode() + ": x of step 1");
                assertEquals(2f, cols[18].getAtIndex(ValueLayout.JAVA_FLOAT, 0), ops.mode() + ": scaleX of step 1");
                assertEquals(1f, cols[0].getAtIndex(ValueLayout.JAVA_FLOAT, 0), ops.mode() + ": step 0 untouched");
            }
        }
    }

    @Test
    void compose2dRefusesColumnsShorterThanThePaddedCount() {
        try (Arena arena = Arena.ofShared()) {
            MemorySegment[] cols = new MemorySegment[TransformOps.COMPOSE2D_COLUMNS];
            for (int c = 0; c < cols.length; c++) {
                cols[c] = column(arena, new float[3]);
            }
            cols[12] = arena.allocate(8, 64); // two rows: no room for a vector
            IllegalArgumentException refused = org.junit.jupiter.api.Assertions.assertThrows(
                    IllegalArgumentException.class,
                    () -> VECTOR.compose2d(cols, 0, 3, 0f, 0f, 0f, 0, 0f, 1f, 1f, 1f, 0f));
            assertTrue(refused.getMessage().contains("count=3"), refused.getMessage());
            assertEquals(0f, cols[0].getAtIndex(ValueLayout.JAVA_FLOAT, 0), "nothing written");
        }
    }

    private static float f(MemorySegment column, int row) {
        return column.getAtIndex(ValueLayout.JAVA_FLOAT, row);
    }

    /** The bits of a written row: the int of the layer column, NaN-canonical float bits of the others. */
    private static int canonicalBits(MemorySegment column, int row, int m) {
        return m == 3 ? column.getAtIndex(ValueLayout.JAVA_INT, row) : Float.floatToIntBits(f(column, row));
    }

    /** Random layers, stored as the float with their bits (the column is written as ints). */
    private static float[] ints(SplittableRandom random, int count) {
        float[] values = new float[count];
        for (int i = 0; i < count; i++) {
            values[i] = Float.intBitsToFloat(random.nextInt(-9, 9));
        }
        return values;
    }

    @Test
    void affine2dSpecificationOnKnownValues() {
        try (Arena arena = Arena.ofShared()) {
            MemorySegment x = column(arena, new float[] {3f, -1f, 0f});
            MemorySegment y = column(arena, new float[] {4f, 2f, 0f});
            MemorySegment rotation = column(arena, new float[] {0f, (float) (Math.PI / 2), -0.0f});
            MemorySegment sx = column(arena, new float[] {2f, 2f, 1f});
            MemorySegment sy = column(arena, new float[] {5f, 3f, 1f});
            for (TransformOps ops : new TransformOps[] {VECTOR, SCALAR}) {
                MemorySegment[] m = outputs(arena, 3);
                ops.affine2d(x, y, rotation, sx, sy, m[0], m[1], m[2], m[3], m[4], m[5], 3);
                String where = ops.mode().toString();
                // unrotated: a scale and a translation
                assertRow(m, 0, new float[] {2f, -0f, 3f, 0f, 5f, 4f}, 0f, where);
                // a quarter turn: +x goes to +y (m10 = sx), +y to -x (m01 = -sy)
                assertRow(m, 1, new float[] {0f, -3f, -1f, 2f, 0f, 2f}, 1e-6f, where);
                // -0.0 keeps its sign through sin
                assertRow(m, 2, new float[] {1f, 0f, 0f, -0f, 1f, 0f}, 0f, where);
            }
        }
    }

    private static void assertRow(MemorySegment[] m, int row, float[] expected, float delta, String where) {
        for (int i = 0; i < 6; i++) {
            float actual = m[i].getAtIndex(ValueLayout.JAVA_FLOAT, row);
            if (delta == 0f) {
                assertEquals(expected[i], actual, where + " row=" + row + " entry=" + i);
            } else {
                assertEquals(expected[i], actual, delta, where + " row=" + row + " entry=" + i);
            }
        }
    }

    /** The number of floats between {@code e} and {@code a}; fails past {@link #MAX_ULPS} or on one-sided NaN. */
    static int ulpDistance(float e, float a, String where) {
        if (Float.isNaN(e) || Float.isNaN(a)) {
            assertEquals(Float.isNaN(e), Float.isNaN(a), "NaN on one side only: " + where);
            return 0;
        }
        if (Float.isInfinite(e) || Float.isInfinite(a)) {
            assertEquals(e, a, "infinities: " + where);
            return 0;
        }
        long distance = Math.abs(ordered(e) - ordered(a));
        if (distance > MAX_ULPS) {
            throw new AssertionError(distance + " ulps apart (allowed " + MAX_ULPS + "): " + where);
        }
        return (int) distance;
    }

    /** Float bits mapped to a line where adjacent floats are adjacent integers ({@code -0.0} and {@code 0.0} meet). */
    private static long ordered(float f) {
        int bits = Float.floatToIntBits(f);
        return bits >= 0 ? bits : -(long) (bits & 0x7fffffff);
    }

    private static float[] values(SplittableRandom random, int count, double specialRate, float spread) {
        float[] values = new float[count];
        for (int i = 0; i < count; i++) {
            values[i] = random.nextDouble() < specialRate ? SPECIALS[random.nextInt(SPECIALS.length)]
                    : (float) ((random.nextDouble() * 2 - 1) * spread);
        }
        return values;
    }

    private static MemorySegment[] outputs(Arena arena, int count) {
        MemorySegment[] out = new MemorySegment[6];
        for (int m = 0; m < out.length; m++) {
            out[m] = column(arena, new float[count]);
        }
        return out;
    }

    /** A native column padded like a jtecs one (capacity a multiple of 64 rows), padding set to {@link #PADDING}. */
    private static MemorySegment column(Arena arena, float[] values) {
        int capacity = Math.max(64, (values.length + 63) / 64 * 64);
        MemorySegment segment = arena.allocate((long) capacity * Float.BYTES, 64);
        for (int row = values.length; row < capacity; row++) {
            segment.setAtIndex(ValueLayout.JAVA_FLOAT, row, PADDING);
        }
        MemorySegment.copy(values, 0, segment, ValueLayout.JAVA_FLOAT, 0, values.length);
        return segment;
    }
}
