package dev.jtecs.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
import dev.jtecs.storage.Archetype;
import dev.jtecs.world.World;
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

    @Test
    void spawnIsStagedUntilCommit() {
        // begin-example
        try (World world = World.create()) {
            long id = world.spawn(POSITION.of(new Position(1, 2)), HEALTH);
            assertFalse(world.isAlive(id)); // the id exists, the entity is not visible yet
            assertNull(world.get(id, POSITION));
            assertTrue(world.hasPendingChanges());

            world.commit();
            assertTrue(world.isAlive(id));
            assertEquals(new Position(1, 2), world.get(id, POSITION));
        }
        // end-example
    }

    @Test
    void setWritesThroughOrWaits() {
        try (World world = World.create()) {
            // begin-example
            long id = world.spawn(POSITION, HEALTH);
            world.commit();

            world.set(id, HEALTH.of(80.0)); // has Health, nothing staged: written now
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
    void pendingIdsAcceptMoreWork() {
        try (World world = World.create()) {
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
            long staged = world.spawn(POSITION);
            world.set(staged, VELOCITY); // joins the staged spawn
            world.despawn(staged);       // cancels it: never published
            world.set(staged, HEALTH);   // ignored from now on

            long committed = world.spawn(POSITION);
            world.commit();
            world.set(committed, VELOCITY); // a staged move...
            world.despawn(committed);       // ...dropped by the despawn
            assertTrue(world.isAlive(committed)); // still readable until the commit
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
            world.commit();

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
            world.commit();
            Archetype archetype = world.archetypeOf(a);

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
    void lastWriteWins() {
        try (World world = World.create()) {
            // begin-example
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
            world.commit();
            Archetype archetype = world.archetypeOf(a);
            long structural = archetype.structuralCount();

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
            world.commit();

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
            // end-example
        }
    }

    @Test
    void badInputChangesNothing() {
        try (World world = World.create()) {
            // begin-example
            long id = world.spawn(POSITION);
            world.commit();

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
        long id = world.spawn(POSITION);
        world.close(); // frees native memory, drops staged work
        assertThrows(IllegalStateException.class, () -> world.isAlive(id));
        assertThrows(IllegalStateException.class, world::commit);
        world.close(); // idempotent
        // end-example
    }
}
