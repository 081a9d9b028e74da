package dev.jtecs.mutation.internal;

import dev.jtecs.builtin.EntityKey;
import dev.jtecs.component.Component;
import dev.jtecs.component.ComponentValue;
import dev.jtecs.component.Input;
import dev.jtecs.component.ManagedComponent;
import dev.jtecs.component.NativeComponent;
import dev.jtecs.component.ScalarComponent;
import dev.jtecs.component.PairComponent;
import dev.jtecs.component.BaseRelationship;
import dev.jtecs.component.RelationshipValue;
import dev.jtecs.component.TagComponent;
import dev.jtecs.entity.Entity;
import dev.jtecs.entity.internal.EntityIndex;
import dev.jtecs.storage.internal.ArchetypeRegistry;
import dev.jtecs.storage.internal.PairRegistry;
import dev.jtecs.storage.internal.Table;

/**
 * The per-entity transaction table of the mutation model: what {@code set}, {@code remove} and {@code despawn}
 * do to an entity in each transaction state. Callers have validated ids and inputs; nothing here throws for bad
 * input.
 *
 * <pre>
 *   state \ call    set                        remove                    despawn
 *   committed       write through, or stage    stage a move if present   stage removal (events first)
 *   staged spawn    update the staged shape    drop from the shape       cancel placement
 *   staged mutate   restage the value          restage the removal       cancel the move, stage removal
 *   staged despawn  nothing                    nothing                   nothing
 * </pre>
 */
public final class Staging {
    private final EntityIndex index;
    private final ArchetypeRegistry archetypes;
    private final Transaction transaction;
    private final KeyIndex keys;

    private final PairRegistry pairs;
    private final SparseWriteQueue sparseWrites;

    Staging(EntityIndex index, ArchetypeRegistry archetypes, Transaction transaction, KeyIndex keys,
            PairRegistry pairs, SparseWriteQueue sparseWrites) {
        this.pairs = pairs;
        this.sparseWrites = sparseWrites;
        this.index = index;
        this.archetypes = archetypes;
        this.transaction = transaction;
        this.keys = keys;
    }

    /** Opens the record of a spawn whose id is already reserved. */
    int beginSpawn(long id) {
        return transaction.begin(id, Entity.slot(id), TxState.STAGED_SPAWN);
    }

    /** Adds one input to a staged spawn (last one wins per component). */
    void stageSpawnInput(int record, Input input) {
        if (input instanceof RelationshipValue edge) {
            if (edge.relationship().isSparse()) {
                putAdding(record, edge.relationship(), edge.relationship());
                stageSparse(transaction.id(record), SparseWriteQueue.ADD, edge.relationship(), edge.target(),
                        edge.payload());
            } else {
                stageEdge(record, -1, edge);
            }
            return;
        }
        putAdding(record, input.component(), input);
        stageKeyClaim(transaction.id(record), input);
    }

    void set(long id, int slot, Input input) {
        if (input instanceof RelationshipValue edge) {
            if (edge.relationship().isSparse()) {
                setSparse(id, slot, edge);
            } else {
                setEdge(id, slot, edge);
            }
            return;
        }
        setComponent(id, slot, input);
    }

    /** Publishes a new value at once instead of staging it, where it can (see {@link #moveValuesAtOnceWith}). */
    interface ValueMoveAtOnce {
        /**
         * Moves the row of the entity, published in {@code table}, which lacks the value's component, with the
         * value at once and answers true, or changes nothing.
         */
        boolean move(long id, Input input, Table table);
    }

    private ValueMoveAtOnce valuesAtOnce;

    /**
     * Asks {@code atOnce} first whenever a new value would be staged as a compact value move (a plain row move of a
     * published entity with nothing staged): the mutation model moves it at once when the call is outermost.
     */
    void moveValuesAtOnceWith(ValueMoveAtOnce atOnce) {
        this.valuesAtOnce = atOnce;
    }

    /**
     * The table of a published entity for which nothing is staged (no record, tag move or despawn) while no batch
     * boundary is open, or {@code null}: the entity whose compact move {@link #stageTagMove} may stage at once.
     */
    private Table quietTable(long id) {
        int store = index.aliveStore(id);
        if (store < 0) {
            return null;
        }
        int slot = Entity.slot(id);
        Table table = archetypes.ofStore(store);
        return nothingStaged(slot, table) ? table : null;
    }

