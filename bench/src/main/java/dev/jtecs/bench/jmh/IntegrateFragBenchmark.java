package dev.jtecs.bench.jmh;

import static dev.jtecs.bench.particles.Particles.POSITION;
import static dev.jtecs.bench.particles.Particles.VELOCITY;
import static dev.jtecs.bench.particles.Particles.VX;
import static dev.jtecs.bench.particles.Particles.VY;
import static dev.jtecs.bench.particles.Particles.X;
import static dev.jtecs.bench.particles.Particles.Y;

import dev.jtecs.component.Components;
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
 * {@code integrate_frag}: {@code pos += vel * dt} over N entities spread over 26 archetypes: every entity has
 * Position and Velocity and one of 26 tags ({@code i % 26}), so each archetype holds N / 26 rows. One operation =
 * one pass over all of them; ns per entity = time / N. What fragmentation costs is the ratio of each
 * implementation here to its own row in {@code integrate}.
 *
 * <p>The implementations are those of {@link IntegrateBenchmark}: jtecs runs one query and the integrate column
 * kernel per archetype ({@code jtecs}: the provider's kernel, {@code jtecsScalar}: the scalar twin); the plain
 * baselines ({@code plainArray}, {@code plainSegmentVector}) have no archetypes to split, so they are the
 * unfragmented floor; {@code plainSegmentVectorPerArchetype} runs the same vector loop once per group over 26 bare
 * segment groups, the floor of any engine that keeps the groups apart ({@link FragmentedColumns}); the peers get
 * 26 tag types of their own and iterate as in {@code integrate} ({@link PeerWorlds}: Dominion's composition tables and Artemis-odb's and Ashley's entity lists split or not by
 * the tag, each peer's own business). Entity {@code i} starts with the same values everywhere (the test checks
 * that all compute the same positions).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector",
    "--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow",
    "-Ddominion.show-banner=false", "-Ddominion.logging-level=WARNING"})
@State(Scope.Thread)
public class IntegrateFragBenchmark {
    static final float DT = 1f / 60f;
    static final TagComponent[] TAGS = new TagComponent[26];

    static {
        for (int i = 0; i < TAGS.length; i++) {
            TAGS[i] = Components.tag("bench.Frag" + (char) ('A' + i));
        }
    }

    @Param({"16384", "1048576"})
    public int entities;

    World world;
    private Query moving;
    private final KernelRunner runner = new KernelRunner();
    private final ColumnKernel kernel = MotionKernels.integrate2d(KernelProvider.particles(), X, Y, VX, VY);
    private final ColumnKernel scalarKernel = MotionKernels.integrate2d(ParticleOps.SCALAR, X, Y, VX, VY);
    PlainColumns plain;
    FragmentedColumns fragments;
    PeerWorlds peers;

    @Setup(Level.Trial)
    public void setUp(BenchmarkParams params) {
        setUp(EngineUnderTest.of(params));
    }

    /** Builds what {@code selected} measures ({@link EngineUnderTest}); {@code "plain"} covers both baselines. */
    void setUp(String selected) {
        if (selected.equals("jtecs") || selected.startsWith("plainSegmentVector")) {
            VectorParticleOps.warmUp(); // the vector kernel, compiled before the first warm-up iteration
        }
        if (EngineUnderTest.needs(selected, "jtecs")) {
            world = World.create(WorldConfig.defaults().maxEntities(entities + 1));
            Populations.spawnMoving(world, entities, TAGS);
            moving = world.newQuery(QueryDescriptor.builder().include(POSITION, VELOCITY).build());
        }
        boolean all = selected.equals(EngineUnderTest.ALL);
        if (all || selected.equals("plainSegmentVectorPerArchetype")) {
            fragments = new FragmentedColumns(entities, TAGS.length);
        }
        if (all || EngineUnderTest.needs(selected, "plain") && fragments == null) {
            plain = new PlainColumns(entities);
        }
        peers = new PeerWorlds(entities, TAGS.length, selected);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        if (world != null) {
            world.close();
        }
        if (plain != null) {
            plain.close();
        }
        if (fragments != null) {
            fragments.close();
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

    /** The same vector loop over 26 bare segment groups: the fragmented floor ({@link FragmentedColumns}). */
    @Benchmark
    public void plainSegmentVectorPerArchetype() {
        fragments.integrate(DT);
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
