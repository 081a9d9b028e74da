package dev.jtecs.bench.jmh;

import static dev.jtecs.bench.particles.Particles.POSITION;
import static dev.jtecs.bench.particles.Particles.VELOCITY;
import static dev.jtecs.bench.particles.Particles.VX;
import static dev.jtecs.bench.particles.Particles.VY;
import static dev.jtecs.bench.particles.Particles.X;
import static dev.jtecs.bench.particles.Particles.Y;

import dev.jtecs.bench.particles.Particles;
import dev.jtecs.component.Components;
import dev.jtecs.component.TagComponent;
import dev.jtecs.kernels.ParticleKernels;
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
 * {@code integrate_frag}: {@code pos += vel * dt} over N entities spread over 26 archetypes (one extra tag each),
 * through a query and the vector kernel, against a plain {@code float[]} loop and the peers doing the same.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector", "--sun-misc-unsafe-memory-access=allow"})
@State(Scope.Thread)
public class IntegrateFragBenchmark {
    private static final float DT = 1f / 60f;
    static final TagComponent[] TAGS = new TagComponent[26];

    static {
        for (int i = 0; i < TAGS.length; i++) {
            TAGS[i] = Components.tag("bench.Frag" + (char) ('A' + i));
        }
    }

    @Param({"16384", "1048576"})
    public int entities;

    private World world;
    private Query moving;
    private final QueryVisitor integrate = IntegrateFragBenchmark::integrate;
    private float[] px;
    private float[] py;
    private float[] vx;
    private float[] vy;
    private PeerWorlds peers;

    @Setup(Level.Trial)
    public void setUp() {
        ParticleKernels.warmUp();
        world = World.create(WorldConfig.defaults().maxEntities(entities + 1));
        world.defer();
        for (int i = 0; i < entities; i++) {
            world.spawn(POSITION.of(new Particles.Position(i, -i)), VELOCITY.of(new Particles.Velocity(1, 2)),
                    TAGS[i % TAGS.length]);
        }
        world.commit();
        moving = world.newQuery(QueryDescriptor.builder().include(POSITION, VELOCITY).build());
        px = new float[entities];
        py = new float[entities];
        vx = new float[entities];
        vy = new float[entities];
        for (int i = 0; i < entities; i++) {
            px[i] = i;
            py[i] = -i;
            vx[i] = 1;
            vy[i] = 2;
        }
        peers = new PeerWorlds(entities, TAGS.length);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        world.close();
        peers.close();
    }

    private static void integrate(Archetype archetype, int count) {
        ParticleKernels.integrate2d(archetype.getMut(X).segment(), archetype.getMut(Y).segment(),
                archetype.get(VX).segment(), archetype.get(VY).segment(), count, DT);
    }

    @Benchmark
    public void jtecs() {
        moving.forEach(integrate);
    }

    @Benchmark
    public void plainArray() {
        for (int i = 0; i < px.length; i++) {
            px[i] += vx[i] * DT;
            py[i] += vy[i] * DT;
        }
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
