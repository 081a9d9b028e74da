package dev.jtecs.entity;

/**
 * Packed entity identifiers: a {@code long} that carries a slot index and a generation.
 *
 * <p>Layout: bits 0..31 hold the slot index (only values below {@link #MAX_ENTITIES} + 1 are ever used), bits
 * 32..62 hold the generation, bit 63 is always zero, so every valid id is positive. Slot 0 is never an entity:
 * the id {@code 0} ({@link #WORLD}) addresses the world itself, for events. A fresh slot starts at generation
 * 0, so the first entities of a new world are simply {@code 1, 2, 3, ...}; each time a slot is freed its
 * generation is bumped so that handles to the previous occupant are rejected.
 *
 * <pre>
 *  63 62                       32 31                         0
 * +--+---------------------------+----------------------------+
 * | 0|       generation (31)     |        slot index (32)      |
 * +--+---------------------------+----------------------------+
 * </pre>
 */
public final class Entity {
    /** The address of the world itself; never an entity. */
    public static final long WORLD = 0L;
    /** The greatest entity capacity the packed format supports (slots {@code 1..MAX_ENTITIES}). */
    public static final int MAX_ENTITIES = (1 << 30) - 1;
    /** The capacity a world gets when its configuration names none. */
    public static final int DEFAULT_MAX_ENTITIES = 1 << 22;
    /** The greatest generation; a slot whose generation would pass it is retired and never reused. */
    public static final int MAX_GENERATION = Integer.MAX_VALUE;

    private static final long SLOT_MASK = 0xFFFF_FFFFL;

    private Entity() {}

    /** Packs a slot index and a generation into an id. */
    public static long pack(int slot, int generation) {
        if (slot <= 0 || slot > MAX_ENTITIES) {
            throw new IllegalArgumentException("slot=" + slot + " outside 1.." + MAX_ENTITIES);
        }
        if (generation < 0) {
            throw new IllegalArgumentException("generation=" + generation + " is negative");
        }
        return ((long) generation << 32) | slot;
    }

    /** The slot index of an id; meaningful only for ids that {@link #isWellFormed} accepts. */
    public static int slot(long id) {
        return (int) (id & SLOT_MASK);
    }

    /** The generation of an id; meaningful only for ids that {@link #isWellFormed} accepts. */
    public static int generation(long id) {
        return (int) (id >>> 32);
    }

    /** Whether an id could name an entity at all: positive, with a slot in {@code 1..MAX_ENTITIES}. */
    public static boolean isWellFormed(long id) {
        if (id <= 0) {
            return false;
        }
        long slot = id & SLOT_MASK;
        return slot != 0 && slot <= MAX_ENTITIES;
    }

    /** A human-readable form, {@code slot#generation}, as used in error messages. */
    public static String toString(long id) {
        if (!isWellFormed(id)) {
            return id == WORLD ? "world(0)" : "malformed(" + id + ")";
        }
        return slot(id) + "#" + generation(id);
    }
}
