package dev.jtecs.bench.jmh;

import static dev.jtecs.bench.particles.Particles.POSITION;
import static dev.jtecs.bench.particles.Particles.VELOCITY;
import static dev.jtecs.bench.particles.Particles.VX;
import static dev.jtecs.bench.particles.Particles.VY;
import static dev.jtecs.bench.particles.Particles.X;
import static dev.jtecs.bench.particles.Particles.Y;

import com.artemis.ComponentMapper;
import com.artemis.WorldConfigurationBuilder;
import com.badlogic.ashley.core.Engine;
import dev.dominion.ecs.api.Dominion;
import dev.jtecs.bench.particles.Particles;
import dev.jtecs.bench.peers.PeerComponents.ArtemisPosition;
import dev.jtecs.bench.peers.PeerComponents.ArtemisVelocity;
import dev.jtecs.bench.peers.PeerComponents.AshleyPosition;
import dev.jtecs.bench.peers.PeerComponents.AshleyVelocity;
import dev.jtecs.bench.peers.PeerComponents.DominionPosition;
import dev.jtecs.bench.peers.PeerComponents.DominionVelocity;
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
 * {@code spawn_single}: N entities created one call at a time with Position (i, -i) and Velocity (1, 2), then
 * one commit. One operation = N creations into an empty world, so every engine pays its own growth inside the
 * measurement (except Dominion: see below); time is per operation (ns per entity = time / N).
 *
 * <p>jtecs, on both of its paths: {@code jtecs} is the staged path, N {@code spawn} calls inside one
 * {@code defer} scope closed by {@code commit} (each input a record wrapped by {@code of}, as the guides
 * write it; the world stages such spawns compactly, their values as bits and no record kept: see
 * {@code docs/world.md}, "The short forms"); {@code jtecsInstant} ({@code jtecs-instant}) is the instant path,
 * the same calls outside any scope, each published before it returns. Both get a fresh world, created untimed before each operation
 * ({@code Level.Invocation}).
 *
 * <p>Goal (issue 19): {@code jtecs} at most 0.5x the fastest Java peer at both sizes, with 0 B per entity
 * ({@code gc.alloc.rate.norm} / N) on a typed spawn path a user reaches naturally; cost flat in N (1M per entity
 * within 1.3x of 16K per entity). That typed path is {@link #jtecsTyped}
 * ({@code jtecs-typed}): a {@code SpawnQueue} whose {@code set} calls write each entity's values into its staged
 * row; {@link #jtecs} stays the record-wrapping call so the two show side by side.
 * Every operation here spawns into a new world, so it also pays that world's growth (for jtecs its staged rows,
 * which grow by chunks, and its entity index, which the commit grows once for the run of fresh slots; the queue's
 * id buffer stays untouched while the ids run on); {@link SpawnReusedWorldBenchmark} spawns into a world
 * emptied before each operation, beside Artemis-odb's emptied the same way, and shows what a spawn itself
 * allocates. Where the typed path's time goes (16,384 entities, a harness pinned to one core, best of the last
 * 1,500 of 3,000 rounds, 6 December 2026): 19.5 to 20.5 ns per entity into a new world, 15.1 to 15.3 into one world
 * emptied and used again; without the four {@code set} calls, 15.4 to 16.1 and 11.9 to 12.1. So each {@code set}
 * costs about a nanosecond, and a new world adds about 4 ns per entity, most of it the growth of its heap arrays
 * (the entity index, the staged rows and the id buffer: a quarter of a profile's samples). Until that day the
 * queue found each field's column by probing a cache of the fields set before, which cost more than all the rest
 * of the {@code set} calls: in one JMH run (two forks each) this method took 33.9 &plusmn; 8.1 ns per entity with it
 * and 21.4 &plusmn; 1.3 with the lookup by component id that replaced it. On 7 December 2026 the index stopped
 * growing per spawn and the staged rows stopped copying as they grew (docs/bulk.md, "Spawn queues"): in the same
 * harness 21.6 to 22.6 ns per entity into a new world went to 18.3 to 18.5, then 16.9 to 17.6 to 15.8 to 16.6.
 * Later that day a spawn that joins its open batch inside a scope, with no {@code OnSpawn} observer, stopped opening
 * a scope of its own: in a loop pinned to one core (medians over 14 seconds, three alternating pairs), 17.4, 16.3 and
 * 16.4 ns per entity went to 16.6, 15.9 and 15.9.
 *
 * <p>This method's forks settle at one of two speeds, about 16 and about 23 ns per entity at 16,384, and switch
 * between them at iteration boundaries in both directions (7 December 2026, one run of six forks each: 16.3 to 17.5
 * in four forks, 22.8 and 23.5 in two, while Artemis-odb's stayed within 36 to 38; in a run of ten forks each, 16.2
 * to 17.9 in eight and 23.4 and 26.0 in two, and two of Artemis-odb's were slow as well, 45.7 and 46.2 against 35.8
 * to 36.9, so its forks have a slow speed too, a quarter above its fast one). A plain loop of the operation
 * outside JMH switches the same way, for seconds at a time. What the slow seconds are not: collection time (3 to 5 ms
 * a second at either speed), page faults (none per operation at either), memory bandwidth (a thread streaming 64 MiB
 * beside the loop left it at 16), another thread of the process (only the loop's thread used a CPU). The slow speed
 * did not appear in six forks pinned to one CPU ({@code taskset -c 0}, Artemis-odb's forks pinned the same: 16.2
 * &plusmn; 0.1 against 36.9 &plusmn; 0.5 and 37.0 &plusmn; 0.4, two runs), nor in 150 seconds of a loop that runs this
 * operation and Artemis-odb's alternately in one process (0.45 to 0.48 times Artemis-odb in every second); yet a
 * loop pinned the same way later ran at about 22 ns per entity for most of 20 seconds. The slow seconds are the
 * machine's: a probe that the loop ran once a second (two million dependent loads over a 16 MiB
 * array allocated once, which the engine never touches) took 317 ms on average in the loop's 36 slow seconds and 257
 * in its 50 fast ones, and the slowest five seconds of the loop had probes of 318 to 328 ms, the fastest five 230 to
 * 261; the correlation over the 86 seconds was 0.73 (7 December 2026, a run of two minutes). An arithmetic probe
 * beside it kept its time. So memory that does not
 * move becomes about a quarter slower to reach at times, for seconds, whatever runs; not the compiler either (no
 * compilation at the switches, {@code -XX:+PrintCompilation}), nor the heap's size (the same throughout), nor where
 * the columns lie (the same low address bits in slow and fast seconds). A run whose forks land in different such
 * periods shows it in the forks' means, for each engine. Later that day, ten forks each: this method's first four
 * forks took 21.2 to 25.6 ns per entity and its last six 16.6 to 17.5, Artemis-odb's ten 35.0 to 37.9; 0.55
 * &plusmn; 0.08 times Artemis-odb over the run, 0.47 over the fast forks alone (at a million, 0.048 &plusmn; 0.011).
 * Later still that day, after the transaction began to keep its last batch operation in a field (about 2% in a
 * pinned loop), ten forks each again: this method 318.8 &plusmn; 31.6 &micro;s an operation (forks 16.0 to 23.0 ns
 * per entity), Artemis-odb 716.7 &plusmn; 73.8 (38.4 to 65.8 ns per entity, every fork slower than in the run
 * before): 0.44 &plusmn; 0.06 times. Most of that fall is Artemis-odb's slower forks, not this method's speed.
 * Later still, after the spawn queue's confinement check became one field it shares with the world (about 3% in a
 * pinned loop), six forks each on a quieter stretch: this method 312.5 &plusmn; 8.0 &micro;s (forks 18.7 to 20.4 ns
 * per entity), Artemis-odb 706.5 &plusmn; 19.9 (42.0 to 44.6 ns in every fork): 0.44 &plusmn; 0.02 times; at a
 * million, 23.0 ns per entity, 1.20 times the 16,384 figure. Artemis-odb's forks all ran above the 35 to 38 ns of
 * its fast forks in earlier runs; against those, this method's time would be 0.50 to 0.55 times. The same day,
 * later, six forks each again: this method 286.4 &plusmn; 14.6 &micro;s (forks 16.4 to 19.3 ns per entity),
 * Artemis-odb 717.9 &plusmn; 31.0 (41.7 to 48.0 ns): 0.40 &plusmn; 0.03 times, Artemis-odb's forks once more all
 * above its earlier fast speed; against 36 ns, this method's mean would be 0.49 times.
 *
 * <p>Fairness: every engine builds per-entity values its own idiomatic way (jtecs: a record per component wrapped
 * in an input; Dominion: a record per component; Artemis-odb: components created by mappers and filled in place;
 * Ashley: component instances per entity) and publishes the entities by its own barrier (jtecs {@code commit},
 * Artemis {@code process}; Dominion and Ashley apply at once). Only the measured engine's world is created
 * ({@link EngineUnderTest}). Dominion keeps one world for the whole trial, emptied untimed before each operation
 * by {@code deleteEntity} of everything it holds: each {@code Dominion.create()} takes a slot of a static,
 * 1,024-entry logging registry that {@code close()} never frees, so a world per operation fails after about a
 * thousand operations in one fork ({@code ArrayIndexOutOfBoundsException: Index 1024}). Its storage is then
 * warm (chunks allocated, ids recycled), which favours Dominion over the engines that start empty. A new jtecs
 * world takes the memory of the large column buffers that the worlds closed before it left in the process's pool
 * (the forks enable native access, as {@code ./jtecs} does; see {@code docs/storage.md}) rather than pages fresh
 * from the system, much as the on-heap peers allocate from a Java heap that is already mapped; its entity index and
 * staged rows still start empty.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector",
    "--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow",
    "-Ddominion.show-banner=false", "-Ddominion.logging-level=WARNING"})
