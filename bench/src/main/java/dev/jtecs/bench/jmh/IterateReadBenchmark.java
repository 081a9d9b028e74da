package dev.jtecs.bench.jmh;

import static dev.jtecs.bench.particles.Particles.POSITION;
import static dev.jtecs.bench.particles.Particles.VELOCITY;
import static dev.jtecs.bench.particles.Particles.VX;
import static dev.jtecs.bench.particles.Particles.X;

import dev.jtecs.bench.particles.Particles;
import dev.jtecs.component.Components;
import dev.jtecs.component.FloatField;
import dev.jtecs.component.NativeComponent;
import dev.jtecs.kernels.ColumnKernels;
import dev.jtecs.query.Query;
import dev.jtecs.query.QueryDescriptor;
import dev.jtecs.query.QueryVisitor;
import dev.jtecs.storage.Archetype;
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
 * {@code iterate_read}: sum one float field of each of 1, 2 or 3 components over N entities, read only. Every
 * entity has all three (Position, Velocity, Mass), so each variant matches the same population.
 *
 * <p>jtecs runs a query and a vector sum kernel per column; the baseline sums plain {@code float[]}s in a plain
 * loop, which the JIT cannot vectorize (float addition is not associative, so it keeps the sequential order),
 * so the ratio to it measures the kernel as much as the storage; the peers iterate their own query structures
 * (see {@link PeerWorlds}).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector", "--sun-misc-unsafe-memory-access=allow"})
@State(Scope.Thread)
public class IterateReadBenchmark {
    /** The third component. */
    public record Mass(float m) {}

    static final NativeComponent<Mass> MASS = Components.registerNative(Mass.class, o -> o.name("bench.Mass"));
    static final FloatField M = MASS.floatField("m");

    @Param({"1", "2", "3"})
    public int components;

    @Param({"16384", "1048576"})
    public int entities;

    private World world;
    private Query query;
    private float accumulator;
    private final QueryVisitor reader = this::read;
    private float[] x;
    private float[] vx;
    private float[] m;
    private PeerWorlds peers;

    @Setup(Level.Trial)
    public void setUp() {
        world = World.create(WorldConfig.defaults().maxEntities(entities + 1));
        world.defer();
        for (int i = 0; i < entities; i++) {
            world.spawn(POSITION.of(new Particles.Position(i, -i)), VELOCITY.of(new Particles.Velocity(1, 2)),
                    MASS.of(new Mass(1)));
        }
        world.commit();
        QueryDescriptor.Builder descriptor = QueryDescriptor.builder().include(POSITION);
        if (components > 1) {
            descriptor.include(VELOCITY);
        }
        if (components > 2) {
            descriptor.include(MASS);
        }
        query = world.newQuery(descriptor.build());
        x = new float[entities];
        vx = new float[entities];
        m = new float[entities];
        for (int i = 0; i < entities; i++) {
            x[i] = i;
            vx[i] = 1;
            m[i] = 1;
        }
        peers = new PeerWorlds(entities, 0);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        world.close();
        peers.close();
    }

    private void read(Archetype archetype, int count) {
        float sum = ColumnKernels.sum(archetype.get(X).segment(), count);
        if (components > 1) {
            sum += ColumnKernels.sum(archetype.get(VX).segment(), count);
        }
        if (components > 2) {
            sum += ColumnKernels.sum(archetype.get(M).segment(), count);
        }
        accumulator += sum;
    }

    @Benchmark
    public float jtecs() {
        accumulator = 0;
        query.forEach(reader);
        return accumulator;
    }

    @Benchmark
    public float plainArray() {
        float sum = 0;
        for (int i = 0; i < x.length; i++) {
            sum += x[i];
        }
        if (components > 1) {
            for (int i = 0; i < vx.length; i++) {
                sum += vx[i];
            }
        }
        if (components > 2) {
            for (int i = 0; i < m.length; i++) {
                sum += m[i];
            }
        }
        return sum;
    }

    @Benchmark
    public float dominion() {
        return peers.readDominion(components);
    }

    @Benchmark
    public float artemis() {
        return peers.readArtemis(components);
    }

    @Benchmark
    public float ashley() {
        return peers.readAshley(components);
    }
}
