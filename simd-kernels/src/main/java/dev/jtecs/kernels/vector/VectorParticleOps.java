package dev.jtecs.kernels.vector;

import dev.jtecs.kernels.KernelMode;
import dev.jtecs.kernels.ParticleOps;
import dev.jtecs.kernels.ScalarParticleOps;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * {@link ParticleOps} by the Vector API: the particle kernels over native float columns, integration
 * ({@code pos += vel * dt}), acceleration (gravity), scaling (damping), bounds wrap and clamp, and a countdown with
 * expiry detection. Each has its scalar twin, its specification, in {@link ScalarParticleOps}
 * ({@link ParticleOps#SCALAR}). {@link #INSTANCE} is the one instance; {@code KernelProvider.particles()} returns it
 * once it has found {@code jdk.incubator.vector} readable and C2 on, and initializing this class elsewhere fails
 * where that module is absent.
 *
 * <p>Contract: every segment is a jtecs column (64-byte aligned, capacity a multiple of 64 rows). The
 * unconditional kernels (integrate, accelerate, scale) run unmasked to {@code count} rounded up to the lane
 * count; the rows they touch past {@code count} are padding that nothing else observes. The conditional kernels
 * (wrap, clamp) report whether a row changed, so padding must not take part: they run whole vectors below
 * {@code count} and finish with the scalar twin. Element-wise results agree bit for bit with the scalar twins
 * (same operations, same order, no fused multiply-add on either side).
 */
public final class VectorParticleOps implements ParticleOps {
    /** The vector particle kernels. */
    public static final VectorParticleOps INSTANCE = new VectorParticleOps();
    private static final VectorSpecies<Float> F = FloatVector.SPECIES_PREFERRED;
    private static final ByteOrder ORDER = ByteOrder.nativeOrder();
    private static boolean warm;

    private VectorParticleOps() {}

    @Override
    public KernelMode mode() {
        return KernelMode.VECTOR;
    }

    /** The float lane count of the preferred species. */
    public static int lanes() {
        return F.length();
    }

    /** {@code rows [0, count)} rounded up to whole vectors: the bound the vector loops run to. */
    public static int paddedCount(int count) {
        return (count + F.length() - 1) / F.length() * F.length();
    }

    /** {@code x += vx * dt; y += vy * dt} for rows {@code [0, count)} (vector). */
    @Override
    public void integrate2d(MemorySegment x, MemorySegment y, MemorySegment vx, MemorySegment vy,
            int count, float dt) {
        checkPadded(x, count);
        checkPadded(y, count);
        checkPadded(vx, count);
        checkPadded(vy, count);
        long bound = (long) paddedCount(count) * Float.BYTES;
        long step = (long) F.length() * Float.BYTES;
        for (long offset = 0; offset < bound; offset += step) {
            FloatVector dx = FloatVector.fromMemorySegment(F, vx, offset, ORDER).mul(dt);
            FloatVector.fromMemorySegment(F, x, offset, ORDER).add(dx).intoMemorySegment(x, offset, ORDER);
            FloatVector dy = FloatVector.fromMemorySegment(F, vy, offset, ORDER).mul(dt);
            FloatVector.fromMemorySegment(F, y, offset, ORDER).add(dy).intoMemorySegment(y, offset, ORDER);
        }
    }

    /**
     * {@code x += vx * dt; y += vy * dt; z += vz * dt} for rows {@code [0, count)} (vector; twin:
     * {@link ScalarParticleOps#integrate3d}).
     */
    @Override
    public void integrate3d(MemorySegment x, MemorySegment y, MemorySegment z, MemorySegment vx,
            MemorySegment vy, MemorySegment vz, int count, float dt) {
        checkPadded(x, count);
        checkPadded(y, count);
        checkPadded(z, count);
        checkPadded(vx, count);
        checkPadded(vy, count);
        checkPadded(vz, count);
        long bound = (long) paddedCount(count) * Float.BYTES;
        long step = (long) F.length() * Float.BYTES;
        for (long offset = 0; offset < bound; offset += step) {
            FloatVector dx = FloatVector.fromMemorySegment(F, vx, offset, ORDER).mul(dt);
            FloatVector.fromMemorySegment(F, x, offset, ORDER).add(dx).intoMemorySegment(x, offset, ORDER);
            FloatVector dy = FloatVector.fromMemorySegment(F, vy, offset, ORDER).mul(dt);
            FloatVector.fromMemorySegment(F, y, offset, ORDER).add(dy).intoMemorySegment(y, offset, ORDER);
            FloatVector dz = FloatVector.fromMemorySegment(F, vz, offset, ORDER).mul(dt);
            FloatVector.fromMemorySegment(F, z, offset, ORDER).add(dz).intoMemorySegment(z, offset, ORDER);
        }
    }

    /** {@code v += a * dt} for rows {@code [0, count)} (twin: {@link ScalarParticleOps#accelerate}). */
    @Override
    public void accelerate(MemorySegment v, int count, float a, float dt) {
        checkPadded(v, count);
        float dv = a * dt; // rounded once, as the twin does
        long bound = (long) paddedCount(count) * Float.BYTES;
        long step = (long) F.length() * Float.BYTES;
        for (long offset = 0; offset < bound; offset += step) {
            FloatVector.fromMemorySegment(F, v, offset, ORDER).add(dv).intoMemorySegment(v, offset, ORDER);
        }
    }

    /** {@code v *= factor} for rows {@code [0, count)} (twin: {@link ScalarParticleOps#scale}). */
    @Override
    public void scale(MemorySegment v, int count, float factor) {
        checkPadded(v, count);
        long bound = (long) paddedCount(count) * Float.BYTES;
        long step = (long) F.length() * Float.BYTES;
        for (long offset = 0; offset < bound; offset += step) {
            FloatVector.fromMemorySegment(F, v, offset, ORDER).mul(factor).intoMemorySegment(v, offset, ORDER);
        }
    }

    /**
     * Wraps rows {@code [0, count)} once into {@code [min, max)} (twin: {@link ScalarParticleOps#wrap}); a vector is
     * stored only when one of its lanes changes.
     *
     * @return whether any row changed
     */
    @Override
    public boolean wrap(MemorySegment c, int count, float min, float max) {
        checkCount(c, count);
        float width = max - min;
        int body = count - count % F.length();
        boolean changed = false;
        for (long offset = 0, end = (long) body * Float.BYTES; offset < end; offset += F.vectorByteSize()) {
            FloatVector value = FloatVector.fromMemorySegment(F, c, offset, ORDER);
            VectorMask<Float> low = value.compare(VectorOperators.LT, min);
            VectorMask<Float> high = value.compare(VectorOperators.GE, max);
            FloatVector wrapped = value.blend(value.add(width), low).blend(value.sub(width), high);
            // an out-of-bounds lane may still keep its value (an infinity, or too large to move by width)
            if (low.or(high).and(wrapped.compare(VectorOperators.NE, value)).anyTrue()) {
                wrapped.intoMemorySegment(c, offset, ORDER);
                changed = true;
            }
        }
        return ScalarParticleOps.wrap(c, body, count, min, max) | changed;
    }

    /**
     * Clamps rows {@code [0, count)} into {@code [min, max]} (twin: {@link ScalarParticleOps#clamp}); a vector is
     * stored only when one of its lanes is out of bounds. Blends on comparisons rather than {@code min}/{@code max}
     * lanewise operations, which would turn {@code -0.0} into {@code 0.0} where the twin keeps it.
     *
     * @return whether any row changed
     */
    @Override
    public boolean clamp(MemorySegment c, int count, float min, float max) {
        checkCount(c, count);
        int body = count - count % F.length();
        boolean changed = false;
        for (long offset = 0, end = (long) body * Float.BYTES; offset < end; offset += F.vectorByteSize()) {
            FloatVector value = FloatVector.fromMemorySegment(F, c, offset, ORDER);
            VectorMask<Float> low = value.compare(VectorOperators.LT, min);
            VectorMask<Float> high = value.compare(VectorOperators.GT, max);
            if (low.or(high).anyTrue()) {
                value.blend(min, low).blend(max, high).intoMemorySegment(c, offset, ORDER);
                changed = true;
            }
        }
        return ScalarParticleOps.clamp(c, body, count, min, max) | changed;
    }

    /**
     * {@code remaining -= dt} for rows {@code [0, count)}, writing the rows that reach zero or below into
     * {@code expiredRows} (ascending); twin: {@link ScalarParticleOps#countdown}.
     *
     * @return how many rows expired
     */
    @Override
    public int countdown(MemorySegment remaining, int count, float dt, int[] expiredRows) {
        checkPadded(remaining, count);
        int expired = 0;
        int lanes = F.length();
        for (int row = 0; row < count; row += lanes) {
            long offset = (long) row * Float.BYTES;
            FloatVector left = FloatVector.fromMemorySegment(F, remaining, offset, ORDER).sub(dt);
            left.intoMemorySegment(remaining, offset, ORDER);
            VectorMask<Float> done = left.compare(VectorOperators.LE, 0f);
            if (done.anyTrue()) {
                long bits = done.toLong();
                while (bits != 0) {
                    int lane = Long.numberOfTrailingZeros(bits);
                    bits &= bits - 1;
                    if (row + lane < count) {
                        expiredRows[expired++] = row + lane;
                    }
                }
            }
        }
        return expired;
    }

    /**
     * Runs every kernel of this class on a small scratch column until the JIT has compiled it, so the first
     * real frames do not run the (much slower) interpreted or C1-compiled vector code. Idempotent and cheap
     * after the first call.
     */
    public static synchronized void warmUp() {
        if (warm) {
            return;
        }
        // a shared arena, like every jtecs column: a kernel that also sees confined segments keeps deoptimizing
        try (java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofShared()) {
            int rows = 1024;
            MemorySegment a = arena.allocate((long) rows * Float.BYTES, 64);
            MemorySegment b = arena.allocate((long) rows * Float.BYTES, 64);
            MemorySegment c = arena.allocate((long) rows * Float.BYTES, 64);
            MemorySegment d = arena.allocate((long) rows * Float.BYTES, 64);
            int[] expired = new int[rows];
            for (int i = 0; i < 20_000; i++) {
                INSTANCE.integrate2d(a, b, c, d, rows, 0f);
                INSTANCE.integrate3d(a, b, c, d, d, d, rows, 0f);
                INSTANCE.countdown(a, rows, (i & 1) == 0 ? 1f : -1f, expired);
                INSTANCE.accelerate(b, rows, 0f, 0f);
                INSTANCE.scale(c, rows, 1f);
                float shift = (i & 1) == 0 ? 0.5f : -0.5f; // both outcomes of the conditional kernels
                INSTANCE.wrap(d, rows, -1f + shift, 1f + shift);
                INSTANCE.clamp(d, rows, -1f + shift, 1f + shift);
            }
        }
        warm = true;
    }

    private static void checkCount(MemorySegment segment, int count) {
        if (count < 0 || (long) count * Float.BYTES > segment.byteSize()) {
            throw new IllegalArgumentException("count=" + count + " outside 0.." + segment.byteSize() / Float.BYTES
                    + " (segment byteSize=" + segment.byteSize() + ")");
        }
    }

    private static void checkPadded(MemorySegment segment, int count) {
        long needed = (long) paddedCount(count) * Float.BYTES;
        if (count < 0 || segment.byteSize() < needed) {
            throw new IllegalArgumentException("count=" + count + " needs byteSize>=" + needed
                    + " (padded to " + F.length() + " lanes), segment byteSize=" + segment.byteSize());
        }
    }
}