    /**
     * The compact tag move of {@code set(tag)} or {@code remove(component)} alone, inside a scope: when the
     * published entity has nothing staged (no record, tag move or despawn), no batch boundary is open, and the
     * change is a plain row move (adding a tag without requirements it lacks; removing a tag, native, scalar or
     * managed component it has, {@code EntityKey} aside), stages the move exactly as {@link #setComponent} or
     * {@link #removeComponent} would and returns true; a removal of a component the entity lacks returns true
     * having staged nothing, as those do. Anything else changes nothing and returns false: the caller takes the
     * general path. The caller checks the partition rules and the scope.
     */
    boolean stageTagMove(long id, Component<?> component, boolean add) {
        // the same change as the last move staged here, from the same table: small enough to inline into a caller
        if (component == lastMoveComponent && add == lastMoveAdds) {
            Table table = quietTable(id);
            if (table != null && table == lastMoveTable) {
                transaction.stageTagMove(id, Entity.slot(id), component, add, table);
                return true;
            }
        }
        return stageOtherTagMove(id, component, add);
    }

    /** {@link #stageTagMove} of any other change, or of the last one from another table or entity state. */
    private boolean stageOtherTagMove(long id, Component<?> component, boolean add) {
        // the same change as the last move staged here passed the component's checks then (its kind and
        // requirements never change); in the same table, the entity lacks (adds) or has (removes) it as that one did
        boolean repeat = component == lastMoveComponent && add == lastMoveAdds;
        if (!repeat && (add ? !(component instanceof TagComponent) || !component.requires().isEmpty()
                : !removesAsPlainMove(component))) {
            return false;
        }
        Table table = quietTable(id);
        if (table == null) {
            return false;
        }
        if (!repeat || table != lastMoveTable) {
            boolean has = table.position(component.id()) >= 0;
            if (add == has) {
                return !add; // adding a tag it has marks the column (the general path's write-through)
            }
            lastMoveComponent = component;
            lastMoveAdds = add;
            lastMoveTable = table;
        }
        transaction.stageTagMove(id, Entity.slot(id), component, add, table);
        return true;
    }

    /**
     * The edge of a sparse relationship alone, inside a scope: when the published entity has nothing staged (no
     * record, tag move or despawn), no batch boundary is open and its table carries the relationship's marker, the
     * edge is queued for the store exactly as {@link #setSparse} queues it then, and true returned. Anything else
     * changes nothing and returns false: the caller takes the general path. The caller checks the scope.
     */
    boolean stageSparseEdge(long id, BaseRelationship<?> relationship, long target, Object payload) {
        Table table = quietTable(id);
        if (table == null || !table.has(relationship.id())) {
            return false;
        }
        stageSparse(id, SparseWriteQueue.ADD, relationship, target, payload);
        return true;
    }

    // the last change stageTagMove staged and the table it left (a table's signature never changes)
    private Component<?> lastMoveComponent;
    private boolean lastMoveAdds;
    private Table lastMoveTable;

    /**
     * The quiet despawn of a published entity that has nothing staged while no batch boundary is open, in short:
     * stages it exactly as {@link #despawn} would ({@link Transaction#stageQuietDespawn}) and returns true, or
     * changes nothing and returns false (any other entity or state), and the caller takes the general path. The
     * caller delivers nothing: it takes this path only when nobody observes the despawn (a cascade's settlement
     * takes it for each entity of the subtree while {@link LifecycleEvents#despawnIsSilent}).
     */
    public boolean stageQuietDespawn(long id) {
        if (!canStageQuietDespawn(id)) {
            return false;
        }
        transaction.stageQuietDespawn(id, Entity.slot(id));
        return true;
    }

    /**
     * Whether {@link #stageQuietDespawn} would stage {@code id} now: a published entity with nothing staged while
     * no batch boundary is open. Changes nothing.
     */
    public boolean canStageQuietDespawn(long id) {
        return quietTable(id) != null;
    }

