package dev.jtecs.bench.jmh;

import static dev.jtecs.bench.particles.Particles.POSITION;
import static dev.jtecs.bench.particles.Particles.VELOCITY;

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
 * {@code spawn_single}: N entities created one call at a time with Position and Velocity set to per-entity
 * values, then one commit. One operation = N creations into a fresh, empty world (created untimed before each
 * operation, so every engine pays its own growth inside the measurement).
 *
 * <p>Fairness: every engine builds per-entity values its own idiomatic way (jtecs: a record per component wrapped
 * in an input; Dominion: a record per component; Artemis-odb: components created by mappers and filled in place;
 * Ashley: component instances per entity) and publishes the entities by its own barrier (jtecs {@code commit},
 * Artemis {@code process}; Dominion and Ashley apply at once). Only the measured engine's world is created
 * ({@link EngineUnderTest}); time is per operation (ns per entity = time / N).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector", "--sun-misc-unsafe-memory-access=allow",
    "-Ddominion.show-banner=false", "-Ddominion.logging-level=WARNING"})
@State(Scope.Thread)
public class SpawnSingleBenchmark {
    @Param({"16384", "1048576"})
    public int entities;

    World world;
    Dominion dominion;
    com.artemis.World artemis;
    private ComponentMapper<ArtemisPosition> artemisPositions;
    private ComponentMapper<ArtemisVelocity> artemisVelocities;
    Engine ashley;

    @Setup(Level.Invocation)
    public void setUp(BenchmarkParams params) {
        setUp(EngineUnderTest.of(params));
    }

    /** Creates an empty world for the engine {@code selected} measures ({@link EngineUnderTest}). */
    void setUp(String selected) {
        if (EngineUnderTest.needs(selected, "jtecs")) {
            world = World.create(WorldConfig.defaults().maxEntities(entities + 1));
        }
        if (EngineUnderTest.needs(selected, "dominion")) {
            dominion = Dominion.create();
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
        if (dominion != null) {
            dominion.close();
            dominion = null;
        }
        if (artemis != null) {
            artemis.dispose();
            artemis = null;
        }
        ashley = null; // holds no resources: dropping it is cheaper than removeAllEntities
    }

    /** jtecs: per-entity {@code spawn} with two inputs in one {@code defer} scope, then {@code commit}. */
    @Benchmark
    public World jtecs() {
        world.defer();
        for (int i = 0; i < entities; i++) {
            world.spawn(POSITION.of(new Particles.Position(i, -i)), VELOCITY.of(new Particles.Velocity(1, 2)));
        }
        world.commit();
        return world;
    }

    /** Fairness: Dominion's one-call creation with the component objects, applied at once. */
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
        for (int i = 0; i < entities; i++) {
            int entity = artemis.create();
            ArtemisPosition position = artemisPositions.create(entity);
            position.x = i;
            position.y = -i;
            ArtemisVelocity velocity = artemisVelocities.create(entity);
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
