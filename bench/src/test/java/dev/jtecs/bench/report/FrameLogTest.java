package dev.jtecs.bench.report;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class FrameLogTest {
    @Test
    void keepsTheFramesInOrder() {
        FrameLog log = new FrameLog(3);
        log.record(10, 100, 4, 1000, 1, 2);
        log.record(20, 200, 3, 900, 3, 4);
        assertEquals(2, log.frames());
        assertArrayEquals(new long[] {10, 20}, log.nanos());
        assertArrayEquals(new long[] {100, 200}, log.allocatedBytes());
        assertArrayEquals(new int[] {4, 3}, log.extractedColumns());
        assertArrayEquals(new long[] {1000, 900}, log.extractedBytes());
        assertArrayEquals(new long[] {1, 3}, log.spawned());
        assertArrayEquals(new long[] {2, 4}, log.expired());
    }

    @Test
    void refusesToOverflowOrToBeEmpty() {
        FrameLog log = new FrameLog(1);
        log.record(1, 1, 1, 1, 1, 1);
        IllegalStateException full = assertThrows(IllegalStateException.class, () -> log.record(1, 1, 1, 1, 1, 1));
        assertEquals("log is full: frames=1 capacity=1", full.getMessage());
        assertEquals(1, log.frames());
        assertThrows(IllegalArgumentException.class, () -> new FrameLog(0));
    }
}
