package dev.jtecs.storage.internal;

import dev.jtecs.entity.internal.Growth;

/**
 * An open-addressing map from an entity id ({@code long}, never 0) to a value, with linear probing and
 * backward-shift deletion: lookups on traversal and relationship paths allocate nothing (no boxed keys).
 *
 * @param <V> the value type
 */
final class LongMap<V> {
    private long[] keys = new long[16];
    private Object[] values = new Object[16];
    private int size;

    @SuppressWarnings("unchecked")
    V get(long key) {
        int mask = keys.length - 1;
        for (int i = mix(key) & mask; ; i = (i + 1) & mask) {
            long k = keys[i];
            if (k == key) {
                return (V) values[i];
            }
            if (k == 0) {
                return null;
            }
        }
    }

    /**
     * Maps {@code key} to {@code value} (replacing any earlier value).
     *
     * @throws IllegalArgumentException for key 0, which marks empty buckets
     */
    void put(long key, V value) {
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

    /** Removes {@code key}; returns its value, or {@code null} when absent. */
    @SuppressWarnings("unchecked")
    V remove(long key) {
        int mask = keys.length - 1;
        int i = mix(key) & mask;
        while (keys[i] != key) {
            if (keys[i] == 0) {
                return null;
            }
            i = (i + 1) & mask;
        }
        V removed = (V) values[i];
        // backward-shift: pull later entries of the probe run into the hole so lookups never stop early
        int hole = i;
        for (int j = (hole + 1) & mask; keys[j] != 0; j = (j + 1) & mask) {
            int home = mix(keys[j]) & mask;
            if (((j - home) & mask) >= ((j - hole) & mask)) {
                keys[hole] = keys[j];
                values[hole] = values[j];
                hole = j;
            }
        }
        keys[hole] = 0;
        values[hole] = null;
        size--;
        return removed;
    }

    /** Doubles the table: both arrays allocated before anything changes, so a failed growth loses no entry. */
    private void grow() {
        long[] oldKeys = keys;
        Object[] oldValues = values;
        long[] grownKeys = Growth.newLongs(oldKeys.length * 2);
        Object[] grownValues = Growth.newObjects(oldKeys.length * 2);
        keys = grownKeys;
        values = grownValues;
        size = 0;
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldKeys[i] != 0) {
                @SuppressWarnings("unchecked")
                V value = (V) oldValues[i];
                put(oldKeys[i], value);
            }
        }
    }

    int size() {
        return size;
    }

    /** What {@link #forEach} hands each entry to. */
    interface EntryVisitor<V> {
        void entry(long key, V value);
    }

    /** Visits every entry, in table order; the visitor must not change the map. Allocates nothing. */
    @SuppressWarnings("unchecked")
    void forEach(EntryVisitor<? super V> visitor) {
        long[] keys = this.keys;
        Object[] values = this.values;
        for (int i = 0; i < keys.length; i++) {
            if (keys[i] != 0) {
                visitor.entry(keys[i], (V) values[i]);
            }
        }
    }

    /**
     * The tables a later {@link #retain(Retain, java.util.function.Predicate)} fills, allocated now, so that the
     * retain allocates nothing: a caller that rebuilds several maps together allocates for all of them before it
     * changes any.
     */
    Retain prepareRetain() {
        long[] freshKeys = Growth.newLongs(keys.length);
        Object[] freshValues = Growth.newObjects(keys.length);
        return new Retain(freshKeys, freshValues);
    }

    /** Fresh tables of a map's present capacity ({@link #prepareRetain}), for one retain. */
    static final class Retain {
        private final long[] keys;
        private final Object[] values;
        private boolean used;

        private Retain(long[] keys, Object[] values) {
            this.keys = keys;
            this.values = values;
        }
    }

    /**
     * Keeps only the entries whose value {@code keep} accepts (a rebuild: for maintenance), into tables made before by
     * {@link #prepareRetain}: allocates nothing, and the map changes only once {@code keep} has judged every entry
     * (one that throws leaves it whole).
     *
     * @throws IllegalArgumentException when {@code fresh} was made for another capacity, or was used already
     */
    @SuppressWarnings("unchecked")
    void retain(Retain fresh, java.util.function.Predicate<? super V> keep) {
        if (fresh.used || fresh.keys.length != keys.length) {
            throw new IllegalArgumentException("tables made for another capacity, or used already: "
                    + fresh.keys.length + " slots for a map of " + keys.length);
        }
        long[] oldKeys = keys;
        Object[] oldValues = values;
        long[] freshKeys = fresh.keys;
        Object[] freshValues = fresh.values;
        int mask = freshKeys.length - 1;
        int kept = 0;
        for (int i = 0; i < oldKeys.length; i++) {
            long key = oldKeys[i];
            if (key != 0 && keep.test((V) oldValues[i])) {
                int at = mix(key) & mask;
                while (freshKeys[at] != 0) { // as many slots as before and no more entries: a free one is near
                    at = (at + 1) & mask;
                }
                freshKeys[at] = key;
                freshValues[at] = oldValues[i];
                kept++;
            }
        }
        fresh.used = true;
        keys = freshKeys;
        values = freshValues;
        size = kept;
    }

    private static int mix(long key) {
        long h = key * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32));
    }

    @Override
    public String toString() {
        return "LongMap[" + size + " of " + keys.length + "]";
    }
}
