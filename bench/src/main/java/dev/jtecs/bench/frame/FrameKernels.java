package dev.jtecs.bench.frame;

import dev.jtecs.component.FloatField;
import dev.jtecs.kernels.ColumnKernel;
import dev.jtecs.kernels.KernelRunner;
import dev.jtecs.kernels.LifetimeCountdown;
import dev.jtecs.kernels.ParticleStep;
import dev.jtecs.kernels.parallel.ParallelKernelRunner;
import dev.jtecs.kernels.parallel.ParallelLifetimeCountdown;
import dev.jtecs.kernels.parallel.ParallelParticleStep;
import dev.jtecs.query.Query;
import dev.jtecs.world.World;
import java.util.concurrent.ForkJoinPool;

/**
 * How a job runs its kernels: on the calling thread ({@code --threads 1}: {@link KernelRunner},
 * {@link LifetimeCountdown}) or in chunks on N threads ({@code --threads N}: {@link ParallelKernelRunner},
 * {@link ParallelLifetimeCountdown}, sharing one {@link ForkJoinPool} of N workers; a pass runs on the calling
 * thread and N - 1 of them).
 *
 * <p>Invariant: the thread count changes the time, not the state. The parallel runners give the single-threaded
 * bytes, dirty marks and expired list for every thread count, so the same seed gives the same checksum whatever
 * {@code --threads} says.
 */
public final class FrameKernels implements AutoCloseable {
    /** The most workers a job takes. */
    public static final int MAX_THREADS = 256;

    private final int threads;
    private final KernelChoice choice;
    private final ForkJoinPool pool;
    private final KernelRunner runner;
    private final LifetimeCountdown countdown;
    private final ParallelKernelRunner parallelRunner;
    private final ParallelLifetimeCountdown parallelCountdown;

    /**
     * Kernels of {@code choice} on {@code threads} threads.
     *
     * @throws IllegalArgumentException unless {@code 1 <= threads <= MAX_THREADS}
     * @throws IllegalStateException for {@link KernelChoice#VECTOR} on a JVM without vector kernels
     */
    public FrameKernels(KernelChoice choice, int threads) {
        if (threads < 1 || threads > MAX_THREADS) {
            throw new IllegalArgumentException("threads=" + threads + " outside 1.." + MAX_THREADS);
        }
        this.threads = threads;
        this.choice = choice;
        if (threads == 1) {
            this.pool = null;
            this.runner = new KernelRunner();
            this.countdown = new LifetimeCountdown(choice.lifetimes());
            this.parallelRunner = null;
            this.parallelCountdown = null;
        } else {
            this.pool = new ForkJoinPool(threads);
            this.runner = null;
            this.countdown = null;
            this.parallelRunner = new ParallelKernelRunner(pool);
            this.parallelCountdown = new ParallelLifetimeCountdown(choice.lifetimes(), pool);
        }
    }

    /**
     * The pool the kernels run on, for other work of the frame to share (the extraction's copies), or
     * {@code null} on one thread. Owned by this object: {@link #close()} shuts it down.
     */
    public ForkJoinPool pool() {
        return pool;
    }

    /** The worker count: 1 means everything runs on the calling thread. */
    public int threads() {
        return threads;
    }

    /** Runs {@code kernel} over {@code query}; see {@link KernelRunner#run(Query, ColumnKernel, float)}. */
    public int run(Query query, ColumnKernel kernel, float dt) {
        return runner != null ? runner.run(query, kernel, dt) : parallelRunner.run(query, kernel, dt);
    }

    /** Counts the query's lifetimes down by {@code dt}; see {@link LifetimeCountdown#countDown}. */
    public int countDown(Query query, double dt) {
        return countdown != null ? countdown.countDown(query, dt) : parallelCountdown.countDown(query, dt);
    }

    /** Despawns what the last {@link #countDown} collected; see {@link LifetimeCountdown#despawnExpired}. */
    public int despawnExpired(World world) {
        return countdown != null ? countdown.despawnExpired(world) : parallelCountdown.despawnExpired(world);
    }

    /**
     * The fused particle step ({@link ParticleStep}) of this choice on these threads: on the calling thread for one
     * thread, on the shared pool ({@link ParallelParticleStep}) otherwise. Made once, at setup.
     */
    public Step particleStep(FloatField x, FloatField y, FloatField vx, FloatField vy, float g,
            float retainPerSecond) {
        if (pool == null) {
            ParticleStep step = new ParticleStep(choice.particleSteps(), x, y, vx, vy, g, retainPerSecond);
            return new Step() {
                @Override
                public int run(Query query, double dt) {
                    return step.run(query, dt);
                }

                @Override
                public int despawnExpired(World world) {
                    return step.despawnExpired(world);
                }
            };
        }
        ParallelParticleStep step = new ParallelParticleStep(choice.particleSteps(), x, y, vx, vy, g,
                retainPerSecond, pool);
        return new Step() {
            @Override
            public int run(Query query, double dt) {
                return step.run(query, dt);
            }

            @Override
            public int despawnExpired(World world) {
                return step.despawnExpired(world);
            }
        };
    }

    /** A fused pass and the despawn of what it found spent, on the threads of its {@link FrameKernels}. */
    public interface Step {
        /** One fused pass over {@code query}; returns how many entities it found spent. */
        int run(Query query, double dt);

        /** Despawns what the last {@link #run} found spent, in one scope; returns how many. */
        int despawnExpired(World world);
    }

    @Override
    public void close() {
        if (pool != null) {
            parallelRunner.close();
            parallelCountdown.close();
            pool.shutdown();
        }
    }
}
