package dev.jtecs.bench.jmh;

import static dev.jtecs.bench.particles.Particles.POSITION;
import static dev.jtecs.bench.particles.Particles.VELOCITY;
import static dev.jtecs.bench.particles.Particles.VX;
import static dev.jtecs.bench.particles.Particles.VY;
import static dev.jtecs.bench.particles.Particles.X;
import static dev.jtecs.bench.particles.Particles.Y;

import dev.jtecs.bench.particles.Particles;
import dev.jtecs.component.Input;
import dev.jtecs.kernels.ParticleKernels;
import dev.jtecs.storage.Archetype;
import dev.jtecs.storage.FloatColumn;
import dev.jtecs.world.World;
import dev.jtecs.world.WorldConfig;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
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
 * {@code integrate}: {@code pos += vel * dt} over N entities with Position and Velocity, one operation = one pass.
 *
 * <p>Implementations in the same run: jtecs through its archetype columns with a scalar row loop
 * ({@code jtecsScalarColumns}) and with the vector kernel ({@code jtecsVectorKernel}); baselines: a plain
 * {@code float[]} SoA loop and a {@code FloatVector} loop over bare 64-byte-aligned segments; peers: Dominion,
 * Artemis-odb and Ashley (see {@link PeerWorlds}).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector", "--sun-misc-unsafe-memory-access=allow"})
@State(Scope.Thread)
public class IntegrateBenchmark {
    private static final float DT = 1f / 60f;

    @Param({"16384", "1048576"})
    public int entities;

    private World world;
    private final Consumer<Archetype> scalarPass = IntegrateBenchmark::scalarColumns;
    private final Consumer<Archetype> vectorPass = IntegrateBenchmark::vectorKernel;

    private float[] px;
    private float[] py;
    private float[] vx;
    private float[] vy;

    private Arena arena;
    private PeerWorlds peers;
    private MemorySegment sx;
    private MemorySegment sy;
    private MemorySegment svx;
    private MemorySegment svy;

    @Setup(Level.Trial)
    public void setUp() {
        world = World.create(WorldConfig.defaults().maxEntities(entities + 1));
        for (int i = 0; i < entities; i++) {
            Input p = POSITION.of(new Particles.Position(i, -i));
            Input v = VELOCITY.of(new Particles.Velocity(1 + (i & 7), 2 - (i & 3)));
            world.spawn(p, v);
        }
        world.commit();
        px = new float[entities];
        py = new float[entities];
        vx = new float[entities];
        vy = new float[entities];
        arena = Arena.ofShared();
        long bytes = (long) ParticleKernels.paddedCount(entities) * Float.BYTES;
        sx = arena.allocate(bytes, 64);
        sy = arena.allocate(bytes, 64);
        svx = arena.allocate(bytes, 64);
        svy = arena.allocate(bytes, 64);
        for (int i = 0; i < entities; i++) {
            px[i] = i;
            py[i] = -i;
            vx[i] = 1 + (i & 7);
            vy[i] = 2 - (i & 3);
            sx.setAtIndex(ValueLayout.JAVA_FLOAT, i, px[i]);
            sy.setAtIndex(ValueLayout.JAVA_FLOAT, i, py[i]);
            svx.setAtIndex(ValueLayout.JAVA_FLOAT, i, vx[i]);
            svy.setAtIndex(ValueLayout.JAVA_FLOAT, i, vy[i]);
        }
        peers = new PeerWorlds(entities, 0);
        ParticleKernels.warmUp();
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        world.close();
        arena.close();
        peers.close();
    }

    @Benchmark
    public void dominion() {
        peers.integrateDominion(DT);
    }

    @Benchmark
    public void artemis() {
        peers.integrateArtemis(DT);
    }

    @Benchmark
    public void ashley() {
        peers.integrateAshley(DT);
    }

    @Benchmark
    public void jtecsScalarColumns() {
        world.forEachArchetype(scalarPass);
    }

    @Benchmark
    public void jtecsVectorKernel() {
        world.forEachArchetype(vectorPass);
    }

    @Benchmark
    public void plainArray() {
        float[] x = px;
        float[] y = py;
        float[] dx = vx;
        float[] dy = vy;
        for (int i = 0; i < x.length; i++) {
            x[i] += dx[i] * DT;
            y[i] += dy[i] * DT;
        }
    }

    /** The same vector kernel over bare aligned segments: what the loop costs without the ECS around it. */
    @Benchmark
    public void plainSegmentVector() {
        ParticleKernels.integrate2d(sx, sy, svx, svy, entities, DT);
    }

    private static void scalarColumns(Archetype archetype) {
        int count = archetype.count();
        if (count == 0 || !archetype.has(POSITION) || !archetype.has(VELOCITY)) {
            return;
        }
        FloatColumn x = archetype.getMut(X);
        FloatColumn y = archetype.getMut(Y);
        FloatColumn dx = archetype.get(VX);
        FloatColumn dy = archetype.get(VY);
        for (int row = 0; row < count; row++) {
            x.set(row, x.get(row) + dx.get(row) * DT);
            y.set(row, y.get(row) + dy.get(row) * DT);
        }
    }

    private static void vectorKernel(Archetype archetype) {
        int count = archetype.count();
        if (count == 0 || !archetype.has(POSITION) || !archetype.has(VELOCITY)) {
            return;
        }
        ParticleKernels.integrate2d(archetype.getMut(X).segment(), archetype.getMut(Y).segment(),
                archetype.get(VX).segment(), archetype.get(VY).segment(), count, DT);
    }
}
