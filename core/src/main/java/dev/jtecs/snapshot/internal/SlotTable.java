package dev.jtecs.snapshot.internal;

import java.util.Arrays;

/**
 * The generation of each entity slot a snapshot names (its restored entities, or its free slots), sized by how
 * many slots the input names and never by {@code nextEntityId} alone. A whole world saved names every slot below
 * {@code nextEntityId} (alive or free), so a direct array over {@code [0, nextEntityId)} is then at most a few
 * times what the input holds and is used; a filtered save of a large world, or an input that claims a large
 * {@code nextEntityId} and holds little, gets an open-addressing hash of twice the named slots instead.
 *
 * <pre>
 *   direct  when nextEntityId <= 4 * named + 1024   4 bytes per slot below nextEntityId
 *   hashed  otherwise                                16 bytes per named slot at most (keys and values, half full)
 * </pre>
 *
 * <p>Every named slot takes at least 8 input bytes (an id, or a free slot's pair), so either form allocates at
 * most a small multiple of the input.
 */
final class SlotTable {
    static final int ABSENT = -1;
    /** Slots below this many are always held directly: a small world's table is one small array. */
    private static final int DIRECT_FLOOR = 1024;

    private final int highWater;
    private final int[] direct; // generation by slot, ABSENT for none; null when hashed
    private final int[] keys; // slot + 1, 0 for an empty cell; null when direct
    private final int[] values;
    private int size;

    /**
     * A table for up to {@code named} slots in {@code [1, highWater)}.
     *
     * @param named how many slots the input names (entities or free slots it holds), not what it claims
     */
    SlotTable(int highWater, int named) {
        if (named < 0) {
            throw new IllegalArgumentException("named=" + named + " must not be negative");
        }
        this.highWater = highWater;
        if (highWater <= 4L * named + DIRECT_FLOOR) {
            direct = new int[highWater];
            Arrays.fill(direct, ABSENT);
            keys = null;
            values = null;
        } else {
            int capacity = Integer.highestOneBit(Math.max(2, 2 * named - 1)) << 1; // a power of two >= 2 * named
            direct = null;
            keys = new int[capacity];
            values = new int[capacity];
        }
    }

    /** Whether the table is a direct array (what the tests check about its size). */
    boolean isDirect() {
        return direct != null;
    }

    /** How many cells the table holds: its allocation in ints, per array. */
    int cells() {
        return direct != null ? direct.length : keys.length;
    }

    int size() {
        return size;
    }

    /**
     * Records a slot's generation.
     *
     * @return {@code false} when the slot is recorded already (nothing changes then)
     * @throws IllegalStateException when more slots are added than the table was sized for, or one outside
     *     {@code [1, highWater)} (the caller checks both first)
     */
    boolean add(int slot, int generation) {
        if (slot < 1 || slot >= highWater) {
            throw new IllegalStateException("slot " + slot + " is outside 1.." + (highWater - 1));
        }
        if (direct != null) {
            if (direct[slot] != ABSENT) {
                return false;
            }
            direct[slot] = generation;
            size++;
            return true;
        }
        int mask = keys.length - 1;
        for (int i = hash(slot) & mask; ; i = (i + 1) & mask) {
            if (keys[i] == 0) {
                if (2 * (size + 1) > keys.length) {
                    throw new IllegalStateException("more slots than the " + keys.length / 2 + " it was sized for");
                }
                keys[i] = slot + 1;
                values[i] = generation;
                size++;
                return true;
            }
            if (keys[i] == slot + 1) {
                return false;
            }
        }
    }

    /** The generation recorded for a slot, or {@link #ABSENT}. */
    int generation(int slot) {
        if (slot < 1 || slot >= highWater) {
            return ABSENT;
        }
        if (direct != null) {
            return direct[slot];
        }
        int mask = keys.length - 1;
        for (int i = hash(slot) & mask; ; i = (i + 1) & mask) {
            if (keys[i] == 0) {
                return ABSENT;
            }
            if (keys[i] == slot + 1) {
                return values[i];
            }
        }
    }

    boolean contains(int slot) {
        return generation(slot) != ABSENT;
    }

    /** The recorded slots, ascending. */
    int[] slots() {
        int[] out = new int[size];
        int n = 0;
        if (direct != null) {
            for (int slot = 1; slot < direct.length; slot++) {
                if (direct[slot] != ABSENT) {
                    out[n++] = slot;
                }
            }
            return out;
        }
        for (int key : keys) {
            if (key != 0) {
                out[n++] = key - 1;
            }
        }
        Arrays.sort(out);
        return out;
    }

    /** The generations recorded for {@code slots} (each one recorded), in their order. */
    int[] generations(int[] slots) {
        int[] out = new int[slots.length];
        if (direct != null) {
            for (int i = 0; i < slots.length; i++) {
                out[i] = direct[slots[i]];
            }
        } else {
            for (int i = 0; i < slots.length; i++) {
                out[i] = generation(slots[i]);
            }
        }
        return out;
    }

    private static int hash(int slot) {
        int h = slot * 0x9E3779B9;
        return h ^ (h >>> 16);
    }
}
