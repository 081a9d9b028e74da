/**
 * Kernel passes on several threads that give the results of the single-threaded ones:
 * {@link dev.jtecs.kernels.parallel.ParallelKernelRunner} runs a {@code ColumnKernel}, or a
 * {@link dev.jtecs.kernels.parallel.CommandKernel} that records structural requests in
 * {@link dev.jtecs.kernels.parallel.ChunkCommands}, over a query, and
 * {@link dev.jtecs.kernels.parallel.ParallelLifetimeCountdown} counts TTL lifetimes down. The calling thread gathers
 * the query's archetypes and cuts their rows into 64-row aligned chunks batched into units ({@code ChunkPlan}),
 * workers of a {@code ForkJoinPool} run the units ({@code ChunkExecutor}), and the calling thread then marks dirty
 * state and applies what the chunks recorded, in chunk order ({@code CommandMerge}). The package builds on
 * {@link dev.jtecs.kernels} and runs whichever ops its kernels were given; it never names the vector twins.
 *
 * <pre>
 *   calling thread   query.forEach ──► ChunkPlan.gather: archetypes, counts, segments, storage versions
 *                    (the iteration's end published something? gather again)
 *                    ChunkPlan.cut ──► chunks: first row a multiple of 64, an archetype's last one to the column end
 *                                  ──► units of about chunkRows rows
 *   workers          ChunkExecutor: unit ──► each chunk ──► kernel.run(slices, count, dt[, commands]) ──► changed?
 *   calling thread   a failure? the first by chunk order is thrown, nothing is marked or applied
 *                    mark the written components: ALWAYS where rows ran, WHEN_CHANGED where a chunk changed
 *                    CommandMerge: rows ──► ids, then world.defer(); requests in chunk order; world.commit()
 * </pre>
 *
 * <p>Invariants: the world is read and written by the calling thread only (workers see segments sliced to their
 * chunk, never an archetype or the world); chunk slices are 64-byte aligned whole vectors, and the last chunk of an
 * archetype carries its tail and padding as one call over the archetype would; for every thread count a pass leaves
 * the column bytes, dirty marks, return value, spent entities and applied requests of the single-threaded pass; after
 * warm-up a pass over a fixed layout allocates nothing.
 */
package dev.jtecs.kernels.parallel;
