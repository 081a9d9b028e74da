package dev.jtecs.mutation.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.builtin.EntityKey;
import dev.jtecs.component.Components;
import dev.jtecs.component.FloatField;
import dev.jtecs.component.IntField;
import dev.jtecs.component.NativeComponent;
import dev.jtecs.component.ScalarComponent;
import dev.jtecs.component.TagComponent;
import dev.jtecs.entity.Entity;
import dev.jtecs.event.OnSpawn;
import dev.jtecs.mutation.SpawnQueue;
import dev.jtecs.query.Query;
import dev.jtecs.query.QueryDescriptor;
import dev.jtecs.state.StatePolicy;
import dev.jtecs.storage.Archetype;
import dev.jtecs.testing.Allocations;
import dev.jtecs.testing.Intruder;
import dev.jtecs.world.World;
import dev.jtecs.world.WorldConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The typed per-entity spawn path: values written straight into staged rows, placed as one range. */
class QueuedSpawnsTest {
    record Pos(float x, float y) {}

    record Vel(float x, float y) {}

    record Counter(int n) {}

    static final java.util.concurrent.atomic.AtomicInteger COUNTED = new java.util.concurrent.atomic.AtomicInteger();
    static final NativeComponent<Pos> POS = Components.registerNative(Pos.class, o -> o.name("test.queue.Pos"));
    static final NativeComponent<Vel> VEL = Components.registerNative(Vel.class, o -> o.name("test.queue.Vel"));
    static final NativeComponent<Counter> COUNTER = Components.registerNative(Counter.class,
            o -> o.name("test.queue.Counter").defaults(() -> new Counter(COUNTED.incrementAndGet())));
    static final FloatField X = POS.floatField("x");
    static final FloatField Y = POS.floatField("y");
    static final FloatField VX = VEL.floatField("x");
    static final IntField N = COUNTER.intField("n");
    static final ScalarComponent.OfInt HP = Components.scalar("test.queue.Hp", 3);
    static final TagComponent ARMED = Components.tag("test.queue.Armed", o -> o.requires(HP.of(9)));
    static final TagComponent MARK = Components.tag("test.queue.Mark");

    private final World world = World.create();

    @AfterEach
    void tearDown() {
        world.close();
    }

