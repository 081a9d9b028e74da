package dev.jtecs.bench.jmh;

import static dev.jtecs.bench.particles.Particles.POSITION;

import com.artemis.ComponentMapper;
import com.artemis.WorldConfigurationBuilder;
import com.badlogic.ashley.core.Engine;
import dev.dominion.ecs.api.Dominion;
import dev.dominion.ecs.api.Entity;
import dev.jtecs.bench.particles.Particles;
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
 * {@code add_remove_tag}: add a tag to N entities one by one, commit, remove it from each, commit. One operation
 * = both passes; the world is back in its starting state afterwards, so every operation does the same work.
 *
 * <p>Fairness: each engine uses its own per-entity call and barrier (jtecs {@code set}/{@code remove} in a
 * {@code defer} scope closed by {@code commit}, so each entity moves once per pass; Artemis-odb mapper
 * {@code create}/{@code remove} then {@code process}; Dominion {@code add}/{@code removeType} and Ashley
 * {@code add}/{@code remove}, both immediate). Stateless tags are one shared instance where the engine stores
 * instances (Dominion, Ashley).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector", "--sun-misc-unsafe-memory-access=allow"})
@State(Scope.Thread)
public class AddRemoveTagBenchmark {
    private static final TagComponent TAG = Components.tag("bench.AddRemoveTag");

    @Param({"16384", "1048576"})
    public int entities;

    private World world;
    private long[] ids;
    private Dominion dominion;
    private Entity[] dominionEntities;
    private com.artemis.World artemis;
    private ComponentMapper<ArtemisTag> artemisTags;
    private int[] artemisEntities;
    private Engine ashley;
    private com.badlogic.ashley.core.Entity[] ashleyEntities;

    @Setup(Level.Trial)
    public void setUp() {
        world = World.create(WorldConfig.defaults().maxEntities(entities + 1));
        ids = new long[entities];
        world.defer();
        for (int i = 0; i < entities; i++) {
            ids[i] = world.spawn(POSITION.of(new Particles.Position(i, i)));
        }
        world.commit();

        dominion = Dominion.create();
        dominionEntities = new Entity[entities];
        for (int i = 0; i < entities; i++) {
            dominionEntities[i] = dominion.createEntity(new DominionPosition(i, i));
        }

        artemis = new com.artemis.World(new WorldConfigurationBuilder().build());
        artemisTags = artemis.getMapper(ArtemisTag.class);
        ComponentMapper<ArtemisPosition> positions = artemis.getMapper(ArtemisPosition.class);
        artemisEntities = new int[entities];
        for (int i = 0; i < entities; i++) {
            artemisEntities[i] = artemis.create();
            positions.create(artemisEntities[i]).x = i;
        }
        artemis.process();

        ashley = new Engine();
        ashleyEntities = new com.badlogic.ashley.core.Entity[entities];
        for (int i = 0; i < entities; i++) {
            ashleyEntities[i] = ashley.createEntity();
            AshleyPosition position = new AshleyPosition();
            position.x = i;
            ashleyEntities[i].add(position);
            ashley.addEntity(ashleyEntities[i]);
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        world.close();
        dominion.close();
        artemis.dispose();
        ashley.removeAllEntities();
    }

    @Benchmark
    public World jtecs() {
        world.defer();
        for (long id : ids) {
            world.set(id, TAG);
        }
        world.commit();
        world.defer();
        for (long id : ids) {
            world.remove(id, TAG);
        }
        world.commit();
        return world;
    }

    @Benchmark
    public Dominion dominion() {
        for (Entity entity : dominionEntities) {
            entity.add(DominionTag.INSTANCE);
        }
        for (Entity entity : dominionEntities) {
            entity.removeType(DominionTag.class);
        }
        return dominion;
    }

    @Benchmark
    public com.artemis.World artemis() {
        for (int entity : artemisEntities) {
            artemisTags.create(entity);
        }
        artemis.process();
        for (int entity : artemisEntities) {
            artemisTags.remove(entity);
        }
        artemis.process();
        return artemis;
    }

    @Benchmark
    public Engine ashley() {
        for (com.badlogic.ashley.core.Entity entity : ashleyEntities) {
            entity.add(AshleyTag.INSTANCE);
        }
        for (com.badlogic.ashley.core.Entity entity : ashleyEntities) {
            entity.remove(AshleyTag.class);
        }
        return ashley;
    }
}
