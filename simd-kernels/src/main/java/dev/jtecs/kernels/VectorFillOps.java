package dev.jtecs.kernels;

import java.lang.foreign.MemorySegment;

/** {@link FillOps} by {@link FillKernels}; only {@link KernelProvider} creates it once the module is readable. */
final class VectorFillOps implements FillOps {
    @Override
    public KernelMode mode() {
        return KernelMode.VECTOR;
    }

    @Override
    public void constant(MemorySegment column, int fromRow, int toRow, float value) {
        FillKernels.constant(column, fromRow, toRow, value);
    }

    @Override
    public void range(MemorySegment column, int fromRow, int toRow, int firstIndex, float start, float step) {
        FillKernels.range(column, fromRow, toRow, firstIndex, start, step);
    }

    @Override
    public void uniform(MemorySegment column, int fromRow, int toRow, long key, float lo, float hi) {
        FillKernels.uniform(column, fromRow, toRow, key, lo, hi);
    }
}
