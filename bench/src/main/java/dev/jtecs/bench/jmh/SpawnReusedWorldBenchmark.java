package dev.jtecs.bench.jmh;

import static dev.jtecs.bench.particles.Particles.POSITION;
import static dev.jtecs.bench.particles.Particles.VELOCITY;

import com.artemis.Aspect;
import com.artemis.ComponentMapper;
import com.artemis.WorldConfigurationBuilder;
import com.artemis.utils.IntBag;
import dev.jtecs.bench.peers.PeerComponents.ArtemisPosition;
import dev.jtecs.bench.peers.PeerComponents.ArtemisVelocity;
import dev.jtecs.mutation.SpawnQueue;
import dev.jtecs.world.World;
import dev.jtecs.world.WorldConfig;
import java.util.Arrays;
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
 * {@code spawn_single} into a world that held N entities before: the same N creations as
 * {@link SpawnSingleBenchmark} (Position (i, -i), Velocity (1, 2), one commit), but into one world per trial that is
 * emptied, untimed, before every operation, as a game respawns into the world it runs. The storage each engine grew
 * in the operations before is still there, so this measures a spawn itself: its time, and (under {@code -prof gc})
 * what it allocates, which for jtecs's typed path is nothing per entity. {@link SpawnSingleBenchmark} spawns into a
 * new world per operation and so also pays each engine's growth: for jtecs, its entity index, staged rows and id
 * buffer, heap arrays that double (about 100 B per entity allocated in all, none of it per-entity garbage). At 16K,
 * a world used round after round also keeps the round's data in the core's cache, which two worlds used in turn do
 * not: {@link SpawnSingleBenchmark}'s doc has the figures.
 *
 * <p>{@code jtecsTyped}: a {@code SpawnQueue} (made once per trial) whose {@code set} calls write each entity's
 * four floats into its staged row, in one {@code defer} scope closed by {@code commit}; the world is emptied by
 * {@code clearEntities}. {@code artemis}: Artemis-odb's {@code create} plus mapper {@code create}s filled in place,
 * then {@code process}; its world is emptied by {@code delete} of every entity and {@code process}, which frees
 * the ids for reuse. Run under plain JMH only (the suite's {@code spawn_single} row is the new-world figure).
 *
 * <p>Goal (issue 19): jtecs at most 0.5x Artemis-odb at both sizes, with 0 B per entity
 * ({@code gc.alloc.rate.norm} / N).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector",
    "--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow"})
@State(Scope.Thread)
public class SpawnReusedWorldBenchmark {
    @Param({"16384", "1048576"})
    public int entities;

    World world;
    private SpawnQueue queue;
    com.artemis.World artemis;
    private ComponentMapper<ArtemisPosition> artemisPositions;
    private ComponentMapper<ArtemisVelocity> artemisVelocities;

    @Setup(Level.Trial)
    public void createWorlds(BenchmarkParams params) {
        createWorlds(EngineUnderTest.of(params));
    }

    /**
     * Makes the world of the engine {@code selected} measures ({@link EngineUnderTest}) once per trial: only that
     * one, so an idle peer's million entities burden no one's collections.
     */
    void createWorlds(String selected) {
        if (EngineUnderTest.needs(selected, "jtecs")) {
            world = World.create(WorldConfig.defaults().maxEntities(entities + 1));
            queue = world.spawnQueue(List.of(POSITION, VELOCITY));
        }
        if (EngineUnderTest.needs(selected, "artemis")) {
            artemis = new com.artemis.World(new WorldConfigurationBuilder().build());
            artemisPositions = artemis.getMapper(ArtemisPosition.class);
            artemisVelocities = artemis.getMapper(ArtemisVelocity.class);
        }
    }

    /** Empties the world, untimed, with its engine's own calls. */
    @Setup(Level.Invocation)
    public void empty() {
        if (world != null) {
            world.clearEntities();
        }
        if (artemis != null) {
            IntBag all = artemis.getAspectSubscriptionManager().get(Aspect.all()).getEntities();
            int[] held = Arrays.copyOf(all.getData(), all.size()); // the bag changes as they go
            for (int entity : held) {
                artemis.delete(entity);
            }
            artemis.process();
        }
    }

    @TearDown(Level.Trial)
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

    /** jtecs, typed: N queue spawns writing their staged rows, one {@code defer} scope, {@code commit}. */
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
