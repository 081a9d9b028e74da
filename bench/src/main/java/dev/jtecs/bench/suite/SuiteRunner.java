package dev.jtecs.bench.suite;

import dev.jtecs.bench.results.BenchResult;
import dev.jtecs.bench.results.Impls;
import dev.jtecs.storage.ViewChecks;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.profile.AsyncProfiler;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * Runs workloads through JMH's {@link Runner}, one JMH invocation per workload (each with its own parameter
 * values), with the GC profiler on, and turns every JMH result into a {@link BenchResult}.
 *
 * <p>Forks run the JVM that runs this, on its class path (the shaded {@code jtecs.jar}), with
 * {@link #FORK_JVM_ARGS}, then {@link #CHECK_VIEWS_ARG} when the runner was asked to check views; each benchmark
 * class's own {@code jvmArgsAppend} still follows them. Every row records whether its benchmark ran checked
 * ({@link BenchResult#checkedViews}): with forks, whether they got the switch; with no fork (tests), whether this
 * JVM has the checks on. Scores are taken
 * in nanoseconds per operation and divided by the workload's entity count; the GC profiler's
 * {@code gc.alloc.rate.norm} becomes the allocation per operation; a benchmark that counts the bytes it moves in
 * an operations-type {@code @AuxCounters} field named {@value #BYTES} gets its bytes per operation (and so its
 * GB/s) from it.
 *
 * <p>A failing benchmark costs only its own row: JMH runs with {@code shouldFailOnError(false)}, so it goes on
 * to the next benchmark, and the runner compares the benchmarks it asked for (every method of the workload
 * with every combination of its parameter values) with the results JMH returned. Each one missing, or reported
 * failed in JMH's output ({@link JmhFailures}) even though some fork returned figures, becomes a failed row
 * ({@link BenchResult#failed}) carrying the first line of its exception, or {@value #NO_RESULT} when JMH said
 * nothing more.
 */
public final class SuiteRunner {
    /** The JVM options every fork gets: the Vector API, native access, and no Unsafe warning. */
    public static final List<String> FORK_JVM_ARGS = List.of("--add-modules", "jdk.incubator.vector",
            "--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow");

    /** The option that turns jtecs' checked view mode on in a fork ({@code jtecs bench --check-views}). */
    public static final String CHECK_VIEWS_ARG = "-Djtecs.checkViews=true";

    /** The secondary result of JMH's GC profiler that is the bytes allocated per operation. */
    static final String ALLOC_NORM = "gc.alloc.rate.norm";

    /**
     * The {@code @AuxCounters(OPERATIONS)} field a benchmark adds each operation's bytes to. JMH reports such a
     * counter in average-time mode as the time per counted unit, here ns per byte over the same time as the
     * primary score, so the primary score over it is the bytes per operation.
     */
    public static final String BYTES = "bytes";

    /** The reason of a failed row when JMH returned no result and printed no failure for it. */
    static final String NO_RESULT = "no result (JMH returned none and reported no exception; see its output)";

    private final PrintWriter log;
    private final boolean checkViews;
    private final Profiling profiling;

    /**
     * CPU profiles of every benchmark by async-profiler ({@code jtecs bench --profile}): JMH's
     * {@link AsyncProfiler} loads {@code library} ({@link AsyncProfilerLibrary}) into each fork and writes, per
     * workload under {@code directory}, a directory per benchmark with a flame graph ({@code flame-cpu-*.html}),
     * the collapsed stacks ({@code collapsed-cpu.csv}) and the top frames ({@code summary-cpu.txt}), sampling
     * every {@link #PROFILE_INTERVAL_NANOS} ns of CPU time.
     */
    public record Profiling(Path library, Path directory) {
        public Profiling {
            java.util.Objects.requireNonNull(library, "library");
            java.util.Objects.requireNonNull(directory, "directory");
            for (Path p : List.of(library, directory)) {
                if (p.toString().contains(";")) { // JMH splits the profiler's options at ';'
                    throw new IllegalArgumentException("--profile: the path " + p + " holds a ';', which JMH's "
                            + "profiler options cannot carry; use --out with a path without one");
                }
            }
        }

        /** JMH's option string for the profiler of workload {@code w}. */
        String options(Workload w) {
            return "libPath=" + library + ";event=cpu;interval=" + PROFILE_INTERVAL_NANOS
                    + ";output=flamegraph,collapsed,text;flat=" + PROFILE_TOP_FRAMES + ";traces=0;dir="
                    + directory.resolve(w.name());
        }
    }

    /**
     * The sampling interval of {@code --profile}: 1 ms of CPU time, about 10,000 samples a benchmark in the full
     * profile, for a cost of a few per cent (the staged {@code remove} at 16,384 entities, alternating runs: 174
     * and 191 µs without, 186 and 208 µs with; a 50 µs interval made it take 1.2 ms).
     */
    static final long PROFILE_INTERVAL_NANOS = 1_000_000;

    /** How many of the hottest frames the profile's text summary lists. */
    static final int PROFILE_TOP_FRAMES = 25;

    /** A runner that reports each workload's start on {@code log} (JMH prints its own progress on standard out). */
    public SuiteRunner(PrintWriter log) {
        this(log, false);
    }

    /** A runner whose forks run with the view checks on when {@code checkViews} ({@link #CHECK_VIEWS_ARG}). */
    public SuiteRunner(PrintWriter log, boolean checkViews) {
        this(log, checkViews, null);
    }

    /** {@link #SuiteRunner(PrintWriter, boolean)} that also profiles every benchmark, unless {@code profiling} is null. */
    public SuiteRunner(PrintWriter log, boolean checkViews, Profiling profiling) {
        this.log = java.util.Objects.requireNonNull(log, "log");
        this.checkViews = checkViews;
        this.profiling = profiling;
    }

    /**
     * Whether a run with {@code profile} measures with the view checks on: with forks, whether they are asked to
     * ({@code checkViews}); with none, whether this JVM has them on, whatever was asked.
     */
    public static boolean viewsChecked(Profile profile, boolean checkViews) {
        return profile.forks() == 0 ? ViewChecks.ENABLED : checkViews;
    }

    /** The JVM options of every fork: {@link #FORK_JVM_ARGS}, and {@link #CHECK_VIEWS_ARG} when asked. */
    public static List<String> forkJvmArgs(boolean checkViews) {
        if (!checkViews) {
            return FORK_JVM_ARGS;
        }
        List<String> args = new ArrayList<>(FORK_JVM_ARGS);
        args.add(CHECK_VIEWS_ARG);
        return List.copyOf(args);
    }

    /**
     * Runs {@code workloads} with {@code profile}; {@code overrides} replace parameter values where a workload
     * has that parameter. A benchmark that throws, or for which JMH returns nothing, comes back as a failed row
     * and the run goes on.
     *
     * @return every row, measured or failed, workload by workload in the given order, then by workload label,
     *     entities and implementation
     * @throws RunnerException when JMH itself cannot run (it finds no benchmark, or another run holds its lock
     *     for longer than {@link #LOCK_WAIT})
     */
    public List<BenchResult> run(List<Workload> workloads, Profile profile, Map<String, List<String>> overrides)
            throws RunnerException {
        List<BenchResult> results = new ArrayList<>();
        boolean checked = viewsChecked(profile, checkViews);
        for (int i = 0; i < workloads.size(); i++) {
            Workload w = workloads.get(i);
            Map<String, List<String>> params = w.effectiveParams(profile.quickParams(), overrides);
            log.printf("%n== [%d/%d] %s: %d benchmarks %s%n", i + 1, workloads.size(), w.name(),
                    w.benchmarkCount(params), params);
            log.flush();
            JmhFailures failures =
                    new JmhFailures(OutputFormatFactory.createFormatInstance(System.out, VerboseMode.NORMAL));
            Collection<RunResult> runs =
                    runWhenJmhIsFree(options(w, profile, params, checkViews, profiling), failures);
            List<BenchResult> rows = sorted(toResults(w, params, runs, failures.reasons())).stream()
                    .map(r -> r.withCheckedViews(checked)).toList();
            List<BenchResult> failed = rows.stream().filter(BenchResult::isFailed).toList();
            if (!failed.isEmpty()) {
                log.printf("== %s: %d of %d benchmarks failed; the others stand:%n", w.name(), failed.size(),
                        rows.size());
                for (BenchResult r : failed) {
                    log.printf("   %s %,d %s: %s%n", r.workload(), r.entities(), r.impl(), r.failure());
                }
                log.flush();
            }
            results.addAll(rows);
        }
        return results;
    }

    /**
     * Runs JMH, waiting while another JMH process on this machine holds its lock ({@code jmh.lock} in the
     * temporary directory: two benchmark runs at once would disturb each other) for at most
     * {@link #LOCK_WAIT}; JMH itself would give up at once.
     */
    private Collection<RunResult> runWhenJmhIsFree(org.openjdk.jmh.runner.options.Options options,
            JmhFailures output) throws RunnerException {
        long deadline = System.nanoTime() + LOCK_WAIT.toNanos();
        boolean told = false;
        while (true) {
            try {
                return new Runner(options, output).run();
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

    /** The JMH options for one workload; its forks get {@link #forkJvmArgs} of {@code checkViews}. */
    static org.openjdk.jmh.runner.options.Options options(Workload w, Profile profile,
            Map<String, List<String>> params, boolean checkViews) {
        return options(w, profile, params, checkViews, null);
    }

    /** {@link #options(Workload, Profile, Map, boolean)} with async-profiler on, unless {@code profiling} is null. */
    static org.openjdk.jmh.runner.options.Options options(Workload w, Profile profile,
            Map<String, List<String>> params, boolean checkViews, Profiling profiling) {
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
                .jvmArgs(forkJvmArgs(checkViews).toArray(String[]::new))
                .shouldFailOnError(false); // a failing benchmark costs its own row only: see toResults
        if (profiling != null) {
            options.addProfiler(AsyncProfiler.class, profiling.options(w));
        }
        params.forEach((name, values) -> options.param(name, values.toArray(String[]::new)));
        return options.build();
    }

    /**
     * One row per benchmark of workload {@code w} run with {@code params}: each method with each combination of
     * the parameter values. A JMH result becomes a measured row, unless {@code reasons} (by
     * {@link JmhFailures#key}) says that benchmark failed; a benchmark JMH returned nothing for becomes a failed
     * row with its reason, or {@link #NO_RESULT}.
     */
    static List<BenchResult> toResults(Workload w, Map<String, List<String>> params, Collection<RunResult> runs,
            Map<String, String> reasons) {
        List<BenchResult> results = new ArrayList<>();
        java.util.Set<String> returned = new java.util.HashSet<>();
        for (RunResult run : runs) {
            String key = JmhFailures.key(run.getParams());
            returned.add(key);
            String reason = reasons.get(key);
            results.add(reason == null ? measured(w, run) : failed(w, method(run.getParams().getBenchmark()),
                    values(run.getParams()), reason));
        }
        for (String method : w.impls().keySet()) {
            for (Map<String, String> combination : combinations(params)) {
                String key = JmhFailures.key(w.benchmark().getName() + "." + method, combination);
                if (!returned.contains(key)) {
                    results.add(failed(w, method, combination, reasons.getOrDefault(key, NO_RESULT)));
                }
            }
        }
        return results;
    }

    /** Every combination of one value per parameter, in declaration order of the values; one empty map if none. */
    static List<Map<String, String>> combinations(Map<String, List<String>> params) {
        List<Map<String, String>> combinations = new ArrayList<>(List.of(Map.of()));
        for (Map.Entry<String, List<String>> p : new TreeMap<>(params).entrySet()) {
            List<Map<String, String>> next = new ArrayList<>();
            for (Map<String, String> partial : combinations) {
                for (String value : p.getValue()) {
                    Map<String, String> combination = new TreeMap<>(partial);
                    combination.put(p.getKey(), value);
                    next.add(combination);
                }
            }
            combinations = next;
        }
        return combinations;
    }

    private static String method(String benchmark) {
        return benchmark.substring(benchmark.lastIndexOf('.') + 1);
    }

    private static Map<String, String> values(BenchmarkParams p) {
        Map<String, String> params = new TreeMap<>();
        for (String key : p.getParamsKeys()) {
            params.put(key, p.getParam(key));
        }
        return params;
    }

    private static String impl(Workload w, String method) {
        String impl = w.impls().get(method);
        if (impl == null) {
            throw new IllegalStateException("workload " + w.name() + ": no impl for benchmark method " + method);
        }
        return impl;
    }

    private static int threads(Map<String, String> params, int fallback) {
        return params.containsKey(Workload.THREADS_PARAM) ? Integer.parseInt(params.get(Workload.THREADS_PARAM))
                : fallback;
    }

    private static BenchResult failed(Workload w, String method, Map<String, String> params, String reason) {
        return BenchResult.failed(w.label(params), Long.parseLong(params.get(w.entitiesParam())), impl(w, method),
                threads(params, 1), reason);
    }

    private static BenchResult measured(Workload w, RunResult run) {
        BenchmarkParams p = run.getParams();
        String benchmark = p.getBenchmark();
        Map<String, String> params = values(p);
        long entities = Long.parseLong(params.get(w.entitiesParam()));
        Result<?> primary = run.getPrimaryResult();
        if (!primary.getScoreUnit().equals("ns/op")) {
            throw new IllegalStateException(benchmark + " scored in " + primary.getScoreUnit() + ", not ns/op");
        }
        Result<?> alloc = run.getSecondaryResults().get(ALLOC_NORM);
        return new BenchResult(w.label(params), entities, impl(w, method(benchmark)), primary.getScore() / entities,
                primary.getScoreError() / entities, alloc == null ? Double.NaN : alloc.getScore(),
                threads(params, p.getThreads()), null, bytesPerOp(primary, run.getSecondaryResults().get(BYTES)));
    }

    /**
     * The bytes one operation moved: the primary score (ns per operation) over the {@link #BYTES} counter's (ns
     * per byte), or {@code NaN} when the benchmark counts no bytes (or counted none).
     */
    public static double bytesPerOp(Result<?> primary, Result<?> bytes) {
        if (bytes == null || !(bytes.getScore() > 0) || !Double.isFinite(bytes.getScore())) {
            return Double.NaN;
        }
        if (!bytes.getScoreUnit().equals(primary.getScoreUnit())) {
            throw new IllegalStateException("the " + BYTES + " counter scored in " + bytes.getScoreUnit() + ", not "
                    + primary.getScoreUnit() + " (it must be an OPERATIONS-type @AuxCounters field)");
        }
        double perOp = primary.getScore() / bytes.getScore();
        return perOp > 0 && Double.isFinite(perOp) ? perOp : Double.NaN;
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
