package dev.jtecs.bench.cli;

import dev.jtecs.bench.results.BenchResult;
import dev.jtecs.bench.results.ResultsChart;
import dev.jtecs.bench.results.ResultsJson;
import dev.jtecs.bench.results.ResultsMarkdown;
import dev.jtecs.bench.results.RunInfo;
import dev.jtecs.bench.suite.AsyncProfilerLibrary;
import dev.jtecs.bench.suite.Profile;
import dev.jtecs.bench.suite.SuiteRunner;
import dev.jtecs.bench.suite.Workload;
import dev.jtecs.bench.suite.Workloads;
import dev.jtecs.storage.ViewChecks;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.openjdk.jmh.runner.RunnerException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code jtecs bench}: runs the workloads of WORKLOADS.md through JMH, every implementation side by side, and
 * writes {@code latest.json}, {@code latest.md} and {@code latest.png} into the output directory.
 * {@code --check-views} runs the forks with jtecs' checked view mode on, and the results say so.
 *
 * <p>Exit codes: {@value #ALL_RAN} when every benchmark ran; {@value #SOME_FAILED} when some benchmark failed
 * (it threw, or JMH returned no result for it): the run goes on, every other result is written, and the failed
 * ones are marked ({@code FAILED} rows in {@code latest.md}, {@code "failed": true} objects in
 * {@code latest.json}, left out of {@code latest.png}); 2 for bad options (an unknown workload, a parameter no
 * selected workload has, a value of the wrong type, a negative count, {@code --check-views} with no fork in a JVM
 * whose checks are off, {@code --profile} off Linux x86-64 or into a path with a {@code ;}), refused before
 * anything runs;
 * {@value #RUN_FAILED} when the run itself could not go on (JMH refused to run, or the results could not be
 * written).
 */
@Command(name = "bench", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Run the benchmark workloads (jtecs beside plain baselines, Dominion, Artemis-odb and Ashley) "
                + "and write latest.json, latest.md and latest.png.",
            "Workloads: integrate, integrate_frag, integrate_parallel, iterate_read, spawn_batch, spawn_single, "
                + "add_remove_tag, add_remove_tag_part, move_whole_archetype, despawn_batch, particles, transforms, sparse_delta, "
                + "set_existing, set_new, remove, despawn_single, reparent, snapshot_save, snapshot_load.",
            "A benchmark that fails costs only its own row: the others are written, the failed ones marked."},
        exitCodeListHeading = "Exit codes:%n",
        exitCodeList = {"0:every benchmark ran; results written",
            "3:some benchmark failed; the other results written, the failed ones marked",
            "2:bad options; nothing ran",
            "1:the run could not go on (JMH refused to run, or the results could not be written)"})
public final class BenchCommand implements Callable<Integer> {
    /** Every benchmark ran and the results are written. */
    static final int ALL_RAN = 0;
    /** The run could not go on: JMH refused to run, or the results could not be written. */
    static final int RUN_FAILED = 1;
    /** Some benchmark failed; the other results are written and the failed ones marked. */
    static final int SOME_FAILED = 3;

    @Spec
    CommandSpec spec;

    /** The workloads {@code --only} selects from: {@link Workloads#ALL}, or a test's own. */
    private final List<Workload> registry;

    /** The command over every registered workload. */
    public BenchCommand() {
        this(Workloads.ALL);
    }

    /** The command over {@code registry} instead (tests). */
    BenchCommand(List<Workload> registry) {
        this.registry = List.copyOf(registry);
    }

    @Option(names = "--quick", description = "one fork, 1 × 800 ms warm-up and 3 × 150 ms measurement per "
            + "benchmark, fewer sizes: a first look (--list prints its estimate; default: the full profile, 2 forks, "
            + "5 × 1 s and 5 × 1 s, every size)")
    boolean quick;

    @Option(names = "--only", arity = "1..*", split = ",", paramLabel = "WORKLOAD",
            description = "run only these workloads (default: all)")
    List<String> only = new ArrayList<>();

