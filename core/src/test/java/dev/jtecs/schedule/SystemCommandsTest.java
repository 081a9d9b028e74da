package dev.jtecs.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.component.Components;
import dev.jtecs.component.ScalarComponent;
import dev.jtecs.component.TagComponent;
import dev.jtecs.mutation.PartitionDimension;
import dev.jtecs.world.World;
import org.junit.jupiter.api.Test;

class SystemCommandsTest {
    static final ScalarComponent.OfInt N = Components.scalar("test.cmd.N", 0);
    static final TagComponent ON = Components.tag("test.cmd.On");
    static final TagComponent PLAIN = Components.tag("test.cmd.Plain");

    @Test
    void requestsAreKeptInCallOrderAndGrowWithoutLimit() {
        SystemCommands commands = new SystemCommands();
        for (int i = 1; i <= 1_000; i++) {
            commands.set(i, N.of(i));
        }
        commands.despawn(5);
        assertEquals(1_001, commands.size());
        assertEquals(SystemCommands.SET, commands.op(0));
        assertEquals(1, commands.id(0));
        assertEquals(SystemCommands.DESPAWN, commands.op(1_000));
        commands.clear();
        assertEquals(0, commands.size());
    }

    @Test
    void badRequestsAreRefusedWhileRecordingAndRecordNothing() {
        SystemCommands commands = new SystemCommands();
        assertThrows(IllegalArgumentException.class, () -> commands.despawn(0));
        assertThrows(IllegalArgumentException.class, () -> commands.despawn(-1));
        assertThrows(NullPointerException.class, () -> commands.setTag(1, null));
        assertThrows(NullPointerException.class, () -> commands.set(1, null));
        assertThrows(NullPointerException.class, () -> commands.spawn(N.of(1), null));
        assertEquals(0, commands.size());
    }

    @Test
    void appliedRequestsActInOrderAndSkipEntitiesThatAreGone() {
        try (World world = World.create()) {
            world.declarePartition(PartitionDimension.presence("cmd.on", ON));
            long a = world.spawn(N.of(1));
            long dead = world.spawn(N.of(2));
            world.despawn(dead);
            SystemCommands commands = new SystemCommands();
            commands.setTag(a, ON);
            commands.set(a, N.of(9));
            commands.despawn(dead);
            commands.spawn(N.of(3), PLAIN);
            commands.remove(a, N);
            int skipped = ParallelSystems.applyRange(world, commands, 0, commands.size());
            assertEquals(1, skipped);
            assertTrue(world.has(a, ON));
            assertFalse(world.has(a, N), "the removal came after the set");
            assertEquals(2, world.entityCount());
            commands.clear();
            commands.unsetTag(a, ON);
            ParallelSystems.applyRange(world, commands, 0, commands.size());
            assertFalse(world.has(a, ON));
        }
    }
}
