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
        assertEquals(0, stats.partitionConflictsResolved());
        assertTrue(stats.toString().startsWith("WorldStats[entities=0"));
    }

    record Point(float x, float y) {}

    static final dev.jtecs.component.NativeComponent<Point> POINT = dev.jtecs.component.Components.registerNative(
            Point.class, o -> o.name("test.stats.Point"));
    static final dev.jtecs.component.TagComponent MARK = dev.jtecs.component.Components.tag("test.stats.Mark");

    @Test
    void getStatsFillsEveryCountFromTheWorld() {
        try (World world = World.create(WorldConfig.defaults().timestep(0.25).fixedMaxSteps(3))) {
            int builtinSystems = world.listSystems().size();
            world.spawn(POINT);
            world.spawn(POINT, MARK);
            world.spawn(MARK);
            world.addSystem(dev.jtecs.schedule.SystemConfig.named("test.stats.fixed")
                    .phase(dev.jtecs.schedule.Phases.FIXED_UPDATE).run((dt, w) -> { }));
            world.update(2.0625); // 8 steps due, 3 run, 5 dropped: 1.25 s
            WorldStats stats = world.getStats(new WorldStats());
            assertEquals(3, stats.entities());
            assertEquals(world.archetypeCount(), stats.archetypes());
            assertEquals(2, stats.components(), "POINT and MARK");
            assertEquals(builtinSystems + 1, stats.systems());
            assertEquals(1.25, stats.fixedTimeDropped());
            assertEquals(5, stats.fixedStepsDropped());
            assertEquals(world.nativeBytesReserved(), stats.nativeBytes());
            assertTrue(stats.nativeBytes() > 0);
            assertEquals("WorldStats[entities=3, archetypes=" + stats.archetypes() + ", components=2, systems="
                    + stats.systems() + ", fixedTimeDropped=1.25, fixedStepsDropped=5, nativeBytes="
                    + stats.nativeBytes() + ", partitionConflictsResolved=0]", stats.toString());
        }
    }

    static final dev.jtecs.component.TagComponent SLOW = dev.jtecs.component.Components.tag("test.stats.Slow");
    static final dev.jtecs.component.TagComponent FAST = dev.jtecs.component.Components.tag("test.stats.Fast");
    static final dev.jtecs.mutation.PartitionDimension PACE =
            dev.jtecs.mutation.PartitionDimension.variants("test.stats.pace", SLOW, FAST);

    @Test
    void theStatsCountEachPartitionConflictTheWorldSettled() {
        try (World world = World.create(WorldConfig.defaults()
                .partitionConflicts(dev.jtecs.mutation.PartitionConflicts.HIGHEST_WINS))) {
            world.declarePartition(PACE);
            long a = world.spawn(SLOW);
            long b = world.spawn(SLOW);
            world.defer();
            world.setTag(a, FAST);
            world.setTag(a, SLOW); // the same dimension twice in one scope: settled, FAST kept
            world.setTag(b, FAST);
            world.setTag(b, SLOW);
            world.commit();
            assertEquals(2, world.getStats(new WorldStats()).partitionConflictsResolved());
            assertTrue(world.has(a, FAST) && world.has(b, FAST));
        }
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
