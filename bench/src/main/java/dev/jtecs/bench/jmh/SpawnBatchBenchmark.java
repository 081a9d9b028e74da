package dev.jtecs.bench.jmh;

import static dev.jtecs.bench.particles.Particles.POSITION;
import static dev.jtecs.bench.particles.Particles.VELOCITY;
import static dev.jtecs.bench.particles.Particles.VX;
import static dev.jtecs.bench.particles.Particles.VY;
import static dev.jtecs.bench.particles.Particles.X;
import static dev.jtecs.bench.particles.Particles.Y;

import com.artemis.Archetype;
import com.artemis.ArchetypeBuilder;
import com.artemis.ComponentMapper;
import com.artemis.WorldConfigurationBuilder;
import com.badlogic.ashley.core.Engine;
import dev.dominion.ecs.api.Composition;
import dev.dominion.ecs.api.Dominion;
import dev.jtecs.bench.particles.Particles;
import dev.jtecs.bench.peers.PeerComponents.ArtemisPosition;
import dev.jtecs.bench.peers.PeerComponents.ArtemisVelocity;
import dev.jtecs.bench.peers.PeerComponents.AshleyPosition;
import dev.jtecs.bench.peers.PeerComponents.AshleyVelocity;
import dev.jtecs.bench.peers.PeerComponents.DominionPosition;
import dev.jtecs.bench.peers.PeerComponents.DominionVelocity;
import dev.jtecs.component.Input;
import dev.jtecs.mutation.BatchCallback;
import dev.jtecs.world.World;
import dev.jtecs.world.WorldConfig;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
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
 * {@code spawn_batch}: create N entities with Position (1, 2) and Velocity (3, 4), then commit. One operation =
 * the N creations plus the publication that makes them visible, into a fresh, empty world created untimed before
 * each operation ({@code Level.Invocation}), so every engine pays its own storage growth inside the measurement
 * (Dominion excepted: its world is emptied instead, see the fairness notes). Time is per operation; ns per
 * entity = the reported time / N.
 *
 * <p>jtecs, three ways in the same run: {@code jtecsBatchConstants} is the idiomatic path, one
 * {@code batchSpawn} with constant inputs (the world writes each column with bulk copies);
 * {@code jtecsBatchInitializer} spawns from the definitions (columns start as zero bits) and an initializer
 * fills the four columns with bulk copies from a pre-filled heap chunk; {@code jtecsSpawnPerEntity} is the
 * per-entity staged {@code spawn} in one {@code defer} scope with shared inputs, for the batch-versus-single ratio.
 * {@code jtecsReusedWorld} repeats the constants batch into one long-lived world emptied untimed by
 * {@code clearEntities}: the steady state, where nothing grows.
 * A batch at scope depth 0 publishes before it returns, so it needs no separate {@code commit}.
 *
 * <p>Baselines: {@code plainArrayFill} writes the same bytes (four {@code float[N]}) into arrays allocated once,
 * the bandwidth floor; {@code plainArrayAllocateAndFill} allocates the four arrays each time, the floor for
 * storage that starts empty, as a fresh world's does. Only the measured engine's world is created (see
 * {@link EngineUnderTest}).
 *
 * <p>Fairness: each peer uses its fastest documented creation path and its own barrier. Dominion:
 * {@code createPreparedEntity} with a prepared two-type composition; Artemis-odb: {@code create(Archetype)}
 * (components made by the archetype's transmuter) filled in place through mappers, then {@code process};
 * Ashley: {@code createEntity}, two {@code add}s and {@code addEntity} (it has no batch path; a fresh
 * {@code PooledEngine} has nothing to reuse). Peers store one component object per entity, so each entity gets
 * its own instances: sharing one mutable instance would make every entity the same object. Dominion alone keeps
 * one world (and its prepared composition) for the whole trial, emptied untimed by {@code deleteEntity} before
 * each operation ({@link DominionReuse}: a world per operation exhausts its static logging registry after about
 * a thousand operations in a fork); its storage is then warm, which favours it.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector",
    "--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow",
    "-Ddominion.show-banner=false", "-Ddominion.logging-level=WARNING"}) // Dominion logs every world it creates
