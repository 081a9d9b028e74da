package dev.jtecs.bench.report;

import java.util.Arrays;

/**
 * The figures a run is summarized by, computed from its {@link FrameLog}: frame-time percentiles (nearest rank),
 * cost per entity, turnover, extraction and allocation per frame, and memory.
 *
 * @param frames frames run
 * @param entities live entities at the end
 * @param p50Millis median frame time
 * @param p95Millis 95th percentile frame time
 * @param p99Millis 99th percentile frame time
 * @param meanMillis mean frame time
 * @param maxMillis slowest frame
 * @param nsPerEntityFrame median frame time divided by the live entities at the end
 * @param spawned entities spawned by all frames
 * @param expired entities expired by all frames
 * @param extractedColumnsPerFrame columns the extraction copied from, mean per frame
 * @param extractedBytesPerFrame bytes the extraction copied, mean per frame
 * @param allocatedBytesPerFrame bytes the frame thread allocated, mean per frame ({@code -1} if unknown)
 * @param heapPeakBytes the most heap in use seen after any frame
 * @param nativeBytes native bytes held at the end (columns and output buffer)
 */
public record RunSummary(int frames, int entities, double p50Millis, double p95Millis, double p99Millis,
        double meanMillis, double maxMillis, double nsPerEntityFrame, long spawned, long expired,
        double extractedColumnsPerFrame, double extractedBytesPerFrame, double allocatedBytesPerFrame,
        long heapPeakBytes, long nativeBytes) {

    /** Summarizes {@code log}; {@code entities} is the live count at the end. */
    public static RunSummary of(FrameLog log, int entities, long heapPeakBytes, long nativeBytes) {
        long[] sorted = log.nanos();
        if (sorted.length == 0) {
            throw new IllegalArgumentException("a summary needs at least one frame");
        }
        Arrays.sort(sorted);
        long p50 = percentile(sorted, 50);
        long[] allocated = log.allocatedBytes();
        boolean allocationKnown = Arrays.stream(allocated).allMatch(b -> b >= 0);
        return new RunSummary(sorted.length, entities, p50 / 1e6, percentile(sorted, 95) / 1e6,
                percentile(sorted, 99) / 1e6, Arrays.stream(sorted).average().orElse(0) / 1e6,
                sorted[sorted.length - 1] / 1e6, entities == 0 ? 0 : (double) p50 / entities,
                Arrays.stream(log.spawned()).sum(), Arrays.stream(log.expired()).sum(),
                Arrays.stream(log.extractedColumns()).average().orElse(0),
                Arrays.stream(log.extractedBytes()).average().orElse(0),
                allocationKnown ? Arrays.stream(allocated).average().orElse(0) : -1, heapPeakBytes, nativeBytes);
    }

    /**
     * The nearest-rank percentile of ascending values: the smallest value with at least {@code percent}% of
     * the values at or below it.
     */
    public static long percentile(long[] sorted, int percent) {
        if (sorted.length == 0 || percent < 0 || percent > 100) {
            throw new IllegalArgumentException("percentile " + percent + " of " + sorted.length + " values");
        }
        int rank = (int) Math.ceil(percent / 100.0 * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }
}
