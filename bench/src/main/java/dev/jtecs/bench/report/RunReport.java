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
 * Jackson) and {@code <workload>-frame-times.png} (an XChart line chart of the frame times with the p50, p95
 * and p99 levels).
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

    /** The options of a run. */
    public record RunOptions(int entities, int frames, String kernels, int threads, int seed) {}

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

    /** The frame-time chart: one line over the frames, three flat lines at p50, p95 and p99. */
    XYChart chart() {
        long[] nanos = frames.nanos();
        double[] x = new double[nanos.length];
        double[] y = new double[nanos.length];
        for (int i = 0; i < nanos.length; i++) {
            x[i] = i + 1;
            y[i] = nanos[i] / 1e6;
        }
        XYChart chart = new XYChartBuilder().width(1200).height(600)
                .title("jtecs " + workload + ": " + String.format(java.util.Locale.ROOT, "%,d", options.entities())
                        + " entities, " + options.frames() + " frames, " + options.kernels() + " kernels")
                .xAxisTitle("frame").yAxisTitle("frame time (ms)").build();
        chart.getStyler().setMarkerSize(0);
        XYSeries series = chart.addSeries("frame time", x, y);
        series.setMarker(SeriesMarkers.NONE);
        double[] ends = {1, Math.max(2, nanos.length)};
        level(chart, "p50 " + millis(summary.p50Millis()), ends, summary.p50Millis());
        level(chart, "p95 " + millis(summary.p95Millis()), ends, summary.p95Millis());
        level(chart, "p99 " + millis(summary.p99Millis()), ends, summary.p99Millis());
        return chart;
    }

    private static void level(XYChart chart, String name, double[] ends, double value) {
        chart.addSeries(name, ends, new double[] {value, value}).setMarker(SeriesMarkers.NONE);
    }

    private static String millis(double value) {
        return String.format(java.util.Locale.ROOT, "%.3f ms", value);
    }
}
