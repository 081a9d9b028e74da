package dev.jtecs.world;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.jtecs.entity.Entity;
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
