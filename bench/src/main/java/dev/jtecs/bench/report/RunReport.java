package dev.jtecs.bench.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * Everything a job run produced, as written to its report folder: {@code <workload>.json} (this record, by
 * Jackson) and {@code <workload>-frame-times.png} (an XChart line chart of the frame times, where the warm-up
 * ends, and the warm frames' p50, p95 and p99).
 *
 * @param workload the workload's name
 * @param options what the run was asked for
 * @param environment where it ran
 * @param checksum the final state's fingerprint, 16 hex digits
 * @param setupMillis building and populating the world
 * @param summary the summary table's figures
 * @param frames the per-frame measurements
 */
public record RunReport(String workload, RunOptions options, RunEnvironment environment, String checksum,
        double setupMillis, RunSummary summary, FrameSeries frames) {

    /**
     * The options of a run.
     *
     * @param entities {@code --entities}
     * @param frames {@code --frames}, warm-up included
     * @param warmupFrames the first frames counted as warm-up ({@code --warmup-frames} or its default)
     * @param kernels {@code --kernels}
     * @param threads {@code --threads}
     * @param seed {@code --seed}
     */
    public record RunOptions(int entities, int frames, int warmupFrames, String kernels, int threads, int seed) {}

    /**
     * The machine and JVM of a run.
     *
     * @param jdk {@code java.runtime.version}
     * @param vm {@code java.vm.name} and {@code java.vm.info}
     * @param os {@code os.name} and {@code os.version}
     * @param arch {@code os.arch}
     * @param cpus available processors
     * @param maxHeapBytes {@code Runtime.maxMemory()}
     * @param kernelMode the kernels the run used, and the provider's reason for this JVM
     * @param floatLanes the preferred float vector's lane count on this CPU (0 where vectors are unavailable)
     */
    public record RunEnvironment(String jdk, String vm, String os, String arch, int cpus, long maxHeapBytes,
            String kernelMode, int floatLanes) {}

    /** The per-frame measurements, frame by frame (see {@link FrameLog}). */
    public record FrameSeries(long[] nanos, long[] allocatedBytes, int[] extractedColumns, long[] extractedBytes,
            long[] spawned, long[] expired) {
        /** The series of a log. */
        public static FrameSeries of(FrameLog log) {
            return new FrameSeries(log.nanos(), log.allocatedBytes(), log.extractedColumns(), log.extractedBytes(),
                    log.spawned(), log.expired());
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /** The JSON file's name in the report folder. */
    public String jsonName() {
        return workload + ".json";
    }

    /** The chart's file name in the report folder. */
    public String chartName() {
        return workload + "-frame-times.png";
    }

    /**
     * Writes the JSON and the chart into {@code folder} (created if missing), replacing earlier files of the
     * same workload.
     *
     * @throws IOException when the folder cannot be created or a file cannot be written
     */
    public void writeTo(Path folder) throws IOException {
        Objects.requireNonNull(folder, "folder");
        Files.createDirectories(folder);
        JSON.writeValue(folder.resolve(jsonName()).toFile(), this);
        try (OutputStream out = Files.newOutputStream(folder.resolve(chartName()))) {
            BitmapEncoder.saveBitmap(chart(), out, BitmapEncoder.BitmapFormat.PNG);
        }
    }

    /** Reads a report written by {@link #writeTo}. */
    public static RunReport read(Path json) throws IOException {
        return JSON.readValue(json.toFile(), RunReport.class);
    }

    /**
     * The frame-time chart: one line over the frames on a logarithmic axis (the warm-up's first frames can be a
     * hundred times slower than the warm ones, and a linear axis would flatten the warm frames into the floor), a
     * vertical line where the warm-up ends, and the warm p50, p95 and p99 as flat lines across the warm frames.
     */
    XYChart chart() {
        long[] nanos = frames.nanos();
        double[] x = new double[nanos.length];
        double[] y = new double[nanos.length];
        double lowest = Double.MAX_VALUE;
        double highest = 0;
        for (int i = 0; i < nanos.length; i++) {
            x[i] = i + 1;
            y[i] = Math.max(nanos[i], 1) / 1e6; // a log axis has no zero: 1 ns is below any real frame
            lowest = Math.min(lowest, y[i]);
            highest = Math.max(highest, y[i]);
        }
        int warmup = summary.warmupFrames();
        XYChart chart = new XYChartBuilder().width(1200).height(600)
                .title("jtecs " + workload + ": " + String.format(java.util.Locale.ROOT, "%,d", options.entities())
                        + " entities, " + options.frames() + " frames (" + warmup + " warm-up), "
                        + options.kernels() + " kernels, " + options.threads()
                        + (options.threads() == 1 ? " thread" : " threads"))
                .xAxisTitle("frame").yAxisTitle("frame time (ms, log scale)").build();
        chart.getStyler().setYAxisLogarithmic(true).setMarkerSize(0);
        chart.getStyler().setChartTitleBoxVisible(false);
        chart.getStyler().setYAxisDecimalPattern("#,##0.###"); // 10,000 rather than 1E4
        // whole decades around the data, so that the log axis labels its ends
        chart.getStyler().setYAxisMin(Math.pow(10, Math.floor(Math.log10(lowest))))
                .setYAxisMax(Math.pow(10, Math.ceil(Math.log10(Math.max(highest, lowest * 10)))));
        XYSeries series = chart.addSeries("frame time", x, y);
        series.setMarker(SeriesMarkers.NONE);
        if (warmup > 0) {
            double edge = warmup + 0.5;
            chart.addSeries("warm-up ends (" + warmup + " frames)", new double[] {edge, edge},
                    new double[] {chart.getStyler().getYAxisMin(), chart.getStyler().getYAxisMax()})
                    .setMarker(SeriesMarkers.NONE);
        }
        double[] ends = {warmup + 1, Math.max(warmup + 2, nanos.length)};
        level(chart, "warm p50 " + millis(summary.p50Millis()), ends, summary.p50Millis());
        level(chart, "warm p95 " + millis(summary.p95Millis()), ends, summary.p95Millis());
        level(chart, "warm p99 " + millis(summary.p99Millis()), ends, summary.p99Millis());
        return chart;
    }

    private static void level(XYChart chart, String name, double[] ends, double value) {
        chart.addSeries(name, ends, new double[] {value, value}).setMarker(SeriesMarkers.NONE);
    }

    private static String millis(double value) {
        return String.format(java.util.Locale.ROOT, "%.3f ms", value);
    }
}
