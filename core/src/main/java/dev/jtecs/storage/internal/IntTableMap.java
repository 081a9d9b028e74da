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

    private int[] keys = new int[8];
    private Table[] values = new Table[8];
    private int size;

    IntTableMap() {
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

    /** Drops every entry whose value is {@code table} (a rebuild: for maintenance, not hot paths). */
    void removeValue(Table table) {
        int[] oldKeys = keys;
        Table[] oldValues = values;
        // both before either is installed: a failure changes nothing
        int[] freshKeys = Growth.copyOf(NO_KEYS, oldKeys.length);
        Table[] freshValues = Growth.copyOf(NO_VALUES, oldKeys.length);
        keys = freshKeys;
        values = freshValues;
        Arrays.fill(keys, EMPTY);
        size = 0;
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldKeys[i] != EMPTY && oldValues[i] != table) {
                put(oldKeys[i], oldValues[i]);
            }
        }
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
        int[] freshKeys = Growth.copyOf(NO_KEYS, oldKeys.length * 2); // both first (see removeValue)
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
