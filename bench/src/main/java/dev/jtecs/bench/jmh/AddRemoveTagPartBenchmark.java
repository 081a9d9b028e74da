package dev.jtecs.bench.jmh;

import com.badlogic.ashley.core.Engine;
import dev.dominion.ecs.api.Dominion;
import dev.jtecs.world.World;
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
 * {@code add_remove_tag_part}: {@link AddRemoveTagBenchmark}'s round trip on part of an archetype: N entities,
 * every {@value #SPREAD}th of an archetype of {@value #SPREAD} x N, get the tag one by one, commit, lose it one by
 * one, commit. The usual case in a game (a tag on the enemies in range, not on every enemy), and the one the
 * whole-archetype form of {@code add_remove_tag} does not reach: jtecs moves each changed entity's row alone.
 * Time is per changed entity (ns per entity = time / N); the sizes are the changed entities, 4,096 and 65,536, in
 * archetypes of 65,536 and 1,048,576.
 *
 * <p>The same calls, barriers and fairness as {@link AddRemoveTagBenchmark}, which builds each engine's
 * population: jtecs on its staged ({@code jtecs}) and its instant path ({@code jtecsInstant},
 * {@code jtecs-instant}), and the three peers.
 *
 * <p>Goal (ours, in the spirit of issue 19's {@code add_remove_tag}): {@code jtecs} at most 1.0x the fastest Java
 * peer at both sizes, and cost flat in N (65,536 within 1.3x of 4,096 per entity): a scope that changes part of an
 * archetype must cost per entity what one that changes all of it does, give or take the row copies. It also
 * guards against a cost that grows with N per entity, as a commit of such a scope once did (each move rescanned
 * the rest of its run: quadratic).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector",
    "--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow",
    "-Ddominion.show-banner=false", "-Ddominion.logging-level=WARNING"})
@State(Scope.Thread)
public class AddRemoveTagPartBenchmark {
    /** One changed entity in this many of the archetype. */
    static final int SPREAD = 16;

    @Param({"4096", "65536"})
    public int entities;

    /** The population and the passes, over {@code entities * SPREAD} entities of which every SPREAD-th changes. */
    final AddRemoveTagBenchmark passes = new AddRemoveTagBenchmark();

    @Setup(Level.Trial)
    public void setUp(BenchmarkParams params) {
        setUp(EngineUnderTest.of(params));
    }

    /** Builds and populates the world of the engine {@code selected} measures ({@link EngineUnderTest}). */
    void setUp(String selected) {
        passes.entities = entities;
        passes.setUp(selected, SPREAD);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        passes.tearDown();
    }

    /** jtecs, staged: the tag on each changed entity in one {@code defer} scope, then off again in another. */
    @Benchmark
    public World jtecs() {
        return passes.jtecs();
    }

    /** jtecs, instant: the same calls outside any scope, each move published before its call returns. */
    @Benchmark
    public World jtecsInstant() {
        return passes.jtecsInstant();
    }

    /** Fairness: as {@link AddRemoveTagBenchmark#dominion}. */
    @Benchmark
    public Dominion dominion() {
        return passes.dominion();
    }

    /** Fairness: as {@link AddRemoveTagBenchmark#artemis}. */
    @Benchmark
    public com.artemis.World artemis() {
        return passes.artemis();
    }

    /** Fairness: as {@link AddRemoveTagBenchmark#ashley}. */
    @Benchmark
    public Engine ashley() {
        return passes.ashley();
    }
}
