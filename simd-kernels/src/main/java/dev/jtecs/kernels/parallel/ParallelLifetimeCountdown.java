package dev.jtecs.kernels.parallel;

import dev.jtecs.builtin.TTL;
import dev.jtecs.kernels.KernelColumns;
import dev.jtecs.kernels.KernelProvider;
import dev.jtecs.kernels.LifetimeCountdown;
import dev.jtecs.kernels.LifetimeOps;
import dev.jtecs.kernels.WritePolicy;
import dev.jtecs.query.Query;
import dev.jtecs.world.World;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ForkJoinPool;

/**
 * {@link LifetimeCountdown} on several threads: the same countdown, the same dirty marks, and the same list of spent
 * entities in the same order, for every thread count.
 *
 * <pre>
 *   countDown(query, dt):  calling thread gathers the TTL columns (query.forEach), cuts them into aligned chunks
 *       worker, per chunk:  remaining -= dt (LifetimeOps) ──► spent rows, ascending ──► chunk's despawn requests
 *       calling thread:     markComponentDirty(TTL) on every archetype with rows
 *                           merge: chunk 0, 1, 2, ... rows ──► ids   (= the single-threaded list: archetype order,
 *                                                                       then row order)
 *   despawnExpired(world):  the merged list, entities no longer alive skipped, in one world.despawn(ids, 0, n) in
 *                           one scope (the chunk requests, in chunk order, are exactly that list)
 * </pre>
 *
 * <p>The step is a {@code double}, as for the single-threaded countdown. Chunking follows
 * {@link ParallelKernelRunner}: 64-row aligned chunks, an archetype's last chunk sliced to the column's end (the
 * vector countdown may write the padding there, as it does in one call), small archetypes batched into units,
 * one unit run on the calling thread. A failure in a worker reaches the caller (first by chunk order); since the
 * other chunks may have counted their rows down, {@code TTL} is marked on every archetype of the pass, the collected
 * list is empty, and the countdown stays usable.
 *
 * <p>One calling thread at a time. {@link #close()} shuts down a pool the countdown made.
 *
 * @implNote Each worker keeps one scratch array of a chunk's size for the spent rows; chunk buffers hold only the
 *     spent rows. After warm-up (scratch and lists grown to their largest) a pass allocates nothing for a fixed
 *     layout.
 */
public final class ParallelLifetimeCountdown implements AutoCloseable {
    private static final KernelColumns COLUMNS =
            KernelColumns.of(List.of(TTL.REMAINING), List.of(), WritePolicy.ALWAYS);

    private final LifetimeOps ops;
    private final ChunkExecutor executor;
    private final int minChunkRows;
    private final ChunkPlan plan = new ChunkPlan();
    private final ChunkExecutor.Body body = this::countDownChunk;
    private int[][] scratch = new int[0][];
    private final SpentIds spent = new SpentIds();
    private double dt;
    private boolean running;

    /** A countdown running {@code ops} on a borrowed {@code pool} (left running by {@link #close()}). */
    public ParallelLifetimeCountdown(LifetimeOps ops, ForkJoinPool pool) {
        this(ops, pool, ParallelKernelRunner.DEFAULT_MIN_CHUNK_ROWS);
    }

    /**
     * A countdown running {@code ops} on a borrowed {@code pool}.
     *
     * @throws IllegalArgumentException unless {@code minChunkRows} is a positive multiple of 64
     */
    public ParallelLifetimeCountdown(LifetimeOps ops, ForkJoinPool pool, int minChunkRows) {
        this.ops = Objects.requireNonNull(ops, "ops");
        this.minChunkRows = ParallelKernelRunner.checkMinChunkRows(minChunkRows);
        this.executor = new ChunkExecutor(pool);
    }

    /**
     * A countdown running {@code ops} on a pool of its own with {@code threads} workers.
     *
     * @throws IllegalArgumentException unless {@code 1 <= threads <= 32767} and {@code minChunkRows} is a positive
     *     multiple of 64
     */
    public ParallelLifetimeCountdown(LifetimeOps ops, int threads, int minChunkRows) {
        this.ops = Objects.requireNonNull(ops, "ops");
        this.minChunkRows = ParallelKernelRunner.checkMinChunkRows(minChunkRows);
        this.executor = new ChunkExecutor(threads);
    }

    /** A countdown running {@link KernelProvider#lifetimes()} on a pool of its own with {@code threads} workers. */
    public ParallelLifetimeCountdown(int threads) {
        this(KernelProvider.lifetimes(), threads, ParallelKernelRunner.DEFAULT_MIN_CHUNK_ROWS);
    }

    /**
     * Takes {@code dt} off every lifetime the query matches and collects the entities whose lifetime is spent
     * (replacing the previous pass's list), in archetype order, then row order.
     *
     * @return how many entities expired
     * @throws IllegalArgumentException when the query does not include {@link TTL}, or {@code dt} is not finite
     * @throws IllegalStateException when called while a pass runs, or after {@link #close()}
     */
    public int countDown(Query query, double dt) {
        if (!query.descriptor().include().contains(TTL.COMPONENT)) {
            throw new IllegalArgumentException("query " + query.descriptor() + " does not include TTL");
        }
        if (!Double.isFinite(dt)) {
            throw new IllegalArgumentException("dt=" + dt + " is not finite");
        }
        if (running) {
            throw new IllegalStateException("countdown is already running a pass");
        }
        if (executor.isClosed()) {
            throw new IllegalStateException("countdown is closed");
        }
        running = true;
        this.dt = dt;
        spent.clear(plan); // the previous pass's requests go, even if this one fails
        try {
            plan.gather(query, COLUMNS);
            plan.cut(executor.parallelism(), minChunkRows);
            ensureScratch();
            try {
                executor.run(plan, body);
            } finally { // a failed pass may have counted some rows down already: every gathered archetype is marked
                for (int a = 0; a < plan.archetypeCount(); a++) {
                    plan.archetype(a).markComponentDirty(TTL.COMPONENT);
                }
            }
            CommandMerge.resolve(plan);
            spent.collect(plan);
            return spent.count();
        } finally {
            plan.release();
            running = false;
        }
    }

    /** How many entities the last {@link #countDown} collected. */
    public int expiredCount() {
        return spent.count();
    }

    /** The {@code index}-th entity the last {@link #countDown} collected. */
    public long expired(int index) {
        return spent.get(index);
    }

    /**
     * Despawns the collected entities that are still alive, in one scope: they publish together when it closes
     * (or with the enclosing scope, if one is open). Clears the list.
     *
     * @return how many despawns it staged
     */
    public int despawnExpired(World world) {
        return spent.despawn(world, plan);
    }

    /** Shuts down the countdown's own pool; leaves a borrowed one running. Idempotent. */
    @Override
    public void close() {
        executor.close();
    }

    private boolean countDownChunk(ChunkPlan.Chunk chunk, int worker) {
        int[] rows = scratch[worker];
        if (rows == null || rows.length < chunk.count) {
            rows = scratch[worker] = new int[Math.max(chunk.count, rows == null ? 0 : rows.length * 2)];
        }
        int n = ops.countdown(chunk.segments[0], chunk.count, dt, dt * TTL.SPENT_SLACK, rows);
        chunk.commands.despawnRows(rows, n);
        return true;
    }


    /** Grows the per-worker scratch table to the executor's slots (the pool's parallelism may change). */
    private void ensureScratch() {
        if (scratch.length < executor.workerSlots()) {
            scratch = Arrays.copyOf(scratch, executor.workerSlots());
        }
    }
}
