package dev.jtecs.world;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.component.Components;
import dev.jtecs.component.ScalarComponent;
import dev.jtecs.component.TagComponent;
import dev.jtecs.event.ArchetypeCreated;
import dev.jtecs.storage.EntityObserver;
import dev.jtecs.event.Observer;
import dev.jtecs.event.OnDespawn;
import dev.jtecs.event.OnSpawn;
import dev.jtecs.storage.Archetype;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Lifecycle events, observers at addresses, and archetype entity observers. */
class WorldEventsTest {
    static final ScalarComponent.OfInt HP = Components.scalar("test.events.Hp", 10);
    static final TagComponent A = Components.tag("test.events.A");
    static final TagComponent B = Components.tag("test.events.B");

    record Ping(int n) {}

    interface Signal {}

    record Loud(String what) implements Signal {}

    private final World world = World.create();
    private final List<String> log = new ArrayList<>();

    @AfterEach
    void tearDown() {
        world.close();
    }

    @Test
    void onSpawnFiresOncePerSpawnDuringTheCallWhileStagedAndMayStageWork() {
        world.observe(0, OnSpawn.class, event -> {
            log.add("spawn " + event.entity() + " alive=" + world.isAlive(event.entity()));
            world.set(event.entity(), B); // staged against the pending id
        });
        long a = world.spawn(A);
        world.defer();
        long b = world.spawn(A);
        world.spawnAt(dev.jtecs.entity.Entity.pack(40, 0), A);
        world.commit();
        assertEquals(List.of("spawn " + a + " alive=false", "spawn " + b + " alive=false",
                "spawn " + dev.jtecs.entity.Entity.pack(40, 0) + " alive=false"), log);
        assertTrue(world.has(a, B) && world.has(b, B));
    }

    @Test
    void onDespawnFiresAtTheEntityThenTheWorldWithTheEntityStillReadable() {
        long id = world.spawn(HP.of(7), A);
        Archetype home = world.archetypeOf(id);
        world.observe(id, OnDespawn.class, event -> log.add("entity " + event.get(HP) + " alive="
                + world.isAlive(event.entity()) + " row=" + event.row() + " same=" + (event.source() == home)));
        world.observe(0, OnDespawn.class, event -> log.add("world " + event.get(HP)));
        world.despawn(id);
        assertEquals(List.of("entity 7 alive=true row=0 same=true", "world 7"), log);
        assertFalse(world.isAlive(id));
        assertFalse(world.hasObservers(id, OnDespawn.class), "entity-address observers end with the entity");
    }

    @Test
    void onDespawnCanRequestMoreDespawnsIntoTheSameCommit() {
        long parent = world.spawn(A);
        long child = world.spawn(B);
        List<Long> requested = new ArrayList<>();
        world.observe(parent, OnDespawn.class, event -> {
            event.despawn(child);
            requested.addAll(event.requestedDespawns());
        });
        world.observe(0, OnDespawn.class, event -> log.add("despawn " + event.entity()));
        world.despawn(parent);
        assertEquals(List.of(child), requested);
        assertEquals(List.of("despawn " + child, "despawn " + parent), log, "the child's event nests inside");
        assertFalse(world.isAlive(parent));
        assertFalse(world.isAlive(child));
    }

    @Test
    void despawningAStagedSpawnStillDeliversOnDespawnAndTwiceDeliversOnce() {
        world.observe(0, OnDespawn.class, event -> log.add(event.entity() + " source=" + event.source()
                + " row=" + event.row() + " hp=" + event.get(HP)));
        world.defer();
        long id = world.spawn(HP.of(3));
        world.despawn(id);
        world.despawn(id);
        world.commit();
        assertEquals(List.of(id + " source=null row=-1 hp=null"), log);
        long other = world.spawn(A);
        world.defer();
        world.despawn(other);
        world.despawn(other);
        world.commit();
        assertEquals(2, log.size());
    }

    @Test
    void despawningASpawnStillBeingPublishedReportsNoRow() {
        List<OnDespawn> events = new ArrayList<>();
        world.observe(0, OnDespawn.class, events::add);
        world.observe(0, ArchetypeCreated.class, created -> {
            if (created.archetype().has(B)) {
                created.archetype().addEntityObserver(new EntityObserver() {
                    @Override
                    public void onEntitiesAdded(Archetype archetype, int from, int to, Archetype other) {
                        // despawn the row just placed: its record belongs to the wave being published
                        world.despawn(archetype.entity(from));
                    }
                });
            }
        });
        long id = world.spawn(B);
        assertFalse(world.isAlive(id));
        assertEquals(1, events.size());
        assertEquals(id, events.get(0).entity());
        assertTrue(events.get(0).row() == -1 || events.get(0).source() != null,
                "a row is reported only with its archetype");
    }

