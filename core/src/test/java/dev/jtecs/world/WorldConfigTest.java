package dev.jtecs.world;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.jtecs.entity.Entity;
import dev.jtecs.mutation.PartitionConflicts;
import dev.jtecs.schedule.FixedOverload;
import dev.jtecs.schedule.PipelineFactory;
import org.junit.jupiter.api.Test;

class WorldConfigTest {
    @Test
    void defaultsMatchTheConstants() {
        WorldConfig config = WorldConfig.defaults();
        assertEquals(Entity.DEFAULT_MAX_ENTITIES, config.maxEntities());
        assertEquals(WorldConfig.DEFAULT_TIMESTEP, config.timestep());
        assertEquals(WorldConfig.DEFAULT_FIXED_MAX_STEPS, config.fixedMaxSteps());
        assertEquals(WorldConfig.DEFAULT_NOMINAL_FRAME_TIME, config.nominalFrameTime());
    }

    @Test
    void withersReturnChangedCopies() {
        WorldConfig base = WorldConfig.defaults();
        WorldConfig changed = base.maxEntities(10).timestep(0.5).fixedMaxSteps(2).nominalFrameTime(0.25);
        assertEquals(new WorldConfig(10, 0.5, 2, 0.25, FixedOverload.DROP, PipelineFactory.DEFAULT), changed);
        assertEquals(Entity.DEFAULT_MAX_ENTITIES, base.maxEntities());
        WorldConfig accumulating = changed.fixedOverload(FixedOverload.ACCUMULATE);
        assertEquals(new WorldConfig(10, 0.5, 2, 0.25, FixedOverload.ACCUMULATE, PipelineFactory.DEFAULT),
                accumulating);
        assertEquals(FixedOverload.DROP, changed.fixedOverload(), "the copy changed, not the original");
    }

    @Test
    void submissionWavesPartitionConflictsAndSystemThreadsHaveDefaultsAndWithers() {
        WorldConfig base = WorldConfig.defaults();
        assertEquals(64, base.maxSubmissionWaves());
        assertEquals(1, base.systemThreads());
        assertEquals(dev.jtecs.storage.ViewChecks.ENABLED ? PartitionConflicts.RAISE
                : PartitionConflicts.HIGHEST_WINS, base.partitionConflicts());
        WorldConfig changed = base.maxSubmissionWaves(3).systemThreads(4)
                .partitionConflicts(PartitionConflicts.HIGHEST_WINS);
        assertEquals(3, changed.maxSubmissionWaves());
        assertEquals(4, changed.systemThreads());
        assertEquals(PartitionConflicts.HIGHEST_WINS, changed.partitionConflicts());
        assertThrows(IllegalArgumentException.class, () -> base.maxSubmissionWaves(0));
        assertThrows(IllegalArgumentException.class, () -> base.maxSubmissionWaves(WorldConfig.MAX_SUBMISSION_WAVES_LIMIT + 1));
        assertThrows(IllegalArgumentException.class, () -> base.systemThreads(0));
        assertThrows(IllegalArgumentException.class, () -> base.systemThreads(WorldConfig.MAX_SYSTEM_THREADS + 1));
        assertThrows(NullPointerException.class, () -> base.partitionConflicts(null));
    }

    @Test
    void rejectsOutOfRangeValues() {
        WorldConfig base = WorldConfig.defaults();
        assertThrows(IllegalArgumentException.class, () -> base.maxEntities(0));
        assertThrows(IllegalArgumentException.class, () -> base.maxEntities(Entity.MAX_ENTITIES + 1));
        assertThrows(IllegalArgumentException.class, () -> base.timestep(0));
        assertThrows(IllegalArgumentException.class, () -> base.timestep(Double.NaN));
        assertThrows(IllegalArgumentException.class, () -> base.timestep(Double.POSITIVE_INFINITY));
        assertThrows(IllegalArgumentException.class, () -> base.fixedMaxSteps(0));
        assertThrows(IllegalArgumentException.class, () -> base.nominalFrameTime(-1));
    }
}
