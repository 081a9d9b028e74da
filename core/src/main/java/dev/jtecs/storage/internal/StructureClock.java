package dev.jtecs.storage.internal;

import dev.jtecs.entity.internal.Growth;

import dev.jtecs.component.Components;

/**
 * One world's structure counters: they advance whenever the shape of the world's storage may have changed, so
 * code that caches a plan built from that shape can check one number per use instead of re-deriving the plan.
 * There is one counter for the whole world and one per registered component, which advances only for changes
 * to tables whose signature holds that component.
 *
 * <p>A table's change is: the table created or pruned, rows placed, removed or moved (every {@link Table}
 * structural change: appends, truncations, swap-removes, whole-table moves and exchanges) and column buffers
 * replaced (growth, rebuild, release). Between two equal readings of the world's counter every table keeps its
 * rows (the same entities at the same rows), its column views and segments stay valid, and every entity keeps
 * its table and row; only values may have changed. Between two equal readings of a component's counter the same
 * holds for every table holding that component.
 *
 * <p>A sparse relationship's edges are part of the shape too: they decide, for instance, which row a hierarchy
 * composes after which. Every change to the edge set of a sparse relationship (an edge added, retargeted or
 * removed, a source's edges dropped) advances the world's counter and the relationship's own, so a plan built from
 * who points at whom is checked by one reading as well.
 *
 * <p>Invariants: counters only grow; two readings of a counter differ whenever a change it covers happened between
 * them. Pair components (relationship edges, ids from {@link Components#FIRST_PAIR_ID}) have no counter of their
 * own.
 *
 * @implNote A run of changes to one table, or to two alternating tables, that nobody reads in between advances
 *     each table's counters once: a commit that moves a thousand rows one by one from one table into another pays
 *     two passes over signatures, not two thousand. Any reading ends the run, so the next change advances the
 *     counters again.
 */
public final class StructureClock {
    private long version;
    private long[] byComponent = new long[64];
    private int[] lastTicked; // the signature of the last change, while nobody has read since
    private int[] otherTicked; // and of the table changed before it (a row move ticks its source and destination)
    private boolean read = true;

    /** The world's counter: equal readings bracket a stretch with no structural change anywhere. */
    public long version() {
        read = true;
        return version;
    }

    /**
     * The counter of one registered component: equal readings bracket a stretch in which no table holding it
     * changed structurally. 0 until such a table first changes.
     *
     * @throws IllegalArgumentException for a negative id or a pair id
     */
    public long version(int componentId) {
        if (componentId < 0 || componentId >= Components.FIRST_PAIR_ID) {
            throw new IllegalArgumentException("componentId=" + componentId + ": structure counters exist for "
                    + "registered components, ids 0.." + (Components.FIRST_PAIR_ID - 1));
        }
        read = true;
        return componentId < byComponent.length ? byComponent[componentId] : 0;
    }

    /**
     * The counter of one registered component as {@link #version(int)} answers it, without counting as a reading:
     * for code that holds a value from an earlier reading and asks whether anything changed since. That reading
     * made the next change tick, so the counter differs from it after any change; a caller that finds it equal
     * holds a reading still current, and one that finds it different reads again with {@code version}. The id is
     * the caller's to check (a registered component's, below {@link Components#FIRST_PAIR_ID}).
     */
    public long peek(int componentId) {
        long[] counters = byComponent;
        return componentId < counters.length ? counters[componentId] : 0;
    }

    /**
     * A sparse relationship's edge counter, held on its own: every change to the relationship's edge set advances
     * it ({@link #tickEdges} counts each change, read or not), so equal readings bracket a stretch in which its
     * edges did not change. Reading it does not end a run of table changes, and table changes do not move it: it is
     * for code that caches who points at whom and checks once per step of a walk. Held by the reader, one
     * reading is one load (the clock's array of counters is replaced as it grows, so it cannot be held).
     */
    public static final class EdgeCounter {
        private long value;

        private EdgeCounter() {}

        /** The changes to the relationship's edges so far: 0 before its first edge. */
        public long value() {
            return value;
        }
    }

    private EdgeCounter[] edgeCounters = new EdgeCounter[8];

    /**
     * The edge counter of the sparse relationship {@code relationshipId}, made on first request (before the
     * relationship's first edge, {@link #reserve} makes it): the same object for the clock's life.
     *
     * @throws IllegalArgumentException for a negative id or a pair id
     */
    public EdgeCounter edgeCounter(int relationshipId) {
        if (relationshipId < 0 || relationshipId >= Components.FIRST_PAIR_ID) {
            throw new IllegalArgumentException("relationshipId=" + relationshipId + ": edge counters exist for "
                    + "registered components, ids 0.." + (Components.FIRST_PAIR_ID - 1));
        }
        EdgeCounter[] counters = edgeCounters;
        if (relationshipId < counters.length && counters[relationshipId] != null) {
            return counters[relationshipId];
        }
        EdgeCounter counter = new EdgeCounter(); // both allocations first: a failure changes nothing
        if (relationshipId >= counters.length) {
            counters = Growth.copyOf(counters, Growth.nextCapacity(counters.length, relationshipId + 1));
        }
        counters[relationshipId] = counter;
        edgeCounters = counters;
        return counter;
    }

    /**
     * Makes room for the counter of {@code relationshipId}, so that {@link #tickEdges} allocates nothing; called
     * before the first edge of the relationship changes anything.
     */
    void reserve(int relationshipId) {
        if (relationshipId >= byComponent.length) {
            byComponent = Growth.copyOf(byComponent, Math.max(relationshipId + 1, byComponent.length * 2));
        }
        edgeCounter(relationshipId);
    }

    /** Records a change to the edge set of the sparse relationship {@code relationshipId} (reserved before). */
    void tickEdges(int relationshipId) {
        read = false;
        lastTicked = null; // the next table change is a new run
        version++;
        byComponent[relationshipId]++;
        edgeCounters[relationshipId].value++;
    }

    /** Records a structural change of a table with this (ascending) signature. */
    void tick(int[] signature) {
        if (!read && (lastTicked == signature || otherTicked == signature)) {
            return; // a table that changed since the last reading changed again: its counters moved already
        }
        otherTicked = read ? null : lastTicked;
        read = false;
        lastTicked = signature;
        version++;
        for (int id : signature) {
            if (id >= Components.FIRST_PAIR_ID) {
                break; // pairs sort last
            }
            if (id >= byComponent.length) {
                byComponent = Growth.copyOf(byComponent, Math.max(id + 1, byComponent.length * 2));
            }
            byComponent[id]++;
        }
    }
}
