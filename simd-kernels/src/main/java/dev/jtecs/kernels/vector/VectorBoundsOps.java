package dev.jtecs.kernels.vector;

import dev.jtecs.kernels.BoundsOps;
import dev.jtecs.kernels.KernelMode;
import dev.jtecs.kernels.ScalarBoundsOps;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * {@link BoundsOps} by the Vector API: the bounds reduction over one native float column. {@link ScalarBoundsOps}
 * ({@link BoundsOps#SCALAR}) is its twin and specification (NaN skipped, {@code -0.0} below {@code 0.0}).
 *
 * <p>Whole vectors below {@code count} run in the vector loop, with one running minimum and one running maximum
 * vector; NaN lanes are replaced first by the identity of each ({@code +Infinity} for the minimum,
 * {@code -Infinity} for the maximum) so they change nothing. The rows past the last whole vector go to the twin,
 * never the padding. {@code FloatVector.min}/{@code max} and their lane reductions follow
 * {@link Math#min}/{@link Math#max}, a total order on non-NaN floats, so the result is the twin's bit for bit.
 */
public final class VectorBoundsOps implements BoundsOps {
    /** The vector bounds reduction. */
    public static final VectorBoundsOps INSTANCE = new VectorBoundsOps();
    private static final VectorSpecies<Float> F = FloatVector.SPECIES_PREFERRED;
    private static final ByteOrder ORDER = ByteOrder.nativeOrder();

    private VectorBoundsOps() {}

    @Override
    public KernelMode mode() {
        return KernelMode.VECTOR;
    }

    /** Widens {@code range} over rows {@code [0, count)} (vector body, scalar tail); see {@link BoundsOps#minMax}. */
    @Override
    public void minMax(MemorySegment column, int count, float[] range) {
        ScalarBoundsOps.check(column, count, range);
        int body = count - count % F.length();
        if (body > 0) {
            FloatVector up = FloatVector.broadcast(F, Float.POSITIVE_INFINITY);
            FloatVector down = FloatVector.broadcast(F, Float.NEGATIVE_INFINITY);
            FloatVector min = up;
            FloatVector max = down;
            for (long offset = 0, end = (long) body * Float.BYTES; offset < end; offset += F.vectorByteSize()) {
                FloatVector v = FloatVector.fromMemorySegment(F, column, offset, ORDER);
                VectorMask<Float> nan = v.test(VectorOperators.IS_NAN);
                min = min.min(v.blend(up, nan));
                max = max.max(v.blend(down, nan));
            }
            range[0] = Math.min(range[0], min.reduceLanes(VectorOperators.MIN));
            range[1] = Math.max(range[1], max.reduceLanes(VectorOperators.MAX));
        }
        ScalarBoundsOps.minMax(column, body, count, range);
    }
}
