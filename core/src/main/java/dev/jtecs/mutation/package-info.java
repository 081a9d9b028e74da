/**
 * The mutation model's public types: what the bulk calls hand back ({@link dev.jtecs.mutation.BatchIds}) and call
 * ({@link dev.jtecs.mutation.BatchCallback}, once per contiguous row range at publication).
 *
 * <p>The model itself (scopes, staging, the commit drain in waves, bulk paths, keys) lives in
 * {@code mutation.internal}, behind the world's structural calls; see {@code docs/world.md} and
 * {@code docs/bulk.md} for its rules.
 *
 * <pre>
 *   world.batchSpawn(n, inputs, callback) ──► BatchIds (at once)
 *   commit ──► rows placed, planned columns written ──► callback.rows(archetype, from, to) ──► membership
 * </pre>
 *
 * <p>Invariants: a callback's rows are placed and written and no membership callback has seen them yet; the
 * column views it takes are valid until it returns.
 */
package dev.jtecs.mutation;