    @Option(names = "--out", paramLabel = "DIR", defaultValue = "${sys:jtecs.root:-.}/bench/results",
            description = "where the results go (default: ${DEFAULT-VALUE})")
    Path out;

    @Option(names = {"-p", "--param"}, paramLabel = "NAME=V1,V2", mapFallbackValue = "",
            description = "JMH @Param values for every selected workload that has the parameter, "
                    + "such as -p entities=16384")
    Map<String, String> params = new LinkedHashMap<>();

    @Option(names = "--forks", paramLabel = "N", description = "forks per benchmark (0 runs in this JVM: tests only)")
    Integer forks;

    @Option(names = "--warmup-iterations", paramLabel = "N", description = "warm-up iterations per fork")
    Integer warmupIterations;

    @Option(names = "--iterations", paramLabel = "N", description = "measurement iterations per fork")
    Integer iterations;

    @Option(names = "--time", paramLabel = "MS", description = "length of each iteration, milliseconds")
    Integer timeMillis;

    @Option(names = "--check-views", description = "run every fork with jtecs' checked view mode on "
            + "(-Djtecs.checkViews=true), to measure what the checks cost; latest.json and latest.md say so "
            + "(default: off, as a shipped game runs)")
    boolean checkViews;

    @Option(names = "--profile", description = "profile every benchmark with async-profiler (CPU samples every "
            + "1 ms, Linux x86-64): a flame graph, collapsed stacks and the top frames per benchmark under "
            + "OUT/profiles/WORKLOAD/; the figures then include the profiler's small cost")
    boolean profile;

    @Option(names = "--list", description = "print the plan (each workload's benchmarks, estimate, parameters "
            + "and implementations, then the total estimate) and run nothing")
    boolean list;

    /**
     * The checked plan of one invocation; {@code checkedViews}: whether the benchmarks will run with the view checks
     * on ({@link SuiteRunner#viewsChecked}).
     */
    record Plan(List<Workload> workloads, Profile profile, Map<String, List<String>> overrides, int benchmarks,
            boolean checkedViews, boolean profiled) {}

    /** Where {@code --profile} writes: {@code profiles/} in the output directory. */
    Path profilesDirectory() {
        return out.resolve("profiles");
    }

    @Override
    public Integer call() {
        Plan plan = plan();
        PrintWriter out = spec.commandLine().getOut();
        printPlan(out, plan);
        out.flush();
        if (list) {
            return ALL_RAN;
        }
        try {
            Files.createDirectories(this.out);
        } catch (IOException e) {
            spec.commandLine().getErr().println("jtecs bench: cannot create " + this.out + ": " + e);
            return RUN_FAILED;
        }
        SuiteRunner.Profiling profiling = null;
        if (plan.profiled()) {
            try {
                Path profiles = profilesDirectory();
                profiling = new SuiteRunner.Profiling(AsyncProfilerLibrary.extractInto(profiles), profiles);
            } catch (RuntimeException e) {
                spec.commandLine().getErr().println("jtecs bench: cannot set up --profile: " + e.getMessage());
                return RUN_FAILED;
            }
        }
        Instant start = Instant.now();
        long startNanos = System.nanoTime();
        List<BenchResult> results;
        try {
            results = new SuiteRunner(out, checkViews, profiling).run(plan.workloads(), plan.profile(),
                    plan.overrides());
        } catch (RunnerException e) {
            spec.commandLine().getErr().println("jtecs bench: the run failed, no results written: " + e.getMessage());
            return RUN_FAILED;
        }
        Duration wall = Duration.ofNanos(System.nanoTime() - startNanos);
        RunInfo info = RunInfo.ofThisMachine(start, plan.profile().name(), plan.profile().forks(),
                plan.profile().warmupText(), plan.profile().measurementText(), wall, plan.checkedViews());
        if (!write(results, info)) {
            return RUN_FAILED;
        }
        List<BenchResult> failed = results.stream().filter(BenchResult::isFailed).toList();
        out.println();
        out.print(ResultsMarkdown.toMarkdown(results, info));
        out.printf(Locale.ROOT, "%nwrote latest.json, latest.md%s into %s (%d results%s, %s)%n",
                ResultsChart.hasFigures(results) ? " and latest.png" : "", this.out, results.size(),
                failed.isEmpty() ? "" : ", " + failed.size() + " failed", minutes(wall));
        out.flush();
        if (failed.isEmpty()) {
            return ALL_RAN;
        }
        PrintWriter err = spec.commandLine().getErr();
        err.printf(Locale.ROOT, "jtecs bench: %d of %d benchmarks failed (FAILED in latest.md, \"failed\": true in "
                + "latest.json); the other results stand:%n", failed.size(), results.size());
        for (BenchResult r : failed) {
            err.printf(Locale.ROOT, "  %s %,d %s: %s%n", r.workload(), r.entities(), r.impl(), r.failure());
        }
        err.flush();
        return SOME_FAILED;
    }

