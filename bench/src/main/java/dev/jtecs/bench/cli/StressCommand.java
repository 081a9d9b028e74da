package dev.jtecs.bench.cli;

import dev.jtecs.stress.ModelMismatch;
import dev.jtecs.stress.ModelShrinker;
import dev.jtecs.stress.ModelSource;
import dev.jtecs.stress.ModelSweep;
import dev.jtecs.stress.WorldCalls;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code jtecs stress}: the long run of the randomized model test. Runs the scripts of seeds {@code S, S+1, ...}
 * against the engine and the reference model for a number of minutes (or seeds), with progress on standard error
 * ({@link ProgressReporter}), and prints what was checked; on a mismatch, shrinks the failing script and prints it
 * as a JUnit test. {@code --junit-xml} and {@code --json} write the outcome for a CI system ({@link StressReport}).
 *
 * <p>Exit codes: {@value StressReport#CLEAN} no mismatch; {@value StressReport#MISMATCH} a mismatch (the seed,
 * the mismatch and the shrunk JUnit source are printed, and written into the report files);
 * {@value StressReport#BAD_USAGE} bad options, nothing ran; {@value StressReport#REPORT_NOT_WRITTEN} a clean run
 * whose report files could not be written (a mismatch keeps exit code 1 whatever happens to the files).
 */
@Command(name = "stress", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Run the randomized model test: seeded scripts of operations against the engine and a "
                + "reference model, compared after every commit.",
                "On a mismatch: print the seed, shrink the script and print it as a JUnit test; exit 1."},
        exitCodeListHeading = "Exit codes:%n",
        exitCodeList = {"0:no mismatch",
            "1:a mismatch: the seed, the mismatch and the shrunk JUnit test are printed (and written to the reports)",
            "2:bad options; nothing ran",
            "3:no mismatch, but --junit-xml or --json could not be written"})
public final class StressCommand implements Callable<Integer> {
    /** How long to run: minutes or seeds, not both. */
    static final class Length {
        @Option(names = "--minutes", description = "run seeds for this many minutes (default: 1)")
        Double minutes;

        @Option(names = "--seeds", description = "run this many seeds instead of a time")
        Long seeds;
    }

    @ArgGroup(exclusive = true, multiplicity = "0..1")
    Length length;

    @Option(names = "--seed", defaultValue = "1", description = "first seed; seeds S, S+1, ... run (default: ${DEFAULT-VALUE})")
    long seed;

    @Option(names = "--relations", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "relationship edges in three seeds in four (default); --no-relations leaves them out")
    boolean relations;

    @Option(names = "--operations", defaultValue = "400", description = "operations per seed (default: ${DEFAULT-VALUE})")
    int operations;

    @Option(names = "--shrink-seconds", defaultValue = "60",
            description = "time to shrink a failing script (default: ${DEFAULT-VALUE})")
    int shrinkSeconds;

    @Option(names = "--junit-xml", paramLabel = "FILE",
            description = "write a JUnit XML report (one test case for the clean seeds, one failed test case for "
                    + "a mismatch, with the shrunk test in its failure) to FILE")
    Path junitXml;

    @Option(names = "--json", paramLabel = "FILE",
            description = "write a JSON summary (options, totals, exit code, the mismatch if any) to FILE")
    Path json;

    @Option(names = "--no-progress", description = "no progress on standard error (redrawn in place on a "
            + "terminal, otherwise a plain line every few seconds)")
    boolean noProgress;

    /** The façade each run changes its world through: the plain world, unless a test injects a bug. */
    Supplier<WorldCalls> calls = () -> WorldCalls.DIRECT;

    @Override
    public Integer call() {
        String problem = validate();
        if (problem != null) {
            System.err.println("jtecs stress: " + problem);
            return StressReport.BAD_USAGE;
        }
        PrintStream out = System.out;
        ModelSweep sweep = new ModelSweep(operations, relations, calls);
        long maxSeeds = length != null && length.seeds != null ? length.seeds : Long.MAX_VALUE;
        double minutes = length != null && length.minutes != null ? length.minutes : (maxSeeds == Long.MAX_VALUE ? 1 : 0);
        Instant started = Instant.now();
        long start = System.nanoTime();
        long deadline = minutes > 0 ? start + (long) (minutes * 60e9) : Long.MAX_VALUE;
        ModelMismatch mismatch = null;
        long next = seed;
        try (ProgressReporter progress = ProgressReporter.forStatus(ProgressReporter.mode(noProgress), System.err,
                System::nanoTime, (seeds, elapsed) -> progress(sweep.totals(), elapsed, minutes))) {
            for (long n = 0; n < maxSeeds && System.nanoTime() - deadline < 0 && mismatch == null; n++) {
                mismatch = sweep.run(next++);
                progress.step();
            }
        }
        long elapsed = System.nanoTime() - start;
        ModelSweep.Totals totals = sweep.totals();
        summary(out, totals, next - 1, elapsed);
        if (mismatch == null) {
            row(out, "result", "no mismatch");
            return report(out, new StressReport(started, seed, next - 1, operations, relations, totals, elapsed,
                    null));
        }
        row(out, "result", "MISMATCH at seed " + mismatch.seed() + ", operation #" + mismatch.step());
        out.println();
        out.println(mismatch.getMessage());
        out.println();
        out.printf(Locale.ROOT, "shrinking (up to %d s)...%n", shrinkSeconds);
        ModelShrinker.Result result = sweep.shrink(mismatch, Duration.ofSeconds(shrinkSeconds));
        out.printf(Locale.ROOT, "shrunk from %d to %d operations in %d runs (%.1f s%s); save as "
                + "stress-tests/src/test/java/dev/jtecs/stress/%s.java:%n%n", result.original().ops().size(),
                result.shrunk().ops().size(), result.executions(), result.took().toMillis() / 1000.0,
                result.complete() ? "" : ", budget spent", ModelSource.className(mismatch.seed()));
        out.println(result.junit());
        String testClass = ModelSource.className(mismatch.seed());
        report(out, new StressReport(started, seed, next - 1, operations, relations, totals, elapsed,
                new StressReport.Failure(mismatch.seed(), mismatch.step(), mismatch.getMessage(),
                        result.original().ops().size(), result.shrunk().ops().size(), result.executions(),
                        result.complete(), testClass, "stress-tests/src/test/java/dev/jtecs/stress/" + testClass
                        + ".java", result.junit())));
        return StressReport.MISMATCH;
    }

