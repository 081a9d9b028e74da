package dev.jtecs.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.component.Components;
import dev.jtecs.component.ManagedComponent;
import dev.jtecs.component.NativeComponent;
import dev.jtecs.component.ScalarComponent;
import dev.jtecs.component.TagComponent;
import dev.jtecs.entity.Entity;
import dev.jtecs.event.OnSpawn;
import dev.jtecs.state.StatePolicy;
import dev.jtecs.world.Bundle;
import dev.jtecs.world.BundleDefinition;
import dev.jtecs.world.World;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The examples of {@code docs/bundles.md}. */
class BundlesGuideTest {
    record Position(float x, float y) {}

    record Velocity(float dx, float dy) {}

    record Loot(List<String> items) {}

    static final NativeComponent<Position> POSITION =
            Components.registerNative(Position.class, o -> o.name("docs.bundles.Position"));
    static final NativeComponent<Velocity> VELOCITY =
            Components.registerNative(Velocity.class, o -> o.name("docs.bundles.Velocity"));
    static final ManagedComponent<Loot> LOOT =
            Components.registerManaged(Loot.class, o -> o.name("docs.bundles.Loot"));
    static final ScalarComponent.OfInt DAMAGE = Components.scalar("docs.bundles.Damage", 1);
    static final TagComponent PROJECTILE = Components.tag("docs.bundles.Projectile");
    static final TagComponent ENEMY = Components.tag("docs.bundles.Enemy");

    @Test
    void aBulletBundle() {
        try (World world = World.create()) {
            // begin-example
            Bundle bullet = world.newBundle("game.Bullet", BundleDefinition
                    .required(POSITION, VELOCITY)        // every spawn must say where and how fast
                    .with(DAMAGE.of(10), PROJECTILE));   // filled in unless the spawn says otherwise

            long shot = bullet.spawn(POSITION.of(new Position(0, 0)), VELOCITY.of(new Velocity(8, 0)));
            long heavy = bullet.spawn(POSITION.of(new Position(0, 0)), VELOCITY.of(new Velocity(4, 0)),
                    DAMAGE.of(50));                      // replaces the default

            assertEquals(10, world.get(shot, DAMAGE));
            assertTrue(world.has(shot, PROJECTILE));
            assertEquals(50, world.get(heavy, DAMAGE));
            // end-example
        }
    }

    @Test
    void sharedValuesAndFactories() {
        try (World world = World.create()) {
            // begin-example
            Loot nothing = new Loot(List.of());
            Bundle crate = world.newBundle("game.Crate", BundleDefinition.required(POSITION)
                    .with(LOOT.of(nothing)));                         // one object for every crate
            Bundle goblin = world.newBundle("game.Goblin", BundleDefinition.required(POSITION)
                    .with(ENEMY)
                    .with(LOOT, () -> new Loot(new ArrayList<>())));  // a fresh list per goblin

            long c1 = crate.spawn(POSITION);
            long c2 = crate.spawn(POSITION);
            long g1 = goblin.spawn(POSITION);
            long g2 = goblin.spawn(POSITION);
            assertSame(world.get(c1, LOOT), world.get(c2, LOOT));
            assertNotSame(world.get(g1, LOOT), world.get(g2, LOOT));
            world.get(g1, LOOT).items().add("dagger");               // safe: g2's list is another one
            assertEquals(List.of(), world.get(g2, LOOT).items());
            // end-example
        }
    }

    @Test
    void missingRequiredComponents() {
        try (World world = World.create()) {
            // begin-example
            Bundle bullet = world.newBundle("game.Bullet",
                    BundleDefinition.required(POSITION, VELOCITY).with(PROJECTILE));

            IllegalArgumentException missing = assertThrows(IllegalArgumentException.class,
                    () -> bullet.spawn(POSITION.of(new Position(1, 1))));
            assertEquals("bundle 'game.Bullet' requires [docs.bundles.Position, docs.bundles.Velocity]; "
                    + "missing [docs.bundles.Velocity] (nothing was spawned)", missing.getMessage());
            assertEquals(0, world.entityCount());

            bullet.spawn(POSITION, VELOCITY); // passing a definition takes its default, on purpose
            assertEquals(1, world.entityCount());
            // end-example
        }
    }

    @Test
    void findingBundles() {
        try (World world = World.create()) {
            // begin-example
            world.newBundle("game.Bullet", BundleDefinition.required(VELOCITY).with(PROJECTILE));
            world.newBundle("game.Goblin", BundleDefinition.empty().with(ENEMY));

            long shot = world.spawnBundle("game.Bullet", VELOCITY.of(new Velocity(3, 0)));
            assertTrue(world.has(shot, PROJECTILE));
            assertEquals(List.of("game.Bullet", "game.Goblin"), List.copyOf(world.getBundles().keySet()));
            assertEquals(List.of(VELOCITY), world.getBundle("game.Bullet").required());
            assertNull(world.getBundle("game.Dragon"));
            assertThrows(IllegalArgumentException.class, () -> world.spawnBundle("game.Dragon"));
            assertThrows(IllegalArgumentException.class, // names are unique per world
                    () -> world.newBundle("game.Goblin", BundleDefinition.empty()));
            // end-example
        }
    }

    @Test
    void aBundleSpawnIsASpawn() {
        try (World world = World.create()) {
            // begin-example
            TagComponent level = world.createState("level", StatePolicy.despawnOnExit());
            Bundle goblin = world.newBundle("game.Goblin", BundleDefinition.empty().with(ENEMY));
            List<Long> announced = new ArrayList<>();
            world.observe(Entity.WORLD, OnSpawn.class, event -> announced.add(event.entity()));

            world.pushState("level");
            long g = goblin.spawn();
            assertEquals(List.of(g), announced);
            assertTrue(world.has(g, level));    // joined the active state
            world.popState();
            assertTrue(!world.isAlive(g));      // and left with it
            // end-example
        }
    }
}
