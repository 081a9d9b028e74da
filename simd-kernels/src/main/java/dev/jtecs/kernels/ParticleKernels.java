package dev.jtecs.kernels;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * Particle kernels over native float columns: integration ({@code pos += vel * dt}) and lifetime countdown with
 * expiry detection. Each vector kernel has a scalar twin ({@code ...Scalar}) that is its specification.
 *
 * <p>Contract: every segment is a jtecs column (64-byte aligned, capacity a multiple of 64 rows), so the vector
 * loops run unmasked to {@code count} rounded up to the lane count; the rows they touch past {@code count} are
 * padding that nothing else observes. Element-wise results agree bit for bit with the scalar twins (same
 * operations, same order, no fused multiply-add on either side).
 */
public final class ParticleKernels {
    private static final VectorSpecies<Float> F = FloatVector.SPECIES_PREFERRED;
    private static final ValueLayout.OfFloat FLOAT = ValueLayout.JAVA_FLOAT;
    private static final ByteOrder ORDER = ByteOrder.nativeOrder();
    private static boolean warm;

    private ParticleKernels() {}

    /** The float lane count of the preferred species. */
    public static int lanes() {
        return F.length();
    }

    /** {@code rows [0, count)} rounded up to whole vectors: the bound the vector loops run to. */
    public static int paddedCount(int count) {
        return (count + F.length() - 1) / F.length() * F.length();
    }

    /** {@code x += vx * dt; y += vy * dt} for rows {@code [0, count)} (vector). */
    public static void integrate2d(MemorySegment x, MemorySegment y, MemorySegment vx, MemorySegment vy,
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

    /** Scalar twin of {@link #integrate2d}. */
    public static void integrate2dScalar(MemorySegment x, MemorySegment y, MemorySegment vx, MemorySegment vy,
            int count, float dt) {
        for (int row = 0; row < count; row++) {
            x.setAtIndex(FLOAT, row, x.getAtIndex(FLOAT, row) + vx.getAtIndex(FLOAT, row) * dt);
            y.setAtIndex(FLOAT, row, y.getAtIndex(FLOAT, row) + vy.getAtIndex(FLOAT, row) * dt);
        }
    }

    /**
     * {@code remaining -= dt} for rows {@code [0, count)}, writing the rows that reach zero or below into
     * {@code expiredRows} (ascending).
     *
     * @return how many rows expired
     */
    public static int countdown(MemorySegment remaining, int count, float dt, int[] expiredRows) {
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

    /** Scalar twin of {@link #countdown}. */
    public static int countdownScalar(MemorySegment remaining, int count, float dt, int[] expiredRows) {
        int expired = 0;
        for (int row = 0; row < count; row++) {
            float left = remaining.getAtIndex(FLOAT, row) - dt;
            remaining.setAtIndex(FLOAT, row, left);
            if (left <= 0f) {
                expiredRows[expired++] = row;
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
                integrate2d(a, b, c, d, rows, 0f);
                countdown(a, rows, (i & 1) == 0 ? 1f : -1f, expired);
            }
        }
        warm = true;
    }

    private static void checkPadded(MemorySegment segment, int count) {
        long needed = (long) paddedCount(count) * Float.BYTES;
        if (count < 0 || segment.byteSize() < needed) {
            throw new IllegalArgumentException("count=" + count + " needs byteSize>=" + needed
                    + " (padded to " + F.length() + " lanes), segment byteSize=" + segment.byteSize());
        }
    }
}
