package dev.jtecs.bench.jmh;

import static dev.jtecs.bench.particles.Particles.POSITION;
import static dev.jtecs.bench.particles.Particles.VELOCITY;

import com.artemis.ComponentMapper;
import com.artemis.WorldConfigurationBuilder;
import com.badlogic.ashley.core.Engine;
import dev.dominion.ecs.api.Dominion;
import dev.dominion.ecs.api.Entity;
import dev.jtecs.bench.particles.Particles;
import dev.jtecs.bench.peers.PeerComponents.ArtemisVelocity;
import dev.jtecs.bench.peers.PeerComponents.AshleyVelocity;
import dev.jtecs.bench.peers.PeerComponents.DominionVelocity;
import dev.jtecs.query.Query;
import dev.jtecs.query.QueryDescriptor;
import dev.jtecs.world.World;
import dev.jtecs.world.WorldConfig;
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
 * {@code set_new}: add Velocity, a two-float data component, to each of N entities that have only Position, one
 * call per entity, in one scope, then commit: every entity moves to the Position+Velocity table, its Position
 * copied and its new Velocity ({@code vx0(i)}, {@code vy0(i)}, per entity) written. One operation = the N adds
 * and their publication; time is per operation (ns per entity = time / N).
 *
 * <p>State: before each operation, untimed ({@code @Setup(Level.Invocation)}), the Velocity the last operation
 * added is taken off again (jtecs: one {@code batchRemove} over the Position+Velocity table, which hands the
 * whole table back at once; the peers: their per-entity removal), so every operation starts from N Position-only
 * entities in creation order and does the same work. The fixture costs two timer reads per operation, small
 * beside the shortest operation here (N = 16K: a millisecond or so); {@code -prof gc} counts its allocations in
 * {@code gc.alloc.rate.norm} too.
 *
 * <p>jtecs, on both of its paths: {@code jtecs} is {@code world.set(id, VELOCITY.of(new Velocity(..)))} per entity
 * inside one {@code defer} scope closed by {@code commit}; {@code jtecsInstant} ({@code jtecs-instant}) makes the
 * same calls outside any scope, each move published before its call returns.
 *
 * <p>Goal (ours: issue 19 asks for one per new workload in the spirit of its own): both jtecs paths at most 1.0x
 * the fastest Java peer at both sizes (the issue's {@code add_remove_tag} goal, for a move that also carries two
 * columns of data), cost flat in N (1M per entity within 1.3x of 16K per entity), and no allocation per entity
 * beyond the value the call is handed (0 B where escape analysis removes it).
 *
 * <p>Where the goal stands (one JMH run of build {@code 08b3aad}, two forks, 7 December 2026; ratios to
 * Artemis-odb, 16K and 1M): 0 B per entity on both paths and flat (1.09 and 1.02) as set; the time missed: staged
 * 1.19 &plusmn; 0.06 and 1.13 &plusmn; 0.11, instant 2.93 &plusmn; 0.12 and 2.57 &plusmn; 0.24. The instant path moves
 * the row and publishes it before the call returns, where Artemis-odb gathers the changes and applies them together
 * in {@code process}. Taken apart in an experiment on a harness pinned to one core (16K entities, an instant tag
 * round trip: two moves, 89 ns), the bookkeeping around the two moves measured about 16 ns and the copy of the
 * columns the archetypes share about 20: no single part large enough to close the distance.
 *
 * <p>Fairness: each engine uses its own per-entity add and barrier. Dominion: {@code Entity.add} of a new
 * component object, applied at once; Artemis-odb: mapper {@code create} filled in place, published by
 * {@code process}; Ashley: {@code Entity.add} of a new component instance, immediate. Peers store one object per
 * component, so each entity gets its own. Only the measured engine's world is built ({@link EngineUnderTest}); the
 * population is {@link EntityPopulations}'s.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector",
    "--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow",
    "-Ddominion.show-banner=false", "-Ddominion.logging-level=WARNING"})
@State(Scope.Thread)
public class SetNewBenchmark {
    @Param({"16384", "1048576"})
    public int entities;

    World world;
    long[] ids;
    private Query moving;
    Dominion dominion;
    Entity[] dominionEntities;
    com.artemis.World artemis;
    ComponentMapper<ArtemisVelocity> artemisVelocities;
    int[] artemisEntities;
    Engine ashley;
    com.badlogic.ashley.core.Entity[] ashleyEntities;

    @Setup(Level.Trial)
    public void setUp(BenchmarkParams params) {
        setUp(EngineUnderTest.of(params));
    }

