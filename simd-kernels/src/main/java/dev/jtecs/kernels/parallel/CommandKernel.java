package dev.jtecs.kernels.parallel;

import dev.jtecs.kernels.ColumnKernel;
import dev.jtecs.kernels.KernelColumns;
import dev.jtecs.kernels.WritePolicy;
import java.lang.foreign.MemorySegment;

/**
 * A column kernel that may also ask for structural changes to the entities of its rows (despawn one, add or remove
 * a tag, set a value), which it records in a {@link ChunkCommands} buffer instead of calling the world.
 * {@link ParallelKernelRunner#run(dev.jtecs.world.World, dev.jtecs.query.Query, CommandKernel, float)} runs it on
 * worker threads, chunk by chunk, and applies the buffers on the calling thread in chunk order.
 *
 * <p>The contract of {@link ColumnKernel} holds (no keeping segments, no allocation in the row loop, no marking),
 * and two more rules make a parallel run equal to a single-threaded one: every row is computed from that row alone
 * (a call may receive any aligned part of an archetype, so a row must not depend on where the call starts or how
 * many rows it gets), and the kernel never calls the world or keeps state between calls (it runs on several
 * threads at once).
 */
public interface CommandKernel {
    /** The columns, in the order {@link #run} receives their segments; the same object on every call. */
    KernelColumns columns();

    /**
     * Runs over rows {@code [0, count)} of one chunk.
     *
     * @param segments one slice per column of {@link #columns()}, starting at the chunk's first row (entries past
     *     its size must be ignored)
     * @param count the chunk's row count, at least 1
     * @param dt the frame's time step in seconds
     * @param commands where to record structural requests, by row in {@code [0, count)}; empty on entry
     * @return whether a written column changed ({@link WritePolicy#WHEN_CHANGED} kernels)
     */
    boolean run(MemorySegment[] segments, int count, float dt, ChunkCommands commands);
}
