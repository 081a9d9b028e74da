package dev.jtecs.bench.report;

import java.util.Arrays;
import org.HdrHistogram.Histogram;

/**
 * The figures a run is summarized by, computed from its {@link FrameLog}. The first {@code warmupFrames} frames
 * are the warm-up (the JIT compiles the frame's code, the heap and the column buffers reach their working size),
 * and the frame-time and allocation figures describe only the frames after them, the <em>warm</em> frames: a
 * steady state that the warm-up's slow frames would otherwise blur. The warm-up gets its own mean and max.
 *
 * <p>Distributions go through HdrHistogram with {@value #SIGNIFICANT_DIGITS} significant digits: a percentile,
 * a max or a median is exact to within 0.1% (values below 2,048 exactly), whatever the range between the fastest
 * and the slowest frame. Percentiles are HdrHistogram's: the value at or below which that share of the frames
 * fall.
 *
 * @param frames frames run, warm-up included
 * @param warmupFrames frames counted as warm-up, the first ones; {@code frames - warmupFrames >= 1} are warm
 * @param entities live entities at the end
 * @param p50Millis median warm frame time
 * @param p95Millis 95th percentile warm frame time
 * @param p99Millis 99th percentile warm frame time
 * @param meanMillis mean warm frame time
 * @param maxMillis slowest warm frame
 * @param warmupMeanMillis mean warm-up frame time (0 without warm-up)
 * @param warmupMaxMillis slowest warm-up frame (0 without warm-up)
 * @param nsPerEntityFrame median warm frame time divided by the live entities at the end
 * @param spawned entities spawned by all frames
 * @param expired entities expired by all frames
 * @param extractedColumnsPerFrame columns the extraction copied from, mean over all frames
 * @param extractedBytesPerFrame bytes the extraction copied, mean over all frames
 * @param allocatedBytesMedian bytes the frame thread allocated in a warm frame, median ({@code -1} if unknown)
 * @param allocatedBytesMean bytes the frame thread allocated in a warm frame, mean ({@code -1} if unknown)
 * @param heapPeakBytes the most heap in use seen after any frame
 * @param nativeBytes native bytes held at the end (columns and output buffer)
 */
public record RunSummary(int frames, int warmupFrames, int entities, double p50Millis, double p95Millis,
        double p99Millis, double meanMillis, double maxMillis, double warmupMeanMillis, double warmupMaxMillis,
        double nsPerEntityFrame, long spawned, long expired, double extractedColumnsPerFrame,
        double extractedBytesPerFrame, double allocatedBytesMedian, double allocatedBytesMean, long heapPeakBytes,
        long nativeBytes) {

    /** HdrHistogram's precision: three significant digits, 0.1% at most off. */
    public static final int SIGNIFICANT_DIGITS = 3;

    /**
     * The warm-up a run of {@code frames} frames gets when none is asked for: the first fifth of the frames
     * (120 of 600), none for a single frame. In the runs looked at (particles at 20,000, 100,000 and 1,000,000,
     * transforms at 20,000, on the shared two-core machine) the frame times settled within the first 60 frames
     * or so, which a fifth of the default 600 covers with room; the frame-time chart shows where a run settled.
     *
     * @throws IllegalArgumentException for {@code frames < 1}
     */
    public static int defaultWarmup(int frames) {
        if (frames < 1) {
            throw new IllegalArgumentException("frames=" + frames + " must be at least 1");
        }
        return frames / 5;
    }

    /**
     * Summarizes {@code log}, whose first {@code warmupFrames} frames are the warm-up; {@code entities} is the
     * live count at the end.
     *
     * @throws IllegalArgumentException unless {@code 0 <= warmupFrames < log.frames()}: at least one warm frame
     */
    public static RunSummary of(FrameLog log, int warmupFrames, int entities, long heapPeakBytes,
            long nativeBytes) {
        long[] nanos = log.nanos();
        if (warmupFrames < 0 || warmupFrames >= nanos.length) {
            throw new IllegalArgumentException("warmupFrames=" + warmupFrames + " must leave at least one of the "
                    + nanos.length + " frames warm (0 <= warmupFrames < frames)");
        }
        Histogram warm = histogram(nanos, warmupFrames, nanos.length);
        long p50 = warm.getValueAtPercentile(50);
        double warmupMean = 0;
        double warmupMax = 0;
        if (warmupFrames > 0) {
            Histogram warmup = histogram(nanos, 0, warmupFrames);
            warmupMean = warmup.getMean() / 1e6;
            warmupMax = warmup.getMaxValue() / 1e6;
        }
        long[] allocated = log.allocatedBytes();
        boolean allocationKnown = Arrays.stream(allocated, warmupFrames, allocated.length).allMatch(b -> b >= 0);
        double allocatedMedian = -1;
        double allocatedMean = -1;
        if (allocationKnown) {
            Histogram allocation = histogram(allocated, warmupFrames, allocated.length);
            allocatedMedian = allocation.getValueAtPercentile(50);
            allocatedMean = allocation.getMean();
        }
        return new RunSummary(nanos.length, warmupFrames, entities, p50 / 1e6, warm.getValueAtPercentile(95) / 1e6,
                warm.getValueAtPercentile(99) / 1e6, warm.getMean() / 1e6, warm.getMaxValue() / 1e6, warmupMean,
                warmupMax, entities == 0 ? 0 : (double) p50 / entities, Arrays.stream(log.spawned()).sum(),
                Arrays.stream(log.expired()).sum(), Arrays.stream(log.extractedColumns()).average().orElse(0),
                Arrays.stream(log.extractedBytes()).average().orElse(0), allocatedMedian, allocatedMean,
                heapPeakBytes, nativeBytes);
    }

    /** Frames after the warm-up. */
    public int warmFrames() {
        return frames - warmupFrames;
    }

    /** A histogram of {@code values[from..to)}, growing to whatever range they span. */
    private static Histogram histogram(long[] values, int from, int to) {
        Histogram histogram = new Histogram(SIGNIFICANT_DIGITS); // auto-resizing: no upper bound to guess
        for (int i = from; i < to; i++) {
            histogram.recordValue(Math.max(0, values[i]));
        }
        return histogram;
    }
}
