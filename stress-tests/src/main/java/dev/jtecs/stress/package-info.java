/**
 * Stress and model tests: seeded random operation streams run against the engine and a naive reference model
 * side by side, compared after every commit; fault injection at every callback point; a table of bad arguments
 * for every entry point; memory soaks.
 *
 * <pre>
 *   seed ─► ModelRun ───────┬─► World           (the engine)
 *           ModelBatchCalls └─► ReferenceWorld  (maps + the mutation-model rules; ReferenceRows: requirements)
 *           ModelRestores       (raw restores with keys, throwing callbacks: failed publications replayed)
 *                                  └─ compare after each op (touched entity, events) and each commit
 *                                     (everything; ModelQueries: membership, iteration, counts)
 *
 *   seed ─► FaultRun ─► World, every callback armed to throw at random waves
 *                        └─ after each fault + unwind(): WorldInvariants, the fault point's facts, and
 *                           WorldDump at the fault / of the same run replayed without that fault
 *
 *   BadInputs (entry point x parameter x bad kind) ─► BadInputFixture ─► WorldDump before == after
 *
 *   seed ─► MemorySoak ─► rounds of churn: native bytes, slabs, heap after GC per round
 * </pre>
 *
 * <p>A failure names its seed and the last operations; the same seed replays it exactly.
 */
package dev.jtecs.stress;
