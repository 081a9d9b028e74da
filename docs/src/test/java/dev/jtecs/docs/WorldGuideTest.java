package dev.jtecs.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.component.Components;
import dev.jtecs.component.ManagedComponent;
import dev.jtecs.component.NativeComponent;
import dev.jtecs.component.ScalarComponent;
import dev.jtecs.component.TagComponent;
import dev.jtecs.entity.Entity;
import dev.jtecs.event.ArchetypeCreated;
import dev.jtecs.storage.EntityObserver;
import dev.jtecs.event.OnSpawn;
import dev.jtecs.storage.Archetype;
import dev.jtecs.world.RowWriter;
import dev.jtecs.world.World;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** The examples of {@code docs/world.md}. */
class WorldGuideTest {
    record Position(float x, float y) {}

    record Velocity(float dx, float dy) {}

    record Socket(String host) {}

    /** A managed type with no default value. */
    static final class Handle {
        Handle(long native_) {}
    }

    static final NativeComponent<Position> POSITION =
            Components.registerNative(Position.class, o -> o.name("docs.world.Position"));
    static final NativeComponent<Velocity> VELOCITY =
            Components.registerNative(Velocity.class, o -> o.name("docs.world.Velocity"));
    static final ScalarComponent.OfDouble HEALTH = Components.scalar("docs.world.Health", 100.0);
    static final TagComponent FROZEN = Components.tag("docs.world.Frozen");
    static final ManagedComponent<Handle> HANDLE =
            Components.registerManaged(Handle.class, o -> o.name("docs.world.Handle"));
    static final ManagedComponent<Socket> SOCKET = Components.registerManaged(Socket.class,
            o -> o.name("docs.world.Socket").defaults(() -> {
                throw new IllegalStateException("no free socket");
            }));
    /** A chain link: a new link with {@code LINKS} &gt; 0 spawns the next one. */
    static final TagComponent CHAIN = Components.tag("docs.world.Chain");
    static final ScalarComponent.OfInt LINKS = Components.scalar("docs.world.Links", 0);
    /** Every new echo spawns another: a cascade without end. */
    static final TagComponent ECHO = Components.tag("docs.world.Echo");

    /** Stands for game code that fails halfway through a scope. */
    static void failingSystem() {
        throw new IllegalStateException("a system failed");
    }

    @Test
    void instantPath() {
        // begin-example
        try (World world = World.create()) {
            assertEquals(0, world.scopeDepth()); // no scope is open
            long id = world.spawn(POSITION.of(new Position(1, 2)), HEALTH);
            assertTrue(world.isAlive(id)); // published before spawn returned

            world.set(id, FROZEN); // adds a component: moved at once
            assertTrue(world.has(id, FROZEN));
            world.remove(id, FROZEN);
            assertFalse(world.has(id, FROZEN));

            world.despawn(id);
            assertFalse(world.isAlive(id));
            assertFalse(world.hasPendingChanges()); // nothing ever waited
        }
        // end-example
    }

    @Test
    void deferHoldsStructureBack() {
        try (World world = World.create()) {
            // begin-example
            world.defer(); // from here on, structure waits
            long id = world.spawn(POSITION.of(new Position(1, 2)), HEALTH);
            world.set(id, VELOCITY); // the id works at once: this joins the staged spawn
            assertFalse(world.isAlive(id)); // but the entity is not visible yet
            assertNull(world.get(id, POSITION));
            assertEquals(0, world.entityCount());
            assertTrue(world.hasPendingChanges());

            world.commit(); // closes the scope; none is left, so everything is published
            assertEquals(0, world.scopeDepth());
            assertTrue(world.has(id, VELOCITY));
            assertEquals(new Position(1, 2), world.get(id, POSITION));
            // end-example
        }
    }

    @Test
    void scopesNest() {
        try (World world = World.create()) {
            // begin-example
            world.defer();
            world.defer(); // a helper opens its own scope inside the caller's
            long id = world.spawn(POSITION);
            world.commit(); // closes the inner scope only
            assertEquals(1, world.scopeDepth());
            assertFalse(world.isAlive(id));

            world.commit(); // the outermost scope closes: publication
            assertTrue(world.isAlive(id));
            world.commit(); // no scope left to close: harmless
            assertEquals(0, world.scopeDepth());
            // end-example
        }
    }

