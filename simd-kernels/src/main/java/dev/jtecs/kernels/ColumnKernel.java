package dev.jtecs.kernels;

import java.lang.foreign.MemorySegment;

/**
 * A system kernel over columns: it declares the columns it reads and writes ({@link #columns()}), and runs over
 * one archetype at a time, given those columns' segments and the row count. {@link KernelRunner} walks a query
 * and does the dirty marking; a kernel never marks anything itself.
 *
 * <p>{@code run} must not keep the segments or the array that holds them, must not write into that array (the
 * runner hands the same array back on later calls), must not allocate, and must not make structural changes.
 */
public interface ColumnKernel {
    /** The columns, in the order {@link #run} receives their segments; the same object on every call. */
    KernelColumns columns();

    /**
     * Runs over rows {@code [0, count)} of one archetype.
     *
     * @param segments one segment per column of {@link #columns()}, in its order (entries past its size are
     *     left from earlier calls and must be ignored)
     * @param count the archetype's row count, at least 1 when called by the runner
     * @param dt the frame's time step in seconds (kernels that do not depend on time ignore it)
     * @return whether a written column changed; only {@link WritePolicy#WHEN_CHANGED} kernels are asked, and
     *     {@link WritePolicy#ALWAYS} kernels may return anything
     */
    boolean run(MemorySegment[] segments, int count, float dt);
}
