package dev.jtecs.storage.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.jtecs.entity.Entity;
import dev.jtecs.entity.internal.AllocationFaults;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class TargetListsTest {
    // a list belongs to one target at a time (put writes its owner into the header): fresh ones for each test
    private final long[] A = {1};
    private final long[] B = {2};
    private final long[] C = {3};
    private final long[] D = {4};

    /**
     * A cascade taking a subtree whole reads a list only where it sits in its target's own cell and later takes it
     * out of the cell: the count follows, and a list beside the cells is told apart, not taken.
     */
    @Test
    void aListInItsOwnCellIsTakenOutAndOneBesideTheCellsIsToldApart() {
        TargetLists lists = new TargetLists();
        long target = Entity.pack(5, 3);
        long successor = Entity.pack(5, 4); // the slot's next entity, with a list while the old one's waits
        long none = Entity.pack(6, 0);
        lists.put(target, A);
        assertEquals(false, lists.hasListsBesideCells(), "every list in its own cell");
        lists.put(successor, B); // the cell is taken: beside the cells
        assertEquals(true, lists.hasListsBesideCells());
        assertSame(A, lists.inCell(target));
        assertEquals(false, lists.isBesideCells(target));
        assertNull(lists.inCell(successor));
        assertEquals(true, lists.isBesideCells(successor));
        assertNull(lists.inCell(none));
        assertEquals(false, lists.isBesideCells(none));
        assertNull(lists.inCell(Entity.pack(4000, 0)), "a slot past the cells");
        assertEquals(2, lists.size());

        assertSame(A, lists.clearCell(target));
        assertNull(lists.get(target));
        assertNull(lists.inCell(target));
        assertSame(B, lists.get(successor), "the list beside the cells stays");
        assertEquals(1, lists.size());
        assertSame(B, lists.remove(successor));
        assertEquals(false, lists.hasListsBesideCells(), "none left beside the cells");
    }

    @Test
    void aTargetsListIsFoundReplacedAndRemovedByItsWholeId() {
        TargetLists lists = new TargetLists();
        long target = Entity.pack(5, 3);
        assertNull(lists.get(target));
        lists.put(target, A);
        assertSame(A, lists.get(target));
        assertNull(lists.get(Entity.pack(5, 2)), "another generation of the slot has no list");
        assertNull(lists.get(Entity.pack(6, 3)));
        lists.put(target, B);
        assertSame(B, lists.get(target));
        assertEquals(1, lists.size());
        assertNull(lists.remove(Entity.pack(5, 4)), "removing another generation removes nothing");
        assertEquals(1, lists.size());
        assertSame(B, lists.remove(target));
        assertNull(lists.get(target));
        assertNull(lists.remove(target));
        assertEquals(0, lists.size());
        assertThrows(IllegalArgumentException.class, () -> lists.put(0, A));
        assertEquals(0, lists.size());
    }

    @Test
    void aSecondIdOfATakenSlotIsKeptBesideTheCells() {
        TargetLists lists = new TargetLists();
        long dead = Entity.pack(7, 1); // a target whose sources wait for settlement
        long fresh = Entity.pack(7, 2); // the slot's new entity
        lists.put(dead, A);
        lists.put(fresh, B);
        assertEquals(2, lists.size());
        assertSame(A, lists.get(dead));
        assertSame(B, lists.get(fresh));
        assertSame(A, lists.remove(dead)); // the cell empties; the other id stays where it is
        assertSame(B, lists.get(fresh));
        lists.put(fresh, C); // replaced beside the cells, not entered a second time in the free cell
        assertSame(C, lists.get(fresh));
        assertEquals(3, C[0] >>> 32, "every list put names its owner, beside the cells too");
        assertEquals(1, lists.size());
        lists.put(dead, A); // the free cell takes an id again
        assertSame(A, lists.get(dead));
        assertEquals(2, lists.size());
        assertSame(C, lists.remove(fresh));
        assertNull(lists.get(fresh));
        assertSame(A, lists.get(dead));
        assertEquals(1, lists.size());
    }

    @Test
    void slotsPastTheCellsHaveNoListAndRemoveNothing() {
        TargetLists lists = new TargetLists(); // 16 cells to begin with
        for (int slot : new int[] {15, 16, 17, 1 << 20}) {
            long target = Entity.pack(slot, 0);
            assertNull(lists.get(target), "slot " + slot);
            assertNull(lists.remove(target), "slot " + slot);
        }
        assertEquals(0, lists.size());
        lists.put(Entity.pack(16, 0), A); // the first slot past the cells: they grow to hold it
        assertSame(A, lists.get(Entity.pack(16, 0)));
        assertSame(A, lists.remove(Entity.pack(16, 0)));
        assertEquals(0, lists.size());
    }

    @Test
    void aFewTargetsInHighSlotsDoNotStretchTheCells() {
        TargetLists lists = new TargetLists();
        long high = Entity.pack(4_000_000, 0); // one target near the top of a large world
        lists.put(high, A);
        assertEquals(16, lists.cells(), "a lone high target goes beside the cells");
        assertEquals(1, A[0] >>> 32, "its owner named all the same");
        assertSame(A, lists.get(high));
        long edge = Entity.pack(TargetLists.CELLS_PER_TARGET * 2 + TargetLists.MIN_CELLS - 1, 0);
        lists.put(edge, B); // the second target: the cells may reach 8 per target plus 1,024
        assertEquals(edge, edgeSlotCovered(lists, edge));
        long past = Entity.pack(TargetLists.CELLS_PER_TARGET * 3 + TargetLists.MIN_CELLS, 0);
        int before = lists.cells();
        lists.put(past, C); // the third: one slot past its limit
        assertEquals(before, lists.cells());
        assertSame(A, lists.get(high));
        assertSame(B, lists.get(edge));
        assertSame(C, lists.get(past));
        assertEquals(3, lists.size());
        Map<Long, long[]> seen = new HashMap<>();
        lists.forEach(seen::put);
        assertEquals(Map.of(high, A, edge, B, past, C), seen);
        assertSame(C, lists.remove(past));
        assertSame(A, lists.remove(high));
        assertEquals(1, lists.size());
    }

    /** The id when the cells cover its slot. */
    private static long edgeSlotCovered(TargetLists lists, long target) {
        return Entity.slot(target) < lists.cells() ? target : -1;
    }

    @Test
    void theHighestGenerationIsATargetLikeAnyOther() {
        TargetLists lists = new TargetLists();
        long last = Entity.pack(9, Entity.MAX_GENERATION);
        lists.put(last, A);
        assertSame(A, lists.get(last));
        assertNull(lists.get(Entity.pack(9, 0)));
        Map<Long, long[]> seen = new HashMap<>();
        lists.forEach(seen::put);
        assertEquals(Map.of(last, A), seen);
        assertSame(A, lists.remove(last));
    }

    @Test
    void forEachVisitsTheCellsInSlotOrderThenTheOthers() {
        TargetLists lists = new TargetLists();
        long high = Entity.pack(400, 0); // past the first capacity: the cells grow
        long low = Entity.pack(3, 5);
        long shared = Entity.pack(3, 6); // slot 3's cell is taken: kept beside
        long middle = Entity.pack(40, 1);
        lists.put(high, A);
        lists.put(low, B);
        lists.put(shared, C);
        lists.put(middle, D);
        Map<Long, long[]> seen = new LinkedHashMap<>();
        lists.forEach((target, list) -> assertNull(seen.put(target, list), "visited twice"));
        assertEquals(List.of(low, middle, high, shared), new ArrayList<>(seen.keySet()));
        assertSame(C, seen.get(shared));
        new TargetLists().forEach((target, list) -> {
            throw new AssertionError("an empty index has no target");
        });
    }

    @Test
    void aFailedGrowthChangesNothing() {
        TargetLists lists = new TargetLists();
        long near = Entity.pack(2, 0);
        lists.put(near, A);
        long far = Entity.pack(1000, 0);
        long header = B[0];
        AllocationFaults.failAt(AllocationFaults.Kind.HEAP, 1); // the cells' growth, the one allocation
        try {
            assertThrows(OutOfMemoryError.class, () -> lists.put(far, B));
        } finally {
            AllocationFaults.disarm();
        }
        assertEquals(1, lists.size());
        assertNull(lists.get(far));
        assertSame(A, lists.get(near));
        assertEquals(header, B[0], "a refused list's header is left as it was");
        lists.put(far, B);
        assertSame(B, lists.get(far));
        assertEquals(2, lists.size());
    }

    @Test
    void putWritesTheOwnerIntoTheHeaderAndKeepsTheCount() {
        TargetLists lists = new TargetLists();
        long target = Entity.pack(12, 7);
        long[] list = {3, 40, 41, 42}; // three sources
        lists.put(target, list);
        assertEquals(3, (int) list[0], "the count stays in the low half");
        assertEquals(8, list[0] >>> 32, "the owner: generation + 1");
        list[0]++; // what a caller does to count one more
        assertSame(list, lists.get(target), "counting leaves the owner alone");
        long other = Entity.pack(12, 8); // the slot's next entity, its cell taken: beside the cells
        long[] second = {0};
        lists.put(other, second);
        assertEquals(9, second[0] >>> 32);
        assertSame(list, lists.get(target));
        assertSame(second, lists.get(other));
        assertThrows(IllegalArgumentException.class, () -> lists.put(Entity.pack(13, 0), new long[0]));
        assertEquals(2, lists.size());
        Map<Long, long[]> seen = new HashMap<>();
        lists.forEach(seen::put);
        assertEquals(Map.of(target, list, other, second), seen);
    }

    @Test
    void randomOperationsAgreeWithAHashMap() {
        Long replay = Long.getLong("jtecs.seed");
        long seed = replay != null ? replay : new SplittableRandom().nextLong();
        System.out.println("TargetListsTest.randomOperationsAgreeWithAHashMap seed=" + seed
                + " (replay with -Djtecs.seed=" + seed + ")");
        SplittableRandom random = new SplittableRandom(seed);
        TargetLists lists = new TargetLists();
        Map<Long, long[]> model = new HashMap<>();
        for (int step = 0; step < 20_000; step++) {
            // few slots and generations: cells taken by one generation while others wait beside them
            long target = Entity.pack(1 + random.nextInt(200), random.nextInt(3));
            String at = "seed=" + seed + " step=" + step;
            switch (random.nextInt(3)) {
                case 0 -> {
                    long[] list = {step};
                    lists.put(target, list);
                    model.put(target, list);
                }
                case 1 -> assertSame(model.remove(target), lists.remove(target), at);
                default -> assertSame(model.get(target), lists.get(target), at);
            }
            assertEquals(model.size(), lists.size(), at);
        }
        Map<Long, long[]> seen = new HashMap<>();
        lists.forEach((target, list) -> assertNull(seen.put(target, list), "seed=" + seed + ": visited twice"));
        assertEquals(model, seen, "seed=" + seed);
    }
}