    @Test
    void unwindRecoversFromAnException() {
        try (World world = World.create()) {
            // begin-example
            long id = 0;
            try {
                world.defer();
                id = world.spawn(POSITION);
                failingSystem(); // throws before the matching commit()
                world.commit();
            } catch (IllegalStateException e) {
                world.unwind(); // closes every open scope and publishes what they staged
            }
            assertEquals(0, world.scopeDepth());
            assertTrue(world.isAlive(id));
            world.commit(); // a late close finds no scope: the depth stays at zero
            assertEquals(0, world.scopeDepth());
            // end-example
        }
    }

    @Test
    void setWritesThroughOrWaits() {
        try (World world = World.create()) {
            // begin-example
            long id = world.spawn(POSITION, HEALTH); // published at once

            world.defer();
            world.set(id, HEALTH.of(80.0)); // has Health, nothing staged: written now, scope or not
            assertEquals(80.0, world.get(id, HEALTH));

            world.set(id, VELOCITY.of(new Velocity(1, 0))); // a new component: staged
            world.set(id, HEALTH.of(60.0)); // structure is staged now, so this waits too
            assertFalse(world.has(id, VELOCITY));
            assertEquals(80.0, world.get(id, HEALTH));

            world.commit();
            assertEquals(60.0, world.get(id, HEALTH));
            // end-example
        }
    }

    @Test
    void writeChangesOneFieldInPlace() {
        try (World world = World.create()) {
            // begin-example
            var x = POSITION.floatField("x"); // a field handle: make it once, keep it
            long id = world.spawn(POSITION.of(new Position(1, 2)));

            world.defer();
            world.set(id, FROZEN);   // a staged move
            world.write(id, x, 5f);  // never staged: the row has it now
            assertEquals(new Position(5, 2), world.get(id, POSITION));
            world.commit();          // the move carries the row, new x included
            assertEquals(new Position(5, 2), world.get(id, POSITION));

            world.defer();
            long pending = world.spawn(POSITION);
            assertThrows(IllegalStateException.class, () -> world.write(pending, x, 1f)); // no row yet
            world.commit();
            // end-example
        }
    }

    @Test
    void aRowWriterWritesFieldsOfOneEntityAtATime() {
        try (World world = World.create()) {
            // begin-example
            var x = POSITION.floatField("x");
            var y = POSITION.floatField("y");
            long a = world.spawn(POSITION.of(new Position(1, 2)));
            long b = world.spawn(POSITION.of(new Position(3, 4)), FROZEN);
            RowWriter positions = world.rowWriter(POSITION); // once; reused for every entity

            for (long id : new long[] {a, b}) {
                positions.at(id).set(x, positions.get(x) + 10).set(y, 0);
            }
            assertEquals(new Position(11, 0), world.get(a, POSITION));
            assertEquals(new Position(13, 0), world.get(b, POSITION));

            positions.at(a);
            world.despawn(b); // a structural change to an archetype with Position: the row expires
            assertThrows(IllegalStateException.class, () -> positions.set(x, 0));
            positions.at(a).set(x, 5); // found again
            assertEquals(new Position(5, 0), world.get(a, POSITION));
            // end-example
        }
    }

    @Test
    void pendingIdsAcceptMoreWork() {
        try (World world = World.create()) {
            world.defer();
            long id = world.spawn(POSITION);
            world.set(id, VELOCITY.of(new Velocity(0, 1))); // joins the staged spawn
            world.set(id, FROZEN);
            world.remove(id, FROZEN);                       // and leaves it again
            world.markComponentDirty(id, POSITION);         // nothing to mark yet: placement will
            world.commit();

            assertTrue(world.has(id, VELOCITY));
            assertFalse(world.has(id, FROZEN));
        }
    }

