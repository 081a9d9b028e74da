/**
 * Stress and model tests: seeded random operation streams run against the engine and a naive reference model
 * side by side, compared after every commit.
 *
 * <pre>
 *   seed ─► ModelRun ─┬─► World           (the engine)
 *                     └─► ReferenceWorld  (hash maps + the mutation-model rules)
 *                            └─ compare after each op (touched entity) and each commit (everything)
 * </pre>
 *
 * <p>A failure names its seed and the last operations; the same seed replays it exactly.
 */
package dev.jtecs.stress;
