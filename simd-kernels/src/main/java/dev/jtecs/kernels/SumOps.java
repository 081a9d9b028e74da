package dev.jtecs.kernels;

import java.lang.foreign.MemorySegment;

/**
 * The sum of a float column behind one interface: {@link #SCALAR} (the specification, {@link ScalarSumOps}) or the
 * vector one that {@link KernelProvider#sums()} picks when the Vector API pays
 * ({@link dev.jtecs.kernels.vector.VectorSumOps}).
 *
 * <p>Unlike the element-wise kernels, a reduction must not read the padding rows (their contents are whatever an
 * earlier row left there), so it reads rows {@code [0, count)} only. The vector one adds whole vectors and then their
 * lanes, in another order than the twin's row by row, so the two agree within a tolerance proportional to
 * {@code count}, not bit for bit.
 */
public interface SumOps {
    /** The scalar twin: the specification, and the implementation where vectors are unavailable or forced off. */
    SumOps SCALAR = new ScalarSumOps();

    /** Which implementation this is. */
    KernelMode mode();

    /**
     * The sum of rows {@code [0, count)} of a float column.
     *
     * @throws IllegalArgumentException when {@code count} is negative or exceeds the segment
     */
    float sum(MemorySegment column, int count);
}
