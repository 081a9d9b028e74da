package dev.jtecs.bench.jmh;

import dev.jtecs.bench.frame.KernelChoice;
import dev.jtecs.bench.particles.ParticleSimulation;
import dev.jtecs.bench.particles.ParticleSnapshot;
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
 * {@code particles}: N particles and one full frame per operation, by the rules of
 * {@link dev.jtecs.bench.particles.ParticleRules}: gravity, damping, integrate, lifetime countdown, about 1% of the
 * particles expiring and as many respawned in one burst, and the changed x, y and lifetime extracted into an
 * output buffer. Every engine starts from the same particles (the same emitter stream) and, following the same
 * arithmetic, computes the same particles frame after frame (checked in the test). ns per entity = time / N.
 *
 * <ul>
 *   <li>{@code jtecsFrame}: {@link ParticleSimulation} with the vector kernels: {@code world.update(dt)} with
 *       kernel systems, the {@code TTL} countdown kernel and its despawn scope, one {@code batchSpawn} filled by
 *       bulk copies, and the dirty-driven extraction (bulk copies of the dirty columns, off-heap).
 *   <li>{@code jtecsScalarFrame}: the same with the scalar twins ({@code jtecs-scalar}).
 *   <li>{@code jtecsSeparateFrame}: the vector frame with one pass per kernel instead of the fused step
 *       ({@code --passes separate}); {@code jtecsFrame} runs the fused one, the default.
 *   <li>{@code jtecsTwoThreadsFrame}: {@code jtecsFrame} with its step on two threads ({@code --threads 2}).
 *   <li>{@code plainArrayFusedFrame}: {@link PlainArrayFusedParticles}, the frame as one hand-written loop over
 *       plain arrays ({@code plain-array-fused}), the floor.
 *   <li>{@code plainArrayFusedTwoThreadsFrame}: the same loop split over two threads as well as plain arrays
 *       allow (rows for the step, columns for the removals and appends), the ceiling of a two-thread frame on the
 *       machine that runs it: what {@code jtecsTwoThreadsFrame} is measured against.
 *   <li>{@code dominionFrame}, {@code artemisFrame}, {@code ashleyFrame}: {@link DominionParticles},
 *       {@link ArtemisParticles}, {@link AshleyParticles}, each written as its engine documents, with its fairness
 *       notes. None has dirty tracking: every particle moves every frame, so each extracts every particle, which
 *       is what jtecs's dirty extraction ends up copying here too (x, y and TTL are dirty in every frame).
 * </ul>
 *
 * Run time: at 1,000,000 particles an {@code ashleyFrame} operation takes tens of seconds (Ashley's removals are
 * linear, see {@link AshleyParticles}), so a full run of this class takes several minutes per fork for Ashley
 * alone; select the methods to run with a regular expression when that matters.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 2, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector",
    "--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow"})
@State(Scope.Thread)
public class ParticlesBenchmark {
    /** The seed every engine's emitter stream derives from. */
    static final int SEED = 42;

    @Param({"10000", "1000000"})
    public int entities;

    ParticleFrame jtecs;
    ParticleFrame jtecsScalar;
    ParticleFrame jtecsSeparate;
    ParticleFrame jtecsTwoThreads;
    ParticleFrame plainArrayFused;
    ParticleFrame plainArrayFusedTwoThreads;
    ParticleFrame dominion;
    ParticleFrame artemis;
    ParticleFrame ashley;

    @Setup(Level.Trial)
    public void setUp(BenchmarkParams params) {
        setUp(EngineUnderTest.of(params));
    }

    /** Builds the engines {@code selected} (a method name or {@link EngineUnderTest#ALL}) measures. */
    void setUp(String selected) {
        boolean all = selected.equals(EngineUnderTest.ALL);
        if (all || selected.equals("jtecsFrame")) {
            jtecs = new Jtecs(new ParticleSimulation(entities, SEED, KernelChoice.VECTOR));
        }
        if (all || selected.equals("jtecsScalarFrame")) {
            jtecsScalar = new Jtecs(new ParticleSimulation(entities, SEED, KernelChoice.SCALAR));
        }
        if (all || selected.equals("jtecsSeparateFrame")) {
            jtecsSeparate = new Jtecs(new ParticleSimulation(entities, SEED, KernelChoice.VECTOR, 1, null,
                    ParticleSimulation.Passes.SEPARATE));
        }
        if (all || selected.equals("jtecsTwoThreadsFrame")) {
            jtecsTwoThreads = new Jtecs(new ParticleSimulation(entities, SEED, KernelChoice.VECTOR, 2));
        }
        if (all || selected.equals("plainArrayFusedFrame")) {
            plainArrayFused = new PlainArrayFusedParticles(entities, SEED);
        }
        if (all || selected.equals("plainArrayFusedTwoThreadsFrame")) {
            plainArrayFusedTwoThreads = new PlainArrayFusedParticles(entities, SEED, 2);
        }
        if (EngineUnderTest.needs(selected, "dominion")) {
            dominion = new DominionParticles(entities, SEED);
        }
        if (EngineUnderTest.needs(selected, "artemis")) {
            artemis = new ArtemisParticles(entities, SEED);
        }
        if (EngineUnderTest.needs(selected, "ashley")) {
            ashley = new AshleyParticles(entities, SEED);
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        for (ParticleFrame frame : new ParticleFrame[] {jtecs, jtecsScalar, jtecsSeparate, jtecsTwoThreads,
            plainArrayFused, plainArrayFusedTwoThreads, dominion, artemis, ashley}) {
            if (frame != null) {
                frame.close();
            }
        }
    }

    @Benchmark
    public void jtecsFrame() {
        jtecs.frame();
    }

    @Benchmark
    public void jtecsScalarFrame() {
        jtecsScalar.frame();
    }

    @Benchmark
    public void jtecsSeparateFrame() {
        jtecsSeparate.frame();
    }

    @Benchmark
    public void jtecsTwoThreadsFrame() {
        jtecsTwoThreads.frame();
    }

    @Benchmark
    public void plainArrayFusedFrame() {
        plainArrayFused.frame();
    }

    @Benchmark
    public void plainArrayFusedTwoThreadsFrame() {
        plainArrayFusedTwoThreads.frame();
    }

    @Benchmark
    public void dominionFrame() {
        dominion.frame();
    }

    @Benchmark
    public void artemisFrame() {
        artemis.frame();
    }

    @Benchmark
    public void ashleyFrame() {
        ashley.frame();
    }

    /** jtecs's side: the simulation the command line runs, as a {@link ParticleFrame}. */
    static final class Jtecs implements ParticleFrame {
        private final ParticleSimulation simulation;

        Jtecs(ParticleSimulation simulation) {
            this.simulation = simulation;
        }

        @Override
        public void frame() {
            simulation.frame();
        }

        @Override
        public int liveCount() {
            return simulation.liveCount();
        }

        @Override
        public long expired() {
            return simulation.expired();
        }

        @Override
        public long extractedBytes() {
            return simulation.extractor().lastBytes();
        }

        @Override
        public ParticleSnapshot snapshot() {
            return simulation.snapshot();
        }

        @Override
        public void close() {
            simulation.close();
        }
    }
}
