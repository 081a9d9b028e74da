package dev.jtecs.bench.jmh;

import static dev.jtecs.bench.particles.Particles.POSITION;
import static dev.jtecs.bench.particles.Particles.VELOCITY;
import static dev.jtecs.bench.particles.Particles.X;

import com.artemis.ArchetypeBuilder;
import com.artemis.ComponentMapper;
import com.artemis.EntityTransmuter;
import com.artemis.EntityTransmuterFactory;
import com.artemis.WorldConfigurationBuilder;
import com.badlogic.ashley.core.Engine;
import dev.dominion.ecs.api.Composition;
import dev.dominion.ecs.api.Dominion;
import dev.dominion.ecs.api.Entity;
import dev.jtecs.bench.peers.PeerComponents.ArtemisPosition;
import dev.jtecs.bench.peers.PeerComponents.ArtemisTag;
import dev.jtecs.bench.peers.PeerComponents.ArtemisVelocity;
import dev.jtecs.bench.peers.PeerComponents.AshleyPosition;
import dev.jtecs.bench.peers.PeerComponents.AshleyTag;
import dev.jtecs.bench.peers.PeerComponents.AshleyVelocity;
import dev.jtecs.bench.peers.PeerComponents.DominionPosition;
import dev.jtecs.bench.peers.PeerComponents.DominionTag;
import dev.jtecs.bench.peers.PeerComponents.DominionVelocity;
import dev.jtecs.component.Components;
import dev.jtecs.component.TagComponent;
import dev.jtecs.query.Query;
import dev.jtecs.query.QueryDescriptor;
import dev.jtecs.storage.Archetype;
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
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * {@code move_whole_archetype}: add a tag to every entity of one archetype, N entities with Position and
 * Velocity, and publish. One operation = that one batch move; time is per operation (ns per entity = time / N).
 * N = 1K against 1M shows whether the cost grows with N.
 *
 * <p>{@code destination}: {@code empty} when no entity carries the tag yet (jtecs exchanges the column buffers:
 * no per-entity copy, though the call still captures the N member ids), {@code populated} when
 * {@value #RESIDENTS} resident entities with Position, Velocity and the tag already sit in the destination (jtecs
 * bulk-copies each column and relocates every moved entity). The residents are distinct entities, never selected
 * by the move.
 *
 * <p>Only the measured engine's world is built ({@link EngineUnderTest}). Restoring its start state is untimed,
 * after each operation ({@code Level.Invocation}): the populated case needs it, since a whole-archetype move
 * merges the movers with the residents and no whole-archetype move can split them again, and one fixture serves
 * both parameter values (so every operation is the same move, never its reverse). jtecs takes the tag off again
 * with one {@code batchRemove} (empty: the movers are the whole tagged archetype, an exchange back) or per
 * entity from the last row down (populated: only the movers, each leaving the end of the table); peers remove it
 * per entity. The fixture costs two timer reads per operation, small beside the shortest operation here (jtecs,
 * empty, N = 1K: microseconds). {@code -prof gc} counts the restore's allocations in {@code gc.alloc.rate.norm}
 * too.
 *
 * <p>Fairness: each peer uses its fastest documented way to add a component to an entity it already holds, one
 * entity at a time (none has a bulk path keyed by composition). Dominion: {@code modifyEntity} with a prepared
 * {@code byAdding1AndRemoving} modifier; Artemis-odb: an {@code EntityTransmuter} (a precomputed composition
 * change) per entity, then {@code process}; Ashley: {@code Entity.add} of one shared tag instance. jtecs
 * maintains its queries' membership during the move; the peers are given no tag-aware subscription or family to
 * maintain (Ashley's family arrays would make each removal a linear search), which favours them.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector",
    "--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow",
    "-Ddominion.show-banner=false", "-Ddominion.logging-level=WARNING"})
