package dev.jtecs.mutation.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.component.Components;
import dev.jtecs.component.ManagedComponent;
import dev.jtecs.component.NativeComponent;
import dev.jtecs.component.Relationship;
import dev.jtecs.component.Relationships;
import dev.jtecs.component.ScalarComponent;
import dev.jtecs.entity.internal.AllocationFaults;
import dev.jtecs.storage.Archetype;
import dev.jtecs.storage.EntityObserver;
import dev.jtecs.world.World;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The drain's batch despawn against its one-record despawn: the same rows in the same order, the same values, the
 * same free list; and a failure before the run starts leaves all of it alive.
 */
class BatchDespawnsTest {
    record Tagged(String label) {}

    record Mixed(float f, byte b, short s) {}

    static final NativeComponent<Mixed> M = Components.registerNative(Mixed.class);
    static final ScalarComponent.OfDouble D = Components.scalar("test.batchDespawn.D", 0d);
    static final ManagedComponent<Tagged> LABEL = Components.registerManaged(Tagged.class);
    static final Relationship LIKES = Relationships.register("test.batchDespawn.Likes");
    static final dev.jtecs.component.TagComponent TAG = Components.tag("test.batchDespawn.Tag");

    private static final int ENTITIES = 300;

    /** A world of {@link #ENTITIES} entities, each with distinct values; when {@code observed}, the archetype has
     * a no-op entity observer, which sends every despawn of the drain down the one-record path. */
    private static World world(boolean observed, long[] ids, AtomicInteger heard) {
        World world = World.create();
        for (int i = 0; i < ENTITIES; i++) {
            ids[i] = world.spawn(M.of(new Mixed(i * 1.5f, (byte) i, (short) -i)), D.of(i * 0.25),
                    LABEL.of(new Tagged("e" + i)));
        }
        if (observed) {
            world.archetypeOf(ids[0]).addEntityObserver(new EntityObserver() {
                @Override
                public void onEntityMove(Archetype archetype, long entity, int fromRow, int toRow) {
                    heard.incrementAndGet();
                }
            });
        }
        return world;
    }

    /** Every row of the archetype: entity, then each column's value. */
    private static List<String> rows(World world, long anyId) {
        Archetype archetype = world.archetypeOf(anyId);
        List<String> rows = new ArrayList<>();
        for (int row = 0; row < archetype.count(); row++) {
            long id = archetype.entities().get(row);
            rows.add(id + ":" + world.get(id, M) + "/" + world.get(id, D) + "/" + world.get(id, LABEL));
        }
        return rows;
    }

    /** A despawn list: a random subset in random order, with the last rows among it (they move into holes first). */
    private static long[] doomed(long[] ids, long seed) {
        Random random = new Random(seed);
        List<Long> picked = new ArrayList<>();
        for (int i = 0; i < ENTITIES; i++) {
            if (i >= ENTITIES - 5 || random.nextInt(4) == 0) {
                picked.add(ids[i]);
            }
        }
        java.util.Collections.shuffle(picked, random);
        return picked.stream().mapToLong(Long::longValue).toArray();
    }

    private static void despawnInOneScope(World world, long[] list) {
        world.defer();
        try {
            world.despawn(list, 0, list.length);
        } finally {
            world.commit();
        }
    }

    /** Every table's entities, in row order (the values that follow them are Table's to test). */
    private static String rows(ModelFixture rig) {
        StringBuilder sb = new StringBuilder();
        rig.registry.forEach(table -> {
            sb.append(table.store()).append(':');
            for (int row = 0; row < table.count(); row++) {
                sb.append(table.entityAt(row)).append(' ');
            }
        });
        return sb.toString();
    }

