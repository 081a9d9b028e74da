package dev.jtecs.snapshot.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The reader's slot bookkeeping: its size follows the slots named, its answers do not depend on its form. */
class SlotTableTest {
    @Test
    void aWholeWorldIsHeldDirectlyAndAFewSlotsOfAHugeOneAreHashed() {
        SlotTable whole = new SlotTable(100_001, 100_000);
        assertTrue(whole.isDirect());
        SlotTable few = new SlotTable(4_000_000, 3);
        assertFalse(few.isDirect());
        assertEquals(8, few.cells(), "twice the named slots, rounded up to a power of two");
        SlotTable none = new SlotTable(Integer.MAX_VALUE, 0);
        assertTrue(none.cells() <= 4, "nothing named, nothing held: " + none.cells());
        assertTrue(new SlotTable(900, 0).isDirect(), "a small world is one small array");
    }

    @Test
    void bothFormsAnswerAlike() {
        for (SlotTable table : new SlotTable[] {new SlotTable(64, 40), new SlotTable(1 << 24, 40)}) {
            for (int i = 0; i < 40; i++) {
                int slot = table.isDirect() ? 63 - i : (i * 409_891) % ((1 << 24) - 1) + 1;
                assertTrue(table.add(slot, i), "slot " + slot);
                assertFalse(table.add(slot, 99), "a slot is recorded once");
                assertEquals(i, table.generation(slot));
            }
            assertEquals(40, table.size());
            assertEquals(SlotTable.ABSENT, table.generation(table.isDirect() ? 1 : 2));
            assertFalse(table.contains(0));
            assertFalse(table.contains(-5));
            assertFalse(table.contains(Integer.MAX_VALUE));
            int[] slots = table.slots();
            assertEquals(40, slots.length);
            int[] sorted = slots.clone();
            java.util.Arrays.sort(sorted);
            assertArrayEquals(sorted, slots, "ascending");
            for (int slot : slots) {
                assertTrue(table.contains(slot));
            }
        }
    }

    @Test
    void slotsOutsideTheRangeOrPastTheSizingAreRefused() {
        SlotTable hashed = new SlotTable(1 << 24, 2);
        assertThrows(IllegalStateException.class, () -> hashed.add(0, 0));
        assertThrows(IllegalStateException.class, () -> hashed.add(1 << 24, 0));
        hashed.add(5, 0);
        hashed.add(6, 0);
        assertThrows(IllegalStateException.class, () -> hashed.add(7, 0), "sized for two");
        assertThrows(IllegalArgumentException.class, () -> new SlotTable(10, -1));
    }

    @Test
    void bothFormsLayTheSlotsOutAscendingWithTheirGenerationsAndPositions() {
        for (SlotTable table : new SlotTable[] {new SlotTable(64, 40), new SlotTable(1 << 24, 40)}) {
            int[] expectedSlots = new int[40];
            for (int i = 0; i < 40; i++) {
                int slot = table.isDirect() ? 63 - i : (i * 409_891) % ((1 << 24) - 1) + 1;
                int generation = i == 7 ? dev.jtecs.entity.Entity.MAX_GENERATION : i * 3;
                assertTrue(table.add(slot, generation, 1000 + i));
                assertEquals(1000 + i, table.position(slot));
                assertEquals(generation, table.generation(slot));
                expectedSlots[i] = slot;
            }
            assertEquals(SlotTable.ABSENT, table.position(table.isDirect() ? 1 : 2));
            int[] slots = new int[40];
            int[] generations = new int[40];
            int[] positions = new int[40];
            table.layout(slots, generations, positions);
            java.util.Arrays.sort(expectedSlots);
            assertArrayEquals(expectedSlots, slots);
            for (int k = 0; k < 40; k++) {
                assertEquals(table.generation(slots[k]), generations[k]);
                assertEquals(table.position(slots[k]), positions[k]);
            }
        }
    }