    @Test
    void despawnCancelsStagedWork() {
        try (World world = World.create()) {
            // begin-example
            long committed = world.spawn(POSITION); // published at once

            world.defer();
            long staged = world.spawn(POSITION);
            world.set(staged, VELOCITY); // joins the staged spawn
            world.despawn(staged);       // cancels it: never published
            world.set(staged, HEALTH);   // ignored from now on

            world.set(committed, VELOCITY); // a staged move...
            world.despawn(committed);       // ...dropped by the despawn
            assertTrue(world.isAlive(committed)); // still readable until the scope closes
            world.commit();

            assertFalse(world.isAlive(committed));
            assertThrows(IllegalArgumentException.class, () -> world.despawn(staged)); // stale
            // end-example
        }
    }

    /** Every cell of the transaction-state table in {@code docs/world.md}. */
    @Test
    void transactionStateTable() {
        try (World world = World.create()) {
            long committed = world.spawn(POSITION, HEALTH);
            long lacking = world.spawn(POSITION);
            long mutating = world.spawn(POSITION, HEALTH);
            long leaving = world.spawn(POSITION, HEALTH);
            world.defer();

            // committed
            world.set(committed, HEALTH.of(1.0));
            assertEquals(1.0, world.get(committed, HEALTH));
            assertFalse(world.hasPendingChanges());
            world.remove(lacking, HEALTH); // lacks it: nothing
            assertFalse(world.hasPendingChanges());

            // staged spawn
            long spawning = world.spawn(POSITION);
            world.set(spawning, HEALTH.of(2.0));
            world.set(spawning, HEALTH.of(3.0));
            world.set(spawning, FROZEN);
            world.remove(spawning, FROZEN);

            // staged mutate
            world.set(mutating, VELOCITY);
            world.remove(mutating, HEALTH);
            world.set(mutating, FROZEN);
            world.remove(mutating, FROZEN);
            world.set(mutating, POSITION.of(new Position(5, 5)));
            assertEquals(new Position(0, 0), world.get(mutating, POSITION)); // staged, not written through

            // staged despawn
            world.despawn(leaving);
            world.set(leaving, VELOCITY);
            world.remove(leaving, HEALTH);
            world.despawn(leaving);
            assertTrue(world.isAlive(leaving));

            // a cancelled spawn behaves like a staged despawn
            long cancelled = world.spawn(POSITION);
            world.despawn(cancelled);
            world.set(cancelled, HEALTH);
            world.remove(cancelled, POSITION);
            world.despawn(cancelled);

            // staged mutate, then despawn: the staged changes are dropped
            world.set(lacking, VELOCITY);
            world.despawn(lacking);

            world.commit();
            assertEquals(3.0, world.get(spawning, HEALTH));
            assertFalse(world.has(spawning, FROZEN));
            assertTrue(world.has(mutating, VELOCITY));
            assertFalse(world.has(mutating, HEALTH));
            assertFalse(world.has(mutating, FROZEN));
            assertEquals(new Position(5, 5), world.get(mutating, POSITION));
            assertFalse(world.isAlive(leaving));
            assertFalse(world.isAlive(cancelled));
            assertFalse(world.isAlive(lacking));
            assertEquals(3, world.entityCount());
            for (long dead : new long[] {leaving, cancelled, lacking}) {
                assertThrows(IllegalArgumentException.class, () -> world.set(dead, HEALTH));
                assertThrows(IllegalArgumentException.class, () -> world.remove(dead, HEALTH));
                assertThrows(IllegalArgumentException.class, () -> world.despawn(dead));
            }
        }
    }

    @Test
    void despawnsRunBeforeSpawns() {
        try (World world = World.create()) {
            // begin-example
            long a = world.spawn(POSITION);
            long b = world.spawn(POSITION);
            Archetype archetype = world.archetypeOf(a);

            world.defer();
            long c = world.spawn(POSITION); // staged first...
            world.despawn(a);               // ...but despawns go first within a wave
            world.commit();

            assertEquals(0, world.rowOf(b)); // b moved into the hole a left
            assertEquals(1, world.rowOf(c)); // then c was appended behind it
            assertEquals(2, archetype.count());
            // end-example
        }
    }

