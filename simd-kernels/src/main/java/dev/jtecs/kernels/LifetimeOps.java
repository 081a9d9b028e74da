package dev.jtecs.kernels;

import java.lang.foreign.MemorySegment;

/**
 * The lifetime countdown behind one interface: {@link #SCALAR} (the specification, {@link ScalarLifetimeOps}) or
 * the vector one ({@link dev.jtecs.kernels.vector.VectorLifetimeOps}) that {@link KernelProvider#lifetimes()} picks
 * when the Vector API pays. {@code remaining} is a jtecs {@code double}
 * column (64-byte aligned, capacity padded to 64 rows); the vector implementation may write its padding rows.
 */
public interface LifetimeOps {
    /** The scalar twin. */
    LifetimeOps SCALAR = new ScalarLifetimeOps();

    /** Which implementation this is. */
    KernelMode mode();

    /**
     * {@code remaining -= dt} for rows {@code [0, count)}; the rows whose result is {@code <= spentLimit} go to
     * {@code expiredRows} in ascending order, from index 0. See {@link ScalarLifetimeOps#countdown}.
     *
     * @return how many rows expired
     */
    int countdown(MemorySegment remaining, int count, double dt, double spentLimit, int[] expiredRows);
}
