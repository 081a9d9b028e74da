package dev.jtecs.mutation.internal;

import dev.jtecs.entity.internal.Failures;
import dev.jtecs.entity.internal.Growth;

import dev.jtecs.component.BaseRelationship;
import dev.jtecs.component.Components;
import dev.jtecs.entity.Entity;
import dev.jtecs.entity.internal.EntityIndex;
import java.util.Arrays;

/**
 * Sparse relationship edge writes staged in call order, flushed to the world's edge store as the last phase of
 * each segment of a wave (after the segment's despawns, spawns and moves, before the query batch that ends it),
 * so they keep their order relative to batch calls. A write is dropped when, at flush time, its entity is not
 * alive with the same generation: a despawn cancels it, and a recycled slot never revives a previous entity's
 * write. Writes staged while a wave runs belong to the next wave, like the records staged then. Nothing here
 * allocates per write once the arrays have grown.
 */
public final class SparseWriteQueue {
    /** Adds one edge (an exclusive relationship drops the others). */
    public static final byte ADD = 0;
    /** Removes one edge. */
    public static final byte REMOVE = 1;
    /** Removes every edge of the relationship. */
    public static final byte REMOVE_ALL = 2;
    /**
     * Adds a required edge, if the drain planned that requirement for the entity in this wave (its requirer
     * arrived and it held no edge of the relationship); queued where the requirer's call was made.
     */
    public static final byte REQUIRE = 3;

    /** Where flushed writes go (the drain forwards them to its hooks, and so to the world's edge store). */
    @FunctionalInterface
    public interface Sink {
        /** Applies one write to an entity that is alive. */
        void apply(long entity, byte op, BaseRelationship<?> relationship, long target, Object payload);

        /**
         * Applies the {@link #ADD} writes {@code entities[from, to)}, of live entities in ascending id order, of
         * edges of {@code relationship} to {@code target} with payloads {@code payloads[from, to)}, together: true
         * when they all landed, false having changed nothing (then they are applied one by one). By default false.
         */
        default boolean applyAddRun(long[] entities, int from, int to, BaseRelationship<?> relationship,
                long target, Object[] payloads) {
            return false;
        }
    }

    /** The shortest run of writes {@link #flush} offers its sink whole ({@link Sink#applyAddRun}). */
    static final int MIN_RUN = 4;
    /**
     * Whether {@link #flush} offers runs at all: always, but for the tests that compare a world whose flushes
     * offer them with one whose flushes apply every write on its own.
     */
    static boolean offersRuns = true;

    private long[] entities = new long[16];
    private byte[] ops = new byte[16];
    // each write's relationship by component id: an int store, where a reference store into an array that lives in
    // the old generation goes through G1's post-write barrier each time (staging a million reparentings took 6 to 7
    // ns a write longer under G1 than under Serial, most of it that barrier)
    private int[] relationships = new int[16];
    private long[] targets = new long[16];
    private Object[] payloads = new Object[16];
    private int[] marks = new int[16];
    private int size;
    private int next; // the first sealed write not flushed yet
    private int sealedEnd; // writes [0, sealedEnd) belong to the wave being drained

    /**
     * Stages a write for {@code entity}, after {@code mark} query batches of the open transaction: it flushes
     * before the batch at that position runs.
     */
    public void stage(long entity, byte op, BaseRelationship<?> relationship, long target, Object payload,
            int mark) {
        if (size == entities.length) {
            int capacity = size * 2;
            // every array first, then assign: a failed growth leaves them all as they were, in step
            var grownEntities = Growth.copyOf(entities, capacity);
            var grownOps = Growth.copyOf(ops, capacity);
            var grownRelationships = Growth.copyOf(relationships, capacity);
            var grownTargets = Growth.copyOf(targets, capacity);
            var grownPayloads = Growth.copyOf(payloads, capacity);
            var grownMarks = Growth.copyOf(marks, capacity);
            entities = grownEntities;
            ops = grownOps;
            relationships = grownRelationships;
            targets = grownTargets;
            payloads = grownPayloads;
            marks = grownMarks;
        }
        entities[size] = entity;
        ops[size] = op;
        relationships[size] = relationship.id();
        targets[size] = target;
        payloads[size] = payload;
        marks[size++] = mark;
    }

