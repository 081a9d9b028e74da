package dev.jtecs.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.jtecs.component.Components;
import dev.jtecs.component.ScalarComponent;
import dev.jtecs.component.TagComponent;
import dev.jtecs.entity.Entity;
import dev.jtecs.event.ArchetypeCreated;
import dev.jtecs.storage.EntityObserver;
import dev.jtecs.event.Observer;
import dev.jtecs.event.OnDespawn;
import dev.jtecs.event.OnSpawn;
import dev.jtecs.storage.Archetype;
import dev.jtecs.world.World;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The examples of {@code docs/events.md}. */
class EventsGuideTest {
    static final ScalarComponent.OfInt HEALTH = Components.scalar("docs.events.Health", 10);
    static final TagComponent ENEMY = Components.tag("docs.events.Enemy");
    static final TagComponent MARKED = Components.tag("docs.events.Marked");

    /** A game event: some damage dealt to whatever is at the address. */
    record Damage(int amount) {}

    /** An event family: observers of {@code Noise} hear any noise delivered under that type. */
    interface Noise {}

    record Explosion(float radius) implements Noise {}

    @Test
    void observeAndEmit() {
        try (World world = World.create()) {
            // begin-example
            long target = world.spawn(HEALTH.of(10));
            world.observe(target, Damage.class,
                    damage -> world.set(target, HEALTH.of(world.get(target, HEALTH) - damage.amount())));

            world.emit(target, new Damage(3)); // runs the observer before emit returns
            assertEquals(7, world.get(target, HEALTH));

            world.emit(Entity.WORLD, new Damage(3)); // nobody observes Damage at the world
            assertEquals(7, world.get(target, HEALTH));
            // end-example
        }
    }

    @Test
    void deliverUnderAnotherType() {
        try (World world = World.create()) {
            // begin-example
            List<String> heard = new ArrayList<>();
            world.observe(Entity.WORLD, Noise.class, noise -> heard.add("noise: " + noise));
            world.observe(Entity.WORLD, Explosion.class, explosion -> heard.add("boom " + explosion.radius()));

            world.emit(Entity.WORLD, new Explosion(2)); // under Explosion.class only
            world.deliver(Entity.WORLD, Noise.class, new Explosion(5)); // under the type given
            assertEquals(List.of("boom 2.0", "noise: Explosion[radius=5.0]"), heard);
            // end-example
        }
    }

    @Test
    void managingRegistrations() {
        try (World world = World.create()) {
            // begin-example
            long id = world.spawn(ENEMY);
            List<String> log = new ArrayList<>();
            Observer<Damage> logger = damage -> log.add("hit " + damage.amount());
            world.observe(id, Damage.class, logger);
            world.observeOnce(id, Damage.class, damage -> log.add("first blood"));
            world.observe(id, Damage.class, damage -> log.add("ouch"), "sound");
            assertThrows(IllegalArgumentException.class, // ids are unique per address and type
                    () -> world.observe(id, Damage.class, damage -> { }, "sound"));

            world.emit(id, new Damage(1));
            world.emit(id, new Damage(2));
            assertEquals(List.of("hit 1", "first blood", "ouch", "hit 2", "ouch"), log);

            assertTrue(world.stopObserving(id, Damage.class, "sound"));  // by id
            assertTrue(world.stopObserving(id, Damage.class, logger));   // by the callback object
            assertFalse(world.stopObserving(id, Damage.class, logger)); // already gone
            assertFalse(world.hasObservers(id, Damage.class));

            world.observe(id, Damage.class, logger);
            world.observe(id, Noise.class, noise -> { });
            world.clearObservers(id); // every type at this address
            assertFalse(world.hasObservers(id, Damage.class));
            assertFalse(world.hasObservers(id, Noise.class));
            // end-example
        }
    }

    @Test
    void deliveriesUseASnapshot() {
        try (World world = World.create()) {
            // begin-example
            List<String> log = new ArrayList<>();
            Observer<Damage> second = damage -> log.add("second");
            world.observe(Entity.WORLD, Damage.class, damage -> {
                log.add("first");
                world.stopObserving(Entity.WORLD, Damage.class, second); // still runs this time
                world.observe(Entity.WORLD, Damage.class, late -> log.add("late")); // from the next one on
            });
            world.observe(Entity.WORLD, Damage.class, second);

            world.emit(Entity.WORLD, new Damage(1));
            assertEquals(List.of("first", "second"), log);
            // end-example
        }
    }

    @Test
    void addressesLiveAndDieWithTheirEntity() {
        try (World world = World.create()) {
            // begin-example
            long first = world.spawn(ENEMY);
            world.observe(first, Damage.class, damage -> fail("an observer outlived its entity"));
            world.despawn(first); // observers at the entity's address go with it

            long reused = world.spawn(ENEMY);
            assertEquals(Entity.slot(first), Entity.slot(reused));
            world.emit(reused, new Damage(1)); // the slot's new entity starts with no observers

            assertThrows(IllegalArgumentException.class, () -> world.emit(first, new Damage(1)));
            assertThrows(IllegalArgumentException.class, () -> world.observe(first, Damage.class, d -> { }));

            world.defer();
            long pending = world.spawn(ENEMY);
            world.observe(pending, Damage.class, damage -> { }); // a staged id is a valid address
            world.commit();
            assertTrue(world.hasObservers(pending, Damage.class));
            // end-example
        }
    }

