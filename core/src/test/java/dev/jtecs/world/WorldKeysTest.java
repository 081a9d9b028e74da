package dev.jtecs.world;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.builtin.EntityKey;
import dev.jtecs.builtin.Name;
import dev.jtecs.component.Components;
import dev.jtecs.component.Input;
import dev.jtecs.component.ScalarComponent;
import dev.jtecs.component.TagComponent;
import java.util.NoSuchElementException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** EntityKey uniqueness and lookup, Name, and requirement expansion. */
class WorldKeysTest {
    static final ScalarComponent.OfString KEY = EntityKey.COMPONENT;
    static final ScalarComponent.OfInt ARMOR = Components.scalar("test.keys.Armor", 0);
    static final ScalarComponent.OfInt SPEED = Components.scalar("test.keys.Speed", 1);
    static final TagComponent RUNNER = Components.tag("test.keys.Runner", o -> o.requires(SPEED.of(9)));
    static final TagComponent KNIGHT = Components.tag("test.keys.Knight",
            o -> o.requires(ARMOR.of(50), RUNNER));
    static final TagComponent FAST_KNIGHT = Components.tag("test.keys.FastKnight",
            o -> o.requires(KNIGHT, SPEED.of(3)));
    static final TagComponent PING = Components.tag("test.keys.Ping");
    static final TagComponent PONG = Components.tag("test.keys.Pong", o -> o.requires(PING, RUNNER));

    private final World world = World.create();

    @AfterEach
    void tearDown() {
        world.close();
    }

    @Test
    void byKeyFindsTheLiveHolderAndRequireKeyThrowsOtherwise() {
        long player = world.spawn(KEY.of("player"));
        assertEquals(player, world.byKey("player"));
        assertEquals(player, world.requireKey("player"));
        assertEquals(0, world.byKey("nobody"));
        assertThrows(NoSuchElementException.class, () -> world.requireKey("nobody"));
        world.despawn(player);
        assertEquals(0, world.byKey("player"), "a despawn releases the key");
        long next = world.spawn(KEY.of("player"));
        assertEquals(next, world.byKey("player"));
    }

    @Test
    void duplicateKeysAreRejectedBeforeVisibilityAndChangeNothing() {
        long player = world.spawn(KEY.of("player"));
        long other = world.spawn(ARMOR);
        int count = world.entityCount();
        assertThrows(IllegalArgumentException.class, () -> world.spawn(KEY.of("player")));
        assertThrows(IllegalArgumentException.class, () -> world.set(other, KEY.of("player")));
        assertEquals(count, world.entityCount());
        assertFalse(world.has(other, KEY));
        world.defer();
        long staged = world.spawn(KEY.of("boss"));
        assertThrows(IllegalArgumentException.class, () -> world.spawn(KEY.of("boss")),
                "a claim staged in this transaction counts too");
        world.commit();
        assertEquals(staged, world.byKey("boss"));
        assertEquals(player, world.byKey("player"));
        assertThrows(IllegalArgumentException.class, () -> world.spawn(KEY), "the empty key is not a key");
        assertThrows(IllegalArgumentException.class, () -> world.spawn(KEY.of("")));
    }

    @Test
    void changingAKeyThroughSetMovesTheIndexEntry() {
        long id = world.spawn(KEY.of("a"));
        world.set(id, KEY.of("b")); // write-through
        assertEquals(0, world.byKey("a"));
        assertEquals(id, world.byKey("b"));
        world.remove(id, KEY);
        assertEquals(0, world.byKey("b"));
        world.set(id, KEY.of("c")); // adds the component again
        assertEquals(id, world.byKey("c"));
    }

    @Test
    void columnWritesCannotBypassTheIndex() {
        long id = world.spawn(KEY.of("k"));
        assertThrows(IllegalArgumentException.class, () -> world.archetypeOf(id).set(0, KEY.of("z")));
        assertThrows(IllegalArgumentException.class, () -> world.archetypeOf(id).getMut(KEY));
        assertEquals("k", world.archetypeOf(id).get(KEY).get(0));
        assertThrows(UnsupportedOperationException.class, () -> world.archetypeOf(id).get(KEY).set(0, "z"),
                "even the read view refuses writes");
        assertEquals(id, world.byKey("k"));
    }

    @Test
    void namesAreStoredButNotIndexedOrUnique() {
        long a = world.spawn(Name.COMPONENT.of("goblin"));
        long b = world.spawn(Name.COMPONENT.of("goblin"));
        assertEquals("goblin", world.get(a, Name.COMPONENT));
        assertEquals("goblin", world.get(b, Name.COMPONENT));
        assertEquals(0, world.byKey("goblin"));
        assertEquals("Name", Name.COMPONENT.name());
        assertEquals("Key", KEY.name());
    }

    @Test
    void requirementsExpandBreadthFirstAndTheFirstRequirementWins() {
        long knight = world.spawn(FAST_KNIGHT);
        // FastKnight requires [Knight, Speed(3)]; Knight requires [Armor(50), Runner]; Runner requires Speed(9).
        // Breadth first: Speed(3) is met at depth 1, before Runner's Speed(9) at depth 3.
        assertEquals(3, world.get(knight, SPEED));
        assertEquals(50, world.get(knight, ARMOR));
        assertTrue(world.has(knight, RUNNER));
        long plainKnight = world.spawn(KNIGHT);
        assertEquals(9, world.get(plainKnight, SPEED));
    }

    @Test
    void explicitAndPresentValuesWinAndRequirementsAreAdditionRules() {
        long explicit = world.spawn(KNIGHT, ARMOR.of(5));
        assertEquals(5, world.get(explicit, ARMOR));
        long present = world.spawn(SPEED.of(100));
        world.set(present, RUNNER);
        assertEquals(100, world.get(present, SPEED), "a present component keeps its value");
        world.remove(present, SPEED);
        assertTrue(world.has(present, RUNNER));
        assertFalse(world.has(present, SPEED), "removing a requirement is allowed and sticks");
        world.remove(present, RUNNER);
        world.set(present, RUNNER);
        assertEquals(9, world.get(present, SPEED), "re-adding expands again");
    }

    @Test
    void sharedRequirementsAreExpandedOnce() {
        // a definition can only require definitions registered before it, so cycles cannot be declared;
        // expansion still visits each component once when several paths lead to it
        long id = world.spawn(PONG, FAST_KNIGHT);
        assertTrue(world.has(id, PING));
        assertTrue(world.has(id, RUNNER));
        assertEquals(3, world.get(id, SPEED), "FastKnight's Speed(3) is met before Runner's Speed(9)");
        Input[] both = {PING, PONG};
        assertTrue(world.isAlive(world.spawn(both)));
    }
}