    /**
     * Writes the three files (the chart only when some row has figures: a stale one is removed then); on failure
     * says why on standard error and returns false.
     */
    private boolean write(List<BenchResult> results, RunInfo info) {
        try {
            ResultsJson.write(results, this.out.resolve("latest.json"));
            ResultsMarkdown.write(results, info, this.out.resolve("latest.md"));
            if (ResultsChart.hasFigures(results)) {
                ResultsChart.write(results, info, this.out.resolve("latest.png"));
            } else {
                Files.deleteIfExists(this.out.resolve("latest.png")); // it would show another run
            }
            return true;
        } catch (IOException e) {
            spec.commandLine().getErr().println("jtecs bench: cannot write the results into " + this.out + ": " + e);
            return false;
        }
    }

    /** Checks the options against the registry and builds the plan; throws a {@link ParameterException}. */
    Plan plan() {
        List<Workload> workloads;
        try {
            workloads = Workloads.select(registry, only);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), "--only: " + e.getMessage());
        }
        Profile profile;
        try {
            profile = (quick ? Profile.QUICK : Profile.FULL).with(forks, warmupIterations, iterations,
                    timeMillis == null ? null : Duration.ofMillis(timeMillis));
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), "--forks, --warmup-iterations, --iterations, --time: "
                    + e.getMessage());
        }
        String refusal = checkViewsRefusal(checkViews, profile.forks(), ViewChecks.ENABLED);
        if (refusal != null) {
            throw new ParameterException(spec.commandLine(), refusal);
        }
        String unsupported = this.profile ? AsyncProfilerLibrary.unsupportedHere() : null;
        if (unsupported == null && this.profile && profilesDirectory().toString().contains(";")) {
            unsupported = "--profile: the output path " + out + " holds a ';', which JMH's profiler options cannot "
                    + "carry; give --out a path without one";
        }
        if (unsupported != null) {
            throw new ParameterException(spec.commandLine(), unsupported);
        }
        Map<String, List<String>> overrides = overrides(workloads);
        int benchmarks = 0;
        for (Workload w : workloads) {
            benchmarks += w.benchmarkCount(w.effectiveParams(profile.quickParams(), overrides));
        }
        return new Plan(workloads, profile, overrides, benchmarks, SuiteRunner.viewsChecked(profile, checkViews),
                this.profile);
    }

    /**
     * Why {@code --check-views} cannot be honoured, or {@code null}: with no fork the benchmarks run in this JVM,
     * whose checks were fixed when it started ({@code checkedHere}), so asking for them there is refused unless
     * they are on already.
     */
    static String checkViewsRefusal(boolean checkViews, int forks, boolean checkedHere) {
        if (!checkViews || forks > 0 || checkedHere) {
            return null;
        }
        return "--check-views with --forks 0: the benchmarks would run in this JVM, whose view checks are off and "
                + "fixed since it started; give one or more forks, or start this JVM with "
                + SuiteRunner.CHECK_VIEWS_ARG;
    }

    private Map<String, List<String>> overrides(List<Workload> workloads) {
        Map<String, List<String>> overrides = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : params.entrySet()) {
            String name = e.getKey();
            List<String> values = e.getValue().isEmpty() ? List.of() : List.of(e.getValue().split(",", -1));
            if (values.isEmpty() || values.stream().anyMatch(String::isBlank)) {
                throw new ParameterException(spec.commandLine(), "-p " + name + "='" + e.getValue()
                        + "': give one or more comma-separated values");
            }
            List<Workload> having = workloads.stream().filter(w -> w.hasParam(name)).toList();
            if (having.isEmpty()) {
                throw new ParameterException(spec.commandLine(), "-p " + name + ": no selected workload has a "
                        + "parameter '" + name + "' (selected: " + String.join(", ",
                        workloads.stream().map(Workload::name).toList()) + ")");
            }
            for (Workload w : having) {
                for (String value : values) {
                    checkValue(w, name, value);
                }
            }
            overrides.put(name, values);
        }
        return overrides;
    }

    private void checkValue(Workload w, String name, String value) {
        Class<?> type = w.paramType(name);
        try {
            if (type == int.class && Integer.parseInt(value) < 1 || type == long.class && Long.parseLong(value) < 1) {
                throw new NumberFormatException("not positive");
            }
        } catch (NumberFormatException e) {
            throw new ParameterException(spec.commandLine(), "-p " + name + "=" + value + ": workload " + w.name()
                    + " needs a positive " + type.getName());
        }
    }

    /** The machine's one-minute load average (negative where the JVM cannot tell) and processor count. */
    private static double loadAverage() {
        return java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    }

    private void printPlan(PrintWriter out, Plan plan) {
        Profile p = plan.profile();
        double load = loadAverage();
        int processors = Runtime.getRuntime().availableProcessors();
        double contention = Profile.contention(load, processors);
        Duration total = Duration.ZERO;
        out.printf(Locale.ROOT, "jtecs bench, %s profile: %d workloads, %d benchmarks, %d fork%s each, warm-up %s, "
                + "measurement %s%n", p.name(), plan.workloads().size(), plan.benchmarks(), p.forks(),
                p.forks() == 1 ? "" : "s", p.warmupText(), p.measurementText());
        if (plan.checkedViews()) {
            out.println("view checks on (" + SuiteRunner.CHECK_VIEWS_ARG + "): the figures include their cost");
        }
        if (plan.profiled()) {
            out.println("profiling with async-profiler (CPU samples every 1 ms) into " + profilesDirectory()
                    + ": the figures include its cost");
        }
        for (Workload w : plan.workloads()) {
            Map<String, List<String>> params = w.effectiveParams(p.quickParams(), plan.overrides());
            int count = w.benchmarkCount(params);
            Duration estimate = w.estimate(p, params, contention);
            total = total.plus(estimate);
            out.printf(Locale.ROOT, "  %-22s %3d  %9s  %s%s  %s%n", w.name(), count, minutes(estimate),
                    params, w.perFrame() ? " one frame per operation" : "", String.join(" ", w.impls().values()));
        }
        out.printf(Locale.ROOT, "estimated wall time: about %s (%s per fork of iterations, plus %.2f s to start "
                + "and %.1f s per million entities, times %.1f for a load average of %s on %d processors; other "
                + "work starting or stopping meanwhile moves the real time)%n", minutes(total),
                seconds(p.iterationSeconds()), Profile.FORK_BASE_SECONDS, Profile.FORK_SECONDS_PER_MILLION_ENTITIES,
                contention, load < 0 ? "unknown" : String.format(Locale.ROOT, "%.1f", load), processors);
    }

    private static String seconds(double s) {
        return String.format(Locale.ROOT, "%.2f s", s);
    }

    private static String minutes(Duration d) {
        long s = Math.max(0, d.toSeconds());
        return s >= 60 ? String.format(Locale.ROOT, "%d min %02d s", s / 60, s % 60) : s + " s";
    }
}
