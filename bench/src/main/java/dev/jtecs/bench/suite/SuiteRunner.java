package dev.jtecs.bench.suite;

import dev.jtecs.bench.results.BenchResult;
import dev.jtecs.bench.results.Impls;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Runs workloads through JMH's {@link Runner}, one JMH invocation per workload (each with its own parameter
 * values), with the GC profiler on, and turns every JMH result into a {@link BenchResult}.
 *
 * <p>Forks run the JVM that runs this, on its class path (the shaded {@code jtecs.jar}), with
 * {@link #FORK_JVM_ARGS}; each benchmark class's own {@code jvmArgsAppend} still follows them. Scores are taken
 * in nanoseconds per operation and divided by the workload's entity count; the GC profiler's
 * {@code gc.alloc.rate.norm} becomes the allocation per operation.
 */
public final class SuiteRunner {
    /** The JVM options every fork gets: the Vector API, native access, and no Unsafe warning. */
    public static final List<String> FORK_JVM_ARGS = List.of("--add-modules", "jdk.incubator.vector",
            "--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow");

    /** The secondary result of JMH's GC profiler that is the bytes allocated per operation. */
    static final String ALLOC_NORM = "gc.alloc.rate.norm";

    private final PrintWriter log;

    /** A runner that reports each workload's start on {@code log} (JMH prints its own progress on standard out). */
    public SuiteRunner(PrintWriter log) {
        this.log = java.util.Objects.requireNonNull(log, "log");
    }

    /**
     * Runs {@code workloads} with {@code profile}; {@code overrides} replace parameter values where a workload
     * has that parameter.
     *
     * @return every result, workload by workload in the given order, then by workload label, entities and
     *     implementation
     * @throws RunnerException when JMH fails or a benchmark throws
     */
    public List<BenchResult> run(List<Workload> workloads, Profile profile, Map<String, List<String>> overrides)
            throws RunnerException {
        List<BenchResult> results = new ArrayList<>();
        for (int i = 0; i < workloads.size(); i++) {
            Workload w = workloads.get(i);
            Map<String, List<String>> params = w.effectiveParams(profile.quickParams(), overrides);
            log.printf("%n== [%d/%d] %s: %d benchmarks %s%n", i + 1, workloads.size(), w.name(),
                    w.benchmarkCount(params), params);
            log.flush();
            Collection<RunResult> runs = runWhenJmhIsFree(options(w, profile, params));
            results.addAll(sorted(toResults(w, runs)));
        }
        return results;
    }

    /**
     * Runs JMH, waiting while another JMH process on this machine holds its lock ({@code jmh.lock} in the
     * temporary directory: two benchmark runs at once would disturb each other) for at most
     * {@link #LOCK_WAIT}; JMH itself would give up at once.
     */
    private Collection<RunResult> runWhenJmhIsFree(org.openjdk.jmh.runner.options.Options options)
            throws RunnerException {
        long deadline = System.nanoTime() + LOCK_WAIT.toNanos();
        boolean told = false;
        while (true) {
            try {
                return new Runner(options).run();
            } catch (RunnerException e) {
                if (!isLockTaken(e) || System.nanoTime() > deadline) {
                    throw e;
                }
                if (!told) {
                    log.println("another JMH run holds its lock; waiting up to " + LOCK_WAIT.toMinutes()
                            + " min for it to finish (-Djmh.ignoreLock=true runs anyway, disturbed)");
                    log.flush();
                    told = true;
                }
                sleep();
            }
        }
    }

    /** How long {@link #run} waits for another JMH run to release the lock, per workload. */
    static final java.time.Duration LOCK_WAIT = java.time.Duration.ofMinutes(20);

    static boolean isLockTaken(RunnerException e) {
        return e.getMessage() != null && e.getMessage().contains("Unable to acquire the JMH lock");
    }

    private static void sleep() throws RunnerException {
        try {
            Thread.sleep(5_000);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw new RunnerException("interrupted while waiting for the JMH lock", interrupted);
        }
    }

    /** The JMH options for one workload. */
    static org.openjdk.jmh.runner.options.Options options(Workload w, Profile profile,
            Map<String, List<String>> params) {
        ChainedOptionsBuilder options = new OptionsBuilder()
                .include(w.includePattern())
                .mode(Mode.AverageTime)
                .timeUnit(TimeUnit.NANOSECONDS)
                .forks(profile.forks())
                .warmupIterations(profile.warmupIterations())
                .warmupTime(TimeValue.milliseconds(profile.warmup().toMillis()))
                .measurementIterations(profile.measurementIterations())
                .measurementTime(TimeValue.milliseconds(profile.measurement().toMillis()))
                .threads(1)
                .addProfiler(GCProfiler.class)
                .jvmArgs(FORK_JVM_ARGS.toArray(String[]::new))
                .shouldFailOnError(true);
        params.forEach((name, values) -> options.param(name, values.toArray(String[]::new)));
        return options.build();
    }

    /** One {@link BenchResult} per JMH result of workload {@code w}. */
    static List<BenchResult> toResults(Workload w, Collection<RunResult> runs) {
        List<BenchResult> results = new ArrayList<>();
        for (RunResult run : runs) {
            BenchmarkParams p = run.getParams();
            String benchmark = p.getBenchmark();
            String method = benchmark.substring(benchmark.lastIndexOf('.') + 1);
            String impl = w.impls().get(method);
            if (impl == null) {
                throw new IllegalStateException("workload " + w.name() + ": no impl for benchmark " + benchmark);
            }
            Map<String, String> params = new TreeMap<>();
            for (String key : p.getParamsKeys()) {
                params.put(key, p.getParam(key));
            }
            long entities = Long.parseLong(params.get(w.entitiesParam()));
            Result<?> primary = run.getPrimaryResult();
            if (!primary.getScoreUnit().equals("ns/op")) {
                throw new IllegalStateException(benchmark + " scored in " + primary.getScoreUnit() + ", not ns/op");
            }
            Result<?> alloc = run.getSecondaryResults().get(ALLOC_NORM);
            results.add(new BenchResult(w.label(params), entities, impl, primary.getScore() / entities,
                    primary.getScoreError() / entities, alloc == null ? Double.NaN : alloc.getScore(),
                    params.containsKey(Workload.THREADS_PARAM)
                            ? Integer.parseInt(params.get(Workload.THREADS_PARAM)) : p.getThreads()));
        }
        return results;
    }

    /** Results ordered by workload label (first seen first), entities, then {@link Impls#rank}. */
    static List<BenchResult> sorted(List<BenchResult> results) {
        List<String> labels = results.stream().map(BenchResult::workload).distinct().toList();
        return results.stream().sorted(Comparator.comparingInt((BenchResult r) -> labels.indexOf(r.workload()))
                .thenComparingLong(BenchResult::entities)
                .thenComparingInt(r -> Impls.rank(r.impl()))
                .thenComparing(BenchResult::impl)).toList();
    }
}
