/**
 * Stress and model tests: seeded random operation streams run against the engine and a naive reference model
 * side by side, compared after every commit.
 *
 * <pre>
 *   seed ─► ModelRun ───────┬─► World           (the engine)
 *           ModelBatchCalls └─► ReferenceWorld  (maps + the mutation-model rules; ReferenceRows: requirements)
 *           ModelRestores       (raw restores with keys, throwing callbacks: failed publications replayed)
 *                                  └─ compare after each op (touched entity, events) and each commit
 *                                     (everything; ModelQueries: membership, iteration, counts)
 * </pre>
 *
 * <p>A failure names its seed and the last operations; the same seed replays it exactly.
 */
package dev.jtecs.stress;