    /** {@code set} for a component value (or a sparse relationship's marker). */
    private void setComponent(long id, int slot, Input input) {
        int store = index.aliveStore(id);
        boolean alive = store >= 0;
        Table table = alive ? archetypes.ofStore(store) : null; // read once for every check below
        if (alive && isDoomed(slot, table)) {
            return; // a staged batch despawn selected it
        }
        int record = transaction.find(slot);
        if (record >= 0 && transaction.isClosed(record)) {
            if (isDespawning(transaction.state(record))) {
                return;
            }
            record = transaction.begin(id, slot, TxState.STAGED_MUTATE); // after the batch boundary
        } else if (record < 0) {
            if (alive && !transaction.hasOpenBoundary()) {
                int position = table.position(input.component().id());
                if (position >= 0) {
                    writeThrough(id, table, position, index.rowOf(slot), input);
                    return;
                }
                if (input instanceof TagComponent tag && tag.requires().isEmpty()) {
                    transaction.stageTagMove(id, slot, tag, true, table); // the compact form: no record, no entry
                    return;
                }
                if (addsAsPlainMove(input)) {
                    if (valuesAtOnce == null || !valuesAtOnce.move(id, input, table)) {
                        transaction.stageValueMove(id, slot, input, table); // the compact form, carrying the value
                    }
                    return;
                }
            }
            record = transaction.begin(id, slot, TxState.STAGED_MUTATE);
        }
        TxState state = transaction.state(record);
        if (state == TxState.STAGED_SPAWN || state == TxState.STAGED_MUTATE) {
            putAdding(record, input.component(), input);
            stageKeyClaim(id, input);
        }
    }

    // ---------------------------------------------------------------- relationship edges

    /**
     * Adds a sparse edge: the edge is queued for the store (flushed after the segment's moves) and the marker is
     * staged unless the published entity already carries it and nothing structural is pending for it.
     */
    private void setSparse(long id, int slot, RelationshipValue edge) {
        BaseRelationship<?> relationship = edge.relationship();
        boolean alive = index.isAlive(id);
        if (alive && isDoomed(slot)) {
            return;
        }
        int record = transaction.find(slot);
        if (record >= 0 && isDespawning(transaction.state(record))) {
            return;
        }
        if (record < 0 && alive && !transaction.hasOpenBoundary()
                && archetypes.ofStore(index.storeOf(slot)).has(relationship.id())) {
            stageSparse(id, SparseWriteQueue.ADD, relationship, edge.target(), edge.payload());
            return;
        }
        setComponent(id, slot, relationship);
        stageSparse(id, SparseWriteQueue.ADD, relationship, edge.target(), edge.payload());
    }

    /** Removes one sparse edge; the marker goes when the store is left without edges (see Relations). */
    void removeSparse(long id, int slot, BaseRelationship<?> relationship, long target) {
        if (index.isAlive(id) && isDoomed(slot)) {
            return;
        }
        int record = transaction.find(slot);
        if (record >= 0 && isDespawning(transaction.state(record))) {
            return;
        }
        stageSparse(id, SparseWriteQueue.REMOVE, relationship, target, null);
    }

    /** Removes every sparse edge of a relationship, and its marker. */
    private void removeAllSparse(long id, int slot, BaseRelationship<?> relationship) {
        if (index.isAlive(id) && isDoomed(slot)) {
            return;
        }
        int record = transaction.find(slot);
        if (record >= 0 && isDespawning(transaction.state(record))) {
            return;
        }
        removeComponent(id, slot, relationship);
        stageSparse(id, SparseWriteQueue.REMOVE_ALL, relationship, 0, null);
    }

    /**
     * Stages a sparse relationship marker on its own, without an edge write: the store's edges and the marker
     * disagree after a flush (the last edge went, or an edge arrived while the marker was being removed).
     */
    public void correctSparseMarker(long id, int slot, BaseRelationship<?> relationship, boolean present) {
        int record = transaction.find(slot);
        if (record >= 0 && !transaction.isClosed(record) && transaction.findEntry(record, relationship) >= 0) {
            return; // a later call decides the marker, and its edge write follows
        }
        if (present) {
            setComponent(id, slot, relationship);
        } else {
            removeComponent(id, slot, relationship);
        }
    }

