package dev.jtecs.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.component.Component;
import dev.jtecs.component.Components;
import dev.jtecs.component.FloatField;
import dev.jtecs.component.ManagedComponent;
import dev.jtecs.component.NativeComponent;
import dev.jtecs.component.ScalarComponent;
import dev.jtecs.component.StorageKind;
import dev.jtecs.component.TagComponent;
import dev.jtecs.world.World;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The examples of {@code docs/components.md}. */
class ComponentsGuideTest {
    record Velocity(float dx, float dy) {}

    record Inventory(List<String> items) {}

    /** A managed type without a default: no canonical record constructor, no no-argument constructor. */
    static final class Texture {
        final String path;

        Texture(String path) {
            this.path = path;
        }
    }

    static final ScalarComponent.OfDouble ARMOR = Components.scalar("docs.components.Armor", 0.0);
    static final ScalarComponent.OfInt SPEED = Components.scalar("docs.components.Speed", 1);
    static final TagComponent RUNNER = Components.tag("docs.components.Runner", o -> o.requires(SPEED.of(9)));
    static final TagComponent SCOUT = Components.tag("docs.components.Scout", o -> o.requires(SPEED.of(5)));
    static final TagComponent KNIGHT =
            Components.tag("docs.components.Knight", o -> o.requires(ARMOR.of(50.0), RUNNER));
    static final TagComponent CAVALRY =
            Components.tag("docs.components.Cavalry", o -> o.requires(KNIGHT, SPEED.of(3)));

    @Test
    void kindFollowsFromType() {
        // begin-example
        NativeComponent<Velocity> velocity =
                Components.register(Velocity.class, o -> o.name("docs.components.Velocity"));
        ManagedComponent<Inventory> inventory =
                Components.register(Inventory.class, o -> o.name("docs.components.Inventory"));
        TagComponent enemy = Components.tag("docs.components.Enemy");
        ScalarComponent.OfDouble health = Components.scalar("docs.components.Health", 100.0);

        assertEquals(StorageKind.NATIVE, velocity.storage());
        assertEquals(List.of("dx", "dy"), velocity.layout().fieldNames()); // one column per field
        assertEquals(StorageKind.MANAGED, inventory.storage());
        assertEquals(StorageKind.TAG, enemy.storage());
        assertEquals(StorageKind.SCALAR, health.storage());
        // end-example
    }

    @Test
    void explicitKindIsChecked() {
        // begin-example
        assertThrows(IllegalArgumentException.class, // not a record of primitives
                () -> Components.registerNative(Inventory.class, o -> o.name("docs.components.NativeInventory")));
        ManagedComponent<Velocity> boxed = // a primitive record kept on the heap on purpose
                Components.registerManaged(Velocity.class, o -> o.name("docs.components.BoxedVelocity"));
        assertEquals(StorageKind.MANAGED, boxed.storage());
        // end-example
    }

    @Test
    void valuesAndDefaults() {
        NativeComponent<Velocity> velocity =
                Components.register(Velocity.class, o -> o.name("docs.components.Velocity"));
        ManagedComponent<Inventory> inventory =
                Components.register(Inventory.class, o -> o.name("docs.components.Inventory"));
        TagComponent enemy = Components.tag("docs.components.Enemy");
        ScalarComponent.OfDouble health = Components.scalar("docs.components.Health", 100.0);
        try (World world = World.create()) {
            // begin-example
            long id = world.spawn(
                    velocity.of(new Velocity(1, 2)),             // a constructed value
                    health,                                      // a definition: its default, 100.0
                    enemy,                                       // tags are always the definition
                    inventory.of(new Inventory(List.of("key"))));
            long plain = world.spawn(velocity);

            assertEquals(new Velocity(1, 2), world.get(id, velocity)); // a new record built from the columns
            assertEquals(100.0, world.get(id, health));
            assertEquals(Boolean.TRUE, world.get(id, enemy));
            assertEquals(new Velocity(0, 0), world.get(plain, velocity)); // native default: all zero
            assertNull(world.get(plain, enemy));                          // absent
            // end-example
        }
    }

    @Test
    void namesAndLookup() {
        // begin-example
        ScalarComponent.OfInt level = Components.scalar("docs.components.Level", 1);
        assertEquals("docs.components.Level", level.name());
        assertSame(level, Components.findByName("docs.components.Level"));
        assertSame(level, Components.findById(level.id()));
        assertNull(Components.findById(0)); // ids start at 1
        assertThrows(IllegalArgumentException.class, () -> Components.requireById(0));
        // end-example
    }

