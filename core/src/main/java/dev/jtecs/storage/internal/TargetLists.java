package dev.jtecs.storage.internal;

import dev.jtecs.entity.Entity;
import dev.jtecs.entity.internal.Growth;

/**
 * A sparse relationship's reverse index: the source list of each target id, held by the target's slot. The list
 * of the id living in a slot sits in that slot's cell, so finding it is one array read at the slot and one at the
 * list (which the caller reads next anyway), and targets in neighbouring slots (the parents of one spawn batch, a
 * cascade going down them) have neighbouring cells; a hashed map scatters them over its table, a cache miss each.
 * A second id with a list for a slot whose cell is taken (a dead target whose sources have not been settled yet,
 * beside the slot's new entity) goes to a hashed map beside the cells ({@code others}), which lookups read only
 * while it holds something.
 *
 * <pre>
 *   lists[slot]      the list of the target whose list is in the cell (null: none)   a reference a slot, up to
 *                                                                                      the highest target
 *   list[0]          low 32 bits: the number of sources (the list's own business)
 *                    high 32 bits: its target's generation + 1 (written here, on put: which id owns the cell)
 *   others           target id -> list, for ids whose slot's cell is taken (rare: empty in a settled world)
 * </pre>
 *
 * <p>A list's first element is its header: the caller keeps the count in its low 32 bits and leaves the high 32
 * bits as they are ({@code list[0] + 1} to count one more, {@code (int) list[0]} to read the count); {@link #put}
 * writes the owner there, so a cell needs no array of owners beside it (4 bytes a slot less). A list belongs to
 * one target at a time.
 *
 * <p>The cells reach up to the highest target slot only while that costs at most {@value #CELLS_PER_TARGET}
 * cells per target (plus {@value #MIN_CELLS}); a target past that goes beside the cells too, so a relationship
 * with a few targets in high slots costs what a hashed map would.
 *
 * <p>It answers like a map from target id to list: {@link #get}, {@link #put}, {@link #remove}, {@link #forEach}
 * (cells in slot order, then the others). Growth comes first: a failed allocation leaves the index as it was.
 */
final class TargetLists {
    /**
     * The cells reach a slot only while that is below {@value #CELLS_PER_TARGET} cells per target with a list,
     * plus {@value #MIN_CELLS}: a relationship with a few targets in high slots keeps them beside the cells
     * instead of a reference for every slot below them, so the index stays proportional to its targets. A
     * hierarchy (a target for every few entities) stays well inside.
     */
    static final int CELLS_PER_TARGET = 8;
    static final int MIN_CELLS = 1024;
    /** The low half of a list's header: its count. */
    static final long COUNT_MASK = 0xFFFF_FFFFL;

    private long[][] lists = new long[16][];
    private final LongMap<long[]> others = new LongMap<>();
    private int size;

    /** The list of {@code target}, or {@code null} when it has none. */
    long[] get(long target) {
        long[] list = inCell(target);
        return list != null || others.size() == 0 ? list : others.get(target);
    }

    /** What a list's header holds for {@code target}: its generation + 1, never 0 (generations are below 2^31 - 1). */
    private static long owner(long target) {
        return Entity.generation(target) + 1L;
    }

    /** The owner of the list in {@code slot}'s cell, or 0 when the cell is free. */
    private long cellOwner(int slot) {
        long[] list = lists[slot];
        return list == null ? 0 : list[0] >>> 32;
    }

    /** Writes {@code target} as the owner in {@code list}'s header, keeping its count. */
    private static void own(long[] list, long target) {
        list[0] = list[0] & COUNT_MASK | owner(target) << 32;
    }

    /**
     * Gives {@code target} the list {@code list} (replacing any it had) and writes the target into the list's
     * header (its high 32 bits; the count in the low ones is kept).
     *
     * @throws IllegalArgumentException for target 0, or a list without a header element
     */
    void put(long target, long[] list) {
        if (target == 0) {
            throw new IllegalArgumentException("target 0 is reserved");
        }
        if (list.length == 0) {
            throw new IllegalArgumentException("a list needs its header element");
        }
        int slot = Entity.slot(target);
        if (slot < lists.length && cellOwner(slot) == owner(target)) {
            own(list, target);
            lists[slot] = list;
            return;
        }
        if (others.size() != 0 && others.get(target) != null) {
            own(list, target);
            others.put(target, list); // an existing key: allocates nothing
            return;
        }
        if (slot >= lists.length) {
            if (slot >= CELLS_PER_TARGET * (size + 1L) + MIN_CELLS) {
                others.put(target, list); // few targets for so high a slot: cells up to it would cost more
                own(list, target);
                size++;
                return;
            }
            // fails before any change
            lists = Growth.copyOf(lists, Growth.nextCapacity(lists.length, slot + 1, Growth.REFERENCES));
        }
        if (lists[slot] == null) {
            own(list, target);
            lists[slot] = list;
        } else {
            others.put(target, list); // the slot's cell holds another id's list
            own(list, target);
        }
        size++;
    }

    /** Removes {@code target}'s list; returns it, or {@code null} when it had none. */
    long[] remove(long target) {
        int slot = Entity.slot(target);
        if (slot < lists.length && cellOwner(slot) == owner(target)) {
            long[] removed = lists[slot];
            lists[slot] = null;
            size--;
            return removed;
        }
        long[] removed = others.size() == 0 ? null : others.remove(target);
        if (removed != null) {
            size--;
        }
        return removed;
    }

    /**
     * The list of {@code target} when it sits in the target's own cell, or {@code null}: it has none, or its list
     * is beside the cells ({@link #isBesideCells}).
     */
    long[] inCell(long target) {
        int slot = Entity.slot(target);
        if (slot < lists.length) {
            long[] list = lists[slot];
            if (list != null && list[0] >>> 32 == owner(target)) {
                return list;
            }
        }
        return null;
    }

    /** Whether any list is beside the cells (when not, {@link #isBesideCells} is false for every target). */
    boolean hasListsBesideCells() {
        return others.size() != 0;
    }

    /** Whether {@code target}'s list is beside the cells, in the hashed map. */
    boolean isBesideCells(long target) {
        return others.size() != 0 && others.get(target) != null;
    }

    /**
     * Takes {@code target}'s list out of its cell, where {@link #inCell} found it, without reading the list again;
     * returns it.
     */
    long[] clearCell(long target) {
        int slot = Entity.slot(target);
        long[] list = lists[slot];
        lists[slot] = null;
        size--;
        return list;
    }

    /** How many slots the cells cover (what the tests check about the index's size). */
    int cells() {
        return lists.length;
    }

    /** The number of targets with a list. */
    int size() {
        return size;
    }

    /** Visits every target with its list: the cells in slot order, then the others; the visitor must not change it. */
    void forEach(LongMap.EntryVisitor<long[]> visitor) {
        long[][] cells = lists;
        for (int slot = 0; slot < cells.length; slot++) {
            long[] list = cells[slot];
            if (list != null) {
                visitor.entry(Entity.pack(slot, (int) (list[0] >>> 32) - 1), list);
            }
        }
        others.forEach(visitor);
    }
}