    /**
     * Stages an addition; when the component's requirements bring sparse edges, each is queued as a
     * {@link SparseWriteQueue#REQUIRE} at this point of the call order, applied at the flush only if the drain's
     * plan added the requirement (the component arrived and the entity held no edge of that relationship).
     */
    private void putAdding(int record, Component<?> component, Input input) {
        transaction.put(record, component, input);
        RelationshipValue[] required = sparseRequirements(component);
        for (RelationshipValue edge : required) {
            stageSparse(transaction.id(record), SparseWriteQueue.REQUIRE, edge.relationship(), edge.target(),
                    edge.payload());
        }
    }

    private final java.util.Map<Component<?>, RelationshipValue[]> sparseRequired = new java.util.IdentityHashMap<>();
    private static final RelationshipValue[] NO_EDGES = new RelationshipValue[0];

    /** The sparse edges in a component's requirement closure (cached per component). */
    private RelationshipValue[] sparseRequirements(Component<?> component) {
        if (component.requires().isEmpty()) {
            return NO_EDGES;
        }
        RelationshipValue[] cached = sparseRequired.get(component);
        if (cached == null) {
            java.util.List<RelationshipValue> found = new java.util.ArrayList<>();
            java.util.Set<Component<?>> seen = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
            java.util.ArrayDeque<Component<?>> queue = new java.util.ArrayDeque<>(java.util.List.of(component));
            while (!queue.isEmpty()) {
                Component<?> next = queue.poll();
                if (!seen.add(next)) {
                    continue;
                }
                for (Input input : next.requires()) {
                    if (input instanceof RelationshipValue edge && edge.relationship().isSparse()) {
                        found.add(edge);
                    }
                    queue.add(input.component());
                }
            }
            cached = found.toArray(NO_EDGES);
            sparseRequired.put(component, cached);
        }
        return cached;
    }

    private void stageSparse(long id, byte op, BaseRelationship<?> relationship, long target, Object payload) {
        sparseWrites.stage(id, op, relationship, target, payload, transaction.openOps());
    }

    /** Adds an edge: its pair component and the relationship marker (exclusive: other edges go). */
    private void setEdge(long id, int slot, RelationshipValue edge) {
        PairComponent pair = pairs.pair(edge.relationship(), edge.target());
        boolean alive = index.isAlive(id);
        if (alive && isDoomed(slot)) {
            return;
        }
        int record = transaction.find(slot);
        int earlier = -1;
        if (record >= 0 && transaction.isClosed(record)) {
            if (isDespawning(transaction.state(record))) {
                return;
            }
            earlier = record;
            record = transaction.begin(id, slot, TxState.STAGED_MUTATE);
        } else if (record < 0) {
            Table table = alive && !transaction.hasOpenBoundary() ? archetypes.ofStore(index.storeOf(slot)) : null;
            if (table != null && table.has(pair.id())) { // the edge exists (exclusive: it is then the only one)
                if (edge.payload() != null) { // a payload edge to the same target: the new payload replaces it
                    writeThrough(id, table, table.position(pair.id()), index.rowOf(slot), pairInput(pair, edge));
                }
                return;
            }
            record = transaction.begin(id, slot, TxState.STAGED_MUTATE);
        }
        TxState state = transaction.state(record);
        if (state == TxState.STAGED_SPAWN || state == TxState.STAGED_MUTATE) {
            if (edge.relationship().isExclusive()) {
                dropOtherEdges(slot, record, earlier, edge.relationship(), pair);
            }
            stageEdge(record, earlier, edge);
        }
    }

    /** Puts an edge's pair and marker into a record (a spawn's exclusive edges replace each other here). */
    private void stageEdge(int record, int earlier, RelationshipValue edge) {
        BaseRelationship<?> relationship = edge.relationship();
        PairComponent pair = pairs.pair(relationship, edge.target());
        if (relationship.isExclusive() && transaction.state(record) == TxState.STAGED_SPAWN) {
            dropOtherEdges(-1, record, earlier, relationship, pair);
        }
        transaction.put(record, pair, pairInput(pair, edge));
        putAdding(record, relationship, relationship);
    }

