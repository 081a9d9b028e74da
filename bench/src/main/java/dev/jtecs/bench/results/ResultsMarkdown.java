package dev.jtecs.bench.results;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code latest.md}: a header saying where and how the run was measured ({@link RunInfo}), then one table row
 * per {@link BenchResult}, in the given order: workload, entities, impl, ns per entity ± JMH error, the time of
 * one operation (a frame, for the per-frame workloads), the throughput (GB/s where the benchmark counts the bytes
 * an operation moves, entities per second elsewhere), bytes allocated per operation, threads, and the ratio of
 * the row's ns per entity to the {@code jtecs} row of the same workload and size ({@code ×} below 1 is faster
 * than jtecs; {@code —} where that workload has no jtecs row).
 *
 * <p>Figures print with three significant digits (errors with two); what JMH could not measure prints as
 * {@code n/a}. A failed row ({@link BenchResult#isFailed}) keeps its place in the table with {@code FAILED:} and
 * its one-line reason in the ns/entity column and {@code —} for every figure, and the header counts the failed
 * rows.
 */
public final class ResultsMarkdown {
    private static final DateTimeFormatter DATE =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'", Locale.ROOT).withZone(ZoneOffset.UTC);

    private ResultsMarkdown() {}

    /** The Markdown text, ending with a newline. */
    public static String toMarkdown(List<BenchResult> results, RunInfo info) {
        StringBuilder md = new StringBuilder();
        md.append("# jtecs benchmark results\n\n");
        md.append("- date: ").append(DATE.format(info.date())).append('\n');
        md.append("- CPU: ").append(info.cpu()).append('\n');
        md.append("- JDK: ").append(info.jdk()).append('\n');
        md.append("- vector width: ").append(info.vectorLanes()).append(" float lanes (")
                .append(info.vectorLanes() * Float.SIZE).append(" bits), kernels ").append(info.kernels()).append('\n');
        md.append("- profile: ").append(info.profile()).append(", ").append(info.forks())
                .append(info.forks() == 1 ? " fork" : " forks").append(" per benchmark, warm-up ")
                .append(info.warmup()).append(", measurement ").append(info.measurement()).append('\n');
        md.append("- view checks: ").append(info.checkedViews()
                ? "on (-Djtecs.checkViews=true: the figures include the checked view mode's cost)" : "off")
                .append('\n');
        md.append("- wall time: ").append(duration(info.wallTime())).append('\n');
        long failed = results.stream().filter(BenchResult::isFailed).count();
        if (failed > 0) {
            md.append("- failed: ").append(failed).append(" of ").append(results.size())
                    .append(" benchmarks (marked FAILED below; they have no figures)\n");
        }
        md.append('\n');
        md.append("ns/entity is JMH's average time per operation divided by the entities one operation covers; ± is "
                + "JMH's 99.9% error; time/op is one operation (one frame for per-frame workloads); throughput is "
                + "GB/s (10^9 bytes per second) where the benchmark counts the bytes an operation moves, entities "
                + "per second elsewhere; alloc is `gc.alloc.rate.norm`, including any per-invocation fixture; "
                + "× jtecs is ns/entity over the jtecs row of the same workload and size (below 1: faster than "
                + "jtecs).\n\n");
        md.append("| workload | entities | impl | ns/entity ± error | time/op | throughput | alloc B/op | threads "
                + "| × jtecs |\n");
        md.append("|---|---:|---|---:|---:|---:|---:|---:|---:|\n");
        Map<String, Double> jtecs = new HashMap<>();
        for (BenchResult r : results) {
            if (r.impl().equals(Impls.JTECS) && !r.isFailed()) {
                jtecs.put(r.workload() + "\u0000" + r.entities(), r.nsPerEntity());
            }
        }
        for (BenchResult r : results) {
            if (r.isFailed()) {
                md.append("| ").append(r.workload())
                        .append(" | ").append(String.format(Locale.ROOT, "%,d", r.entities()))
                        .append(" | ").append(r.impl())
                        .append(" | FAILED: ").append(cell(r.failure()))
                        .append(" | — | — | — | ").append(r.threads())
                        .append(" | — |\n");
                continue;
            }
            Double reference = jtecs.get(r.workload() + "\u0000" + r.entities());
            md.append("| ").append(r.workload())
                    .append(" | ").append(String.format(Locale.ROOT, "%,d", r.entities()))
                    .append(" | ").append(r.impl())
                    .append(" | ").append(significant(r.nsPerEntity(), 3)).append(" ± ")
                    .append(significant(r.error(), 2))
                    .append(" | ").append(time(r.nsPerOp()))
                    .append(" | ").append(throughput(r))
                    .append(" | ").append(bytes(r.allocBytesPerOp()))
                    .append(" | ").append(r.threads())
                    .append(" | ").append(ratio(r.nsPerEntity(), reference))
                    .append(" |\n");
        }
        return md.toString();
    }

    /** {@code text} safe inside a table cell: pipes escaped, backticks (which would open code spans) made apostrophes. */
    static String cell(String text) {
        return text.replace("|", "\\|").replace("`", "'");
    }

    /** Writes the Markdown to {@code file} (UTF-8), replacing it. */
    public static void write(List<BenchResult> results, RunInfo info, Path file) throws IOException {
        Files.writeString(file, toMarkdown(results, info), StandardCharsets.UTF_8);
    }

    /** {@code value} with {@code digits} significant digits, without exponent; {@code n/a} for NaN. */
    static String significant(double value, int digits) {
        if (Double.isNaN(value)) {
            return "n/a";
        }
        if (value == 0) {
            return "0";
        }
        return BigDecimal.valueOf(value).round(new MathContext(digits)).stripTrailingZeros().toPlainString();
    }

    /** A duration in nanoseconds with its unit: ns, µs, ms or s, three significant digits. */
    static String time(double ns) {
        if (ns < 1e3) {
            return significant(ns, 3) + " ns";
        }
        if (ns < 1e6) {
            return significant(ns / 1e3, 3) + " µs";
        }
        if (ns < 1e9) {
            return significant(ns / 1e6, 3) + " ms";
        }
        return significant(ns / 1e9, 3) + " s";
    }

    /** {@code 12.3 GB/s} where the row counts bytes, else {@code 4.77 G entities/s}; {@code n/a} when not finite. */
    static String throughput(BenchResult r) {
        boolean counted = !Double.isNaN(r.bytesPerOp());
        double rate = counted ? r.gbPerSecond() : r.entitiesPerSecond();
        if (!Double.isFinite(rate)) {
            return "n/a";
        }
        if (counted) {
            return significant(rate, 3) + " GB/s";
        }
        String[] prefixes = {"", "k", "M", "G", "T"};
        int p = 0;
        while (p < prefixes.length - 1 && rate >= 999.5) {
            rate /= 1000;
            p++;
        }
        return significant(rate, 3) + (p == 0 ? "" : " " + prefixes[p]) + " entities/s";
    }

    private static String bytes(double value) {
        if (Double.isNaN(value)) {
            return "n/a";
        }
        return value >= 1000 ? String.format(Locale.ROOT, "%,.0f", value) : significant(value, 3);
    }

    private static String ratio(double value, Double reference) {
        if (reference == null || !(reference > 0)) {
            return "—";
        }
        return String.format(Locale.ROOT, "%.2f", value / reference);
    }

    private static String duration(Duration d) {
        long seconds = d.toSeconds();
        return seconds >= 60 ? (seconds / 60) + " min " + (seconds % 60) + " s" : seconds + " s";
    }
}
