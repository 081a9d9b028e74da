package dev.jtecs.bench.suite;

import dev.jtecs.storage.ViewChecks;
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
 * Test support: a JMH class whose one benchmark fails unless jtecs' view checks are on in the JVM it runs in, so a
 * forked run through the suite tells whether the fork got {@code -Djtecs.checkViews=true}. Compiled into the test
 * classes only.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 0)
@Measurement(iterations = 1, time = 10, timeUnit = TimeUnit.MILLISECONDS)
@Fork(1)
@State(Scope.Thread)
public class ViewChecksProbe {
    /** The failure of a run whose view checks are off. */
    public static final String OFF = "view checks are off in this JVM";

    /** The workload over this class. */
    public static final Workload WORKLOAD = Workload.of("view_checks_probe", ViewChecksProbe.class,
            Workloads.impls("jtecs", "jtecs"));

    @Param({"1"})
    public int entities;

    @Benchmark
    public int jtecs() {
        if (!ViewChecks.ENABLED) {
            throw new IllegalStateException(OFF);
        }
        return entities;
    }
}
