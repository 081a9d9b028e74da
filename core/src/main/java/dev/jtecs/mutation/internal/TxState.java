package dev.jtecs.mutation.internal;

/** The state an entity id has within one transaction. */
public enum TxState {
    /** Nothing staged: the committed row is the truth. */
    COMMITTED,
    /** Spawned in this transaction; placement waits for the drain. */
    STAGED_SPAWN,
    /** Committed entity with staged structural changes (and the values that ride along). */
    STAGED_MUTATE,
    /** Committed entity staged for removal. */
    STAGED_DESPAWN,
    /** Spawned and despawned in the same transaction: the drain only releases its slot. */
    CANCELLED_SPAWN
}