    @Test
    void aDirectTablePacksItsCellsUntilOneDoesNotFitAndThenAnswersAlike() {
        SlotTable table = new SlotTable(2000, 1000); // positions take 10 bits: generations up to 2^22 - 1 pack
        assertTrue(table.isPacked());
        assertTrue(table.add(5, (1 << 22) - 1, 999));
        assertTrue(table.add(6, 0, 0));
        assertTrue(table.isPacked());
        assertEquals((1 << 22) - 1, table.generation(5));
        assertEquals(999, table.position(5));
        assertTrue(table.add(7, 1 << 22, 3), "a generation that does not fit widens the table");
        assertFalse(table.isPacked());
        assertFalse(table.add(5, 1, 1), "what was packed is still recorded");
        assertEquals((1 << 22) - 1, table.generation(5));
        assertEquals(999, table.position(5));
        assertEquals(0, table.generation(6));
        assertEquals(0, table.position(6));
        assertEquals(1 << 22, table.generation(7));
        assertTrue(table.add(8, dev.jtecs.entity.Entity.MAX_GENERATION, 1_000_000_000));
        assertEquals(dev.jtecs.entity.Entity.MAX_GENERATION, table.generation(8));
        assertEquals(1_000_000_000, table.position(8));
        int[] slots = new int[4];
        int[] generations = new int[4];
        int[] positions = new int[4];
        table.layout(slots, generations, positions);
        assertArrayEquals(new int[] {5, 6, 7, 8}, slots);
        assertArrayEquals(new int[] {(1 << 22) - 1, 0, 1 << 22, dev.jtecs.entity.Entity.MAX_GENERATION}, generations);
        assertArrayEquals(new int[] {999, 0, 3, 1_000_000_000}, positions);

        SlotTable far = new SlotTable(2000, 1000);
        assertTrue(far.add(9, 0, 1023), "position 1023 + 1 needs an eleventh bit");
        assertFalse(far.isPacked());
        assertEquals(1023, far.position(9));
    }

    @Test
    void theFastPathRecordsWhatAddRecordsAndStopsAtTheFirstIdItCannotTake() {
        long[] ids = {pack(9, 3), pack(4, 0), pack(5, 1), pack(1, 2)};
        SlotTable fast = new SlotTable(2000, 1000);
        SlotTable slow = new SlotTable(2000, 1000);
        assertEquals(4, fast.addPacked(ids, 0, 4, 500), "all four fit a packed cell");
        for (int i = 0; i < ids.length; i++) {
            assertTrue(slow.add((int) ids[i], (int) (ids[i] >>> 32), 500 + i));
        }
        assertEquals(slow.size(), fast.size());
        assertArrayEquals(layout(slow), layout(fast));

        long[] twice = {pack(10, 0), pack(11, 0), pack(10, 5), pack(12, 0)};
        SlotTable table = new SlotTable(2000, 1000);
        assertEquals(4, table.addPacked(twice, 0, 4, 0), "the fast path does not look for a slot recorded already");
        assertEquals(4, table.size(), "four ids recorded");
        assertEquals(5, table.generation(10), "the second id of slot 10 overwrote the first");
        assertEquals(3, table.layout(new int[4], new int[4], new int[4]), "the layout finds three slots: one twice");
        assertArrayEquals(new int[] {10, 11, 12}, table.slots());
        SlotTable thenAdd = new SlotTable(2000, 1000);
        assertEquals(2, thenAdd.addPacked(twice, 0, 2, 0));
        assertFalse(thenAdd.add(10, 5, 2), "add still refuses a slot the fast path recorded");
        assertEquals(4, thenAdd.addPacked(twice, 3, 4, 0), "and the fast path resumes after it");
        assertEquals(3, thenAdd.position(12));
        assertEquals(3, thenAdd.layout(new int[3], new int[3], new int[3]), "no slot twice: the layout finds all");

        long[] odd = {pack(3, 0), 0L, -1L, pack(2000, 0), pack(7, 1 << 22), pack(8, 0)};
        SlotTable checked = new SlotTable(2000, 1000); // positions take 10 bits: generations up to 2^22 - 1 pack
        assertEquals(1, checked.addPacked(odd, 0, 6, 0), "the world's id 0");
        assertEquals(2, checked.addPacked(odd, 2, 6, 0), "a negative id");
        assertEquals(3, checked.addPacked(odd, 3, 6, 0), "a slot at nextEntityId");
        assertEquals(4, checked.addPacked(odd, 4, 6, 0), "a generation a packed cell cannot hold");
        assertEquals(5, checked.addPacked(odd, 5, 6, 1022), "position 1023 + 1 needs an eleventh bit");
        assertEquals(1, checked.size(), "only the first one was recorded");
        assertTrue(checked.isPacked());
        assertTrue(checked.add(7, 1 << 22, 4), "add takes the one the fast path left, widening the table");
        assertEquals(5, checked.addPacked(odd, 5, 6, 0), "a widened table leaves everything to add");
    }

