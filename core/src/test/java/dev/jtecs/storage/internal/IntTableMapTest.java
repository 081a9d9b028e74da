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
    void reservedKeyIsRejected() {
        assertThrows(IllegalArgumentException.class, () -> new IntTableMap().put(Integer.MIN_VALUE, null));
    }

    @Test
    void removingAValueDropsExactlyItsKeys() {
        try (NativeMemory memory = new NativeMemory()) {
            Table kept = new Table(1, new Component<?>[0], memory);
            Table dropped = new Table(2, new Component<?>[0], memory);
            IntTableMap map = new IntTableMap();
            for (int key = -5; key < 40; key++) {
                map.put(key, key % 3 == 0 ? dropped : kept);
            }
            map.removeValue(dropped);
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
            map.removeValue(dropped); // nothing left to drop
            assertEquals(30, map.size());
        }
    }
}
