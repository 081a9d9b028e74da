package dev.jtecs.kernels.vector;

import dev.jtecs.kernels.KernelMode;
import dev.jtecs.kernels.ParticleStepOps;
import dev.jtecs.kernels.ScalarParticleStepOps;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorSpecies;

/**
 * {@link ParticleStepOps} by the Vector API (twin: {@link ScalarParticleStepOps}). One iteration takes one float
 * vector of rows from each of x, y, vx, vy and the same rows of the double lifetime column, as two double vectors
 * of the same shape (a double lane is twice a float lane), so every column is loaded and stored once per row.
 * Runs unmasked to {@code count} rounded up to the float lane count: the rows past {@code count} are the padding of
 * jtecs columns, written but never listed as spent. Element-wise the same operations in the same order as the twin,
 * no fused multiply-add, so the results agree bit for bit.
 */
public final class VectorParticleStepOps implements ParticleStepOps {
    /** The vector fused step. */
    public static final VectorParticleStepOps INSTANCE = new VectorParticleStepOps();
    private static final VectorSpecies<Float> F = FloatVector.SPECIES_PREFERRED;
    private static final VectorSpecies<Double> D =
            VectorSpecies.of(double.class, VectorShape.forBitSize(F.vectorBitSize()));
    private static final ByteOrder ORDER = ByteOrder.nativeOrder();

    private VectorParticleStepOps() {}

    @Override
    public KernelMode mode() {
        return KernelMode.VECTOR;
    }

    @Override
    public int step(MemorySegment x, MemorySegment y, MemorySegment vx, MemorySegment vy, MemorySegment remaining,
            int count, float dv, float factor, float dt, double step, double spentLimit, int[] expiredRows) {
        int lanes = F.length();
        long padded = (long) (count + lanes - 1) / lanes * lanes;
        long floats = padded * Float.BYTES;
        if (count < 0 || x.byteSize() < floats || y.byteSize() < floats || vx.byteSize() < floats
                || vy.byteSize() < floats || remaining.byteSize() < padded * Double.BYTES
                || expiredRows.length < count) {
            throw new IllegalArgumentException("count=" + count + " needs columns padded to " + lanes
                    + " lanes and expiredRows.length>=" + count + ", got expiredRows.length=" + expiredRows.length);
        }
        int half = D.length();
        long doubleStep = (long) half * Double.BYTES;
        int expired = 0;
        for (int row = 0; row < count; row += lanes) {
            long f = (long) row * Float.BYTES;
            FloatVector vxr = FloatVector.fromMemorySegment(F, vx, f, ORDER).mul(factor);
            FloatVector vyr = FloatVector.fromMemorySegment(F, vy, f, ORDER).add(dv).mul(factor);
            vxr.intoMemorySegment(vx, f, ORDER);
            vyr.intoMemorySegment(vy, f, ORDER);
            FloatVector.fromMemorySegment(F, x, f, ORDER).add(vxr.mul(dt)).intoMemorySegment(x, f, ORDER);
            FloatVector.fromMemorySegment(F, y, f, ORDER).add(vyr.mul(dt)).intoMemorySegment(y, f, ORDER);
            long d = (long) row * Double.BYTES;
            DoubleVector low = DoubleVector.fromMemorySegment(D, remaining, d, ORDER).sub(step);
            DoubleVector high = DoubleVector.fromMemorySegment(D, remaining, d + doubleStep, ORDER).sub(step);
            low.intoMemorySegment(remaining, d, ORDER);
            high.intoMemorySegment(remaining, d + doubleStep, ORDER);
            long spent = low.compare(jdk.incubator.vector.VectorOperators.LE, spentLimit).toLong()
                    | high.compare(jdk.incubator.vector.VectorOperators.LE, spentLimit).toLong() << half;
            while (spent != 0) {
                int lane = Long.numberOfTrailingZeros(spent);
                spent &= spent - 1;
                if (row + lane < count) {
                    expiredRows[expired++] = row + lane;
                }
            }
        }
        return expired;
    }

    /**
     * Runs the step on small scratch columns until the JIT has compiled it (both outcomes of the expiry test), so
     * the first measured frames do not run interpreted vector code. Cheap after the first call.
     */
    public static synchronized void warmUp() {
        if (warm) {
            return;
        }
        try (java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofShared()) { // shared, like jtecs columns
            int rows = 1024;
            MemorySegment a = arena.allocate((long) rows * Float.BYTES, 64);
            MemorySegment b = arena.allocate((long) rows * Float.BYTES, 64);
            MemorySegment c = arena.allocate((long) rows * Float.BYTES, 64);
            MemorySegment d = arena.allocate((long) rows * Float.BYTES, 64);
            MemorySegment life = arena.allocate((long) rows * Double.BYTES, 64);
            int[] expired = new int[rows];
            for (int i = 0; i < 20_000; i++) {
                INSTANCE.step(a, b, c, d, life, rows, 0f, 1f, 0f, (i & 1) == 0 ? 1.0 : -1.0, 0.0, expired);
            }
        }
        warm = true;
    }

    private static boolean warm;
}