@State(Scope.Thread)
public class SpawnSingleBenchmark {
    @Param({"16384", "1048576"})
    public int entities;

    World world;
    SpawnQueue queue;
    Dominion dominion;
    private final DominionReuse dominionReuse = new DominionReuse();
    com.artemis.World artemis;
    private ComponentMapper<ArtemisPosition> artemisPositions;
    private ComponentMapper<ArtemisVelocity> artemisVelocities;
    Engine ashley;

    @Setup(Level.Invocation)
    public void setUp(BenchmarkParams params) {
        setUp(EngineUnderTest.of(params));
    }

    /**
     * Gives the engine {@code selected} measures ({@link EngineUnderTest}) an empty world: a new one, except
     * Dominion's, which is created once and emptied.
     */
    void setUp(String selected) {
        if (EngineUnderTest.needs(selected, "jtecs")) {
            world = World.create(WorldConfig.defaults().maxEntities(entities + 1));
            queue = world.spawnQueue(List.of(POSITION, VELOCITY));
        }
        if (EngineUnderTest.needs(selected, "dominion")) {
            dominion = dominionReuse.empty();
        }
        if (EngineUnderTest.needs(selected, "artemis")) {
            artemis = new com.artemis.World(new WorldConfigurationBuilder().build());
            artemisPositions = artemis.getMapper(ArtemisPosition.class);
            artemisVelocities = artemis.getMapper(ArtemisVelocity.class);
        }
        if (EngineUnderTest.needs(selected, "ashley")) {
            ashley = new Engine();
        }
    }

