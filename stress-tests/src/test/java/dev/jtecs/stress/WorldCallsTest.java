package dev.jtecs.stress;

import static dev.jtecs.stress.ModelComponents.HEALTH;
import static dev.jtecs.stress.ModelComponents.MARKED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.query.Query;
import dev.jtecs.query.QueryDescriptor;
import dev.jtecs.world.World;
import java.util.List;
import org.junit.jupiter.api.Test;

class WorldCallsTest {
    @Test
    void theDirectCallsForwardToTheWorld() {
        WorldCalls calls = WorldCalls.DIRECT;
        try (World world = World.create()) {
            long id = calls.spawn(world, HEALTH.of(2.0));
            calls.set(world, id, MARKED);
            assertTrue(world.has(id, MARKED));
            calls.remove(world, id, MARKED);
            assertFalse(world.has(id, MARKED));
            Query all = world.newQuery(QueryDescriptor.builder().include(HEALTH).build());
            calls.batchSet(world, all, HEALTH.of(4.0));
            assertEquals(4.0, world.get(id, HEALTH));
            calls.defer(world);
            calls.batchSpawn(world, 3, List.of(HEALTH), null);
            assertEquals(1, world.entityCount());
            calls.commit(world);
            assertEquals(4, world.entityCount());
            calls.batchDespawn(world, all);
            assertEquals(0, world.entityCount());
            calls.despawn(world, calls.spawn(world, MARKED));
            calls.compact(world);
            calls.update(world, 0.01);
            assertEquals(0, world.entityCount());
        }
    }
}
