package dev.jtecs.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
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
import dev.jtecs.storage.Archetype;
import dev.jtecs.storage.FloatColumn;
import dev.jtecs.storage.ObjectColumn;
import dev.jtecs.world.World;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The examples of {@code docs/storage.md}. */
class StorageGuideTest {
    record Position(float x, float y) {}

    record Velocity(float dx, float dy) {}

    record Label(String text) {}

    static final NativeComponent<Position> POSITION =
            Components.registerNative(Position.class, o -> o.name("docs.storage.Position"));
    static final NativeComponent<Velocity> VELOCITY =
            Components.registerNative(Velocity.class, o -> o.name("docs.storage.Velocity"));
    static final ManagedComponent<Label> LABEL =
            Components.registerManaged(Label.class, o -> o.name("docs.storage.Label"));
    static final ScalarComponent.OfDouble HEALTH = Components.scalar("docs.storage.Health", 100.0);

    static final FloatField X = POSITION.floatField("x");
    static final FloatField Y = POSITION.floatField("y");
    static final FloatField DX = VELOCITY.floatField("dx");

    @Test
    void oneArchetypePerSignature() {
        try (World world = World.create()) {
            // begin-example
            long a = world.spawn(POSITION, VELOCITY);
            long b = world.spawn(VELOCITY, POSITION); // same set, same archetype
            long still = world.spawn(POSITION);

            Archetype movers = world.archetypeOf(a);
            assertSame(movers, world.archetypeOf(b));
            assertNotSame(movers, world.archetypeOf(still));
            assertEquals(List.of(POSITION, VELOCITY), movers.components()); // sorted by id
            assertEquals(2, movers.count());
            assertEquals(b, movers.entity(world.rowOf(b)));
            // end-example
        }
    }

    @Test
    void columnsAreAlignedAndPadded() {
        try (World world = World.create()) {
            // begin-example
            long id = world.spawn(POSITION.of(new Position(3, 4)), HEALTH.of(80.0));
            Archetype archetype = world.archetypeOf(id);

            FloatColumn xs = archetype.get(X);
            assertEquals(3f, xs.get(0));
            assertEquals(0, xs.segment().address() % 64); // 64-byte aligned
            assertEquals(64, archetype.capacityRows());    // one row, padded to 64
            assertEquals(64L * Float.BYTES, xs.segment().byteSize());
            assertEquals(80.0, archetype.get(HEALTH).get(0)); // a numeric scalar is a column too
            assertNull(archetype.get(DX));                     // no Velocity here
            // end-example
        }
    }

    @Test
    void kernelsRunToThePaddedBound() {
        try (World world = World.create()) {
            for (int i = 0; i < 5; i++) {
                world.spawn(POSITION.of(new Position(i, 0)), VELOCITY.of(new Velocity(1, 2)));
            }
            world.commit();
            // begin-example
            float dt = 0.5f;
            world.forEachArchetype(archetype -> {
                FloatColumn dx = archetype.get(DX);
                if (dx == null || !archetype.has(POSITION)) {
                    return;
                }
                MemorySegment x = archetype.getMut(X).segment(); // getMut marks Position dirty
                MemorySegment vx = dx.segment(); // kernels work on segments: views refuse padding rows
                int lanes = 16; // FloatVector.SPECIES_512.length(), say
                int bound = (archetype.count() + lanes - 1) / lanes * lanes; // within capacityRows
                for (int row = 0; row < bound; row++) { // no tail loop: padding absorbs the overrun
                    long at = (long) row * Float.BYTES;
                    x.set(ValueLayout.JAVA_FLOAT, at, x.get(ValueLayout.JAVA_FLOAT, at)
                            + vx.get(ValueLayout.JAVA_FLOAT, at) * dt);
                }
            });
            // end-example
            for (long id = 1; id <= 5; id++) {
                assertEquals(new Position(id - 1 + 0.5f, 0f), world.get(id, POSITION));
            }
        }
    }

    @Test
    void viewsExpireAtTheNextStructuralChange() {
        try (World world = World.create()) {
            // begin-example
            long first = world.spawn(POSITION.of(new Position(1, 2)));
            Archetype archetype = world.archetypeOf(first);
            FloatColumn stale = archetype.get(X);

            world.defer();
            for (int i = 0; i < 64; i++) {
                world.spawn(POSITION); // 65 rows do not fit in 64
            }
            world.commit(); // one wave: the columns grow once, for all 64 new rows
            assertEquals(128, archetype.capacityRows()); // doubled
            assertNotEquals(stale.storageVersion(), archetype.storageVersion()); // the old buffer was freed
            assertThrows(IllegalStateException.class, () -> stale.get(0)); // checked mode: a stale view throws
            assertEquals(1f, archetype.get(X).get(0)); // a fresh view sees the copied data
            // end-example
        }
    }

    @Test
    void despawnSwapsTheLastRowIntoTheHole() {
        try (World world = World.create()) {
            // begin-example
            long a = world.spawn(POSITION);
            long b = world.spawn(POSITION);
            long c = world.spawn(POSITION);
            Archetype archetype = world.archetypeOf(a);

            world.despawn(a);
            assertEquals(c, archetype.entity(0)); // the last row filled the hole
            assertEquals(0, world.rowOf(c));
            assertEquals(1, world.rowOf(b));
            // end-example
        }
    }

