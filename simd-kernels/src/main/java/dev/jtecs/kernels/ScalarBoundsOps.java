package dev.jtecs.kernels;

import java.lang.foreign.MemorySegment;

/** {@link BoundsOps} by the scalar twin; loads without {@code jdk.incubator.vector}. */
final class ScalarBoundsOps implements BoundsOps {
    @Override
    public KernelMode mode() {
        return KernelMode.SCALAR;
    }

    @Override
    public void minMax(MemorySegment column, int count, float[] range) {
        ScalarBounds.check(column, count, range);
        ScalarBounds.minMax(column, 0, count, range);
    }
}
