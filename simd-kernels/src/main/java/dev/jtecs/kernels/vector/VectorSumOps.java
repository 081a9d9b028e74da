package dev.jtecs.kernels.vector;

import dev.jtecs.kernels.KernelMode;
import dev.jtecs.kernels.ScalarSumOps;
import dev.jtecs.kernels.SumOps;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * {@link SumOps} by the Vector API: the sum of one native float column. Unlike the element-wise kernels, a
 * reduction must not read the padding rows (their contents are whatever an earlier row left there), so the vector
 * loop covers whole vectors below {@code count} and the scalar twin ({@link ScalarSumOps}) finishes the tail.
 * Results agree with the twin within a tolerance proportional to {@code count} (the vector sums in a different
 * order).
 */
public final class VectorSumOps implements SumOps {
    /** The vector sum. */
    public static final VectorSumOps INSTANCE = new VectorSumOps();
    private static final VectorSpecies<Float> F = FloatVector.SPECIES_PREFERRED;
    private static final ByteOrder ORDER = ByteOrder.nativeOrder();

    private VectorSumOps() {}

    @Override
    public KernelMode mode() {
        return KernelMode.VECTOR;
    }

    /** The sum of rows {@code [0, count)} (vector body, scalar tail). */
    @Override
    public float sum(MemorySegment column, int count) {
        ScalarSumOps.check(column, count);
        int lanes = F.length();
        int body = count - count % lanes;
        FloatVector acc = FloatVector.zero(F);
        for (long offset = 0, end = (long) body * Float.BYTES; offset < end; offset += (long) lanes * Float.BYTES) {
            acc = acc.add(FloatVector.fromMemorySegment(F, column, offset, ORDER));
        }
        return acc.reduceLanes(VectorOperators.ADD) + ScalarSumOps.sum(column, body, count);
    }
}
