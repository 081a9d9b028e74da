package dev.jtecs.relation.internal;

import dev.jtecs.entity.internal.Growth;

import dev.jtecs.component.BaseRelationship;
import dev.jtecs.entity.Entity;
import dev.jtecs.entity.internal.EntityIndex;
import dev.jtecs.mutation.internal.SparseWriteQueue;
import dev.jtecs.mutation.internal.Staging;
import dev.jtecs.storage.internal.ArchetypeRegistry;
import dev.jtecs.storage.internal.SparseEdges;
import dev.jtecs.storage.internal.Table;

/**
 * The sink of sparse edge writes: each flushed or batch write edits the world's {@link SparseEdges} store, and at
 * the end of each wave every entity whose edges changed is brought back in step with its relationship marker (the
 * marker stays exactly while the entity holds an edge of that relationship).
 */
final class SparseMarkers {
    private final EntityIndex index;
    private final ArchetypeRegistry archetypes;
    private final SparseEdges sparse;
    private final Staging staging;
    private final Settlement settlement;

    SparseMarkers(EntityIndex index, ArchetypeRegistry archetypes, Staging staging, Settlement settlement) {
        this.index = index;
        this.archetypes = archetypes;
        this.sparse = archetypes.sparseEdges();
        this.staging = staging;
        this.settlement = settlement;
    }

    private long[] touchedEntities = new long[16];
    private BaseRelationship<?>[] touchedRelationships = new BaseRelationship<?>[16];
    private int touchedCount;

    /**
     * Applies one flushed (or batch) sparse edge write to a live entity. The room to remember the entity is made
     * first and the store edits all or nothing, so a failed allocation leaves the store, and what this object
     * remembers, as they were.
     */
    void apply(long entity, byte op, BaseRelationship<?> relationship, long target, Object payload) {
        ensureTouchRoom();
        if (op == SparseWriteQueue.ADD && relationship.isCascadeDelete() && !settlement.isLiveTarget(target)) {
            // its target died before the edge landed; a later write of the same flush may still re-target it,
            // so the cascade is decided where the flush (or batch) leaves the store: settleLandedOnDead. Noted
            // before the edit (the note allocates): an edit that then fails leaves a note that finds no dead
            // target, never an edge on a dead target that nobody noted
            settlement.noteLandedOnDead(entity);
        }
        boolean changed;
        try {
            changed = switch (op) {
                case SparseWriteQueue.ADD -> sparse.add(relationship, entity, target, payload);
                case SparseWriteQueue.REMOVE -> sparse.remove(relationship, entity, target);
                default -> sparse.removeAll(relationship, entity);
            };
        } catch (RuntimeException | Error failure) {
            // the store is as it was, but the entity's marker may be published already: remembered (in the room
            // made above), the next wave's settlement makes the marker follow whatever edges it holds
            remember(entity, relationship);
            throw failure;
        }
        if (changed && !(op == SparseWriteQueue.ADD && carriesMarker(entity, relationship))) {
            remember(entity, relationship);
        }
    }

    /**
     * {@link #apply} of a run of added edges to one target ({@code DrainHooks.applySparseAddRun}), when the store
     * takes them in one step ({@link SparseEdges#addRun}): true when they all landed, each entity whose table lacks
     * the relationship's marker noted for {@link #settle} as {@code apply} notes it; false, having changed
     * nothing, otherwise, and for a cascading relationship's target that is not alive (whose writes {@code apply}
     * decides one by one). A failed growth of the store leaves it as it was, with every entity of the run noted:
     * none got its edge.
     */
    boolean applyAddRun(long[] entities, int from, int to, BaseRelationship<?> relationship, long target,
            Object[] payloads) {
        if (relationship.isCascadeDelete() && !settlement.isLiveTarget(target)) {
            return false;
        }
        reserveTouches(to - from);
        boolean added;
        try {
            added = sparse.addRun(relationship, entities, from, to, target, payloads);
        } catch (RuntimeException | Error failure) {
            for (int i = from; i < to; i++) {
                remember(entities[i], relationship); // in the room made above
            }
            throw failure;
        }
        if (!added) {
            return false;
        }
        int marker = relationship.id();
        Table last = null;
        boolean carries = false;
        for (int i = from; i < to; i++) { // entities of a run usually share their table: one lookup of the marker
            Table table = tableOf(entities[i]);
            if (table != last) {
                last = table;
                carries = table.has(marker);
            }
            if (!carries) {
                remember(entities[i], relationship);
            }
        }
        return true;
    }

