package dev.jtecs.kernels.parallel;

import dev.jtecs.kernels.ColumnKernel;
import dev.jtecs.kernels.KernelColumns;
import dev.jtecs.kernels.KernelRunner;
import dev.jtecs.kernels.WritePolicy;
import dev.jtecs.query.Query;
import dev.jtecs.world.World;
import java.util.Objects;
import java.util.concurrent.ForkJoinPool;

/**
 * Runs a kernel over the archetypes of a query on several threads, with the results and dirty marks of
 * {@link KernelRunner}: each archetype's rows are cut into aligned chunks that workers of a {@link ForkJoinPool}
 * run, and everything that touches the world stays on the calling thread.
 *
 * <pre>
 *   calling thread                                         workers (ForkJoinPool)
 *   query.forEach: archetypes, counts, segments, versions
 *   (iteration ended and published something? gather again)
 *   cut into 64-row aligned chunks, batch them into units ──► unit: chunk ──► kernel.run(slices, count, dt[, commands])
 *   wait for every unit                                   ◄── changed? failure? (per chunk)
 *   markComponentDirty: ALWAYS where a chunk ran, WHEN_CHANGED where a chunk changed or threw
 *   first failure by chunk order? throw (marked as above), apply no command
 *   [commands] rows ──► ids, then world.defer(); apply in chunk order; world.commit()
 * </pre>
 *
 * <p>Invariants. The world is read and written by the calling thread only: workers receive segments already
 * sliced to their chunk, never the archetype, and run while the calling thread runs units of its own and waits
 * inside this method (so nothing can change the world under them; the gathering checks each archetype's storage
 * version and count once its iteration has ended). A chunk starts at a multiple of 64 rows, so its slices are
 * 64-byte aligned and whole vectors; every chunk but an archetype's last ends exactly at its rows, and the last
 * one reaches the column's end, so the tail and the padding are handled as one call over the archetype would handle
 * them. An archetype of at most {@code chunkRows} rows is one chunk ({@code chunkRows} is {@link #minChunkRows()}
 * or, for large queries, the total rows over four units per thread rounded up to a power of two), and small chunks
 * are batched into units of about {@code chunkRows} rows. A pass of one unit runs on the calling thread.
 *
 * <p>A kernel run here must compute each row from that row alone and keep no state between calls: then the column
 * bytes, the dirty marks, the return value and the applied commands equal {@link KernelRunner}'s (and a
 * single-threaded application of the same requests) for every thread count. A kernel's exception reaches the
 * caller: the first by chunk order, with the others suppressed. The rows chunks wrote keep their values, and
 * whatever may have been written is marked first, as {@link KernelRunner} leaves a throwing kernel's archetype
 * marked: with {@link WritePolicy#ALWAYS}, each archetype one of whose chunks started; with
 * {@link WritePolicy#WHEN_CHANGED}, each archetype where a chunk reported a change or threw. Chunks a failure
 * stopped before they started wrote nothing and mark nothing. No command is applied, and the runner stays usable.
 *
 * <p>One calling thread at a time, and not reentrant. {@link #close()} shuts down a pool the runner made and
 * leaves a borrowed one running.
 *
 * @implNote Per pass after warm-up, for a layout that keeps its archetypes and sizes, the runner allocates
 *     nothing, on the calling thread or the workers: the plan, the chunks, their slices (cut again only when a
 *     column's segment, offset or length changed), the command buffers and the pool tasks are all reused. Command
 *     buffers grow to the largest frame and stay; applying a scalar {@code set} creates the value object that
 *     {@code World.set} takes, and the world allocates what its own calls allocate.
 */
public final class ParallelKernelRunner implements AutoCloseable {
    /** The default {@link #minChunkRows()}: below it, splitting an archetype costs more than it saves. */
    public static final int DEFAULT_MIN_CHUNK_ROWS = 16_384;

    private final ChunkExecutor executor;
    private final int minChunkRows;
    private final ChunkPlan plan = new ChunkPlan();
    private final ChunkExecutor.Body columnBody = this::runColumnKernel;
    private final ChunkExecutor.Body commandBody = this::runCommandKernel;
    private ColumnKernel columnKernel;
    private CommandKernel commandKernel;
    private float dt;
    private boolean running;
    private int applied;

    /** A runner on a borrowed {@code pool} (left running by {@link #close()}), with the default chunk size. */
    public ParallelKernelRunner(ForkJoinPool pool) {
        this(pool, DEFAULT_MIN_CHUNK_ROWS);
    }

    /**
     * A runner on a borrowed {@code pool}.
     *
     * @throws IllegalArgumentException unless {@code minChunkRows} is a positive multiple of 64
     */
    public ParallelKernelRunner(ForkJoinPool pool, int minChunkRows) {
        this.minChunkRows = checkMinChunkRows(minChunkRows);
        this.executor = new ChunkExecutor(pool);
    }

    /** A runner on a pool of its own with {@code threads} workers, with the default chunk size. */
    public ParallelKernelRunner(int threads) {
        this(threads, DEFAULT_MIN_CHUNK_ROWS);
    }

    /**
     * A runner on a pool of its own with {@code threads} workers, shut down by {@link #close()}.
     *
     * @throws IllegalArgumentException unless {@code 1 <= threads <= 32767} and {@code minChunkRows} is a positive
     *     multiple of 64
     */
    public ParallelKernelRunner(int threads, int minChunkRows) {
        this.minChunkRows = checkMinChunkRows(minChunkRows);
        this.executor = new ChunkExecutor(threads);
    }