    /**
     * A subtree despawned at once ({@code removeSubtree}) leaves what the same ids despawned one at a time, in the
     * reverse of their order, leave: a table it empties, a table it leaves rows in (swap-removes in that order),
     * and the free list's order (the ids the next spawns get). Refused, with nothing changed: a dead id, a table an
     * entity observer watches, and more tables than it keeps.
     */
    @Test
    void aSubtreeRemovedAtOnceLeavesWhatDespawnsOneAtATimeLeave() {
        try (ModelFixture atOnce = new ModelFixture(); ModelFixture oneByOne = new ModelFixture()) {
            long[] ids = new long[40];
            for (ModelFixture rig : List.of(atOnce, oneByOne)) {
                for (int i = 0; i < ids.length; i++) { // tables: D alone (even), D with a tag (odd)
                    dev.jtecs.component.Input[] inputs = i % 2 == 0
                            ? new dev.jtecs.component.Input[] {D.of(i)}
                            : new dev.jtecs.component.Input[] {D.of(i), TAG};
                    ids[i] = rig.model.spawn(inputs);
                }
            }
            long bare = atOnce.model.spawn(new dev.jtecs.component.Input[0]); // a table with no component
            assertEquals(bare, oneByOne.model.spawn(new dev.jtecs.component.Input[0]));
            long[] subtree = new long[26]; // every odd one (its table emptied), five even ones, mixed, and bare
            int n = 0;
            for (int i = ids.length - 1; i >= 0; i--) {
                if (i % 2 == 1 || i % 8 == 0) {
                    subtree[n++] = ids[i];
                }
            }
            subtree[n++] = bare;
            assertEquals(26, n);
            dev.jtecs.storage.internal.Table tagged = atOnce.registry.ofStore(
                    atOnce.index.storeOf(dev.jtecs.entity.Entity.slot(ids[1])));
            long structural = tagged.dirty().structuralCount();
            String before = rows(atOnce);
            BatchDespawns despawns = atOnce.model.drain().batchDespawns();
            long[] withDead = subtree.clone();
            withDead[3] = dev.jtecs.entity.Entity.pack(999, 0);
            assertFalse(despawns.removeSubtree(withDead, n), "a dead id");
            assertEquals(before, rows(atOnce));

            assertTrue(despawns.removeSubtree(subtree, n));
            assertEquals(0, tagged.count());
            assertEquals(structural + 1, tagged.dirty().structuralCount(), "a table emptied whole: one truncation");
            for (int i = n - 1; i >= 0; i--) { // the reverse of the ids' order: a walk's deepest level first
                oneByOne.model.despawn(subtree[i]);
            }
            assertEquals(rows(oneByOne), rows(atOnce));
            for (int i = 0; i < 30; i++) {
                assertEquals(oneByOne.model.spawn(new dev.jtecs.component.Input[] {D.of(-i)}),
                        atOnce.model.spawn(new dev.jtecs.component.Input[] {D.of(-i)}), "spawn " + i);
            }
            assertEquals(rows(oneByOne), rows(atOnce));

            long watched = atOnce.model.spawn(new dev.jtecs.component.Input[] {TAG});
            EntityObserver listener = new EntityObserver() { };
            atOnce.registry.ofStore(atOnce.index.storeOf(dev.jtecs.entity.Entity.slot(watched))).addObserver(listener);
            String observed = rows(atOnce);
            assertFalse(despawns.removeSubtree(new long[] {ids[0], watched}, 2), "an observed table");
            assertEquals(observed, rows(atOnce));
            assertTrue(atOnce.index.isAlive(watched));
        }
    }