@State(Scope.Thread)
public class MoveWholeArchetypeBenchmark {
    static final TagComponent TAG = Components.tag("bench.MoveWholeArchetype");
    /** Entities that sit in a populated destination; they carry the tag from the start and never move. */
    static final int RESIDENTS = 1024;
    /** Position x of every resident; movers have x = 1..N, so a tagged x-sum tells the groups apart. */
    static final float RESIDENT_X = -1f;

    @Param({"1024", "1048576"})
    public int entities;

    @Param({"empty", "populated"})
    public String destination;

    World world;
    private long[] movers;
    private Query untagged;
    private Query tagged;

    Dominion dominion;
    Entity[] dominionMovers;
    private Composition.ByAdding1AndRemoving<DominionTag> dominionAddTag;
    private Composition.ByRemoving dominionRemoveTag;

    com.artemis.World artemis;
    int[] artemisMovers;
    ComponentMapper<ArtemisTag> artemisTags;
    ComponentMapper<ArtemisPosition> artemisPositions;
    private EntityTransmuter artemisAddTag;
    private EntityTransmuter artemisRemoveTag;

    Engine ashley;
    com.badlogic.ashley.core.Entity[] ashleyMovers;
    com.badlogic.ashley.core.Entity[] ashleyResidents;

    @Setup(Level.Trial)
    public void setUp(BenchmarkParams params) {
        setUp(EngineUnderTest.of(params));
    }

    /** Builds the start state of the engine {@code selected} measures ({@link EngineUnderTest}). */
    void setUp(String selected) {
        int residents = residents();
        if (EngineUnderTest.needs(selected, "jtecs")) {
            setUpJtecs(residents);
        }
        if (EngineUnderTest.needs(selected, "dominion")) {
            setUpDominion(residents);
        }
        if (EngineUnderTest.needs(selected, "artemis")) {
            setUpArtemis(residents);
        }
        if (EngineUnderTest.needs(selected, "ashley")) {
            setUpAshley(residents);
        }
    }

    int residents() {
        return switch (destination) {
            case "empty" -> 0;
            case "populated" -> RESIDENTS;
            default -> throw new IllegalArgumentException("destination=" + destination);
        };
    }

    private void setUpJtecs(int residents) {
        world = World.create(WorldConfig.defaults().maxEntities(entities + RESIDENTS + 1));
        untagged = world.newQuery(QueryDescriptor.builder().include(POSITION, VELOCITY).exclude(TAG).build());
        tagged = world.newQuery(QueryDescriptor.builder().include(POSITION, VELOCITY, TAG).build());
        movers = world.batchSpawn(entities, List.of(POSITION, VELOCITY), (archetype, from, to) -> {
            FloatColumn x = archetype.getMut(X);
            for (int row = from; row < to; row++) {
                x.set(row, row + 1); // setup only: distinct values for the checksum
            }
        }).toArray();
        if (residents > 0) {
            world.batchSpawn(residents, List.of(POSITION, VELOCITY, TAG), (archetype, from, to) -> {
                FloatColumn x = archetype.getMut(X);
                for (int row = from; row < to; row++) {
                    x.set(row, RESIDENT_X);
                }
            });
        }
    }

    private void setUpDominion(int residents) {
        dominion = dev.jtecs.bench.peers.DominionWorlds.create();
        dominionAddTag = dominion.composition().byAdding1AndRemoving(DominionTag.class);
        dominionRemoveTag = dominion.composition().byRemoving(DominionTag.class);
        dominionMovers = new Entity[entities];
        for (int i = 0; i < entities; i++) {
            dominionMovers[i] = dominion.createEntity(new DominionPosition(i + 1, 0), new DominionVelocity(0, 0));
        }
        for (int i = 0; i < residents; i++) {
            dominion.createEntity(new DominionPosition(RESIDENT_X, 0), new DominionVelocity(0, 0),
                    DominionTag.INSTANCE);
        }
    }

