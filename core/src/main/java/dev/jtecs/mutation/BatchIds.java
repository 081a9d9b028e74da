package dev.jtecs.mutation;

import dev.jtecs.entity.Entity;
import java.util.Arrays;

/**
 * The ids a {@link dev.jtecs.world.World#batchSpawn} reserved, in batch order. When they are consecutive packed ids
 * (fresh slots,
 * or recycled slots that happen to line up with one generation) only the first is stored; otherwise the
 * explicit array is. Use {@link #get} or {@link #toArray} unless {@link #isContiguous()} says {@code first + i}
 * is valid.
 */
public final class BatchIds {
    private final long first;
    private final int count;
    private final long[] ids;

    /**
     * The ids of a batch of {@code count}: {@code first, first + 1, ...} when {@code ids} is {@code null}, else the
     * first {@code count} of {@code ids} (kept, not copied).
     *
     * @throws IllegalArgumentException for a negative count, or an array shorter than it
     */
    public BatchIds(long first, int count, long[] ids) {
        if (count < 0 || ids != null && ids.length < count) {
            throw new IllegalArgumentException("count=" + count + " ids.length=" + (ids == null ? "-" : ids.length));
        }
        this.first = first;
        this.count = count;
        this.ids = ids;
    }

    /** Whether entity {@code i} is {@code first() + i}. */
    public boolean isContiguous() {
        return ids == null;
    }

    /** The first id of the batch. */
    public long first() {
        return ids == null ? first : ids[0];
    }

    public int count() {
        return count;
    }

    /** The id of entity {@code i} of the batch. */
    public long get(int i) {
        if (i < 0 || i >= count) {
            throw new IndexOutOfBoundsException("index " + i + " outside 0.." + (count - 1));
        }
        return ids == null ? first + i : ids[i];
    }

    /** A fresh array of every id, in batch order. */
    public long[] toArray() {
        if (ids != null) {
            return ids.clone();
        }
        long[] all = new long[count];
        for (int i = 0; i < count; i++) {
            all[i] = first + i;
        }
        return all;
    }

    @Override
    public String toString() {
        return ids == null
                ? "BatchIds[" + count + " from " + Entity.toString(first) + "]"
                : "BatchIds" + Arrays.toString(Arrays.stream(ids).mapToObj(Entity::toString).toArray());
    }
}
