package dev.jtecs.bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jtecs.bench.frame.KernelChoice;
import java.awt.image.BufferedImage;
import java.nio.file.Path;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class TransformsCommandTest {
    @Test
    void defaultsAreTheIssuesHundredThousandEntitiesAndSixHundredFrames() {
        TransformsCommand command = new TransformsCommand();
        new CommandLine(command).parseArgs();
        assertEquals(100_000, command.entities);
        assertEquals(600, command.frames);
        assertEquals(KernelChoice.VECTOR, command.kernels);
        assertEquals(42, command.seed);
    }

    @Test
    void aShortRunPrintsTheSummaryAndTheSameSeedTheSameChecksum() {
        CliRun a = CliRun.of("transforms", "--entities", "400", "--frames", "12", "--no-progress");
        CliRun b = CliRun.of("transforms", "--entities", "400", "--frames", "12", "--kernels", "scalar",
                "--no-progress");
        CliRun c = CliRun.of("transforms", "--entities", "400", "--frames", "12", "--seed", "1", "--no-progress");
        assertEquals(0, a.exit(), a.toString());
        assertTrue(a.out().contains("jtecs transforms"), a.toString());
        assertTrue(a.out().contains("alive at end               400"), a.toString());
        assertTrue(a.out().contains("spawned / expired          0 / 0"), a.toString());
        // every frame moves every root, so all 7 Transform2D columns of both archetypes (the roots', the children's)
        assertTrue(a.out().contains("extracted per frame        14.0 columns, 10.9 KiB"), a.toString());
        assertEquals(a.checksum(), b.checksum(), "the vector kernels are bit-for-bit twins of the scalar ones");
        assertNotEquals(a.checksum(), c.checksum());
    }

    @Test
    void aShortRunWritesAReportThatReadsBack(@TempDir Path tmp) throws Exception {
        CliRun run = CliRun.of("transforms", "--entities", "200", "--frames", "5", "--report", tmp.toString(),
                "--no-progress");
        assertEquals(0, run.exit(), run.toString());
        JsonNode json = new ObjectMapper().readTree(tmp.resolve("transforms.json").toFile());
        assertEquals("transforms", json.get("workload").asText());
        assertEquals(5, json.get("frames").get("extractedBytes").size());
        assertEquals(run.checksum(), json.get("checksum").asText());
        BufferedImage chart = ImageIO.read(tmp.resolve("transforms-frame-times.png").toFile());
        assertEquals(1200, chart.getWidth());
    }
}
