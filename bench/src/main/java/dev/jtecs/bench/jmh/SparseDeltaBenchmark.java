package dev.jtecs.bench.jmh;

import static dev.jtecs.bench.particles.Particles.POSITION;
import static dev.jtecs.bench.particles.Particles.X;
import static dev.jtecs.bench.particles.Particles.Y;

import dev.jtecs.bench.particles.Particles;
import dev.jtecs.component.Components;
import dev.jtecs.component.Input;
import dev.jtecs.component.TagComponent;
import dev.jtecs.storage.Archetype;
import dev.jtecs.world.World;
import dev.jtecs.world.WorldConfig;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
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
 * {@code sparse_delta}: N = 100,000 entities with a Position spread over 256 archetypes (8 tags, entity {@code i}
 * in combination {@code i % 256}); each frame writes {@value #WRITES} positions (write-through {@code set}, which
 * marks Position dirty on the written archetype) falling in {@code dirtyArchetypes} archetypes, then a consumer
 * brings its mirror of every Position column up to date, as a renderer keeps a GPU buffer: one fixed region per
 * archetype (x values, then y values), filled once untimed at set-up. One operation = one frame (the writes, the
 * upload, clearing the dirty state); ns per entity = time / N.
 *
 * <ul>
 *   <li>{@code jtecs}: walks the dirty archetypes with {@code world.forEachDirtyArchetype} (the per-frame form,
 *       which builds no list: {@code dirtyArchetypes()} made one of about 260 bytes a frame) and re-uploads only
 *       archetypes whose Position is dirty, two bulk copies each.
 *   <li>{@code jtecsFullRescan}: the baseline, re-uploads every archetype every frame, dirty or not.
 * </ul>
 *
 * Both leave the same mirror, equal to the world (checked in the test). No peer runs here: none of them tracks
 * which columns changed.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector",
    "--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow"})
@State(Scope.Thread)
public class SparseDeltaBenchmark {
    static final int WRITES = 100;
    static final int COMBINATIONS = 256;
    static final TagComponent[] BITS = new TagComponent[8];

    static {
        for (int i = 0; i < BITS.length; i++) {
            BITS[i] = Components.tag("bench.SparseBit" + i);
        }
    }

    /** Entities in the world; at least {@value #COMBINATIONS}, so every archetype has rows. */
    @Param({"100000"})
    public int entities;

    /** How many archetypes the frame's writes fall in, 1..{@value #WRITES}. */
    @Param({"1", "16", "100"})
    public int dirtyArchetypes;

    World world;
    private long[] targets;
    private Input[] values;
    List<Archetype> all;
    private Arena arena;
    /** The consumer's mirror: archetype {@code a}'s x values at {@code region[a.id()]}, its y values after them. */
    MemorySegment mirror;
    private long[] region;
    private int frame;

    @Setup(Level.Trial)
    public void setUp() {
        if (entities < COMBINATIONS || dirtyArchetypes < 1 || dirtyArchetypes > WRITES) {
            throw new IllegalArgumentException("entities=" + entities + " must be at least " + COMBINATIONS
                    + " and dirtyArchetypes=" + dirtyArchetypes + " within 1.." + WRITES);
        }
        world = World.create(WorldConfig.defaults().maxEntities(entities + 1));
        long[] ids = spawnCombinations();
        SplittableRandom random = new SplittableRandom(7);
        targets = new long[WRITES];
        for (int w = 0; w < WRITES; w++) {
            int combo = w % dirtyArchetypes; // entities of the first dirtyArchetypes combinations only
            targets[w] = ids[combo + COMBINATIONS * random.nextInt(entities / COMBINATIONS)];
        }
        values = new Input[] {POSITION.of(new Particles.Position(1, 1)), POSITION.of(new Particles.Position(2, 2))};
        all = world.findArchetypes(POSITION);
        layOutMirror();
        for (Archetype archetype : all) {
            upload(archetype); // the consumer's first, full upload
        }
        world.clearDirty();
    }

