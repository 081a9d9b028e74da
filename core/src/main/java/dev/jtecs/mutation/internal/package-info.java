/**
 * The mutation model of one world: how structural calls are checked, staged in a transaction and published by
 * the commit drain in waves. {@link dev.jtecs.mutation.internal.MutationModel} is the facade the world delegates
 * every structural call to.
 *
 * <pre>
 *   call ─► InputChecks ─► Scopes.enter ─► Staging (per entity: one record per slot, last write wins)
 *                                       └► Batches (bulk: one BatchOp descriptor) ─► LifecycleEvents (OnSpawn...)
 *        ─► Scopes.exit ──(outermost, or commit())──► CommitDrain.publish
 *
 *   CommitDrain wave (at most 64): seal ─► per segment between query batches:
 *       reserve (destinations resolved once, capacity grown once) ─► despawns ─► spawn batches (BulkPaths)
 *       ─► single spawns (SpawnPlacement) ─► moves (MovePlacement) ─► sparse writes ─► DrainHooks.segmentDone
 *       ─► the query batch (BulkPaths)                      work staged meanwhile forms the next wave
 *   publish ends: DrainHooks.publicationEnded, KeyIndex confirms the claims it staged
 *
 *   setTag/unsetTag ─► PartitionLedger.decide (remove wins, repeats, conflicts, per submission) ─► Staging
 * </pre>
 *
 * <p>Invariants: despawns run before spawns in a segment, so spawns reuse freed rows; an entity moves at most once
 * per wave (its whole staged shape resolves into one destination) and no intermediate archetype is created; a
 * query batch runs between the work staged before it and the work staged after it; a failed publication keeps
 * what was published and discards the rest (reserved ids released, marks undone); every entity observer of a
 * table hears every notification about its rows even when another one throws ({@code Notifications}); nothing in
 * this package knows relationships beyond staging their edges: what edges mean at publication is the
 * {@link dev.jtecs.mutation.internal.DrainHooks}' business. Internal to the core module.
 */
package dev.jtecs.mutation.internal;