    @Test
    void duplicateNames() {
        // begin-example
        TagComponent frozen = Components.tag("docs.components.Frozen");
        assertSame(frozen, Components.tag("docs.components.Frozen")); // the same definition: handed back

        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> Components.scalar("docs.components.Frozen", true)); // anything else: refused
        assertTrue(e.getMessage().contains("already registered"), e.getMessage());
        // end-example
    }

    @Test
    void registrationsWithFactoriesNeverMatch() {
        Components.registerManaged(Inventory.class,
                o -> o.name("docs.components.Backpack").defaults(() -> new Inventory(new ArrayList<>())));
        assertThrows(IllegalStateException.class, () -> Components.registerManaged(Inventory.class,
                o -> o.name("docs.components.Backpack").defaults(() -> new Inventory(new ArrayList<>()))));
    }

    @Test
    void transientComponents() {
        // begin-example
        ScalarComponent.OfDouble frameTime =
                Components.scalar("docs.components.FrameTime", 0.0, o -> o.transient_(true));
        assertTrue(frameTime.isTransient());
        assertFalse(Components.scalar("docs.components.Score", 0L).isTransient());
        // end-example
    }

    @Test
    void defaultFactories() {
        // begin-example
        ManagedComponent<Inventory> bag = Components.registerManaged(Inventory.class,
                o -> o.name("docs.components.Bag").defaults(() -> new Inventory(new ArrayList<>())));
        ManagedComponent<Inventory> unset =
                Components.registerManaged(Inventory.class, o -> o.name("docs.components.UnsetBag"));
        ManagedComponent<Texture> texture =
                Components.registerManaged(Texture.class, o -> o.name("docs.components.Texture"));

        try (World world = World.create()) {
            long a = world.spawn(bag, unset);
            long b = world.spawn(bag);
            assertNotSame(world.get(a, bag).items(), world.get(b, bag).items()); // one call per entity
            assertNull(world.get(a, unset).items()); // canonical constructor, zero and null arguments

            assertFalse(texture.hasDefault());
            assertThrows(IllegalArgumentException.class, () -> world.spawn(texture));
            world.spawn(texture.of(new Texture("stone.png"))); // a value is always fine
        }
        // end-example
    }

    @Test
    void requirementsExpandBreadthFirst() {
        try (World world = World.create()) {
            // begin-example
            long cavalry = world.spawn(CAVALRY);
            // Cavalry requires [Knight, Speed(3)], Knight requires [Armor(50), Runner],
            // Runner requires [Speed(9)]: everything arrives in the one spawn.
            assertTrue(world.has(cavalry, KNIGHT));
            assertTrue(world.has(cavalry, RUNNER));
            assertEquals(50.0, world.get(cavalry, ARMOR));
            assertEquals(3, world.get(cavalry, SPEED)); // met one level up, before Runner's Speed(9)

            long knight = world.spawn(KNIGHT);
            assertEquals(9, world.get(knight, SPEED)); // here only Runner names Speed
            // end-example
        }
    }

    @Test
    void requirementsInArgumentOrder() {
        try (World world = World.create()) {
            // begin-example
            long runnerFirst = world.spawn(RUNNER, SCOUT); // both require Speed, at the same depth
            long scoutFirst = world.spawn(SCOUT, RUNNER);
            assertEquals(9, world.get(runnerFirst, SPEED)); // the earlier argument is expanded first
            assertEquals(5, world.get(scoutFirst, SPEED));
            // end-example
        }
    }

    @Test
    void requirementsAreRulesForAdding() {
        try (World world = World.create()) {
            // begin-example
            long tough = world.spawn(KNIGHT, ARMOR.of(500.0)); // an explicit input beats the requirement
            assertEquals(500.0, world.get(tough, ARMOR));

            long veteran = world.spawn(ARMOR.of(7.0));
            world.set(veteran, KNIGHT); // Armor is already there and keeps its value
            assertEquals(7.0, world.get(veteran, ARMOR));
            assertEquals(9, world.get(veteran, SPEED)); // what was missing arrived with Knight

            world.remove(veteran, ARMOR); // allowed, and it sticks: nothing puts it back
            assertFalse(world.has(veteran, ARMOR));
            world.remove(veteran, KNIGHT);
            world.set(veteran, KNIGHT); // adding Knight again expands again
            assertEquals(50.0, world.get(veteran, ARMOR));
            // end-example
        }
    }

    @Test
    void fieldHandles() {
        NativeComponent<Velocity> velocity =
                Components.register(Velocity.class, o -> o.name("docs.components.Velocity"));
        // begin-example
        FloatField dx = velocity.floatField("dx");
        assertEquals(0, dx.field()); // declaration order
        assertSame(velocity, dx.component());
        assertThrows(IllegalArgumentException.class, () -> velocity.floatField("dz")); // no such field
        assertThrows(IllegalArgumentException.class, () -> velocity.intField("dx"));   // wrong type
        // end-example
    }

    @Test
    void declaredListsEveryDefinition() {
        // begin-example
        List<Component<?>> all = Components.declared(); // an immutable copy, in id order
        assertEquals(Components.count(), all.size());
        for (int i = 0; i < all.size(); i++) {
            assertEquals(i + 1, all.get(i).id()); // dense ids
        }
        // end-example
    }
}
