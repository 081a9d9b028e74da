package dev.jtecs.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class RunSummaryTest {
    @Test
    void percentilesUseTheNearestRank() {
        long[] sorted = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
        assertEquals(5, RunSummary.percentile(sorted, 50));
        assertEquals(10, RunSummary.percentile(sorted, 95));
        assertEquals(10, RunSummary.percentile(sorted, 99));
        assertEquals(1, RunSummary.percentile(new long[] {1}, 50));
        assertEquals(1, RunSummary.percentile(sorted, 0));
        assertThrows(IllegalArgumentException.class, () -> RunSummary.percentile(new long[0], 50));
        assertThrows(IllegalArgumentException.class, () -> RunSummary.percentile(sorted, 101));
    }

    @Test
    void summarizesTheLog() {
        FrameLog log = new FrameLog(4);
        log.record(4_000_000, 100, 4, 2400, 10, 10);
        log.record(2_000_000, 300, 4, 2400, 5, 5);
        log.record(1_000_000, 0, 2, 1200, 0, 0);
        log.record(3_000_000, 0, 2, 1200, 1, 1);
        RunSummary s = RunSummary.of(log, 1000, 5L << 20, 7L << 20);
        assertEquals(4, s.frames());
        assertEquals(2.0, s.p50Millis());
        assertEquals(4.0, s.p95Millis());
        assertEquals(2.5, s.meanMillis());
        assertEquals(4.0, s.maxMillis());
        assertEquals(2000.0, s.nsPerEntityFrame(), "median frame over 1000 entities");
        assertEquals(16, s.spawned());
        assertEquals(16, s.expired());
        assertEquals(3.0, s.extractedColumnsPerFrame());
        assertEquals(1800.0, s.extractedBytesPerFrame());
        assertEquals(100.0, s.allocatedBytesPerFrame());
        assertEquals(5L << 20, s.heapPeakBytes());
        assertEquals(7L << 20, s.nativeBytes());
    }

    @Test
    void allocationIsUnknownWhenAnyFrameCouldNotTell() {
        FrameLog log = new FrameLog(2);
        log.record(1, 100, 0, 0, 0, 0);
        log.record(1, -1, 0, 0, 0, 0);
        assertEquals(-1.0, RunSummary.of(log, 1, 0, 0).allocatedBytesPerFrame());
    }
}