    @Test
    void capacityIsReservedPerWave() {
        try (World world = World.create()) {
            // begin-example
            long[] ids = new long[64];
            world.defer();
            for (int i = 0; i < ids.length; i++) {
                ids[i] = world.spawn(POSITION);
            }
            world.commit();
            Archetype archetype = world.archetypeOf(ids[0]);
            assertEquals(64, archetype.capacityRows()); // exactly full

            world.defer();
            world.spawn(POSITION); // one row in...
            world.despawn(ids[0]); // ...one row out: the wave needs no extra room
            world.commit();
            assertEquals(64, archetype.capacityRows());

            world.spawn(POSITION); // on the instant path this spawn is a wave of its own
            world.despawn(ids[1]);
            assertEquals(128, archetype.capacityRows()); // so the archetype had to grow
            // end-example
        }
    }

    @Test
    void callbacksFeedTheNextWave() {
        try (World world = World.create()) {
            // begin-example
            world.observe(Entity.WORLD, ArchetypeCreated.class, created -> {
                if (created.archetype().has(CHAIN)) {
                    created.archetype().addEntityObserver(new EntityObserver() {
                        @Override
                        public void onEntitiesAdded(Archetype archetype, int fromRow, int toRow, Archetype other) {
                            for (int row = fromRow; row < toRow; row++) {
                                int links = archetype.getValue(row, LINKS);
                                if (links > 0) { // the drain is a scope: this spawn is staged
                                    world.spawn(CHAIN, LINKS.of(links - 1));
                                }
                            }
                        }
                    });
                }
            });

            world.spawn(CHAIN, LINKS.of(3)); // one call, four waves of one commit
            assertEquals(4, world.entityCount());
            assertFalse(world.hasPendingChanges());
            // end-example
        }
    }

    @Test
    void anEndlessCascadeIsStopped() {
        try (World world = World.create()) {
            // begin-example
            world.observe(Entity.WORLD, ArchetypeCreated.class, created -> {
                if (created.archetype().has(ECHO)) {
                    created.archetype().addEntityObserver(new EntityObserver() {
                        @Override
                        public void onEntitiesAdded(Archetype archetype, int fromRow, int toRow, Archetype other) {
                            world.spawn(ECHO); // every echo stages another: no fixed point
                        }
                    });
                }
            });

            IllegalStateException e = assertThrows(IllegalStateException.class, () -> world.spawn(ECHO));
            assertTrue(e.getMessage().contains("observer cascade"), e.getMessage());
            assertEquals(64, world.entityCount());  // the 64 published waves stay
            assertFalse(world.hasPendingChanges()); // the 65th was discarded
            assertTrue(world.isAlive(world.spawn(POSITION))); // and the world still works
            // end-example
        }
    }

    @Test
    void lastWriteWins() {
        try (World world = World.create()) {
            // begin-example
            world.defer();
            long id = world.spawn(HEALTH.of(1.0), HEALTH.of(2.0)); // within one call
            world.set(id, HEALTH.of(3.0));                          // and across calls
            world.set(id, FROZEN);
            world.remove(id, FROZEN); // added, then removed: no trace
            world.commit();

            assertEquals(3.0, world.get(id, HEALTH));
            assertFalse(world.has(id, FROZEN));
            // end-example
        }
    }

    @Test
    void removeThenAddKeepsTheRow() {
        try (World world = World.create()) {
            // begin-example
            long a = world.spawn(POSITION, HEALTH.of(10.0));
            world.spawn(POSITION, HEALTH.of(20.0));
            Archetype archetype = world.archetypeOf(a);
            long structural = archetype.structuralCount();

            world.defer();
            world.remove(a, HEALTH);
            world.set(a, HEALTH.of(11.0)); // net signature unchanged
            world.commit();
            assertEquals(0, world.rowOf(a)); // same row, same archetype
            assertEquals(structural, archetype.structuralCount()); // no structural change
            assertEquals(11.0, world.get(a, HEALTH));
            // end-example
        }
    }

