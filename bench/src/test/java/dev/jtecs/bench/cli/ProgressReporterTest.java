package dev.jtecs.bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ProgressReporterTest {
    private static final long SECOND = 1_000_000_000L;

    private final ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    private final PrintStream err = new PrintStream(buffer, true, StandardCharsets.UTF_8);
    private final AtomicLong now = new AtomicLong(1_000 * SECOND);

    private String printed() {
        return buffer.toString(StandardCharsets.UTF_8);
    }

    @Test
    void inALogItPrintsAPlainLineEveryFewSecondsAndNoCarriageReturn() {
        try (ProgressReporter progress = ProgressReporter.forFrames(ProgressReporter.Mode.LOG, "particles", 600,
                err, now::get)) {
            for (int frame = 1; frame <= 600; frame++) {
                now.addAndGet(SECOND / 40); // 15 s in all
                progress.step();
            }
        }
        String[] lines = printed().split("\n");
        assertEquals(3, lines.length, printed()); // at 5 s, 10 s and 15 s
        assertEquals("particles: frame 200 of 600 (33%), 5.0 s elapsed, about 10.0 s left", lines[0]);
        assertEquals("particles: frame 400 of 600 (66%), 10.0 s elapsed, about 5.0 s left", lines[1]);
        assertEquals("particles: frame 600 of 600 (100%), 15.0 s elapsed", lines[2]);
        assertFalse(printed().contains("\r"));
    }

    @Test
    void aShortRunInALogPrintsNothing() {
        try (ProgressReporter progress = ProgressReporter.forFrames(ProgressReporter.Mode.LOG, "transforms", 10,
                err, now::get)) {
            for (int frame = 0; frame < 10; frame++) {
                now.addAndGet(SECOND / 10);
                progress.step();
            }
            assertEquals(10, progress.steps());
        }
        assertEquals("", printed());
    }

    @Test
    void onATerminalAStatusLineIsRedrawnInPlaceAndEndedOnClose() {
        try (ProgressReporter progress = ProgressReporter.forStatus(ProgressReporter.Mode.TERMINAL, err, now::get,
                (steps, elapsed) -> "seeds " + steps + " after " + elapsed / SECOND + " s")) {
            for (int seed = 0; seed < 5; seed++) {
                now.addAndGet(SECOND / 2);
                progress.step();
            }
        }
        assertEquals("\rseeds 2 after 1 s\rseeds 4 after 2 s\n", printed());
    }

    @Test
    void theSameStatusInALogComesAsLines() {
        try (ProgressReporter progress = ProgressReporter.forStatus(ProgressReporter.Mode.LOG, err, now::get,
                (steps, elapsed) -> "seeds " + steps)) {
            for (int seed = 0; seed < 12; seed++) {
                now.addAndGet(SECOND);
                progress.step();
            }
        }
        assertEquals("seeds 5\nseeds 10\n", printed().replace(System.lineSeparator(), "\n"));
    }

    @Test
    void noneIsSilent() {
        try (ProgressReporter progress = ProgressReporter.forFrames(ProgressReporter.Mode.NONE, "particles", 3, err,
                now::get)) {
            for (int frame = 0; frame < 3; frame++) {
                now.addAndGet(60 * SECOND);
                progress.step();
            }
        }
        assertEquals("", printed());
        assertEquals(ProgressReporter.Mode.NONE, ProgressReporter.mode(true));
    }

    @Test
    void theLaunchersPropertyDecidesAndWithoutItTheConsoleDoes() {
        assertTrue(ProgressReporter.stderrIsTerminal("true", null));
        assertFalse(ProgressReporter.stderrIsTerminal("false", System.console()));
        assertFalse(ProgressReporter.stderrIsTerminal(null, null), "no console: not a terminal");
        assertFalse(ProgressReporter.stderrIsTerminal(" ", null));
    }

    @Test
    void aTestRunIsNotATerminal() {
        // Surefire pipes the test JVM's output, so without the launcher's property this JVM reports a log
        String saved = System.getProperty(ProgressReporter.TERMINAL_PROPERTY);
        try {
            System.clearProperty(ProgressReporter.TERMINAL_PROPERTY);
            assertEquals(ProgressReporter.Mode.LOG, ProgressReporter.mode(false));
            System.setProperty(ProgressReporter.TERMINAL_PROPERTY, "true");
            assertEquals(ProgressReporter.Mode.TERMINAL, ProgressReporter.mode(false));
        } finally {
            if (saved == null) {
                System.clearProperty(ProgressReporter.TERMINAL_PROPERTY);
            } else {
                System.setProperty(ProgressReporter.TERMINAL_PROPERTY, saved);
            }
        }
    }

    @Test
    void theFrameLineSaysWhereTheRunIs() {
        assertEquals("particles: frame 0 of 600 (0%), 0.0 s elapsed", ProgressReporter.frameLine("particles", 0,
                600, 0));
        assertEquals("transforms: frame 1,500 of 3,000 (50%), 2.5 s elapsed, about 2.5 s left",
                ProgressReporter.frameLine("transforms", 1500, 3000, 2_500_000_000L));
    }
}