    static int checkMinChunkRows(int minChunkRows) {
        if (minChunkRows < ChunkPlan.ROW_ALIGNMENT || minChunkRows % ChunkPlan.ROW_ALIGNMENT != 0) {
            throw new IllegalArgumentException("minChunkRows=" + minChunkRows + " is not a positive multiple of "
                    + ChunkPlan.ROW_ALIGNMENT);
        }
        return minChunkRows;
    }

    /**
     * Runs {@code kernel} over every non-empty archetype of {@code query}, in parallel.
     *
     * @return on how many archetypes the written columns were marked dirty
     * @throws IllegalArgumentException when the query does not include a component whose column the kernel
     *     touches (checked before anything runs)
     * @throws IllegalStateException when called again while a run is in progress, or after {@link #close()}
     */
    public int run(Query query, ColumnKernel kernel, float dt) {
        Objects.requireNonNull(query, "query");
        Objects.requireNonNull(kernel, "kernel");
        begin(query, kernel.columns(), kernel);
        columnKernel = kernel;
        try {
            return pass(query, kernel.columns(), columnBody, dt, null);
        } finally {
            columnKernel = null;
            running = false;
        }
    }

    /**
     * Runs {@code kernel} over every non-empty archetype of {@code query}, in parallel, then applies the structural
     * requests its chunks recorded, in chunk order, in one scope of {@code world}.
     *
     * @return on how many archetypes the written columns were marked dirty ({@link #appliedCommands()} says how
     *     many requests reached the world)
     * @throws IllegalArgumentException when the query belongs to another world or does not include a component
     *     whose column the kernel touches (checked before anything runs)
     * @throws IllegalStateException when called again while a run is in progress, or after {@link #close()}
     */
    public int run(World world, Query query, CommandKernel kernel, float dt) {
        Objects.requireNonNull(world, "world");
        Objects.requireNonNull(query, "query");
        Objects.requireNonNull(kernel, "kernel");
        world.requireOwnQuery(query);
        begin(query, kernel.columns(), kernel);
        commandKernel = kernel;
        applied = 0;
        try {
            return pass(query, kernel.columns(), commandBody, dt, world);
        } finally {
            commandKernel = null;
            running = false;
        }
    }

    /** How many structural requests the last command run applied (requests for dead entities are skipped). */
    public int appliedCommands() {
        return applied;
    }

    /** How many threads the pool runs chunks on. */
    public int parallelism() {
        return executor.parallelism();
    }

    /** The fewest rows a chunk is cut to (an archetype's last chunk aside). */
    public int minChunkRows() {
        return minChunkRows;
    }

    /** Shuts down the runner's own pool; leaves a borrowed one running. Idempotent. */
    @Override
    public void close() {
        if (running) {
            throw new IllegalStateException("runner is running a kernel; close it after the run");
        }
        executor.close();
    }

    private void begin(Query query, KernelColumns columns, Object kernel) {
        if (running) {
            throw new IllegalStateException("runner is already running a kernel; cannot start " + kernel);
        }
        if (executor.isClosed()) {
            throw new IllegalStateException("runner is closed; cannot run " + kernel);
        }
        columns.requireIncluded(query, kernel);
        running = true;
    }

    private int pass(Query query, KernelColumns columns, ChunkExecutor.Body body, float dt, World world) {
        this.dt = dt;
        try {
            plan.gather(query, columns);
            plan.cut(executor.parallelism(), minChunkRows);
            try {
                executor.run(plan, body);
            } catch (RuntimeException | Error failure) { // the first failure; chunks that ran may have written
                mark(columns);
                throw failure;
            }
            int marked = mark(columns);
            if (world != null && CommandMerge.size(plan) > 0) {
                CommandMerge.resolve(plan);
                applied = CommandMerge.apply(world, plan);
            }
            return marked;
        } finally {
            plan.release();
        }
    }

    /**
     * Marks the written components where the kernel may have written: on an archetype where one of its chunks ran
     * (ALWAYS) or where one changed or threw (WHEN_CHANGED). After a pass without failures every chunk ran; after
     * one with failures the chunks a failure stopped before they started are the only ones left out.
     */
    private int mark(KernelColumns columns) {
        boolean always = columns.policy() == WritePolicy.ALWAYS;
        int marked = 0;
        int c = 0;
        for (int a = 0; a < plan.archetypeCount(); a++) {
            boolean changed = false;
            for (; c < plan.chunkCount() && plan.chunk(c).archetype == a; c++) {
                ChunkPlan.Chunk chunk = plan.chunk(c);
                changed |= always ? chunk.ran : chunk.changed;
            }
            if (changed) {
                for (int w = 0; w < columns.writtenComponentCount(); w++) {
                    plan.archetype(a).markComponentDirty(columns.writtenComponent(w));
                }
                marked++;
            }
        }
        return marked;
    }

    private boolean runColumnKernel(ChunkPlan.Chunk chunk, int worker) {
        return columnKernel.run(chunk.segments, chunk.count, dt);
    }

    private boolean runCommandKernel(ChunkPlan.Chunk chunk, int worker) {
        boolean changed = commandKernel.run(chunk.segments, chunk.count, dt, chunk.commands);
        chunk.commands.sortByRow(); // on the worker: the merge then reads rows in order, whatever the kernel did
        return changed;
    }
}
