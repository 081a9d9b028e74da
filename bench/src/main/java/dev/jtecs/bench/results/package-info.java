/**
 * The results of {@code jtecs bench} and the three files they are written to: {@code latest.json} (the data,
 * {@link dev.jtecs.bench.results.ResultsJson}), {@code latest.md} (a table with the machine in its header,
 * {@link dev.jtecs.bench.results.ResultsMarkdown}) and {@code latest.png} (a chart,
 * {@link dev.jtecs.bench.results.ResultsChart}).
 *
 * <pre>
 *   JMH RunResult ──► BenchResult (workload, entities, impl, ns/entity, error, ...) ─┬─► latest.json
 *                     RunInfo (CPU, JDK, vector width, forks, iterations, date,     │
 *                              view checks) ────────────────────────────────────────┼─► latest.md
 *                                                                                   └─► latest.png
 * </pre>
 *
 * <p>Invariants: a {@link dev.jtecs.bench.results.BenchResult} is always valid (finite, non-negative figures,
 * an implementation name of {@link dev.jtecs.bench.results.Impls}); the writers keep the order they are given
 * and never drop a row; {@code ResultsJson.read} gives back exactly what {@code ResultsJson.write} wrote.
 */
package dev.jtecs.bench.results;
