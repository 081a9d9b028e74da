package dev.jtecs.bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.entity.Entity;
import dev.jtecs.stress.WorldCalls;
import dev.jtecs.world.World;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import picocli.CommandLine;

class StressCommandTest {
    /** Runs the command line; returns standard output then standard error. */
    private static String[] run(int[] exit, Consumer<StressCommand> setup, String... args) {
        PrintStream out = System.out;
        PrintStream err = System.err;
        ByteArrayOutputStream outBuffer = new ByteArrayOutputStream();
        ByteArrayOutputStream errBuffer = new ByteArrayOutputStream();
        System.setOut(new PrintStream(outBuffer, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(errBuffer, true, StandardCharsets.UTF_8));
        try {
            CommandLine cli = new CommandLine(new JtecsCommand());
            setup.accept(cli.getSubcommands().get("stress").getCommand());
            exit[0] = cli.execute(args);
        } finally {
            System.setOut(out);
            System.setErr(err);
        }
        return new String[] {outBuffer.toString(StandardCharsets.UTF_8), errBuffer.toString(StandardCharsets.UTF_8)};
    }

    private static String[] run(int[] exit, String... args) {
        return run(exit, command -> { }, args);
    }

    @Test
    void runsTheSeedsAskedForAndPrintsWhatItChecked() {
        int[] exit = new int[1];
        String out = run(exit, "stress", "--seeds", "4", "--seed", "42", "--operations", "120", "--no-progress")[0];
        assertEquals(0, exit[0], out);
        assertTrue(out.contains("seeds                      4 (42 to 45;"), out);
        assertTrue(out.contains("operations                 "), out);
        assertTrue(out.contains("commits compared"), out);
        assertTrue(out.contains("ops/s"), out);
        assertTrue(out.contains("result                     no mismatch"), out);
    }

    @Test
    void noRelationsLeavesEdgesOut() {
        int[] exit = new int[1];
        String out = run(exit, "stress", "--seeds", "6", "--no-relations", "--operations", "200", "--no-progress")[0];
        assertEquals(0, exit[0], out);
        assertTrue(out.contains("relationships              off"), out);
        assertTrue(out.contains("sparse edges compared      0"), out);
    }

    @Test
    void redrawsAProgressLineOnStandardErrorWhenThatIsATerminal() {
        int[] exit = new int[1];
        String[] printed;
        System.setProperty(ProgressReporter.TERMINAL_PROPERTY, "true"); // as the launcher says on a terminal
        try {
            printed = run(exit, "stress", "--minutes", "0.03", "--operations", "100");
        } finally {
            System.clearProperty(ProgressReporter.TERMINAL_PROPERTY);
        }
        assertEquals(0, exit[0], printed[0]);
        assertTrue(printed[1].startsWith("\rstress 0:01 / 0:01  seeds "), printed[1]);
        assertTrue(printed[1].contains("ops/s") && printed[1].endsWith("\n"), printed[1]);
    }

    @Test
    void inALogAShortRunPrintsNoProgressAtAll() {
        int[] exit = new int[1];
        String[] printed = run(exit, "stress", "--minutes", "0.03", "--operations", "100");
        assertEquals(0, exit[0], printed[0]);
        assertEquals("", printed[1], "a plain line comes every few seconds, none within two seconds");
    }

    @Test
    void aCleanRunWritesAPassingJunitReportAndAJsonSummary(@TempDir Path tmp) throws Exception {
        int[] exit = new int[1];
        Path xml = tmp.resolve("reports/stress.xml");
        Path json = tmp.resolve("reports/stress.json");
        String out = run(exit, "stress", "--seeds", "3", "--seed", "7", "--operations", "60", "--no-progress",
                "--junit-xml", xml.toString(), "--json", json.toString())[0];
        assertEquals(0, exit[0], out);
        assertTrue(out.contains("junit xml                  " + xml), out);
        assertTrue(out.contains("json                       " + json), out);
        Element suite = parse(xml).getDocumentElement();
        assertEquals("jtecs.stress", suite.getAttribute("name"));
        assertEquals("1", suite.getAttribute("tests"));
        assertEquals("0", suite.getAttribute("failures"));
        assertEquals("seeds 7 to 9", ((Element) suite.getElementsByTagName("testcase").item(0)).getAttribute("name"));
        JsonNode summary = new ObjectMapper().readTree(json.toFile());
        assertEquals("clean", summary.get("result").asText());
        assertEquals(0, summary.get("exitCode").asInt());
        assertEquals(3, summary.get("seeds").asLong());
        assertEquals(7, summary.get("firstSeed").asLong());
        assertEquals(9, summary.get("lastSeed").asLong());
        assertTrue(out.contains(String.format(java.util.Locale.ROOT, "operations                 %,d (60 per seed)",
                summary.get("operations").asLong())), "the same total as printed: " + out);
        assertTrue(summary.get("mismatch").isNull());
    }

    private static Document parse(Path xml) throws Exception {
        return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(xml.toFile());
    }

    @Test
    void aMismatchPrintsTheSeedAndTheShrunkTestAndExitsOne(@TempDir Path tmp) throws Exception {
        int[] exit = new int[1];
        WorldCalls forgetful = new WorldCalls() {
            @Override
            public void despawn(World world, long id) {
                if (Entity.slot(id) % 2 == 0) { // an engine bug: despawns of odd slots are lost
                    world.despawn(id);
                }
            }
        };
        Path xml = tmp.resolve("stress.xml");
        Path json = tmp.resolve("stress.json");
        String out = run(exit, command -> command.calls = () -> forgetful, "stress", "--seeds", "50", "--seed", "3",
                "--no-progress", "--shrink-seconds", "30", "--junit-xml", xml.toString(), "--json",
                json.toString())[0];
        assertEquals(1, exit[0], out);
        assertTrue(out.contains("MISMATCH at seed "), out);
        assertTrue(out.contains("model mismatch (replay with seed="), out);
        assertTrue(out.contains("@Test"), out);
        assertTrue(out.contains("new ModelRun(script()).run();"), out);
        assertTrue(out.contains("despawn(h("), out);

        JsonNode summary = new ObjectMapper().readTree(json.toFile());
        assertEquals("mismatch", summary.get("result").asText());
        assertEquals(1, summary.get("exitCode").asInt());
        JsonNode mismatch = summary.get("mismatch");
        long seed = mismatch.get("seed").asLong();
        assertEquals(seed, summary.get("lastSeed").asLong(), "the run stops at the failing seed");
        assertTrue(out.contains("MISMATCH at seed " + seed + ", operation #" + mismatch.get("operation").asInt()),
                out);
        assertTrue(out.contains(mismatch.get("junitSource").asText()), "the same source as printed");
        assertTrue(mismatch.get("testFile").asText().endsWith("/" + mismatch.get("testClass").asText() + ".java"));
        assertTrue(mismatch.get("shrunkOperations").asInt() <= mismatch.get("originalOperations").asInt());

        Element suite = parse(xml).getDocumentElement();
        assertEquals("1", suite.getAttribute("failures"));
        var cases = suite.getElementsByTagName("testcase");
        Element failed = (Element) cases.item(cases.getLength() - 1);
        assertEquals("seed " + seed, failed.getAttribute("name"));
        Element failure = (Element) failed.getElementsByTagName("failure").item(0);
        assertEquals(mismatch.get("headline").asText(), failure.getAttribute("message"));
        assertTrue(failure.getTextContent().contains("new ModelRun(script()).run();"), failure.getTextContent());
        assertEquals(seed > 3 ? 2 : 1, cases.getLength(), "the clean seeds before it make one passing case");
    }

    @Test
    void badOptionsAreRejectedWithAClearMessage() {
        String[][] bad = {
            {"--minutes", "0"}, {"--minutes", "-1"}, {"--minutes", "NaN"}, {"--seeds", "0"},
            {"--operations", "0"}, {"--shrink-seconds", "-1"}, {"--minutes", "1", "--seeds", "2"},
            {"--seeds", "many"}, {"--no-such-option"}, {"--junit-xml", System.getProperty("java.io.tmpdir")},
            {"--json", "/proc/no/such/place.json"}};
        for (String[] options : bad) {
            int[] exit = new int[1];
            String[] args = new String[options.length + 1];
            args[0] = "stress";
            System.arraycopy(options, 0, args, 1, options.length);
            String[] printed = run(exit, args);
            assertEquals(2, exit[0], String.join(" ", options) + ": " + printed[0] + printed[1]);
            assertFalse(printed[1].isBlank(), String.join(" ", options));
            assertTrue(printed[1].contains(options[0].substring(2)) || printed[1].contains("mutually exclusive"),
                    String.join(" ", options) + ": " + printed[1]);
            assertFalse(printed[0].contains("jtecs stress"), "nothing ran for " + String.join(" ", options));
        }
    }

    @Test
    void oneFileCannotBeBothReports(@TempDir Path tmp) {
        int[] exit = new int[1];
        Path same = tmp.resolve("report");
        String[] printed = run(exit, "stress", "--seeds", "1", "--junit-xml", same.toString(), "--json",
                same.toString());
        assertEquals(2, exit[0], printed[1]);
        assertTrue(printed[1].contains("--junit-xml and --json name the same file"), printed[1]);
        assertFalse(Files.exists(same));
    }

    @Test
    void theHelpListsTheExitCodes() {
        int[] exit = new int[1];
        String help = run(exit, "stress", "--help")[0].replaceAll("\\s+", " ");
        assertEquals(0, exit[0]);
        assertTrue(help.contains("Exit codes: 0 no mismatch 1 a mismatch: the seed, the mismatch and the shrunk "
                + "JUnit test are printed (and written to the reports) 2 bad options; nothing ran 3 no mismatch, but "
                + "--junit-xml or --json could not be written"), help);
        assertTrue(help.contains("--junit-xml=FILE"), help);
    }

    @Test
    void defaultsAreOneMinuteFromSeedOneWithRelations() {
        StressCommand command = new StressCommand();
        new CommandLine(command).parseArgs();
        assertEquals(1, command.seed);
        assertTrue(command.relations);
        assertEquals(400, command.operations);
        assertEquals(null, command.length);
        assertEquals(null, command.validate());
    }
}