    @TearDown(Level.Invocation)
    public void tearDown() {
        if (world != null) {
            world.close();
            world = null;
        }
        if (artemis != null) {
            artemis.dispose();
            artemis = null;
        }
        ashley = null; // holds no resources: dropping it is cheaper than removeAllEntities
    }

    /** Closes Dominion's trial-long world. */
    @TearDown(Level.Trial)
    public void closeTrial() {
        dominionReuse.close();
        dominion = null;
    }

    /** jtecs, staged: per-entity {@code spawn} with two inputs in one {@code defer} scope, then {@code commit}. */
    @Benchmark
    public World jtecs() {
        world.defer();
        for (int i = 0; i < entities; i++) {
            world.spawn(POSITION.of(new Particles.Position(i, -i)), VELOCITY.of(new Particles.Velocity(1, 2)));
        }
        world.commit();
        return world;
    }

    /**
     * jtecs, typed: the same N entities through a {@code SpawnQueue} (made once per world, untimed), each spawn's
     * four floats written straight into its staged row, in one {@code defer} scope closed by {@code commit}: no
     * record and no input per entity.
     */
    @Benchmark
    public World jtecsTyped() {
        return spawnTyped(world, queue, entities);
    }

    /** {@link #jtecsTyped}'s operation, which {@link SpawnReusedWorldBenchmark} runs too. */
    static World spawnTyped(World world, SpawnQueue queue, int entities) {
        world.defer();
        for (int i = 0; i < entities; i++) {
            queue.spawn();
            queue.set(X, i).set(Y, -i).set(VX, 1).set(VY, 2);
        }
        world.commit();
        return world;
    }

    /** jtecs, instant: the same calls outside any scope, each entity published before its call returns. */
    @Benchmark
    public World jtecsInstant() {
        for (int i = 0; i < entities; i++) {
            world.spawn(POSITION.of(new Particles.Position(i, -i)), VELOCITY.of(new Particles.Velocity(1, 2)));
        }
        return world;
    }

    /** Fairness: Dominion's one-call creation with the component objects, applied at once, into its warm world. */
    @Benchmark
    public Dominion dominion() {
        for (int i = 0; i < entities; i++) {
            dominion.createEntity(new DominionPosition(i, -i), new DominionVelocity(1, 2));
        }
        return dominion;
    }

    /** Fairness: Artemis-odb's {@code create} plus mapper {@code create}s filled in place, then {@code process}. */
    @Benchmark
    public com.artemis.World artemis() {
        return spawnArtemis(artemis, artemisPositions, artemisVelocities, entities);
    }

    /** {@link #artemis}'s operation, which {@link SpawnReusedWorldBenchmark} runs too. */
    static com.artemis.World spawnArtemis(com.artemis.World artemis, ComponentMapper<ArtemisPosition> positions,
            ComponentMapper<ArtemisVelocity> velocities, int entities) {
        for (int i = 0; i < entities; i++) {
            int entity = artemis.create();
            ArtemisPosition position = positions.create(entity);
            position.x = i;
            position.y = -i;
            ArtemisVelocity velocity = velocities.create(entity);
            velocity.x = 1;
            velocity.y = 2;
        }
        artemis.process();
        return artemis;
    }

    /** Fairness: Ashley's {@code createEntity}, two {@code add}s of fresh components, {@code addEntity}. */
    @Benchmark
    public Engine ashley() {
        for (int i = 0; i < entities; i++) {
            com.badlogic.ashley.core.Entity entity = ashley.createEntity();
            AshleyPosition position = new AshleyPosition();
            position.x = i;
            position.y = -i;
            AshleyVelocity velocity = new AshleyVelocity();
            velocity.x = 1;
            velocity.y = 2;
            entity.add(position);
            entity.add(velocity);
            ashley.addEntity(entity);
        }
        return ashley;
    }
}
