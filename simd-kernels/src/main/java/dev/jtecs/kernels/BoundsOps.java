package dev.jtecs.kernels;

import java.lang.foreign.MemorySegment;

/**
 * The bounds reduction behind one interface: {@link #SCALAR} (the specification, {@link ScalarBoundsOps}) or the
 * vector one ({@link dev.jtecs.kernels.vector.VectorBoundsOps}) that {@link KernelProvider#bounds()} picks when the
 * Vector API pays.
 *
 * <p>A reduction reads rows {@code [0, count)} only, never the padding past them (a leftover value there would
 * enter the result), so it takes any native segment of at least {@code count} floats. Minimum and maximum are
 * exact, so the two implementations agree bit for bit whatever order they visit rows in.
 */
public interface BoundsOps {
    /** The scalar twin. */
    BoundsOps SCALAR = new ScalarBoundsOps();

    /** Which implementation this is. */
    KernelMode mode();

    /**
     * Widens {@code range} to cover rows {@code [0, count)} of one float column: {@code range[0] =
     * min(range[0], rows)}, {@code range[1] = max(range[1], rows)}, skipping NaN rows; {@code -0.0} is below
     * {@code 0.0}. Start from {@code {+Infinity, -Infinity}} (the empty range) and call once per column part.
     *
     * @throws IllegalArgumentException when {@code count} is negative or exceeds the segment, or {@code range}
     *     has fewer than two elements or holds NaN (nothing changes)
     */
    void minMax(MemorySegment column, int count, float[] range);
}
