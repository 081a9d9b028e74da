package dev.jtecs.kernels.parallel;

import dev.jtecs.builtin.EntityKey;
import dev.jtecs.component.Component;
import dev.jtecs.component.Input;
import dev.jtecs.component.ScalarComponent;
import dev.jtecs.storage.LongColumn;
import dev.jtecs.world.World;
import java.util.Arrays;
import java.util.Objects;

/**
 * The structural requests one worker records for the rows of one chunk: despawn the entity at a row, set (add or
 * overwrite) a component or tag on it, remove a component from it. A worker never calls the world; it writes
 * {@code (row, op, payload)} into primitive arrays here, and after every worker has finished, the calling thread
 * maps the rows to entity ids and applies every chunk's buffer in chunk order.
 *
 * <pre>
 *   worker:  kernel.run(segments, count, dt, commands) ──► rows[] ops[] targets[] values[]   (then sorted by row)
 *   caller:  for each chunk in order: ids[i] = entities[firstRow + rows[i]] ──► world.despawn / set / remove
 * </pre>
 *
 * <p>Rows are the kernel's rows: {@code [0, rowCount())}, indices into the segments the kernel received, whatever
 * part of the archetype they are. Invariants: every recorded row is in range; within one row, requests keep the
 * order they were recorded in; once the kernel returns, the buffer is put in ascending row order (stable), so the
 * merged sequence (archetype order, then row order) is the same however the archetype was cut into chunks.
 *
 * <p>A bad request (a row out of range, a null, an {@code EntityKey} value) throws at once and records nothing.
 * Values that only the world can judge (a relationship to a dead target, say) are judged when the buffer is
 * applied. One instance belongs to one chunk and is used by one thread at a time; the arrays grow by doubling and
 * are kept, so a buffer that has seen its largest frame allocates nothing more.
 */
public final class ChunkCommands {
    static final byte DESPAWN = 0;
    static final byte SET = 1;
    static final byte REMOVE = 2;
    static final byte SET_DOUBLE = 3;
    static final byte SET_LONG = 4;
    static final byte SET_INT = 5;

    private int rowCount;
    private int size;
    private int[] rows = new int[16];
    private byte[] ops = new byte[16];
    private Object[] targets = new Object[16];
    private long[] values = new long[16];
    private long[] ids = new long[0];
    private long[] sortKeys = new long[0];
    private int[] spareRows = new int[0]; // the sort's destination, swapped with the live arrays
    private byte[] spareOps = new byte[0];
    private Object[] spareTargets = new Object[0];
    private long[] spareValues = new long[0];

    ChunkCommands() {}

    /** How many rows the kernel may name: requests take rows {@code [0, rowCount())}. */
    public int rowCount() {
        return rowCount;
    }

    /** How many requests are recorded. */
    public int size() {
        return size;
    }

    /** Requests that the entity at {@code row} be despawned (despawning it twice is harmless). */
    public void despawn(int row) {
        checkRow(row);
        append(row, DESPAWN, null, 0);
    }

    /**
     * Requests {@code world.set(entity, value)} for the entity at {@code row}: adds the tag or component (with the
     * input's value), or overwrites the value it has.
     *
     * @throws IllegalArgumentException for an {@code EntityKey} value: a key's uniqueness can be checked only when
     *     the buffer is applied, and failing there would leave the requests before it applied
     */
    public void set(int row, Input value) {
        checkRow(row);
        Objects.requireNonNull(value, "value");
        if (value.component() == EntityKey.COMPONENT) {
            throw new IllegalArgumentException("row=" + row + ": EntityKey values cannot be set from a chunk; set "
                    + "keys on the calling thread with World.set");
        }
        append(row, SET, value, 0);
    }

    /** Requests {@code world.set(entity, component.of(value))} for the entity at {@code row}. */
    public void set(int row, ScalarComponent.OfDouble component, double value) {
        checkRow(row);
        append(row, SET_DOUBLE, Objects.requireNonNull(component, "component"), Double.doubleToRawLongBits(value));
    }

    /** Requests {@code world.set(entity, component.of(value))} for the entity at {@code row}. */
    public void set(int row, ScalarComponent.OfLong component, long value) {
        checkRow(row);
        append(row, SET_LONG, Objects.requireNonNull(component, "component"), value);
    }

    /** Requests {@code world.set(entity, component.of(value))} for the entity at {@code row}. */
    public void set(int row, ScalarComponent.OfInt component, int value) {
        checkRow(row);
        append(row, SET_INT, Objects.requireNonNull(component, "component"), value);
    }

    /** Requests {@code world.remove(entity, component)} for the entity at {@code row} (a tag, or any component). */
    public void remove(int row, Component<?> component) {
        checkRow(row);
        append(row, REMOVE, Objects.requireNonNull(component, "component"), 0);
    }