    @Test
    void observersOnAnEntityNeverSurviveSlotReuse() {
        long first = world.spawn(A);
        world.observe(first, Ping.class, ping -> log.add("old " + ping.n()));
        world.despawn(first);
        long reused = world.spawn(A);
        assertEquals(dev.jtecs.entity.Entity.slot(first), dev.jtecs.entity.Entity.slot(reused));
        world.emit(reused, new Ping(1));
        assertEquals(List.of(), log);
        assertThrows(IllegalArgumentException.class, () -> world.emit(first, new Ping(2)), "dead address");
        assertThrows(IllegalArgumentException.class, () -> world.observe(first, Ping.class, p -> { }));
    }

    @Test
    void observeOnceStopObservingByCallbackOrIdAndClear() {
        long id = world.spawn(A);
        Observer<Ping> keep = ping -> log.add("keep " + ping.n());
        world.observe(id, Ping.class, keep);
        world.observeOnce(id, Ping.class, ping -> log.add("once " + ping.n()));
        world.observe(id, Ping.class, ping -> log.add("named " + ping.n()), "named");
        assertThrows(IllegalArgumentException.class, () -> world.observe(id, Ping.class, p -> { }, "named"));
        world.emit(id, new Ping(1));
        world.emit(id, new Ping(2));
        assertEquals(List.of("keep 1", "once 1", "named 1", "keep 2", "named 2"), log);
        assertTrue(world.stopObserving(id, Ping.class, "named"));
        assertFalse(world.stopObserving(id, Ping.class, "named"));
        assertTrue(world.stopObserving(id, Ping.class, keep));
        assertFalse(world.hasObservers(id, Ping.class));
        world.observe(id, Ping.class, keep);
        world.clearObservers(id);
        world.emit(id, new Ping(3));
        assertEquals(5, log.size());
    }

    @Test
    void deliveryUsesASnapshotSoChangesApplyToLaterDeliveries() {
        Observer<Ping> second = ping -> log.add("second " + ping.n());
        world.observe(0, Ping.class, ping -> {
            log.add("first " + ping.n());
            world.observe(0, Ping.class, p -> log.add("late " + p.n()));
            world.stopObserving(0, Ping.class, second);
        });
        world.observe(0, Ping.class, second);
        world.emit(0, new Ping(1));
        assertEquals(List.of("first 1", "second 1"), log);
    }

    @Test
    void deliverUsesAnExplicitTypeAndEmitTheEventClass() {
        world.observe(0, Signal.class, signal -> log.add("signal " + signal));
        world.observe(0, Loud.class, loud -> log.add("loud " + loud.what()));
        world.emit(0, new Loud("a"));
        world.deliver(0, Signal.class, new Loud("b"));
        assertEquals(List.of("loud a", "signal Loud[what=b]"), log);
        assertThrows(NullPointerException.class, () -> world.emit(0, null));
        assertThrows(IllegalArgumentException.class, () -> world.emit(-5, new Ping(1)));
    }

    @Test
    void archetypeCreatedComesBeforeTheFirstRowSoObserversSeeEverything() {
        world.observe(0, ArchetypeCreated.class, created -> {
            log.add("created count=" + created.archetype().count());
            created.archetype().addEntityObserver(new Recorder(log));
        });
        long a = world.spawn(A);
        long b = world.spawn(A);
        assertEquals(List.of("created count=0", "activated", "added 0..1 from=null", "added 1..2 from=null"), log);
        log.clear();
        world.despawn(a);
        assertEquals(List.of("removed 0..1 to=null", "move " + b + " 1->0"), log);
        log.clear();
        int from = world.archetypeOf(b).id();
        world.set(b, B);
        int to = world.archetypeOf(b).id();
        assertEquals(List.of("created count=0", "removed 0..1 to=" + to, "deactivated", "activated",
                "added 0..1 from=" + from), log, "the {A,B} archetype is created before the move starts");
    }