    /**
     * Ids that all live in the first one's table are checked as their slots are freed and end as the same ids
     * despawned one at a time in reverse: part of a table (swap-removes after the free), and a whole table (one
     * truncation). An id of another table met part way through the pass (which goes from the last id down) puts back
     * the slots freed so far and the ids go table by table instead, ending the same; a dead one is refused with
     * nothing changed, as is an id of another table first when its table is too small to hold them all.
     */
    @Test
    void idsInOneTableAreCheckedAsTheirSlotsAreFreedAndAStrayPutsThemBack() {
        try (ModelFixture atOnce = new ModelFixture(); ModelFixture oneByOne = new ModelFixture()) {
            long[] ids = new long[24];
            long[] tagged = new long[4];
            for (ModelFixture rig : List.of(atOnce, oneByOne)) {
                for (int i = 0; i < ids.length; i++) { // one table, D alone
                    ids[i] = rig.model.spawn(new dev.jtecs.component.Input[] {D.of(i)});
                }
                for (int i = 0; i < tagged.length; i++) { // another, D with a tag
                    tagged[i] = rig.model.spawn(new dev.jtecs.component.Input[] {D.of(-i), TAG});
                }
            }
            BatchDespawns despawns = atOnce.model.drain().batchDespawns();
            long[][] taken = {
                {ids[3], ids[17], ids[0], ids[9], ids[22], ids[11], ids[5]}, // part of the first table
                {ids[1], tagged[0], ids[2], ids[4], ids[23]}, // a stray in the other table, met after three frees
                {tagged[1], ids[8], ids[10], tagged[2], ids[12]}, // the other table first, too small for five
            };
            int[] checkedFrees = {1, 1, 1};
            for (int c = 0; c < taken.length; c++) {
                long[] subtree = taken[c];
                assertTrue(despawns.removeSubtree(subtree, subtree.length), "case " + c);
                assertEquals(checkedFrees[c], despawns.subtreesFreedAsChecked(), "case " + c);
                for (int i = subtree.length - 1; i >= 0; i--) {
                    oneByOne.model.despawn(subtree[i]);
                }
                assertEquals(rows(oneByOne), rows(atOnce), "case " + c);
            }
            long[] withDead = {ids[6], ids[3], ids[7]}; // ids[3] died in case 0
            String before = rows(atOnce);
            assertFalse(despawns.removeSubtree(withDead, withDead.length), "a dead id");
            assertEquals(before, rows(atOnce));
            assertTrue(atOnce.index.isAlive(ids[6]) && atOnce.index.isAlive(ids[7]), "put back");

            dev.jtecs.storage.internal.Table other = atOnce.tableOf(tagged[3]);
            long structural = other.dirty().structuralCount();
            assertTrue(despawns.removeSubtree(new long[] {tagged[3]}, 1), "the other table's last row: all of it");
            assertEquals(2, despawns.subtreesFreedAsChecked());
            assertEquals(0, other.count());
            assertEquals(structural + 1, other.dirty().structuralCount(), "a table emptied whole: one truncation");
            oneByOne.model.despawn(tagged[3]);
            assertEquals(rows(oneByOne), rows(atOnce));
            for (int i = 0; i < 16; i++) { // the same free stack
                assertEquals(oneByOne.model.spawn(new dev.jtecs.component.Input[] {D.of(-i)}),
                        atOnce.model.spawn(new dev.jtecs.component.Input[] {D.of(-i)}), "spawn " + i);
            }
            assertEquals(rows(oneByOne), rows(atOnce));
        }
    }

    /** More tables than {@code removeSubtree} keeps: refused, nothing changed; one fewer: taken. */
    @Test
    void aSubtreeOverMoreTablesThanItKeepsIsRefused() {
        try (ModelFixture rig = new ModelFixture()) {
            int tables = BatchDespawns.SUBTREE_TABLES + 1;
            long[] ids = new long[tables];
            for (int i = 0; i < tables; i++) { // each its own table: D with i's own tag
                ids[i] = rig.model.spawn(new dev.jtecs.component.Input[] {D.of(i),
                        Components.tag("test.batchDespawn.Table" + i)});
            }
            String before = rows(rig);
            assertFalse(rig.model.drain().batchDespawns().removeSubtree(ids, tables));
            assertEquals(before, rows(rig));
            assertTrue(rig.model.drain().batchDespawns().removeSubtree(ids, tables - 1));
            assertTrue(rig.index.isAlive(ids[tables - 1]));
            assertFalse(rig.index.isAlive(ids[0]));
        }
    }

    @Test
    void aBatchLeavesTheRowsTheOneRecordDespawnLeaves() {
        for (long seed = 1; seed <= 20; seed++) {
            long[] idsA = new long[ENTITIES];
            long[] idsB = new long[ENTITIES];
            AtomicInteger moves = new AtomicInteger();
            try (World batched = world(false, idsA, moves); World single = world(true, idsB, moves)) {
                assertArrayEquals(idsA, idsB);
                long[] list = doomed(idsA, seed);
                long survivor = firstSurvivor(idsA, list);
                despawnInOneScope(batched, list.clone());
                despawnInOneScope(single, list.clone());
                assertTrue(moves.get() > 0, "the observed world took the one-record path");
                assertEquals(rows(single, survivor), rows(batched, survivor), "seed " + seed);
                for (long id : list) {
                    assertFalse(batched.isAlive(id));
                }
                assertEquals(single.entityCount(), batched.entityCount());
                for (int i = 0; i < list.length; i++) { // the freed slots come back in the same order
                    assertEquals(single.spawn(D.of(1)), batched.spawn(D.of(1)), "seed " + seed + " spawn " + i);
                }
                moves.set(0);
            }
        }
    }