    @Test
    void archetypeGraph() {
        try (World world = World.create()) {
            // begin-example
            long id = world.spawn(POSITION.of(new Position(3, 4)));
            Archetype still = world.archetypeOf(id);

            world.set(id, VELOCITY); // adds a component: a move to {Position, Velocity}
            Archetype moving = world.archetypeOf(id);
            assertEquals(new Position(3, 4), world.get(id, POSITION)); // shared columns were copied
            assertEquals(0, still.count()); // empty, but still registered

            world.remove(id, VELOCITY);
            assertSame(still, world.archetypeOf(id)); // back along the cached edge
            // end-example
        }
    }

    @Test
    void heapColumns() {
        try (World world = World.create()) {
            long id = world.spawn(LABEL.of(new Label("crate")), POSITION);
            world.commit();
            Archetype archetype = world.archetypeOf(id);

            ObjectColumn<Label> labels = archetype.getMut(LABEL);
            assertEquals("crate", labels.get(0).text());
            labels.set(0, new Label("barrel"));
            assertEquals(new Label("barrel"), world.get(id, LABEL));
            assertThrows(NullPointerException.class, () -> labels.set(0, null)); // absence is structural
        }
    }

    @Test
    void closeFreesNativeMemory() {
        // begin-example
        World world = World.create();
        long id = world.spawn(POSITION);
        FloatColumn xs = world.archetypeOf(id).get(X);
        assertTrue(world.nativeBytesReserved() > 0);

        world.close();
        assertThrows(IllegalStateException.class, () -> xs.get(0)); // the buffer is gone
        world.close(); // closing again does nothing
        // end-example
    }

    @Test
    void largeBuffersAreKeptForTheNextWorld() {
        World.releaseNativeBytesKeptForReuse(); // what earlier tests left
        // begin-example
        try (World level = World.create()) {
            level.batchSpawn(100_000, List.of(POSITION, VELOCITY)); // columns of 400 KB and more: large buffers
        }
        long kept = World.nativeBytesKeptForReuse();
        assertTrue(kept > 0); // the closed level's columns, for the next world
        try (World next = World.create()) {
            next.batchSpawn(100_000, List.of(POSITION, VELOCITY)); // takes them instead of fresh memory
        }
        assertEquals(kept, World.releaseNativeBytesKeptForReuse()); // handed back to the system
        assertEquals(0, World.nativeBytesKeptForReuse());
        // end-example
    }

    @Test
    void dirtyBitsAndTheStructuralFlag() {
        try (World world = World.create()) {
            // begin-example
            long id = world.spawn(POSITION, VELOCITY, HEALTH);
            Archetype archetype = world.archetypeOf(id);
            assertTrue(archetype.isComponentDirty(VELOCITY)); // placement: the structural flag
            archetype.clearDirtyComponents();

            archetype.get(X);              // reading marks nothing
            archetype.getMut(Y);           // marks all of Position
            world.set(id, HEALTH.of(5.0)); // a write-through set marks Health
            assertEquals(List.<Component<?>>of(POSITION, HEALTH), archetype.dirtyComponents());

            archetype.get(DX).set(0, 7f);  // a write through a read view goes unseen...
            assertFalse(archetype.isComponentDirty(VELOCITY));
            world.markComponentDirty(id, VELOCITY); // ...until declared
            assertTrue(archetype.isComponentDirty(VELOCITY));
            // end-example
        }
    }

    @Test
    void countersSurviveClearing() {
        try (World world = World.create()) {
            long id = world.spawn(POSITION, VELOCITY);
            world.commit();
            Archetype archetype = world.archetypeOf(id);
            long structural = archetype.structuralCount();
            archetype.getMut(DX);
            archetype.markComponentDirty(VELOCITY);
            archetype.clearDirtyComponents();
            assertFalse(archetype.anyComponentDirty());
            assertEquals(structural, archetype.structuralCount());
            assertEquals(2, archetype.writeCount(VELOCITY)); // placement is structural, not a write
            assertEquals(0, archetype.writeCount(POSITION));
            archetype.markAllComponentsDirty();
            assertEquals(List.of(POSITION, VELOCITY), archetype.dirtyComponents());
        }
    }

    @Test
    void removalsDirtyTheWholeArchetype() {
        try (World world = World.create()) {
            long a = world.spawn(POSITION, HEALTH);
            long b = world.spawn(POSITION, HEALTH);
            world.commit();
            Archetype archetype = world.archetypeOf(a);
            archetype.clearDirtyComponents();
            long before = archetype.structuralCount();

            world.despawn(a); // swap-remove: b's values move into row 0
            world.commit();
            assertTrue(archetype.isComponentDirty(POSITION));
            assertTrue(archetype.isComponentDirty(HEALTH));
            assertEquals(before + 1, archetype.structuralCount());
            assertNull(world.archetypeOf(a));
            assertEquals(0, world.rowOf(b));
        }
    }

    @Test
    void theWorldCountsStructuralChange() {
        try (World world = World.create()) {
            long a = world.spawn(POSITION, VELOCITY);
            // begin-example
            long shape = world.structureVersion();
            world.set(a, POSITION.of(new Position(5, 5)));   // values: the shape stands
            world.archetypeOf(a).getMut(X);                   // marks: the shape stands
            assertEquals(shape, world.structureVersion());

            world.spawn(POSITION, VELOCITY);                  // a row placed: every cached plan is stale
            assertTrue(world.structureVersion() != shape);

            long movers = world.structureVersion(VELOCITY);
            world.spawn(POSITION);                            // churn where no Velocity lives
            assertEquals(movers, world.structureVersion(VELOCITY));
            // end-example
        }
    }
}
