package dev.jtecs.kernels;

import java.lang.foreign.MemorySegment;

/**
 * {@link LifetimeLerpOps} by {@link LifetimeLerpKernels}; only {@link KernelProvider} creates it once the module is
 * readable.
 */
final class VectorLifetimeLerpOps implements LifetimeLerpOps {
    @Override
    public KernelMode mode() {
        return KernelMode.VECTOR;
    }

    @Override
    public void lerp(MemorySegment[] columns, float[] from, float[] to, int count) {
        LifetimeLerpKernels.lerp(columns, from, to, count);
    }
}
