package dev.jtecs.kernels;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
    private static final TransformOps VECTOR = new VectorTransformOps();
    private static final TransformOps SCALAR = TransformOps.SCALAR;
    private static final float[] SPECIALS = {Float.NaN, -0.0f, 0.0f, Float.POSITIVE_INFINITY,
        Float.NEGATIVE_INFINITY, Float.MAX_VALUE, -Float.MAX_VALUE, Float.MIN_VALUE, 1e30f, -1e30f, -1e-30f,
        (float) Math.PI, (float) (Math.PI / 2), 1e6f, -1e7f};
    private static final float PADDING = 12345.5f;

    private static int[] sizes() {
        int lanes = ParticleKernels.lanes();
        return new int[] {0, 1, lanes - 1, lanes, lanes + 1, 2 * lanes + 3, 1000, 4099};
    }

    @Test
    void affine2dMatchesTwinWithinUlpsAndCopiesTranslationExactly() {
        assertTwins(0x7a2dL);
    }

    /** The same comparison once C2 has compiled the kernel: only then do the intrinsic SIN/COS run. */
    @Test
    void affine2dMatchesTwinWithinUlpsOnceCompiled() {
        TransformKernels.warmUp();
        TransformKernels.warmUp(); // idempotent
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
        TransformKernels.warmUp();
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