    /** What a dense edge writes into its pair: nothing for a tag pair, the payload record otherwise. */
    static Input pairInput(PairComponent pair, RelationshipValue edge) {
        return edge.payload() == null ? pair : new ComponentValue<>(pair, edge.payload());
    }

    /** Stages the removal of every edge of {@code relationship} other than {@code keep} (committed or staged). */
    private void dropOtherEdges(int slot, int record, int earlier, BaseRelationship<?> relationship, PairComponent keep) {
        java.util.List<PairComponent> others = new java.util.ArrayList<>();
        collectEdges(slot, record, earlier, relationship, others);
        others.remove(keep);
        unstage(record, others);
    }

    /** Removes every edge of a relationship, and its marker. */
    private void removeEdges(long id, int slot, BaseRelationship<?> relationship) {
        boolean alive = index.isAlive(id);
        if (alive && isDoomed(slot)) {
            return;
        }
        int record = transaction.find(slot);
        int earlier = -1;
        if (record >= 0 && transaction.isClosed(record)) {
            if (isDespawning(transaction.state(record))) {
                return;
            }
            earlier = record;
            record = -1;
        }
        java.util.List<PairComponent> edges = new java.util.ArrayList<>();
        collectEdges(slot, record, earlier, relationship, edges);
        if (record < 0) {
            // a published entity without the relationship, and no pending batch that could add an edge first:
            // nothing to remove. One not published yet (a spawn the drain is publishing, whose sealed record
            // staging no longer finds) may hold edges staging cannot see: its removal is staged, as a component's is
            if (edges.isEmpty() && !transaction.hasOpenBoundary() && alive
                    && !archetypes.ofStore(index.storeOf(slot)).has(relationship.id())) {
                return;
            }
            record = transaction.begin(id, slot, TxState.STAGED_MUTATE);
        }
        TxState state = transaction.state(record);
        if (state != TxState.STAGED_SPAWN && state != TxState.STAGED_MUTATE) {
            return;
        }
        unstage(record, edges);
        if (state == TxState.STAGED_SPAWN) {
            transaction.drop(record, relationship);
        } else {
            transaction.put(record, relationship, null);
        }
    }

    /**
     * Collects the distinct pairs of a relationship the entity holds (published, or planned by its spawn batch)
     * or has staged in {@code record} or the closed {@code earlier} record (either may be -1).
     */
    private void collectEdges(int slot, int record, int earlier, BaseRelationship<?> relationship,
            java.util.List<PairComponent> into) {
        Table table = slot < 0 ? null : committedOrPlanned(slot);
        if (table != null) {
            for (int p = 0; p < table.componentCount(); p++) {
                if (table.componentAt(p) instanceof PairComponent pair && pair.relationship() == relationship) {
                    into.add(pair);
                }
            }
        }
        for (int r : new int[] {earlier, record}) {
            if (r < 0) {
                continue;
            }
            for (int e = transaction.firstEntry(r); e >= 0; e = transaction.nextEntry(e)) {
                if (transaction.entryComponent(e) instanceof PairComponent pair && pair.relationship() == relationship
                        && transaction.entryInput(e) != null && !into.contains(pair)) {
                    into.add(pair);
                }
            }
        }
    }

    /**
     * The table whose edges an entity holds as far as staging can see: its archetype when published, the
     * archetype its spawn batch will place it in when it is a batch member not placed yet, else {@code null}.
     */
    private Table committedOrPlanned(int slot) {
        long id = Entity.pack(slot, index.generationOf(slot));
        if (index.isAlive(id)) {
            return archetypes.ofStore(index.storeOf(slot));
        }
        int planned = index.batchArchetype(slot);
        return planned >= 0 ? archetypes.get(planned) : null;
    }

    private void unstage(int record, java.util.List<PairComponent> pairsToRemove) {
        boolean spawn = transaction.state(record) == TxState.STAGED_SPAWN;
        for (PairComponent pair : pairsToRemove) {
            if (spawn) {
                transaction.drop(record, pair);
            } else {
                transaction.put(record, pair, null);
            }
        }
    }

