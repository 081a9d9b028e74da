package dev.jtecs.kernels;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * {@link ParticleStepOps} one row at a time: the specification of the fused particle step, with the operations of
 * {@link ScalarParticleOps#accelerate}, {@link ScalarParticleOps#scale}, {@link ScalarParticleOps#integrate2d} and
 * {@link ScalarLifetimeOps#countdown} in that order for each row. Never touches {@code jdk.incubator.vector}.
 * {@link ParticleStepOps#SCALAR} is its one instance.
 */
public final class ScalarParticleStepOps implements ParticleStepOps {
    private static final ValueLayout.OfFloat FLOAT = ValueLayout.JAVA_FLOAT;
    private static final ValueLayout.OfDouble DOUBLE = ValueLayout.JAVA_DOUBLE;

    ScalarParticleStepOps() {}

    @Override
    public KernelMode mode() {
        return KernelMode.SCALAR;
    }

    @Override
    public int step(MemorySegment x, MemorySegment y, MemorySegment vx, MemorySegment vy, MemorySegment remaining,
            int count, float dv, float factor, float dt, double step, double spentLimit, int[] expiredRows) {
        long floats = (long) count * Float.BYTES;
        if (count < 0 || x.byteSize() < floats || y.byteSize() < floats || vx.byteSize() < floats
                || vy.byteSize() < floats || remaining.byteSize() < (long) count * Double.BYTES
                || expiredRows.length < count) {
            throw new IllegalArgumentException("count=" + count + " does not fit the columns or expiredRows.length="
                    + expiredRows.length);
        }
        return step(x, y, vx, vy, remaining, 0, count, dv, factor, dt, step, spentLimit, expiredRows, 0);
    }

    /**
     * The fused step for rows {@code [from, to)}, appending spent rows to {@code expiredRows} from index
     * {@code expired} on.
     *
     * @return {@code expired} plus the number of rows appended
     */
    public static int step(MemorySegment x, MemorySegment y, MemorySegment vx, MemorySegment vy,
            MemorySegment remaining, int from, int to, float dv, float factor, float dt, double step,
            double spentLimit, int[] expiredRows, int expired) {
        for (int row = from; row < to; row++) {
            float vxr = vx.getAtIndex(FLOAT, row) * factor;
            float vyr = (vy.getAtIndex(FLOAT, row) + dv) * factor;
            vx.setAtIndex(FLOAT, row, vxr);
            vy.setAtIndex(FLOAT, row, vyr);
            x.setAtIndex(FLOAT, row, x.getAtIndex(FLOAT, row) + vxr * dt);
            y.setAtIndex(FLOAT, row, y.getAtIndex(FLOAT, row) + vyr * dt);
            double left = remaining.getAtIndex(DOUBLE, row) - step;
            remaining.setAtIndex(DOUBLE, row, left);
            if (left <= spentLimit) {
                expiredRows[expired++] = row;
            }
        }
        return expired;
    }
}
