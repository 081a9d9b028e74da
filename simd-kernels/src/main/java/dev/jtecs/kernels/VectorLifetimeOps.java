package dev.jtecs.kernels;

import java.lang.foreign.MemorySegment;

/** {@link LifetimeOps} by {@link LifetimeKernels}; only {@link KernelProvider} creates it once the module is readable. */
final class VectorLifetimeOps implements LifetimeOps {
    @Override
    public KernelMode mode() {
        return KernelMode.VECTOR;
    }

    @Override
    public int countdown(MemorySegment remaining, int count, double dt, double spentLimit, int[] expiredRows) {
        return LifetimeKernels.countdown(remaining, count, dt, spentLimit, expiredRows);
    }
}
