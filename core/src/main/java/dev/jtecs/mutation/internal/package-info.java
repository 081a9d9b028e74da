/**
 * Staging and the commit drain: how structural changes wait in a transaction and are published in waves.
 *
 * <p>Every entity id is in exactly one transaction state ({@link dev.jtecs.mutation.internal.TxState}). Mutations only
 * record intent in the {@link dev.jtecs.mutation.internal.Transaction} (last write wins per component); the drain publishes:
 *
 * <pre>
 *   spawn/set/remove/despawn ──► Transaction (one flat record per slot, staging order)
 *                                   │ commit()
 *                                   ▼
 *   CommitDrain wave: despawns ─► spawns ─► moves ─► (work staged meanwhile = next wave, at most 64)
 * </pre>
 *
 * <p>Invariants: despawns run before spawns in a wave, so spawns reuse freed rows; an entity moves at most once
 * per wave (its whole staged shape is resolved into one destination); a failed publication keeps what was
 * published and discards the rest; every entity observer of a table hears every notification about its rows even
 * when another one throws ({@link dev.jtecs.mutation.internal.Notifications}), so one failing membership callback never
 * leaves the others out of step. Internal to the core module.
 */
package dev.jtecs.mutation.internal;