    @Override
    public String toString() {
        return "ChunkCommands[size=" + size + ", rowCount=" + rowCount + "]";
    }

    // ---------------------------------------------------------------- package-private: the runner's side

    /** Empties the buffer for a chunk of {@code rowCount} rows. */
    void reset(int rowCount) {
        Arrays.fill(targets, 0, size, null); // keep no component or value alive past its frame
        this.rowCount = rowCount;
        this.size = 0;
    }

    /** Appends a despawn for each of {@code rows[0, n)}, which the caller guarantees are in range. */
    void despawnRows(int[] expiredRows, int n) {
        ensure(size + n);
        System.arraycopy(expiredRows, 0, rows, size, n);
        Arrays.fill(ops, size, size + n, DESPAWN);
        size += n;
    }

    int row(int index) {
        return rows[index];
    }

    byte op(int index) {
        return ops[index];
    }

    /** The entity the {@code index}-th request names, once {@link #resolve} has run. */
    long id(int index) {
        return ids[index];
    }

    /**
     * Puts the requests in ascending row order, keeping the recorded order within a row. Free when they are in
     * order already (a kernel that walks its rows upward); otherwise sorts {@code (row, index)} keys.
     */
    void sortByRow() {
        int n = size;
        int i = 1;
        while (i < n && rows[i - 1] <= rows[i]) {
            i++;
        }
        if (i >= n) {
            return;
        }
        if (sortKeys.length < rows.length) {
            sortKeys = new long[rows.length];
        }
        for (int k = 0; k < n; k++) {
            sortKeys[k] = (long) rows[k] << 32 | k; // distinct keys: the index breaks ties, so the sort is stable
        }
        Arrays.sort(sortKeys, 0, n);
        if (spareRows.length < rows.length) {
            spareRows = new int[rows.length];
            spareOps = new byte[rows.length];
            spareTargets = new Object[rows.length];
            spareValues = new long[rows.length];
        }
        for (int k = 0; k < n; k++) {
            int from = (int) sortKeys[k];
            spareRows[k] = rows[from];
            spareOps[k] = ops[from];
            spareTargets[k] = targets[from];
            spareValues[k] = values[from];
        }
        int[] r = rows;
        rows = spareRows;
        spareRows = r;
        byte[] o = ops;
        ops = spareOps;
        spareOps = o;
        Object[] t = targets;
        targets = spareTargets;
        spareTargets = t;
        Arrays.fill(spareTargets, 0, n, null);
        long[] v = values;
        values = spareValues;
        spareValues = v;
    }

    /** Maps every request's row to its entity: row {@code r} is row {@code firstRow + r} of {@code entities}. */
    void resolve(LongColumn entities, int firstRow) {
        if (ids.length < size) {
            ids = new long[rows.length];
        }
        for (int i = 0; i < size; i++) {
            ids[i] = entities.get(firstRow + rows[i]);
        }
    }

    /**
     * Applies every request to its resolved entity, in order, skipping entities that are no longer alive (one that
     * an earlier request's observer already had published dead).
     *
     * @return how many requests reached the world
     */
    int apply(World world) {
        int applied = 0;
        for (int i = 0; i < size; i++) {
            long id = ids[i];
            if (!world.isAlive(id)) {
                continue;
            }
            switch (ops[i]) {
                case DESPAWN -> world.despawn(id);
                case SET -> world.set(id, (Input) targets[i]);
                case REMOVE -> world.remove(id, (Component<?>) targets[i]);
                case SET_DOUBLE -> world.set(id,
                        ((ScalarComponent.OfDouble) targets[i]).of(Double.longBitsToDouble(values[i])));
                case SET_LONG -> world.set(id, ((ScalarComponent.OfLong) targets[i]).of(values[i]));
                case SET_INT -> world.set(id, ((ScalarComponent.OfInt) targets[i]).of((int) values[i]));
                default -> throw new IllegalStateException("op=" + ops[i] + " at index " + i);
            }
            applied++;
        }
        return applied;
    }

    private void checkRow(int row) {
        if (row < 0 || row >= rowCount) {
            throw new IllegalArgumentException("row=" + row + " outside the chunk's rows [0, " + rowCount + ")");
        }
    }

    private void append(int row, byte op, Object target, long value) {
        if (size == rows.length) {
            ensure(size + 1);
        }
        rows[size] = row;
        ops[size] = op;
        targets[size] = target;
        values[size] = value;
        size++;
    }

    private void ensure(int capacity) {
        if (capacity <= rows.length) {
            return;
        }
        int grown = Math.max(capacity, rows.length * 2);
        rows = Arrays.copyOf(rows, grown);
        ops = Arrays.copyOf(ops, grown);
        targets = Arrays.copyOf(targets, grown);
        values = Arrays.copyOf(values, grown);
    }
}
