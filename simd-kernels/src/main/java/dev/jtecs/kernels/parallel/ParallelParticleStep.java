package dev.jtecs.kernels.parallel;

import dev.jtecs.builtin.TTL;
import dev.jtecs.component.FloatField;
import dev.jtecs.kernels.KernelColumns;
import dev.jtecs.kernels.LifetimeCountdown;
import dev.jtecs.kernels.MotionKernels;
import dev.jtecs.kernels.ParticleStep;
import dev.jtecs.kernels.ParticleStepOps;
import dev.jtecs.query.Query;
import dev.jtecs.world.World;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.ForkJoinPool;

/**
 * {@link ParticleStep} on several threads: the fused gravity, damping, integration and countdown pass cut into
 * 64-row aligned chunks that the workers claim, with the same bytes, the same dirty marks and the same spent list
 * in the same order for every thread count.
 *
 * <pre>
 *   run(query, dt):  calling thread gathers x, y, vx, vy, remaining (query.forEach), cuts aligned chunks
 *       worker, per chunk:  ParticleStepOps.step over the chunk's slices ──► spent rows ──► the chunk's despawns
 *       calling thread:     markComponentDirty(Position, Velocity, TTL) on every archetype with rows
 *                           merge: chunk 0, 1, 2, ... rows ──► ids  (= ParticleStep's list: archetype, then row)
 *   despawnExpired(world):  the merged ids still alive, one world.despawn(ids, 0, n) in one scope
 * </pre>
 *
 * <p>Chunking, unit batching and failure handling are {@link ParallelKernelRunner}'s and
 * {@link ParallelLifetimeCountdown}'s: a failure in a worker reaches the caller (first by chunk order), every
 * gathered archetype is still marked (other chunks may have written), and the list is left empty.
 *
 * @implNote Each worker keeps one scratch array of a chunk's size for the spent rows. After warm-up a pass
 *     allocates nothing for a fixed layout.
 */
public final class ParallelParticleStep implements AutoCloseable {
    private final ParticleStepOps ops;
    private final KernelColumns columns;
    private final float gravity;
    private final float retainPerSecond;
    private final ChunkExecutor executor;
    private final int minChunkRows;
    private final ChunkPlan plan = new ChunkPlan();
    private final ChunkExecutor.Body body = this::stepChunk;
    private Query checkedQuery;
    private int[][] scratch = new int[0][];
    private final SpentIds spent = new SpentIds();
    private float dv;
    private float factor;
    private float dt;
    private double step;
    private double spentLimit;
    private boolean running;

    /** The step of {@link ParticleStep#ParticleStep} on a borrowed {@code pool} (left running by {@link #close()}). */
    public ParallelParticleStep(ParticleStepOps ops, FloatField x, FloatField y, FloatField vx, FloatField vy,
            float g, float retainPerSecond, ForkJoinPool pool) {
        this(ops, x, y, vx, vy, g, retainPerSecond, pool, ParallelKernelRunner.DEFAULT_MIN_CHUNK_ROWS);
    }

    /**
     * The step on a borrowed {@code pool}, chunks of at least {@code minChunkRows} rows.
     *
     * @throws IllegalArgumentException as {@link ParticleStep#ParticleStep} does, or unless {@code minChunkRows}
     *     is a positive multiple of 64
     */
    public ParallelParticleStep(ParticleStepOps ops, FloatField x, FloatField y, FloatField vx, FloatField vy,
            float g, float retainPerSecond, ForkJoinPool pool, int minChunkRows) {
        this.ops = Objects.requireNonNull(ops, "ops");
        this.columns = ParticleStep.columns(x, y, vx, vy);
        this.gravity = ParticleStep.checkGravity(g);
        this.retainPerSecond = ParticleStep.checkRetain(retainPerSecond);
        this.minChunkRows = ParallelKernelRunner.checkMinChunkRows(minChunkRows);
        this.executor = new ChunkExecutor(pool);
    }

    /**
     * One fused pass over every non-empty archetype of {@code query} on the pool; collects the spent entities,
     * replacing the previous pass's list.
     *
     * @return how many entities expired
     * @throws IllegalArgumentException when the query does not include every column, or {@code dt} is not finite
     * @throws IllegalStateException when called while a pass runs, or after {@link #close()}
     */
    public int run(Query query, double dt) {
        Objects.requireNonNull(query, "query");
        if (!Double.isFinite(dt)) {
            throw new IllegalArgumentException("dt=" + dt + " is not finite");
        }
        if (running) {
            throw new IllegalStateException("the step is already running a pass");
        }
        if (executor.isClosed()) {
            throw new IllegalStateException("the step is closed");
        }
        if (checkedQuery != query) {
            columns.requireIncluded(query, this);
            checkedQuery = query;
        }
        running = true;
        this.dt = (float) dt;
        this.dv = gravity * this.dt;
        this.factor = MotionKernels.dampingFactor(retainPerSecond, this.dt);
        this.step = dt;
        this.spentLimit = dt * TTL.SPENT_SLACK;
        spent.clear(plan); // the previous pass's requests go, even if this one fails
        try {
            plan.gather(query, columns);
            plan.cut(executor.parallelism(), minChunkRows);
            if (scratch.length < executor.workerSlots()) {
                scratch = Arrays.copyOf(scratch, executor.workerSlots());
            }
            try {
                executor.run(plan, body);
            } finally { // a failed pass may have written some chunks already: every gathered archetype is marked
                for (int a = 0; a < plan.archetypeCount(); a++) {
                    for (int c = 0; c < columns.writtenComponentCount(); c++) {
                        plan.archetype(a).markComponentDirty(columns.writtenComponent(c));
                    }
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

    /** How many entities the last {@link #run} collected. */
    public int expiredCount() {
        return spent.count();
    }

    /** The {@code index}-th entity the last {@link #run} collected. */
    public long expired(int index) {
        return spent.get(index);
    }

    /**
     * Despawns the collected entities that are still alive, in one scope (see
     * {@link LifetimeCountdown#despawnAlive}). Clears the list.
     *
     * @return how many despawns it staged
     */
    public int despawnExpired(World world) {
        return spent.despawn(world, plan);
    }

    /** The worker count of the pool. */
    public int parallelism() {
        return executor.parallelism();
    }

    /** Leaves the borrowed pool running; later passes throw. Idempotent. */
    @Override
    public void close() {
        executor.close();
    }

    private boolean stepChunk(ChunkPlan.Chunk chunk, int worker) {
        int[] rows = scratch[worker];
        if (rows == null || rows.length < chunk.count) {
            rows = scratch[worker] = new int[Math.max(chunk.count, rows == null ? 0 : rows.length * 2)];
        }
        var s = chunk.segments;
        int n = ops.step(s[0], s[1], s[2], s[3], s[4], chunk.count, dv, factor, dt, step, spentLimit, rows);
        chunk.commands.despawnRows(rows, n);
        return true;
    }

}