    /**
     * Whether a staged batch despawn selected an alive entity: by mark, or by claiming every row of its
     * archetype (a capture not copied yet).
     */
    public boolean isDoomed(int slot) {
        return isDoomed(slot, archetypes.ofStore(index.storeOf(slot)));
    }

    /** {@link #isDoomed(int)} for a live entity whose table the caller holds. */
    private boolean isDoomed(int slot, Table table) {
        return transaction.isDoomed(slot) || table.hasPendingDespawn();
    }

    /**
     * Whether a despawn of this entity is staged in the open submission (by a despawn, a batch despawn or a
     * cancelled spawn): later structural calls on it are then dropped. Changes nothing (a compact tag move stays
     * one).
     */
    boolean isDespawnStaged(long id, int slot) {
        if (index.isAlive(id) && isDoomed(slot)) {
            return true;
        }
        if (transaction.isDoomed(slot)) {
            return true;
        }
        int record = transaction.peek(slot);
        return record >= 0 && isDespawning(transaction.state(record));
    }

    private static boolean isDespawning(TxState state) {
        return state == TxState.STAGED_DESPAWN || state == TxState.CANCELLED_SPAWN;
    }

    /**
     * Whether nothing is staged for the published entity in {@code slot} of {@code table} (its current archetype):
     * no record, no compact move, no doom, and no open batch boundary for any entity. Then {@link #setComponent}
     * writes an existing component through and stages a new one as a compact move. Changes nothing (unlike
     * {@code setComponent}'s lookup, it does not turn a compact move into a record).
     */
    boolean nothingStaged(int slot, Table table) {
        return !isDoomed(slot, table) && !transaction.hasStaged(slot) && !transaction.hasOpenBoundary();
    }

    private void writeThrough(long id, Table table, int position, int row, Input input) {
        if (input.component() == EntityKey.COMPONENT) {
            String previous = (String) table.readValue(position, row);
            String key = keyOf(input);
            keys.claimNow(key, id); // before the row holds it: a claim that fails leaves the row as it was
            table.writeInput(position, row, input);
            keys.releaseNow(key, previous, id);
        } else {
            table.writeInput(position, row, input);
        }
        table.markDirty(position);
    }

    public void remove(long id, int slot, Component<?> component) {
        if (component instanceof BaseRelationship<?> relationship) {
            if (relationship.isSparse()) {
                removeAllSparse(id, slot, relationship);
            } else {
                removeEdges(id, slot, relationship);
            }
            return;
        }
        removeComponent(id, slot, component);
    }

    /** {@code remove} for a component (or a sparse relationship's marker). */
    private void removeComponent(long id, int slot, Component<?> component) {
        int store = index.aliveStore(id);
        boolean alive = store >= 0;
        Table table = alive ? archetypes.ofStore(store) : null; // read once for every check below
        if (alive && isDoomed(slot, table)) {
            return;
        }
        int record = transaction.find(slot);
        if (record >= 0 && transaction.isClosed(record)) {
            if (!isDespawning(transaction.state(record))) {
                transaction.put(transaction.begin(id, slot, TxState.STAGED_MUTATE), component, null);
            }
            return;
        }
        if (record < 0) {
            // not published yet (a spawn-batch member, or a spawn the drain is publishing), or a pending batch
            // may add the component before this removal applies: stage it; otherwise only if it is there now
            if (!alive || transaction.hasOpenBoundary()) {
                transaction.put(transaction.begin(id, slot, TxState.STAGED_MUTATE), component, null);
            } else if (table.has(component.id())) {
                if (removesAsPlainMove(component)) {
                    transaction.stageTagMove(id, slot, component, false, table); // the compact form: no record, no entry
                } else {
                    transaction.put(transaction.begin(id, slot, TxState.STAGED_MUTATE), component, null);
                }
            }
            return;
        }
        switch (transaction.state(record)) {
            case STAGED_SPAWN -> transaction.drop(record, component);
            case STAGED_MUTATE -> transaction.put(record, component, null);
            default -> { }
        }
    }

