package dev.jtecs.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.jtecs.builtin.EntityKey;
import dev.jtecs.builtin.Name;
import dev.jtecs.component.Components;
import dev.jtecs.component.ScalarComponent;
import dev.jtecs.component.TagComponent;
import dev.jtecs.storage.Archetype;
import dev.jtecs.world.World;
import java.util.NoSuchElementException;
import org.junit.jupiter.api.Test;

/** The examples of {@code docs/keys.md}. */
class KeysGuideTest {
    static final ScalarComponent.OfString KEY = EntityKey.COMPONENT;
    static final ScalarComponent.OfString NAME = Name.COMPONENT;
    static final TagComponent DOOR = Components.tag("docs.keys.Door");

    @Test
    void lookUpByKey() {
        try (World world = World.create()) {
            // begin-example
            long player = world.spawn(KEY.of("player"), NAME.of("Ada"));
            assertEquals(player, world.byKey("player"));
            assertEquals(player, world.requireKey("player"));
            assertEquals(0, world.byKey("nobody")); // 0: no live entity holds it
            assertThrows(NoSuchElementException.class, () -> world.requireKey("nobody"));

            world.despawn(player); // the key leaves with its holder...
            assertEquals(0, world.byKey("player"));
            long next = world.spawn(KEY.of("player")); // ...and is free to claim again
            assertEquals(next, world.byKey("player"));
            // end-example
        }
    }

    @Test
    void claimsAreCheckedAtTheCall() {
        try (World world = World.create()) {
            // begin-example
            world.spawn(KEY.of("player"));
            long other = world.spawn(DOOR);
            assertThrows(IllegalArgumentException.class, () -> world.spawn(KEY.of("player")));
            assertThrows(IllegalArgumentException.class, () -> world.set(other, KEY.of("player")));
            assertFalse(world.has(other, KEY)); // refused before anything changed
            assertEquals(2, world.entityCount());

            world.defer();
            long boss = world.spawn(KEY.of("boss")); // a claim staged in this scope...
            assertThrows(IllegalArgumentException.class, () -> world.spawn(KEY.of("boss"))); // ...counts
            assertEquals(0, world.byKey("boss")); // though lookups see published holders only
            world.commit();
            assertEquals(boss, world.byKey("boss"));

            assertThrows(IllegalArgumentException.class, () -> world.spawn(KEY)); // the default "" is no key
            assertThrows(IllegalArgumentException.class, () -> world.spawn(KEY.of("")));
            // end-example
        }
    }

    @Test
    void keysChangeThroughTheWorldOnly() {
        try (World world = World.create()) {
            // begin-example
            long id = world.spawn(DOOR, KEY.of("door.1"));
            world.set(id, KEY.of("door.2")); // written through: the index follows at once
            assertEquals(0, world.byKey("door.1"));
            assertEquals(id, world.byKey("door.2"));
            world.remove(id, KEY);
            assertEquals(0, world.byKey("door.2"));

            long gate = world.spawn(DOOR, KEY.of("gate"));
            Archetype archetype = world.archetypeOf(gate);
            int row = world.rowOf(gate);
            assertThrows(IllegalArgumentException.class, () -> archetype.set(row, KEY.of("wall")));
            assertThrows(IllegalArgumentException.class, () -> archetype.getMut(KEY));
            assertEquals("gate", archetype.get(KEY).get(row)); // reading the column is fine
            // end-example
        }
    }

    @Test
    void namesAreJustLabels() {
        try (World world = World.create()) {
            // begin-example
            long a = world.spawn(NAME.of("goblin"));
            long b = world.spawn(NAME.of("goblin")); // no uniqueness
            assertEquals("goblin", world.get(a, NAME));
            assertEquals("goblin", world.get(b, NAME));
            assertEquals(0, world.byKey("goblin")); // and no index: a name is not a key

            assertEquals("Name", NAME.name()); // the persisted names of the two built-ins
            assertEquals("Key", KEY.name());
            // end-example
        }
    }
}
