package dev.jtecs.stress;

import static dev.jtecs.stress.ModelComponents.DISABLED;
import static dev.jtecs.stress.ModelComponents.HEALTH;
import static dev.jtecs.stress.ModelComponents.LEVEL;
import static dev.jtecs.stress.ModelComponents.SCORE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.entity.Entity;
import dev.jtecs.world.World;
import java.util.List;
import org.junit.jupiter.api.Test;

class ModelSystemsTest {
    @Test
    void aFrameGrowsLevelsAndReapsTheWeakOnTheWorldAndTheReference() {
        ReferenceWorld model = new ReferenceWorld();
        try (World world = World.create()) {
            new ModelSystems(world);
            long weak = world.spawn(LEVEL.of(1), HEALTH.of(25.0));
            long strong = world.spawn(LEVEL.of(2), HEALTH.of(25.5));
            long disabled = world.spawn(LEVEL.of(3), HEALTH.of(1.0), DISABLED);
            model.spawn(weak, LEVEL.of(1), HEALTH.of(25.0));
            model.spawn(strong, LEVEL.of(2), HEALTH.of(25.5));
            model.spawn(disabled, LEVEL.of(3), HEALTH.of(1.0), DISABLED);
            assertNull(model.commit());
            world.update(ModelSystems.DT);
            assertNull(ModelSystems.update(model));
            assertFalse(world.isAlive(weak));
            assertFalse(model.isAlive(weak));
            assertEquals(3, world.get(strong, LEVEL));
            assertEquals(3, model.get(strong, LEVEL));
            assertEquals(3, world.get(disabled, LEVEL)); // disabled: left out of both queries
            assertEquals(3, model.get(disabled, LEVEL));
            assertTrue(world.isAlive(disabled) && model.isAlive(disabled));
        }
    }

    @Test
    void spawnRulesSetOrDespawnOnTheWorldAndTheReference() {
        ReferenceWorld model = new ReferenceWorld();
        try (World world = World.create()) {
            ModelSystems systems = new ModelSystems(world);
            systems.observeSpawns(world, new ModelOp.ObserveSpawns(2, SCORE.of(5L)));
            systems.observeSpawns(world, new ModelOp.ObserveSpawns(3, null));
            for (int i = 0; i < 6; i++) {
                long id = world.spawn();
                model.spawn(id);
                List<?> set = systems.applyRules(id, model);
                assertNull(model.commit());
                int slot = Entity.slot(id);
                assertEquals(slot % 3 != 0, world.isAlive(id), "slot " + slot);
                assertEquals(world.isAlive(id), model.isAlive(id));
                assertEquals(slot % 2 == 0 && slot % 3 != 0 ? 5L : null, world.get(id, SCORE));
                assertEquals(world.get(id, SCORE), model.get(id, SCORE));
                assertEquals(slot % 2 == 0 ? 1 : 0, set.size());
            }
        }
    }
}
