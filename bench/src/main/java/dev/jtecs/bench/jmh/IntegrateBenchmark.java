package dev.jtecs.bench.jmh;

import static dev.jtecs.bench.particles.Particles.POSITION;
import static dev.jtecs.bench.particles.Particles.VELOCITY;
import static dev.jtecs.bench.particles.Particles.VX;
import static dev.jtecs.bench.particles.Particles.VY;
import static dev.jtecs.bench.particles.Particles.X;
import static dev.jtecs.bench.particles.Particles.Y;

import dev.jtecs.component.TagComponent;
import dev.jtecs.kernels.ColumnKernel;
import dev.jtecs.kernels.KernelProvider;
import dev.jtecs.kernels.KernelRunner;
import dev.jtecs.kernels.MotionKernels;
import dev.jtecs.kernels.ParticleOps;
import dev.jtecs.kernels.vector.VectorParticleOps;
import dev.jtecs.query.Query;
import dev.jtecs.query.QueryDescriptor;
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
 * {@code integrate}: {@code pos += vel * dt} over N entities with Position and Velocity, one operation = one pass
 * over all of them. Entity {@code i} starts with the {@link PeerWorlds} values in every implementation, so all
 * compute the same positions, bit for bit (checked in the test). ns per entity = time / N.
 *
 * <ul>
 *   <li>{@code jtecs}: a persistent query over (Position, Velocity) and the integrate column kernel of the
 *       {@link KernelProvider} (the vector kernel where the Vector API pays), run by a {@link KernelRunner},
 *       which also marks Position dirty on each archetype: the idiomatic system.
 *   <li>{@code jtecsScalar}: the same query and runner with the kernel's scalar twin ({@link ParticleOps#SCALAR},
 *       what the provider returns under {@code -Djtecs.kernels=scalar}).
 *   <li>{@code plainArray}: a plain loop over four {@code float[]} ({@link PlainColumns}).
 *   <li>{@code plainSegmentVector}: the vector kernel over four bare aligned segments ({@link PlainColumns}).
 *   <li>{@code dominion}, {@code artemis}, {@code ashley}: each peer's own iteration (fairness notes on each
 *       loop in {@link PeerWorlds}).
 * </ul>
 *
 * Only the measured implementation's world or arrays are built ({@link EngineUnderTest}).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector",
    "--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow",
    "-Ddominion.show-banner=false", "-Ddominion.logging-level=WARNING"})
@State(Scope.Thread)
public class IntegrateBenchmark {
    static final float DT = 1f / 60f;

    @Param({"16384", "1048576"})
    public int entities;

    World world;
    private Query moving;
    private final KernelRunner runner = new KernelRunner();
    private final ColumnKernel kernel = MotionKernels.integrate2d(KernelProvider.particles(), X, Y, VX, VY);
    private final ColumnKernel scalarKernel = MotionKernels.integrate2d(ParticleOps.SCALAR, X, Y, VX, VY);
    PlainColumns plain;
    PeerWorlds peers;

    @Setup(Level.Trial)
    public void setUp(BenchmarkParams params) {
        setUp(EngineUnderTest.of(params));
    }

    /** Builds what {@code selected} measures ({@link EngineUnderTest}); {@code "plain"} covers both baselines. */
    void setUp(String selected) {
        if (selected.equals("jtecs") || selected.equals("plainSegmentVector")) {
            VectorParticleOps.warmUp(); // the vector kernel, compiled before the first warm-up iteration
        }
        if (EngineUnderTest.needs(selected, "jtecs")) {
            world = World.create(WorldConfig.defaults().maxEntities(entities + 1));
            Populations.spawnMoving(world, entities, new TagComponent[0]);
            moving = world.newQuery(QueryDescriptor.builder().include(POSITION, VELOCITY).build());
        }
        if (EngineUnderTest.needs(selected, "plain")) {
            plain = new PlainColumns(entities);
        }
        peers = new PeerWorlds(entities, 0, selected);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        if (world != null) {
            world.close();
        }
        if (plain != null) {
            plain.close();
        }
        peers.close();
    }

    @Benchmark
    public void jtecs() {
        runner.run(moving, kernel, DT);
    }

    @Benchmark
    public void jtecsScalar() {
        runner.run(moving, scalarKernel, DT);
    }

    @Benchmark
    public void plainArray() {
        plain.integrateArrays(DT);
    }

    @Benchmark
    public void plainSegmentVector() {
        plain.integrateSegments(DT);
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
}
