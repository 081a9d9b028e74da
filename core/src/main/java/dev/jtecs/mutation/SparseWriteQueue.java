package dev.jtecs.mutation;

import dev.jtecs.entity.internal.EntityIndex;
import java.util.Arrays;

/**
 * Writes to world-side stores (sparse relationship edges and the like) staged for one entity, flushed in call
 * order as the last phase of a wave. A write is dropped when, at flush time, its entity is no longer alive with
 * the same generation: a despawn cancels it, and a recycled slot never revives a previous entity's write.
 */
public final class SparseWriteQueue {
    private long[] entities = new long[16];
    private Runnable[] writes = new Runnable[16];
    private int size;
    private long[] spareEntities = new long[16];
    private Runnable[] spareWrites = new Runnable[16];

    /** Stages a write for {@code entity}, run at the next flush if the entity is then alive. */
    public void stage(long entity, Runnable write) {
        if (size == entities.length) {
            entities = Arrays.copyOf(entities, size * 2);
            writes = Arrays.copyOf(writes, size * 2);
        }
        entities[size] = entity;
        writes[size++] = java.util.Objects.requireNonNull(write, "write");
    }

    public boolean isEmpty() {
        return size == 0;
    }

    public int size() {
        return size;
    }

    /**
     * Runs the writes staged so far, in order, skipping those whose entity is gone. Writes staged while
     * flushing wait for the next flush. On failure the rest of this batch is discarded.
     */
    void flush(EntityIndex index) {
        int count = size;
        if (count == 0) {
            return;
        }
        long[] batchEntities = entities;
        Runnable[] batchWrites = writes;
        entities = spareEntities.length >= 16 ? spareEntities : new long[16];
        writes = spareWrites.length >= 16 ? spareWrites : new Runnable[16];
        size = 0;
        try {
            for (int i = 0; i < count; i++) {
                if (index.isAlive(batchEntities[i])) {
                    batchWrites[i].run();
                }
            }
        } finally {
            Arrays.fill(batchWrites, 0, count, null);
            spareEntities = batchEntities;
            spareWrites = batchWrites;
        }
    }

    /** Drops every staged write. */
    void clear() {
        Arrays.fill(writes, 0, size, null);
        size = 0;
    }
}