    @Test
    void theFastPathAndAddAgreeOnRandomIdsAndTheLayoutCountsADuplicate() {
        long seed = Long.getLong("jtecs.seed", new java.util.SplittableRandom().nextLong());
        System.out.println("SlotTableTest seed " + seed + " (replay: -Djtecs.seed=" + seed + ")");
        java.util.SplittableRandom random = new java.util.SplittableRandom(seed);
        for (int round = 0; round < 200; round++) {
            int highWater = 2 + random.nextInt(3000);
            int count = random.nextInt(Math.min(highWater - 1, 1500) + 1);
            int[] shuffled = java.util.stream.IntStream.range(1, highWater).toArray();
            for (int i = shuffled.length - 1; i > 0; i--) {
                int j = random.nextInt(i + 1);
                int t = shuffled[i];
                shuffled[i] = shuffled[j];
                shuffled[j] = t;
            }
            long[] ids = new long[count];
            for (int i = 0; i < count; i++) { // distinct slots, generations that mostly pack
                ids[i] = pack(shuffled[i], random.nextInt(8) == 0 ? random.nextInt(1 << 30) : random.nextInt(64));
            }
            boolean twice = count > 1 && random.nextBoolean();
            if (twice) {
                ids[random.nextInt(count)] = pack(shuffled[random.nextInt(count)], 0);
            }
            long distinct = java.util.Arrays.stream(ids).map(id -> (int) id).distinct().count();
            SlotTable fast = new SlotTable(highWater, count);
            int position = random.nextInt(4);
            for (int i = fast.addPacked(ids, 0, count, position); i < count;
                    i = fast.addPacked(ids, i + 1, count, position)) { // what the reader does with an id left over
                fast.add((int) ids[i], (int) (ids[i] >>> 32), position + i);
            }
            int[] slots = new int[count];
            int[] generations = new int[count];
            int[] positions = new int[count];
            int laidOut = fast.layout(slots, generations, positions);
            String at = "seed " + seed + " round " + round;
            if (distinct < count) {
                assertTrue(laidOut < count, at + ": a slot recorded twice lays out fewer slots");
                continue;
            }
            assertEquals(count, laidOut, at);
            SlotTable slow = new SlotTable(highWater, count);
            for (int i = 0; i < count; i++) {
                assertTrue(slow.add((int) ids[i], (int) (ids[i] >>> 32), position + i), at);
            }
            assertArrayEquals(layout(slow), layout(fast), at);
        }
    }

