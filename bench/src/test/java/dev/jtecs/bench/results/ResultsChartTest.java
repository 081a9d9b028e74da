package dev.jtecs.bench.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.knowm.xchart.CategoryChart;

class ResultsChartTest {
    private static final List<BenchResult> RESULTS = List.of(
            new BenchResult("integrate", 16384, "jtecs", 0.1, 0.01, 0, 1),
            new BenchResult("integrate", 16384, "ashley", 4.0, 0.2, 0, 1),
            new BenchResult("sparse_delta[dirtyArchetypes=1]", 100000, "jtecs-full-rescan", 0.5, 0.01, 0, 1),
            new BenchResult("sparse_delta[dirtyArchetypes=1]", 100000, "jtecs", 0.001, 0.0001, 0, 1));

    @Test
    void oneSeriesPerImplementationInRankOrderOneGroupPerWorkloadAndSize() {
        CategoryChart chart = ResultsChart.chart(RESULTS, ResultsMarkdownTest.INFO);
        assertEquals(List.of("jtecs", "jtecs-full-rescan", "ashley"), List.copyOf(chart.getSeriesMap().keySet()));
        assertEquals(List.of("integrate 16,384", "sparse_delta[dirtyArchetypes=1] 100,000"),
                List.copyOf(chart.getSeriesMap().get("jtecs").getXData()));
        assertTrue(chart.getStyler().isYAxisLogarithmic());
        assertFalse(chart.getTitle().contains("view checks"), chart.getTitle());
    }

    @Test
    void theLogAxisLabelsDecadesInPlainNumbers() {
        CategoryChart chart = ResultsChart.chart(RESULTS, ResultsMarkdownTest.INFO);
        java.text.DecimalFormat format = new java.text.DecimalFormat(chart.getStyler().getYAxisDecimalPattern(),
                java.text.DecimalFormatSymbols.getInstance(java.util.Locale.ROOT));
        assertEquals("10,000", format.format(1e4), "XChart's default would print 1E4");
        assertEquals("0.001", format.format(1e-3));
    }

    @Test
    void theTitleSaysWhenTheViewChecksWereOn() {
        RunInfo i = ResultsMarkdownTest.INFO;
        RunInfo checked = new RunInfo(i.date(), i.cpu(), i.jdk(), i.vectorLanes(), i.kernels(), i.profile(),
                i.forks(), i.warmup(), i.measurement(), i.wallTime(), true);
        String title = ResultsChart.chart(RESULTS, checked).getTitle();
        assertTrue(title.endsWith("; view checks on"), title);
    }

    @Test
    void writesAPngThatDecodes(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("latest.png");
        ResultsChart.write(RESULTS, ResultsMarkdownTest.INFO, file);
        BufferedImage image = ImageIO.read(file.toFile());
        assertNotNull(image, "a decodable PNG");
        assertTrue(image.getWidth() >= 1200 && image.getHeight() == 900, image.getWidth() + "x" + image.getHeight());
    }

    @Test
    void failedRowsLeaveTheirBarOutAndKeepTheirGroup() {
        List<BenchResult> results = new java.util.ArrayList<>(RESULTS);
        results.add(BenchResult.failed("integrate", 16384, "dominion", 1, "why"));
        results.add(BenchResult.failed("spawn_single", 16384, "dominion", 1, "why"));
        CategoryChart chart = ResultsChart.chart(results, ResultsMarkdownTest.INFO);
        assertEquals(List.of("jtecs", "jtecs-full-rescan", "ashley"), List.copyOf(chart.getSeriesMap().keySet()));
        assertEquals(List.of("integrate 16,384", "sparse_delta[dirtyArchetypes=1] 100,000", "spawn_single 16,384"),
                List.copyOf(chart.getSeriesMap().get("jtecs").getXData()));
        assertTrue(ResultsChart.hasFigures(results));
    }

    @Test
    void refusesNothingToChart() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ResultsChart.chart(List.of(), ResultsMarkdownTest.INFO));
        assertTrue(e.getMessage().contains("hold no measured row"), e.getMessage());
        List<BenchResult> allFailed = List.of(BenchResult.failed("integrate", 16, "jtecs", 1, "why"));
        assertFalse(ResultsChart.hasFigures(allFailed));
        assertThrows(IllegalArgumentException.class, () -> ResultsChart.chart(allFailed, ResultsMarkdownTest.INFO));
    }

    @Test
    void theChartIsWideEnoughForItsWholeTitle() {
        RunInfo i = ResultsMarkdownTest.INFO;
        RunInfo checked = new RunInfo(i.date(), i.cpu(), i.jdk(), i.vectorLanes(), i.kernels(), i.profile(),
                i.forks(), i.warmup(), i.measurement(), i.wallTime(), true);
        CategoryChart chart = ResultsChart.chart(RESULTS, checked);
        assertTrue(chart.getWidth() >= ResultsChart.titleWidth(chart.getTitle()) + ResultsChart.TITLE_MARGIN,
                chart.getWidth() + " px for a title of " + ResultsChart.titleWidth(chart.getTitle()) + " px");
    }
}
