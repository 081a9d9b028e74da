package dev.jtecs.kernels;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * Reductions over one native float column. Unlike the element-wise kernels, a reduction must not read the
 * padding rows (their contents are whatever an earlier row left there), so the vector loop covers whole vectors
 * below {@code count} and the scalar twin finishes the tail. Results agree with the twin within a tolerance
 * proportional to {@code count} (the vector sums in a different order).
 */
public final class ColumnKernels {
    private static final VectorSpecies<Float> F = FloatVector.SPECIES_PREFERRED;
    private static final ByteOrder ORDER = ByteOrder.nativeOrder();

    private ColumnKernels() {}

    /** The sum of rows {@code [0, count)} (vector body, scalar tail). */
    public static float sum(MemorySegment column, int count) {
        checkCount(column, count);
        int lanes = F.length();
        int body = count - count % lanes;
        FloatVector acc = FloatVector.zero(F);
        for (long offset = 0, end = (long) body * Float.BYTES; offset < end; offset += (long) lanes * Float.BYTES) {
            acc = acc.add(FloatVector.fromMemorySegment(F, column, offset, ORDER));
        }
        return acc.reduceLanes(VectorOperators.ADD) + sumScalar(column, body, count);
    }

    /** Scalar twin of {@link #sum}: rows {@code [0, count)} in order. */
    public static float sumScalar(MemorySegment column, int count) {
        checkCount(column, count);
        return sumScalar(column, 0, count);
    }

    private static float sumScalar(MemorySegment column, int from, int to) {
        float total = 0f;
        for (int row = from; row < to; row++) {
            total += column.getAtIndex(ValueLayout.JAVA_FLOAT, row);
        }
        return total;
    }

    private static void checkCount(MemorySegment column, int count) {
        if (count < 0 || (long) count * Float.BYTES > column.byteSize()) {
            throw new IllegalArgumentException("count=" + count + " outside 0.." + column.byteSize() / Float.BYTES);
        }
    }
}
