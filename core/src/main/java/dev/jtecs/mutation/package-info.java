/**
 * The mutation model's public types: what the bulk calls hand back ({@link dev.jtecs.mutation.BatchIds}) and call
 * ({@link dev.jtecs.mutation.BatchCallback}, once per contiguous row range at publication), and
 * {@link dev.jtecs.mutation.SpawnQueue}, the typed per-entity spawn path: one shape planned once, then each
 * {@code spawn()} returns an id and {@code set(field, value)} writes that entity's values into its staged row, with
 * no record or input object per entity.
 *
 * <p>{@link dev.jtecs.mutation.PartitionDimension} groups tags into one axis of an entity's state (a presence tag,
 * or mutually exclusive variants) that {@code World.setTag}/{@code unsetTag} change as a unit;
 * {@link dev.jtecs.mutation.PartitionConflicts} says what two requests on one axis of one entity in one submission
 * do, and {@link dev.jtecs.mutation.PartitionConflictException} is what the raising mode throws.
 *
 * <p>The model itself (scopes, staging, the commit drain in waves, bulk paths, keys, the spawn queues'
 * {@code QueuedSpawns}) lives in {@code mutation.internal}, behind the world's structural calls; see
 * {@code docs/world.md} and {@code docs/bulk.md} for its rules.
 *
 * <pre>
 *   world.batchSpawn(n, inputs, callback) ──► BatchIds (at once)
 *   commit ──► rows placed, planned columns written ──► callback.rows(archetype, from, to) ──► membership
 *
 *   world.spawnQueue(inputs) ──► SpawnQueue (once)
 *   queue.spawn() ──► id (at once, OnSpawn delivered);  queue.set(X, x) ──► that entity's staged row
 *   commit ──► the queued entities of a transaction placed as one range: one bulk copy per column
 * </pre>
 *
 * <p>Invariants: a callback's rows are placed and written and no membership callback has seen them yet; the
 * column views it takes are valid until it returns. A spawn queue's values are its entity's initial values: other
 * staged calls on the id apply after them; a queue serves its world only, on its owner thread.
 */
package dev.jtecs.mutation;
