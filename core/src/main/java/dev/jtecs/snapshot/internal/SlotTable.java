package dev.jtecs.snapshot.internal;

import java.util.Arrays;

/**
 * The generation and position of each entity slot a snapshot names (its restored entities, or its free slots),
 * sized by how many slots the input names and never by {@code nextEntityId} alone. A whole world saved names
 * every slot below {@code nextEntityId} (alive or free), so a direct array over {@code [0, nextEntityId)} is then
 * at most a few times what the input holds and is used; a filtered save of a large world, or an input that
 * claims a large {@code nextEntityId} and holds little, gets an open-addressing hash of twice the named slots
 * instead.
 *
 * <pre>
 *   direct  when nextEntityId <= 4 * named + 1024   4 bytes per slot below nextEntityId while generation and
 *                                                    position fit in 32 bits together, else 8
 *   hashed  otherwise                                24 bytes per named slot at most (keys and values, half full)
 * </pre>
 *
 * <p>Every named slot takes at least 8 input bytes (an id, or a free slot's pair), so either form allocates at
 * most a small multiple of the input.
 *
 * <p>The position is where the input named the slot (a restored entity's index over all frames, in order): with
 * it the slots come back {@link #layout in slot order}, each with its frame row, so the entity index is written
 * in slot order rather than in the snapshot's row order, which a saved world's moves leave scattered. A cell is
 * {@code (generation + 1) << 32 | position}, and 0 for an empty one, so a fresh array needs no fill.
 *
 * <p>Recording the ids is a write per id at a slot the snapshot's row order scatters, so the direct form's size
 * is what it costs: while every generation and position fit, it packs a cell into an {@code int}
 * ({@code generation << positionBits | position + 1}, where {@code positionBits} holds {@code named}) and holds
 * half the bytes; the first cell that does not fit widens it to {@code long}s once. A table given a
 * {@link LoadScratch} takes its packed cells from there (a reused array, possibly longer than {@code highWater},
 * of which it reads and writes only {@code [0, highWater)}).
 */
final class SlotTable {
    static final int ABSENT = -1;
    /** Slots below this many are always held directly: a small world's table is one small array. */
    private static final int DIRECT_FLOOR = 1024;

    private final int highWater;
    private final int positionBits; // of a packed cell, 0..31: positions below 2^positionBits - 1
    private int[] packed; // packed cell by slot below highWater, 0 for none; null once widened, or when hashed
    private long[] direct; // cell by slot, 0 for none; null while packed, or when hashed
    private final int[] keys; // slot + 1, 0 for an empty cell; null when direct
    private final long[] values;
    private int size;

    /**
     * A table for up to {@code named} slots in {@code [1, highWater)}.
     *
     * @param named how many slots the input names (entities or free slots it holds), not what it claims
     */
    SlotTable(int highWater, int named) {
        this(highWater, named, null);
    }

    /**
     * A table for up to {@code named} slots in {@code [1, highWater)} whose direct form takes its packed cells from
     * {@code scratch} ({@code null}: a fresh array).
     */
    SlotTable(int highWater, int named, LoadScratch scratch) {
        if (named < 0) {
            throw new IllegalArgumentException("named=" + named + " must not be negative");
        }
        this.highWater = highWater;
        this.positionBits = 32 - Integer.numberOfLeadingZeros(named); // named + 1 positions and 0 fit
        if (highWater <= 4L * named + DIRECT_FLOOR) {
            packed = scratch != null ? scratch.cells(highWater) : new int[highWater];
            keys = null;
            values = null;
        } else {
            int capacity = Integer.highestOneBit(Math.max(2, 2 * named - 1)) << 1; // a power of two >= 2 * named
            direct = null;
            keys = new int[capacity];
            values = new long[capacity];
        }
    }

    /** Whether the table is a direct array (what the tests check about its size). */
    boolean isDirect() {
        return keys == null;
    }

    /** Whether the direct array still packs its cells into ints. */
    boolean isPacked() {
        return packed != null;
    }

    /** How many cells the table uses: {@code highWater} when direct, its hash capacity when hashed. */
    int cells() {
        return keys == null ? highWater : keys.length;
    }

    int size() {
        return size;
    }

    /** {@link #add(int, int, int)} at position 0 (a free slot, whose position nothing reads). */
    boolean add(int slot, int generation) {
        return add(slot, generation, 0);
    }

