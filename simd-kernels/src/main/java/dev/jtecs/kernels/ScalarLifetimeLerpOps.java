package dev.jtecs.kernels;

import java.lang.foreign.MemorySegment;

/** {@link LifetimeLerpOps} by the scalar twin; loads without {@code jdk.incubator.vector}. */
final class ScalarLifetimeLerpOps implements LifetimeLerpOps {
    @Override
    public KernelMode mode() {
        return KernelMode.SCALAR;
    }

    @Override
    public void lerp(MemorySegment[] columns, float[] from, float[] to, int count) {
        ScalarLifetimeLerps.check(columns, from, to, count, count);
        ScalarLifetimeLerps.lerp(columns, from, to, 0, count);
    }
}