    /**
     * Spawns entity {@code i} with Position ({@code i}, {@code -i}) and the tags of combination
     * {@code i % 256}: one {@code batchSpawn} per combination, columns filled by bulk copies. Returns the ids by
     * entity index.
     */
    private long[] spawnCombinations() {
        long[] ids = new long[entities];
        for (int combo = 0; combo < COMBINATIONS; combo++) {
            int count = (entities - combo + COMBINATIONS - 1) / COMBINATIONS; // combo, combo + 256, ...
            float[] x = new float[count];
            float[] y = new float[count];
            for (int k = 0; k < count; k++) {
                x[k] = combo + k * COMBINATIONS;
                y[k] = -x[k];
            }
            List<Input> inputs = new ArrayList<>(List.of(POSITION));
            for (int bit = 0; bit < BITS.length; bit++) {
                if ((combo & (1 << bit)) != 0) {
                    inputs.add(BITS[bit]);
                }
            }
            long[] batch = world.batchSpawn(count, inputs, (archetype, fromRow, toRow) -> {
                Populations.copy(x, archetype, X, fromRow, toRow);
                Populations.copy(y, archetype, Y, fromRow, toRow);
            }).toArray();
            for (int k = 0; k < count; k++) {
                ids[combo + k * COMBINATIONS] = batch[k];
            }
        }
        return ids;
    }

    private void layOutMirror() {
        int maxId = 0;
        long bytes = 0;
        for (Archetype archetype : all) {
            maxId = Math.max(maxId, archetype.id());
            bytes += 2L * archetype.count() * Float.BYTES;
        }
        region = new long[maxId + 1];
        long offset = 0;
        for (Archetype archetype : all) {
            region[archetype.id()] = offset;
            offset += 2L * archetype.count() * Float.BYTES;
        }
        arena = Arena.ofShared();
        mirror = arena.allocate(Math.max(bytes, 1), 64);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        world.close();
        arena.close();
    }

    private void write() {
        Input value = values[frame++ & 1];
        for (long id : targets) {
            world.set(id, value);
        }
    }

    /** Copies one archetype's Position columns into its region of the mirror; returns the bytes copied. */
    private long upload(Archetype archetype) {
        long bytes = (long) archetype.count() * Float.BYTES;
        long offset = region[archetype.id()];
        MemorySegment.copy(archetype.get(X).segment(), 0, mirror, offset, bytes);
        MemorySegment.copy(archetype.get(Y).segment(), 0, mirror, offset + bytes, bytes);
        return 2 * bytes;
    }

    /** The mirror's copy of {@code archetype}'s row {@code row}: x, then y. */
    float[] mirrored(Archetype archetype, int row) {
        long offset = region[archetype.id()];
        long columnBytes = (long) archetype.count() * Float.BYTES;
        return new float[] {mirror.get(ValueLayout.JAVA_FLOAT, offset + (long) row * Float.BYTES),
            mirror.get(ValueLayout.JAVA_FLOAT, offset + columnBytes + (long) row * Float.BYTES)};
    }

    @Benchmark
    public long jtecs() {
        write();
        copied = 0;
        world.forEachDirtyArchetype(uploadIfDirty);
        world.clearDirty();
        return copied;
    }

    /** The bytes {@link #jtecs} copied in its frame. */
    private long copied;

    // made once: the visit's consumer, so the frame allocates nothing
    private final Consumer<Archetype> uploadIfDirty = archetype -> {
        if (archetype.isComponentDirty(POSITION) && archetype.count() > 0) {
            copied += upload(archetype);
        }
    };

    @Benchmark
    public long jtecsFullRescan() {
        write();
        long copied = 0;
        for (Archetype archetype : all) {
            if (archetype.count() > 0) {
                copied += upload(archetype);
            }
        }
        world.clearDirty();
        return copied;
    }
}
