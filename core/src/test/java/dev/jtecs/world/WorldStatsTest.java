package dev.jtecs.world;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class WorldStatsTest {
    @Test
    void aFreshRecordIsAllZero() {
        WorldStats stats = new WorldStats();
        assertEquals(0, stats.entities());
        assertEquals(0, stats.archetypes());
        assertEquals(0, stats.components());
        assertEquals(0, stats.systems());
        assertEquals(0.0, stats.fixedTimeDropped());
        assertEquals(0, stats.fixedStepsDropped());
        assertEquals(0, stats.nativeBytes());
        assertTrue(stats.toString().startsWith("WorldStats[entities=0"));
    }

    @Test
    void fillingACallerOwnedRecordAllocatesNothing() {
        try (World world = World.create()) {
            world.spawn();
            WorldStats stats = new WorldStats();
            // the fewest bytes of up to 20 rounds of 10,000 fills: while the JIT still compiles getStats (a class
            // run alone starts cold) a round can allocate a few kilobytes that compiled code does not, while a fill
            // that allocated would show in every round (10,000 fills of even one object are 160 KB)
            long fewest = dev.jtecs.testing.Allocations.fewestBytes(20, () -> {
                for (int i = 0; i < 10_000; i++) {
                    world.getStats(stats);
                }
            });
            assertTrue(fewest < 1024, "every round of 10,000 fills allocated, the fewest " + fewest + " bytes");
            assertEquals(1, stats.entities());
        }
    }
}
