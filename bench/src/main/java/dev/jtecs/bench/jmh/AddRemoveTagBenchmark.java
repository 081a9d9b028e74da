package dev.jtecs.bench.jmh;

import static dev.jtecs.bench.particles.Particles.POSITION;
import static dev.jtecs.bench.particles.Particles.X;
import static dev.jtecs.bench.particles.Particles.Y;

import com.artemis.ComponentMapper;
import com.artemis.WorldConfigurationBuilder;
import com.badlogic.ashley.core.Engine;
import dev.dominion.ecs.api.Dominion;
import dev.dominion.ecs.api.Entity;
import dev.jtecs.bench.peers.PeerComponents.ArtemisPosition;
import dev.jtecs.bench.peers.PeerComponents.ArtemisTag;
import dev.jtecs.bench.peers.PeerComponents.AshleyPosition;
import dev.jtecs.bench.peers.PeerComponents.AshleyTag;
import dev.jtecs.bench.peers.PeerComponents.DominionPosition;
import dev.jtecs.bench.peers.PeerComponents.DominionTag;
import dev.jtecs.component.Components;
import dev.jtecs.component.TagComponent;
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
 * {@code add_remove_tag}: add a tag to N entities one by one, commit, remove it from each, commit. One operation
 * = both passes; the world is back in its starting state afterwards, so every operation does the same work.
 *
 * <p>jtecs, on both of its paths: {@code jtecs} is the staged path ({@code set}/{@code remove} in a {@code defer}
 * scope closed by {@code commit}, so each entity moves once per pass); {@code jtecsInstant}
 * ({@code jtecs-instant}) is the instant path, the same calls outside any scope, each move published before its
 * call returns.
 *
 * <p>Goal (issue 19): {@code jtecs} at most 1.0x the fastest Java peer (about 25 ns per entity for the round
 * trip), cost flat in N (1M per entity within 1.3x of 16K per entity), nothing allocated per entity.
 *
 * <p>Where the goal stands (one JMH run of build {@code 08b3aad}, two forks, 7 December 2026; ratios to
 * Artemis-odb, 16K and 1M): met: 0.95 &plusmn; 0.19 and 0.85 &plusmn; 0.03, 1.02 from 16K to 1M, 0 B per entity.
 * {@code jtecsInstant}, which the goal does not cover, is 3.3 &plusmn; 0.7 and 2.9 &plusmn; 0.1: each move is
 * published before its call returns (see {@link SetNewBenchmark}).
 *
 * <p>Fairness: each engine uses its own per-entity call and barrier (jtecs as above; Artemis-odb mapper
 * {@code create}/{@code remove} then {@code process}; Dominion {@code add}/{@code removeType} and Ashley
 * {@code add}/{@code remove}, both immediate). Stateless tags are one shared instance where the engine stores
 * instances (Dominion, Ashley). Only the measured engine's world is built ({@link EngineUnderTest}); time is
 * per operation (ns per entity = time / N).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector",
    "--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow",
    "-Ddominion.show-banner=false", "-Ddominion.logging-level=WARNING"})
@State(Scope.Thread)
public class AddRemoveTagBenchmark {
    static final TagComponent TAG = Components.tag("bench.AddRemoveTag");

    @Param({"16384", "1048576"})
    public int entities;

    World world;
    long[] ids;
    Dominion dominion;
    Entity[] dominionEntities;
    com.artemis.World artemis;
    ComponentMapper<ArtemisTag> artemisTags;
    int[] artemisEntities;
    Engine ashley;
    com.badlogic.ashley.core.Entity[] ashleyEntities;

    @Setup(Level.Trial)
    public void setUp(BenchmarkParams params) {
        setUp(EngineUnderTest.of(params));
    }

    /** Builds and populates the world of the engine {@code selected} measures ({@link EngineUnderTest}). */
    void setUp(String selected) {
        setUp(selected, 1);
    }