    /**
     * Records a slot's generation (not negative) and position.
     *
     * @return {@code false} when the slot is recorded already (nothing changes then)
     * @throws IllegalStateException when more slots are added than the table was sized for, or one outside
     *     {@code [1, highWater)} (the caller checks both first)
     */
    boolean add(int slot, int generation, int position) {
        if (slot < 1 || slot >= highWater) {
            throw new IllegalStateException("slot " + slot + " is outside 1.." + (highWater - 1));
        }
        if (packed != null) {
            if (packed[slot] != 0) {
                return false;
            }
            if (position + 1 >>> positionBits == 0 && position >= 0
                    && generation >>> (32 - positionBits) == 0) { // both fit: the usual case
                packed[slot] = generation << positionBits | position + 1;
                size++;
                return true;
            }
            widen();
        }
        long cell = ((long) generation + 1) << 32 | (position & 0xFFFF_FFFFL);
        if (direct != null) {
            if (direct[slot] != 0) {
                return false;
            }
            direct[slot] = cell;
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
                values[i] = cell;
                size++;
                return true;
            }
            if (keys[i] == slot + 1) {
                return false;
            }
        }
    }

    /**
     * Records the ids {@code ids[from, to)}, id {@code ids[i]} at position {@code position + i}, for as long as
     * each one takes the packed fast path: well formed, its slot inside {@code [1, highWater)}, its generation and
     * position fitting a packed cell. Returns the index of the first id it did not record ({@code to} when it
     * recorded them all); the caller takes that one through its checks and {@link #add}, which names what is wrong
     * with it or records it in the general form, and then continues here.
     *
     * <p>This is the loop a binary load spends its id phase in, and the snapshot's rows name their slots in an
     * order the saved world's moves scattered, so it writes each cell without reading it first: a read of a cold
     * cell before the write made every scattered id wait for memory, and this loop about two and a half times as
     * slow. So it does not look for a slot recorded already: a second id of the same slot overwrites the first
     * one's cell. {@link #layout} finds that afterwards (it lays out fewer slots than were recorded), and the
     * caller then looks for the duplicate to name it.
     */
    int addPacked(long[] ids, int from, int to, int position) {
        int[] cells = packed;
        int bits = positionBits;
        if (cells == null || (position + to) >>> bits != 0) { // the last position fits, so all of them do
            return from;
        }
        int generationShift = 32 - bits;
        int lastSlot = highWater - 1;
        int i = from;
        for (; i < to; i++) {
            long id = ids[i];
            int slot = (int) id;
            // id > 0 with a slot in [1, highWater), where highWater <= MAX_ENTITIES + 1: a well-formed id
            if (id <= 0 || Integer.compareUnsigned(slot - 1, lastSlot) >= 0
                    || (int) (id >>> 32) >>> generationShift != 0) {
                break;
            }
            cells[slot] = (int) (id >>> 32) << bits | position + i + 1;
        }
        size += i - from;
        return i;
    }

    /** Turns the packed cells into long ones (once: the first cell that does not fit in an int). */
    private void widen() {
        long[] wide = new long[highWater];
        for (int slot = 0; slot < highWater; slot++) {
            if (packed[slot] != 0) {
                wide[slot] = unpack(packed[slot]);
            }
        }
        direct = wide;
        packed = null;
    }

    /** The long cell of a nonzero packed one. */
    private long unpack(int cell) {
        long generation = cell >>> positionBits; // positionBits is below 32: named is an int
        long position = (cell & (int) ((1L << positionBits) - 1)) - 1;
        return (generation + 1) << 32 | position;
    }

    /** The cell recorded for a slot, or 0. */
    private long cell(int slot) {
        if (slot < 1 || slot >= highWater) {
            return 0;
        }
        if (packed != null) {
            return packed[slot] == 0 ? 0 : unpack(packed[slot]);
        }
        if (direct != null) {
            return direct[slot];
        }
        int mask = keys.length - 1;
        for (int i = hash(slot) & mask; ; i = (i + 1) & mask) {
            if (keys[i] == 0) {
                return 0;
            }
            if (keys[i] == slot + 1) {
                return values[i];
            }
        }
    }

    private static int generationOf(long cell) {
        return (int) ((cell >>> 32) - 1);
    }

    /** The generation recorded for a slot, or {@link #ABSENT}. */
    int generation(int slot) {
        long cell = cell(slot);
        return cell == 0 ? ABSENT : generationOf(cell);
    }

    /** The position recorded for a slot, or {@link #ABSENT}. */
    int position(int slot) {
        long cell = cell(slot);
        return cell == 0 ? ABSENT : (int) cell;
    }

    boolean contains(int slot) {
        return cell(slot) != 0;
    }

    /** The recorded slots, ascending. */
    int[] slots() {
        int[] out = new int[size];
        return Arrays.copyOf(out, layout(out, null, null));
    }

    /**
     * Writes the recorded slots ascending into {@code slots}, and (where not {@code null}) each one's generation
     * and position in the same order; each array holds {@link #size()} elements at least.
     *
     * @return how many slots it wrote: {@link #size()}, or fewer when {@link #addPacked} recorded a slot twice
     */
    int layout(int[] slots, int[] generations, int[] positions) {
        int n = 0;
        if (packed != null) {
            int mask = (int) ((1L << positionBits) - 1);
            for (int slot = 1; slot < highWater; slot++) {
                int cell = packed[slot];
                if (cell != 0) {
                    slots[n] = slot;
                    if (generations != null) {
                        generations[n] = cell >>> positionBits;
                    }
                    if (positions != null) {
                        positions[n] = (cell & mask) - 1;
                    }
                    n++;
                }
            }
            return n;
        }
        if (direct != null) {
            for (int slot = 1; slot < direct.length; slot++) {
                long cell = direct[slot];
                if (cell != 0) {
                    slots[n] = slot;
                    if (generations != null) {
                        generations[n] = generationOf(cell);
                    }
                    if (positions != null) {
                        positions[n] = (int) cell;
                    }
                    n++;
                }
            }
            return n;
        }
        for (int key : keys) {
            if (key != 0) {
                slots[n++] = key - 1;
            }
        }
        Arrays.sort(slots, 0, n);
        for (int i = 0; i < n; i++) {
            long cell = cell(slots[i]);
            if (generations != null) {
                generations[i] = generationOf(cell);
            }
            if (positions != null) {
                positions[i] = (int) cell;
            }
        }
        return n;
    }

    private static int hash(int slot) {
        int h = slot * 0x9E3779B9;
        return h ^ (h >>> 16);
    }
}
