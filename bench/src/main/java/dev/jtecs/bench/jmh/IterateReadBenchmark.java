package dev.jtecs.bench.jmh;

import static dev.jtecs.bench.particles.Particles.POSITION;
import static dev.jtecs.bench.particles.Particles.VELOCITY;
import static dev.jtecs.bench.particles.Particles.VX;
import static dev.jtecs.bench.particles.Particles.X;

import dev.jtecs.component.Components;
import dev.jtecs.component.FloatField;
import dev.jtecs.component.NativeComponent;
import dev.jtecs.component.TagComponent;
import dev.jtecs.kernels.SumOps;
import dev.jtecs.kernels.vector.VectorSumOps;
import dev.jtecs.query.Query;
import dev.jtecs.query.QueryDescriptor;
import dev.jtecs.query.QueryVisitor;
import dev.jtecs.storage.Archetype;
import dev.jtecs.world.World;
import dev.jtecs.world.WorldConfig;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
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
 * {@code iterate_read}: sum one float field of each of 1, 2 or 3 components ({@code Position.x},
 * {@code Velocity.x}, {@code Mass.m}) over N entities, read only. Every entity has all three, so each variant
 * matches the same population; entity {@code i} holds the {@link PeerWorlds} values everywhere. One operation =
 * one full sum; ns per entity = time / N.
 *
 * <ul>
 *   <li>{@code jtecs}: a query over the summed components and the vector sum kernel
 *       ({@link VectorSumOps#sum}) per column and archetype.
 *   <li>{@code jtecsScalar}: the same with its scalar twin ({@link SumOps#SCALAR}).
 *   <li>{@code plainArray}: plain loops over {@code float[]}s, which the JIT cannot vectorize (float addition is
 *       not associative, so it keeps the sequential order): the ratio to it measures the kernel as much as the
 *       storage, and {@code jtecsScalar} against it measures the storage alone.
 *   <li>{@code dominion}, {@code artemis}, {@code ashley}: each peer's own iteration ({@link PeerWorlds}).
 * </ul>
 *
 * The vector sum adds in a different order, so with non-integral values it may differ from the others in the last
 * bits; the test uses values whose sums are exact in any order. Only the measured implementation's world or
 * arrays are built ({@link EngineUnderTest}).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector",
    "--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow",
    "-Ddominion.show-banner=false", "-Ddominion.logging-level=WARNING"})
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

    World world;
    private Query query;
    private float accumulator;
    private final QueryVisitor reader = this::read;
    private final QueryVisitor scalarReader = this::readScalar;
    private float[] x;
    private float[] vx;
    private float[] m;
    PeerWorlds peers;

    @Setup(Level.Trial)
    public void setUp(BenchmarkParams params) {
        setUp(EngineUnderTest.of(params));
    }

    /** Builds what {@code selected} measures ({@link EngineUnderTest}). */
    void setUp(String selected) {
        if (components < 1 || components > 3) {
            throw new IllegalArgumentException("components=" + components + " outside 1..3");
        }
        if (EngineUnderTest.needs(selected, "jtecs")) {
            setUpJtecs();
        }
        if (selected.equals("jtecs")) {
            warmVectorSum();
        }
        if (EngineUnderTest.needs(selected, "plain")) {
            x = new float[entities];
            vx = new float[entities];
            m = new float[entities];
            for (int i = 0; i < entities; i++) {
                x[i] = PeerWorlds.x0(i);
                vx[i] = PeerWorlds.vx0(i);
                m[i] = 1;
            }
        }
        peers = new PeerWorlds(entities, 0, selected);
    }

    private void setUpJtecs() {
        world = World.create(WorldConfig.defaults().maxEntities(entities + 1));
        Populations.spawnMoving(world, entities, new TagComponent[0], MASS.of(new Mass(1)));
        QueryDescriptor.Builder descriptor = QueryDescriptor.builder().include(POSITION);
        if (components > 1) {
            descriptor.include(VELOCITY);
        }
        if (components > 2) {
            descriptor.include(MASS);
        }
        query = world.newQuery(descriptor.build());
    }

    /**
     * Compiles the vector sum before the first warm-up iteration, as {@code VectorParticleOps.warmUp} does for the
     * particle kernels: until C2 has it, every vector is a heap object (hundreds of bytes per call).
     */
    private static void warmVectorSum() {
        try (Arena arena = Arena.ofShared()) { // shared, like every jtecs column
            MemorySegment scratch = arena.allocate(1024 * Float.BYTES, 64);
            float sink = 0;
            for (int i = 0; i < 20_000; i++) {
                sink += VectorSumOps.INSTANCE.sum(scratch, 1024);
            }
            if (sink != 0) {
                throw new AssertionError("a zeroed column sums to " + sink);
            }
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        if (world != null) {
            world.close();
        }
        peers.close();
    }

    private void read(Archetype archetype, int count) {
        float sum = VectorSumOps.INSTANCE.sum(archetype.get(X).segment(), count);
        if (components > 1) {
            sum += VectorSumOps.INSTANCE.sum(archetype.get(VX).segment(), count);
        }
        if (components > 2) {
            sum += VectorSumOps.INSTANCE.sum(archetype.get(M).segment(), count);
        }
        accumulator += sum;
    }

    private void readScalar(Archetype archetype, int count) {
        float sum = SumOps.SCALAR.sum(archetype.get(X).segment(), count);
        if (components > 1) {
            sum += SumOps.SCALAR.sum(archetype.get(VX).segment(), count);
        }
        if (components > 2) {
            sum += SumOps.SCALAR.sum(archetype.get(M).segment(), count);
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
    public float jtecsScalar() {
        accumulator = 0;
        query.forEach(scalarReader);
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