    /**
     * {@link #setUp(String)} with {@code entities * spread} entities, all of one archetype, of which the passes
     * change every {@code spread}-th one ({@code entities} in all): the handles kept are theirs
     * ({@link AddRemoveTagPartBenchmark}).
     */
    void setUp(String selected, int spread) {
        int population = entities * spread;
        if (EngineUnderTest.needs(selected, "jtecs")) {
            world = World.create(WorldConfig.defaults().maxEntities(population + 1));
            float[] coordinates = new float[population];
            for (int i = 0; i < population; i++) {
                coordinates[i] = i;
            }
            long[] all = world.batchSpawn(population, List.of(POSITION), (archetype, fromRow, toRow) -> {
                Populations.copy(coordinates, archetype, X, fromRow, toRow);
                Populations.copy(coordinates, archetype, Y, fromRow, toRow);
            }).toArray();
            ids = new long[entities];
            for (int i = 0; i < entities; i++) {
                ids[i] = all[i * spread];
            }
        }
        if (EngineUnderTest.needs(selected, "dominion")) {
            dominion = dev.jtecs.bench.peers.DominionWorlds.create();
            dominionEntities = new Entity[entities];
            for (int i = 0; i < population; i++) {
                Entity entity = dominion.createEntity(new DominionPosition(i, i));
                if (i % spread == 0) {
                    dominionEntities[i / spread] = entity;
                }
            }
        }
        if (EngineUnderTest.needs(selected, "artemis")) {
            artemis = new com.artemis.World(new WorldConfigurationBuilder().build());
            artemisTags = artemis.getMapper(ArtemisTag.class);
            ComponentMapper<ArtemisPosition> positions = artemis.getMapper(ArtemisPosition.class);
            artemisEntities = new int[entities];
            for (int i = 0; i < population; i++) {
                int entity = artemis.create();
                ArtemisPosition position = positions.create(entity);
                position.x = i;
                position.y = i;
                if (i % spread == 0) {
                    artemisEntities[i / spread] = entity;
                }
            }
            artemis.process();
        }
        if (EngineUnderTest.needs(selected, "ashley")) {
            ashley = new Engine();
            ashleyEntities = new com.badlogic.ashley.core.Entity[entities];
            for (int i = 0; i < population; i++) {
                com.badlogic.ashley.core.Entity entity = ashley.createEntity();
                AshleyPosition position = new AshleyPosition();
                position.x = i;
                position.y = i;
                entity.add(position);
                ashley.addEntity(entity);
                if (i % spread == 0) {
                    ashleyEntities[i / spread] = entity;
                }
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

    @Benchmark
    public World jtecs() {
        addJtecs();
        removeJtecs();
        return world;
    }

    /** jtecs: per-entity {@code set} of the tag in one {@code defer} scope; {@code commit} moves each entity once. */
    void addJtecs() {
        world.defer();
        for (long id : ids) {
            world.set(id, TAG);
        }
        world.commit();
    }

    void removeJtecs() {
        world.defer();
        for (long id : ids) {
            world.remove(id, TAG);
        }
        world.commit();
    }

    @Benchmark
    public World jtecsInstant() {
        addJtecsInstant();
        removeJtecsInstant();
        return world;
    }

    /** jtecs, instant: per-entity {@code set} of the tag outside any scope; each call moves its entity at once. */
    void addJtecsInstant() {
        for (long id : ids) {
            world.set(id, TAG);
        }
    }

    void removeJtecsInstant() {
        for (long id : ids) {
            world.remove(id, TAG);
        }
    }

    @Benchmark
    public Dominion dominion() {
        addDominion();
        removeDominion();
        return dominion;
    }

    /** Fairness: Dominion's {@code Entity.add} of one shared tag instance, applied at once (its idiom). */
    void addDominion() {
        for (Entity entity : dominionEntities) {
            entity.add(DominionTag.INSTANCE);
        }
    }

    /** Fairness: Dominion's {@code removeType}, applied at once. */
    void removeDominion() {
        for (Entity entity : dominionEntities) {
            entity.removeType(DominionTag.class);
        }
    }

    @Benchmark
    public com.artemis.World artemis() {
        addArtemis();
        removeArtemis();
        return artemis;
    }

    /** Fairness: Artemis-odb's mapper {@code create} per entity, published by {@code process} (its barrier). */
    void addArtemis() {
        for (int entity : artemisEntities) {
            artemisTags.create(entity);
        }
        artemis.process();
    }

    /** Fairness: Artemis-odb's mapper {@code remove} per entity, then {@code process}. */
    void removeArtemis() {
        for (int entity : artemisEntities) {
            artemisTags.remove(entity);
        }
        artemis.process();
    }

    @Benchmark
    public Engine ashley() {
        addAshley();
        removeAshley();
        return ashley;
    }

    /** Fairness: Ashley's {@code Entity.add} of one shared tag instance, immediate (families update at once). */
    void addAshley() {
        for (com.badlogic.ashley.core.Entity entity : ashleyEntities) {
            entity.add(AshleyTag.INSTANCE);
        }
    }

    /** Fairness: Ashley's {@code Entity.remove} by class, immediate. */
    void removeAshley() {
        for (com.badlogic.ashley.core.Entity entity : ashleyEntities) {
            entity.remove(AshleyTag.class);
        }
    }
}
