package dev.jtecs.bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine;
import org.junit.jupiter.api.Test;

class ParticlesCommandTest {
    private static String run(int[] exit, String... args) {
        PrintStream original = System.out;
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        System.setOut(new PrintStream(buffer, true, StandardCharsets.UTF_8));
        try {
            exit[0] = new CommandLine(new JtecsCommand()).execute(args);
        } finally {
            System.setOut(original);
        }
        return buffer.toString(StandardCharsets.UTF_8);
    }

    @Test
    void printsASummaryWithTheMeasuredFigures() {
        int[] exit = new int[1];
        String out = run(exit, "particles", "--entities", "3000", "--frames", "20", "--no-progress");
        assertEquals(0, exit[0], out);
        assertTrue(out.contains("entities                   3,000"), out);
        assertTrue(out.contains("frames                     20"), out);
        assertTrue(out.contains("ns per entity per frame"), out);
        assertTrue(out.contains("frame time p50/p95/p99"), out);
        assertTrue(out.contains("alive at end               3,000"), out);
    }

    @Test
    void percentilesUseTheNearestRank() {
        long[] sorted = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
        assertEquals(5, ParticlesCommand.percentile(sorted, 50));
        assertEquals(10, ParticlesCommand.percentile(sorted, 95));
        assertEquals(10, ParticlesCommand.percentile(sorted, 99));
        assertEquals(1, ParticlesCommand.percentile(new long[] {1}, 50));
    }

    @Test
    void rejectsNonPositiveCounts() {
        int[] exit = new int[1];
        run(exit, "particles", "--entities", "0", "--no-progress");
        assertEquals(2, exit[0]);
    }

    @Test
    void defaultsAreOneMillionEntitiesAndThreeHundredFrames() {
        ParticlesCommand command = new ParticlesCommand();
        new CommandLine(command).parseArgs();
        assertEquals(1_000_000, command.entities);
        assertEquals(300, command.frames);
        assertEquals(42, command.seed);
    }
}
