package dev.jtecs.kernels;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * {@link SumOps} by the scalar twin: rows added in order, one at a time. The interface method checks its arguments
 * ({@link #check}, which the vector twin shares) and runs the static {@link #sum(MemorySegment, int, int)}, which the
 * vector twin also calls for the rows after its last whole vector. Never touches {@code jdk.incubator.vector}.
 * {@link SumOps#SCALAR} is its one instance.
 */
public final class ScalarSumOps implements SumOps {
    ScalarSumOps() {}

    @Override
    public KernelMode mode() {
        return KernelMode.SCALAR;
    }

    /** Rows {@code [0, count)} in order. */
    @Override
    public float sum(MemorySegment column, int count) {
        check(column, count);
        return sum(column, 0, count);
    }

    /** The sum of rows {@code [from, to)}, in order (no argument checks). */
    public static float sum(MemorySegment column, int from, int to) {
        float total = 0f;
        for (int row = from; row < to; row++) {
            total += column.getAtIndex(ValueLayout.JAVA_FLOAT, row);
        }
        return total;
    }

    /** The argument checks of {@link SumOps#sum}, which both twins make. */
    public static void check(MemorySegment column, int count) {
        if (count < 0 || (long) count * Float.BYTES > column.byteSize()) {
            throw new IllegalArgumentException("count=" + count + " outside 0.." + column.byteSize() / Float.BYTES);
        }
    }
}
