package dev.jtecs.relation.internal;

import dev.jtecs.component.BaseRelationship;
import dev.jtecs.entity.internal.EntityIndex;
import dev.jtecs.mutation.internal.DrainHooks;
import dev.jtecs.mutation.internal.MutationModel;
import dev.jtecs.relation.AncestorVisitor;
import dev.jtecs.relation.TraversalVisitor;
import dev.jtecs.storage.internal.ArchetypeRegistry;
import dev.jtecs.storage.internal.Table;
import java.util.function.LongConsumer;

/**
 * The relationship machinery of one world beyond staging: reads from a target to its sources
 * ({@link ReverseIndex}), walks ({@link Traversal}), and the drain's hooks: what a dying target does to the edges
 * pointing at it ({@link Settlement}) and where sparse edge writes land ({@link SparseMarkers}).
 *
 * <pre>
 *   World ─ sources / targets ──► ReverseIndex        (pairs through the component index; sparse store)
 *         ─ traverse / walkUp ──► Traversal
 *   CommitDrain ─ DrainHooks ──► despawned, placedWithPairs, segmentDone ──► Settlement ──► Staging (next wave)
 *                             ──► applySparse, settleSparse            ──► SparseMarkers ─► SparseEdges, markers
 * </pre>
 */
public final class Relations implements DrainHooks {
    private final EntityIndex index;
    private final ArchetypeRegistry archetypes;
    private final ReverseIndex reverse;
    private final Traversal traversal;
    private Settlement settlement;
    private SparseMarkers markers;

    /** The relationship machinery over a world's entities and archetypes; {@link #bind} it before publishing. */
    public Relations(EntityIndex index, ArchetypeRegistry archetypes) {
        this.index = index;
        this.archetypes = archetypes;
        this.reverse = new ReverseIndex(archetypes);
        this.traversal = new Traversal(index, archetypes);
    }

    /**
     * Attaches the mutation model the settlements are staged through (edge removals, cascading despawns, marker
     * corrections). Once, before the first publication: the model is built with this object as its drain's hooks,
     * so the two cannot be handed to each other's constructors.
     *
     * @throws IllegalStateException when already bound
     */
    public void bind(MutationModel model) {
        if (settlement != null) {
            throw new IllegalStateException("relations are bound to a mutation model already");
        }
        settlement = new Settlement(index, archetypes, model.transaction(), model.staging(), model.lifecycle(),
                model.drain());
        markers = new SparseMarkers(index, archetypes, model.staging(), settlement);
    }

    /**
     * The published entities holding an edge of {@code relationship} to {@code target}, ascending.
     *
     * @throws IllegalArgumentException when the relationship has no reverse index
     */
    public long[] sources(BaseRelationship<?> relationship, long target) {
        return reverse.sources(relationship, target);
    }

    /** Visits the sources of edges of {@code relationship} to {@code target}, in ascending id order. */
    public void targets(long target, BaseRelationship<?> relationship, LongConsumer action) {
        reverse.targets(target, relationship, action);
    }

    /** See {@link Traversal#traverse}. */
    public void traverse(long root, BaseRelationship<?> relationship, TraversalVisitor visitor) {
        traversal.traverse(root, relationship, visitor);
    }

    /** See {@link Traversal#walkUp}. */
    public void walkUp(long id, BaseRelationship<?> relationship, AncestorVisitor visitor, int maxDepth) {
        traversal.walkUp(id, relationship, visitor, maxDepth);
    }

    /** How many cascades despawned their subtree at once instead of staging it (tests). */
    long subtreesDespawnedAtOnce() {
        return settlement.subtreesDespawnedAtOnce();
    }

    // ---------------------------------------------------------------- drain hooks

    @Override
    public void prepareDespawns(int count, int highestSlot) {
        settlement.reserve(count, highestSlot);
    }

    @Override
    public void despawned(long id) {
        settlement.despawnedTarget(id);
    }

    @Override
    public void despawnedRun(long[] ids, int from, int to) {
        settlement.despawnedRun(ids, from, to);
    }

    @Override
    public boolean hearsDespawns() {
        return settlement.hearsDespawns();
    }

    @Override
    public boolean hearsDespawnOf(long id, Table table) {
        return settlement.hearsDespawnOf(id, table);
    }

    @Override
    public void placedWithPairs(Table table, int fromRow, int toRow) {
        settlement.dropEdgesToDead(table, fromRow, toRow);
    }

    @Override
    public void applySparse(long entity, byte op, BaseRelationship<?> relationship, long target, Object payload) {
        markers.apply(entity, op, relationship, target, payload);
    }

    @Override
    public boolean applySparseAddRun(long[] entities, int from, int to, BaseRelationship<?> relationship,
            long target, Object[] payloads) {
        return markers.applyAddRun(entities, from, to, relationship, target, payloads);
    }

    @Override
    public boolean addSparseAtOnce(long entity, BaseRelationship<?> relationship, long target, Object payload) {
        return markers.addAtOnce(entity, relationship, target, payload);
    }

    @Override
    public void reserveSparseTouches(int n) {
        markers.reserveTouches(n);
    }

    @Override
    public void rememberUnwritten(long entity, BaseRelationship<?> relationship) {
        markers.remember(entity, relationship);
    }

    @Override
    public void settleSparse() {
        markers.settle();
    }

    @Override
    public void segmentDone() {
        settlement.settleDeadTargets();
    }

    @Override
    public boolean pendingSettlement() {
        return settlement.hasUnsettledTargets() || markers.hasUnsettled();
    }

    @Override
    public void publicationEnded(boolean published) {
        settlement.publicationEnded(published);
    }
}
