package dev.jtecs.storage.internal;

import dev.jtecs.entity.internal.Growth;
import java.util.Arrays;

/**
 * An open-addressing map from {@code int} keys to tables, for archetype-graph edges: lookups neither box nor
 * allocate. Keys are component ids (never {@link #EMPTY}).
 */
final class IntTableMap {
    private static final int EMPTY = Integer.MIN_VALUE;
    private static final int[] NO_KEYS = new int[0];
    private static final Table[] NO_VALUES = new Table[0];

    private int[] keys;
    private Table[] values;
    private int size;

    IntTableMap() {
        this(8);
    }

    private IntTableMap(int cells) {
        keys = Growth.copyOf(NO_KEYS, cells);
        values = Growth.copyOf(NO_VALUES, cells);
        Arrays.fill(keys, EMPTY);
    }

    Table get(int key) {
        int mask = keys.length - 1;
        for (int i = mix(key) & mask; ; i = (i + 1) & mask) {
            int k = keys[i];
            if (k == key) {
                return values[i];
            }
            if (k == EMPTY) {
                return null;
            }
        }
    }

    void put(int key, Table value) {
        if (key == EMPTY) {
            throw new IllegalArgumentException("key=" + key + " is reserved");
        }
        if ((size + 1) * 2 > keys.length) {
            grow();
        }
        int mask = keys.length - 1;
        for (int i = mix(key) & mask; ; i = (i + 1) & mask) {
            if (keys[i] == key) {
                values[i] = value;
                return;
            }
            if (keys[i] == EMPTY) {
                keys[i] = key;
                values[i] = value;
                size++;
                return;
            }
        }
    }

    int size() {
        return size;
    }

    /**
     * This map without the entries whose value is in {@code gone}, built apart (the same number of cells, so no
     * growth): {@link #take} installs it. Compaction builds every such map before it changes anything.
     */
    IntTableMap without(java.util.Set<Table> gone) {
        IntTableMap rebuilt = new IntTableMap(keys.length);
        for (int i = 0; i < keys.length; i++) {
            if (keys[i] != EMPTY && !gone.contains(values[i])) {
                rebuilt.put(keys[i], values[i]);
            }
        }
        return rebuilt;
    }

    /** Takes {@code rebuilt}'s entries in place of this map's: allocates nothing. */
    void take(IntTableMap rebuilt) {
        keys = rebuilt.keys;
        values = rebuilt.values;
        size = rebuilt.size;
    }

    /** Every value, with repeats when several keys map to one table. */
    void forEachValue(java.util.function.Consumer<Table> action) {
        for (int i = 0; i < keys.length; i++) {
            if (keys[i] != EMPTY) {
                action.accept(values[i]);
            }
        }
    }

    private void grow() {
        int[] oldKeys = keys;
        Table[] oldValues = values;
        int[] freshKeys = Growth.copyOf(NO_KEYS, oldKeys.length * 2); // both before either is installed
        Table[] freshValues = Growth.copyOf(NO_VALUES, oldKeys.length * 2);
        keys = freshKeys;
        values = freshValues;
        Arrays.fill(keys, EMPTY);
        size = 0;
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldKeys[i] != EMPTY) {
                put(oldKeys[i], oldValues[i]);
            }
        }
    }

    private static int mix(int key) {
        int h = key * 0x9E3779B9;
        return h ^ (h >>> 16);
    }
}
