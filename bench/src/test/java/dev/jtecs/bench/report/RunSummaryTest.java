package dev.jtecs.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class RunSummaryTest {
    /** Frame times below 2,048 ns are exact in a three-digit HdrHistogram, so the figures below are exact too. */
    private static FrameLog log(long[] nanos, long[] allocated) {
        FrameLog log = new FrameLog(nanos.length);
        for (int i = 0; i < nanos.length; i++) {
            log.record(nanos[i], allocated[i], i % 2 == 0 ? 4 : 2, i % 2 == 0 ? 2400 : 1200, 1, 1);
        }
        return log;
    }

    @Test
    void theWarmupIsSummarizedApartFromTheWarmFrames() {
        // two slow warm-up frames, then eight warm ones of 100..800 ns
        long[] nanos = {1_900, 1_500, 400, 100, 800, 300, 200, 700, 600, 500};
        long[] allocated = {9_000, 8_000, 100, 100, 100, 300, 300, 300, 1_000, 200};
        RunSummary s = RunSummary.of(log(nanos, allocated), 2, 1000, 5L << 20, 7L << 20);
        assertEquals(10, s.frames());
        assertEquals(2, s.warmupFrames());
        assertEquals(8, s.warmFrames());
        assertEquals(400e-6, s.p50Millis(), 1e-12, "the 4th of 8 warm frames");
        assertEquals(800e-6, s.p95Millis(), 1e-12);
        assertEquals(800e-6, s.p99Millis(), 1e-12);
        assertEquals(800e-6, s.maxMillis(), 1e-12, "the warm-up's 1,900 ns is not the warm max");
        assertEquals(450e-6, s.meanMillis(), 1e-12);
        assertEquals(1_700e-6, s.warmupMeanMillis(), 1e-12);
        assertEquals(1_900e-6, s.warmupMaxMillis(), 1e-12);
        assertEquals(0.4, s.nsPerEntityFrame(), 1e-12, "warm median over 1000 entities");
        assertEquals(200.0, s.allocatedBytesMedian(), "of the warm frames only: 100 100 100 200 | 300 300 300 1000");
        assertEquals(300.0, s.allocatedBytesMean(), "(100*3 + 300*3 + 1000 + 200) / 8");
        assertEquals(10, s.spawned());
        assertEquals(10, s.expired());
        assertEquals(3.0, s.extractedColumnsPerFrame(), "over all frames");
        assertEquals(1800.0, s.extractedBytesPerFrame());
        assertEquals(5L << 20, s.heapPeakBytes());
        assertEquals(7L << 20, s.nativeBytes());
    }

    @Test
    void withoutWarmupEveryFrameIsWarm() {
        long[] nanos = {4_000_000, 2_000_000, 1_000_000, 3_000_000};
        RunSummary s = RunSummary.of(log(nanos, new long[] {100, 300, 0, 50}), 0, 1000, 0, 0);
        assertEquals(4, s.warmFrames());
        assertEquals(0.0, s.warmupMeanMillis());
        assertEquals(0.0, s.warmupMaxMillis());
        // HdrHistogram keeps three significant digits: within 0.1% of the true value
        assertEquals(2.0, s.p50Millis(), 2.0 * 1e-3);
        assertEquals(4.0, s.p95Millis(), 4.0 * 1e-3);
        assertEquals(4.0, s.maxMillis(), 4.0 * 1e-3);
        assertEquals(2.5, s.meanMillis(), 2.5 * 1e-3);
        assertEquals(2000.0, s.nsPerEntityFrame(), 2.0);
        assertEquals(50.0, s.allocatedBytesMedian(), "the lower middle of 0, 50, 100, 300");
        assertEquals(112.5, s.allocatedBytesMean());
    }

    @Test
    void aLongTailDoesNotCostPrecision() {
        // 99 frames of 1 ms and one of 10 s: a range a fixed-bucket histogram would lose one end of
        long[] nanos = new long[100];
        java.util.Arrays.fill(nanos, 1_000_000);
        nanos[57] = 10_000_000_000L;
        RunSummary s = RunSummary.of(log(nanos, new long[100]), 0, 1, 0, 0);
        assertEquals(1.0, s.p50Millis(), 1e-3);
        assertEquals(1.0, s.p99Millis(), 1e-3);
        assertEquals(10_000.0, s.maxMillis(), 10.0);
    }

    @Test
    void allocationIsUnknownWhenAWarmFrameCouldNotTell() {
        FrameLog log = log(new long[] {1, 1, 1}, new long[] {-1, 100, -1});
        assertEquals(-1.0, RunSummary.of(log, 0, 1, 0, 0).allocatedBytesMean());
        assertEquals(-1.0, RunSummary.of(log, 0, 1, 0, 0).allocatedBytesMedian());
        FrameLog warmUnknownOnlyInWarmup = log(new long[] {1, 1}, new long[] {-1, 100});
        assertEquals(100.0, RunSummary.of(warmUnknownOnlyInWarmup, 1, 1, 0, 0).allocatedBytesMean(),
                "a warm-up frame that could not tell does not matter");
    }

    @Test
    void atLeastOneFrameMustBeWarm() {
        FrameLog log = log(new long[] {1, 2, 3}, new long[3]);
        IllegalArgumentException all = assertThrows(IllegalArgumentException.class,
                () -> RunSummary.of(log, 3, 1, 0, 0));
        assertTrue(all.getMessage().contains("warmupFrames=3"), all.getMessage());
        assertThrows(IllegalArgumentException.class, () -> RunSummary.of(log, -1, 1, 0, 0));
        assertEquals(2, RunSummary.of(log, 2, 1, 0, 0).warmupFrames());
    }

    @Test
    void theDefaultWarmupIsAFifthOfTheFrames() {
        assertEquals(120, RunSummary.defaultWarmup(600));
        assertEquals(0, RunSummary.defaultWarmup(1));
        assertEquals(0, RunSummary.defaultWarmup(4));
        assertEquals(1, RunSummary.defaultWarmup(5));
        assertThrows(IllegalArgumentException.class, () -> RunSummary.defaultWarmup(0));
    }
}
