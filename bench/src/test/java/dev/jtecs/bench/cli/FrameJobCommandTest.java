package dev.jtecs.bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The shared options of the frame jobs: every bad value exits 2 with a message naming it, before any run. */
class FrameJobCommandTest {
    private static void rejected(String expectedMessage, String... args) {
        for (String job : new String[] {"particles", "transforms"}) {
            rejectedBy(job, expectedMessage, args);
        }
    }

    private static void rejectedBy(String job, String expectedMessage, String... args) {
        String[] full = new String[args.length + 2];
        full[0] = job;
        System.arraycopy(args, 0, full, 1, args.length);
        full[full.length - 1] = "--no-progress";
        CliRun run = CliRun.of(full);
        assertEquals(2, run.exit(), run.toString());
        assertTrue(run.err().contains(expectedMessage), "expected '" + expectedMessage + "' in " + run);
        assertTrue(run.err().contains("Usage: jtecs " + job), run.toString());
        assertFalse(run.out().contains("checksum"), "nothing ran: " + run);
    }

    @Test
    void rejectsZeroAndNegativeEntityCounts() {
        rejected("--entities must be between 1 and ", "--entities", "0");
        rejected("got -5", "--entities", "-5");
    }

    @Test
    void rejectsEntityCountsAboveTheWorkloadsLimit() {
        rejectedBy("particles", "--entities must be between 1 and 67,108,864, got 2000000000", "--entities",
                "2000000000");
        rejectedBy("transforms", "--entities must be between 1 and 16,777,216, got 16777217", "--entities",
                "16777217");
    }

    @Test
    void rejectsZeroAndNegativeFrameCounts() {
        rejected("--frames must be between 1 and 10,000,000, got 0", "--frames", "0");
        rejected("--frames must be between 1 and 10,000,000, got -1", "--frames", "-1");
    }

    @Test
    void rejectsUnknownKernels() {
        rejected("kernels must be scalar or vector, got 'gpu'", "--kernels", "gpu");
    }

    @Test
    void rejectsNumbersThatAreNotNumbers() {
        rejected("Invalid value for option '--entities'", "--entities", "many");
        rejected("Invalid value for option '--seed'", "--seed", "0x10");
    }

    @Test
    void rejectsAReportPathThatIsAFile(@TempDir Path tmp) throws Exception {
        Path file = Files.writeString(tmp.resolve("taken"), "x");
        rejected("--report " + file + " is not a directory", "--report", file.toString());
    }

    @Test
    void rejectsAReportFolderThatCannotBeCreated(@TempDir Path tmp) throws Exception {
        Path file = Files.writeString(tmp.resolve("taken"), "x");
        Path under = file.resolve("reports");
        rejected("--report " + under + " is not a writable directory", "--report", under.toString());
        assertFalse(Files.isDirectory(under));
    }

    @Test
    void rejectsThreadCountsOutsideTheRange() {
        rejected("--threads must be between 1 and 256, got 0", "--threads", "0");
        rejected("--threads must be between 1 and 256, got 257", "--threads", "257");
        rejected("Invalid value for option '--threads'", "--threads", "two");
    }

    @Test
    void rejectsAWarmupThatLeavesNoWarmFrame() {
        rejected("--warmup-frames must be between 0 and 9 (--frames 10 less one", "--frames", "10",
                "--warmup-frames", "10");
        rejected("--warmup-frames must be between 0 and 599", "--warmup-frames", "-1");
        rejected("Invalid value for option '--warmup-frames'", "--warmup-frames", "some");
    }

    @Test
    void theWarmupIsAFifthOfTheFramesUnlessGiven() {
        CliRun run = CliRun.of("particles", "--entities", "500", "--frames", "10", "--no-progress");
        assertEquals(0, run.exit(), run.toString());
        assertTrue(run.out().contains("frames                     10: 2 warm-up, 8 measured warm"), run.toString());
        CliRun none = CliRun.of("transforms", "--entities", "40", "--frames", "3", "--warmup-frames", "0",
                "--no-progress");
        assertTrue(none.out().contains("frames                     3: 0 warm-up, 3 measured warm"), none.toString());
        assertTrue(none.out().contains("warm-up mean / max         no warm-up frames"), none.toString());
    }

    @Test
    void rejectsUnknownOptions() {
        rejected("Unknown options: '--workers', '4'", "--workers", "4");
    }
}
