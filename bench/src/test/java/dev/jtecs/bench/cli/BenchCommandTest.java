package dev.jtecs.bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.bench.results.BenchResult;
import dev.jtecs.bench.results.ResultsJson;
import dev.jtecs.bench.suite.FailingBenchmark;
import dev.jtecs.bench.suite.ViewChecksProbe;
import dev.jtecs.bench.suite.Workloads;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class BenchCommandTest {
    /** Exit code, standard output and standard error of one {@code jtecs ...} invocation. */
    record Outcome(int exit, String out, String err) {}

    private static Outcome jtecs(String... args) {
        CommandLine cli = new CommandLine(new JtecsCommand());
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        int exit = cli.execute(args);
        return new Outcome(exit, out.toString(), err.toString());
    }

    private static void assertRefused(String message, String... args) {
        Outcome o = jtecs(args);
        assertEquals(2, o.exit(), o.err());
        assertTrue(o.err().contains(message), o.err());
    }

    @Test
    void refusesUnknownWorkloadsNamingThemAndTheKnownOnes(@TempDir Path dir) {
        assertRefused("--only: unknown workload bogus; known: integrate, integrate_frag,",
                "bench", "--only", "integrate", "bogus", "--out", dir.toString());
        assertRefused("unknown workloads bogus, intergrate;", "bench", "--only=bogus,intergrate");
        assertRefused("Missing required parameter for option '--only'", "bench", "--only");
        assertEquals(List.of(), list(dir), "nothing written");
    }

    @Test
    void refusesParametersNoSelectedWorkloadHasAndValuesOfTheWrongKind() {
        assertRefused("-p dirtyArchetypes: no selected workload has a parameter 'dirtyArchetypes' (selected: "
                + "integrate)", "bench", "--only", "integrate", "-p", "dirtyArchetypes=1");
        assertRefused("-p entities=lots: workload integrate needs a positive int",
                "bench", "--only", "integrate", "-p", "entities=lots");
        assertRefused("-p entities=0: workload integrate needs a positive int",
                "bench", "--only", "integrate", "-p", "entities=16,0");
        assertRefused("-p entities='16,': give one or more comma-separated values",
                "bench", "--only", "integrate", "-p", "entities=16,");
    }

    @Test
    void refusesImpossibleCountsAndUnknownOptions() {
        assertRefused("forks=-1", "bench", "--forks", "-1");
        assertRefused("measurementIterations=0", "bench", "--iterations", "0");
        assertRefused("Unknown option: '--fast'", "bench", "--fast");
        assertRefused("Invalid value for option '--forks'", "bench", "--forks", "two");
    }

    @Test
    void listPrintsThePlanAndRunsNothing(@TempDir Path dir) {
        Outcome o = jtecs("bench", "--quick", "--list", "--out", dir.resolve("results").toString());
        assertEquals(0, o.exit(), o.err());
        assertTrue(o.out().startsWith("jtecs bench, quick profile: " + Workloads.ALL.size() + " workloads, "),
                o.out());
        assertTrue(o.out().contains("sparse_delta"), o.out());
        assertTrue(o.out().contains("jtecs jtecs-scalar plain-array plain-segment-vector dominion artemis ashley"),
                o.out());
        assertTrue(o.out().contains("estimated wall time: about "), o.out());
        assertTrue(o.out().contains("1.25 s per fork of iterations, plus 1.25 s to start and 1.9 s per million "
                + "entities, times "), "the model and the load it assumed are printed: " + o.out());
        assertTrue(o.out().contains(" processors; other work starting or stopping meanwhile moves the real time)"),
                o.out());
        assertTrue(Files.notExists(dir.resolve("results")), "no output directory");
    }

    @Test
    void checkViewsIsInThePlan(@TempDir Path dir) {
        Outcome checked = jtecs("bench", "--quick", "--check-views", "--list", "--out", dir.toString());
        assertEquals(0, checked.exit(), checked.err());
        assertTrue(checked.out().contains("\nview checks on (-Djtecs.checkViews=true): the figures include their "
                + "cost\n"), checked.out());
        Outcome plain = jtecs("bench", "--quick", "--list", "--out", dir.toString());
        assertFalse(plain.out().contains("view checks"), plain.out());
    }

    @Test
    void profileIsInThePlanAndRefusedWhereJmhCouldNotCarryItsPath(@TempDir Path dir) {
        Outcome profiled = jtecs("bench", "--quick", "--only", "integrate", "--profile", "--list", "--out",
                dir.toString());
        assertEquals(0, profiled.exit(), profiled.err());
        assertTrue(profiled.out().contains("\nprofiling with async-profiler (CPU samples every 1 ms) into "
                + dir.resolve("profiles") + ": the figures include its cost\n"), profiled.out());
        assertTrue(Files.notExists(dir.resolve("profiles")), "--list extracts nothing");
        Outcome plain = jtecs("bench", "--quick", "--only", "integrate", "--list", "--out", dir.toString());
        assertFalse(plain.out().contains("profiling"), plain.out());
        assertRefused("--profile: the output path " + dir.resolve("a;b") + " holds a ';'",
                "bench", "--quick", "--profile", "--list", "--out", dir.resolve("a;b").toString());
    }

    @Test
    void checkViewsWithNoForkIsRefusedWhereThisJvmRunsUnchecked() {
        String refusal = BenchCommand.checkViewsRefusal(true, 0, false);
        assertNotNull(refusal);
        assertTrue(refusal.contains("--check-views with --forks 0") && refusal.contains("-Djtecs.checkViews=true"),
                refusal);
        assertNull(BenchCommand.checkViewsRefusal(true, 1, false), "forks get the switch");
        assertNull(BenchCommand.checkViewsRefusal(true, 0, true), "this JVM is checked already");
        assertNull(BenchCommand.checkViewsRefusal(false, 0, false), "not asked");
    }

    @Test
    void aCheckedRunSaysSoInLatestJsonAndLatestMd(@TempDir Path dir) throws IOException {
        System.setProperty("jmh.ignoreLock", "true"); // other builds on this machine may hold JMH's lock
        Path out = dir.resolve("results");
        CommandLine cli = new CommandLine(new BenchCommand(List.of(ViewChecksProbe.WORKLOAD)));
        StringWriter stderr = new StringWriter();
        cli.setOut(new PrintWriter(new StringWriter(), true));
        cli.setErr(new PrintWriter(stderr, true));
        int exit = cli.execute("--check-views", "--forks", "0", "--warmup-iterations", "0", "--iterations", "1",
                "--time", "10", "--out", out.toString()); // no fork: this JVM, which the tests run checked
        assertEquals(BenchCommand.ALL_RAN, exit, stderr.toString());
        List<BenchResult> results = ResultsJson.read(out.resolve("latest.json"));
        assertEquals(List.of(true), results.stream().map(BenchResult::checkedViews).toList());
        assertTrue(Files.readString(out.resolve("latest.json")).contains("\"threads\": 1, \"checked_views\": true}"));
        String md = Files.readString(out.resolve("latest.md"));
        assertTrue(md.contains("\n- view checks: on (-Djtecs.checkViews=true: the figures include the checked view "
                + "mode's cost)\n"), md);
    }

    @Test
    void aShortRealRunWritesResultsThatParseBackAndAChartThatDecodes(@TempDir Path dir) throws IOException {
        System.setProperty("jmh.ignoreLock", "true"); // other builds on this machine may hold JMH's lock
        Path out = dir.resolve("results");
        Outcome o = jtecs("bench", "--only", "sparse_delta", "--forks", "0", "--warmup-iterations", "1",
                "--iterations", "3", "--time", "100", "-p", "entities=256", "-p", "dirtyArchetypes=1",
                "--out", out.toString());
        assertEquals(0, o.exit(), o.err());
        List<BenchResult> results = ResultsJson.read(out.resolve("latest.json"));
        assertEquals(List.of("jtecs", "jtecs-full-rescan"), results.stream().map(BenchResult::impl).toList());
        for (BenchResult r : results) {
            assertEquals("sparse_delta[dirtyArchetypes=1]", r.workload());
            assertEquals(256, r.entities());
            assertTrue(r.nsPerEntity() > 0 && r.error() >= 0, r.toString());
            assertTrue(r.allocBytesPerOp() >= 0, "the GC profiler ran: " + r);
            assertEquals(1, r.threads());
        }
        String md = Files.readString(out.resolve("latest.md"));
        assertTrue(md.contains("- profile: custom, 0 forks per benchmark, warm-up 1 × 100 ms, "
                + "measurement 3 × 100 ms"), md);
        assertTrue(md.contains("| sparse_delta[dirtyArchetypes=1] | 256 | jtecs-full-rescan | "), md);
        BufferedImage png = ImageIO.read(out.resolve("latest.png").toFile());
        assertNotNull(png, "latest.png decodes");
        assertTrue(o.out().contains("wrote latest.json, latest.md and latest.png into " + out), o.out());
    }

    @Test
    void aFailingBenchmarkIsMarkedTheOthersAreWrittenAndTheExitCodeSaysSo(@TempDir Path dir) throws IOException {
        System.setProperty("jmh.ignoreLock", "true"); // other builds on this machine may hold JMH's lock
        Path out = dir.resolve("results");
        CommandLine cli = new CommandLine(new BenchCommand(List.of(FailingBenchmark.WORKLOAD)));
        StringWriter stdout = new StringWriter();
        StringWriter stderr = new StringWriter();
        cli.setOut(new PrintWriter(stdout, true));
        cli.setErr(new PrintWriter(stderr, true));
        int exit = cli.execute("--forks", "0", "--warmup-iterations", "0", "--iterations", "1", "--time", "10",
                "--out", out.toString());
        assertEquals(BenchCommand.SOME_FAILED, exit, stderr.toString());
        assertEquals(3, exit, "the documented code");
        List<BenchResult> results = ResultsJson.read(out.resolve("latest.json"));
        assertEquals(List.of(false, false, false, true), results.stream().map(BenchResult::isFailed).toList());
        String reason = "java.lang.IllegalStateException: " + FailingBenchmark.MESSAGE;
        assertEquals(reason, results.get(3).failure());
        assertTrue(Files.readString(out.resolve("latest.json")).contains("\"failed\": true, \"failure\": \""
                + reason + "\""));
        String md = Files.readString(out.resolve("latest.md"));
        assertTrue(md.contains("| failing_probe | 2 | plain-array | FAILED: " + reason + " | — | — | — | 1 | — |"),
                md);
        assertTrue(md.contains("- failed: 1 of 4 benchmarks"), md);
        assertNotNull(ImageIO.read(out.resolve("latest.png").toFile()), "the chart of the three that ran");
        assertTrue(stderr.toString().contains("jtecs bench: 1 of 4 benchmarks failed"), stderr.toString());
        assertTrue(stderr.toString().contains("failing_probe 2 plain-array: " + reason), stderr.toString());
        assertTrue(stdout.toString().contains("(4 results, 1 failed, "), stdout.toString());
    }

    @Test
    void theHelpListsTheExitCodes() {
        Outcome o = jtecs("bench", "--help");
        String help = o.out().replaceAll("\\s+", " ");
        assertTrue(help.contains("Exit codes: 0 every benchmark ran; results written 3 some benchmark failed; the "
                + "other results written, the failed ones marked 2 bad options; nothing ran 1 the run could not go "
                + "on"), help);
    }

    @Test
    void theHelpListsEveryRegisteredWorkload() {
        Outcome o = jtecs("bench", "--help");
        assertEquals(0, o.exit(), o.err());
        String help = o.out().replaceAll("\\s+", " ");
        assertTrue(help.contains("Workloads: " + String.join(", ", Workloads.names()) + "."), help);
    }

    private static List<Path> list(Path dir) {
        try (Stream<Path> files = Files.list(dir)) {
            return files.toList();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