@State(Scope.Thread)
public class SpawnBatchBenchmark {
    static final float X0 = 1f;
    static final float Y0 = 2f;
    static final float VX0 = 3f;
    static final float VY0 = 4f;

    /** Floats per bulk copy in the initializer: 16 KiB per value, so the four sources stay in L1/L2. */
    private static final int CHUNK = 4096;
    private static final float[] X_CHUNK = filled(X0);
    private static final float[] Y_CHUNK = filled(Y0);
    private static final float[] VX_CHUNK = filled(VX0);
    private static final float[] VY_CHUNK = filled(VY0);

    /** Writes the given values over the placed rows: one bulk copy per chunk per column, no per-row calls. */
    private static final BatchCallback FILL = (archetype, fromRow, toRow) -> {
        fill(archetype.getMut(X).segment(), fromRow, toRow, X_CHUNK);
        fill(archetype.getMut(Y).segment(), fromRow, toRow, Y_CHUNK);
        fill(archetype.getMut(VX).segment(), fromRow, toRow, VX_CHUNK);
        fill(archetype.getMut(VY).segment(), fromRow, toRow, VY_CHUNK);
    };

    @Param({"1024", "16384", "1048576"})
    public int entities;

    private final Input position = POSITION.of(new Particles.Position(X0, Y0));
    private final Input velocity = VELOCITY.of(new Particles.Velocity(VX0, VY0));
    private final List<Input> constants = List.of(position, velocity);
    private final List<Input> definitions = List.of(POSITION, VELOCITY);

    private World world;
    Dominion dominion;
    private final DominionReuse dominionReuse = new DominionReuse();
    private Composition.Of2<DominionPosition, DominionVelocity> dominionComposition;
    private com.artemis.World artemis;
    private Archetype artemisArchetype;
    private ComponentMapper<ArtemisPosition> artemisPositions;
    private ComponentMapper<ArtemisVelocity> artemisVelocities;
    private Engine ashley;
    float[] x;
    float[] y;
    float[] vx;
    float[] vy;

    @Setup(Level.Trial)
    public void allocateArrays() {
        x = new float[entities];
        y = new float[entities];
        vx = new float[entities];
        vy = new float[entities];
    }

    @Setup(Level.Invocation)
    public void createWorlds(BenchmarkParams params) {
        String selected = EngineUnderTest.of(params);
        if (selected.equals("jtecsReusedWorld")) {
            prepareReused();
            return;
        }
        createWorlds(selected);
    }

    /** Empties the long-lived world (created on first use): the entities go, the storage stays. */
    void prepareReused() {
        if (reused == null) {
            reused = World.create(WorldConfig.defaults().maxEntities(entities + 1));
        }
        reused.clearEntities();
    }

    /** The long-lived world of {@link #jtecsReusedWorld}, kept across invocations. */
    private World reused;

    /** Closes the trial-long worlds: the reused jtecs world and Dominion's. */
    @TearDown(Level.Trial)
    public void closeReused() {
        if (reused != null) {
            reused.close();
            reused = null;
        }
        dominionReuse.close();
        dominion = null;
    }