    /** Builds N Position-only entities in the engine {@code selected} measures ({@link EngineUnderTest}). */
    void setUp(String selected) {
        if (EngineUnderTest.needs(selected, "jtecs")) {
            world = World.create(WorldConfig.defaults().maxEntities(entities + 1));
            moving = world.newQuery(QueryDescriptor.builder().include(POSITION, VELOCITY).build());
            ids = EntityPopulations.jtecs(world, entities, false);
        }
        if (EngineUnderTest.needs(selected, "dominion")) {
            dominion = dev.jtecs.bench.peers.DominionWorlds.create();
            dominionEntities = EntityPopulations.dominion(dominion, entities, false);
        }
        if (EngineUnderTest.needs(selected, "artemis")) {
            artemis = new com.artemis.World(new WorldConfigurationBuilder().build());
            artemisVelocities = artemis.getMapper(ArtemisVelocity.class);
            artemisEntities = EntityPopulations.artemis(artemis, entities, false);
        }
        if (EngineUnderTest.needs(selected, "ashley")) {
            ashley = new Engine();
            ashleyEntities = EntityPopulations.ashley(ashley, entities, false);
        }
    }

    /** Takes off the Velocity the last operation added, in whichever engine it ran (untimed). */
    @Setup(Level.Invocation)
    public void restore() {
        if (world != null && world.has(ids[0], VELOCITY)) {
            world.batchRemove(moving, VELOCITY); // scope depth 0: published before it returns
        }
        if (dominion != null && dominionEntities[0].has(DominionVelocity.class)) {
            for (Entity entity : dominionEntities) {
                entity.removeType(DominionVelocity.class);
            }
        }
        if (artemis != null && artemisVelocities.has(artemisEntities[0])) {
            for (int entity : artemisEntities) {
                artemisVelocities.remove(entity);
            }
            artemis.process();
        }
        if (ashley != null && ashleyEntities[0].getComponent(AshleyVelocity.class) != null) {
            for (com.badlogic.ashley.core.Entity entity : ashleyEntities) {
                entity.remove(AshleyVelocity.class);
            }
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        if (world != null) {
            world.close();
        }
        if (dominion != null) {
            dominion.close();
        }
        if (artemis != null) {
            artemis.dispose();
        }
        if (ashley != null) {
            ashley.removeAllEntities();
        }
    }

    /** jtecs, staged: per-entity {@code set} of a new Velocity in one {@code defer} scope, then {@code commit}. */
    @Benchmark
    public World jtecs() {
        long[] ids = this.ids;
        world.defer();
        for (int i = 0; i < ids.length; i++) {
            world.set(ids[i], VELOCITY.of(new Particles.Velocity(PeerWorlds.vx0(i), PeerWorlds.vy0(i))));
        }
        world.commit();
        return world;
    }

    /** jtecs, instant: the same calls outside any scope; each moves its entity before it returns. */
    @Benchmark
    public World jtecsInstant() {
        long[] ids = this.ids;
        for (int i = 0; i < ids.length; i++) {
            world.set(ids[i], VELOCITY.of(new Particles.Velocity(PeerWorlds.vx0(i), PeerWorlds.vy0(i))));
        }
        return world;
    }

    /** Fairness: Dominion's {@code Entity.add} of a new component object, applied at once. */
    @Benchmark
    public Dominion dominion() {
        Entity[] entities = dominionEntities;
        for (int i = 0; i < entities.length; i++) {
            entities[i].add(new DominionVelocity(PeerWorlds.vx0(i), PeerWorlds.vy0(i)));
        }
        return dominion;
    }

    /** Fairness: Artemis-odb's mapper {@code create} filled in place, then {@code process} (its barrier). */
    @Benchmark
    public com.artemis.World artemis() {
        int[] entities = artemisEntities;
        for (int i = 0; i < entities.length; i++) {
            ArtemisVelocity v = artemisVelocities.create(entities[i]);
            v.x = PeerWorlds.vx0(i);
            v.y = PeerWorlds.vy0(i);
        }
        artemis.process();
        return artemis;
    }

    /** Fairness: Ashley's {@code Entity.add} of a new component instance, immediate. */
    @Benchmark
    public Engine ashley() {
        com.badlogic.ashley.core.Entity[] entities = ashleyEntities;
        for (int i = 0; i < entities.length; i++) {
            entities[i].add(EntityPopulations.ashleyVelocity(i));
        }
        return ashley;
    }
}
