package dev.jtecs.bench.suite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.VerboseMode;

class JmhFailuresTest {
    private final ByteArrayOutputStream printed = new ByteArrayOutputStream();
    private final JmhFailures failures = new JmhFailures(OutputFormatFactory.createFormatInstance(
            new PrintStream(printed, true, StandardCharsets.UTF_8), VerboseMode.NORMAL));

    @Test
    void keysAreTheMethodAndItsSortedParameterValues() {
        assertEquals("a.B.c {entities=16, threads=1}",
                JmhFailures.key("a.B.c", Map.of("threads", "1", "entities", "16")));
    }

    @Test
    void picksTheFirstLineOfTheStackTraceAfterTheFailureMarkAndPassesEverythingOn() {
        failures.println("# Warmup Iteration   1: <failure>"); // not the mark: nothing runs yet
        assertEquals(Map.of(), failures.reasons());
        failures.begin("a.B.c {entities=16}");
        failures.println(JmhFailures.FAILURE_MARK);
        failures.println("");
        failures.println("java.lang.ArrayIndexOutOfBoundsException: Index 1024 out of bounds for length 1024\n"
                + "\tat dev.dominion.ecs.engine.system.Logging.registerLoggingLevel(Logging.java:107)\n");
        failures.println(JmhFailures.FAILURE_MARK); // a second failure of the same benchmark (another fork)
        failures.println("");
        failures.println("java.lang.IllegalStateException: later");
        assertEquals(Map.of("a.B.c {entities=16}",
                "java.lang.ArrayIndexOutOfBoundsException: Index 1024 out of bounds for length 1024"),
                failures.reasons());
        String out = printed.toString(StandardCharsets.UTF_8);
        assertTrue(out.contains("<failure>") && out.contains("Logging.registerLoggingLevel"), out);
    }

    @Test
    void aForkThatDiedWithoutAFailureOfItsOwnIsItsReason() {
        failures.begin("a.B.d {}");
        failures.println("<forked VM failed with exit code 137>");
        failures.println("<stdout last='20 lines'>");
        assertEquals(Map.of("a.B.d {}", "forked VM failed with exit code 137"), failures.reasons());
    }

    @Test
    void aBenchmarkThatRanCleanHasNoReason() {
        failures.begin("a.B.e {}");
        failures.println("# Fork: 1 of 1");
        failures.println("Iteration   1: 12.3 ns/op");
        assertEquals(Map.of(), failures.reasons());
    }

    @Test
    void firstLineSkipsBlankLines() {
        assertEquals("x: y", JmhFailures.firstLine("\n  \nx: y  \n\tat z"));
    }
}
