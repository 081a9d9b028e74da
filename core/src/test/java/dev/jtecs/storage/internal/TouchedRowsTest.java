package dev.jtecs.storage.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class TouchedRowsTest {
    @Test
    void holdsEachRowOnceAndSortsThem() {
        TouchedRows rows = new TouchedRows();
        rows.add(9);
        rows.add(2);
        rows.add(9);
        rows.add(5);
        assertArrayEquals(new int[] {2, 5, 9}, rows.sorted());
        assertEquals(3, rows.size());
    }

    @Test
    void sortedIntoWritesWhatSortedReturns() {
        TouchedRows rows = new TouchedRows();
        for (int row : new int[] {30, 4, 12, 4, 7}) {
            rows.add(row);
        }
        int[] into = new int[TouchedRows.LIMIT];
        assertEquals(4, rows.sortedInto(into));
        assertArrayEquals(rows.sorted(), java.util.Arrays.copyOf(into, 4));
        assertEquals(4, rows.sortedInto(new int[4]));
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> rows.sortedInto(new int[3]));
    }

    @Test
    void reservingForManyRowsMakesTheAddsAndDropsOfABatchAllocateNothing() {
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        TouchedRows reserved = new TouchedRows();
        TouchedRows plain = new TouchedRows();
        reserved.add(7); // some rows held before, as a table holds them between consumer reads
        plain.add(7);
        reserved.reserve(300);
        long before = threads.getCurrentThreadAllocatedBytes();
        int count = 1000; // a batch of removals: a hole below the shrinking count, then the count drops
        for (int i = 0; i < 300; i++) {
            int hole = (i * 37) % (count - 1);
            reserved.add(hole);
            count--;
            reserved.dropFrom(count);
        }
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        count = 1000;
        for (int i = 0; i < 300; i++) {
            int hole = (i * 37) % (count - 1);
            plain.add(hole);
            count--;
            plain.dropFrom(count);
        }
        assertEquals(0, allocated, "the reserved set grew during the batch");
        assertEquals(plain.overflowed(), reserved.overflowed());
        assertEquals(plain.size(), reserved.size());
        assertArrayEquals(plain.sorted(), reserved.sorted(), "reserving changes no answer");
    }

    @Test
    void dropFromRemovesRowsAtOrAboveTheBound() {
        TouchedRows rows = new TouchedRows();
        for (int row : new int[] {40, 3, 17, 25, 8}) {
            rows.add(row);
        }
        rows.dropFrom(100);
        assertEquals(5, rows.size(), "nothing at or above 100");
        rows.dropFrom(17);
        assertArrayEquals(new int[] {3, 8}, rows.sorted());
        rows.add(8);
        rows.add(16);
        assertArrayEquals(new int[] {3, 8, 16}, rows.sorted(), "a dropped row's slot does not hide 16");
    }


    /**
     * {@code reserveOne} makes room for exactly the next add, whatever the set holds: the heap at each of its
     * growth points (8, 16, 32 rows) and the hash set at each of its rebuild points.
     */
    @Test
    void reserveOneMakesTheNextAddAllocateNothingAtEverySize() {
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        for (int held = 0; held < TouchedRows.LIMIT; held++) {
            TouchedRows rows = new TouchedRows();
            for (int row = 0; row < held; row++) {
                rows.add(row * 5);
            }
            rows.reserveOne();
            long before = threads.getCurrentThreadAllocatedBytes();
            rows.add(1); // 1 is no multiple of 5: a new row
            long allocated = threads.getCurrentThreadAllocatedBytes() - before;
            assertEquals(0, allocated, "an add after reserveOne allocated, with " + held + " rows held");
            assertEquals(held + 1, rows.size());
            rows.add(1);
            assertEquals(held + 1, rows.size(), "held once");
        }
    }

    @Test
    void reservingOneRowIsReserveOne() {
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        for (int held : new int[] {0, 8, 11, 16}) { // an empty heap, a full one, a hash set at its rebuild point
            TouchedRows rows = new TouchedRows();
            for (int row = 0; row < held; row++) {
                rows.add(row * 5);
            }
            rows.reserve(1);
            long before = threads.getCurrentThreadAllocatedBytes();
            rows.add(1);
            assertEquals(0, threads.getCurrentThreadAllocatedBytes() - before, held + " rows held");
            assertEquals(held + 1, rows.size());
        }
    }

    @Test
    void reservingForManyRowsStillKnowsTheRowsHeld() {
        TouchedRows rows = new TouchedRows();
        for (int row = 0; row < 12; row++) { // a hash set that reserve must grow: the held rows move into it
            rows.add(row * 5);
        }
        rows.reserve(300);
        for (int row = 0; row < 12; row++) {
            rows.add(row * 5);
        }
        assertEquals(12, rows.size(), "a row held before the reservation is not added twice");
        rows.add(7);
        assertEquals(13, rows.size());
    }

    @Test
    void overflowsOnTheSixtyFifthDistinctRowOnly() {
        TouchedRows rows = new TouchedRows();
        for (int row = 0; row < TouchedRows.LIMIT; row++) {
            rows.add(row * 3);
        }
        rows.add(0);
        assertFalse(rows.overflowed(), "a repeated row is not a new one");
        rows.dropFrom(189); // frees room: 63 rows are held
        rows.add(1);
        assertFalse(rows.overflowed());
        rows.add(2);
        assertTrue(rows.overflowed());
        rows.clear();
        assertFalse(rows.overflowed());
        assertEquals(0, rows.size());
        rows.add(7);
        assertArrayEquals(new int[] {7}, rows.sorted());
    }

    /**
     * Random adds and shrinks against the list it replaces: a plain list of at most 64 rows, deduplicated by a
     * scan on every add and filtered by a scan on every shrink. Replay a seed with {@code -Djtecs.seed=...}.
     */
    @Test
    void agreesWithAFilteredListUnderRandomAddsAndShrinks() {
        Long replay = Long.getLong("jtecs.seed");
        for (long seed : replay != null ? new long[] {replay} : new long[] {1, 2, 3, System.nanoTime()}) {
            System.out.println("TouchedRowsTest.agreesWithAFilteredListUnderRandomAddsAndShrinks seed=" + seed);
            agreesWithAFilteredList(seed);
        }
    }

    private static void agreesWithAFilteredList(long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        for (int round = 0; round < 200; round++) {
            TouchedRows rows = new TouchedRows();
            List<Integer> model = new ArrayList<>();
            boolean modelOverflowed = false;
            int bound = 1 + random.nextInt(400);
            for (int step = 0; step < 2000; step++) {
                int op = random.nextInt(10);
                if (op < 7 && bound > 0) {
                    int row = random.nextInt(bound);
                    rows.add(row);
                    if (!modelOverflowed && !model.contains(row)) {
                        if (model.size() == TouchedRows.LIMIT) {
                            modelOverflowed = true;
                        } else {
                            model.add(row);
                        }
                    }
                } else if (op < 9) {
                    bound = Math.max(0, bound - 1 - random.nextInt(8));
                    rows.dropFrom(bound);
                    int b = bound;
                    model.removeIf(row -> row >= b);
                } else if (random.nextInt(20) == 0) {
                    rows.clear();
                    model.clear();
                    modelOverflowed = false;
                    bound = 1 + random.nextInt(400);
                }
                assertEquals(modelOverflowed, rows.overflowed(), "seed=" + seed + " round=" + round + " step=" + step);
                assertArrayEquals(model.stream().mapToInt(Integer::intValue).sorted().toArray(), rows.sorted(),
                        "seed=" + seed + " round=" + round + " step=" + step);
            }
        }
    }
}
