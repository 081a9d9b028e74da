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
     * The counter of a sparse relationship, read for its edges only: every change to its edge set advances it
     * ({@link #tickEdges} counts each change, read or not), so equal readings bracket a stretch in which its edges
     * did not change. Unlike {@link #version(int)} the reading does not end a run of table changes, and a table change
     * inside such a run may leave it unmoved: it is for code that caches who points at whom, checked once per step
     * of a walk. 0 until the relationship's first edge.
     */
    public long edgeVersion(int relationshipId) {
        long[] counters = byComponent;
        return relationshipId < counters.length ? counters[relationshipId] : 0;
    }

    /**
     * Makes room for the counter of {@code relationshipId}, so that {@link #tickEdges} allocates nothing; called
     * before the first edge of the relationship changes anything.
     */
    void reserve(int relationshipId) {
        if (relationshipId >= byComponent.length) {
            byComponent = Growth.copyOf(byComponent, Math.max(relationshipId + 1, byComponent.length * 2));
        }
    }

    /** Records a change to the edge set of the sparse relationship {@code relationshipId} (reserved before). */
    void tickEdges(int relationshipId) {
        read = false;
        lastTicked = null; // the next table change is a new run
        version++;
        byComponent[relationshipId]++;
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
