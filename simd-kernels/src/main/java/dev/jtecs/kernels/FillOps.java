package dev.jtecs.kernels;

import java.lang.foreign.MemorySegment;

/**
 * The fill kernels behind one interface: {@link #SCALAR} (the specification, {@link ScalarFillOps}) or the vector one
 * ({@link dev.jtecs.kernels.vector.VectorFillOps}) that {@link KernelProvider#fills()} picks when the Vector API
 * pays. They write rows {@code [fromRow, toRow)} of a native float column, an arbitrary range such as the new rows
 * of a batch spawn, and touch no row outside it (the rows before it belong to live entities). {@link BatchFill}
 * builds batch callbacks from them.
 *
 * <p>Every value is a function of the arguments and the row alone, never of how the range is cut: filling
 * {@code [a, c)} in one call or as {@code [a, b)} then {@code [b, c)} (with the range's index carried over) gives
 * the same bits, in either implementation.
 */
public interface FillOps {
    /** The scalar twins: the specification, and the implementation where vectors are unavailable or forced off. */
    FillOps SCALAR = new ScalarFillOps();

    /** Which implementation this is. */
    KernelMode mode();

    /**
     * Writes {@code value} (its exact bits, NaN payloads and {@code -0.0} included) to every row.
     *
     * @throws IllegalArgumentException unless {@code 0 <= fromRow <= toRow} and the column holds {@code toRow} rows
     */
    void constant(MemorySegment column, int fromRow, int toRow, float value);

    /**
     * Writes {@code start + (float) i * step} to each row, {@code i = firstIndex + (row - fromRow)}; see
     * {@link ScalarFillOps#rangeRows}.
     *
     * @throws IllegalArgumentException for a bad row range, a negative {@code firstIndex} or one whose last index
     *     overflows an {@code int}, or a {@code start} or {@code step} that is not finite
     */
    void range(MemorySegment column, int fromRow, int toRow, int firstIndex, float start, float step);

    /**
     * Writes a pseudo-random value in {@code [lo, hi)} to each row, a function of {@code key} and the row alone;
     * see {@link ScalarFillOps#uniform(long, int, float, float)}.
     *
     * @throws IllegalArgumentException for a bad row range, or unless {@code lo < hi}, both finite, with a finite
     *     width {@code hi - lo}
     */
    void uniform(MemorySegment column, int fromRow, int toRow, long key, float lo, float hi);
}