    @Test
    void aRunOfEveryRowEmptiesTheTableAndFreesTheSlotsAsTheOneRecordDespawnFreesThem() {
        for (long seed = 1; seed <= 5; seed++) {
            long[] idsA = new long[ENTITIES];
            long[] idsB = new long[ENTITIES];
            AtomicInteger moves = new AtomicInteger();
            try (World batched = world(false, idsA, moves); World single = world(true, idsB, moves)) {
                long[] list = idsA.clone();
                Long[] boxed = java.util.Arrays.stream(list).boxed().toArray(Long[]::new);
                java.util.Collections.shuffle(java.util.Arrays.asList(boxed), new Random(seed));
                for (int i = 0; i < boxed.length; i++) {
                    list[i] = boxed[i];
                }
                Archetype archetype = batched.archetypeOf(idsA[0]);
                long structure = archetype.structuralCount();
                despawnInOneScope(batched, list.clone());
                despawnInOneScope(single, list.clone());
                assertEquals(0, archetype.count(), "seed " + seed);
                assertEquals(0, batched.entityCount());
                assertTrue(archetype.structuralCount() > structure, "the emptied table reads structurally changed");
                for (long id : list) {
                    assertFalse(batched.isAlive(id));
                }
                for (int i = 0; i < list.length; i++) { // the freed slots come back in the same order
                    assertEquals(single.spawn(D.of(1)), batched.spawn(D.of(1)), "seed " + seed + " spawn " + i);
                }
                long again = batched.spawn(M.of(new Mixed(1, (byte) 2, (short) 3)), D.of(4), LABEL.of(new Tagged("x")));
                assertEquals(new Mixed(1, (byte) 2, (short) 3), batched.get(again, M), "the emptied table takes rows");
            }
        }
    }

    private static long firstSurvivor(long[] ids, long[] list) {
        java.util.Set<Long> gone = new java.util.HashSet<>();
        for (long id : list) {
            gone.add(id);
        }
        for (long id : ids) {
            if (!gone.contains(id)) {
                return id;
            }
        }
        throw new AssertionError("the list despawns everything");
    }

    @Test
    void everyDespawnOfTheRunIsReportedToTheRelationshipLayer() {
        long[] ids = new long[ENTITIES];
        try (World world = world(false, ids, new AtomicInteger())) {
            long fan = world.spawn(D.of(0), LIKES.to(ids[10]));
            long[] list = {ids[3], ids[10], ids[11], ids[12], ids[13], ids[14], ids[15], ids[16], ids[17]};
            despawnInOneScope(world, list);
            assertTrue(world.isAlive(fan));
            assertEquals(null, world.getFirstRelationship(fan, LIKES), "the edge to the dead target went with it");
        }
    }

    @Test
    void anAllocationThatFailsInTheDrainLeavesTheRunWholeOrGone() {
        sweepFailedAllocations(false);
    }

    /**
     * As {@link #anAllocationThatFailsInTheDrainLeavesTheRunWholeOrGone}, with the table's marks cleared by an
     * update first: its rows then count as old, so each row a removal overwrites is recorded as touched, and the
     * room for those records is made before the run starts.
     */
    @Test
    void anAllocationThatFailsInTheDrainOfATableWithClearedMarksLeavesTheRunWholeOrGone() {
        sweepFailedAllocations(true);
    }

    private static void sweepFailedAllocations(boolean cleared) {
        assertTrue(AllocationFaults.ENABLED, "the suite runs with -Djtecs.allocationFaults=true");
        boolean succeeded = false;
        int failures = 0;
        for (int k = 1; !succeeded; k++) {
            long[] ids = new long[ENTITIES];
            long[] refIds = new long[ENTITIES];
            try (World world = world(false, ids, new AtomicInteger());
                    World reference = world(false, refIds, new AtomicInteger())) {
                if (cleared) {
                    world.update(0);
                    reference.update(0);
                }
                long[] list = doomed(ids, k);
                long survivor = firstSurvivor(ids, list);
                List<String> before = rows(world, survivor);
                despawnInOneScope(reference, list.clone());
                List<String> after = rows(reference, survivor);
                world.defer();
                world.despawn(list.clone(), 0, list.length); // staged: only the drain meets the fault
                AllocationFaults.failAt(AllocationFaults.Kind.HEAP, k);
                try {
                    world.commit();
                    succeeded = true;
                } catch (OutOfMemoryError injected) {
                    failures++;
                    List<String> now = rows(world, survivor);
                    boolean whole = now.equals(before);
                    assertTrue(whole || now.equals(after), "growth " + k + ": the run left in part");
                    for (long id : list) {
                        assertEquals(whole, world.isAlive(id), "growth " + k);
                    }
                } finally {
                    AllocationFaults.disarm();
                }
                if (!succeeded && world.isAlive(list[0])) {
                    despawnInOneScope(world, list); // the world is usable: the same list despawns now
                }
                assertEquals(after, rows(world, survivor), "growth " + k);
                assertEquals(ENTITIES - list.length, world.entityCount());
            }
            assertTrue(k < 100, "some growth count lets the despawn through");
        }
        assertTrue(failures > 0, "the drain's growths were among those failed");
    }

