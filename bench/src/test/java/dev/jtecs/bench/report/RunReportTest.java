package dev.jtecs.bench.report;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunReportTest {
    private static RunReport sample() {
        FrameLog log = new FrameLog(50);
        for (int f = 0; f < 50; f++) {
            log.record(1_000_000 + 10_000L * f, f, 4, 24_000, f % 3, f % 3);
        }
        return new RunReport("particles", new RunReport.RunOptions(1000, 50, 10, "vector", 2, 42),
                new RunReport.RunEnvironment("25", "vm", "os", "arch", 2, 1 << 30, "vector", 16), "00000000deadbeef",
                12.5, RunSummary.of(log, 10, 1000, 1 << 20, 2 << 20), RunReport.FrameSeries.of(log));
    }

    @Test
    void writesAJsonThatReadsBackAndAChartThatDecodes(@TempDir Path tmp) throws IOException {
        RunReport report = sample();
        Path folder = tmp.resolve("a/b");
        report.writeTo(folder);
        RunReport read = RunReport.read(folder.resolve("particles.json"));
        assertEquals(report.workload(), read.workload());
        assertEquals(report.options(), read.options());
        assertEquals(report.environment(), read.environment());
        assertEquals(report.checksum(), read.checksum());
        assertEquals(report.setupMillis(), read.setupMillis());
        assertEquals(report.summary(), read.summary());
        assertArrayEquals(report.frames().nanos(), read.frames().nanos());
        assertArrayEquals(report.frames().extractedColumns(), read.frames().extractedColumns());
        assertArrayEquals(report.frames().expired(), read.frames().expired());
        BufferedImage chart = ImageIO.read(folder.resolve("particles-frame-times.png").toFile());
        assertNotNull(chart);
        assertEquals(1200, chart.getWidth());
        assertEquals(600, chart.getHeight());
        String json = Files.readString(folder.resolve("particles.json"));
        assertTrue(json.contains("\"p99Millis\""), json);
        assertTrue(json.contains("\"warmupFrames\" : 10"), json);
        assertTrue(json.contains("\"allocatedBytesMedian\""), json);
    }

    @Test
    void chartsTheFramesWhereTheWarmupEndsAndTheWarmPercentiles() {
        var chart = sample().chart();
        assertEquals(5, chart.getSeriesMap().size(), chart.getSeriesMap().keySet().toString());
        assertEquals(50, chart.getSeriesMap().get("frame time").getXData().length);
        var edge = chart.getSeriesMap().get("warm-up ends (10 frames)");
        assertEquals(10.5, edge.getXData()[0], "between the last warm-up frame and the first warm one");
        var p99 = chart.getSeriesMap().entrySet().stream().filter(e -> e.getKey().startsWith("warm p99 "))
                .findFirst().orElseThrow().getValue();
        assertEquals(11.0, p99.getXData()[0], "the levels span the warm frames only");
        assertEquals(50.0, p99.getXData()[1]);
        assertTrue(chart.getStyler().isYAxisLogarithmic());
        assertEquals("#,##0.###", chart.getStyler().getYAxisDecimalPattern(), "10,000 ms, not 1E4");
        assertTrue(chart.getTitle().contains("50 frames (10 warm-up)"), chart.getTitle());
        assertTrue(chart.getTitle().endsWith("vector kernels, 2 threads"), "runs on 1 and 2 threads tell apart: "
                + chart.getTitle());
    }

    @Test
    void aRunWithoutWarmupDrawsNoEdge() {
        FrameLog log = new FrameLog(3);
        for (int f = 0; f < 3; f++) {
            log.record(1_000_000, 0, 0, 0, 0, 0);
        }
        RunReport report = new RunReport("transforms", new RunReport.RunOptions(10, 3, 0, "scalar", 1, 1),
                sample().environment(), "0000000000000000", 1, RunSummary.of(log, 0, 10, 0, 0),
                RunReport.FrameSeries.of(log));
        assertEquals(4, report.chart().getSeriesMap().size());
        assertTrue(report.chart().getSeriesMap().keySet().stream().noneMatch(k -> k.startsWith("warm-up")));
        assertTrue(report.chart().getTitle().endsWith("scalar kernels, 1 thread"), report.chart().getTitle());
    }

    @Test
    void failsOnAFolderItCannotCreate(@TempDir Path tmp) throws IOException {
        Path file = Files.writeString(tmp.resolve("file"), "x");
        assertThrows(IOException.class, () -> sample().writeTo(file.resolve("sub")));
    }
}