    private void setUpArtemis(int residents) {
        artemis = new com.artemis.World(new WorldConfigurationBuilder().build());
        artemisTags = artemis.getMapper(ArtemisTag.class);
        artemisPositions = artemis.getMapper(ArtemisPosition.class);
        artemisAddTag = new EntityTransmuterFactory(artemis).add(ArtemisTag.class).build();
        artemisRemoveTag = new EntityTransmuterFactory(artemis).remove(ArtemisTag.class).build();
        com.artemis.Archetype plain = new ArchetypeBuilder().add(ArtemisPosition.class).add(ArtemisVelocity.class)
                .build(artemis);
        com.artemis.Archetype withTag = new ArchetypeBuilder(plain).add(ArtemisTag.class).build(artemis);
        artemisMovers = new int[entities];
        for (int i = 0; i < entities; i++) {
            artemisMovers[i] = artemis.create(plain);
            artemisPositions.get(artemisMovers[i]).x = i + 1;
        }
        for (int i = 0; i < residents; i++) {
            artemisPositions.get(artemis.create(withTag)).x = RESIDENT_X;
        }
        artemis.process();
    }

    private void setUpAshley(int residents) {
        ashley = new Engine();
        ashleyMovers = new com.badlogic.ashley.core.Entity[entities];
        for (int i = 0; i < entities; i++) {
            ashleyMovers[i] = ashleyEntity(i + 1);
        }
        ashleyResidents = new com.badlogic.ashley.core.Entity[residents];
        for (int i = 0; i < residents; i++) {
            ashleyResidents[i] = ashleyEntity(RESIDENT_X).add(AshleyTag.INSTANCE);
        }
    }

    private com.badlogic.ashley.core.Entity ashleyEntity(float x) {
        com.badlogic.ashley.core.Entity entity = ashley.createEntity();
        AshleyPosition p = new AshleyPosition();
        p.x = x;
        entity.add(p).add(new AshleyVelocity());
        ashley.addEntity(entity);
        return entity;
    }

    /** Takes the tag off the movers of whichever engine the last operation moved (untimed). */
    @TearDown(Level.Invocation)
    public void restore() {
        if (world != null && world.has(movers[0], TAG)) {
            restoreJtecs();
        }
        if (dominion != null && dominionMovers[0].has(DominionTag.class)) {
            for (Entity entity : dominionMovers) {
                dominion.modifyEntity(dominionRemoveTag.withValue(entity));
            }
        }
        if (artemis != null && artemisTags.has(artemisMovers[0])) {
            for (int entity : artemisMovers) {
                artemisRemoveTag.transmute(entity);
            }
            artemis.process();
        }
        if (ashley != null && ashleyMovers[0].getComponent(AshleyTag.class) != null) {
            for (com.badlogic.ashley.core.Entity entity : ashleyMovers) {
                entity.remove(AshleyTag.class);
            }
        }
    }

    private void restoreJtecs() {
        if (residents() == 0) {
            world.batchRemove(tagged, TAG); // the movers are the whole tagged archetype
            return;
        }
        // The movers were appended after the residents: take them off from the last row down, so each leaves
        // the end of the table and no resident is touched.
        Archetype table = world.archetypeOf(movers[0]);
        world.defer();
        for (int row = table.count() - 1; row >= RESIDENTS; row--) {
            world.remove(table.entity(row), TAG);
        }
        world.commit();
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
        world.batchSet(untagged, TAG); // scope depth 0: published before it returns
        return world;
    }

    @Benchmark
    public Dominion dominion() {
        for (Entity entity : dominionMovers) {
            dominion.modifyEntity(dominionAddTag.withValue(entity, DominionTag.INSTANCE));
        }
        return dominion;
    }

    @Benchmark
    public com.artemis.World artemis() {
        for (int entity : artemisMovers) {
            artemisAddTag.transmute(entity);
        }
        artemis.process();
        return artemis;
    }

    @Benchmark
    public Engine ashley() {
        for (com.badlogic.ashley.core.Entity entity : ashleyMovers) {
            entity.add(AshleyTag.INSTANCE);
        }
        return ashley;
    }
}
