package dev.jtecs.world;

import dev.jtecs.builtin.EntityKey;
import dev.jtecs.component.Component;
import dev.jtecs.component.ComponentValue;
import dev.jtecs.component.Input;
import dev.jtecs.entity.Entity;
import dev.jtecs.entity.internal.EntityIndex;
import dev.jtecs.mutation.Transaction;
import dev.jtecs.mutation.TxState;
import dev.jtecs.storage.internal.ArchetypeRegistry;
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
final class Staging {
    private final EntityIndex index;
    private final ArchetypeRegistry archetypes;
    private final Transaction transaction;
    private final KeyIndex keys;

    Staging(EntityIndex index, ArchetypeRegistry archetypes, Transaction transaction, KeyIndex keys) {
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
        transaction.put(record, input.component(), input);
        stageKeyClaim(transaction.id(record), input);
    }

    void set(long id, int slot, Input input) {
        boolean alive = index.isAlive(id);
        if (alive && isDoomed(slot)) {
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
                Table table = archetypes.ofStore(index.storeOf(slot));
                int position = table.position(input.component().id());
                if (position >= 0) {
                    writeThrough(id, table, position, index.rowOf(slot), input);
                    return;
                }
            }
            record = transaction.begin(id, slot, TxState.STAGED_MUTATE);
        }
        TxState state = transaction.state(record);
        if (state == TxState.STAGED_SPAWN || state == TxState.STAGED_MUTATE) {
            transaction.put(record, input.component(), input);
            stageKeyClaim(id, input);
        }
    }

    /**
     * Whether a staged batch despawn selected an alive entity: by mark, or by claiming every row of its
     * archetype (a capture not copied yet).
     */
    boolean isDoomed(int slot) {
        return transaction.isDoomed(slot) || archetypes.ofStore(index.storeOf(slot)).hasPendingDespawn();
    }

    private static boolean isDespawning(TxState state) {
        return state == TxState.STAGED_DESPAWN || state == TxState.CANCELLED_SPAWN;
    }

    private void writeThrough(long id, Table table, int position, int row, Input input) {
        if (input.component() == EntityKey.COMPONENT) {
            String previous = (String) table.readValue(position, row);
            table.writeInput(position, row, input);
            keys.commitNow(keyOf(input), previous, id);
        } else {
            table.writeInput(position, row, input);
        }
        table.markDirty(position);
    }

    void remove(long id, int slot, Component<?> component) {
        boolean alive = index.isAlive(id);
        if (alive && isDoomed(slot)) {
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
            if (!alive || transaction.hasOpenBoundary()
                    || archetypes.ofStore(index.storeOf(slot)).has(component.id())) {
                transaction.put(transaction.begin(id, slot, TxState.STAGED_MUTATE), component, null);
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
     * Stages a despawn. Returns what the entity was before ({@link TxState#COMMITTED} when published,
     * {@link TxState#STAGED_SPAWN} when not published yet, {@link TxState#STAGED_MUTATE}), or {@code null} when
     * the call does nothing (already despawning), so the caller knows whether to deliver {@code OnDespawn}.
     */
    TxState despawn(long id, int slot) {
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
        transaction.begin(id, slot, TxState.STAGED_DESPAWN);
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