    @Test
    void entityObserversCanBeRemoved() {
        long id = world.spawn(A);
        Archetype archetype = world.archetypeOf(id);
        Recorder recorder = new Recorder(log);
        archetype.addEntityObserver(recorder);
        assertTrue(archetype.removeEntityObserver(recorder));
        assertFalse(archetype.removeEntityObserver(recorder));
        world.spawn(A);
        assertEquals(List.of(), log);
    }

    @Test
    void hasObserversIsFalseForUnknownAddresses() {
        assertFalse(world.hasObservers(12345, Ping.class));
        assertFalse(world.hasObservers(0, Ping.class));
        assertFalse(world.stopObserving(99, Ping.class, "x"));
        world.clearObservers(99);
        assertNull(world.archetypeOf(99));
        assertSame(null, null);
    }

    /** Writes every entity-observer callback to a log. */
    private static final class Recorder implements EntityObserver {
        private final List<String> log;

        Recorder(List<String> log) {
            this.log = log;
        }

        @Override
        public void onEntitiesAdded(Archetype archetype, int from, int to, Archetype other) {
            log.add("added " + from + ".." + to + " from=" + (other == null ? null : other.id()));
        }

        @Override
        public void onEntitiesRemoved(Archetype archetype, int from, int to, Archetype other) {
            log.add("removed " + from + ".." + to + " to=" + (other == null ? null : other.id()));
        }

        @Override
        public void onEntityMove(Archetype archetype, long entity, int from, int to) {
            log.add("move " + entity + " " + from + "->" + to);
        }

        @Override
        public void onActivated(Archetype archetype) {
            log.add("activated");
        }

        @Override
        public void onDeactivated(Archetype archetype) {
            log.add("deactivated");
        }
    }

    @Test
    void aDespawnWhoseObserverThrowsStillDropsTheObserversAtItsAddress() {
        long id = world.spawn(A);
        world.observe(id, OnDespawn.class, event -> {
            throw new IllegalStateException("observer failed");
        });
        assertThrows(IllegalStateException.class, () -> world.despawn(id));
        assertFalse(world.hasObservers(id, OnDespawn.class), "cleared although the observer threw");
        assertTrue(world.hasPendingChanges(), "the despawn stays staged");
        world.unwind();
        assertFalse(world.isAlive(id));
    }

    @Test
    void aBatchDespawnDeliversEveryMembersEventsBeforeTheFirstFailurePropagates() {
        long a = world.spawn(A);
        long b = world.spawn(A);
        long c = world.spawn(A);
        for (long id : new long[] {a, b, c}) {
            world.observe(id, OnDespawn.class, event -> log.add("despawn " + event.entity()));
        }
        world.observe(0, OnDespawn.class, event -> {
            if (event.entity() == a) {
                throw new IllegalStateException("world observer failed");
            }
        });
        dev.jtecs.query.Query all = world.newQuery(dev.jtecs.query.QueryDescriptor.builder().include(A).build());
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> world.batchDespawn(all));
        assertEquals("world observer failed", e.getMessage());
        assertEquals(List.of("despawn " + a, "despawn " + b, "despawn " + c), log);
        for (long id : new long[] {a, b, c}) {
            assertFalse(world.hasObservers(id, OnDespawn.class));
        }
        world.unwind();
        assertEquals(0, world.entityCount(), "the batch stayed staged; unwind() published it");
    }

    @Test
    void observerCount() {
        int base = world.observerCount();
        long id = world.spawn(HP);
        Observer<Ping> callback = ping -> { };
        world.observe(id, Ping.class, callback);
        world.observe(id, Loud.class, loud -> { });
        world.observe(dev.jtecs.entity.Entity.WORLD, Ping.class, ping -> { }, "named");
        world.observeOnce(dev.jtecs.entity.Entity.WORLD, Loud.class, loud -> { });
        assertEquals(base + 4, world.observerCount());
        world.emit(dev.jtecs.entity.Entity.WORLD, new Loud("x")); // the once-observer fires and goes
        assertEquals(base + 3, world.observerCount());
        assertTrue(world.stopObserving(dev.jtecs.entity.Entity.WORLD, Ping.class, "named"));
        assertEquals(base + 2, world.observerCount());
        world.despawn(id); // its entity's registrations go with it
        assertEquals(base, world.observerCount());
        world.observe(id = world.spawn(HP), Ping.class, callback);
        world.clearObservers(id);
        assertEquals(base, world.observerCount());
    }
}
