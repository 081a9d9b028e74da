package dev.jtecs.world;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.component.Components;
import dev.jtecs.component.ScalarComponent;
import dev.jtecs.component.TagComponent;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A world's bundle registry: names, lookups, duplicates. */
class BundlesTest {
    static final ScalarComponent.OfInt HP = Components.scalar("test.bundles.Hp", 10);
    static final TagComponent ORC = Components.tag("test.bundles.Orc");

    private final World world = World.create();

    @AfterEach
    void tearDown() {
        world.close();
    }

    @Test
    void aBundleIsFoundByItsName() {
        Bundle orc = world.newBundle("test.Orc", BundleDefinition.empty().with(ORC));
        assertSame(orc, world.getBundle("test.Orc"));
        assertNull(world.getBundle("test.Elf"));
        assertThrows(NullPointerException.class, () -> world.getBundle(null));
    }

    @Test
    void aDuplicateNameIsRefusedAndTheFirstBundleStands() {
        Bundle orc = world.newBundle("test.Orc", BundleDefinition.empty().with(ORC));
        IllegalArgumentException duplicate = assertThrows(IllegalArgumentException.class,
                () -> world.newBundle("test.Orc", BundleDefinition.required(HP)));
        assertEquals("newBundle(test.Orc): a bundle of that name already exists in this world: " + orc,
                duplicate.getMessage());
        assertSame(orc, world.getBundle("test.Orc"));
        long e = world.spawnBundle("test.Orc");
        assertTrue(world.has(e, ORC), "the first definition is the one spawned (HP is not required)");
        assertEquals(1, world.getBundles().size());
    }

    @Test
    void badNamesAndDefinitionsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> world.newBundle("  ", BundleDefinition.empty()));
        assertThrows(NullPointerException.class, () -> world.newBundle(null, BundleDefinition.empty()));
        assertThrows(NullPointerException.class, () -> world.newBundle("test.Orc", null));
        assertEquals(Map.of(), world.getBundles());
    }

    @Test
    void getBundlesIsAnUnmodifiableSnapshotInRegistrationOrder() {
        Bundle b = world.newBundle("b", BundleDefinition.empty());
        Bundle a = world.newBundle("a", BundleDefinition.empty());
        Map<String, Bundle> before = world.getBundles();
        world.newBundle("c", BundleDefinition.empty());
        assertEquals(List.of("b", "a"), List.copyOf(before.keySet()));
        assertSame(b, before.get("b"));
        assertSame(a, before.get("a"));
        assertEquals(List.of("b", "a", "c"), List.copyOf(world.getBundles().keySet()));
        assertThrows(UnsupportedOperationException.class, () -> before.remove("a"));
    }

    @Test
    void spawningAnUnknownBundleNamesTheKnownOnes() {
        world.newBundle("test.Orc", BundleDefinition.empty());
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
                () -> world.spawnBundle("test.Troll", HP));
        assertEquals("spawnBundle(test.Troll): no bundle of that name in this world (bundles: [test.Orc])",
                unknown.getMessage());
        assertEquals(0, world.entityCount());
    }

    @Test
    void bundlesBelongToOneWorld() {
        world.newBundle("test.Orc", BundleDefinition.empty());
        try (World other = World.create()) {
            assertNull(other.getBundle("test.Orc"));
            Bundle own = other.newBundle("test.Orc", BundleDefinition.required(HP)); // the same name is free there
            assertSame(own, other.getBundle("test.Orc"));
        }
    }

    @Test
    void closedWorldsRefuseBundleCalls() {
        world.close();
        assertThrows(IllegalStateException.class, () -> world.newBundle("x", BundleDefinition.empty()));
        assertThrows(IllegalStateException.class, () -> world.getBundle("x"));
        assertThrows(IllegalStateException.class, world::getBundles);
        assertThrows(IllegalStateException.class, () -> world.spawnBundle("x"));
    }
}