    @Test
    void failedCommitKeepsWhatWasPublished() {
        try (World world = World.create()) {
            // begin-example
            long mover = world.spawn(POSITION);

            world.defer();
            long first = world.spawn(POSITION);
            world.set(mover, VELOCITY);                  // a move: moves come after spawns
            long broken = world.spawn(POSITION, SOCKET); // Socket's default factory throws
            long last = world.spawn(POSITION);

            IllegalStateException e = assertThrows(IllegalStateException.class, world::commit);
            assertEquals("no free socket", e.getMessage());
            assertTrue(world.isAlive(first));        // published before the failure: kept
            assertFalse(world.isAlive(broken));      // its partial row was taken back
            assertFalse(world.isAlive(last));        // never reached: discarded, id stale
            assertFalse(world.has(mover, VELOCITY)); // never reached: discarded
            assertFalse(world.hasPendingChanges());
            assertEquals(0, world.scopeDepth());     // the scope is closed all the same
            // end-example
        }
    }

    @Test
    void failedPublicationOnTheInstantPath() {
        try (World world = World.create()) {
            // begin-example
            IllegalStateException e =
                    assertThrows(IllegalStateException.class, () -> world.spawn(POSITION, SOCKET));
            assertEquals("no free socket", e.getMessage()); // from spawn itself: it published alone
            assertEquals(0, world.entityCount());
            assertFalse(world.hasPendingChanges());
            // end-example
        }
    }

    @Test
    void aThrowingCallLeavesItsWorkStaged() {
        try (World world = World.create()) {
            // begin-example
            world.observe(Entity.WORLD, OnSpawn.class, event -> {
                throw new IllegalStateException("observer failed");
            });
            assertThrows(IllegalStateException.class, () -> world.spawn(POSITION));
            assertEquals(0, world.scopeDepth());   // the call's own scope is closed...
            assertTrue(world.hasPendingChanges()); // ...but its spawn was not published
            assertEquals(0, world.entityCount());

            world.clearObservers(Entity.WORLD);
            world.unwind(); // publishes it, as the next commit or instant call would
            assertFalse(world.hasPendingChanges());
            assertEquals(1, world.entityCount());
            // end-example
        }
    }

    @Test
    void badInputChangesNothing() {
        try (World world = World.create()) {
            // begin-example
            long id = world.spawn(POSITION);

            assertThrows(IllegalArgumentException.class, () -> world.spawn(POSITION, HANDLE)); // no default
            assertThrows(IllegalArgumentException.class, () -> world.spawnAt(id, POSITION));   // id is live
            assertThrows(IllegalArgumentException.class, () -> world.set(Entity.pack(99, 0), HEALTH));
            assertThrows(NullPointerException.class, () -> world.set(id, null));

            assertFalse(world.hasPendingChanges());
            assertEquals(2, Entity.slot(world.spawn(POSITION))); // no slot was used up
            // end-example
        }
    }

    @Test
    void closedWorldRejectsEveryCall() {
        // begin-example
        World world = World.create();
        world.defer();
        long id = world.spawn(POSITION); // staged, never published
        world.close(); // frees native memory, drops staged work
        assertThrows(IllegalStateException.class, () -> world.isAlive(id));
        assertThrows(IllegalStateException.class, world::commit);
        world.close(); // idempotent
        // end-example
    }

    @Test
    void handAWorldToAnotherThread() throws InterruptedException {
        Thread mainThread = Thread.currentThread();
        // begin-example
        try (World world = World.create()) {
            long id = world.spawn(POSITION);
            Thread worker = new Thread(() -> {
                world.set(id, HEALTH.of(50.0)); // the worker owns the world now
                world.transferTo(mainThread);   // and hands it back when done
            });
            world.transferTo(worker); // before start(): start() orders it before the worker's first call
            assertThrows(WrongThreadException.class, () -> world.isAlive(id)); // not ours any more
            worker.start();
            worker.join(); // join() orders the worker's writes before what follows
            assertEquals(50.0, world.get(id, HEALTH));
        }
        // end-example
    }

    @Test
    void releaseAndClaimThroughAPool() throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (World world = World.create()) {
            // begin-example
            world.release(); // nobody owns it: every call but claim() throws
            Future<Integer> job = pool.submit(() -> {
                world.claim(); // whichever worker runs the job
                world.spawn(POSITION);
                int count = world.entityCount();
                world.release();
                return count;
            });
            assertEquals(1, job.get()); // the future orders the worker's writes before ours
            world.claim();
            assertEquals(1, world.entityCount());
            // end-example
        } finally {
            pool.shutdown();
        }
    }
}
