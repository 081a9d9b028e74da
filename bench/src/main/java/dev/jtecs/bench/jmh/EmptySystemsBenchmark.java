package dev.jtecs.bench.jmh;

import dev.jtecs.builtin.systems.BuiltinSystems;
import dev.jtecs.schedule.Phases;
import dev.jtecs.schedule.RunIf;
import dev.jtecs.schedule.SystemBody;
import dev.jtecs.schedule.SystemConfig;
import dev.jtecs.world.World;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * {@code empty_systems}: the scheduler's cost per system. A frame of {@value #SYSTEMS} systems whose bodies only
 * count their calls, in {@code UPDATE}, each third one constrained to run after an earlier one; every figure is
 * per system ({@link OperationsPerInvocation}).
 *
 * <ul>
 *   <li>{@code frame}: {@code world.update(dt)}, the whole frame: unwind, every predefined phase and its barrier,
 *       one fixed step, clearing dirty bits. The fixed cost of a frame is spread over the systems.
 *   <li>{@code phase}: {@code runPhase(UPDATE)}, the dispatch loop alone.
 *   <li>{@code phaseWithRunIf}: the same, every system gated by a condition that always holds.
 *   <li>{@code directCalls}: the baseline, the same bodies called from a plain array.
 * </ul>
 *
 * No peer engine is measured: Artemis and Ashley key systems by class, so a hundred systems would need a hundred
 * classes, which measures class loading as much as scheduling.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector",
    "--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow"})
@State(Scope.Thread)
public class EmptySystemsBenchmark {
    static final int SYSTEMS = 100;
    static final double DT = 1 / 60.0;

    World plain;
    World gated;
    int runs;
    private SystemBody[] bodies;

    @Setup(Level.Trial)
    public void setUp() {
        plain = World.create();
        gated = World.create();
        BuiltinSystems.remove(plain); // the scheduler's cost alone: no builtin system's query in the frame
        BuiltinSystems.remove(gated);
        bodies = new SystemBody[SYSTEMS];
        SystemBody body = (dt, world) -> runs++;
        RunIf always = (dt, world, name) -> true;
        for (int i = 0; i < SYSTEMS; i++) {
            bodies[i] = body;
            SystemConfig config = SystemConfig.named("bench.s" + i).phase(Phases.UPDATE).run(body);
            if (i % 3 == 2) {
                config = config.after("bench.s" + (i - 2));
            }
            plain.addSystem(config);
            gated.addSystem(config.runIf(always));
        }
        plain.update(DT); // compiles the schedules outside the measurement
        gated.update(DT);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        plain.close();
        gated.close();
    }

    @Benchmark
    @OperationsPerInvocation(SYSTEMS)
    public int frame() {
        plain.update(DT);
        return runs;
    }

    @Benchmark
    @OperationsPerInvocation(SYSTEMS)
    public int phase() {
        plain.runPhase(Phases.UPDATE, DT);
        return runs;
    }

    @Benchmark
    @OperationsPerInvocation(SYSTEMS)
    public int phaseWithRunIf() {
        gated.runPhase(Phases.UPDATE, DT);
        return runs;
    }

    @Benchmark
    @OperationsPerInvocation(SYSTEMS)
    public int directCalls() {
        for (SystemBody body : bodies) {
            body.run(DT, plain);
        }
        return runs;
    }
}
