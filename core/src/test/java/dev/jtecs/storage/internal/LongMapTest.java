package dev.jtecs.storage.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class LongMapTest {
    @Test
    void putGetReplaceAndRejectKeyZero() {
        LongMap<String> map = new LongMap<>();
        assertNull(map.get(5));
        map.put(5, "a");
        map.put(5, "b");
        assertEquals("b", map.get(5));
        assertEquals(1, map.size());
        assertThrows(IllegalArgumentException.class, () -> map.put(0, "zero"));
        assertEquals(1, map.size());
    }

    @Test
    void forEachVisitsEveryEntryOnceAfterGrowthsAndRemovals() {
        LongMap<Long> map = new LongMap<>();
        Map<Long, Long> expected = new HashMap<>();
        for (long key = 1; key <= 300; key++) { // grows the table several times
            map.put(key * 7919, key);
            expected.put(key * 7919, key);
        }
        for (long key = 1; key <= 300; key += 3) { // backward shifts move entries around
            map.remove(key * 7919);
            expected.remove(key * 7919);
        }
        Map<Long, Long> seen = new HashMap<>();
        map.forEach((key, value) -> assertNull(seen.put(key, value), "visited twice: " + key));
        assertEquals(expected, seen);
        new LongMap<String>().forEach((key, value) -> {
            throw new AssertionError("an empty map has no entry");
        });
    }

    @Test
    void randomOperationsAgreeWithAHashMap() {
        long seed = new SplittableRandom().nextLong();
        System.out.println("LongMapTest seed=" + seed);
        SplittableRandom random = new SplittableRandom(seed);
        LongMap<Long> map = new LongMap<>();
        Map<Long, Long> model = new HashMap<>();
        for (int step = 0; step < 20_000; step++) {
            long key = 1 + random.nextInt(300); // few keys: long probe runs, many removals inside them
            switch (random.nextInt(3)) {
                case 0 -> {
                    map.put(key, (long) step);
                    model.put(key, (long) step);
                }
                case 1 -> assertEquals(model.remove(key), map.remove(key), "seed=" + seed + " step=" + step);
                default -> assertEquals(model.get(key), map.get(key), "seed=" + seed + " step=" + step);
            }
            assertEquals(model.size(), map.size(), "seed=" + seed);
        }
        for (long key = 1; key <= 300; key++) {
            assertEquals(model.get(key), map.get(key), "seed=" + seed);
        }
        map.retain(map.prepareRetain(), value -> value % 2 == 0);
        model.values().removeIf(value -> value % 2 != 0);
        for (long key = 1; key <= 300; key++) {
            assertEquals(model.get(key), map.get(key), "seed=" + seed);
        }
        assertEquals(model.size(), map.size(), "seed=" + seed);
    }

    /**
     * Ids that the bucket choice keeps together or could pile up (consecutive slots, which share blocks of
     * buckets; power-of-two strides; one slot in many generations) behave as a hash map does through puts, removals
     * inside their probe runs and growth.
     */
    @Test
    void clusteredIdsAgreeWithAHashMap() {
        long seed = new SplittableRandom().nextLong();
        System.out.println("LongMapTest clustered seed=" + seed);
        SplittableRandom random = new SplittableRandom(seed);
        java.util.List<Long> keys = new java.util.ArrayList<>();
        for (int slot = 1; slot <= 3000; slot++) {
            keys.add(dev.jtecs.entity.Entity.pack(slot, 0));
        }
        for (int stride : new int[] {8, 64, 1024, 65_536}) {
            for (int i = 1; i <= 40; i++) {
                keys.add(dev.jtecs.entity.Entity.pack(i * stride, 1));
            }
        }
        for (int generation = 0; generation < 200; generation++) {
            keys.add(dev.jtecs.entity.Entity.pack(17, generation));
        }
        LongMap<Long> map = new LongMap<>();
        Map<Long, Long> model = new HashMap<>();
        for (int step = 0; step < 40_000; step++) {
            long key = keys.get(random.nextInt(keys.size()));
            switch (random.nextInt(3)) {
                case 0 -> {
                    map.put(key, (long) step);
                    model.put(key, (long) step);
                }
                case 1 -> assertEquals(model.remove(key), map.remove(key), "seed=" + seed + " step=" + step);
                default -> assertEquals(model.get(key), map.get(key), "seed=" + seed + " step=" + step);
            }
        }
        assertEquals(model.size(), map.size(), "seed=" + seed);
        for (long key : keys) {
            assertEquals(model.get(key), map.get(key), "seed=" + seed);
        }
    }

    @Test
    void aFailedGrowthLosesNoEntry() {
        LongMap<String> map = new LongMap<>();
        for (long key = 1; key <= 8; key++) {
            map.put(key, "v" + key); // the ninth key doubles the table
        }
        for (int k = 1; k <= 2; k++) { // the keys, then the values
            dev.jtecs.entity.internal.AllocationFaults.failAt(dev.jtecs.entity.internal.AllocationFaults.Kind.HEAP, k);
            try {
                assertThrows(OutOfMemoryError.class, () -> map.put(9, "v9"));
            } finally {
                dev.jtecs.entity.internal.AllocationFaults.disarm();
            }
            assertEquals(8, map.size(), "k=" + k);
            for (long key = 1; key <= 8; key++) {
                assertEquals("v" + key, map.get(key), "k=" + k + " key=" + key);
            }
            assertNull(map.get(9));
        }
        map.put(9, "v9");
        assertEquals(9, map.size());
    }

    /**
     * A retain into tables made before allocates nothing and changes the map only once every entry is judged: a
     * judge that throws leaves every entry; tables made for another capacity, or used once, are refused.
     */
    @Test
    void aPreparedRetainChangesTheMapOnlyWhenDone() {
        LongMap<Long> map = new LongMap<>();
        for (long key = 1; key <= 20; key++) {
            map.put(key, key);
        }
        LongMap.Retain fresh = map.prepareRetain();
        org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class, () -> map.retain(fresh, value -> {
            if (value == 13) {
                throw new IllegalStateException("the judge fails half way");
            }
            return value % 2 == 0;
        }));
        assertEquals(20, map.size());
        for (long key = 1; key <= 20; key++) {
            assertEquals(key, map.get(key), "every entry stays");
        }
        LongMap.Retain again = map.prepareRetain();
        map.retain(again, value -> value % 2 == 0);
        assertEquals(10, map.size());
        for (long key = 1; key <= 20; key++) {
            assertEquals(key % 2 == 0 ? Long.valueOf(key) : null, map.get(key));
        }
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> map.retain(again, value -> true), "tables used once");
        LongMap<Long> small = new LongMap<>();
        small.put(1, 1L);
        LongMap.Retain other = small.prepareRetain();
        for (long key = 21; key <= 40; key++) {
            map.put(key, key); // the map grows past the tables made for it
        }
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> map.retain(other, value -> true), "tables of another capacity");
        assertEquals(30, map.size(), "a refused retain changes nothing");
    }
}
