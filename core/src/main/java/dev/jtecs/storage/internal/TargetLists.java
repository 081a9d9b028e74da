package dev.jtecs.storage.internal;

import dev.jtecs.entity.Entity;
import dev.jtecs.entity.internal.Growth;

/**
 * A sparse relationship's reverse index: the source list of each target id, held by the target's slot. The list
 * of the id living in a slot sits in that slot's cell, so finding it is two array reads at the slot, and targets
 * in neighbouring slots (the parents of one spawn batch, a cascade going down them) have neighbouring cells; a
 * hashed map scatters them over its table, a cache miss each. A second id with a list for a slot whose cell is
 * taken (a dead target whose sources have not been settled yet, beside the slot's new entity) goes to a hashed
 * map beside the cells ({@code others}), which lookups read only while it holds something.
 *
 * <pre>
 *   owners[slot]  the generation + 1 of the target whose list is in the cell (0: none)   4 bytes a slot, up to
 *   lists[slot]   that list                                                  a reference   the highest target
 *   others        target id -> list, for ids whose slot's cell is taken (rare: empty in a settled world)
 * </pre>
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
     * instead of 8 bytes for every slot below them, so the index stays proportional to its targets. A hierarchy
     * (a target for every few entities) stays well inside.
     */
    static final int CELLS_PER_TARGET = 8;
    static final int MIN_CELLS = 1024;

    private int[] owners = new int[16];
    private Object[] lists = new Object[16];
    private final LongMap<long[]> others = new LongMap<>();
    private int size;

    /** The list of {@code target}, or {@code null} when it has none. */
    long[] get(long target) {
        int slot = Entity.slot(target);
        int[] cellOwners = owners;
        if (slot < cellOwners.length && cellOwners[slot] == owner(target)) {
            return (long[]) lists[slot];
        }
        return others.size() == 0 ? null : others.get(target);
    }

    /** What a cell holds for {@code target}: its generation + 1, never 0 (generations are below 2^31 - 1). */
    private static int owner(long target) {
        return Entity.generation(target) + 1;
    }

    /**
     * Gives {@code target} the list {@code list} (replacing any it had).
     *
     * @throws IllegalArgumentException for target 0
     */
    void put(long target, long[] list) {
        if (target == 0) {
            throw new IllegalArgumentException("target 0 is reserved");
        }
        int slot = Entity.slot(target);
        if (slot < owners.length && owners[slot] == owner(target)) {
            lists[slot] = list;
            return;
        }
        if (others.size() != 0 && others.get(target) != null) {
            others.put(target, list); // an existing key: allocates nothing
            return;
        }
        if (slot >= owners.length) {
            if (slot >= CELLS_PER_TARGET * (size + 1L) + MIN_CELLS) {
                others.put(target, list); // few targets for so high a slot: cells up to it would cost more
                size++;
                return;
            }
            int capacity = Growth.nextCapacity(owners.length, slot + 1);
            int[] grownOwners = Growth.copyOf(owners, capacity); // both first: a failed growth changes nothing
            Object[] grownLists = Growth.copyOf(lists, capacity);
            owners = grownOwners;
            lists = grownLists;
        }
        if (owners[slot] == 0) {
            owners[slot] = owner(target);
            lists[slot] = list;
        } else {
            others.put(target, list); // the slot's cell holds another id's list
        }
        size++;
    }

    /** Removes {@code target}'s list; returns it, or {@code null} when it had none. */
    long[] remove(long target) {
        int slot = Entity.slot(target);
        if (slot < owners.length && owners[slot] == owner(target)) {
            long[] removed = (long[]) lists[slot];
            owners[slot] = 0;
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

    /** How many slots the cells cover (what the tests check about the index's size). */
    int cells() {
        return owners.length;
    }

    /** The number of targets with a list. */
    int size() {
        return size;
    }

    /** Visits every target with its list: the cells in slot order, then the others; the visitor must not change it. */
    void forEach(LongMap.EntryVisitor<long[]> visitor) {
        int[] cellOwners = owners;
        Object[] cellLists = lists;
        for (int slot = 0; slot < cellOwners.length; slot++) {
            if (cellOwners[slot] != 0) {
                visitor.entry(Entity.pack(slot, cellOwners[slot] - 1), (long[]) cellLists[slot]);
            }
        }
        others.forEach(visitor);
    }
}