    /**
     * Gives the engine {@code selected} measures ({@link EngineUnderTest}) an empty world: a new one, except
     * Dominion's, which is created once and emptied ({@link DominionReuse}).
     */
    void createWorlds(String selected) {
        if (EngineUnderTest.needs(selected, "jtecs")) {
            world = World.create(WorldConfig.defaults().maxEntities(entities + 1));
        }
        if (EngineUnderTest.needs(selected, "dominion")) {
            Dominion previous = dominion;
            dominion = dominionReuse.empty();
            if (dominion != previous) {
                dominionComposition = dominion.composition().of(DominionPosition.class, DominionVelocity.class);
            }
        }
        if (EngineUnderTest.needs(selected, "artemis")) {
            artemis = new com.artemis.World(new WorldConfigurationBuilder().build());
            artemisArchetype = new ArchetypeBuilder().add(ArtemisPosition.class).add(ArtemisVelocity.class)
                    .build(artemis);
            artemisPositions = artemis.getMapper(ArtemisPosition.class);
            artemisVelocities = artemis.getMapper(ArtemisVelocity.class);
        }
        if (EngineUnderTest.needs(selected, "ashley")) {
            ashley = new Engine();
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
        ashley = null; // holds no resources: dropping it is cheaper than removeAllEntities
    }

    @Benchmark
    public World jtecsBatchConstants() {
        world.batchSpawn(entities, constants);
        return world;
    }

    /**
     * The steady state of an engine: the same {@code batchSpawn} with constants into a world that has held the
     * entities before (cleared untimed), so the entity index and the columns already have their size and the
     * operation only writes. Compare with {@link #plainArrayFill}, which also writes into arrays that exist.
     */
    @Benchmark
    public World jtecsReusedWorld() {
        reused.batchSpawn(entities, constants);
        return reused;
    }

    @Benchmark
    public World jtecsBatchInitializer() {
        world.batchSpawn(entities, definitions, FILL);
        return world;
    }

    @Benchmark
    public World jtecsSpawnPerEntity() {
        world.defer();
        for (int i = 0; i < entities; i++) {
            world.spawn(position, velocity);
        }
        world.commit();
        return world;
    }

    @Benchmark
    public float[] plainArrayFill() {
        Arrays.fill(x, X0);
        Arrays.fill(y, Y0);
        Arrays.fill(vx, VX0);
        Arrays.fill(vy, VY0);
        return vy;
    }

    @Benchmark
    public float[][] plainArrayAllocateAndFill() {
        float[][] columns = {new float[entities], new float[entities], new float[entities], new float[entities]};
        Arrays.fill(columns[0], X0);
        Arrays.fill(columns[1], Y0);
        Arrays.fill(columns[2], VX0);
        Arrays.fill(columns[3], VY0);
        return columns;
    }

    @Benchmark
    public Dominion dominion() {
        for (int i = 0; i < entities; i++) {
            dominion.createPreparedEntity(dominionComposition.withValue(
                    new DominionPosition(X0, Y0), new DominionVelocity(VX0, VY0)));
        }
        return dominion;
    }

    @Benchmark
    public com.artemis.World artemis() {
        for (int i = 0; i < entities; i++) {
            int entity = artemis.create(artemisArchetype);
            ArtemisPosition p = artemisPositions.get(entity);
            p.x = X0;
            p.y = Y0;
            ArtemisVelocity v = artemisVelocities.get(entity);
            v.x = VX0;
            v.y = VY0;
        }
        artemis.process();
        return artemis;
    }

    @Benchmark
    public Engine ashley() {
        for (int i = 0; i < entities; i++) {
            com.badlogic.ashley.core.Entity entity = ashley.createEntity();
            AshleyPosition p = new AshleyPosition();
            p.x = X0;
            p.y = Y0;
            AshleyVelocity v = new AshleyVelocity();
            v.x = VX0;
            v.y = VY0;
            entity.add(p);
            entity.add(v);
            ashley.addEntity(entity);
        }
        return ashley;
    }

    /** Copies {@code chunk} over rows {@code [fromRow, toRow)} of a float column, one bulk copy per chunk. */
    private static void fill(MemorySegment column, int fromRow, int toRow, float[] chunk) {
        long byteOffset = (long) fromRow * Float.BYTES;
        for (int rows = toRow - fromRow; rows > 0; ) {
            int n = Math.min(rows, chunk.length);
            MemorySegment.copy(chunk, 0, column, ValueLayout.JAVA_FLOAT, byteOffset, n);
            byteOffset += (long) n * Float.BYTES;
            rows -= n;
        }
    }

    private static float[] filled(float value) {
        float[] chunk = new float[CHUNK];
        Arrays.fill(chunk, value);
        return chunk;
    }
}
