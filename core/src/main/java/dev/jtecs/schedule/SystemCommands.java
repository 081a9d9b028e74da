package dev.jtecs.schedule;

import dev.jtecs.component.Component;
import dev.jtecs.component.Input;
import dev.jtecs.component.TagComponent;
import dev.jtecs.entity.Entity;
import java.util.Arrays;
import java.util.Objects;

/**
 * A worker's command buffer: the structural requests of the parallel systems that ran on one worker thread,
 * recorded by entity id in call order and applied by the world's thread once the group has finished. Each system
 * run owns one contiguous range of it, so the requests are replayed by system order, then by their position in
 * the system's own run: neither depends on which worker ran the system or when.
 *
 * <p>Requests judged without the world are refused while recording (a null, an id that is not well formed); the
 * world judges the rest when they are applied, as if the world's thread had made the calls itself. A request
 * whose entity is no longer alive by then is skipped (an earlier request may have despawned it).
 *
 * @implNote Primitive arrays and one reference array, grown by doubling and kept from frame to frame: a warm
 *     buffer records without allocating. Not thread-safe: one worker writes it, and the world's thread reads it
 *     only after the group's completion published its contents.
 */
public final class SystemCommands {
    static final byte SET_TAG = 1;
    static final byte UNSET_TAG = 2;
    static final byte DESPAWN = 3;
    static final byte SET = 4;
    static final byte REMOVE = 5;
    static final byte SPAWN = 6;

    private byte[] ops = new byte[64];
    private long[] ids = new long[64];
    private Object[] args = new Object[64];
    private int size;

    SystemCommands() {}

    /** Turns a presence tag on or switches a dimension's variant ({@code world.setTag}) when applied. */
    public void setTag(long id, TagComponent tag) {
        add(SET_TAG, requireId(id), Objects.requireNonNull(tag, "tag"));
    }

    /** Turns a presence tag off ({@code world.unsetTag}) when applied. */
    public void unsetTag(long id, TagComponent tag) {
        add(UNSET_TAG, requireId(id), Objects.requireNonNull(tag, "tag"));
    }

    /** Despawns the entity when applied. */
    public void despawn(long id) {
        add(DESPAWN, requireId(id), null);
    }

    /** Sets a component value ({@code world.set}) when applied. */
    public void set(long id, Input input) {
        add(SET, requireId(id), Objects.requireNonNull(input, "input"));
    }

    /** Removes a component ({@code world.remove}) when applied. */
    public void remove(long id, Component<?> component) {
        add(REMOVE, requireId(id), Objects.requireNonNull(component, "component"));
    }

    /**
     * Spawns an entity of these inputs when applied; its id is the one the world hands out at that point, the
     * same for every thread count. The array is kept as given: do not change it afterwards.
     */
    public void spawn(Input... inputs) {
        Objects.requireNonNull(inputs, "inputs");
        for (int i = 0; i < inputs.length; i++) {
            Objects.requireNonNull(inputs[i], "inputs[" + i + "]");
        }
        add(SPAWN, 0, inputs);
    }

    /** How many requests the buffer holds (every system run on this worker since the group started). */
    public int size() {
        return size;
    }

    private static long requireId(long id) {
        if (!Entity.isWellFormed(id) || id == Entity.WORLD) {
            throw new IllegalArgumentException("id=" + id + " is not an entity id");
        }
        return id;
    }

    private void add(byte op, long id, Object arg) {
        if (size == ops.length) {
            int capacity = size * 2;
            ops = Arrays.copyOf(ops, capacity);
            ids = Arrays.copyOf(ids, capacity);
            args = Arrays.copyOf(args, capacity);
        }
        ops[size] = op;
        ids[size] = id;
        args[size] = arg;
        size++;
    }

    byte op(int at) {
        return ops[at];
    }

    long id(int at) {
        return ids[at];
    }

    Object arg(int at) {
        return args[at];
    }

    /** Empties the buffer for the next group (references dropped, so applied inputs can be collected). */
    void clear() {
        Arrays.fill(args, 0, size, null);
        size = 0;
    }
}
