package dev.jtecs.bench.results;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import javax.imageio.ImageIO;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.style.Styler;

/**
 * {@code latest.png}: ns per entity of every implementation, one group of bars per workload and size (in the
 * order the results come), one colour per implementation ({@link Impls#rank} order), on a logarithmic axis so
 * that a 0.1 ns kernel and a 1 µs peer fit one picture. An implementation a workload does not run leaves a gap,
 * and so does a failed row ({@link BenchResult#isFailed}: it has no figure; the table names it).
 */
public final class ResultsChart {
    private static final int MIN_WIDTH = 1200;
    /** XChart centres the title over the plot, beside the legend and the y axis: room for both, both sides. */
    static final int TITLE_MARGIN = 480;
    private static final int PIXELS_PER_BAR = 7;
    private static final int HEIGHT = 900;

    private ResultsChart() {}

    /** Whether {@code results} hold at least one measured row: what {@link #chart} needs. */
    public static boolean hasFigures(List<BenchResult> results) {
        return results.stream().anyMatch(r -> !r.isFailed());
    }

    /** The width in pixels of {@code title} in the font XChart draws chart titles with. */
    static int titleWidth(String title) {
        java.awt.Font font = new CategoryChartBuilder().build().getStyler().getChartTitleFont();
        java.awt.image.BufferedImage scratch = new java.awt.image.BufferedImage(1, 1,
                java.awt.image.BufferedImage.TYPE_INT_RGB);
        java.awt.Graphics2D graphics = scratch.createGraphics();
        try {
            return graphics.getFontMetrics(font).stringWidth(title);
        } finally {
            graphics.dispose();
        }
    }

    /**
     * The chart of {@code results} (at least one measured), titled with the run's machine; failed rows keep their
     * workload's group on the axis and leave their bar out.
     */
    public static CategoryChart chart(List<BenchResult> all, RunInfo info) {
        if (!hasFigures(all)) {
            throw new IllegalArgumentException("results hold no measured row (" + all.size()
                    + " failed or none): nothing to chart");
        }
        List<BenchResult> results = all.stream().filter(r -> !r.isFailed()).toList();
        Set<String> groups = new LinkedHashSet<>();
        for (BenchResult r : all) {
            groups.add(group(r));
        }
        List<String> impls = results.stream().map(BenchResult::impl).distinct()
                .sorted(Comparator.comparingInt(Impls::rank).thenComparing(Comparator.naturalOrder())).toList();
        String title = "jtecs bench (" + info.profile() + "): ns per entity, lower is better. " + info.cpu() + "; "
                + info.jdk() + "; " + info.vectorLanes() + " float lanes"
                + (info.checkedViews() ? "; view checks on" : "");
        int width = Math.max(Math.max(MIN_WIDTH, titleWidth(title) + TITLE_MARGIN),
                groups.size() * (impls.size() + 1) * PIXELS_PER_BAR + 300); // the whole title shows
        CategoryChart chart = new CategoryChartBuilder().width(width).height(HEIGHT).title(title)
                .xAxisTitle("workload, entities").yAxisTitle("ns per entity (log scale)").build();
        chart.getStyler().setYAxisLogarithmic(true).setXAxisLabelRotation(90)
                .setLegendPosition(Styler.LegendPosition.OutsideE).setChartTitleBoxVisible(false);
        chart.getStyler().setAvailableSpaceFill(0.9).setOverlapped(false);
        chart.getStyler().setYAxisDecimalPattern("#,##0.###"); // 10,000 and 0.1, not 1E4 and 1E-1
        // Bars start at zero unless told otherwise, which a log axis cannot show: bound it by whole decades.
        double min = results.stream().mapToDouble(BenchResult::nsPerEntity).filter(v -> v > 0).min().orElse(1);
        double max = results.stream().mapToDouble(BenchResult::nsPerEntity).max().orElse(1);
        chart.getStyler().setYAxisMin(Math.pow(10, Math.floor(Math.log10(min))))
                .setYAxisMax(Math.pow(10, Math.ceil(Math.log10(Math.max(max, min * 10)))));
        List<String> categories = new ArrayList<>(groups);
        for (String impl : impls) {
            Map<String, Double> values = new LinkedHashMap<>();
            for (String g : categories) {
                values.put(g, null);
            }
            for (BenchResult r : results) {
                if (r.impl().equals(impl) && r.nsPerEntity() > 0) { // a log axis has no zero
                    values.put(group(r), r.nsPerEntity());
                }
            }
            chart.addSeries(impl, categories, new ArrayList<>(values.values()));
        }
        return chart;
    }

    private static String group(BenchResult r) {
        return r.workload() + " " + String.format(Locale.ROOT, "%,d", r.entities());
    }

    /** Writes the chart as a PNG to {@code file}, replacing it. */
    public static void write(List<BenchResult> results, RunInfo info, Path file) throws IOException {
        System.setProperty("java.awt.headless", "true"); // before the first AWT class: no display needed
        BufferedImage image = BitmapEncoder.getBufferedImage(chart(results, info));
        if (!ImageIO.write(image, "png", file.toFile())) {
            throw new IOException("no PNG writer in this JVM for " + file);
        }
    }
}