    /**
     * Whether a live entity's table carries the relationship's marker. After an added edge it then holds an edge
     * and the marker, in step: nothing is noted for {@link #settle}, which would find nothing to correct. Whatever
     * takes them out of step later in the wave notes the entity itself: an edge write comes through here, and the
     * marker leaves only with its edges (a removal of the relationship queues its own write).
     */
    private boolean carriesMarker(long entity, BaseRelationship<?> relationship) {
        return tableOf(entity).has(relationship.id());
    }

    /** The table of a live entity. */
    private Table tableOf(long entity) {
        return archetypes.ofStore(index.storeOf(Entity.slot(entity)));
    }

    /**
     * {@link #apply} of an added edge for an entity whose table holds the relationship's marker, at once (see
     * {@code DrainHooks.addSparseAtOnce}): the entity holds an edge afterwards, so its marker stays in step and
     * nothing is noted for {@link #settle}. False, having changed nothing, when the target is not alive (whether a
     * cascade follows an edge that lands on a dead target is the flush's to decide). A failed growth of the store
     * leaves it as it was.
     */
    boolean addAtOnce(long entity, BaseRelationship<?> relationship, long target, Object payload) {
        if (!index.isAlive(target)) {
            return false;
        }
        sparse.add(relationship, entity, target, payload);
        return true;
    }

    /**
     * Makes room for {@code n} more notes at once (a batch's sparse writes, and what a failure among them leaves
     * to note), growing every array first so a failure leaves them as they were.
     */
    void reserveTouches(int n) {
        if (touchedEntities.length - touchedCount < n) {
            int capacity = Growth.nextCapacity(touchedEntities.length, touchedCount + n, Long.BYTES);
            // every array first, then assign: a failed growth leaves them all as they were, in step
            var grownTouchedEntities = Growth.copyOf(touchedEntities, capacity);
            var grownTouchedRelationships = Growth.copyOf(touchedRelationships, capacity);
            touchedEntities = grownTouchedEntities;
            touchedRelationships = grownTouchedRelationships;
        }
    }

    /**
     * Notes an entity for {@link #settle}, in room {@link #reserveTouches} made: one whose edges changed, or one a
     * batch moved with the relationship's marker and left without the edge it was to get (a write before it failed).
     */
    void remember(long entity, BaseRelationship<?> relationship) {
        touchedEntities[touchedCount] = entity;
        touchedRelationships[touchedCount++] = relationship;
    }

    private void ensureTouchRoom() {
        reserveTouches(1);
    }

    /**
     * Whether entities whose edges changed wait for {@link #settle}: a wave that failed after its writes landed
     * leaves them for the next publication, which brings their markers in step.
     */
    boolean hasUnsettled() {
        return touchedCount > 0;
    }

    /**
     * At the end of a wave: each entity whose sparse edges changed carries the relationship marker exactly
     * while it holds an edge. Where they disagree (its last edge was removed, or an edge landed while the marker
     * was being removed) the marker change is staged for the next wave, unless a later call already stages it.
     */
    void settle() {
        // in touch order; an entry counts as settled only once its correction is staged, so a correction that
        // fails leaves it and the rest for the next wave
        while (settled < touchedCount) {
            long entity = touchedEntities[settled];
            BaseRelationship<?> relationship = touchedRelationships[settled];
            if (index.isAlive(entity)) {
                int slot = Entity.slot(entity);
                boolean marked = archetypes.ofStore(index.storeOf(slot)).has(relationship.id());
                boolean holds = sparse.count(relationship, entity) > 0;
                if (marked != holds && !staging.isDoomed(slot)) {
                    staging.correctSparseMarker(entity, slot, relationship, holds);
                }
            }
            touchedRelationships[settled++] = null;
        }
        touchedCount = 0;
        settled = 0;
    }

    private int settled; // entries [0, settled) of the touched arrays are settled
}