    @Test
    void onSpawnRunsWhileTheEntityIsStaged() {
        try (World world = World.create()) {
            // begin-example
            List<Boolean> aliveDuringEvent = new ArrayList<>();
            world.observe(Entity.WORLD, OnSpawn.class, event -> {
                aliveDuringEvent.add(world.isAlive(event.entity()));
                world.set(event.entity(), MARKED); // staged: joins the spawn it reacts to
            });

            long id = world.spawn(ENEMY);
            assertEquals(List.of(false), aliveDuringEvent);
            assertTrue(world.has(id, MARKED));
            assertEquals(2, world.archetypeCount()); // the root and {Enemy, Marked}: no {Enemy} on the way
            // end-example
        }
    }

    @Test
    void onDespawnSeesTheEntityStillAlive() {
        try (World world = World.create()) {
            // begin-example
            long boss = world.spawn(ENEMY, HEALTH.of(40));
            long minion = world.spawn(ENEMY);
            List<String> log = new ArrayList<>();
            world.observe(boss, OnDespawn.class, event -> {
                log.add("boss leaves with " + event.get(HEALTH) + " health, alive=" + world.isAlive(boss));
                event.despawn(minion); // joins the same publication
            });
            world.observe(Entity.WORLD, OnDespawn.class,
                    event -> log.add("gone " + event.entity() + ", requested " + event.requestedDespawns()));

            world.despawn(boss);
            assertEquals(List.of(
                    "boss leaves with 40 health, alive=true",
                    "gone " + minion + ", requested []",        // the minion's event runs inside the boss's
                    "gone " + boss + ", requested [" + minion + "]"), log);
            assertFalse(world.isAlive(boss));
            assertFalse(world.isAlive(minion));
            assertFalse(world.hasObservers(boss, OnDespawn.class)); // cleared with the entity
            // end-example
        }
    }

    @Test
    void cancelledSpawnsAreAnnouncedToo() {
        try (World world = World.create()) {
            // begin-example
            List<String> log = new ArrayList<>();
            world.observe(Entity.WORLD, OnDespawn.class,
                    event -> log.add(event.source() + " " + event.row() + " " + event.get(HEALTH)));

            world.defer();
            long id = world.spawn(HEALTH.of(5));
            world.despawn(id); // cancels the staged spawn: announced all the same
            world.despawn(id); // already leaving: no second event
            world.commit();
            assertEquals(List.of("null -1 null"), log); // no archetype, no row, no values
            // end-example
        }
    }

    @Test
    void entityObservers() {
        try (World world = World.create()) {
            // begin-example
            List<String> log = new ArrayList<>();
            world.observe(Entity.WORLD, ArchetypeCreated.class, created -> {
                log.add("created with " + created.archetype().count() + " rows");
                created.archetype().addEntityObserver(new EntityObserver() {
                    @Override
                    public void onEntitiesAdded(Archetype archetype, int fromRow, int toRow, Archetype other) {
                        log.add("added [" + fromRow + ", " + toRow + ")");
                    }

                    @Override
                    public void onEntitiesRemoved(Archetype archetype, int fromRow, int toRow, Archetype other) {
                        log.add("removed [" + fromRow + ", " + toRow + ")");
                    }

                    @Override
                    public void onEntityMove(Archetype archetype, long entity, int fromRow, int toRow) {
                        log.add("entity " + entity + " moved " + fromRow + " -> " + toRow);
                    }

                    @Override
                    public void onActivated(Archetype archetype) {
                        log.add("activated");
                    }

                    @Override
                    public void onDeactivated(Archetype archetype) {
                        log.add("deactivated");
                    }
                });
            });

            long a = world.spawn(ENEMY);
            long b = world.spawn(ENEMY);
            world.despawn(a); // b, the last row, fills the hole
            world.despawn(b);
            assertEquals(List.of("created with 0 rows", "activated", "added [0, 1)", "added [1, 2)",
                    "removed [0, 1)", "entity " + b + " moved 1 -> 0", "removed [0, 1)", "deactivated"), log);
            // end-example
        }
    }

    @Test
    void movesNameTheOtherArchetype() {
        try (World world = World.create()) {
            // begin-example
            long id = world.spawn(ENEMY);
            Archetype plain = world.archetypeOf(id);
            List<String> log = new ArrayList<>();
            EntityObserver watcher = new EntityObserver() {
                @Override
                public void onEntitiesRemoved(Archetype archetype, int fromRow, int toRow, Archetype other) {
                    log.add("leaves for " + other.components().size() + " components");
                }
            };
            plain.addEntityObserver(watcher); // rows already there are not replayed

            world.set(id, MARKED); // a move: the row leaves {Enemy} for {Enemy, Marked}
            assertEquals(List.of("leaves for 2 components"), log);
            assertTrue(plain.removeEntityObserver(watcher));
            assertFalse(plain.removeEntityObserver(watcher));
            // end-example
        }
    }
}
