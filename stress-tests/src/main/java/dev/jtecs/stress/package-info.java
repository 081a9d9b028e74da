/**
 * Stress and model tests: seeded random scripts of operations run against the engine and a naive reference
 * model side by side, compared after every commit; a failing script is shrunk and printed as a JUnit test.
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
 * </pre>
 *
 * <p>Invariants: a script's execution is a pure function of the script (nothing random happens at execution),
 * so the same seed or script replays the same run; legality is decided at execution from the reference's
 * state, so any sub-list of a script is a valid script; the shrinker keeps only candidates that fail with the
 * same {@link dev.jtecs.stress.ModelMismatch#kind() kind} of mismatch. {@link dev.jtecs.stress.ModelSweep} runs
 * seed after seed for the CI test and for {@code ./jtecs stress}.
 */
package dev.jtecs.stress;
