package dev.jtecs.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.component.Components;
import dev.jtecs.component.NativeComponent;
import dev.jtecs.entity.Entity;
import dev.jtecs.world.World;
import dev.jtecs.world.WorldConfig;
import org.junit.jupiter.api.Test;

/** The examples of {@code docs/entities.md}. */
class EntitiesGuideTest {
    record Position(float x, float y) {}

    static final NativeComponent<Position> POSITION =
            Components.registerNative(Position.class, o -> o.name("docs.entities.Position"));

    @Test
    void idsPackSlotAndGeneration() {
        try (World world = World.create()) {
            // begin-example
            long first = world.spawn(POSITION);
            long second = world.spawn(POSITION);

            assertEquals(1L, first); // slot 1, generation 0: the packed long is just 1
            assertEquals(2, Entity.slot(second));
            assertEquals(0, Entity.generation(second));
            assertEquals(Entity.pack(2, 0), second);
            assertEquals("2#0", Entity.toString(second));
            // end-example
        }
    }

    @Test
    void slotZeroIsTheWorld() {
        try (World world = World.create()) {
            // begin-example
            assertEquals(0L, Entity.WORLD);
            assertFalse(Entity.isWellFormed(Entity.WORLD));
            assertFalse(world.isAlive(Entity.WORLD));
            assertEquals("world(0)", Entity.toString(Entity.WORLD));
            assertThrows(IllegalArgumentException.class, () -> Entity.pack(0, 0));
            assertThrows(IllegalArgumentException.class, () -> world.despawn(Entity.WORLD));
            // end-example
        }
    }

    @Test
    void staleHandlesAreRejected() {
        try (World world = World.create()) {
            // begin-example
            long old = world.spawn(POSITION.of(new Position(1, 1)));
            world.despawn(old);

            long reused = world.spawn(POSITION.of(new Position(2, 2)));
            assertEquals(Entity.slot(old), Entity.slot(reused));
            assertEquals(Entity.generation(old) + 1, Entity.generation(reused));

            // Reads answer "not there" for the old handle...
            assertFalse(world.isAlive(old));
            assertNull(world.get(old, POSITION));
            // ...and mutations refuse it, naming both generations.
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> world.set(old, POSITION.of(new Position(9, 9))));
            assertTrue(e.getMessage().contains("id generation=0 current generation=1"), e.getMessage());
            assertEquals(new Position(2, 2), world.get(reused, POSITION));
            // end-example
        }
    }

    @Test
    void spawnAtRevivesAChosenId() {
        try (World world = World.create()) {
            // begin-example
            long saved = Entity.pack(10, 3); // slot 10, generation 3, e.g. read from a save file
            world.spawnAt(saved, POSITION.of(new Position(4, 2)));
            assertTrue(world.isAlive(saved));
            assertEquals(new Position(4, 2), world.get(saved, POSITION));

            // Slots 1..9 were skipped over; they are free and plain spawns use them.
            long fresh = world.spawn(POSITION);
            assertTrue(Entity.slot(fresh) < 10);
            assertEquals(0, Entity.generation(fresh));

            // A slot in use is refused, whatever generation the id asks for.
            assertThrows(IllegalArgumentException.class, () -> world.spawnAt(saved, POSITION));
            assertThrows(IllegalArgumentException.class, () -> world.spawnAt(Entity.pack(10, 4), POSITION));
            // So is a slot whose spawn is staged but not published yet.
            world.defer();
            long pending = world.spawn(POSITION);
            assertThrows(IllegalArgumentException.class, () -> world.spawnAt(pending, POSITION));
            world.commit();
            // end-example
        }
    }

    @Test
    void spawnAtRefusesAStaleGeneration() {
        try (World world = World.create()) {
            // begin-example
            long original = world.spawn(POSITION);
            world.despawn(original);
            assertFalse(world.isAlive(original));

            // The very same id would make the old handle valid again: refused.
            assertThrows(IllegalArgumentException.class, () -> world.spawnAt(original, POSITION));
            long next = Entity.pack(Entity.slot(original), Entity.generation(original) + 1);
            world.spawnAt(next, POSITION); // the slot's current generation (or a later one) is accepted
            assertTrue(world.isAlive(next));
            assertFalse(world.isAlive(original));
            // end-example
        }
    }

    @Test
    void capacityComesFromTheConfig() {
        // begin-example
        assertEquals(1 << 22, Entity.DEFAULT_MAX_ENTITIES);
        assertEquals(Entity.DEFAULT_MAX_ENTITIES, WorldConfig.defaults().maxEntities());
        assertEquals((1 << 30) - 1, Entity.MAX_ENTITIES);
        assertThrows(IllegalArgumentException.class,
                () -> WorldConfig.defaults().maxEntities(Entity.MAX_ENTITIES + 1));

        try (World world = World.create(WorldConfig.defaults().maxEntities(2))) {
            long a = world.spawn(POSITION);
            world.defer();
            world.spawn(POSITION); // staged, yet it holds its slot already
            assertThrows(IllegalStateException.class, () -> world.spawn(POSITION)); // a third does not fit
            assertThrows(IllegalArgumentException.class, () -> world.spawnAt(Entity.pack(3, 0), POSITION));

            world.despawn(a); // staged too: a's slot stays in use until it is published
            assertThrows(IllegalStateException.class, () -> world.spawn(POSITION));
            world.commit();
            long c = world.spawn(POSITION); // a's slot is free again
            assertEquals(Entity.slot(a), Entity.slot(c));
        }
        // end-example
    }
}
