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
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
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
 * {@code sparse_delta}: 100,000 entities with a Position spread over 256 archetypes (8 tags); each frame writes
 * 100 positions (write-through {@code set}, which marks dirty) falling in {@code dirtyArchetypes} archetypes,
 * then a consumer copies Position columns into an upload buffer: {@code dirtyOnly} walks
 * {@code world.dirtyArchetypes()} and copies just the dirty ones, {@code fullRescan} copies every archetype
 * every frame. One operation = one frame (writes + upload + clear).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector", "--sun-misc-unsafe-memory-access=allow"})
@State(Scope.Thread)
public class SparseDeltaBenchmark {
    private static final int ENTITIES = 100_000;
    private static final int WRITES = 100;
    static final TagComponent[] BITS = new TagComponent[8];

    static {
        for (int i = 0; i < BITS.length; i++) {
            BITS[i] = Components.tag("bench.SparseBit" + i);
        }
    }

    @Param({"1", "16", "100"})
    public int dirtyArchetypes;

    private World world;
    private long[] targets;
    private Input[] values;
    private List<Archetype> all;
    private Arena arena;
    private MemorySegment upload;
    private int frame;

    @Setup(Level.Trial)
    public void setUp() {
        world = World.create(WorldConfig.defaults().maxEntities(ENTITIES + 1));
        long[] ids = new long[ENTITIES];
        world.defer();
        for (int i = 0; i < ENTITIES; i++) {
            int combo = i % 256;
            List<Input> inputs = new ArrayList<>();
            inputs.add(POSITION.of(new Particles.Position(i, i)));
            for (int bit = 0; bit < BITS.length; bit++) {
                if ((combo & (1 << bit)) != 0) {
                    inputs.add(BITS[bit]);
                }
            }
            ids[i] = world.spawn(inputs.toArray(new Input[0]));
        }
        world.commit();
        SplittableRandom random = new SplittableRandom(7);
        targets = new long[WRITES];
        for (int w = 0; w < WRITES; w++) {
            int combo = w % dirtyArchetypes; // entities of the first dirtyArchetypes combos only
            targets[w] = ids[combo + 256 * random.nextInt(ENTITIES / 256)];
        }
        values = new Input[] {POSITION.of(new Particles.Position(1, 1)), POSITION.of(new Particles.Position(2, 2))};
        all = world.findArchetypes(POSITION);
        arena = Arena.ofShared();
        upload = arena.allocate((long) ENTITIES * 2 * Float.BYTES, 64);
        world.clearDirty();
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

    private static long copy(Archetype archetype, MemorySegment upload, long offset) {
        long bytes = (long) archetype.count() * Float.BYTES;
        MemorySegment.copy(archetype.get(X).segment(), 0, upload, offset, bytes);
        MemorySegment.copy(archetype.get(Y).segment(), 0, upload, offset + bytes, bytes);
        return offset + 2 * bytes;
    }

    @Benchmark
    public long dirtyOnly() {
        write();
        long offset = 0;
        for (Archetype archetype : world.dirtyArchetypes()) {
            if (archetype.isComponentDirty(POSITION) && archetype.count() > 0) {
                offset = copy(archetype, upload, offset);
            }
        }
        world.clearDirty();
        return offset;
    }

    @Benchmark
    public long fullRescan() {
        write();
        long offset = 0;
        for (Archetype archetype : all) {
            if (archetype.count() > 0) {
                offset = copy(archetype, upload, offset);
            }
        }
        world.clearDirty();
        return offset;
    }
}
