package dev.jtecs.bench.jmh;

import static dev.jtecs.bench.particles.Particles.POSITION;
import static dev.jtecs.bench.particles.Particles.VELOCITY;

import dev.jtecs.bench.particles.Particles;
import dev.jtecs.component.Input;
import dev.jtecs.world.World;
import dev.jtecs.world.WorldConfig;
import java.util.Arrays;
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
 * {@code spawn_batch}: create N entities with Position and Velocity set to given values, then commit. One
 * operation = N spawns plus the commit that publishes them.
 *
 * <p>Until {@code batchSpawn} lands this measures the per-entity staged {@code spawn} path (inside one
 * {@code defer} scope) with shared input values, so the caller allocates nothing per entity. The world is reused; the untimed per-invocation teardown despawns
 * everything, so every operation places N rows into warm storage. Baseline: a {@code float[]} fill of the same
 * bytes (four float arrays of N).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector", "--sun-misc-unsafe-memory-access=allow"})
@State(Scope.Thread)
public class SpawnBatchBenchmark {
    @Param({"16384", "1048576"})
    public int entities;

    private World world;
    private long[] ids;
    private float[] x;
    private float[] y;
    private float[] vx;
    private float[] vy;
    private final Input position = POSITION.of(new Particles.Position(1f, 2f));
    private final Input velocity = VELOCITY.of(new Particles.Velocity(3f, 4f));

    @Setup(Level.Trial)
    public void setUp() {
        world = World.create(WorldConfig.defaults().maxEntities(entities + 1));
        ids = new long[entities];
        x = new float[entities];
        y = new float[entities];
        vx = new float[entities];
        vy = new float[entities];
    }

    @TearDown(Level.Invocation)
    public void despawnAll() {
        world.defer();
        for (long id : ids) {
            if (id != 0) {
                world.despawn(id);
            }
        }
        world.commit();
        Arrays.fill(ids, 0L);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        world.close();
    }

    @Benchmark
    public World jtecsSpawn() {
        world.defer();
        for (int i = 0; i < entities; i++) {
            ids[i] = world.spawn(position, velocity);
        }
        world.commit();
        return world;
    }

    @Benchmark
    public float[] plainArrayFill() {
        Arrays.fill(x, 1f);
        Arrays.fill(y, 2f);
        Arrays.fill(vx, 3f);
        Arrays.fill(vy, 4f);
        return vy;
    }
}
