package dev.jtecs.bench.suite;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Test support: a JMH class with one benchmark that fails on purpose at one size, as a peer that breaks its own
 * limits would. {@code plainArray} throws at {@code entities=2}; every other benchmark ({@code jtecs} at both
 * sizes, {@code plainArray} at 1) runs, so a run through the suite must return three measured rows and one failed.
 * Compiled into the test classes only: the shaded {@code jtecs.jar} never lists it.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 0)
@Measurement(iterations = 1, time = 10, timeUnit = TimeUnit.MILLISECONDS)
@Fork(1)
@State(Scope.Thread)
public class FailingBenchmark {
    /** The message of the deliberate failure. */
    public static final String MESSAGE = "deliberate failure at entities=2";

    /** The workload over this class, with two impl names of the suite. */
    public static final Workload WORKLOAD = Workload.of("failing_probe", FailingBenchmark.class,
            Workloads.impls("jtecs", "jtecs", "plainArray", "plain-array"));

    @Param({"1", "2"})
    public int entities;

    @Benchmark
    public int jtecs() {
        return entities;
    }

    @Benchmark
    public int plainArray() {
        if (entities == 2) {
            throw new IllegalStateException(MESSAGE);
        }
        return entities;
    }
}
