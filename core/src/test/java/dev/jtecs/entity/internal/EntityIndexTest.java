package dev.jtecs.entity.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.entity.Entity;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class EntityIndexTest {
    @Test
    void allocateHandsOutReservedIdsFromSlotOne() {
        EntityIndex index = new EntityIndex(10);
        long a = index.allocate();
        long b = index.allocate();
        assertEquals(1L, a);
        assertEquals(2L, b);
        assertEquals(EntityIndex.RESERVED, index.stateOf(a));
        assertFalse(index.isAlive(a));
    }

    @Test
    void reservedSlotsAreHandedOutWithoutGrowingAndRecycledOnesCountFirst() {
        assertTrue(AllocationFaults.ENABLED, "the suite runs with -Djtecs.allocationFaults=true");
        EntityIndex index = new EntityIndex(5_000);
        index.reserveSlots(3_000); // past the first 1,025 entries
        AllocationFaults.disarm();
        for (int i = 0; i < 3_000; i++) {
            index.allocate();
        }
        assertEquals(0, AllocationFaults.seen(AllocationFaults.Kind.HEAP), "3,000 allocations after the room");
        for (int i = 0; i < 2_000; i++) {
            index.allocate(); // past the room: the control, it grows
        }
        assertTrue(AllocationFaults.seen(AllocationFaults.Kind.HEAP) > 0, "beyond the room the index grows");
        assertEquals(5_001, index.highWater());
        index.free(7);
        index.free(8);
        index.reserveSlots(2); // two recycled slots: nothing new needed, and the world is full otherwise
        assertThrows(IllegalArgumentException.class, () -> index.reserveSlots(3), "two recycled, no new slot left");
    }

    @Test
    void aPowerOfTwoPopulationGrowsTheIndexByDoublingAlone() {
        // from the first capacity (1,024 entities beside slot 0) to 16,384 entities: four doublings, each growing
        // the slot words and the rows together; slot 0 does not cost a fifth growth, a copy of the whole index, for
        // the one slot past 16,384 that it takes
        EntityIndex index = new EntityIndex(1 << 20);
        AllocationFaults.disarm();
        for (int i = 0; i < 1 << 14; i++) {
            index.allocate();
        }
        assertEquals(8, AllocationFaults.seen(AllocationFaults.Kind.HEAP));
        index.allocate(); // entity 16,385: the next doubling
        assertEquals(10, AllocationFaults.seen(AllocationFaults.Kind.HEAP));
        assertEquals((1 << 14) + 2, index.highWater());
    }

    @Test
    void stampedFreshSlotsGrowNothingUntilTheirRunIsPublishedAndAreWrittenOnceThen() {
        EntityIndex index = new EntityIndex(1 << 20);
        AllocationFaults.disarm();
        for (int i = 0; i < 1 << 14; i++) {
            long id = index.allocateStamped(7);
            assertEquals(Entity.pack(i + 1, 0), id, "fresh slots, one after the other, at generation 0");
            assertEquals(EntityIndex.RESERVED, index.stateOf(id));
            assertEquals(7, index.batchArchetype(i + 1));
            assertFalse(index.isAlive(id));
        }
        assertEquals(0, AllocationFaults.seen(AllocationFaults.Kind.HEAP), "16,384 reservations past the 1,024 room");
        assertEquals((1 << 14) + 1, index.highWater());
        assertEquals((1 << 20) - (1 << 14), index.available());
        assertEquals(EntityIndex.FREE, index.stateOf(Entity.pack(100, 1)), "another generation of a reserved slot");
        assertEquals(EntityIndex.FREE, index.stateOf(Entity.pack((1 << 14) + 1, 0)), "the slot past them");
        index.roomForReserved();
        assertEquals(2, AllocationFaults.seen(AllocationFaults.Kind.HEAP), "one growth of both arrays, to the run");
        index.publishRange(1, 10_000, 3, 0); // the first of them: the rest stay reserved
        assertEquals(EntityIndex.RESERVED, index.stateOf(Entity.pack(10_001, 0)));
        assertEquals(7, index.batchArchetype(10_001));
        index.publishRange(10_001, 6_384, 4, 5);
        assertEquals(2, AllocationFaults.seen(AllocationFaults.Kind.HEAP), "publishing grows nothing more");
        assertEquals(1 << 14, index.aliveCount());
        assertEquals(3, index.aliveStore(Entity.pack(10_000, 0)));
        assertEquals(9_999, index.rowOf(10_000));
        assertEquals(4, index.aliveStore(Entity.pack(1 << 14, 0)));
        assertEquals(6_388, index.rowOf(1 << 14));
        assertEquals((1 << 14) + 1, index.highWater());
    }

    @Test
    void aStampedRunStopsAtAFreeSlotAnotherArchetypeOrAFullWorld() {
        EntityIndex index = new EntityIndex(6);
        long a = index.allocateStamped(1);
        long b = index.allocateStamped(2); // another archetype: the run so far is written first
        assertEquals(2, index.batchArchetype(Entity.slot(b)));
        assertEquals(1, index.batchArchetype(Entity.slot(a)));
        index.publish(Entity.slot(a), 0, 0);
        index.free(Entity.slot(a));
        long recycled = index.allocateStamped(2); // a free slot comes first, as allocate takes it
        assertEquals(Entity.pack(1, 1), recycled);
        assertEquals(2, index.batchArchetype(1));
        for (int i = 0; i < 4; i++) {
            assertEquals(index.nextId(), index.allocateStamped(2));
        }
        assertEquals(0, index.nextId(), "full: no id is next");
        IllegalStateException full = assertThrows(IllegalStateException.class, () -> index.allocateStamped(2));
        assertTrue(full.getMessage().contains("6 reserved"), full.getMessage());
        assertEquals(0, index.available());
    }

    @Test
    void aFailedGrowthForTheStampedRunChangesNothing() {
        EntityIndex index = new EntityIndex(1 << 20);
        for (int i = 0; i < 3_000; i++) {
            index.allocateStamped(5);
        }
        long last = Entity.pack(3_000, 0);
        for (int k = 1; k <= 2; k++) { // the slot words, then the rows
            try {
                AllocationFaults.failAt(AllocationFaults.Kind.HEAP, k);
                assertThrows(OutOfMemoryError.class, index::roomForReserved, "fault " + k);
                AllocationFaults.failAt(AllocationFaults.Kind.HEAP, k);
                assertThrows(OutOfMemoryError.class, () -> index.free(3_000), "freeing one writes the run first");
            } finally {
                AllocationFaults.disarm();
            }
            assertEquals(EntityIndex.RESERVED, index.stateOf(last), "fault " + k);
            assertEquals(5, index.batchArchetype(3_000));
            assertEquals(3_001, index.highWater());
        }
        index.free(3_000); // memory is back: the run is written, then the slot freed
        assertEquals(EntityIndex.FREE, index.stateOf(last));
        assertEquals(EntityIndex.RESERVED, index.stateOf(Entity.pack(2_999, 0)));
        assertEquals(Entity.pack(3_000, 1), index.nextId());
    }

    /**
     * Stamped allocations reserve lazily; every other call must see what {@link EntityIndex#allocate} followed by
     * {@link EntityIndex#stampBatch} would have left. Two indexes run the same seeded operations, one reserving
     * lazily and one eagerly, and agree on everything they answer after each. Replay with its printed seed.
     */
    @Test
    void lazyStampedReservationsAnswerAsEagerOnesThroughRandomOperations() {
        long seed = Long.getLong("jtecs.indexSeed", System.nanoTime());
        System.out.println("EntityIndexTest lazy-stamp seed: " + seed + " (-Djtecs.indexSeed=" + seed + ")");
        Random random = new Random(seed);
        int max = 2_500;
        EntityIndex lazy = new EntityIndex(max);
        EntityIndex eager = new EntityIndex(max);
        List<Long> reserved = new ArrayList<>();
        List<Long> alive = new ArrayList<>();
        for (int step = 0; step < 10_000; step++) {
            int op = random.nextInt(12);
            String at = "seed " + seed + " step " + step + " op " + op;
            if (op < 5 && lazy.available() > 0) { // stamped spawns, mostly one archetype
                int archetype = random.nextInt(8) == 0 ? 2 : 1;
                long next = lazy.nextId();
                long id = lazy.allocateStamped(archetype);
                assertEquals(next, id, at);
                long expected = eager.allocate();
                eager.stampBatch(Entity.slot(expected), archetype);
                assertEquals(expected, id, at);
                reserved.add(id);
            } else if (op < 7 && !reserved.isEmpty()) { // publish the oldest reserved run: as a range when it is one
                int n = 1;
                long first = reserved.get(0);
                while (n < reserved.size() && reserved.get(n) == first + n && random.nextInt(50) != 0) {
                    n++;
                }
                int row = random.nextInt(1 << 20);
                lazy.publishRange(Entity.slot(first), n, 3, row);
                eager.publishRange(Entity.slot(first), n, 3, row);
                for (int i = 0; i < n; i++) {
                    alive.add(reserved.remove(0));
                }
            } else if (op == 7 && !reserved.isEmpty()) { // publish one reserved id alone
                long id = reserved.remove(random.nextInt(reserved.size()));
                lazy.publish(Entity.slot(id), 4, 9);
                eager.publish(Entity.slot(id), 4, 9);
                alive.add(id);
            } else if (op == 8 && !reserved.isEmpty()) { // release a reserved id (a staged spawn taken back)
                long id = reserved.remove(random.nextInt(reserved.size()));
                lazy.free(Entity.slot(id));
                eager.free(Entity.slot(id));
            } else if (op == 9 && !alive.isEmpty()) { // despawn
                long id = alive.remove(random.nextInt(alive.size()));
                lazy.free(Entity.slot(id));
                eager.free(Entity.slot(id));
            } else if (op == 10 && lazy.available() > 0) { // a plain allocation between stamped ones
                long id = lazy.allocate();
                assertEquals(eager.allocate(), id, at);
                reserved.add(id);
            } else if (op == 11 && random.nextInt(100) == 0) {
                lazy.clear();
                eager.clear();
                reserved.clear();
                alive.clear();
            }
            assertEquals(eager.highWater(), lazy.highWater(), at);
            assertEquals(eager.available(), lazy.available(), at);
            assertEquals(eager.aliveCount(), lazy.aliveCount(), at);
            assertEquals(eager.nextId(), lazy.nextId(), at);
            int top = lazy.highWater();
            // every slot now and then; else those about the mark, where the lazily reserved ones are
            boolean all = step % 10 == 0;
            for (int slot = all ? 0 : Math.max(0, top - 40); slot <= (all ? max + 1 : Math.min(max + 1, top + 2));
                    slot++) {
                assertEquals(eager.slotState(slot), lazy.slotState(slot), at + " slot " + slot);
                assertEquals(eager.generationOf(slot), lazy.generationOf(slot), at + " slot " + slot);
                assertEquals(eager.batchArchetype(slot), lazy.batchArchetype(slot), at + " slot " + slot);
                long id = Entity.pack(Math.max(1, slot), eager.generationOf(slot));
                assertEquals(eager.stateOf(id), lazy.stateOf(id), at + " slot " + slot);
                assertEquals(eager.aliveStore(id), lazy.aliveStore(id), at + " slot " + slot);
            }
            if (step % 97 == 0) {
                assertEquals(toList(eager.freeStack()), toList(lazy.freeStack()), at);
                long probe = Entity.pack(1 + random.nextInt(max), 0);
                assertEquals(eager.describeDead(probe, "probe"), lazy.describeDead(probe, "probe"), at);
            }
        }
    }

    @Test
    void reservingRefusesANegativeCountOrMoreThanTheCapacityAndChangesNothing() {
        EntityIndex index = new EntityIndex(10);
        index.allocate();
        IllegalArgumentException tooMany = assertThrows(IllegalArgumentException.class, () -> index.reserveSlots(10));
        assertEquals("reserve: 10 more entities do not fit: 0 recycled and 9 new slots are left of maxEntities=10",
                tooMany.getMessage());
        assertThrows(IllegalArgumentException.class, () -> index.reserveSlots(-1));
        index.reserveSlots(9);
        for (int i = 0; i < 9; i++) {
            index.allocate();
        }
        assertThrows(IllegalStateException.class, index::allocate, "full, as before the reservation");
    }

    @Test
    void publishMakesAliveAndRecordsLocation() {
        EntityIndex index = new EntityIndex(10);
        long id = index.allocate();
        index.publish(Entity.slot(id), 3, 7);
        assertTrue(index.isAlive(id));
        assertEquals(3, index.storeOf(Entity.slot(id)));
        assertEquals(7, index.rowOf(Entity.slot(id)));
        assertEquals(1, index.aliveCount());
    }

    @Test
    void freeBumpsGenerationSoStaleHandlesFail() {
        EntityIndex index = new EntityIndex(10);
        long id = index.allocate();
        index.publish(Entity.slot(id), 0, 0);
        index.free(Entity.slot(id));
        assertFalse(index.isAlive(id));
        long recycled = index.allocate();
        assertEquals(Entity.slot(id), Entity.slot(recycled));
        assertEquals(Entity.generation(id) + 1, Entity.generation(recycled));
        assertEquals(EntityIndex.FREE, index.stateOf(id));
        String message = assertThrows(IllegalArgumentException.class,
                () -> index.requireLiveOrReserved(id, "set")).getMessage();
        assertTrue(message.contains("slot=1") && message.contains("id generation=0")
                && message.contains("current generation=1"), message);
    }

    @Test
    void isAliveIsExactForAnyLong() {
        EntityIndex index = new EntityIndex(10);
        long id = index.allocate();
        index.publish(Entity.slot(id), 0, 0);
        for (long probe : new long[] {0, -1, Long.MIN_VALUE, Long.MAX_VALUE, id + (1L << 32), id + 1, 1L << 31}) {
            assertFalse(index.isAlive(probe), "probe " + probe);
        }
        assertTrue(index.isAlive(id));
    }

    @Test
    void aliveStoreAnswersTheStoreOfALiveIdAndMinusOneForEveryOtherLong() {
        EntityIndex index = new EntityIndex(1 << 20);
        long reserved = index.allocate();
        long id = index.allocate();
        int big = (1 << 31) - 1; // the largest store: every bit of the slot word's store field set
        index.publish(Entity.slot(id), big, 5);
        assertEquals(big, index.aliveStore(id));
        assertEquals(big, index.storeOf(Entity.slot(id)));
        assertEquals(0, index.generationOf(Entity.slot(id)), "the store's bits leave the generation alone");
        assertEquals(EntityIndex.ALIVE, index.stateOf(id));
        index.relocate(Entity.slot(id), 0, 6);
        assertEquals(0, index.aliveStore(id), "a move to store 0 clears the old store's bits");
        assertEquals(-1, index.aliveStore(reserved), "reserved: not alive");
        for (long probe : new long[] {0, -1, Long.MIN_VALUE, Long.MAX_VALUE, id + (1L << 32), id + 1, 1L << 31,
                Entity.pack(Entity.MAX_ENTITIES, 0), 0xFFFF_FFFFL, 0x8000_0002L}) {
            assertEquals(-1, index.aliveStore(probe), "probe " + probe);
        }
        index.free(Entity.slot(id));
        assertEquals(-1, index.aliveStore(id), "freed: stale");
        long again = index.allocate(); // the freed slot, one generation on
        index.publish(Entity.slot(again), 4, 0);
        assertEquals(4, index.aliveStore(again));
        assertEquals(1, Entity.generation(again));
        assertEquals(-1, index.aliveStore(id));
    }

    /**
     * {@code aliveRunEnd} stops at the first id that {@code aliveStore} does not place in the run's store: one in
     * another store, reserved, stale, freed, or no id at all (zero, negative, a slot past the index, a generation
     * the slot never had); from every start, for both stores, the largest store included. {@code isAliveIn} gives
     * {@code aliveStore}'s answer for each id, and false for every negative store.
     */
    @Test
    void aliveRunEndStopsWhereAliveStoreLeavesTheStore() {
        EntityIndex index = new EntityIndex(1 << 20);
        int big = (1 << 31) - 1;
        long[] inBig = new long[6];
        long[] inThree = new long[4];
        for (int i = 0; i < inBig.length; i++) {
            inBig[i] = index.allocate();
            index.publish(Entity.slot(inBig[i]), big, i);
        }
        for (int i = 0; i < inThree.length; i++) {
            inThree[i] = index.allocate();
            index.publish(Entity.slot(inThree[i]), 3, i);
        }
        long reserved = index.allocate();
        long freed = inThree[3];
        index.free(Entity.slot(freed));
        long[] ids = {inBig[0], inBig[1], inBig[2], inThree[0], inThree[1], inBig[3], reserved, inBig[4], freed,
            inThree[2], 0, inBig[5], -1, Long.MIN_VALUE, inBig[0] + (1L << 32), Entity.pack(Entity.MAX_ENTITIES, 0),
            0x8000_0002L, inThree[0], inThree[1]};
        for (int store : new int[] {big, 3}) {
            for (int from = 0; from <= ids.length; from++) {
                int expected = from;
                while (expected < ids.length && index.aliveStore(ids[expected]) == store) {
                    expected++;
                }
                String at = "store " + store + " from " + from;
                assertEquals(expected, index.aliveRunEnd(ids, from, ids.length, store), at);
                int to = Math.min(from + 1, ids.length);
                assertEquals(Math.min(expected, to), index.aliveRunEnd(ids, from, to, store), at + ", one id");
            }
        }
        assertEquals(3, index.aliveRunEnd(ids, 0, ids.length, big));
        assertEquals(5, index.aliveRunEnd(ids, 3, ids.length, 3));
        assertEquals(ids.length, index.aliveRunEnd(ids, ids.length - 2, ids.length, 3));

        // isAliveIn answers what aliveStore does, one id at a time; a negative store is none (-1 shifted into the
        // word's store bits would read as the largest store, whose entities are alive here)
        for (int store : new int[] {big, 3, 0, -1, Integer.MIN_VALUE}) {
            for (long id : ids) {
                assertEquals(store >= 0 && index.aliveStore(id) == store, index.isAliveIn(id, store),
                        "store " + store + ", id " + Long.toHexString(id));
            }
        }
        assertTrue(index.isAliveIn(inBig[0], big));
        assertFalse(index.isAliveIn(inBig[0], -1));
    }

    @Test
    void capacityIsEnforced() {
        EntityIndex index = new EntityIndex(2);
        index.allocate();
        index.allocate();
        String message = assertThrows(IllegalStateException.class, index::allocate).getMessage();
        assertTrue(message.contains("maxEntities=2"), message);
    }

    // issue 18, smaller item: "world is full ... alive or reserved" when every slot is retired
    @Test
    void aWorldFullOfRetiredSlotsSaysTheyAreRetired() {
        EntityIndex index = new EntityIndex(2);
        for (int slot = 1; slot <= 2; slot++) { // each slot at its last generation, then freed: retired for good
            index.reserveAt(Entity.pack(slot, Entity.MAX_GENERATION));
            index.free(slot);
        }
        assertEquals(0, index.aliveCount());
        String single = assertThrows(IllegalStateException.class, index::allocate).getMessage();
        assertEquals("world is full: no slot is left for a new entity (maxEntities=2: 0 alive, 0 reserved by "
                + "staged spawns, 2 retired after their generation ran out and never reused, 0 free)", single);
        String batch = assertThrows(IllegalStateException.class, () -> index.allocateConsecutive(1, 0)).getMessage();
        assertTrue(batch.startsWith("world is full: a batch of 1 does not fit (maxEntities=2: 0 alive, 0 reserved"),
                batch);
        assertTrue(batch.contains("2 retired"), batch);
        String scattered = assertThrows(IllegalStateException.class,
                () -> index.allocateScattered(1, 0, new long[1])).getMessage();
        assertTrue(scattered.contains("2 retired"), scattered);

        EntityIndex mixed = new EntityIndex(3);
        mixed.publish(Entity.slot(mixed.allocate()), 0, 0);
        mixed.allocate();
        mixed.reserveAt(Entity.pack(3, Entity.MAX_GENERATION));
        mixed.free(3);
        String message = assertThrows(IllegalStateException.class, mixed::allocate).getMessage();
        assertTrue(message.contains("(maxEntities=3: 1 alive, 1 reserved by staged spawns, 1 retired"), message);
    }

    // issue 18, smaller item: spawnAt of an older generation than the slot's revives stale handles
    @Test
    void reserveAtOfAnOlderGenerationThanTheFreeSlotsIsRefused() {
        EntityIndex index = new EntityIndex(100);
        long first = index.allocate();
        index.publish(Entity.slot(first), 0, 0);
        index.free(Entity.slot(first)); // the slot is free at generation 1: id `first` (generation 0) is stale
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> index.reserveAt(first, "spawnAt"));
        assertEquals("spawnAt: id " + Entity.toString(first) + " is stale: slot=1 is free at generation 1, and "
                + "generation 0 belonged to an entity that is gone (reviving it would make its old handles valid "
                + "again); pass generation 1 or later", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> index.checkReservable(first, "batchSpawnAt"));
        assertEquals(EntityIndex.FREE, index.stateOf(Entity.pack(1, 1)), "the refusal changed nothing");
        assertFalse(index.isAlive(first));
        assertEquals(1, Entity.slot(index.allocate()), "still on the free stack");

        EntityIndex later = new EntityIndex(100);
        long old = later.allocate();
        later.free(Entity.slot(old));
        later.checkReservable(Entity.pack(1, 1), "op");
        later.reserveAt(Entity.pack(1, 5)); // the current generation or a later one is accepted
        assertEquals(EntityIndex.RESERVED, later.stateOf(Entity.pack(1, 5)));
        assertFalse(later.isAlive(old));
        later.reserveAt(Entity.pack(7, 3)); // past the high-water mark: any generation
        assertEquals(EntityIndex.RESERVED, later.stateOf(Entity.pack(7, 3)));
    }

    @Test
    void reserveAtRevivesFreeSlotWithRequestedGeneration() {
        EntityIndex index = new EntityIndex(100);
        long id = Entity.pack(5, 9);
        index.reserveAt(id);
        assertEquals(EntityIndex.RESERVED, index.stateOf(id));
        // slots 1..4 were skipped and are free; allocation takes them, never slot 5
        Set<Integer> slots = new HashSet<>();
        for (int i = 0; i < 4; i++) {
            slots.add(Entity.slot(index.allocate()));
        }
        assertEquals(Set.of(1, 2, 3, 4), slots);
        assertEquals(6, Entity.slot(index.allocate()));
    }

    @Test
    void reserveAtRejectsSlotInUseAndChangesNothing() {
        EntityIndex index = new EntityIndex(100);
        long live = index.allocate();
        index.publish(Entity.slot(live), 0, 0);
        long sameSlotOtherGeneration = Entity.pack(Entity.slot(live), 4);
        assertThrows(IllegalArgumentException.class, () -> index.reserveAt(live));
        assertThrows(IllegalArgumentException.class, () -> index.reserveAt(sameSlotOtherGeneration));
        assertTrue(index.isAlive(live));
        assertEquals(2, index.highWater());
    }

    @Test
    void reserveAtRejectsMalformedAndOutOfRange() {
        EntityIndex index = new EntityIndex(10);
        assertThrows(IllegalArgumentException.class, () -> index.reserveAt(0));
        assertThrows(IllegalArgumentException.class, () -> index.reserveAt(-5));
        assertThrows(IllegalArgumentException.class, () -> index.reserveAt(Entity.pack(11, 0)));
        assertEquals(1, index.highWater());
    }

    @Test
    void reserveAtOfAFreedSlotRemovesItFromTheFreeStack() {
        EntityIndex index = new EntityIndex(10);
        long a = index.allocate();
        long b = index.allocate();
        index.free(Entity.slot(a));
        index.free(Entity.slot(b));
        index.reserveAt(Entity.pack(Entity.slot(a), 7));
        long next = index.allocate();
        assertEquals(Entity.slot(b), Entity.slot(next));
        assertEquals(3, Entity.slot(index.allocate()));
    }

    @Test
    void exhaustedGenerationRetiresTheSlot() {
        EntityIndex index = new EntityIndex(10);
        long old = Entity.pack(1, Entity.MAX_GENERATION);
        index.reserveAt(old);
        index.free(1);
        assertEquals(EntityIndex.RETIRED, index.stateOf(old));
        assertEquals(2, Entity.slot(index.allocate()));
        assertThrows(IllegalArgumentException.class, () -> index.reserveAt(Entity.pack(1, 0)));
    }

    /** An index with alive entities at slots 1..8, slot 5 at its last generation, each published in store 3. */
    private static long[] eightAlive(EntityIndex index) {
        long[] ids = new long[8];
        for (int k = 0; k < ids.length; k++) {
            ids[k] = Entity.pack(k + 1, k == 4 ? Entity.MAX_GENERATION : k);
            index.reserveAt(ids[k]);
            index.publish(k + 1, 3, k);
        }
        return ids;
    }

    @Test
    void freeingInOrderEndsAsFreeingOneAtATime() {
        EntityIndex one = new EntityIndex(100);
        EntityIndex all = new EntityIndex(100);
        long[] ids = eightAlive(one);
        eightAlive(all);
        long[] order = {ids[6], ids[1], ids[4], ids[0], ids[7]};
        for (long id : order) {
            one.free(Entity.slot(id));
        }
        all.freeInOrder(order, order.length);
        assertEquals(one.aliveCount(), all.aliveCount());
        assertEquals(3, all.aliveCount());
        for (long id : ids) {
            assertEquals(one.stateOf(id), all.stateOf(id));
            assertEquals(one.generationOf(Entity.slot(id)), all.generationOf(Entity.slot(id)));
            assertEquals(one.storeOf(Entity.slot(id)), all.storeOf(Entity.slot(id)));
        }
        assertEquals(EntityIndex.RETIRED, all.stateOf(ids[4]), "the last generation retires the slot");
        for (int k = 0; k < 6; k++) { // the same free stack: ids[7]'s slot on top, then ids[0]'s, ...
            assertEquals(one.allocate(), all.allocate());
        }
    }

    @Test
    void freeingInReverseOrderEndsAsFreeingOneAtATimeFromTheLast() {
        EntityIndex one = new EntityIndex(100);
        EntityIndex all = new EntityIndex(100);
        long[] ids = eightAlive(one);
        eightAlive(all);
        long[] order = {ids[6], ids[1], ids[4], ids[0], ids[7]};
        for (int i = order.length - 1; i >= 0; i--) {
            one.free(Entity.slot(order[i]));
        }
        all.freeInReverseOrder(order, order.length);
        assertEquals(one.aliveCount(), all.aliveCount());
        for (long id : ids) {
            assertEquals(one.stateOf(id), all.stateOf(id));
            assertEquals(one.generationOf(Entity.slot(id)), all.generationOf(Entity.slot(id)));
        }
        for (int k = 0; k < 6; k++) { // the same free stack: ids[6]'s slot on top, then ids[1]'s, ...
            assertEquals(one.allocate(), all.allocate());
        }
    }

    /**
     * {@code freeInReverseOrderIfAliveIn} of ids all alive in the store it is given ends as the unchecked free in
     * reverse order: states, generations (the last one retires its slot), stores, the count and the free stack. Each
     * freed slot keeps the row it had, which a subtree's despawn reads after the free (its rows leave after its slots
     * are freed).
     */
    @Test
    void aCheckedFreeOfIdsAllAliveInTheStoreEndsAsTheUncheckedFree() {
        EntityIndex checked = new EntityIndex(100);
        EntityIndex unchecked = new EntityIndex(100);
        long[] ids = eightAlive(checked);
        eightAlive(unchecked);
        long[] order = {ids[6], ids[1], ids[4], ids[0], ids[7]};
        assertTrue(checked.freeInReverseOrderIfAliveIn(order, order.length, 3));
        unchecked.freeInReverseOrder(order, order.length);
        assertEquals(state(unchecked), state(checked));
        assertEquals(EntityIndex.RETIRED, checked.stateOf(ids[4]), "the last generation retires the slot");
        for (int k : new int[] {6, 1, 0, 7}) {
            assertEquals(k, checked.rowOf(Entity.slot(ids[k])), "a freed slot keeps its row until it is taken");
        }
        for (int k = 0; k < 6; k++) {
            assertEquals(unchecked.allocate(), checked.allocate());
        }
    }

    /**
     * An id that is not alive in the store stops {@code freeInReverseOrderIfAliveIn} where the pass meets it (the
     * pass goes from the last id down, so the ids after it were freed already), and the index is put back as it was:
     * for an id of another store, a stale one, a free slot, one past the slots in use, a malformed one, 0, an id met
     * twice, and a negative store. A failed growth of the free stack changes nothing either.
     */
    @Test
    void aCheckedFreeThatMeetsAnIdNotAliveInTheStorePutsBackWhatItFreed() {
        long[] ids = eightAlive(new EntityIndex(100));
        long other = Entity.pack(9, 0); // published in store 4 (strayFixture)
        long[] strays = {other, ids[2], Entity.pack(3, 3), Entity.pack(50, 0), -ids[1], 0, ids[6]};
        for (long stray : strays) {
            EntityIndex index = strayFixture();
            long[] order = {ids[5], stray, ids[6], ids[1], ids[4], ids[0], ids[7]}; // freed from ids[7] to ids[6]
            assertFalse(index.freeInReverseOrderIfAliveIn(order, order.length, 3), "stray " + stray);
            EntityIndex before = strayFixture();
            assertEquals(state(before), state(index), "stray " + stray);
            for (int k = 0; k < 4; k++) {
                assertEquals(before.allocate(), index.allocate(), "stray " + stray);
            }
        }
        EntityIndex index = strayFixture();
        assertFalse(index.freeInReverseOrderIfAliveIn(new long[] {ids[0]}, 1, -1), "a negative store is none");
        assertTrue(index.isAlive(ids[0]));

        EntityIndex big = new EntityIndex(10_000);
        long[] many = new long[3000];
        for (int k = 0; k < many.length; k++) {
            many[k] = big.allocate();
            big.publish(Entity.slot(many[k]), 0, k);
        }
        String grown = state(big);
        AllocationFaults.failAt(AllocationFaults.Kind.HEAP, 1);
        try {
            assertThrows(OutOfMemoryError.class, () -> big.freeInReverseOrderIfAliveIn(many, many.length, 0));
        } finally {
            AllocationFaults.disarm();
        }
        assertEquals(grown, state(big), "a free stack that cannot grow: nothing changed");
        assertTrue(big.freeInReverseOrderIfAliveIn(many, many.length, 0));
        assertEquals(0, big.aliveCount());
        assertEquals(Entity.slot(many[0]), Entity.slot(big.allocate()), "the first one freed last: on top");
    }

    /**
     * {@link #eightAlive} (store 3), then slot 9 published in store 4 and slot 3 freed (its id, generation 2, stale;
     * generation 3 the free slot's next).
     */
    private static EntityIndex strayFixture() {
        EntityIndex index = new EntityIndex(100);
        eightAlive(index);
        index.publish(Entity.slot(index.allocate()), 4, 0);
        index.free(3);
        return index;
    }

    /**
     * A slot out of range part way through (a caller's bug) stops the pass there: the slots freed before it are
     * free, counted and on the stack, in the order they would have been, and the rest stay alive.
     */
    @Test
    void freeingInOrderThatMeetsASlotOutOfRangeKeepsTheSlotsFreedBeforeIt() {
        EntityIndex index = new EntityIndex(100);
        long[] ids = eightAlive(index);
        long[] order = {ids[2], ids[5], Entity.pack(100_000, 0), ids[3]};
        int[] stackBefore = index.freeStack();
        assertThrows(ArrayIndexOutOfBoundsException.class, () -> index.freeInReverseOrder(order, order.length));
        assertEquals(7, index.aliveCount(), "ids[3] was freed before the bad slot");
        assertFalse(index.isAlive(ids[3]));
        assertTrue(index.isAlive(ids[2]) && index.isAlive(ids[5]), "the ids after the bad slot stay alive");
        int[] stack = index.freeStack();
        assertEquals(stackBefore.length + 1, stack.length, "one slot pushed");
        assertEquals(Entity.slot(ids[3]), stack[stack.length - 1], "ids[3]'s, on top");
        assertEquals(Entity.slot(ids[3]), Entity.slot(index.allocate()), "so the next allocation takes it");
    }

    @Test
    void freeingInOrderWhoseStackCannotGrowChangesNothing() {
        EntityIndex index = new EntityIndex(10_000);
        long[] ids = new long[3000];
        for (int k = 0; k < ids.length; k++) {
            ids[k] = index.allocate();
            index.publish(Entity.slot(ids[k]), 0, k);
        }
        AllocationFaults.failAt(AllocationFaults.Kind.HEAP, 1);
        try {
            assertThrows(OutOfMemoryError.class, () -> index.freeInOrder(ids, ids.length));
        } finally {
            AllocationFaults.disarm();
        }
        assertEquals(3000, index.aliveCount());
        for (long id : ids) {
            assertTrue(index.isAlive(id));
        }
        index.freeInOrder(ids, ids.length);
        assertEquals(0, index.aliveCount());
        assertEquals(Entity.slot(ids[ids.length - 1]), Entity.slot(index.allocate()), "the last freed comes first");
    }

    @Test
    void rejectsBadCapacity() {
        assertThrows(IllegalArgumentException.class, () -> new EntityIndex(0));
        assertThrows(IllegalArgumentException.class, () -> new EntityIndex(Entity.MAX_ENTITIES + 1));
    }

    @Test
    void allocateBatchOfFreshSlotsIsConsecutiveAndStamped() {
        EntityIndex index = new EntityIndex(100);
        index.allocate();
        long first = index.allocateBatch(10, 4, null);
        assertEquals(Entity.pack(2, 0), first);
        for (int i = 0; i < 10; i++) {
            assertEquals(EntityIndex.RESERVED, index.stateOf(first + i));
            assertEquals(4, index.batchArchetype(Entity.slot(first + i)));
        }
        assertEquals(-1, index.batchArchetype(1), "a single spawn's slot carries no batch stamp");
        index.publishRange(Entity.slot(first), 10, 6, 20);
        assertTrue(index.isAlive(first + 9));
        assertEquals(6, index.storeOf(Entity.slot(first + 9)));
        assertEquals(29, index.rowOf(Entity.slot(first + 9)));
        assertEquals(-1, index.batchArchetype(Entity.slot(first)), "published slots are no longer stamped");
        assertEquals(10, index.aliveCount());
    }

    @Test
    void allocateBatchWithRecycledSlotsReportsWhetherIdsLineUp() {
        EntityIndex index = new EntityIndex(100);
        long a = index.allocate();
        long b = index.allocate();
        index.free(Entity.slot(b));
        index.free(Entity.slot(a));
        long[] out = new long[3];
        long first = index.allocateBatch(3, 1, out);
        assertEquals(0, first, "generation 1 slots then a fresh generation 0 slot");
        assertEquals(Entity.pack(1, 1), out[0]);
        assertEquals(Entity.pack(2, 1), out[1]);
        assertEquals(Entity.pack(3, 0), out[2]);
        EntityIndex lined = new EntityIndex(100);
        long x = lined.allocate();
        lined.free(Entity.slot(x));
        assertEquals(Entity.pack(1, 1), lined.allocateConsecutive(1, 0), "a single recycled slot lines up");
        assertThrows(IllegalArgumentException.class, () -> index.allocateBatch(2, 0, new long[1]));
    }

    @Test
    void aClearThatCannotMakeRoomChangesNothingAndAReservedOneAllocatesNothing() {
        EntityIndex index = new EntityIndex(10_000);
        long[] ids = new long[3000]; // more slots than the free stack starts with: a clear must grow it
        for (int i = 0; i < ids.length; i++) {
            ids[i] = index.allocate();
            index.publish(Entity.slot(ids[i]), 0, i);
        }
        AllocationFaults.failAt(AllocationFaults.Kind.HEAP, 1);
        try {
            assertThrows(OutOfMemoryError.class, index::clear);
        } finally {
            AllocationFaults.disarm();
        }
        assertEquals(ids.length, index.aliveCount());
        for (long id : ids) {
            assertTrue(index.isAlive(id), Entity.toString(id));
        }
        index.reserveForClear();
        AllocationFaults.failAt(AllocationFaults.Kind.HEAP, 1); // armed: a growth now would throw
        try {
            index.clear();
            assertTrue(AllocationFaults.armed(AllocationFaults.Kind.HEAP), "the reserved clear grew nothing");
        } finally {
            AllocationFaults.disarm();
        }
        assertEquals(0, index.aliveCount());
        assertEquals(Entity.pack(1, 1), index.allocate(), "ascending slots again, one generation on");
    }

    @Test
    void afterAClearTheRecycledPrefixIsTakenAtOnce() {
        EntityIndex index = new EntityIndex(100);
        index.allocateBatch(10, 0, null);
        index.clear();
        assertEquals(0, index.allocateConsecutive(11, 0), "slot 11 would be fresh, generation 0");
        assertEquals(10, index.available() - 90, "and nothing was reserved");
        assertEquals(Entity.pack(1, 1), index.allocateConsecutive(4, 2));
        assertEquals(EntityIndex.RESERVED, index.stateOf(Entity.pack(4, 1)));
        assertEquals(2, index.batchArchetype(4));
        assertEquals(Entity.pack(5, 1), index.allocate(), "the rest of the run stays on the stack in order");
        long[] out = new long[7];
        assertEquals(0, index.allocateBatch(7, 0, out), "generation 1 then fresh generation 0");
        assertEquals(Entity.pack(11, 0), out[5]);
    }

    @Test
    void allocateBatchRefusesWhatDoesNotFitAndReservesNothing() {
        EntityIndex index = new EntityIndex(5);
        index.allocate();
        assertEquals(4, index.available());
        assertThrows(IllegalStateException.class, () -> index.allocateBatch(5, 0, new long[5]));
        assertEquals(4, index.available());
        assertEquals(Entity.pack(2, 0), index.allocateBatch(4, 0, null));
        assertEquals(0, index.available());
        assertFalse(index.hasFreeSlots());
    }

    @Test
    void checkReservableExplainsWithoutChangingAnything() {
        EntityIndex index = new EntityIndex(10);
        long live = index.allocate();
        assertThrows(IllegalArgumentException.class, () -> index.checkReservable(live, "op"));
        assertThrows(IllegalArgumentException.class, () -> index.checkReservable(0, "op"));
        assertThrows(IllegalArgumentException.class, () -> index.checkReservable(Entity.pack(11, 0), "op"));
        index.checkReservable(Entity.pack(7, 3), "op");
        assertEquals(2, index.highWater(), "checking reserves nothing");
        index.reserveAt(Entity.pack(7, 3));
        index.stampBatch(7, 2);
        assertEquals(2, index.batchArchetype(7));
    }

    @Test
    void clearFreesEverySlotAndHandsThemOutAscending() {
        EntityIndex index = new EntityIndex(10);
        long a = index.allocate();
        long b = index.allocate();
        long c = index.allocate();
        index.publish(Entity.slot(a), 0, 0);
        index.publish(Entity.slot(b), 0, 1);
        index.free(Entity.slot(b));
        index.clear();
        assertEquals(0, index.aliveCount());
        assertFalse(index.isAlive(a));
        assertEquals(EntityIndex.FREE, index.stateOf(c));
        assertEquals(Entity.pack(1, 1), index.allocate());
        assertEquals(Entity.pack(2, 1), index.allocate(), "b was already free: the clear did not age it again");
        assertEquals(Entity.pack(3, 1), index.allocate());
        assertEquals(Entity.pack(4, 0), index.allocate());
    }

    // ---------------------------------------------------------------- heap exhaustion (issue 18)

    /** Every slot's state, generation, store and row, and the free stack: what a failed growth must not change. */
    private static String state(EntityIndex index) {
        StringBuilder sb = new StringBuilder("highWater=" + index.highWater() + " alive=" + index.aliveCount()
                + " free=" + java.util.Arrays.toString(index.freeStack()) + "\n");
        for (int slot = 1; slot < index.highWater(); slot++) {
            sb.append(slot).append(':').append(index.slotState(slot)).append('/').append(index.generationOf(slot));
            if (index.slotState(slot) == EntityIndex.ALIVE) {
                sb.append('@').append(index.storeOf(slot)).append(',').append(index.rowOf(slot));
            }
            sb.append(' ');
        }
        return sb.toString();
    }

    /**
     * A slot's second word is its row while alive and its free-stack position while free (written late after a free
     * of many at once): frees one at a time and many at once, allocations, reservations of free slots from anywhere in
     * the stack, relocations and clears in a seeded random order, each checked against a plain model (rows of the
     * living, the free stack as a list, generations). Replay a failure with its printed seed.
     */
    @Test
    void rowsAndFreeStackPositionsShareTheSlotWordThroughRandomLifecycles() {
        long seed = Long.getLong("jtecs.indexSeed", System.nanoTime());
        System.out.println("EntityIndexTest rows/free-stack seed: " + seed + " (-Djtecs.indexSeed=" + seed + ")");
        Random random = new Random(seed);
        EntityIndex index = new EntityIndex(3000);
        Map<Integer, Integer> rows = new HashMap<>(); // alive slot -> row
        Map<Integer, Long> ids = new HashMap<>();
        Map<Integer, Integer> stores = new HashMap<>(); // alive slot -> store
        List<Integer> free = new ArrayList<>(); // the model's free stack, bottom first
        int[] generation = new int[3001];
        for (int step = 0; step < 20_000; step++) {
            int op = random.nextInt(11);
            String at = "seed " + seed + " step " + step + " op " + op;
            if (op < 4 && index.available() > 0) { // allocate (LIFO from the stack) and publish
                long id = index.allocate();
                int slot = Entity.slot(id);
                if (!free.isEmpty()) {
                    assertEquals(free.remove(free.size() - 1), slot, at);
                }
                assertEquals(generation[slot], Entity.generation(id), at);
                int row = random.nextInt(1 << 20);
                index.publish(slot, 1, row);
                rows.put(slot, row);
                ids.put(slot, id);
                stores.put(slot, 1);
            } else if (op < 7 && !rows.isEmpty()) { // free a living slot
                int slot = new ArrayList<>(rows.keySet()).get(random.nextInt(rows.size()));
                index.free(slot);
                rows.remove(slot);
                ids.remove(slot);
                stores.remove(slot);
                generation[slot]++;
                free.add(slot);
            } else if (op == 7 && !free.isEmpty()) { // reserve a free slot from anywhere in the stack
                int k = random.nextInt(free.size());
                int slot = free.get(k);
                index.reserveAt(Entity.pack(slot, generation[slot]));
                free.set(k, free.get(free.size() - 1)); // the top takes its place, as the index swaps
                free.remove(free.size() - 1);
                int row = random.nextInt(1 << 20);
                index.publish(slot, 2, row);
                rows.put(slot, row);
                stores.put(slot, 2);
                ids.put(slot, Entity.pack(slot, generation[slot]));
            } else if (op == 8 && !rows.isEmpty()) { // relocate a living slot
                int slot = new ArrayList<>(rows.keySet()).get(random.nextInt(rows.size()));
                int row = random.nextInt(1 << 20);
                index.relocate(slot, 3, row);
                rows.put(slot, row);
                stores.put(slot, 3);
            } else if (op == 9 && random.nextInt(200) == 0) { // clear: every slot free, ascending on the stack
                index.clear();
                for (int slot : rows.keySet()) {
                    generation[slot]++;
                }
                rows.clear();
                ids.clear();
                stores.clear();
                free.clear();
                for (int slot = index.highWater() - 1; slot >= 1; slot--) {
                    free.add(slot);
                }
            } else if (op == 10 && !rows.isEmpty()) { // free living slots at once, which writes no stack positions
                List<Integer> living = new ArrayList<>(rows.keySet());
                java.util.Collections.shuffle(living, random);
                int n = 1 + random.nextInt(Math.min(living.size(), 40));
                long[] gone = new long[n];
                for (int i = 0; i < n; i++) {
                    gone[i] = ids.get(living.get(i));
                }
                int mode = random.nextInt(3); // in order, in reverse, in reverse if all alive in one store
                boolean reverse = mode != 0;
                if (mode == 2) {
                    int store = stores.get(Entity.slot(gone[0]));
                    if (random.nextInt(4) == 0) { // a stray: the first id again, or a stale one
                        gone[random.nextInt(n)] = random.nextBoolean() ? gone[0] : gone[0] + (1L << 32) * 7;
                    }
                    boolean allIn = true;
                    Set<Long> seen = new HashSet<>();
                    for (long id : gone) {
                        allIn &= seen.add(id) && Long.valueOf(id).equals(ids.get(Entity.slot(id)))
                                && stores.get(Entity.slot(id)) == store;
                    }
                    assertEquals(allIn, index.freeInReverseOrderIfAliveIn(gone, n, store), at);
                    if (!allIn) {
                        n = 0; // nothing freed
                    }
                } else if (reverse) {
                    index.freeInReverseOrder(gone, n);
                } else {
                    index.freeInOrder(gone, n);
                }
                for (int i = 0; i < n; i++) {
                    int slot = Entity.slot(gone[reverse ? n - 1 - i : i]);
                    rows.remove(slot);
                    ids.remove(slot);
                    stores.remove(slot);
                    generation[slot]++;
                    free.add(slot);
                }
            }
            assertEquals(free, toList(index.freeStack()), at);
            for (Map.Entry<Integer, Integer> e : rows.entrySet()) {
                assertTrue(index.isAlive(ids.get(e.getKey())), at);
                assertEquals(stores.get(e.getKey()), index.storeOf(e.getKey()), at);
                assertEquals(e.getValue(), index.rowOf(e.getKey()), at + " slot " + e.getKey());
            }
            assertEquals(rows.size(), index.aliveCount(), at);
        }
    }

    private static List<Integer> toList(int[] values) {
        List<Integer> list = new ArrayList<>();
        for (int v : values) {
            list.add(v);
        }
        return list;
    }

    @Test
    void heapOomWhileTheIndexGrowsLeavesItsArraysInStep() { // issue 18, defect 7
        // the two slot arrays grow one after the other, three times in the loop below (past 1,024, 2,048 and 4,096
        // entities; the 1,024 ids made first fill the first capacity): fail each of the six growths
        for (int k = 1; k <= 6; k++) {
            EntityIndex index = new EntityIndex(1 << 20);
            long[] ids = new long[1024];
            for (int i = 0; i < ids.length; i++) {
                ids[i] = index.allocate();
                index.publish(Entity.slot(ids[i]), 1, i);
            }
            AllocationFaults.failAt(AllocationFaults.Kind.HEAP, k);
            try {
                assertThrows(OutOfMemoryError.class, () -> {
                    for (int i = 0; i < 4096; i++) {
                        index.publish(Entity.slot(index.allocate()), 2, i);
                    }
                }, "fault " + k);
            } finally {
                AllocationFaults.disarm();
            }
            long fresh = index.allocate(); // the world goes on: the next spawn works and every old id reads as before
            index.publish(Entity.slot(fresh), 3, 0);
            assertTrue(index.isAlive(fresh));
            for (int i = 0; i < ids.length; i++) {
                assertTrue(index.isAlive(ids[i]));
                assertEquals(i, index.rowOf(Entity.slot(ids[i])));
            }
            index.free(Entity.slot(fresh));
            assertFalse(index.isAlive(fresh));
        }
    }

    @Test
    void heapOomWhileTheFreeStackGrowsLosesNoSlot() { // issue 18, defect 7 (the free stack)
        EntityIndex index = new EntityIndex(1 << 20);
        long[] ids = new long[3000];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = index.allocate();
            index.publish(Entity.slot(ids[i]), 1, i);
        }
        String before = null;
        int freed = 0;
        AllocationFaults.failAt(AllocationFaults.Kind.HEAP, 1);
        try {
            for (; freed < ids.length; freed++) {
                before = state(index);
                index.free(Entity.slot(ids[freed]));
            }
        } catch (OutOfMemoryError expected) {
            assertEquals(before, state(index), "the failed free changed nothing");
        } finally {
            AllocationFaults.disarm();
        }
        assertTrue(freed < ids.length, "the free stack grew at least once");
        index.free(Entity.slot(ids[freed])); // the retry frees it
        for (int i = freed + 1; i < ids.length; i++) {
            index.free(Entity.slot(ids[i]));
        }
        assertEquals(0, index.aliveCount());
        assertEquals(ids.length, index.freeCount(), "every slot is on the free stack once");
        Set<Integer> slots = new HashSet<>();
        for (int slot : index.freeStack()) {
            assertTrue(slots.add(slot));
        }
        for (int i = 0; i < ids.length; i++) { // and each comes back, once
            assertTrue(slots.remove(Entity.slot(index.allocate())));
        }
        assertTrue(slots.isEmpty());
    }

    @Test
    void heapOomWhileAScatteredBatchReservesLeavesNothingReserved() { // issue 18, defect 7 (batches)
        EntityIndex index = new EntityIndex(1 << 20);
        long[] ids = new long[600];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = index.allocate();
            index.publish(Entity.slot(ids[i]), 1, i);
        }
        for (int i = 0; i < ids.length; i += 2) {
            index.free(Entity.slot(ids[i])); // 300 recycled slots, not one run
        }
        String before = state(index);
        long[] out = new long[2000];
        AllocationFaults.failAt(AllocationFaults.Kind.HEAP, 1);
        try {
            assertThrows(OutOfMemoryError.class, () -> index.allocateBatch(2000, 5, out));
        } finally {
            AllocationFaults.disarm();
        }
        assertEquals(before, state(index));
        assertEquals(0, index.allocateBatch(2000, 5, out), "the retry reserves them, scattered");
        assertEquals(601 + 1700, index.highWater(), "300 recycled slots and 1,700 fresh ones");
        Set<Long> distinct = new HashSet<>();
        for (long id : out) {
            assertEquals(EntityIndex.RESERVED, index.stateOf(id));
            assertTrue(distinct.add(id));
        }
    }

    // ---------------------------------------------------------------- restoration (snapshot loads)

    /** An index with alive, reserved, free and retired slots, like a world a snapshot is loaded into. */
    private static EntityIndex populated() {
        EntityIndex index = new EntityIndex(100);
        for (int i = 0; i < 30; i++) {
            long id = index.allocate();
            if (i % 7 != 3) {
                index.publish(Entity.slot(id), 1, i);
            }
        }
        index.free(5);
        index.free(11);
        return index;
    }

    /** Everything a slot says, over every slot that either index ever used. */
    private static String dump(EntityIndex index) {
        StringBuilder sb = new StringBuilder();
        sb.append("highWater=").append(index.highWater()).append(" alive=").append(index.aliveCount())
                .append(" free=").append(java.util.Arrays.toString(index.freeStack())).append('\n');
        for (int slot = 1; slot < 60; slot++) {
            sb.append(slot).append(':').append(index.slotState(slot)).append('/').append(index.generationOf(slot))
                    .append('/').append(index.batchArchetype(slot));
            if (index.slotState(slot) == EntityIndex.ALIVE) {
                sb.append('@').append(index.storeOf(slot)).append(',').append(index.rowOf(slot));
            }
            sb.append(' ');
        }
        return sb.toString();
    }

    private static final int[] FREE_SLOTS = {40, 2, 17};
    private static final int[] FREE_GENERATIONS = {3, 0, 8};
    private static final int[] RESTORED = {1, 4, 9, 10, 11, 12, 30, 35, 41};
    private static final int[] RESTORED_GENERATIONS = {0, 2, 0, 1, 5, 0, 0, 4, 9};
    private static final int[] ROW_ORDER = {6, 0, 8, 3, 1, 7, 2, 5, 4}; // row i holds RESTORED[ROW_ORDER[i]]

    /** What a load did before the slot-order paths: clear, lay out, reserve and publish id by id in row order. */
    private static EntityIndex restoredIdById() {
        EntityIndex index = populated();
        index.clear();
        index.prepareRestore(45, FREE_SLOTS, FREE_GENERATIONS, RESTORED);
        for (int k : ROW_ORDER) {
            index.reserveAt(Entity.pack(RESTORED[k], RESTORED_GENERATIONS[k]));
            index.stampBatch(RESTORED[k], 6);
        }
        return index;
    }

    /**
     * The layout itself, not only its agreement with the step-by-step one: below the restored high-water mark, a slot
     * the snapshot names neither free nor restored is retired (its last generation used, never handed out again); a
     * free slot keeps its saved generation, off nothing but the stack; a restored one is free (until reserved) with
     * generation 0; from the mark on, slots are fresh. Laid over a populated index, whose old states must not show.
     */
    @Test
    void theRestoreLayoutRetiresTheSlotsItDoesNotNameAndFreesThoseAboveItsMark() {
        EntityIndex index = populated();
        index.prepareRestore(45, FREE_SLOTS, FREE_GENERATIONS, RESTORED);
        java.util.Set<Integer> free = new java.util.HashSet<>();
        for (int slot : FREE_SLOTS) {
            free.add(slot);
        }
        java.util.Set<Integer> restored = new java.util.HashSet<>();
        for (int slot : RESTORED) {
            restored.add(slot);
        }
        for (int slot = 1; slot < 60; slot++) {
            String at = "slot " + slot;
            if (free.contains(slot)) {
                assertEquals(EntityIndex.FREE, index.slotState(slot), at);
                int k = java.util.Arrays.asList(40, 2, 17).indexOf(slot);
                assertEquals(FREE_GENERATIONS[k], index.generationOf(slot), at);
            } else if (restored.contains(slot) || slot >= 45) {
                assertEquals(EntityIndex.FREE, index.slotState(slot), at);
                assertEquals(0, index.generationOf(slot), at);
            } else {
                assertEquals(EntityIndex.RETIRED, index.slotState(slot), at);
                assertEquals(Entity.MAX_GENERATION, index.generationOf(slot), at);
            }
        }
        assertEquals(FREE_SLOTS.length + RESTORED.length, index.freeCount(), "the saved free slots and the restored");
    }

    @Test
    void restoringInSlotOrderLeavesWhatReservingAndPublishingIdByIdLeaves() {
        EntityIndex expected = restoredIdById();
        EntityIndex index = populated(); // not cleared: the layout pass overwrites every slot
        index.prepareRestore(45, FREE_SLOTS, FREE_GENERATIONS, RESTORED);
        assertTrue(index.reserveRestored(RESTORED, RESTORED_GENERATIONS, 6));
        assertEquals(dump(expected), dump(index));

        int[] rows = new int[RESTORED.length];
        for (int i = 0; i < ROW_ORDER.length; i++) {
            rows[ROW_ORDER[i]] = i;
            expected.publish(RESTORED[ROW_ORDER[i]], 2, 10 + i);
        }
        index.publishSlots(RESTORED, rows, 0, RESTORED.length, 2, 10);
        assertEquals(dump(expected), dump(index));
        assertEquals(RESTORED.length, index.aliveCount());
        assertEquals(FREE_SLOTS[2], Entity.slot(index.allocate()), "the saved free stack pops top first");
    }

    @Test
    void publishingARangeOfLongerArraysPublishesThoseSlotsOnly() {
        EntityIndex expected = restoredIdById();
        EntityIndex index = restoredIdById();
        // the slots sit at [3, 3 + n) of arrays with unrelated entries around them, as a reused load buffer holds
        int n = RESTORED.length;
        int[] slots = new int[n + 5];
        int[] rows = new int[n + 5];
        java.util.Arrays.fill(slots, 44);
        java.util.Arrays.fill(rows, 999);
        System.arraycopy(RESTORED, 0, slots, 3, n);
        for (int i = 0; i < ROW_ORDER.length; i++) {
            rows[3 + ROW_ORDER[i]] = i;
            if (ROW_ORDER[i] < 4) {
                expected.publish(RESTORED[ROW_ORDER[i]], 2, 10 + i);
            }
        }
        index.publishSlots(slots, rows, 3, 3 + 4, 2, 10); // the first four slots only
        assertEquals(dump(expected), dump(index));
        assertEquals(4, index.aliveCount());
        assertThrows(IllegalArgumentException.class, () -> index.publishSlots(slots, rows, 4, 3, 2, 10));
        assertThrows(IllegalArgumentException.class, () -> index.publishSlots(slots, new int[2], 0, 3, 2, 10));
        assertThrows(IllegalArgumentException.class, () -> index.publishSlots(slots, rows, -1, 3, 2, 10));
        assertEquals(dump(expected), dump(index));
    }

    @Test
    void stampingInSlotOrderLeavesWhatStampingIdByIdLeaves() {
        EntityIndex expected = restoredIdById();
        EntityIndex index = populated();
        index.prepareRestore(45, FREE_SLOTS, FREE_GENERATIONS, RESTORED);
        assertTrue(index.reserveRestored(RESTORED, RESTORED_GENERATIONS, -1));
        index.stampSlots(RESTORED, 0, RESTORED.length, 6);
        assertEquals(dump(expected), dump(index));
        index.stampSlots(RESTORED, 2, 4, 9); // a range stamps those slots only
        for (int k = 0; k < RESTORED.length; k++) {
            assertEquals(k >= 2 && k < 4 ? 9 : 6, index.batchArchetype(RESTORED[k]), "slot " + RESTORED[k]);
        }
    }

    @Test
    void layingOutAndReservingInOnePassLeavesWhatTheTwoStepsLeave() {
        for (int archetype : new int[] {-1, 6}) {
            EntityIndex expected = populated();
            expected.prepareRestore(45, FREE_SLOTS, FREE_GENERATIONS, RESTORED);
            assertTrue(expected.reserveRestored(RESTORED, RESTORED_GENERATIONS, archetype));
            EntityIndex index = populated();
            index.prepareRestoreReserved(45, FREE_SLOTS, FREE_GENERATIONS, RESTORED, RESTORED_GENERATIONS,
                    RESTORED.length, archetype);
            assertEquals(dump(expected), dump(index));
            assertEquals(0, index.aliveCount());
            assertEquals(FREE_SLOTS[2], Entity.slot(index.allocate()), "only the saved free slots are on the stack");
        }
        EntityIndex shrunk = populated(); // a smaller highWater than the populated index has: the rest is fresh
        EntityIndex expected = populated();
        expected.prepareRestore(12, new int[0], new int[0], new int[] {1, 4, 9});
        assertTrue(expected.reserveRestored(new int[] {1, 4, 9}, new int[] {0, 2, 0}, -1));
        shrunk.prepareRestoreReserved(12, new int[0], new int[0], new int[] {1, 4, 9}, new int[] {0, 2, 0}, 3, -1);
        assertEquals(dump(expected), dump(shrunk));
        EntityIndex prefix = populated(); // only the first three of longer arrays count: the rest is not read
        prefix.prepareRestoreReserved(12, new int[0], new int[0], new int[] {1, 4, 9, 2, 0}, new int[] {0, 2, 0, -5},
                3, -1);
        assertEquals(dump(expected), dump(prefix));
    }

    @Test
    void aOnePassLayoutRefusesBadSlotsAndGenerationsBeforeAnythingChanges() {
        EntityIndex index = populated();
        String before = dump(index);
        assertThrows(IllegalArgumentException.class, () -> index.prepareRestoreReserved(45, new int[0], new int[0],
                new int[] {3, 2}, new int[] {0, 0}, 2, -1));
        assertThrows(IllegalArgumentException.class, () -> index.prepareRestoreReserved(45, new int[0], new int[0],
                new int[] {2, 3}, new int[] {0, -1}, 2, -1));
        assertThrows(IllegalArgumentException.class, () -> index.prepareRestoreReserved(45, new int[0], new int[0],
                new int[] {2, 3}, new int[] {0}, 2, -1));
        assertThrows(IllegalArgumentException.class, () -> index.prepareRestoreReserved(45, new int[0], new int[0],
                new int[] {2, 3}, new int[] {0, 0}, 3, -1));
        assertThrows(IllegalArgumentException.class, () -> index.prepareRestoreReserved(45, new int[0], new int[0],
                new int[] {2, 3}, new int[] {0, 0}, -1, -1));
        assertEquals(before, dump(index));
    }

    @Test
    void aFreeStackChangedSinceTheLayoutIsReservedIdByIdInstead() {
        EntityIndex index = populated();
        index.prepareRestore(45, FREE_SLOTS, FREE_GENERATIONS, RESTORED);
        String laidOut = dump(index);
        long taken = index.allocate(); // a callback spawned: it takes the top of the stack, a restored slot
        assertEquals(RESTORED[RESTORED.length - 1], Entity.slot(taken));
        assertFalse(index.reserveRestored(RESTORED, RESTORED_GENERATIONS, 6));
        index.free(Entity.slot(taken)); // cancelled: the slot goes back where it was, one generation on
        assertEquals(laidOut.replace("41:0/0/-1", "41:0/1/-1"), dump(index));
        int[] stale = RESTORED_GENERATIONS.clone();
        stale[RESTORED.length - 1] = 0; // older than the slot now is
        assertFalse(index.reserveRestored(RESTORED, stale, 6));
        assertEquals(laidOut.replace("41:0/0/-1", "41:0/1/-1"), dump(index), "a refusal reserves nothing");
        assertThrows(IllegalArgumentException.class, () -> index.reserveAt(Entity.pack(41, 0)),
                "what the id-by-id path then says");
        assertTrue(index.reserveRestored(RESTORED, RESTORED_GENERATIONS, 6), "generation 9 is not stale");
    }

    @Test
    void aLayoutOfUnorderedSlotsIsRefusedBeforeAnythingChanges() {
        EntityIndex index = populated();
        String before = dump(index);
        assertThrows(IllegalArgumentException.class,
                () -> index.prepareRestore(45, new int[0], new int[0], new int[] {3, 2}));
        assertThrows(IllegalArgumentException.class,
                () -> index.prepareRestore(45, new int[0], new int[0], new int[] {3, 45}));
        assertEquals(before, dump(index));
    }

    // ---------------------------------------------------------------- edges of the arrays and of the ranges

    /**
     * An index whose slot arrays hold exactly {@code highWater} entries (slots 1 to 1,024 in use, 1,025 entries,
     * the first capacity): a lookup of the first slot past the mark must answer from the mark, not read the arrays.
     */
    @Test
    void lookupsAtTheMarkOfArraysWithNoRoomLeftAnswerFreeWithoutReadingThem() {
        EntityIndex index = new EntityIndex(2000);
        int full = EntityIndex.FIRST_SLOTS; // 1,025
        for (int i = 1; i < full; i++) {
            index.publish(Entity.slot(index.allocate()), 1, i);
        }
        assertEquals(full, index.highWater());
        long past = Entity.pack(full, 0);
        assertEquals(EntityIndex.FREE, index.stateOf(past));
        assertEquals(EntityIndex.FREE, index.slotState(full));
        assertEquals(EntityIndex.FREE, index.slotState(0));
        assertTrue(index.describeDead(past, "op").contains("does not exist (slot=1025 never allocated"),
                index.describeDead(past, "op"));
        index.checkReservable(past, "op"); // accepted: a fresh slot
        index.checkReservable(Entity.pack(2000, 0), "op"); // the last slot there can be
        String over = assertThrows(IllegalArgumentException.class,
                () -> index.checkReservable(Entity.pack(2001, 0), "op")).getMessage();
        assertEquals("op: slot=2001 exceeds maxEntities=2000", over);
        assertEquals("op: id=-1 is not an entity id (slot must be 1.." + Entity.MAX_ENTITIES + ")",
                index.describeDead(-1, "op"));
    }

    /**
     * {@code reserveAt} far past the mark grows the arrays to the slot and pushes the skipped ones, or changes
     * nothing.
     */
    @Test
    void aReservationFarPastTheMarkGrowsFirstAndAFailedGrowthChangesNothing() {
        for (int failing = 1; failing <= 3; failing++) { // the two slot arrays, then the free stack
            EntityIndex index = new EntityIndex(5000);
            index.publish(Entity.slot(index.allocate()), 1, 0);
            String before = state(index);
            AllocationFaults.failAt(AllocationFaults.Kind.HEAP, failing);
            try {
                assertThrows(OutOfMemoryError.class, () -> index.reserveAt(Entity.pack(3000, 4)), "fault " + failing);
            } finally {
                AllocationFaults.disarm();
            }
            assertEquals(before, state(index), "fault " + failing);
            index.reserveAt(Entity.pack(3000, 4));
            assertEquals(3001, index.highWater());
            assertEquals(EntityIndex.RESERVED, index.stateOf(Entity.pack(3000, 4)));
            assertEquals(2998, index.freeCount(), "slots 2 to 2,999 were skipped: free");
            assertEquals(Entity.pack(2999, 0), index.allocate(), "the last skipped slot is on top");
        }
    }

    /** Scattered reservations of recycled slots of generation 0 can line up: the batch then says so. */
    @Test
    void aScatteredBatchWhoseIdsLineUpReturnsTheFirst() {
        EntityIndex index = new EntityIndex(10);
        // a snapshot's layout: slots 2 and 3 saved free at generation 0 (skipped by a spawnAt), 1 restored on top
        index.prepareRestore(4, new int[] {3, 2}, new int[] {0, 0}, new int[] {1});
        long[] out = new long[4];
        // four is more than the three free slots, so no run is taken at once: one by one, 1, 2, 3, then fresh 4
        assertEquals(Entity.pack(1, 0), index.allocateBatch(4, 7, out));
        assertEquals(List.of(Entity.pack(1, 0), Entity.pack(2, 0), Entity.pack(3, 0), Entity.pack(4, 0)),
                List.of(out[0], out[1], out[2], out[3]));
        for (int slot = 1; slot <= 4; slot++) {
            assertEquals(7, index.batchArchetype(slot));
        }
        EntityIndex mixed = new EntityIndex(10);
        mixed.prepareRestore(4, new int[] {3, 2}, new int[] {0, 5}, new int[] {1});
        assertEquals(0, mixed.allocateBatch(4, 7, out), "slot 2 at generation 5 breaks the line");
        assertEquals(Entity.pack(2, 5), out[1]);
    }

    /**
     * An index of {@code maxEntities} slots with slots 1 to 10 published, then {@code first} and {@code second}
     * freed.
     */
    private static EntityIndex tenPublishedTwoFreed(int maxEntities, int first, int second) {
        EntityIndex index = new EntityIndex(maxEntities);
        for (int i = 0; i < 10; i++) {
            index.publish(Entity.slot(index.allocate()), 1, i);
        }
        index.free(first);
        index.free(second);
        return index;
    }

    /** A batch that takes exactly the slots left fits; one more does not, and changes nothing. */
    @Test
    void aScatteredBatchOfExactlyWhatIsLeftFits() {
        EntityIndex index = tenPublishedTwoFreed(10, 3, 7);
        long[] out = new long[3];
        String before = state(index);
        assertThrows(IllegalStateException.class, () -> index.allocateScattered(3, 2, out));
        assertEquals(before, state(index));
        assertEquals(0, index.allocateScattered(2, 2, out));
        assertEquals(List.of(Entity.pack(7, 1), Entity.pack(3, 1)), List.of(out[0], out[1]));
        assertEquals(0, index.available());
    }

    /**
     * A scattered batch that reaches the last slot there can be grows the arrays for it up front, to
     * {@code maxEntities + 1} entries: the reservations then allocate nothing (a growth among them, failing, would
     * leave part of the batch reserved).
     */
    @Test
    void aScatteredBatchToTheLastSlotGrowsOnceUpFront() {
        // two recycled slots, not a run: the batch is reserved one slot at a time
        EntityIndex index = tenPublishedTwoFreed(3000, 2, 5);
        int count = (int) index.available();
        long[] out = new long[count];
        AllocationFaults.failAt(AllocationFaults.Kind.HEAP, 3); // the two slot arrays may grow; nothing more
        try {
            assertEquals(0, index.allocateScattered(count, 9, out));
        } finally {
            AllocationFaults.disarm();
        }
        assertEquals(3001, index.highWater());
        assertEquals(EntityIndex.RESERVED, index.stateOf(out[count - 1]));
        assertEquals(3000, Entity.slot(out[count - 1]));
    }

    /** The bounds of {@code publishSlots} are exact: a range that ends where both arrays end is published. */
    @Test
    void publishingSlotsUpToTheArraysEndsIsAccepted() {
        EntityIndex index = new EntityIndex(10);
        index.allocateConsecutive(3, 4);
        index.publishSlots(new int[] {1, 2, 3}, new int[] {2, 0, 1}, 0, 3, 5, 10);
        assertEquals(List.of(12, 10, 11), List.of(index.rowOf(1), index.rowOf(2), index.rowOf(3)));
        index.publishSlots(new int[] {1, 2, 3}, new int[] {2, 0, 1}, 3, 3, 5, 10); // an empty range at the end
        assertEquals(3, index.aliveCount());
    }

    /** A clear retires a slot whose generation ran out instead of handing it out again at generation 0. */
    @Test
    void aClearRetiresASlotAtTheLastGeneration() {
        EntityIndex index = new EntityIndex(10);
        index.reserveAt(Entity.pack(2, Entity.MAX_GENERATION));
        index.publish(2, 1, 0);
        index.publish(Entity.slot(index.allocate()), 1, 1); // slot 1, skipped by the reservation, taken again
        index.clear();
        assertEquals(EntityIndex.RETIRED, index.slotState(2));
        assertEquals(List.of(1), toList(index.freeStack()), "only slot 1 is free");
    }

    /**
     * {@code freeAll} (a whole archetype despawned): every slot free one generation on, or retired at the last;
     * pushed last to first, so they come back in the order they were given; the stack grows for them first.
     */
    @Test
    void freeingAllAtOnceFreesEachSlotAndHandsThemBackInOrder() {
        EntityIndex index = new EntityIndex(1000);
        long[] ids = new long[200]; // more than the free stack's first 64 places
        for (int i = 0; i < ids.length; i++) {
            ids[i] = index.allocate();
            index.publish(Entity.slot(ids[i]), 1, i);
        }
        index.reserveAt(Entity.pack(300, Entity.MAX_GENERATION));
        index.publish(300, 1, 200);
        long last = Entity.pack(300, Entity.MAX_GENERATION);
        long[] all = java.util.Arrays.copyOf(ids, ids.length + 1);
        all[ids.length] = last;
        index.freeAll(all, all.length);
        assertEquals(0, index.aliveCount());
        assertEquals(EntityIndex.RETIRED, index.slotState(300));
        for (long id : ids) {
            assertFalse(index.isAlive(id));
            assertEquals(EntityIndex.FREE, index.slotState(Entity.slot(id)));
            assertEquals(1, index.generationOf(Entity.slot(id)));
        }
        for (long id : ids) {
            assertEquals(Entity.pack(Entity.slot(id), 1), index.allocate());
        }
    }

    /** Frees one at a time, and whole archetypes of one entity each, grow the free stack by doubling. */
    @Test
    void theFreeStackGrowsByDoublingWhateverEachFreeNeeds() {
        EntityIndex index = new EntityIndex(200_000);
        long[] ids = new long[200_000];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = index.allocate();
            index.publish(Entity.slot(ids[i]), 1, i);
        }
        AllocationFaults.disarm(); // restarts the count of growths
        for (int i = 0; i < 100_000; i++) {
            index.free(Entity.slot(ids[i]));
        }
        long single = AllocationFaults.seen(AllocationFaults.Kind.HEAP);
        assertTrue(single <= 20, single + " growths for 100,000 frees");
        EntityIndex other = new EntityIndex(200_000);
        for (int i = 0; i < ids.length; i++) {
            other.publish(Entity.slot(other.allocate()), 1, i);
        }
        AllocationFaults.disarm();
        long[] one = new long[1];
        for (int i = 0; i < 100_000; i++) {
            one[0] = ids[i];
            other.freeAll(one, 1);
        }
        long whole = AllocationFaults.seen(AllocationFaults.Kind.HEAP);
        assertTrue(whole <= 20, whole + " growths for 100,000 archetypes of one entity freed");
    }

    /** A restore layout refuses a slot named twice, or at its own mark, and says what it wanted. */
    @Test
    void aLayoutOfRepeatedSlotsOrASlotAtTheMarkIsRefused() {
        EntityIndex index = populated();
        String before = dump(index);
        String twice = assertThrows(IllegalArgumentException.class,
                () -> index.prepareRestore(10, new int[0], new int[0], new int[] {2, 2})).getMessage();
        assertEquals("prepareRestore: restored slots must ascend inside 1..9 (2 after 2)", twice);
        assertThrows(IllegalArgumentException.class,
                () -> index.prepareRestore(10, new int[0], new int[0], new int[] {2, 10}));
        assertEquals(before, dump(index));
        index.prepareRestore(10, new int[0], new int[0], new int[] {2, 9}); // 9, below the mark, is accepted
    }

    /**
     * Below a lower restored mark the old slots are gone: from the mark on they are fresh, generation 0, so the ids
     * handed out there are those a new world would hand out.
     */
    @Test
    void aLayoutBelowTheOldMarkLeavesTheSlotsAboveItFresh() {
        EntityIndex index = new EntityIndex(100);
        for (int i = 0; i < 20; i++) {
            index.publish(Entity.slot(index.allocate()), 1, i);
        }
        for (int slot = 12; slot <= 20; slot++) {
            index.free(slot); // generation 1
        }
        index.prepareRestoreReserved(10, new int[0], new int[0], new int[] {1, 2}, new int[] {0, 0}, 2, -1);
        assertEquals(10, index.highWater());
        for (int slot = 10; slot <= 20; slot++) {
            assertEquals(0, index.generationOf(slot), "slot " + slot);
        }
        for (int slot = 10; slot <= 20; slot++) {
            assertEquals(Entity.pack(slot, 0), index.allocate());
        }
    }

    /** A layout whose last restored slot ends the slot arrays (no entry past it) writes nothing past them. */
    @Test
    void aLayoutThatEndsAtTheArraysEndStaysInsideThem() {
        EntityIndex index = new EntityIndex(1023); // first capacity 1,024 entries: slots 0 to 1,023
        index.prepareRestore(1024, new int[0], new int[0], new int[] {1000, 1023});
        assertEquals(1024, index.highWater());
        assertTrue(index.reserveRestored(new int[] {1000, 1023}, new int[] {0, 3}, 5));
        assertEquals(EntityIndex.RESERVED, index.stateOf(Entity.pack(1023, 3)));
    }

    /**
     * {@code runEnd} (the galloping search for the end of a run of consecutive slots) against a plain scan, over
     * random ascending arrays whose runs are of every length, from every start, with ends short of the array (the run
     * may go on past them). Seeded; replay with {@code -Djtecs.seed}.
     */
    @Test
    void theEndOfARunIsWhereAPlainScanFindsIt() {
        long seed = Long.getLong("jtecs.seed", new java.util.SplittableRandom().nextLong());
        System.out.println("EntityIndexTest run-end seed " + seed + " (replay: -Djtecs.seed=" + seed + ")");
        Random random = new Random(seed);
        for (int round = 0; round < 300; round++) {
            int length = 1 + random.nextInt(80);
            int[] slots = new int[length];
            int slot = 1 + random.nextInt(5);
            for (int i = 0; i < length; i++) {
                slots[i] = slot;
                slot += random.nextInt(4) == 0 ? 2 + random.nextInt(3) : 1; // runs of about four, of any length
            }
            for (int from = 0; from < length; from++) {
                int to = from + 1 + random.nextInt(length - from);
                int expected = from + 1;
                while (expected < to && slots[expected] == slots[expected - 1] + 1) {
                    expected++;
                }
                assertEquals(expected, EntityIndex.runEnd(slots, from, to),
                        "seed " + seed + " round " + round + " from " + from + " to " + to);
            }
        }
    }
}
