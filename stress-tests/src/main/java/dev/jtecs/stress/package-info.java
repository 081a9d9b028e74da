/**
 * Stress and model tests: seeded random scripts of operations run against the engine and a naive reference
 * model side by side, compared after every commit, a failing script shrunk and printed as a JUnit test; fault
 * injection at every callback point; a table of bad arguments for every entry point; memory soaks.
 *
 * <pre>
 *   seed ─► ModelGenerator ─► ModelScript (ModelOp list, entities named by ModelRef handles)
 *                                  │
 *                                  ▼
 *                              ModelRun ──WorldCalls──► World           (the engine)
 *                       ModelBatchCalls └────────────► ReferenceWorld  (maps + the mutation-model rules)
 *                        ModelRestores, ModelSystems       └─ compare after each op (touched entity, events)
 *                                  │                          and each commit (everything; ModelQueries)
 *                         ModelMismatch ─► ModelShrinker (ddmin, simpler ops) ─► ModelSource (JUnit source)
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
 * <p>Invariants: a script's execution is a pure function of the script (nothing random happens at execution),
 * so the same seed or script replays the same run; legality is decided at execution from the reference's
 * state, so any sub-list of a script is a valid script; the shrinker keeps only candidates that fail with the
 * same {@link dev.jtecs.stress.ModelMismatch#kind() kind} of mismatch. {@link dev.jtecs.stress.ModelSweep} runs
 * seed after seed for the CI test and for {@code ./jtecs stress}.
 */
package dev.jtecs.stress;
