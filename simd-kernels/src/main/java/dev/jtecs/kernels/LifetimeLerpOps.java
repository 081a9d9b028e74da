package dev.jtecs.kernels;

import java.lang.foreign.MemorySegment;

/**
 * The lifetime interpolation behind one interface: {@link #SCALAR} (the specification, {@link ScalarLifetimeLerpOps})
 * or the vector one ({@link dev.jtecs.kernels.vector.VectorLifetimeLerpOps}) that
 * {@link KernelProvider#lifetimeLerps()} picks when the Vector API pays. Rows are {@code [0, count)} of jtecs
 * columns (64-byte aligned, capacity padded to 64 rows); the kernel is unconditional and may also write the padding
 * rows of its output columns.
 */
public interface LifetimeLerpOps {
    /** The scalar twin: the specification, and the implementation where vectors are unavailable or forced off. */
    LifetimeLerpOps SCALAR = new ScalarLifetimeLerpOps();

    /** Which implementation this is. */
    KernelMode mode();

    /**
     * Writes each output channel {@code c} of each row as {@code (1 - t) * from[c] + t * to[c]}, with {@code t} the
     * row's {@code TTL.percentComplete()} rounded to float. See {@link ScalarLifetimeLerpOps#lerp}.
     *
     * @param columns {@code [0, n)}: the float output columns (written), {@code n = from.length}; {@code n}: the
     *     double {@code TTL.startingTime} column, {@code n + 1}: the double {@code TTL.remaining} column (read) — the
     *     order {@link OverLifetime} declares; entries past {@code n + 1} are ignored
     * @throws IllegalArgumentException when {@code from} and {@code to} differ in length or are empty, there are
     *     fewer than {@code n + 2} columns, or a column is too short for {@code count}
     */
    void lerp(MemorySegment[] columns, float[] from, float[] to, int count);
}
