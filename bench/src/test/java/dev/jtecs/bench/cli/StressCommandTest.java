package dev.jtecs.bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.entity.Entity;
import dev.jtecs.stress.WorldCalls;
import dev.jtecs.world.World;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
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
    void drawsAProgressLineOnStandardErrorWhenItRunsLongEnough() {
        int[] exit = new int[1];
        String[] printed = run(exit, "stress", "--minutes", "0.03", "--operations", "100");
        assertEquals(0, exit[0], printed[0]);
        assertTrue(printed[1].contains("seeds ") && printed[1].contains("ops/s"), printed[1]);
    }

    @Test
    void aMismatchPrintsTheSeedAndTheShrunkTestAndExitsOne() {
        int[] exit = new int[1];
        WorldCalls forgetful = new WorldCalls() {
            @Override
            public void despawn(World world, long id) {
                if (Entity.slot(id) % 2 == 0) { // an engine bug: despawns of odd slots are lost
                    world.despawn(id);
                }
            }
        };
        String out = run(exit, command -> command.calls = () -> forgetful, "stress", "--seeds", "50", "--seed", "3",
                "--no-progress", "--shrink-seconds", "30")[0];
        assertEquals(1, exit[0], out);
        assertTrue(out.contains("MISMATCH at seed "), out);
        assertTrue(out.contains("model mismatch (replay with seed="), out);
        assertTrue(out.contains("@Test"), out);
        assertTrue(out.contains("new ModelRun(script()).run();"), out);
        assertTrue(out.contains("despawn(h("), out);
    }

    @Test
    void badOptionsAreRejectedWithAClearMessage() {
        String[][] bad = {
            {"--minutes", "0"}, {"--minutes", "-1"}, {"--minutes", "NaN"}, {"--seeds", "0"},
            {"--operations", "0"}, {"--shrink-seconds", "-1"}, {"--minutes", "1", "--seeds", "2"},
            {"--seeds", "many"}, {"--no-such-option"}};
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
