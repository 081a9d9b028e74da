package dev.jtecs.kernels;

import java.lang.foreign.MemorySegment;

/** {@link FillOps} by the scalar twins; loads without {@code jdk.incubator.vector}. */
final class ScalarFillOps implements FillOps {
    @Override
    public KernelMode mode() {
        return KernelMode.SCALAR;
    }

    @Override
    public void constant(MemorySegment column, int fromRow, int toRow, float value) {
        ScalarFills.checkRows(column, fromRow, toRow);
        ScalarFills.constant(column, fromRow, toRow, value);
    }

    @Override
    public void range(MemorySegment column, int fromRow, int toRow, int firstIndex, float start, float step) {
        ScalarFills.checkRows(column, fromRow, toRow);
        ScalarFills.checkRange(fromRow, toRow, firstIndex, start, step);
        ScalarFills.range(column, fromRow, toRow, firstIndex, start, step);
    }

    @Override
    public void uniform(MemorySegment column, int fromRow, int toRow, long key, float lo, float hi) {
        ScalarFills.checkRows(column, fromRow, toRow);
        ScalarFills.checkUniform(lo, hi);
        ScalarFills.uniform(column, fromRow, toRow, key, lo, hi);
    }
}