    /**
     * Whether removing the component is nothing but a row move to the archetype without it, so the compact tag
     * move can stage it: a tag, or a native, scalar or managed component other than {@code EntityKey} (whose
     * removal releases a key). Relationships, their markers and pairs keep records (edges, reverse index).
     */
    static boolean removesAsPlainMove(Component<?> component) {
        return component instanceof TagComponent || component instanceof NativeComponent<?>
                || component instanceof ManagedComponent<?>
                || (component instanceof ScalarComponent<?> && component != EntityKey.COMPONENT);
    }

    /**
     * Whether adding this value is nothing but a row move to the archetype with its component and one value
     * written, so the compact tag move can stage it carrying the value: a constructed value of a native, scalar
     * (not {@code EntityKey}, whose value claims a key) or managed component without requirements (which would
     * add further components and need a plan). A bare component, which asks for its default, keeps a record.
     */
    static boolean addsAsPlainMove(Input input) {
        if (!(input instanceof ComponentValue<?> value)) {
            return false;
        }
        Component<?> component = value.component();
        return component.requires().isEmpty() && (component instanceof NativeComponent<?>
                || component instanceof ManagedComponent<?>
                || (component instanceof ScalarComponent<?> && component != EntityKey.COMPONENT));
    }

    /**
     * Stages a despawn. Returns what the entity was before ({@link TxState#COMMITTED} when published,
     * {@link TxState#STAGED_SPAWN} when not published yet, {@link TxState#STAGED_MUTATE}), or {@code null} when
     * the call does nothing (already despawning), so the caller knows whether to deliver {@code OnDespawn}.
     *
     * <p>A staged removal also marks the slot: once the drain seals the record it can no longer be found by slot,
     * and a cascade that reaches the entity before the record's segment publishes (its parent died in an
     * earlier segment) must see that it is already being despawned. A published entity with nothing staged, while
     * no batch boundary is open, gets no record at all: the mark and its id in the transaction's list of quiet
     * despawns are all the drain needs, and every later call for the slot reads the mark first.
     */
    public TxState despawn(long id, int slot) {
        boolean alive = index.isAlive(id);
        if (alive && isDoomed(slot)) {
            return null; // a staged batch despawn selected it and reported it already
        }
        int record = transaction.find(slot);
        if (record >= 0 && !transaction.isClosed(record)) {
            TxState state = transaction.state(record);
            switch (state) {
                case STAGED_SPAWN -> transaction.cancelInto(record, TxState.CANCELLED_SPAWN);
                case STAGED_MUTATE -> {
                    transaction.cancelInto(record, TxState.STAGED_DESPAWN);
                    transaction.doom(slot);
                    if (!index.isAlive(id) && index.batchArchetype(slot) >= 0) {
                        transaction.noteBatchCancel();
                    }
                }
                default -> {
                    return null;
                }
            }
            return state;
        }
        if (record >= 0 && isDespawning(transaction.state(record))) {
            return null;
        }
        if (!alive && index.batchArchetype(slot) == EntityIndex.RESTORING) {
            // a callback that runs while a load plans its batches (an ArchetypeCreated observer) named an entity
            // the load reserved but has not placed: neither a staged spawn to cancel nor a live entity
            throw new IllegalStateException("despawn: " + Entity.toString(id) + " is being restored by a snapshot "
                    + "load and is not placed yet; despawn it once the load has returned");
        }
        if (alive && record < 0 && !transaction.hasOpenBoundary()) {
            transaction.stageQuietDespawn(id, slot); // the compact form: an id and the slot's mark, no record
            return TxState.COMMITTED;
        }
        transaction.begin(id, slot, TxState.STAGED_DESPAWN);
        transaction.doom(slot);
        if (!alive) {
            if (index.batchArchetype(slot) >= 0) {
                transaction.noteBatchCancel(); // a spawn-batch member: the batch skips it
            }
            return TxState.STAGED_SPAWN;
        }
        return TxState.COMMITTED;
    }

    private void stageKeyClaim(long id, Input input) {
        if (input.component() == EntityKey.COMPONENT) {
            keys.stageClaim(keyOf(input), id);
        }
    }

    /** The key an input claims: its value ({@code EntityKey.COMPONENT} alone means the empty key). */
    static String keyOf(Input input) {
        return input instanceof ComponentValue<?> value ? (String) value.value() : "";
    }
}
