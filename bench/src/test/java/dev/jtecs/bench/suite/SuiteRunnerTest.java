package dev.jtecs.bench.suite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.bench.results.BenchResult;
import dev.jtecs.storage.ViewChecks;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.AverageTimeResult;
import org.openjdk.jmh.results.ResultRole;
import org.openjdk.jmh.results.ScalarResult;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.Options;

class SuiteRunnerTest {
    @Test
    void forksGetTheVectorNativeAndUnsafeFlagsAndTheGcProfiler() {
        Workload w = Workloads.find("sparse_delta").orElseThrow();
        Options o = SuiteRunner.options(w, Profile.QUICK, w.effectiveParams(true, Map.of()), false);
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
    void checkViewsAppendsTheSwitchToEveryForksOptions() {
        Workload w = Workloads.find("integrate").orElseThrow();
        Options o = SuiteRunner.options(w, Profile.QUICK, w.effectiveParams(true, Map.of()), true);
        List<String> expected = new java.util.ArrayList<>(SuiteRunner.FORK_JVM_ARGS);
        expected.add("-Djtecs.checkViews=true");
        assertEquals(expected, List.copyOf(o.getJvmArgs().get()));
        assertEquals(expected, SuiteRunner.forkJvmArgs(true));
        assertEquals(SuiteRunner.FORK_JVM_ARGS, SuiteRunner.forkJvmArgs(false));
    }

    @Test
    void profilingAddsAsyncProfilerWithTheLibraryTheCpuEventAndADirectoryPerWorkload() {
        Workload w = Workloads.find("integrate").orElseThrow();
        Path library = Path.of("/tmp/p/libasyncProfiler.so");
        Path profiles = Path.of("/tmp/out/profiles");
        Options o = SuiteRunner.options(w, Profile.QUICK, w.effectiveParams(true, Map.of()), false,
                new SuiteRunner.Profiling(library, profiles));
        assertEquals(List.of("GCProfiler", "AsyncProfiler"), o.getProfilers().stream()
                .map(p -> p.getKlass().substring(p.getKlass().lastIndexOf('.') + 1)).toList());
        assertEquals("libPath=/tmp/p/libasyncProfiler.so;event=cpu;interval=1000000;output=flamegraph,collapsed,text;"
                + "flat=25;traces=0;dir=/tmp/out/profiles/integrate", o.getProfilers().get(1).getOpts());
        assertEquals(SuiteRunner.FORK_JVM_ARGS, List.copyOf(o.getJvmArgs().get()), "the forks' flags as without");
        assertEquals(1, SuiteRunner.options(w, Profile.QUICK, w.effectiveParams(true, Map.of()), false)
                .getProfilers().size(), "no profiler unless asked");
    }

    @Test
    void aProfilingPathWithASemicolonIsRefusedSinceJmhSplitsItsOptionsThere() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new SuiteRunner.Profiling(Path.of("/tmp/a;b/lib.so"), Path.of("/tmp/out")));
        assertTrue(e.getMessage().contains("/tmp/a;b/lib.so holds a ';'"), e.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> new SuiteRunner.Profiling(Path.of("/tmp/lib.so"), Path.of("/tmp/o;ut")));
    }

    @Test
    void aRowSaysWhetherItRanCheckedForksAsAskedAndThisJvmAsItIs() {
        Profile forked = Profile.QUICK;
        Profile here = new Profile("custom", 0, 0, java.time.Duration.ofMillis(1), 1, java.time.Duration.ofMillis(1),
                false);
        assertTrue(SuiteRunner.viewsChecked(forked, true));
        assertFalse(SuiteRunner.viewsChecked(forked, false));
        assertEquals(ViewChecks.ENABLED, SuiteRunner.viewsChecked(here, false), "no fork: this JVM's own switch");
        assertEquals(ViewChecks.ENABLED, SuiteRunner.viewsChecked(here, true));
    }

    @Test
    void aForkRunsWithTheViewChecksOnlyWhenAsked() throws RunnerException {
        System.setProperty("jmh.ignoreLock", "true"); // other builds on this machine may hold JMH's lock
        Profile oneFork = new Profile("custom", 1, 0, java.time.Duration.ofMillis(1), 1,
                java.time.Duration.ofMillis(10), false);
        java.io.PrintWriter log = new java.io.PrintWriter(new java.io.StringWriter(), true);
        List<BenchResult> checked = new SuiteRunner(log, true).run(List.of(ViewChecksProbe.WORKLOAD), oneFork,
                Map.of());
        assertEquals(1, checked.size(), checked.toString());
        assertFalse(checked.get(0).isFailed(), "the fork had the checks on: " + checked.get(0));
        assertTrue(checked.get(0).checkedViews(), checked.get(0).toString());
        List<BenchResult> unchecked = new SuiteRunner(log, false).run(List.of(ViewChecksProbe.WORKLOAD), oneFork,
                Map.of()); // this JVM runs checked (surefire), and the fork still does not inherit it
        assertEquals("java.lang.IllegalStateException: " + ViewChecksProbe.OFF, unchecked.get(0).failure());
        assertFalse(unchecked.get(0).checkedViews(), unchecked.get(0).toString());
    }

    @Test
    void aFailingBenchmarkCostsOnlyItsOwnRowInThisJvm() throws RunnerException {
        List<BenchResult> rows = runFailingProbe(0, Map.of());
        assertEquals(List.of("failing_probe 1 jtecs", "failing_probe 1 plain-array", "failing_probe 2 jtecs",
                "failing_probe 2 plain-array"), rows.stream().map(r -> r.workload() + " " + r.entities() + " "
                + r.impl()).toList());
        for (BenchResult r : rows.subList(0, 3)) {
            assertFalse(r.isFailed(), r.toString());
            assertTrue(r.nsPerEntity() > 0 && r.allocBytesPerOp() >= 0, r.toString());
        }
        assertEquals(BenchResult.failed("failing_probe", 2, "plain-array", 1,
                "java.lang.IllegalStateException: " + FailingBenchmark.MESSAGE)
                .withCheckedViews(ViewChecks.ENABLED), rows.get(3), "in this JVM: its own checks");
    }

    @Test
    void aFailureInAForkIsRelayedAndTheRunGoesOn() throws RunnerException {
        List<BenchResult> rows = runFailingProbe(1, Map.of("entities", List.of("2")));
        assertEquals(2, rows.size(), rows.toString());
        assertFalse(rows.get(0).isFailed(), rows.get(0).toString());
        assertEquals("jtecs", rows.get(0).impl());
        assertEquals("java.lang.IllegalStateException: " + FailingBenchmark.MESSAGE, rows.get(1).failure());
    }

    private static List<BenchResult> runFailingProbe(int forks, Map<String, List<String>> overrides)
            throws RunnerException {
        System.setProperty("jmh.ignoreLock", "true"); // other builds on this machine may hold JMH's lock
        java.io.StringWriter log = new java.io.StringWriter();
        List<BenchResult> rows = new SuiteRunner(new java.io.PrintWriter(log, true)).run(
                List.of(FailingBenchmark.WORKLOAD), new Profile("custom", forks, 0, java.time.Duration.ofMillis(1), 1,
                        java.time.Duration.ofMillis(10), false), overrides);
        assertTrue(log.toString().contains("== failing_probe: 1 of " + rows.size() + " benchmarks failed; the "
                + "others stand:"), log.toString());
        return rows;
    }

    @Test
    void everyExpectedBenchmarkJmhReturnedNothingForIsAFailedRow() {
        Workload w = FailingBenchmark.WORKLOAD;
        Map<String, List<String>> params = Map.of("entities", List.of("1", "2"));
        String failedKey = JmhFailures.key(FailingBenchmark.class.getName() + ".plainArray", Map.of("entities", "2"));
        List<BenchResult> rows = SuiteRunner.sorted(SuiteRunner.toResults(w, params, List.of(),
                Map.of(failedKey, "java.lang.IllegalStateException: boom")));
        assertEquals(List.of(
                BenchResult.failed("failing_probe", 1, "jtecs", 1, SuiteRunner.NO_RESULT),
                BenchResult.failed("failing_probe", 1, "plain-array", 1, SuiteRunner.NO_RESULT),
                BenchResult.failed("failing_probe", 2, "jtecs", 1, SuiteRunner.NO_RESULT),
                BenchResult.failed("failing_probe", 2, "plain-array", 1, "java.lang.IllegalStateException: boom")),
                rows);
    }

    @Test
    void theBytesCounterGivesTheBytesPerOperation() {
        // 10 operations and 5,000 counted bytes in the same 1,000 ns: 100 ns/op and 0.2 ns per byte
        AverageTimeResult primary = new AverageTimeResult(ResultRole.PRIMARY, "op", 10, 1_000, TimeUnit.NANOSECONDS);
        AverageTimeResult bytes = new AverageTimeResult(ResultRole.SECONDARY, SuiteRunner.BYTES, 5_000, 1_000,
                TimeUnit.NANOSECONDS);
        assertEquals(500.0, SuiteRunner.bytesPerOp(primary, bytes), 1e-9);
        BenchResult row = new BenchResult("snapshot_save", 10, "jtecs", primary.getScore() / 10, 0, 0, 1)
                .withBytesPerOp(SuiteRunner.bytesPerOp(primary, bytes));
        assertEquals(5.0, row.gbPerSecond(), 1e-12, "500 bytes in 100 ns");
        assertTrue(Double.isNaN(SuiteRunner.bytesPerOp(primary, null)), "a benchmark that counts no bytes");
        AverageTimeResult none = new AverageTimeResult(ResultRole.SECONDARY, SuiteRunner.BYTES, 0, 1_000,
                TimeUnit.NANOSECONDS);
        assertTrue(Double.isNaN(SuiteRunner.bytesPerOp(primary, none)), "one that counted none");
        ScalarResult events = new ScalarResult(SuiteRunner.BYTES, 5_000, "#", AggregationPolicy.SUM);
        IllegalStateException wrongType = assertThrows(IllegalStateException.class,
                () -> SuiteRunner.bytesPerOp(primary, events));
        assertTrue(wrongType.getMessage().contains("OPERATIONS-type"), wrongType.getMessage());
    }

    @Test
    void combinationsCoverEveryValueOfEveryParameter() {
        assertEquals(List.of(Map.of("a", "1", "b", "x"), Map.of("a", "1", "b", "y"), Map.of("a", "2", "b", "x"),
                Map.of("a", "2", "b", "y")),
                SuiteRunner.combinations(Map.of("b", List.of("x", "y"), "a", List.of("1", "2"))));
        assertEquals(List.of(Map.of()), SuiteRunner.combinations(Map.of()));
    }

    @Test
    void jmhGoesOnAfterAFailure() {
        Workload w = Workloads.find("spawn_single").orElseThrow();
        assertFalse(SuiteRunner.options(w, Profile.FULL, w.effectiveParams(false, Map.of()), false)
                .shouldFailOnError().get());
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