    public boolean isEmpty() {
        return size == 0;
    }

    public int size() {
        return size;
    }

    /** The relationship of the write at {@code i} (registered: its id names it for the life of the process). */
    private BaseRelationship<?> relationship(int i) {
        return (BaseRelationship<?>) Components.findById(relationships[i]);
    }

    /** Starts a wave: the writes staged so far are the wave's; later ones wait for the next. */
    void seal() {
        sealedEnd = size;
        next = 0;
    }

    /**
     * Applies, in order, the wave's writes staged before the batch at {@code limitMark} (all of them for
     * {@link Integer#MAX_VALUE}) whose entity is alive.
     */
    void flush(int limitMark, EntityIndex index, Sink sink) {
        while (next < sealedEnd && marks[next] <= limitMark) {
            int i = next;
            if (!index.isAlive(entities[i])) {
                next = i + 1;
                continue;
            }
            int end = addRunEnd(i, limitMark, index);
            if (offersRuns && end - i >= MIN_RUN
                    && sink.applyAddRun(entities, i, end, relationship(i), targets[i], payloads)) {
                next = end; // all of them landed; a failed run changed nothing and is still next
                continue;
            }
            for (int k = i; k < end; k++) { // alive, as addRunEnd found them: a write kills nobody
                sink.apply(entities[k], ops[k], relationship(k), targets[k], payloads[k]);
                next = k + 1; // after the write: a failed one is still next, for flushPublished to retry
            }
        }
    }

    /**
     * The end of the run of writes from {@code i} (its entity alive) that {@link Sink#applyAddRun} may take
     * together: {@link #ADD} writes before the batch at {@code limitMark}, of one relationship and one target, of
     * live entities in ascending id order. {@code i + 1} when the write at {@code i} starts none.
     */
    private int addRunEnd(int i, int limitMark, EntityIndex index) {
        if (ops[i] != ADD) {
            return i + 1;
        }
        int relationship = relationships[i];
        long target = targets[i];
        int j = i + 1;
        while (j < sealedEnd && marks[j] <= limitMark && ops[j] == ADD && relationships[j] == relationship
                && targets[j] == target && entities[j] > entities[j - 1] && index.isAlive(entities[j])) {
            j++;
        }
        return j;
    }

    /**
     * After a failure: applies, in order, the wave's remaining writes staged before the batch at
     * {@code limitMark} whose entity is alive and whose slot {@code published} accepts; skips the rest.
     */
    void flushPublished(int limitMark, EntityIndex index, Sink sink, java.util.function.IntPredicate published) {
        Throwable first = null;
        while (next < sealedEnd && marks[next] <= limitMark) {
            int i = next++; // advanced first: a write that fails again is dropped, the others still land
            if (index.isAlive(entities[i]) && published.test(Entity.slot(entities[i]))) {
                try {
                    sink.apply(entities[i], ops[i], relationship(i), targets[i], payloads[i]);
                } catch (RuntimeException | Error e) {
                    first = Failures.fold(first, e);
                }
            }
        }
        Failures.throwIfAny(first);
    }

    /** Ends a wave: its writes go, the writes staged meanwhile move to the front. */
    void recycle() {
        if (size == 0) { // the common wave: no sparse write at all
            sealedEnd = 0;
            next = 0;
            return;
        }
        int rest = size - sealedEnd;
        System.arraycopy(entities, sealedEnd, entities, 0, rest);
        System.arraycopy(ops, sealedEnd, ops, 0, rest);
        System.arraycopy(relationships, sealedEnd, relationships, 0, rest);
        System.arraycopy(targets, sealedEnd, targets, 0, rest);
        System.arraycopy(payloads, sealedEnd, payloads, 0, rest);
        System.arraycopy(marks, sealedEnd, marks, 0, rest);
        Arrays.fill(payloads, rest, size, null);
        size = rest;
        sealedEnd = 0;
        next = 0;
    }

    /** Drops every staged write. */
    void clear() {
        Arrays.fill(payloads, 0, size, null);
        size = 0;
        sealedEnd = 0;
        next = 0;
    }
}
