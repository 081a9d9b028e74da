package dev.jtecs.bench.jmh;

import static dev.jtecs.bench.particles.Particles.POSITION;
import static dev.jtecs.bench.particles.Particles.VELOCITY;

import com.artemis.ComponentMapper;
import com.artemis.WorldConfiguration;
import com.artemis.WorldConfigurationBuilder;
import dev.jtecs.bench.peers.PeerComponents.ArtemisPosition;
import dev.jtecs.bench.peers.PeerComponents.ArtemisVelocity;
import dev.jtecs.mutation.SpawnQueue;
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
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * {@code spawn_single} into a new world that was told how many entities to expect: the same N creations as
 * {@link SpawnSingleBenchmark} (Position (i, -i), Velocity (1, 2), one commit), in a world made before each
 * operation (untimed) and sized up front by each engine's own call, as a game does before it spawns a level.
 * {@link SpawnSingleBenchmark} lets every engine grow while it spawns, and {@link SpawnReusedWorldBenchmark} reuses
 * storage the operations before grew; this one sits between them: storage no operation grew, reserved.
 *
 * <p>{@code jtecsTyped}: {@code queue.reserve(N)} on a new world's {@code SpawnQueue} (its entity index, staged
 * rows and id buffer made at their final size), then the queue's spawns writing their staged rows, one
 * {@code defer} scope, {@code commit}. {@code artemis}: a world built with
 * {@code WorldConfiguration.expectedEntityCount(N)} (Artemis-odb sizes its entity and component storage from it),
 * then its {@code create} plus mapper {@code create}s filled in place, and {@code process}. Run under plain JMH only
 * (the suite's {@code spawn_single} row is the growing new-world figure).
 *
 * <p>Goal (issue 19's {@code spawn_single} goal, read with both engines reserved): jtecs at most 0.5x Artemis-odb
 * at both sizes, with 0 B per entity ({@code gc.alloc.rate.norm} / N).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector",
    "--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow"})
@State(Scope.Thread)
public class SpawnReservedBenchmark {
    @Param({"16384", "1048576"})
    public int entities;

    World world;
    private SpawnQueue queue;
    com.artemis.World artemis;
    private ComponentMapper<ArtemisPosition> artemisPositions;
    private ComponentMapper<ArtemisVelocity> artemisVelocities;

    @Setup(Level.Invocation)
    public void createWorlds(BenchmarkParams params) {
        createWorlds(EngineUnderTest.of(params));
    }

    /** Makes a new, reserved world for the engine {@code selected} measures ({@link EngineUnderTest}), and only it. */
    void createWorlds(String selected) {
        if (EngineUnderTest.needs(selected, "jtecs")) {
            world = World.create(WorldConfig.defaults().maxEntities(entities + 1));
            queue = world.spawnQueue(List.of(POSITION, VELOCITY)).reserve(entities);
        }
        if (EngineUnderTest.needs(selected, "artemis")) {
            WorldConfiguration config = new WorldConfigurationBuilder().build();
            config.expectedEntityCount(entities);
            artemis = new com.artemis.World(config);
            artemisPositions = artemis.getMapper(ArtemisPosition.class);
            artemisVelocities = artemis.getMapper(ArtemisVelocity.class);
        }
    }

    @TearDown(Level.Invocation)
    public void closeWorlds() {
        if (world != null) {
            world.close();
            world = null;
        }
        if (artemis != null) {
            artemis.dispose();
            artemis = null;
        }
    }

    /** jtecs, typed, reserved: N queue spawns writing their staged rows, one {@code defer} scope, {@code commit}. */
    @Benchmark
    public World jtecsTyped() {
        return SpawnSingleBenchmark.spawnTyped(world, queue, entities);
    }

    /** Fairness: Artemis-odb's {@code create} plus mapper {@code create}s filled in place, then {@code process}. */
    @Benchmark
    public com.artemis.World artemis() {
        return SpawnSingleBenchmark.spawnArtemis(artemis, artemisPositions, artemisVelocities, entities);
    }
}
