package dev.jtecs.bench.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.kernels.vector.VectorParticleOps;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class RunInfoTest {
    @Test
    void describesThisMachineAndJvm() {
        Instant start = Instant.parse("2025-01-02T03:04:05Z");
        RunInfo info = RunInfo.ofThisMachine(start, "quick", 1, "2 × 200 ms", "3 × 200 ms", Duration.ZERO, true);
        assertEquals(start, info.date());
        assertEquals(VectorParticleOps.lanes(), info.vectorLanes());
        assertTrue(info.cpu().endsWith(Runtime.getRuntime().availableProcessors() + " processors"), info.cpu());
        assertTrue(info.jdk().contains(System.getProperty("java.runtime.version")), info.jdk());
        assertTrue(info.kernels().startsWith("vector") || info.kernels().startsWith("scalar"), info.kernels());
        assertEquals(Duration.ofSeconds(90), info.withWallTime(Duration.ofSeconds(90)).wallTime());
        assertTrue(info.withWallTime(Duration.ofSeconds(90)).checkedViews(), "the flag survives the wall time");
        assertFalse(RunInfo.ofThisMachine(start, "quick", 1, "", "", Duration.ZERO, false).checkedViews());
        RunInfo.cpuModel().ifPresent(model -> assertFalse(model.isBlank()));
    }
}
