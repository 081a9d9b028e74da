package dev.jtecs.kernels.parallel;

import static dev.jtecs.kernels.parallel.ParallelWorlds.CHARGE;
import static dev.jtecs.kernels.parallel.ParallelWorlds.COLD;
import static dev.jtecs.kernels.parallel.ParallelWorlds.HOT;
import static dev.jtecs.kernels.parallel.ParallelWorlds.LEVEL;
import static dev.jtecs.kernels.parallel.ParallelWorlds.TICKS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.builtin.EntityKey;
import dev.jtecs.storage.Archetype;
import dev.jtecs.world.World;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** A chunk's buffer records requests by row, refuses bad ones unchanged, sorts stably, and applies by entity. */
class ChunkCommandsTest {
    private static ChunkCommands buffer(int rows) {
        ChunkCommands commands = new ChunkCommands();
        commands.reset(rows);
        return commands;
    }

    @Test
    void recordsEveryKindOfRequestInOrder() {
        ChunkCommands commands = buffer(10);
        commands.despawn(3);
        commands.set(4, HOT);
        commands.remove(5, COLD);
        commands.set(6, CHARGE, 2.5);
        commands.set(7, TICKS, 9L);
        commands.set(8, LEVEL, -3);
        assertEquals(6, commands.size());
        assertEquals(10, commands.rowCount());
        byte[] ops = {ChunkCommands.DESPAWN, ChunkCommands.SET, ChunkCommands.REMOVE, ChunkCommands.SET_DOUBLE,
            ChunkCommands.SET_LONG, ChunkCommands.SET_INT};
        for (int i = 0; i < ops.length; i++) {
            assertEquals(3 + i, commands.row(i));
            assertEquals(ops[i], commands.op(i));
        }
    }

    @Test
    void badRequestsThrowAndRecordNothing() {
        ChunkCommands commands = buffer(4);
        commands.despawn(0);
        IllegalArgumentException high = assertThrows(IllegalArgumentException.class, () -> commands.despawn(4));
        assertTrue(high.getMessage().contains("row=4") && high.getMessage().contains("[0, 4)"), high.getMessage());
        assertThrows(IllegalArgumentException.class, () -> commands.set(-1, HOT));
        assertThrows(IllegalArgumentException.class, () -> commands.remove(9, HOT));
        assertThrows(NullPointerException.class, () -> commands.set(1, null));
        assertThrows(NullPointerException.class, () -> commands.remove(1, null));
        assertThrows(NullPointerException.class, () -> commands.set(1, (dev.jtecs.component.ScalarComponent.OfDouble) null, 1));
        IllegalArgumentException key = assertThrows(IllegalArgumentException.class,
                () -> commands.set(1, EntityKey.COMPONENT.of("boss")));
        assertTrue(key.getMessage().contains("EntityKey"), key.getMessage());
        assertEquals(1, commands.size(), "only the first request");
    }

    @Test
    void sortingPutsRowsInOrderAndKeepsTheOrderWithinARow() {
        long seed = ParallelWorlds.seed("sortingPutsRowsInOrderAndKeepsTheOrderWithinARow");
        SplittableRandom random = new SplittableRandom(seed);
        ChunkCommands commands = buffer(50);
        int n = 1_000; // past the initial capacity: the buffer grows
        int[] recorded = new int[n];
        for (int i = 0; i < n; i++) {
            recorded[i] = random.nextInt(50);
            commands.set(recorded[i], LEVEL, i); // the value is the recording order
        }
        commands.sortByRow();
        assertEquals(n, commands.size());
        try (World world = World.create()) {
            long[] ids = new long[50];
            for (int row = 0; row < 50; row++) {
                ids[row] = world.spawn(LEVEL.of(-1));
            }
            Archetype archetype = world.archetypeOf(ids[0]);
            commands.resolve(archetype.entities(), 0);
            int previousRow = -1;
            for (int i = 0; i < n; i++) {
                assertTrue(commands.row(i) >= previousRow, "seed=" + seed + " index " + i);
                previousRow = commands.row(i);
                assertEquals(ids[commands.row(i)], commands.id(i));
            }
            // apply: the last request recorded for a row wins, so every row ends with its last recording index
            assertEquals(n, commands.apply(world));
            for (int row = 0; row < 50; row++) {
                int last = -1;
                for (int i = 0; i < n; i++) {
                    if (recorded[i] == row) {
                        last = i;
                    }
                }
                assertEquals(last, world.get(ids[row], LEVEL), "seed=" + seed + " row " + row);
            }
        }
    }

    @Test
    void appliesEachRequestToTheEntityOfItsRowSkippingTheDead() {
        try (World world = World.create()) {
            long a = world.spawn(HOT, CHARGE.of(1));
            long b = world.spawn(HOT, CHARGE.of(2));
            long c = world.spawn(HOT, CHARGE.of(3));
            long d = world.spawn(HOT, CHARGE.of(4));
            Archetype archetype = world.archetypeOf(a);
            ChunkCommands commands = buffer(2); // a chunk holding rows 2 and 3 of the archetype
            commands.set(1, TICKS, 7L);
            commands.remove(0, HOT);
            commands.set(0, COLD);
            commands.set(1, CHARGE, -1.5);
            commands.sortByRow();
            commands.resolve(archetype.entities(), 2);
            world.despawn(d); // published at once, after its ids were resolved
            assertEquals(2, commands.apply(world), "the two requests for the dead entity were skipped");
            assertTrue(world.has(c, COLD));
            assertFalse(world.has(c, HOT));
            assertFalse(world.isAlive(d));
            assertEquals(1.0, world.get(a, CHARGE));
            assertEquals(2.0, world.get(b, CHARGE));
        }
    }

    @Test
    void resetForgetsTheRequestsAndTakesTheNewRowCount() {
        ChunkCommands commands = buffer(8);
        commands.despawn(7);
        commands.set(2, HOT);
        commands.reset(3);
        assertEquals(0, commands.size());
        assertEquals(3, commands.rowCount());
        assertThrows(IllegalArgumentException.class, () -> commands.despawn(7));
        commands.despawnRows(new int[] {0, 2, 9}, 2);
        assertEquals(2, commands.size());
        assertEquals(2, commands.row(1));
        assertEquals(ChunkCommands.DESPAWN, commands.op(1));
    }
}