    /**
     * Writes the report files asked for, naming each on standard output; returns the run's exit code, or
     * {@link StressReport#REPORT_NOT_WRITTEN} when a clean run's file could not be written.
     */
    private int report(PrintStream out, StressReport report) {
        boolean written = true;
        written &= write(out, junitXml, "junit xml", report::junitXml);
        written &= write(out, json, "json", report::json);
        return written || report.exitCode() != StressReport.CLEAN ? report.exitCode()
                : StressReport.REPORT_NOT_WRITTEN;
    }

    private static boolean write(PrintStream out, Path file, String label, java.util.function.Supplier<String> text) {
        if (file == null) {
            return true;
        }
        try {
            StressReport.write(file, text.get());
            row(out, label, file.toString());
            return true;
        } catch (IOException | RuntimeException e) {
            System.err.println("jtecs stress: cannot write " + file + ": " + e);
            return false;
        }
    }

    /** Why the options cannot run, naming each bad value, or {@code null}. */
    String validate() {
        if (length != null && length.minutes != null && !(length.minutes > 0 && Double.isFinite(length.minutes))) {
            return "--minutes must be positive and finite (got minutes=" + length.minutes + ")";
        }
        if (length != null && length.seeds != null && length.seeds < 1) {
            return "--seeds must be at least 1 (got seeds=" + length.seeds + ")";
        }
        if (operations < 1) {
            return "--operations must be at least 1 (got operations=" + operations + ")";
        }
        if (shrinkSeconds < 0) {
            return "--shrink-seconds must not be negative (got shrink-seconds=" + shrinkSeconds + ")";
        }
        if (junitXml != null && json != null
                && junitXml.toAbsolutePath().normalize().equals(json.toAbsolutePath().normalize())) {
            return "--junit-xml and --json name the same file (" + json + ")";
        }
        String unwritable = junitXml == null ? null : StressReport.unwritable("--junit-xml", junitXml);
        if (unwritable == null && json != null) {
            unwritable = StressReport.unwritable("--json", json);
        }
        return unwritable;
    }

    private static String progress(ModelSweep.Totals totals, long nanos, double minutes) {
        long seconds = nanos / 1_000_000_000L;
        String of = minutes > 0 ? String.format(Locale.ROOT, " / %d:%02d", (long) (minutes * 60) / 60,
                (long) (minutes * 60) % 60) : "";
        return String.format(Locale.ROOT, "stress %d:%02d%s  seeds %,d  operations %,d (%,.0f ops/s)  commits %,d",
                seconds / 60, seconds % 60, of, totals.seeds(), totals.operations(), totals.operationsPerSecond(),
                totals.commits());
    }

    private void summary(PrintStream out, ModelSweep.Totals totals, long lastSeed, long nanos) {
        out.println("jtecs stress");
        row(out, "seeds", String.format(Locale.ROOT, "%,d (%d to %d; %,d instant path, %,d staged path, %,d "
                + "unobserved)", totals.seeds(), seed, lastSeed, totals.instantSeeds(),
                totals.seeds() - totals.instantSeeds(), totals.unobservedSeeds()));
        row(out, "relationships", relations ? "in three seeds in four" : "off");
        row(out, "operations", String.format(Locale.ROOT, "%,d (%,d per seed)", totals.operations(), operations));
        row(out, "commits compared", String.format(Locale.ROOT, "%,d", totals.commits()));
        row(out, "batch calls", String.format(Locale.ROOT, "%,d", totals.batchCalls()));
        row(out, "illegal calls rejected", String.format(Locale.ROOT, "%,d", totals.rejected()));
        row(out, "failed publications", String.format(Locale.ROOT, "%,d (as predicted)", totals.failedPublications()));
        row(out, "frames", String.format(Locale.ROOT, "%,d", totals.frames()));
        row(out, "sparse edges compared", String.format(Locale.ROOT, "%,d", totals.sparseEdges()));
        row(out, "cascade despawns", String.format(Locale.ROOT, "%,d", totals.cascades()));
        row(out, "field writes landed", String.format(Locale.ROOT, "%,d", totals.fieldWrites()));
        row(out, "ops/s", String.format(Locale.ROOT, "%,.0f", totals.operationsPerSecond()));
        row(out, "elapsed", String.format(Locale.ROOT, "%.1f s", nanos / 1e9));
    }

    private static void row(PrintStream out, String label, String value) {
        out.printf(Locale.ROOT, "  %-26s %s%n", label, value);
    }
}
