package dev.jtecs.kernels;

import java.lang.foreign.MemorySegment;

/** {@link LifetimeOps} by the scalar twin; loads without {@code jdk.incubator.vector}. */
final class ScalarLifetimeOps implements LifetimeOps {
    @Override
    public KernelMode mode() {
        return KernelMode.SCALAR;
    }

    @Override
    public int countdown(MemorySegment remaining, int count, double dt, double spentLimit, int[] expiredRows) {
        if (count < 0 || (long) count * Double.BYTES > remaining.byteSize() || expiredRows.length < count) {
            throw new IllegalArgumentException("count=" + count + " byteSize=" + remaining.byteSize()
                    + " expiredRows.length=" + expiredRows.length);
        }
        return ScalarLifetimes.countdown(remaining, 0, count, dt, spentLimit, expiredRows, 0);
    }
}
