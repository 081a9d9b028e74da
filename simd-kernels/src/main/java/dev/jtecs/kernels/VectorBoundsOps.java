package dev.jtecs.kernels;

import java.lang.foreign.MemorySegment;

/**
 * {@link BoundsOps} by the Vector API kernel of {@link BoundsKernels}. Only {@link KernelProvider} creates it, and
 * only once it has found {@code jdk.incubator.vector} readable: loading it elsewhere would fail.
 */
final class VectorBoundsOps implements BoundsOps {
    @Override
    public KernelMode mode() {
        return KernelMode.VECTOR;
    }

    @Override
    public void minMax(MemorySegment column, int count, float[] range) {
        BoundsKernels.minMax(column, count, range);
    }
}