    @Test
    void aTableOnReusedScratchCellsUsesOnlyTheCellsBelowItsHighWater() {
        LoadScratch scratch = new LoadScratch();
        SlotTable large = new SlotTable(1000, 900, scratch);
        assertTrue(large.add(950, 4, 1));
        int[] cells = scratch.cells(100); // the same array: a later, smaller load's cells
        cells[500] = 12345; // not cleared by a later ask of 100 cells: only [0, 100) is promised zero
        SlotTable small = new SlotTable(100, 90, scratch);
        assertTrue(small.isPacked());
        assertEquals(100, small.cells(), "the table uses its high-water mark's cells, not the whole array");
        assertEquals(SlotTable.ABSENT, small.generation(950), "the larger load's record is not seen");
        assertTrue(small.add(3, 1, 0));
        assertTrue(small.add(99, 2, 1));
        assertArrayEquals(new int[] {3, 99}, small.slots(), "the cell left at 500 lies past the high-water mark");
        assertTrue(small.add(50, 1 << 30, 2), "widening copies the cells below the high-water mark only");
        assertFalse(small.isPacked());
        assertArrayEquals(new int[] {3, 50, 99}, small.slots());
        assertEquals(100, small.cells());
        SlotTable next = new SlotTable(60, 50, scratch); // the packed cells the widened table left are cleared
        assertArrayEquals(new int[0], next.slots());
    }

    @Test
    void theDirectFormReachesExactlyToItsBound() {
        assertTrue(new SlotTable(4 * 10 + 1024, 10).isDirect(), "nextEntityId at 4 * named + 1024 is still direct");
        assertFalse(new SlotTable(4 * 10 + 1025, 10).isDirect(), "one past it is hashed");
    }

    @Test
    void everyFormAnswersAtTheEdgesOfItsSlotRange() {
        for (SlotTable table : new SlotTable[] {new SlotTable(10, 5), new SlotTable(1 << 24, 5)}) {
            int top = table.isDirect() ? 9 : (1 << 24) - 1;
            assertTrue(table.add(1, 4, 0));
            assertTrue(table.add(top, 6, 1));
            assertEquals(4, table.generation(1), "slot 1 is the first slot");
            assertEquals(6, table.generation(top));
            assertFalse(table.contains(top + 1), "the high-water mark itself is never a slot");
            assertEquals(SlotTable.ABSENT, table.position(top + 1));
        }
        SlotTable wide = new SlotTable(10, 5);
        assertTrue(wide.add(9, Integer.MAX_VALUE, 0));
        assertFalse(wide.isPacked());
        assertFalse(wide.contains(10), "nor in the widened form");
    }

    @Test
    void aRefusedAddNamesTheRangeOrTheSizing() {
        IllegalStateException outside = assertThrows(IllegalStateException.class, () -> new SlotTable(10, 2).add(10, 0));
        assertEquals("slot 10 is outside 1..9", outside.getMessage());
        SlotTable hashed = new SlotTable(1 << 24, 2);
        hashed.add(5, 0);
        hashed.add(6, 0);
        IllegalStateException full = assertThrows(IllegalStateException.class, () -> hashed.add(7, 0));
        assertEquals("more slots than the 2 it was sized for", full.getMessage());
    }

    @Test
    void theFastPathTakesEveryGenerationAndPositionAPackedCellHolds() {
        SlotTable table = new SlotTable(2000, 1000); // positions take 10 bits: generations up to 2^22 - 1 pack
        long[] ids = {pack(3, (1 << 22) - 1), pack(4, 0), pack(5, 1 << 21)};
        assertEquals(3, table.addPacked(ids, 0, 3, 1020), "positions 1020..1022 and these generations all fit");
        assertTrue(table.isPacked());
        assertEquals((1 << 22) - 1, table.generation(3));
        assertEquals(1022, table.position(5));
    }

    private static long pack(int slot, int generation) {
        return (long) generation << 32 | slot;
    }

    private static int[] layout(SlotTable table) {
        int n = table.size();
        int[] all = new int[3 * n];
        int[] slots = new int[n];
        int[] generations = new int[n];
        int[] positions = new int[n];
        table.layout(slots, generations, positions);
        System.arraycopy(slots, 0, all, 0, n);
        System.arraycopy(generations, 0, all, n, n);
        System.arraycopy(positions, 0, all, 2 * n, n);
        return all;
    }
}