    /**
     * A run that empties its table swaps no row, so it sizes no room for row moves (a cascade's subtree in a new
     * world allocated 8 bytes an entity for them); a run of part of a table still makes that room first.
     */
    @Test
    void aRunThatEmptiesItsTableMakesNoRoomForRowMoves() {
        try (DrainFixture rig = new DrainFixture(new DrainHooks() { })) {
            long[] ids = new long[4 * BatchDespawns.MIN_RUN];
            for (int i = 0; i < ids.length; i++) {
                ids[i] = rig.stageSpawn(D.of(i));
            }
            rig.drain.publish();
            for (long id : ids) {
                rig.tx.stageQuietDespawn(id, dev.jtecs.entity.Entity.slot(id));
            }
            rig.drain.publish();
            for (long id : ids) {
                assertFalse(rig.index.isAlive(id));
            }
            assertEquals(0, rig.drain.batchDespawns().rowMoveRoom(), "the whole table went: no row moved");

            for (int i = 0; i < ids.length; i++) {
                ids[i] = rig.stageSpawn(D.of(i));
            }
            rig.drain.publish();
            for (int i = 0; i < ids.length; i += 2) { // every other row: swaps fill the holes
                rig.tx.stageQuietDespawn(ids[i], dev.jtecs.entity.Entity.slot(ids[i]));
            }
            rig.drain.publish();
            assertTrue(rig.drain.batchDespawns().rowMoveRoom() >= ids.length / 2, "a part of the table: room made");
            for (int i = 0; i < ids.length; i++) {
                assertEquals(i % 2 == 1, rig.index.isAlive(ids[i]), "entity " + i);
            }
            assertEquals(ids.length / 2, rig.tableOf(ids[1]).count());
        }
    }

    /**
     * A run of quiet despawns tells the hooks of each despawned entity while they hear despawns, and none of them
     * while they promise that telling would do nothing ({@code DrainHooks.hearsDespawns}): the rows and slots go
     * the same way either way.
     */
    @Test
    void aRunTellsTheHooksOfEachDespawnOnlyWhileTheyHearDespawns() {
        for (boolean hears : new boolean[] {true, false}) {
            List<Long> told = new ArrayList<>();
            dev.jtecs.mutation.internal.DrainHooks hooks = new dev.jtecs.mutation.internal.DrainHooks() {
                @Override
                public void despawned(long id) {
                    told.add(id);
                }

                @Override
                public boolean hearsDespawns() {
                    return hears;
                }
            };
            try (DrainFixture rig = new DrainFixture(hooks)) {
                long[] ids = new long[2 * BatchDespawns.MIN_RUN];
                for (int i = 0; i < ids.length; i++) {
                    ids[i] = rig.stageSpawn(D.of(i));
                }
                rig.drain.publish();
                List<Long> run = new ArrayList<>();
                for (int i = 0; i < ids.length; i += 2) { // every other row: a run of one table, not all of it
                    rig.tx.stageQuietDespawn(ids[i], dev.jtecs.entity.Entity.slot(ids[i]));
                    run.add(ids[i]);
                }
                rig.drain.publish();
                assertEquals(hears ? run : List.of(), told, "hears despawns: " + hears);
                for (int i = 0; i < ids.length; i++) {
                    assertEquals(i % 2 == 1, rig.index.isAlive(ids[i]), "entity " + i + ", hears: " + hears);
                }
                assertEquals(BatchDespawns.MIN_RUN, rig.tableOf(ids[1]).count());
            }
        }
    }
}
