package dev.jtecs.storage.internal;

import dev.jtecs.component.PairComponent;
import java.util.Arrays;

/**
 * An open-addressing map from an entity id ({@code long}, never 0) to a pair component: target lookups on
 * traversal paths allocate nothing (no boxed keys).
 */
final class LongPairMap {
    private long[] keys = new long[16];
    private PairComponent[] values = new PairComponent[16];
    private int size;

    PairComponent get(long key) {
        int mask = keys.length - 1;
        for (int i = mix(key) & mask; ; i = (i + 1) & mask) {
            long k = keys[i];
            if (k == key) {
                return values[i];
            }
            if (k == 0) {
                return null;
            }
        }
    }

    void put(long key, PairComponent value) {
        if (key == 0) {
            throw new IllegalArgumentException("key 0 is reserved");
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
            if (keys[i] == 0) {
                keys[i] = key;
                values[i] = value;
                size++;
                return;
            }
        }
    }

    private void grow() {
        long[] oldKeys = keys;
        PairComponent[] oldValues = values;
        keys = new long[oldKeys.length * 2];
        values = new PairComponent[oldKeys.length * 2];
        size = 0;
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldKeys[i] != 0) {
                put(oldKeys[i], oldValues[i]);
            }
        }
    }

    int size() {
        return size;
    }

    /** Keeps only the entries whose pair {@code keep} accepts (a rebuild: for maintenance). */
    void retain(java.util.function.Predicate<PairComponent> keep) {
        long[] oldKeys = keys;
        PairComponent[] oldValues = values;
        keys = new long[oldKeys.length];
        values = new PairComponent[oldKeys.length];
        size = 0;
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldKeys[i] != 0 && keep.test(oldValues[i])) {
                put(oldKeys[i], oldValues[i]);
            }
        }
    }

    private static int mix(long key) {
        long h = key * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32));
    }

    @Override
    public String toString() {
        return "LongPairMap[" + size + " of " + Arrays.stream(keys).filter(k -> k != 0).count() + "]";
    }
}
