package dev.jtecs.kernels.vector;

import dev.jtecs.kernels.KernelMode;
import dev.jtecs.kernels.ScalarTransformOps;
import dev.jtecs.kernels.TransformOps;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * {@link TransformOps} by the Vector API: the transform kernels over native float columns, the
 * {@link dev.jtecs.kernels.Affine2D} matrix of each {@code Transform2D}, the {@link dev.jtecs.kernels.Model3D} matrix
 * of each {@code Transform3D}, and the composition of one archetype's {@code RelativeTransform2D} offsets with its
 * parent's pose ({@link #compose2d}, which {@link dev.jtecs.kernels.HierarchyComposer} drives). The scalar twin,
 * {@link ScalarTransformOps} ({@link TransformOps#SCALAR}), is the specification; the column kernels that run
 * either are {@link dev.jtecs.kernels.TransformKernels}'.
 *
 * <p>Contract: every segment is a jtecs column (64-byte aligned, capacity a multiple of 64 rows). Every kernel
 * runs unmasked to {@code count} rounded up to the lane count. The matrix kernels are unconditional: the output
 * rows they write past {@code count} are padding that nothing else observes. {@code compose2d} is conditional
 * (it reports a change) and stores the padding rows' own bits back.
 *
 * <p>Shape. Each loop holds only arithmetic; entries that are copies or constants are written by bulk copies
 * ({@code MemorySegment.copy}) and small fill loops. When a loop also carried those stores, C2 could run out of
 * its inlining budget near the loop's end in a JVM whose profiles many other kernels had shaped: the last
 * stores stayed calls, and the vectors they took were allocated on the heap, 240 bytes per {@code model3d}
 * call (found with a JFR allocation profile of the whole test suite in one JVM).
 *
 * <p>Twin agreement. {@code model3d} and {@code compose2d} have no transcendental functions (the caller of
 * {@code compose2d} takes the parent's sine and cosine once, with {@code Math}) and agree bit for bit with their
 * twins, and with JOML and {@code Transform2D.compose} respectively. In {@code affine2d} the products and copies
 * are the twin's operations in the twin's order (no fused multiply-add), but sine and cosine are the Vector API's lanewise {@code SIN}/{@code COS}, which its
 * specification allows to differ from {@code Math.sin}/{@code Math.cos} by a small number of ulps (on x86 they
 * are Intel SVML's float routines, not a rounding of the double result). So {@code m02}/{@code m12} agree bit for
 * bit and the four rotation-scale entries agree within a few ulps. Measured on AVX-512 with JDK 25: once C2 has
 * compiled the loop, about 8% of angles get a sine or cosine one ulp away from the twin's, never more; before
 * that (interpreter, C1) the fallback is {@code Math.sin} per lane and the twins agree exactly.
 */
public final class VectorTransformOps implements TransformOps {
    /** The vector transform kernels. */
    public static final VectorTransformOps INSTANCE = new VectorTransformOps();
    private static final VectorSpecies<Float> F = FloatVector.SPECIES_PREFERRED;
    /** Same shape as {@link #F}, so float lanes reinterpret as int lanes one to one. */
    private static final VectorSpecies<Integer> I = IntVector.SPECIES_PREFERRED;
    private static final ByteOrder ORDER = ByteOrder.nativeOrder();
    private static final int MODEL3D_COLUMNS = 26;
    private static boolean warm;

    private VectorTransformOps() {}

    @Override
    public KernelMode mode() {
        return KernelMode.VECTOR;
    }

    /**
     * The {@link dev.jtecs.kernels.Model3D} of rows {@code [0, count)}, {@code columns} as in
     * {@link TransformOps#model3d} (vector; twin: {@link ScalarTransformOps#model3d}, the same operations in the same
     * order).
     */
    @Override
    public void model3d(MemorySegment[] columns, int count) {
        for (int i = 0; i < MODEL3D_COLUMNS; i++) {
            checkPadded(columns[i], count);
        }
        long bound = (long) VectorParticleOps.paddedCount(count) * Float.BYTES;
        rotationScale(columns, bound);
        MemorySegment.copy(columns[16], 0, columns[12], 0, bound); // the translation: copied as it is
        MemorySegment.copy(columns[17], 0, columns[13], 0, bound);
        MemorySegment.copy(columns[18], 0, columns[14], 0, bound);
        fill(columns[3], bound, 0f);
        fill(columns[7], bound, 0f);
        fill(columns[11], bound, 0f);
        fill(columns[15], bound, 1f);
    }

    /** The nine rotation-scale entries of {@link #model3d}: the only part with arithmetic. */
    private static void rotationScale(MemorySegment[] columns, long bound) {
        for (long offset = 0; offset < bound; offset += F.vectorByteSize()) {
            FloatVector qx = FloatVector.fromMemorySegment(F, columns[19], offset, ORDER);
            FloatVector qy = FloatVector.fromMemorySegment(F, columns[20], offset, ORDER);
            FloatVector qz = FloatVector.fromMemorySegment(F, columns[21], offset, ORDER);
            FloatVector qw = FloatVector.fromMemorySegment(F, columns[22], offset, ORDER);
            FloatVector sx = FloatVector.fromMemorySegment(F, columns[23], offset, ORDER);
            FloatVector sy = FloatVector.fromMemorySegment(F, columns[24], offset, ORDER);
            FloatVector sz = FloatVector.fromMemorySegment(F, columns[25], offset, ORDER);
            FloatVector dqx = qx.add(qx);
            FloatVector dqy = qy.add(qy);
            FloatVector dqz = qz.add(qz);
            FloatVector q00 = dqx.mul(qx);
            FloatVector q11 = dqy.mul(qy);
            FloatVector q22 = dqz.mul(qz);
            FloatVector q01 = dqx.mul(qy);
            FloatVector q02 = dqx.mul(qz);
            FloatVector q03 = dqx.mul(qw);
            FloatVector q12 = dqy.mul(qz);
            FloatVector q13 = dqy.mul(qw);
            FloatVector q23 = dqz.mul(qw);
            sx.sub(q11.add(q22).mul(sx)).intoMemorySegment(columns[0], offset, ORDER);
            q01.add(q23).mul(sx).intoMemorySegment(columns[1], offset, ORDER);
            q02.sub(q13).mul(sx).intoMemorySegment(columns[2], offset, ORDER);
            q01.sub(q23).mul(sy).intoMemorySegment(columns[4], offset, ORDER);
            sy.sub(q22.add(q00).mul(sy)).intoMemorySegment(columns[5], offset, ORDER);
            q12.add(q03).mul(sy).intoMemorySegment(columns[6], offset, ORDER);
            q02.add(q13).mul(sz).intoMemorySegment(columns[8], offset, ORDER);
            q12.sub(q03).mul(sz).intoMemorySegment(columns[9], offset, ORDER);
            sz.sub(q11.add(q00).mul(sz)).intoMemorySegment(columns[10], offset, ORDER);
        }
    }

    /** {@code value} into the first {@code bound} bytes of a float column. */
    private static void fill(MemorySegment column, long bound, float value) {
        FloatVector constant = FloatVector.broadcast(F, value);
        for (long offset = 0; offset < bound; offset += F.vectorByteSize()) {
            constant.intoMemorySegment(column, offset, ORDER);
        }
    }

    /**
     * The {@link dev.jtecs.kernels.Affine2D} of rows {@code [0, count)} (vector; twin:
     * {@link ScalarTransformOps#affine2d}).
     */
    @Override
    public void affine2d(MemorySegment x, MemorySegment y, MemorySegment rotation, MemorySegment scaleX,
            MemorySegment scaleY, MemorySegment m00, MemorySegment m01, MemorySegment m02, MemorySegment m10,
            MemorySegment m11, MemorySegment m12, int count) {
        checkPadded(x, count);
        checkPadded(y, count);
        checkPadded(rotation, count);
        checkPadded(scaleX, count);
        checkPadded(scaleY, count);
        checkPadded(m00, count);
        checkPadded(m01, count);
        checkPadded(m02, count);
        checkPadded(m10, count);
        checkPadded(m11, count);
        checkPadded(m12, count);
        long bound = (long) VectorParticleOps.paddedCount(count) * Float.BYTES;
        long step = F.vectorByteSize();
        for (long offset = 0; offset < bound; offset += step) {
            FloatVector angle = FloatVector.fromMemorySegment(F, rotation, offset, ORDER);
            FloatVector c = angle.lanewise(VectorOperators.COS);
            FloatVector s = angle.lanewise(VectorOperators.SIN);
            FloatVector sx = FloatVector.fromMemorySegment(F, scaleX, offset, ORDER);
            FloatVector sy = FloatVector.fromMemorySegment(F, scaleY, offset, ORDER);
            c.mul(sx).intoMemorySegment(m00, offset, ORDER);
            s.neg().mul(sy).intoMemorySegment(m01, offset, ORDER);
            s.mul(sx).intoMemorySegment(m10, offset, ORDER);
            c.mul(sy).intoMemorySegment(m11, offset, ORDER);
        }
        MemorySegment.copy(x, 0, m02, 0, bound); // the translation: copied as it is
        MemorySegment.copy(y, 0, m12, 0, bound);
    }

    /**
     * Composes rows {@code [0, count)} with their parent's pose (vector; twin: {@link ScalarTransformOps#compose2d},
     * the same float operations in the same order, so the same bits). {@code columns} from {@code base} as in
     * {@link TransformOps#compose2d}; every one must be a jtecs column (padded to 64 rows).
     *
     * <p>Conditional, and exact about it without masked memory access: each loop runs whole vectors to the padded
     * bound, and in each lane compares raw bits, old against new. A lane past {@code count} has its difference
     * cleared by an arithmetic lane mask ({@code (lane - remaining) >> 31}), so it stores back exactly the bits
     * that were there and never counts as a change; padding rows come out untouched.
     *
     * @implNote One loop per group of output columns, each in its own small method: as one loop over all seven
     *     outputs the method outgrew C2's inlining budget ({@code NodeCountInliningCutoff}), vector operations
     *     stayed calls, and every vector became a heap object (about 1 KB and several hundred ns per call).
     */
    @Override
    public boolean compose2d(MemorySegment[] columns, int base, int count, float px, float py, float pz,
            int layer, float pr, float psx, float psy, float c, float s) {
        for (int i = 0; i < TransformOps.COMPOSE2D_COLUMNS; i++) {
            checkPadded(columns[base + i], count);
        }
        long bound = (long) VectorParticleOps.paddedCount(count) * Float.BYTES;
        // non-short-circuit |: every column is written, whatever the others report
        return composeXy(columns[base], columns[base + 1], columns[base + 7], columns[base + 8], count, bound, px,
                py, psx, psy, c, s)
                | addInto(columns[base + 2], columns[base + 9], count, bound, pz)
                | fillInto(columns[base + 3], count, bound, layer)
                | addInto(columns[base + 4], columns[base + 10], count, bound, pr)
                | mulInto(columns[base + 5], columns[base + 11], count, bound, psx)
                | mulInto(columns[base + 6], columns[base + 12], count, bound, psy);
    }

    /** {@code lx = psx * rx; ly = psy * ry; x = px + (c * lx - s * ly); y = py + (s * lx + c * ly)}. */
    private static boolean composeXy(MemorySegment x, MemorySegment y, MemorySegment rx, MemorySegment ry, int count,
            long bound, float px, float py, float psx, float psy, float c, float s) {
        FloatVector vpx = FloatVector.broadcast(F, px);
        FloatVector vpy = FloatVector.broadcast(F, py);
        FloatVector vpsx = FloatVector.broadcast(F, psx);
        FloatVector vpsy = FloatVector.broadcast(F, psy);
        FloatVector vc = FloatVector.broadcast(F, c);
        FloatVector vs = FloatVector.broadcast(F, s);
        IntVector lane = IntVector.zero(I).addIndex(1);
        IntVector diff = IntVector.zero(I);
        int remaining = count;
        for (long offset = 0; offset < bound; offset += F.vectorByteSize(), remaining -= F.length()) {
            IntVector live = lane.sub(remaining).lanewise(VectorOperators.ASHR, 31); // -1 below count, else 0
            FloatVector lx = vpsx.mul(FloatVector.fromMemorySegment(F, rx, offset, ORDER));
            FloatVector ly = vpsy.mul(FloatVector.fromMemorySegment(F, ry, offset, ORDER));
            FloatVector nx = vpx.add(vc.mul(lx).sub(vs.mul(ly)));
            FloatVector ny = vpy.add(vs.mul(lx).add(vc.mul(ly)));
            diff = diff.or(exchange(x, offset, nx.reinterpretAsInts(), live))
                    .or(exchange(y, offset, ny.reinterpretAsInts(), live));
        }
        return diff.reduceLanes(VectorOperators.OR) != 0;
    }

    /** {@code out = p + in} in the live rows. */
    private static boolean addInto(MemorySegment out, MemorySegment in, int count, long bound, float p) {
        FloatVector vp = FloatVector.broadcast(F, p);
        IntVector lane = IntVector.zero(I).addIndex(1);
        IntVector diff = IntVector.zero(I);
        int remaining = count;
        for (long offset = 0; offset < bound; offset += F.vectorByteSize(), remaining -= F.length()) {
            IntVector live = lane.sub(remaining).lanewise(VectorOperators.ASHR, 31);
            FloatVector fresh = vp.add(FloatVector.fromMemorySegment(F, in, offset, ORDER));
            diff = diff.or(exchange(out, offset, fresh.reinterpretAsInts(), live));
        }
        return diff.reduceLanes(VectorOperators.OR) != 0;
    }

    /** {@code out = p * in} in the live rows. */
    private static boolean mulInto(MemorySegment out, MemorySegment in, int count, long bound, float p) {
        FloatVector vp = FloatVector.broadcast(F, p);
        IntVector lane = IntVector.zero(I).addIndex(1);
        IntVector diff = IntVector.zero(I);
        int remaining = count;
        for (long offset = 0; offset < bound; offset += F.vectorByteSize(), remaining -= F.length()) {
            IntVector live = lane.sub(remaining).lanewise(VectorOperators.ASHR, 31);
            FloatVector fresh = vp.mul(FloatVector.fromMemorySegment(F, in, offset, ORDER));
            diff = diff.or(exchange(out, offset, fresh.reinterpretAsInts(), live));
        }
        return diff.reduceLanes(VectorOperators.OR) != 0;
    }

    /** {@code out = value} (an int column) in the live rows. */
    private static boolean fillInto(MemorySegment out, int count, long bound, int value) {
        IntVector fresh = IntVector.broadcast(I, value);
        IntVector lane = IntVector.zero(I).addIndex(1);
        IntVector diff = IntVector.zero(I);
        int remaining = count;
        for (long offset = 0; offset < bound; offset += F.vectorByteSize(), remaining -= F.length()) {
            IntVector live = lane.sub(remaining).lanewise(VectorOperators.ASHR, 31);
            diff = diff.or(exchange(out, offset, fresh, live));
        }
        return diff.reduceLanes(VectorOperators.OR) != 0;
    }

    /**
     * Stores {@code fresh} into the live lanes of one vector of a 32-bit column and the old bits into the others;
     * returns the bits that changed in live lanes.
     */
    private static IntVector exchange(MemorySegment column, long offset, IntVector fresh, IntVector live) {
        IntVector old = IntVector.fromMemorySegment(I, column, offset, ORDER);
        IntVector change = old.lanewise(VectorOperators.XOR, fresh).and(live);
        old.lanewise(VectorOperators.XOR, change).intoMemorySegment(column, offset, ORDER);
        return change;
    }

    /**
     * Runs every kernel of this class on small scratch columns until the JIT has compiled it (with its intrinsic
     * {@code SIN}/{@code COS}), so the first real frames do not run the much slower per-lane fallback. Idempotent
     * and cheap after the first call.
     */
    public static synchronized void warmUp() {
        if (warm) {
            return;
        }
        // a shared arena, like every jtecs column: a kernel that also sees confined segments keeps deoptimizing
        try (java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofShared()) {
            int rows = 256;
            MemorySegment[] c = new MemorySegment[11];
            for (int i = 0; i < c.length; i++) {
                c[i] = arena.allocate((long) rows * Float.BYTES, 64);
            }
            MemorySegment[] m = new MemorySegment[MODEL3D_COLUMNS];
            for (int i = 0; i < m.length; i++) {
                m[i] = arena.allocate((long) rows * Float.BYTES, 64);
            }
            MemorySegment[] h = new MemorySegment[TransformOps.COMPOSE2D_COLUMNS];
            for (int i = 0; i < h.length; i++) {
                h[i] = arena.allocate((long) rows * Float.BYTES, 64);
            }
            for (int i = 0; i < 20_000; i++) {
                INSTANCE.affine2d(c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8], c[9], c[10], rows);
                INSTANCE.model3d(m, rows);
                INSTANCE.compose2d(h, 0, 1 + i % 40, i, 2f, 3f, 4, 0.5f, 1f, 1f, 0.8775826f, 0.47942555f);
            }
        }
        warm = true;
    }

    private static void checkPadded(MemorySegment segment, int count) {
        long needed = (long) VectorParticleOps.paddedCount(count) * Float.BYTES;
        if (count < 0 || segment.byteSize() < needed) {
            throw new IllegalArgumentException("count=" + count + " needs byteSize>=" + needed
                    + " (padded to " + F.length() + " lanes), segment byteSize=" + segment.byteSize());
        }
    }
}
