package dev.jtecs.bench.jmh;

import static dev.jtecs.bench.particles.Particles.POSITION;
import static dev.jtecs.bench.particles.Particles.VELOCITY;

import com.artemis.ArchetypeBuilder;
import com.artemis.WorldConfigurationBuilder;
import com.badlogic.ashley.core.Engine;
import dev.dominion.ecs.api.Composition;
import dev.dominion.ecs.api.Dominion;
import dev.dominion.ecs.api.Entity;
import dev.jtecs.bench.particles.Particles;
import dev.jtecs.bench.peers.PeerComponents.ArtemisPosition;
import dev.jtecs.bench.peers.PeerComponents.ArtemisVelocity;
import dev.jtecs.bench.peers.PeerComponents.AshleyPosition;
import dev.jtecs.bench.peers.PeerComponents.AshleyVelocity;
import dev.jtecs.bench.peers.PeerComponents.DominionPosition;
import dev.jtecs.bench.peers.PeerComponents.DominionVelocity;
import dev.jtecs.component.Input;
import dev.jtecs.query.Query;
import dev.jtecs.query.QueryDescriptor;
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
 * {@code despawn_batch}: despawn every entity of one archetype, N entities with Position and Velocity, and
 * publish. One operation = that despawn; time is per operation (ns per entity = time / N).
 *
 * <p>The measured engine's world (only that one: see {@link EngineUnderTest}) lives for the whole trial; before
 * each operation, untimed ({@code Level.Invocation}), it gets its N entities back once the last operation emptied
 * it (jtecs through {@code batchSpawn}, so its storage is warm and ids come back from the free list, as in a game
 * that despawns and respawns waves). The world holds only these N entities.
 *
 * <p>Fairness: jtecs is one {@code batchDespawn(query)} at scope depth 0 (one truncation plus freeing each id);
 * the peers, having no despawn-by-composition call, run their delete loop over entity handles they hold.
 * Dominion: {@code deleteEntity} per entity; Artemis-odb: {@code delete} per id, then {@code process} (where
 * the deletions take effect); Ashley: {@code removeEntity} per entity, first created first, then from the last
 * created down. Ashley's entity list is an unordered array searched from the front whose removal moves the last
 * entity into the hole, so plain creation order finds entity k at index k (quadratic: 137 s for N = 1M in a
 * smoke run); this order always finds the entity at the front, as Ashley's own {@code removeAllEntities} does.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector",
    "--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow",
    "-Ddominion.show-banner=false", "-Ddominion.logging-level=WARNING"})
@State(Scope.Thread)
public class DespawnBatchBenchmark {
    @Param({"1024", "16384", "1048576"})
    public int entities;

    private final List<Input> values = List.of(POSITION.of(new Particles.Position(1f, 2f)),
            VELOCITY.of(new Particles.Velocity(3f, 4f)));

    World world;
    private Query moving;

    Dominion dominion;
    private Composition.Of2<DominionPosition, DominionVelocity> dominionComposition;
    private Entity[] dominionEntities;

    com.artemis.World artemis;
    private com.artemis.Archetype artemisArchetype;
    private int[] artemisEntities;

    Engine ashley;
    private com.badlogic.ashley.core.Entity[] ashleyEntities;

    @Setup(Level.Trial)
    public void setUp(BenchmarkParams params) {
        setUp(EngineUnderTest.of(params));
    }

    /** Builds and populates the world of the engine {@code selected} measures ({@link EngineUnderTest}). */
    void setUp(String selected) {
        if (EngineUnderTest.needs(selected, "jtecs")) {
            world = World.create(WorldConfig.defaults().maxEntities(entities + 1));
            moving = world.newQuery(QueryDescriptor.builder().include(POSITION, VELOCITY).build());
            populateJtecs();
        }
        if (EngineUnderTest.needs(selected, "dominion")) {
            dominion = dev.jtecs.bench.peers.DominionWorlds.create();
            dominionComposition = dominion.composition().of(DominionPosition.class, DominionVelocity.class);
            dominionEntities = new Entity[entities];
            populateDominion();
        }
        if (EngineUnderTest.needs(selected, "artemis")) {
            artemis = new com.artemis.World(new WorldConfigurationBuilder().build());
            artemisArchetype = new ArchetypeBuilder().add(ArtemisPosition.class).add(ArtemisVelocity.class)
                    .build(artemis);
            artemisEntities = new int[entities];
            populateArtemis();
        }
        if (EngineUnderTest.needs(selected, "ashley")) {
            ashley = new Engine();
            ashleyEntities = new com.badlogic.ashley.core.Entity[entities];
            populateAshley();
        }
    }

    /** Gives the N entities back to a world the last operation emptied (untimed). */
    @Setup(Level.Invocation)
    public void refill() {
        if (world != null && world.entityCount() == 0) {
            populateJtecs();
        }
        if (dominion != null && dominionEntities[0].isDeleted()) {
            populateDominion();
        }
        if (artemis != null && !artemis.getEntityManager().isActive(artemisEntities[0])) {
            populateArtemis();
        }
        if (ashley != null && ashley.getEntities().size() == 0) {
            populateAshley();
        }
    }

    private void populateJtecs() {
        world.batchSpawn(entities, values);
    }

    private void populateDominion() {
        for (int i = 0; i < entities; i++) {
            dominionEntities[i] = dominion.createPreparedEntity(
                    dominionComposition.withValue(new DominionPosition(1f, 2f), new DominionVelocity(3f, 4f)));
        }
    }

    private void populateArtemis() {
        for (int i = 0; i < entities; i++) {
            artemisEntities[i] = artemis.create(artemisArchetype);
        }
        artemis.process();
    }

    private void populateAshley() {
        for (int i = 0; i < entities; i++) {
            com.badlogic.ashley.core.Entity entity = ashley.createEntity();
            entity.add(new AshleyPosition()).add(new AshleyVelocity());
            ashley.addEntity(entity);
            ashleyEntities[i] = entity;
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
    }

    @Benchmark
    public World jtecs() {
        world.batchDespawn(moving); // scope depth 0: published before it returns
        return world;
    }

    @Benchmark
    public Dominion dominion() {
        for (Entity entity : dominionEntities) {
            dominion.deleteEntity(entity);
        }
        return dominion;
    }

    @Benchmark
    public com.artemis.World artemis() {
        for (int entity : artemisEntities) {
            artemis.delete(entity);
        }
        artemis.process();
        return artemis;
    }

    @Benchmark
    public Engine ashley() {
        com.badlogic.ashley.core.Entity[] entities = ashleyEntities;
        ashley.removeEntity(entities[0]);
        for (int i = entities.length - 1; i > 0; i--) {
            ashley.removeEntity(entities[i]); // the front of Ashley's list since the last removal
        }
        return ashley;
    }
}
