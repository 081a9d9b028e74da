package dev.jtecs.bench.jmh;

import static dev.jtecs.bench.particles.Particles.POSITION;
import static dev.jtecs.bench.particles.Particles.VELOCITY;
import static dev.jtecs.bench.particles.Particles.VX;
import static dev.jtecs.bench.particles.Particles.VY;
import static dev.jtecs.bench.particles.Particles.X;
import static dev.jtecs.bench.particles.Particles.Y;

import dev.jtecs.kernels.ColumnKernel;
import dev.jtecs.kernels.KernelRunner;
import dev.jtecs.kernels.MotionKernels;
import dev.jtecs.kernels.parallel.ParallelKernelRunner;
import dev.jtecs.kernels.vector.VectorParticleOps;
import dev.jtecs.query.Query;
import dev.jtecs.query.QueryDescriptor;
import dev.jtecs.storage.FloatColumn;
import dev.jtecs.world.World;
import dev.jtecs.world.WorldConfig;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * {@code integrate} on more cores: {@code pos += vel * dt} over N entities of one archetype, one operation = one
 * pass over every entity. {@code threads = 1} is the single-threaded {@link KernelRunner} on the calling thread
 * (the reference); {@code threads > 1} is {@link ParallelKernelRunner} with that many pool workers. The speedup
 * is the ratio of the two rows of one run. The runner owns its pool; the calling (JMH) thread only waits while the
 * workers run, so {@code threads} is the number of cores doing the work.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector",
    "--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow"})
@State(Scope.Thread)
public class ParallelIntegrateBenchmark {
    static final float DT = 1f / 60f;

    @Param({"4194304"})
    public int entities;

    @Param({"1", "2"})
    public int threads;

    World world;
    Query movers;
    private ColumnKernel integrate;
    private KernelRunner single; // threads == 1
    private ParallelKernelRunner parallel; // threads > 1

    @Setup(Level.Trial)
    public void setUp() {
        world = World.create(WorldConfig.defaults().maxEntities(entities + 1));
        world.batchSpawn(entities, List.of(POSITION, VELOCITY), (archetype, from, to) -> {
            FloatColumn x = archetype.getMut(X);
            FloatColumn y = archetype.getMut(Y);
            FloatColumn vx = archetype.getMut(VX);
            FloatColumn vy = archetype.getMut(VY);
            for (int row = from; row < to; row++) { // one empty archetype: row r is the r-th entity
                x.set(row, row);
                y.set(row, -row);
                vx.set(row, 1 + (row & 7));
                vy.set(row, 2 - (row & 3));
            }
        });
        world.commit();
        movers = world.newQuery(QueryDescriptor.builder().include(POSITION, VELOCITY).build());
        integrate = MotionKernels.integrate2d(X, Y, VX, VY);
        if (threads == 1) {
            single = new KernelRunner();
        } else {
            parallel = new ParallelKernelRunner(threads);
        }
        VectorParticleOps.warmUp();
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        if (parallel != null) {
            parallel.close();
        }
        world.close();
    }

    @Benchmark
    public int jtecs() {
        return parallel != null ? parallel.run(movers, integrate, DT) : single.run(movers, integrate, DT);
    }
}
