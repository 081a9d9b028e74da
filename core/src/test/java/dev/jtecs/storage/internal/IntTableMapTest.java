package dev.jtecs.storage.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.jtecs.component.Component;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class IntTableMapTest {
    @Test
    void behavesLikeAHashMapUnderRandomKeys() {
        long seed = 77;
        SplittableRandom random = new SplittableRandom(seed);
        try (NativeMemory memory = new NativeMemory()) {
            Table[] tables = new Table[8];
            for (int i = 0; i < tables.length; i++) {
                tables[i] = new Table(i, new Component<?>[0], memory);
            }
            IntTableMap map = new IntTableMap();
            Map<Integer, Table> reference = new HashMap<>();
            for (int i = 0; i < 5000; i++) {
                int key = random.nextInt(-50, 2000);
                if (random.nextBoolean()) {
                    Table value = tables[random.nextInt(tables.length)];
                    map.put(key, value);
                    reference.put(key, value);
                } else {
                    assertSame(reference.get(key), map.get(key), "seed=" + seed + " key=" + key);
                }
            }
            assertEquals(reference.size(), map.size());
            reference.forEach((key, value) -> assertSame(value, map.get(key)));
            assertNull(map.get(5000));
        }
    }

    @Test
    void aGrowthThatCannotAllocateLeavesTheMapAsItWas() {
        try (NativeMemory memory = new NativeMemory()) {
            Table a = new Table(1, new Component<?>[0], memory);
            Table b = new Table(2, new Component<?>[0], memory);
            IntTableMap map = new IntTableMap();
            for (int key = 0; key < 4; key++) { // 4 keys in 8 cells: the fifth grows the map
                map.put(key, key == 1 ? b : a);
            }
            for (int k = 1; k <= 2; k++) { // the keys' array, then the values': fail each in turn
                failHeapAt(k);
                assertThrows(OutOfMemoryError.class, () -> map.put(4, a), "fault " + k + " of the growth");
                assertHolds(map, a, b);
                failHeapAt(k);
                assertThrows(OutOfMemoryError.class, () -> map.without(java.util.Set.of(b)),
                        "fault " + k + " of a map built without b");
                assertHolds(map, a, b);
            }
            map.put(4, a);
            map.take(map.without(java.util.Set.of(b)));
            assertEquals(4, map.size());
            assertNull(map.get(1));
            assertSame(a, map.get(4));
        } finally {
            dev.jtecs.entity.internal.AllocationFaults.disarm();
        }
    }

    private static void failHeapAt(int k) {
        dev.jtecs.entity.internal.AllocationFaults.failAt(dev.jtecs.entity.internal.AllocationFaults.Kind.HEAP, k);
    }

    private static void assertHolds(IntTableMap map, Table a, Table b) {
        assertEquals(4, map.size());
        assertSame(a, map.get(0));
        assertSame(b, map.get(1));
        assertSame(a, map.get(2));
        assertSame(a, map.get(3));
        assertNull(map.get(4));
    }

    @Test
    void reservedKeyIsRejected() {
        assertThrows(IllegalArgumentException.class, () -> new IntTableMap().put(Integer.MIN_VALUE, null));
    }

    @Test
    void aMapWithoutSomeValuesDropsExactlyTheirKeys() {
        try (NativeMemory memory = new NativeMemory()) {
            Table kept = new Table(1, new Component<?>[0], memory);
            Table dropped = new Table(2, new Component<?>[0], memory);
            IntTableMap map = new IntTableMap();
            for (int key = -5; key < 40; key++) {
                map.put(key, key % 3 == 0 ? dropped : kept);
            }
            IntTableMap before = map.without(java.util.Set.of());
            assertEquals(45, before.size(), "built apart: the map itself is unchanged");
            map.take(map.without(java.util.Set.of(dropped)));
            for (int key = -5; key < 40; key++) {
                if (key % 3 == 0) {
                    assertNull(map.get(key), "key " + key);
                } else {
                    assertSame(kept, map.get(key), "key " + key);
                }
            }
            assertEquals(30, map.size());
            java.util.List<Table> values = new java.util.ArrayList<>();
            map.forEachValue(values::add);
            assertEquals(30, values.size());
            map.take(map.without(java.util.Set.of(dropped))); // nothing left to drop
            assertEquals(30, map.size());
            assertEquals(45, before.size());
        }
    }
}
