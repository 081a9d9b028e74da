package dev.jtecs.world;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
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
            com.sun.management.ThreadMXBean threads =
                    (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
            for (int i = 0; i < 10_000; i++) {
                world.getStats(stats); // warm up
            }
            long before = threads.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < 10_000; i++) {
                world.getStats(stats);
            }
            long allocated = threads.getCurrentThreadAllocatedBytes() - before;
            assertTrue(allocated < 1024, "10,000 fills allocated " + allocated + " bytes");
            assertEquals(1, stats.entities());
        }
    }
}