    @Test
    void queuedEntitiesGetTheirIdsAtOnceAndArePlacedWithTheirValuesAtTheCommit() {
        SpawnQueue queue = world.spawnQueue(List.of(POS, VEL.of(new Vel(7, 8)), ARMED));
        world.defer();
        long[] ids = new long[100];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = queue.spawn();
            queue.set(X, i).set(Y, -i);
            assertFalse(world.isAlive(ids[i]), "staged until the commit");
        }
        assertEquals(ids[99], queue.last());
        world.commit();
        Archetype archetype = world.archetypeOf(ids[0]);
        for (int i = 0; i < ids.length; i++) {
            assertEquals(new Pos(i, -i), world.get(ids[i], POS), "the written fields");
            assertEquals(new Vel(7, 8), world.get(ids[i], VEL), "the shape's constant");
            assertEquals(9, world.get(ids[i], HP), "ARMED's requirement");
            assertEquals(archetype, world.archetypeOf(ids[i]), "one archetype, one range");
            assertEquals(i, world.rowOf(ids[i]));
        }
        assertTrue(archetype.isComponentDirty(POS), "placement is structural");
    }

    /**
     * A heap growth fails at each point of a run of queued spawns in turn (the staged rows' columns: the ids of a
     * fresh world's run stay implicit, and its entity index grows at the commit): the spawn that met it throws and
     * leaves the open batch as it was, and every spawn before and after it is placed with its own values at the
     * commit.
     */
    @Test
    void aSpawnThatCannotGrowLeavesTheOpenBatchAsItWas() {
        assertTrue(dev.jtecs.entity.internal.AllocationFaults.ENABLED,
                "the suite runs with -Djtecs.allocationFaults=true");
        int failedAtIndex = 0;
        boolean finished = false;
        for (int k = 1; !finished; k++) {
            try (World fresh = World.create()) {
                SpawnQueue queue = fresh.spawnQueue(List.of(POS));
                fresh.defer();
                List<Long> ids = new ArrayList<>();
                List<Integer> values = new ArrayList<>();
                int failures = 0;
                dev.jtecs.entity.internal.AllocationFaults.failAt(dev.jtecs.entity.internal.AllocationFaults.Kind.HEAP, k);
                for (int i = 0; i < 3000; i++) {
                    try {
                        long id = queue.spawn();
                        queue.set(X, i).set(Y, -i);
                        ids.add(id);
                        values.add(i);
                    } catch (OutOfMemoryError injected) {
                        failures++;
                    }
                }
                dev.jtecs.entity.internal.AllocationFaults.disarm();
                fresh.commit();
                assertEquals(ids.size(), fresh.entityCount(), "growth " + k);
                for (int i = 0; i < ids.size(); i++) {
                    int v = values.get(i);
                    assertEquals(new Pos(v, -v), fresh.get(ids.get(i), POS), "growth " + k + ", spawn " + v);
                }
                finished = failures == 0;
                if (failures > 0) {
                    failedAtIndex++;
                }
            }
        }
        assertTrue(failedAtIndex >= 3, "the staged rows grew several times: " + failedAtIndex);
    }

    /**
     * A fresh world's queued spawns take their slots without writing the entity index or growing it: the commit
     * grows it once for them before it places their batch. When that growth fails, the publication fails as when
     * any allocation of it does: nothing is placed, the spawns are discarded and their ids go stale, and the world
     * goes on (docs/world.md, "A publication fails").
     */
    @Test
    void aCommitThatCannotGrowTheIndexForItsSpawnsDiscardsThemAndTheWorldGoesOn() {
        // each of the commit's first heap growths in turn (the archetype's views, which it makes later when they
        // fail, then the index's two arrays)
        int failed = 0;
        for (int k = 1; k <= 4; k++) {
            try (World fresh = World.create()) {
                SpawnQueue queue = fresh.spawnQueue(List.of(POS));
                fresh.defer();
                long[] ids = new long[5_000]; // past the index's first room of 1,024
                for (int i = 0; i < ids.length; i++) {
                    ids[i] = queue.spawn();
                    queue.set(X, i);
                }
                dev.jtecs.entity.internal.AllocationFaults.failAt(dev.jtecs.entity.internal.AllocationFaults.Kind.HEAP,
                        k);
                boolean threw = false;
                try {
                    fresh.commit();
                } catch (OutOfMemoryError injected) {
                    threw = true;
                } finally {
                    dev.jtecs.entity.internal.AllocationFaults.disarm();
                }
                if (threw) {
                    failed++;
                    assertEquals(0, fresh.entityCount(), "growth " + k);
                    assertFalse(fresh.hasPendingChanges(), "growth " + k);
                    fresh.defer();
                    for (int i = 0; i < ids.length; i++) {
                        assertFalse(fresh.isAlive(ids[i]), "growth " + k);
                        long again = queue.spawn(); // its slot again, at the next generation
                        assertEquals(Entity.pack(Entity.slot(ids[ids.length - 1 - i]), 1), again, "growth " + k);
                        ids[ids.length - 1 - i] = again;
                        queue.set(X, ids.length - 1 - i);
                    }
                    fresh.commit();
                }
                assertEquals(ids.length, fresh.entityCount(), "growth " + k);
                for (int i = 0; i < ids.length; i++) {
                    assertEquals(new Pos(i, 0), fresh.get(ids[i], POS), "growth " + k + ", entity " + i);
                }
            }
        }
        assertEquals(2, failed, "the index's two arrays grew at the commit, and failed it");
    }

    /**
     * A run of ids long past the id buffer's first room, kept implicit, that a spawn of another kind breaks part way
     * (it takes the next slot, so the queue's next id does not run on): the ids before the break are written out,
     * into a buffer grown for all of them, and every entity keeps its values.
     */
    @Test
    void aLongImplicitRunThatBreaksHasItsIdsWrittenOutIntoABufferGrownForThemAll() {
        SpawnQueue queue = world.spawnQueue(List.of(POS));
        world.defer();
        long[] ids = new long[110];
        for (int i = 0; i < 100; i++) {
            ids[i] = queue.spawn();
            queue.set(X, i);
        }
        long other = world.spawn(VEL.of(new Vel(1, 1))); // takes the slot after the run
        for (int i = 100; i < ids.length; i++) {
            ids[i] = queue.spawn(); // the same batch, its run broken
            queue.set(X, i);
        }
        assertEquals(Entity.slot(other) + 1, Entity.slot(ids[100]));
        world.commit();
        for (int i = 0; i < ids.length; i++) {
            assertEquals(new Pos(i, 0), world.get(ids[i], POS), "entity " + i);
        }
        assertEquals(new Vel(1, 1), world.get(other, VEL));
    }

    record Bag(List<String> items) {}

    static final dev.jtecs.component.ManagedComponent<Bag> BAG = Components.registerManaged(Bag.class,
            o -> o.name("test.queue.Bag").defaults(() -> new Bag(new ArrayList<>())));

    record Note(String text) {}

    static final dev.jtecs.component.ManagedComponent<Note> NOTE = Components.registerManaged(Note.class,
            o -> o.name("test.queue.Note"));

    /**
     * A managed component named by its definition starts at its default, one made for each entity, as
     * {@code World.spawn} gives it (a batch leaves it empty for its initializer, but a queue has none).
     */
    @Test
    void aManagedComponentNamedByItsDefinitionStartsAtItsDefaultForEachEntityAsASpawnsDoes() {
        SpawnQueue queue = world.spawnQueue(List.of(POS, BAG, NOTE));
        world.defer();
        long a = queue.spawn();
        long b = queue.spawn();
        world.commit();
        long c = queue.spawn(); // the instant path
        long spawned = world.spawn(POS, BAG, NOTE);
        for (long id : new long[] {a, b, c}) {
            assertEquals(world.get(spawned, BAG), world.get(id, BAG));
            assertEquals(world.get(spawned, NOTE), world.get(id, NOTE));
            assertEquals(new Note(null), world.get(id, NOTE));
        }
        world.get(a, BAG).items().add("rope");
        assertEquals(List.of(), world.get(b, BAG).items(), "each entity has its own default");
        assertEquals(List.of(), world.get(c, BAG).items());
    }

    record Flaky(int n) {}

    static final boolean[] FLAKY_FAILS = new boolean[1];
    static final dev.jtecs.component.ManagedComponent<Flaky> FLAKY = Components.registerManaged(Flaky.class,
            o -> o.name("test.queue.Flaky").defaults(() -> {
                if (FLAKY_FAILS[0]) {
                    throw new IllegalStateException("no default today");
                }
                return new Flaky(1);
            }));

    /**
     * A managed default a queue makes per entity is user code run at publication: when it throws, the publication
     * fails as any does (docs/world.md, "A publication fails"): the row being written is taken back, the queued
     * spawns are discarded, and the world goes on.
     */
    @Test
    void aThrowingManagedDefaultFailsThePublicationAndTheWorldGoesOn() {
        SpawnQueue queue = world.spawnQueue(List.of(POS, FLAKY));
        world.defer();
        long a = queue.spawn();
        queue.spawn();
        FLAKY_FAILS[0] = true;
        try {
            assertThrows(IllegalStateException.class, world::commit);
        } finally {
            FLAKY_FAILS[0] = false;
        }
        assertEquals(0, world.entityCount());
        assertFalse(world.hasPendingChanges());
        assertFalse(world.isAlive(a));
        long c = queue.spawn(); // outside a scope: published at once
        assertEquals(new Flaky(1), world.get(c, FLAKY));
        assertEquals(1, world.entityCount());
    }

    /**
     * A batch keeps its ids implicit while each runs on from the one before; the first that does not (a recycled
     * slot, or a fresh one after recycled ones) has the ids before it written out. Either way every entity gets its
     * own values.
     */
    @Test
    void aRunOfIdsThatBreaksPartWayIsWrittenOutAndEachEntityKeepsItsValues() {
        long[] first = new long[10];
        for (int i = 0; i < first.length; i++) {
            first[i] = world.spawn(POS.of(new Pos(100 + i, 0)));
        }
        world.despawn(first[6]); // slots 7, 2 and 5 on the free stack, 5 on top
        world.despawn(first[1]);
        world.despawn(first[4]);
        world.despawn(first[3]); // then slot 4: 4 and 5 pop as one run of generation 1
        SpawnQueue queue = world.spawnQueue(List.of(POS));
        world.defer();
        long[] ids = new long[8];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = queue.spawn();
            queue.set(X, i).set(Y, -i);
        }
        world.commit();
        assertEquals(Entity.pack(4, 1), ids[0]);
        assertEquals(Entity.pack(5, 1), ids[1], "the recycled run");
        assertEquals(Entity.pack(2, 1), ids[2], "the run breaks");
        assertEquals(Entity.pack(7, 1), ids[3]);
        assertEquals(Entity.pack(11, 0), ids[4], "fresh slots after the recycled ones");
        for (int i = 0; i < ids.length; i++) {
            assertEquals(new Pos(i, -i), world.get(ids[i], POS), "entity " + i);
        }
        for (int i : new int[] {0, 2, 5, 7, 8, 9}) {
            assertEquals(new Pos(100 + i, 0), world.get(first[i], POS), "the first spawns, " + i);
        }
        assertEquals(14, world.entityCount());
    }

    /**
     * After {@code reserve(n)} a new world's queue spawns n entities, a pending batch's rows counted, without
     * growing a heap array; the same spawns without it grow (the control that shows the count can fail).
     */
    @Test
    void aReservedQueueSpawnsWithoutGrowingAndItsEntitiesAreTheSame() {
        assertTrue(dev.jtecs.entity.internal.AllocationFaults.ENABLED,
                "the suite runs with -Djtecs.allocationFaults=true");
        for (boolean reserve : new boolean[] {true, false}) {
            try (World fresh = World.create(WorldConfig.defaults().maxEntities(5_000))) {
                SpawnQueue queue = fresh.spawnQueue(List.of(POS, VEL));
                fresh.defer();
                long first = queue.spawn(); // a pending batch: its row and id are held when the room is made
                queue.set(X, -1);
                if (reserve) {
                    assertSame(queue, queue.reserve(4_000));
                }
                dev.jtecs.entity.internal.AllocationFaults.disarm();
                long[] ids = new long[4_000];
                for (int i = 0; i < ids.length; i++) {
                    ids[i] = queue.spawn();
                    queue.set(X, i).set(Y, -i).set(VX, 1);
                }
                long grown = dev.jtecs.entity.internal.AllocationFaults.seen(dev.jtecs.entity.internal.AllocationFaults.Kind.HEAP);
                if (reserve) {
                    assertEquals(0, grown, "4,000 reserved spawns grew a heap array");
                } else {
                    assertTrue(grown > 0, "without the room the staged rows grow");
                }
                fresh.commit();
                assertEquals(4_001, fresh.entityCount());
                assertEquals(new Pos(-1, 0), fresh.get(first, POS));
                for (int i = 0; i < ids.length; i++) {
                    assertEquals(new Pos(i, -i), fresh.get(ids[i], POS), "entity " + i);
                    assertEquals(new Vel(1, 0), fresh.get(ids[i], VEL), "entity " + i);
                }
            }
        }
    }

    @Test
    void reserveRefusesWhatTheWorldCannotHoldAndAFailedGrowthChangesNothing() {
        try (World small = World.create(WorldConfig.defaults().maxEntities(100))) {
            SpawnQueue queue = small.spawnQueue(List.of(POS));
            assertThrows(IllegalArgumentException.class, () -> queue.reserve(-1));
            IllegalArgumentException tooMany = assertThrows(IllegalArgumentException.class, () -> queue.reserve(101));
            assertTrue(tooMany.getMessage().contains("maxEntities=100"), tooMany.getMessage());
            int failed = 0;
            // a world of 100 has its whole index from the start: the staged rows (two columns) and the ids grow
            for (int k = 1; k <= 4; k++) {
                dev.jtecs.entity.internal.AllocationFaults.failAt(dev.jtecs.entity.internal.AllocationFaults.Kind.HEAP, k);
                try {
                    queue.reserve(100);
                } catch (OutOfMemoryError injected) {
                    failed++; // what grew before it stays grown: room is invisible
                }
                dev.jtecs.entity.internal.AllocationFaults.disarm();
            }
            assertEquals(3, failed, "each of the three growths failed once, then the fourth reserve found room");
            assertEquals(0, small.entityCount(), "reserving spawns nothing");
            small.defer();
            for (int i = 0; i < 100; i++) {
                queue.spawn();
                queue.set(X, i);
            }
            small.commit();
            assertEquals(100, small.entityCount());
            assertThrows(IllegalStateException.class, queue::spawn, "full: the room was never more than the capacity");
        }
        World closed = World.create();
        SpawnQueue stale = closed.spawnQueue(List.of(POS));
        closed.close();
        assertThrows(IllegalStateException.class, () -> stale.reserve(1), "the queue of a closed world");
    }

    @Test
    void anUnwrittenFieldKeepsItsDefaultAndAFactoryRunsPerEntity() {
        SpawnQueue queue = world.spawnQueue(List.of(POS, COUNTER));
        int before = COUNTED.get();
        long a = queue.spawn();
        long b = queue.spawn();
        assertEquals(new Pos(0, 0), world.get(a, POS));
        assertEquals(new Counter(before + 1), world.get(a, COUNTER));
        assertEquals(new Counter(before + 2), world.get(b, COUNTER));
    }

    @Test
    void eachSpawnIsASpawnPathWithItsEventAndTheActiveStatesTag() {
        List<Long> spawned = new ArrayList<>();
        world.observe(0, OnSpawn.class, event -> spawned.add(event.entity()));
        TagComponent game = world.createState("game", StatePolicy.pauseOnBlur());
        SpawnQueue queue = world.spawnQueue(List.of(POS));
        world.defer();
        long plain = queue.spawn();
        world.pushState("game");
        long tagged = queue.spawn(); // the tag changed: a new shape, staged apart
        world.commit();
        assertEquals(List.of(plain, tagged), spawned);
        assertFalse(world.has(plain, game));
        assertTrue(world.has(tagged, game));
    }

    /**
     * A spawn that joins its open batch inside a scope with nobody to hear it takes the short way (no scope of its
     * own): the spawns before an observer came and after it stage into one batch alike, the observer hears exactly
     * those after it, nothing is published before the commit, and the commit places all of them as one range.
     */
    @Test
    void spawnsJoiningABatchUnheardAndHeardStageAlike() {
        SpawnQueue queue = world.spawnQueue(List.of(POS));
        world.defer();
        long[] ids = new long[6];
        for (int i = 0; i < 3; i++) {
            ids[i] = queue.spawn();
            queue.set(X, i);
        }
        List<Long> heard = new ArrayList<>();
        world.observe(0, OnSpawn.class, event -> heard.add(event.entity()));
        for (int i = 3; i < 6; i++) {
            ids[i] = queue.spawn();
            queue.set(X, i);
        }
        assertEquals(List.of(ids[3], ids[4], ids[5]), heard);
        assertEquals(0, world.entityCount(), "staged until the commit");
        assertEquals(6, ((QueuedSpawns) queue).stagedRows(), "one batch's rows");
        world.commit();
        for (int i = 0; i < ids.length; i++) {
            assertEquals(ids[0] + i, ids[i], "consecutive ids");
            assertEquals(new Pos(i, 0), world.get(ids[i], POS));
            assertEquals(i, world.rowOf(ids[i]), "one range, in spawn order");
        }
    }

    @Test
    void aQueueStagesFromItsFirstRowAgainOnceEveryBatchOfItIsDone() {
        SpawnQueue queue = world.spawnQueue(List.of(POS));
        for (int round = 1; round <= 3; round++) {
            world.defer();
            queue.spawn();
            assertEquals(1, ((QueuedSpawns) queue).stagedRows(), "round " + round + " starts at the first row");
            queue.spawn();
            queue.spawn();
            assertEquals(3, ((QueuedSpawns) queue).stagedRows());
            world.commit();
        }
        assertEquals(9, world.entityCount());
    }

    @Test
    void outsideAnyScopeASpawnPublishesAndSetWritesTheLiveRow() {
        SpawnQueue queue = world.spawnQueue(List.of(POS));
        long id = queue.spawn();
        assertTrue(world.isAlive(id), "the instant path");
        world.clearDirty();
        queue.set(X, 5);
        assertEquals(new Pos(5, 0), world.get(id, POS));
        assertTrue(world.archetypeOf(id).isComponentDirty(POS), "a live write marks the column");
    }

    @Test
    void laterCallsOnAQueuedIdApplyAfterItsValuesAndADespawnedOneGetsNoRow() {
        SpawnQueue queue = world.spawnQueue(List.of(POS));
        world.defer();
        long first = queue.spawn();
        queue.set(X, 1);
        long doomed = queue.spawn();
        queue.set(X, 2);
        long third = queue.spawn();
        queue.set(X, 3);
        world.set(first, POS.of(new Pos(10, 10))); // staged after the queue's initial values
        world.set(third, MARK);
        world.despawn(doomed);
        world.commit();
        assertEquals(new Pos(10, 10), world.get(first, POS));
        assertFalse(world.isAlive(doomed));
        assertEquals(new Pos(3, 0), world.get(third, POS), "the survivor keeps its own staged row");
        assertTrue(world.has(third, MARK));
        assertEquals(2, world.entityCount());
    }

    @Test
    void aQueryBatchBetweenTwoSpawnsSplitsThemInCallOrder() {
        SpawnQueue queue = world.spawnQueue(List.of(POS));
        Query positioned = world.newQuery(QueryDescriptor.builder().include(POS).build());
        long settled = world.spawn(POS);
        world.defer();
        long before = queue.spawn();
        world.batchSet(positioned, MARK); // selects the committed members at the call: only settled
        long after = queue.spawn();
        world.commit();
        assertTrue(world.has(settled, MARK));
        assertFalse(world.has(before, MARK), "not a member when the batch was called");
        assertFalse(world.has(after, MARK));
        assertTrue(world.isAlive(before) && world.isAlive(after));
    }

    @Test
    void badCallsThrowBeforeAnythingChanges() {
        assertThrows(IllegalArgumentException.class, () -> world.spawnQueue(List.of(EntityKey.COMPONENT)));
        SpawnQueue queue = world.spawnQueue(List.of(POS));
        assertThrows(IllegalStateException.class, () -> queue.set(X, 1), "nothing spawned yet");
        world.defer();
        long id = queue.spawn();
        IllegalArgumentException missing = assertThrows(IllegalArgumentException.class, () -> queue.set(VX, 1));
        assertTrue(missing.getMessage().contains("has no component test.queue.Vel"), missing.getMessage());
        world.commit();
        assertEquals(new Pos(0, 0), world.get(id, POS));
        assertNull(world.get(id, VEL));
    }

    @Test
    void aFullWorldRefusesASpawnAndTheQueueStaysUsable() {
        try (World small = World.create(WorldConfig.defaults().maxEntities(2))) {
            SpawnQueue queue = small.spawnQueue(List.of(POS));
            small.defer();
            long a = queue.spawn();
            queue.set(X, 1);
            queue.spawn();
            assertThrows(IllegalStateException.class, queue::spawn);
            queue.set(X, 2); // still the last spawned entity's row
            small.commit();
            assertEquals(2, small.entityCount());
            assertEquals(new Pos(1, 0), small.get(a, POS));
        }
    }

    @Test
    void anotherThreadIsRefused() throws InterruptedException {
        SpawnQueue queue = world.spawnQueue(List.of(POS));
        Throwable thrown = Intruder.thrownBy(queue::spawn);
        assertTrue(thrown instanceof WrongThreadException, String.valueOf(thrown));
        assertEquals(0, world.entityCount());
    }

    @Test
    void consecutiveTransactionsReuseTheStagedRowsAndAllocateNothingPerEntity() {
        SpawnQueue queue = world.spawnQueue(List.of(POS, VEL));
        long[] ids = new long[2_000];
        Runnable frame = () -> {
            world.defer();
            for (int i = 0; i < ids.length; i++) {
                ids[i] = queue.spawn();
                queue.set(X, i).set(Y, -i).set(VX, 1);
            }
            world.commit();
            world.despawn(ids, 0, ids.length);
        };
        long bytes = Allocations.quietestWindow(frame, 200, 10, 20);
        assertTrue(bytes < 10 * 2_000, "10 frames of 2,000 spawns allocated " + bytes + " B: not per entity");
        assertEquals(0, world.entityCount());
        long id = queue.spawn();
        assertNotEquals(0, id);
    }

    record Prims(int i, long l, double d, short s, byte b, char c, boolean z) {}

    static final NativeComponent<Prims> PRIMS = Components.registerNative(Prims.class, o -> o.name("test.queue.Prims"));

    @Test
    void everyFieldTypeIsWrittenIntoTheStagedRowAndIntoTheLiveRow() {
        SpawnQueue queue = world.spawnQueue(List.of(PRIMS));
        world.defer();
        long staged = queue.spawn();
        write(queue, 1);
        long other = queue.spawn();
        write(queue, 2);
        world.commit();
        assertEquals(expected(1), world.get(staged, PRIMS), "each field written into the staged row");
        assertEquals(expected(2), world.get(other, PRIMS));
        long live = queue.spawn(); // outside any scope: published at once
        world.clearDirty();
        write(queue, 3);
        assertEquals(expected(3), world.get(live, PRIMS), "each field written into the live row");
        assertTrue(world.archetypeOf(live).isComponentDirty(PRIMS));
        assertEquals(expected(2), world.get(other, PRIMS), "no other row written");
    }

    private static void write(SpawnQueue queue, int k) {
        queue.set(PRIMS.intField("i"), 10 * k)
                .set(PRIMS.longField("l"), 1L << (32 + k))
                .set(PRIMS.doubleField("d"), k + 0.5)
                .set(PRIMS.shortField("s"), (short) (-100 * k))
                .set(PRIMS.byteField("b"), (byte) (7 * k))
                .set(PRIMS.charField("c"), (char) ('a' + k))
                .set(PRIMS.booleanField("z"), k % 2 == 1)
                .set(PRIMS.intField("i"), 10 * k); // each setter returns the queue, for the next call
    }

    private static Prims expected(int k) {
        return new Prims(10 * k, 1L << (32 + k), k + 0.5, (short) (-100 * k), (byte) (7 * k), (char) ('a' + k),
                k % 2 == 1);
    }

    @Test
    void aSpawnInsideAVisitPublishesWhenTheVisitReturns() {
        world.spawn(MARK);
        SpawnQueue queue = world.spawnQueue(List.of(POS));
        long[] spawned = new long[1];
        world.forEachArchetype(archetype -> {
            if (spawned[0] == 0) {
                spawned[0] = queue.spawn();
                queue.set(X, 4);
                assertFalse(world.isAlive(spawned[0]), "a visit's rows stay put: nothing publishes while it runs");
            }
        });
        assertTrue(world.isAlive(spawned[0]), "published when the visit returned");
        assertEquals(new Pos(4, 0), world.get(spawned[0], POS));
    }

    @Test
    void everyCallOfAQueueIsRefusedOnAnotherThread() throws InterruptedException {
        SpawnQueue queue = world.spawnQueue(List.of(PRIMS, POS));
        long id = queue.spawn(); // outside any scope: published, the queue's cursor is on it
        write(queue, 1);
        List<Runnable> calls = List.of(queue::last, () -> queue.set(X, 9), () -> queue.set(PRIMS.intField("i"), 9),
                () -> queue.set(PRIMS.longField("l"), 9), () -> queue.set(PRIMS.doubleField("d"), 9),
                () -> queue.set(PRIMS.shortField("s"), (short) 9), () -> queue.set(PRIMS.byteField("b"), (byte) 9),
                () -> queue.set(PRIMS.charField("c"), 'z'), () -> queue.set(PRIMS.booleanField("z"), false));
        for (Runnable call : calls) {
            Throwable thrown = Intruder.thrownBy(call::run);
            assertTrue(thrown instanceof WrongThreadException, String.valueOf(thrown));
        }
        assertEquals(expected(1), world.get(id, PRIMS), "no refused call wrote anything");
        assertEquals(new Pos(0, 0), world.get(id, POS));
    }

    @Test
    void aQueueFollowsTheWorldsHandOffsAndItsClose() throws Exception {
        SpawnQueue queue = world.spawnQueue(List.of(POS));
        long first = queue.spawn();
        Thread main = Thread.currentThread();

        world.release(); // nobody owns it: this thread is refused as another one is, until it claims
        assertThrows(WrongThreadException.class, queue::spawn);
        assertTrue(Intruder.thrownBy(queue::spawn) instanceof WrongThreadException);
        world.claim();
        long second = queue.spawn();

        AtomicReference<Throwable> helped = new AtomicReference<>();
        Thread helper = new Thread(() -> {
            try {
                queue.set(X, 5); // the new owner may
                world.transferTo(main); // and hands the world back
            } catch (Throwable t) {
                helped.set(t);
            }
        });
        world.transferTo(helper); // handed on: the old owner is refused, the queue names the new one
        WrongThreadException refused = assertThrows(WrongThreadException.class, () -> queue.set(X, 6));
        assertTrue(refused.getMessage().contains(helper.getName()), refused.getMessage());
        helper.start();
        helper.join();
        assertEquals(null, helped.get());
        assertEquals(new Pos(5, 0), world.get(second, POS));

        // a thread that claims the released world may use the queue; the last owner may not
        world.release();
        AtomicReference<Throwable> claimed = new AtomicReference<>();
        Thread claimer = new Thread(() -> {
            try {
                world.claim();
                queue.set(X, 7); // the last spawn's row: published, outside any scope
                world.release();
            } catch (Throwable t) {
                claimed.set(t);
            }
        });
        claimer.start();
        claimer.join();
        assertEquals(null, claimed.get());
        world.claim();
        assertEquals(new Pos(7, 0), world.get(second, POS));
        assertEquals(2, world.entityCount());
        assertTrue(world.isAlive(first));

        world.close(); // closed: every call refused with the world's own exception, nothing spawned
        IllegalStateException closed = assertThrows(IllegalStateException.class, queue::spawn);
        assertTrue(closed.getMessage().contains("closed"), closed.getMessage());
        assertThrows(IllegalStateException.class, queue::last);
        assertTrue(Intruder.thrownBy(() -> queue.set(X, 1)) instanceof WrongThreadException);
    }

    // ---------------------------------------------------------------- issue 27

    static final dev.jtecs.component.Relationship LIKES = dev.jtecs.component.Relationships.register(
            "test.queue.Knows");

    @Test
    void aQueueNamesItsInputs() {
        List<dev.jtecs.component.Input> inputs = List.of(POS, VEL.of(new Vel(1, 2)));
        SpawnQueue queue = world.spawnQueue(inputs);
        assertEquals(inputs, queue.inputs());
        assertEquals("SpawnQueue" + inputs, queue.toString());
    }

    @Test
    void aQueueWhoseEdgeTargetDiedRefusesTheNextSpawn() {
        long target = world.spawn();
        SpawnQueue queue = world.spawnQueue(List.of(POS, LIKES.to(target)));
        long first = queue.spawn(); // published at once: its batch is done
        assertTrue(world.isAlive(first));
        world.despawn(target);
        int count = world.entityCount();
        assertThrows(IllegalArgumentException.class, queue::spawn, "the edge's target is dead");
        assertEquals(count, world.entityCount(), "nothing spawned");
    }

    @Test
    void aQueueWhoseTableWasPrunedPlansAgain() {
        SpawnQueue queue = world.spawnQueue(List.of(POS, MARK));
        long first = queue.spawn();
        world.despawn(first);
        world.compact(); // its table is empty: pruned
        long second = queue.spawn();
        queue.set(X, 4);
        assertTrue(world.isAlive(second));
        assertEquals(new Pos(4, 0), world.get(second, POS));
        assertTrue(world.has(second, MARK));
    }

    @Test
    void fieldsSetInAnotherOrderThanBeforeLandInTheirOwnColumns() {
        SpawnQueue queue = world.spawnQueue(List.of(POS, VEL));
        world.defer();
        long a = queue.spawn();
        queue.set(X, 1).set(Y, 2).set(VX, 3);
        long b = queue.spawn();
        queue.set(VX, 6).set(Y, 5).set(X, 4); // each field found by its component's id, in any order
        long c = queue.spawn();
        queue.set(Y, 8).set(X, 6).set(X, 7).set(VX, 1).set(Y, 9); // a field again: its last write counts
        world.commit();
        assertEquals(new Pos(7, 9), world.get(c, POS), "the last write of each field");
        assertEquals(new Vel(1, 0), world.get(c, VEL));
        assertEquals(new Pos(1, 2), world.get(a, POS));
        assertEquals(new Vel(3, 0), world.get(a, VEL));
        assertEquals(new Pos(4, 5), world.get(b, POS));
        assertEquals(new Vel(6, 0), world.get(b, VEL));
    }

    @Test
    void aPendingBatchOfRecycledIdsKeepsItsMembersWhenTheShapeChanges() {
        world.createState("game", StatePolicy.pauseOnBlur());
        SpawnQueue queue = world.spawnQueue(List.of(POS));
        long[] old = {world.spawn(), world.spawn(), world.spawn()};
        for (long id : old) {
            world.despawn(id); // their slots come back with a new generation: the queue's ids are not consecutive
        }
        world.defer();
        long a = queue.spawn();
        queue.set(X, 1);
        long b = queue.spawn();
        queue.set(X, 2);
        world.pushState("game");
        long c = queue.spawn(); // a new shape: it must not write into the pending batch's member list
        queue.set(X, 3);
        world.commit();
        assertEquals(new Pos(1, 0), world.get(a, POS));
        assertEquals(new Pos(2, 0), world.get(b, POS));
        assertEquals(new Pos(3, 0), world.get(c, POS));
        assertEquals(3, world.entityCount());
    }

    record Wide(int a, int b, int c, int d, int e) {}

    static final NativeComponent<Wide> WIDE = Components.registerNative(Wide.class, o -> o.name("test.queue.Wide"));

    @Test
    void aWideShapeWritesEveryFieldIntoItsOwnColumn() {
        SpawnQueue queue = world.spawnQueue(List.of(POS, VEL, WIDE));
        IntField[] wide = {WIDE.intField("a"), WIDE.intField("b"), WIDE.intField("c"), WIDE.intField("d"),
                WIDE.intField("e")};
        world.defer();
        long[] ids = new long[3];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = queue.spawn();
            queue.set(X, i).set(Y, i + 1).set(VX, i + 2).set(VEL.floatField("y"), i + 3);
            for (int f = 0; f < wide.length; f++) {
                queue.set(wide[f], 10 * i + f); // nine fields of three components
            }
        }
        world.commit();
        for (int i = 0; i < ids.length; i++) {
            assertEquals(new Pos(i, i + 1), world.get(ids[i], POS));
            assertEquals(new Vel(i + 2, i + 3), world.get(ids[i], VEL));
            assertEquals(new Wide(10 * i, 10 * i + 1, 10 * i + 2, 10 * i + 3, 10 * i + 4), world.get(ids[i], WIDE));
        }
    }

    record Link(long target, float weight) {}

    static final dev.jtecs.component.RelationshipDefinition<Link> LINK = dev.jtecs.component.Relationships.register(
            Link.class, o -> o.name("test.queue.Link"));

    @Test
    void aPayloadFieldOfAPairIsFoundThroughItsSelector() {
        long target = world.spawn();
        SpawnQueue queue = world.spawnQueue(List.of(POS, LINK.of(new Link(target, 1f))));
        FloatField weight = LINK.targeting(target).floatField("weight"); // a selector's id is -1: found by position
        world.defer();
        long id = queue.spawn();
        queue.set(weight, 5f).set(Y, 2);
        world.commit();
        assertEquals(new Link(target, 5f), world.get(id, LINK.targeting(target)));
        assertEquals(new Pos(0, 2), world.get(id, POS));
        FloatField elsewhere = LINK.targeting(id).floatField("weight");
        assertThrows(IllegalArgumentException.class, () -> queue.set(elsewhere, 3f), "a pair the shape lacks");
    }

    @Test
    void aFieldOfAComponentTheShapeLacksIsRefusedWhereverItsIdFalls() {
        assertTrue(POS.id() < VEL.id() && VEL.id() < COUNTER.id(), "registered in this order");
        SpawnQueue velocities = world.spawnQueue(List.of(VEL)); // POS's id falls inside its table of first columns
        SpawnQueue positions = world.spawnQueue(List.of(POS)); // COUNTER's id falls past the end of its table
        world.defer();
        long v = velocities.spawn();
        long p = positions.spawn();
        assertThrows(IllegalArgumentException.class, () -> velocities.set(X, 1));
        assertThrows(IllegalArgumentException.class, () -> positions.set(N, 1));
        positions.set(Y, 3);
        world.commit();
        assertEquals(new Vel(0, 0), world.get(v, VEL));
        assertEquals(new Pos(0, 3), world.get(p, POS));
        assertNull(world.get(p, COUNTER));
    }

    @Test
    void aPlanThatCannotAllocateChangesNothingAndTheNextSpawnPlansAgain() {
        assertTrue(dev.jtecs.entity.internal.AllocationFaults.ENABLED,
                "the suite runs with -Djtecs.allocationFaults=true");
        int failed = 0;
        boolean finished = false;
        for (int k = 1; !finished; k++) {
            try (World fresh = World.create()) {
                SpawnQueue queue = fresh.spawnQueue(List.of(POS, VEL));
                TagComponent game = fresh.createState("game", StatePolicy.pauseOnBlur());
                fresh.defer();
                long before = queue.spawn();
                queue.set(X, 1).set(VX, 2);
                fresh.pushState("game"); // the next spawn plans the queue's shape again, with the state's tag
                long after = 0;
                dev.jtecs.entity.internal.AllocationFaults.failAt(dev.jtecs.entity.internal.AllocationFaults.Kind.HEAP, k);
                try {
                    after = queue.spawn();
                } catch (OutOfMemoryError injected) {
                    failed++;
                } finally {
                    // the spawn made fewer than k allocations: every one of them has failed once
                    finished = dev.jtecs.entity.internal.AllocationFaults.armed(
                            dev.jtecs.entity.internal.AllocationFaults.Kind.HEAP);
                    dev.jtecs.entity.internal.AllocationFaults.disarm();
                }
                if (after == 0) {
                    after = queue.spawn(); // plans again, now that it can allocate
                }
                queue.set(Y, 5).set(VX, 4).set(X, 3);
                fresh.commit();
                assertEquals(2, fresh.entityCount(), "growth " + k);
                assertEquals(new Pos(1, 0), fresh.get(before, POS), "growth " + k);
                assertEquals(new Vel(2, 0), fresh.get(before, VEL), "growth " + k);
                assertFalse(fresh.has(before, game), "growth " + k);
                assertEquals(new Pos(3, 5), fresh.get(after, POS), "growth " + k);
                assertEquals(new Vel(4, 0), fresh.get(after, VEL), "growth " + k);
                assertTrue(fresh.has(after, game), "growth " + k + ": the new shape, not the last batch's");
            }
        }
        assertTrue(failed >= 7, "the new table and the queue's staged rows each failed to allocate: " + failed);
    }
}
