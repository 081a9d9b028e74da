package dev.jtecs.bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jtecs.bench.frame.KernelChoice;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class ParticlesCommandTest {
    @Test
    void defaultsAreTheIssuesOneMillionParticlesAndSixHundredFrames() {
        ParticlesCommand command = new ParticlesCommand();
        new CommandLine(command).parseArgs();
        assertEquals(1_000_000, command.entities);
        assertEquals(600, command.frames);
        assertEquals(KernelChoice.VECTOR, command.kernels);
        assertEquals(42, command.seed);
        assertEquals(null, command.report);
        assertEquals(dev.jtecs.bench.particles.ParticleSimulation.Passes.FUSED, command.passes);
    }

    @Test
    void fusedAndSeparatePassesPrintTheSameChecksumOnEveryThreadCount() {
        String fused = CliRun.of("particles", "--entities", "2000", "--frames", "40", "--seed", "7",
                "--no-progress").checksum();
        for (String passes : new String[] {"fused", "separate", "SEPARATE"}) {
            for (String threads : new String[] {"1", "2"}) {
                assertEquals(fused, CliRun.of("particles", "--entities", "2000", "--frames", "40", "--seed", "7",
                        "--passes", passes, "--threads", threads, "--no-progress").checksum(), passes + " " + threads);
            }
        }
        CliRun bad = CliRun.of("particles", "--passes", "both", "--no-progress");
        assertTrue(bad.exit() != 0 && bad.toString().contains("fused or separate"), bad.toString());
    }

    @Test
    void saveThenLoadContinuesTheRun(@TempDir Path tmp) {
        Path file = tmp.resolve("world.snapshot");
        String whole = CliRun.of("particles", "--entities", "2000", "--frames", "40", "--seed", "3",
                "--no-progress").checksum();
        CliRun first = CliRun.of("particles", "--entities", "2000", "--frames", "20", "--seed", "3",
                "--save", file.toString(), "--no-progress");
        assertTrue(first.out().contains("saved"), first.out());
        String resumed = CliRun.of("particles", "--entities", "2000", "--frames", "20", "--seed", "3",
                "--load", file.toString(), "--no-progress").checksum();
        assertEquals(whole, resumed);
    }

    @Test
    void aDamagedOrTooLargeSnapshotIsRefusedWithItsReasonAndNoStackTrace(@TempDir Path tmp) throws Exception {
        Path file = tmp.resolve("world.snapshot");
        assertEquals(0, CliRun.of("particles", "--entities", "2000", "--frames", "5", "--save", file.toString(),
                "--no-progress").exit());
        Path truncated = tmp.resolve("truncated.snapshot");
        byte[] bytes = Files.readAllBytes(file);
        Files.write(truncated, java.util.Arrays.copyOf(bytes, bytes.length / 2));
        CliRun cut = CliRun.of("particles", "--entities", "2000", "--frames", "5", "--load", truncated.toString(),
                "--no-progress");
        assertEquals(2, cut.exit(), cut.toString());
        assertTrue(cut.err().contains("--load " + truncated + ": binary snapshot truncated"), cut.toString());
        assertTrue(!cut.toString().contains("\tat dev.jtecs"), "no stack trace: " + cut);
        CliRun small = CliRun.of("particles", "--entities", "100", "--frames", "5", "--load", file.toString(),
                "--no-progress"); // a world sized for 100 cannot take 2,000 saved particles
        assertEquals(2, small.exit(), small.toString());
        assertTrue(small.err().contains("--load " + file + ": "), small.toString());
    }

    @Test
    void aShortRunPrintsTheSummaryTable() {
        CliRun run = CliRun.of("particles", "--entities", "3000", "--frames", "30", "--no-progress");
        assertEquals(0, run.exit(), run.toString());
        for (String row : new String[] {"entities                   3,000",
            "frames                     30: 6 warm-up, 24 measured warm", "warm-up mean / max",
            "warm p50 / p95 / p99", "warm mean / max", "ms (24 frames)", "ns per entity per frame",
            "spawned / expired", "alive at end               3,000",
            "extracted per frame        4.0 columns, 70.3 KiB", "allocated per warm frame   median ", ", mean ",
            "heap in use (peak)", "native memory", "checksum"}) {
            assertTrue(run.out().contains(row), "missing '" + row + "' in " + run);
        }
    }

    @Test
    void theSameSeedPrintsTheSameChecksumWhicheverKernelsRun() {
        String vector = CliRun.of("particles", "--entities", "2000", "--frames", "40", "--seed", "7",
                "--no-progress").checksum();
        String again = CliRun.of("particles", "--entities", "2000", "--frames", "40", "--seed", "7",
                "--no-progress").checksum();
        String scalar = CliRun.of("particles", "--entities", "2000", "--frames", "40", "--seed", "7",
                "--kernels", "scalar", "--no-progress").checksum();
        String otherSeed = CliRun.of("particles", "--entities", "2000", "--frames", "40", "--seed", "8",
                "--no-progress").checksum();
        assertEquals(vector, again);
        assertEquals(vector, scalar, "the vector kernels are bit-for-bit twins of the scalar ones");
        assertNotEquals(vector, otherSeed);
    }

    @Test
    void aShortRunWritesAReportThatReadsBack(@TempDir Path tmp) throws Exception {
        Path folder = tmp.resolve("reports/particles");
        CliRun run = CliRun.of("particles", "--entities", "1500", "--frames", "25", "--seed", "3",
                "--kernels", "scalar", "--report", folder.toString(), "--no-progress");
        assertEquals(0, run.exit(), run.toString());
        JsonNode json = new ObjectMapper().readTree(folder.resolve("particles.json").toFile());
        assertEquals("particles", json.get("workload").asText());
        assertEquals(1500, json.get("options").get("entities").asInt());
        assertEquals(25, json.get("options").get("frames").asInt());
        assertEquals("scalar", json.get("options").get("kernels").asText());
        assertEquals(3, json.get("options").get("seed").asInt());
        assertEquals(run.checksum(), json.get("checksum").asText());
        assertEquals(25, json.get("frames").get("nanos").size());
        assertEquals(25, json.get("summary").get("frames").asInt());
        assertEquals(5, json.get("summary").get("warmupFrames").asInt());
        assertEquals(5, json.get("options").get("warmupFrames").asInt());
        assertEquals(1500, json.get("summary").get("entities").asInt());
        assertEquals(json.get("summary").get("spawned").asLong(), json.get("summary").get("expired").asLong());
        assertTrue(json.get("summary").get("nativeBytes").asLong() > 1500 * 32, json.toString());
        BufferedImage chart = ImageIO.read(folder.resolve("particles-frame-times.png").toFile());
        assertEquals(1200, chart.getWidth());
        assertEquals(600, chart.getHeight());
        assertTrue(run.out().contains(folder.resolve("particles.json").toString()), run.toString());
        assertTrue(Files.list(folder).noneMatch(p -> p.getFileName().toString().startsWith(".jtecs")),
                "the write check leaves nothing behind");
    }
}
