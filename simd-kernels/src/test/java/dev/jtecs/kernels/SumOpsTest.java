package dev.jtecs.kernels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.kernels.vector.VectorParticleOps;
import dev.jtecs.kernels.vector.VectorSumOps;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class SumOpsTest {
    @Test
    void sumAgreesWithItsTwinWithinATolerancePerRowAndIgnoresPadding() {
        long seed = 5;
        SplittableRandom random = new SplittableRandom(seed);
        int lanes = VectorParticleOps.lanes();
        for (int count : new int[] {0, 1, lanes - 1, lanes, lanes + 1, 2 * lanes + 3, 1000, 4099}) {
            try (Arena arena = Arena.ofShared()) {
                int capacity = Math.max(64, (count + 63) / 64 * 64);
                MemorySegment column = arena.allocate((long) capacity * Float.BYTES, 64);
                for (int row = 0; row < capacity; row++) {
                    float value = row < count ? (float) (random.nextDouble() * 2 - 1) : 1e30f; // padding: garbage
                    column.setAtIndex(ValueLayout.JAVA_FLOAT, row, value);
                }
                float vector = VectorSumOps.INSTANCE.sum(column, count);
                float scalar = SumOps.SCALAR.sum(column, count);
                assertTrue(Math.abs(vector - scalar) <= 1e-6f * Math.max(1, count),
                        "seed=" + seed + " count=" + count + ": " + vector + " vs " + scalar);
            }
        }
    }

    @Test
    void sumOfKnownValuesAndBadCounts() {
        try (Arena arena = Arena.ofShared()) {
            MemorySegment column = arena.allocate(64L * Float.BYTES, 64);
            for (int row = 0; row < 40; row++) {
                column.setAtIndex(ValueLayout.JAVA_FLOAT, row, 0.5f);
            }
            assertEquals(20f, VectorSumOps.INSTANCE.sum(column, 40));
            assertEquals(20f, SumOps.SCALAR.sum(column, 40));
            assertThrows(IllegalArgumentException.class, () -> VectorSumOps.INSTANCE.sum(column, 65));
            assertThrows(IllegalArgumentException.class, () -> VectorSumOps.INSTANCE.sum(column, -1));
        }
    }
}
