package dev.jtecs.mutation.internal;

import dev.jtecs.component.BaseRelationship;
import dev.jtecs.entity.internal.Failures;
import dev.jtecs.storage.internal.Table;

/**
 * What the commit drain tells the layer above it (the relationship machinery) while it publishes, passed to the
 * drain once, at construction. The drain knows rows and slots; what an edge to a dead target means, where sparse
 * edges live and how a cascade spreads is the hook's business.
 *
 * <p>Call order within one publication ({@link CommitDrain#publish()}), for each wave and each segment of it:
 *
 * <pre>
 *   publish ─┬─ wave ─┬─ segment: despawns ── prepareDespawns(n, slot) before observers hear of them,
 *            │        │                       despawned(id) per entity whose row and slot are gone
 *            │        │           spawns, moves ── placedWithPairs(table, from, to) before observers hear of rows
 *            │        │           sparse flush ── applySparse(...) per staged write of a live entity
 *            │        │           ── segmentDone()
 *            │        ├─ query batch ── applySparse(...) per edited member ── segmentDone()
 *            │        └─ wave end ── settleSparse(), once
 *            │   (the next wave runs while pendingSettlement() or staged work says so)
 *            └─ publicationEnded(published), also after a failure
 * </pre>
 *
 * <p>Hooks may stage work (removals, despawns); it publishes in a later wave of the same publication. A hook that
 * throws fails the publication like any callback: what was published stays, the rest is discarded.
 */
public interface DrainHooks {
    /** Hooks that do nothing: a world without relationships, and tests of the drain alone. */
    DrainHooks NONE = new DrainHooks() { };

    /**
     * {@code count} despawns, of slots up to {@code highestSlot}, are about to happen: make now what the
     * {@link #despawned} calls will allocate, so that running out of memory strikes before any observer hears of
     * them, not between a row leaving and its despawn being reported.
     */
    default void prepareDespawns(int count, int highestSlot) {}

    /** A publication despawned {@code id}: its row is gone and its slot free. */
    default void despawned(long id) {}

    /**
     * A publication despawned {@code ids[from, to)} together: every one's row is gone and its slot free before any
     * is told. The same as {@link #despawned} for each in order, every one told even when one throws (the first
     * failure is rethrown, later ones suppressed); a hook may do it in fewer passes when the result is the same.
     */
    default void despawnedRun(long[] ids, int from, int to) {
        Throwable failure = null;
        for (int i = from; i < to; i++) {
            try {
                despawned(ids[i]);
            } catch (RuntimeException | Error e) {
                failure = Failures.fold(failure, e);
            }
        }
        Failures.throwIfAny(failure);
    }

    /**
     * Whether {@link #despawned} may do anything now. False promises that it would do nothing for any entity until
     * edges or pairs come into the world, which no despawn does; a run of despawns then skips telling each one.
     */
    default boolean hearsDespawns() {
        return true;
    }

    /**
     * Whether the despawn of the published entity {@code id}, whose row is in {@code table}, would give
     * {@link #prepareDespawns}, {@link #despawned} and the segment's end anything to do. False promises that a
     * publication of that despawn alone would find nothing to settle. By default {@link #hearsDespawns}.
     */
    default boolean hearsDespawnOf(long id, Table table) {
        return hearsDespawns();
    }

    /** Rows {@code [fromRow, toRow)} were placed in {@code table}, whose signature holds relationship pairs. */
    default void placedWithPairs(Table table, int fromRow, int toRow) {}

    /**
     * Adds one sparse edge of {@code relationship} from the published {@code entity}, whose table holds the
     * relationship's marker already, to the live {@code target} at once instead of staging it (an instant
     * {@code set} of the edge, such as a reparenting): true when it was added, the marker in step with the edges
     * with nothing to settle; false, having changed nothing, to have the write staged. By default false.
     */
    default boolean addSparseAtOnce(long entity, BaseRelationship<?> relationship, long target, Object payload) {
        return false;
    }

    /**
     * One sparse edge write reaches a live entity: flushed from the staged queue, or applied by a batch to a
     * member it placed or changed ({@link SparseWriteQueue#ADD}, {@link SparseWriteQueue#REMOVE} or
     * {@link SparseWriteQueue#REMOVE_ALL}).
     */
    default void applySparse(long entity, byte op, BaseRelationship<?> relationship, long target, Object payload) {
        throw new IllegalStateException("no sparse edge store attached");
    }

    /**
     * {@link #applySparse} of the {@code ADD} writes {@code entities[from, to)} (live, in ascending id order) of
     * edges of {@code relationship} to one {@code target}, payloads {@code payloads[from, to)}, in one step: true
     * when they all landed, as the writes one by one would have left them; false, having changed nothing, when the
     * run is not of a form that lands together (then each write is applied on its own). By default false.
     */
    default boolean applySparseAddRun(long[] entities, int from, int to, BaseRelationship<?> relationship,
            long target, Object[] payloads) {
        return false;
    }

    /**
     * Makes room to {@link #rememberUnwritten remember} {@code n} entities without allocating: a batch about to
     * write the sparse edges of {@code n} rows (or row and relationship pairs) asks first.
     */
    default void reserveSparseTouches(int n) {}

    /**
     * A batch placed or changed {@code entity} with {@code relationship}'s marker but could not write its edge (an
     * earlier write of the batch failed): the next settlement makes the marker follow the edges it holds. Allocates
     * nothing in the room {@link #reserveSparseTouches} made.
     */
    default void rememberUnwritten(long entity, BaseRelationship<?> relationship) {}

    /** The wave has applied all its sparse writes (flushes and batches): relationship markers follow the edges now. */
    default void settleSparse() {}

    /** A segment of a wave (or a query batch) has published everything it holds. */
    default void segmentDone() {}

    /** Whether work outside the transaction waits: a drain with nothing staged still runs a wave for it. */
    default boolean pendingSettlement() {
        return false;
    }

    /** The outermost publication ended; {@code published} is false when it failed. */
    default void publicationEnded(boolean published) {}
}
