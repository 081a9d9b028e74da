package dev.jtecs.bench.suite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.bench.results.BenchResult;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.Options;

class SuiteRunnerTest {
    @Test
    void forksGetTheVectorNativeAndUnsafeFlagsAndTheGcProfiler() {
        Workload w = Workloads.find("sparse_delta").orElseThrow();
        Options o = SuiteRunner.options(w, Profile.QUICK, w.effectiveParams(true, Map.of()));
        assertEquals(List.of(w.includePattern()), o.getIncludes());
        assertEquals(SuiteRunner.FORK_JVM_ARGS, List.copyOf(o.getJvmArgs().get()));
        assertTrue(SuiteRunner.FORK_JVM_ARGS.containsAll(List.of("--add-modules", "jdk.incubator.vector",
                "--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow")));
        assertEquals("GCProfiler", o.getProfilers().get(0).getKlass().substring(
                o.getProfilers().get(0).getKlass().lastIndexOf('.') + 1));
        assertEquals(1, o.getForkCount().get());
        assertEquals(1, o.getWarmupIterations().get());
        assertEquals(800, o.getWarmupTime().get().convertTo(TimeUnit.MILLISECONDS));
        assertEquals(3, o.getMeasurementIterations().get());
        assertEquals(150, o.getMeasurementTime().get().convertTo(TimeUnit.MILLISECONDS));
        assertEquals(TimeUnit.NANOSECONDS, o.getTimeUnit().get());
        assertEquals(List.of(Mode.AverageTime), List.copyOf(o.getBenchModes()));
        assertEquals(List.of("1", "16", "100"), List.copyOf(o.getParameter("dirtyArchetypes").get()));
    }

    @Test
    void recognizesOnlyJmhsLockRefusal() {
        assertTrue(SuiteRunner.isLockTaken(new RunnerException("ERROR: Another JMH instance might be running. "
                + "Unable to acquire the JMH lock (/tmp/jmh.lock), exiting. Use -Djmh.ignoreLock=true to forcefully "
                + "continue.")));
        assertFalse(SuiteRunner.isLockTaken(new RunnerException("Benchmark had encountered error")));
        assertFalse(SuiteRunner.isLockTaken(new RunnerException((String) null)));
    }

    @Test
    void sortsByWorkloadAsFirstSeenThenEntitiesThenImplRank() {
        List<BenchResult> sorted = SuiteRunner.sorted(List.of(
                new BenchResult("m[destination=populated]", 1024, "ashley", 1, 0, 0, 1),
                new BenchResult("m[destination=empty]", 1048576, "jtecs", 1, 0, 0, 1),
                new BenchResult("m[destination=populated]", 1024, "jtecs", 1, 0, 0, 1),
                new BenchResult("m[destination=empty]", 1024, "dominion", 1, 0, 0, 1)));
        assertEquals(List.of("m[destination=populated] 1024 jtecs", "m[destination=populated] 1024 ashley",
                "m[destination=empty] 1024 dominion", "m[destination=empty] 1048576 jtecs"),
                sorted.stream().map(r -> r.workload() + " " + r.entities() + " " + r.impl()).toList());
    }
}
