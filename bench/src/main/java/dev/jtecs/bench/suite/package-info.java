/**
 * The benchmark suite behind {@code jtecs bench}: which workloads exist ({@link dev.jtecs.bench.suite.Workloads},
 * one {@link dev.jtecs.bench.suite.Workload} per row of WORKLOADS.md and per JMH class), how long they run
 * ({@link dev.jtecs.bench.suite.Profile}: quick or full), and the runner that drives JMH and names each result
 * ({@link dev.jtecs.bench.suite.SuiteRunner}).
 *
 * <pre>
 *   Workloads.select(--only) ──► for each Workload: JMH Runner (include its class, its @Param values,
 *                                 forks with FORK_JVM_ARGS [+ -Djtecs.checkViews=true with --check-views],
 *                                 -prof gc, fail-on-error off)
 *                                 ──► RunResults, and JmhFailures (the reasons JMH printed)
 *                                 ──► method ↦ impl, score / entities ──► measured BenchResult rows
 *                                 ──► every expected method × parameter combination without a clean result
 *                                     ──► a failed BenchResult row (its exception's first line)
 * </pre>
 *
 * <p>Invariants: every {@code @Benchmark} method of a registered class maps to exactly one implementation name
 * (checked when the registry loads, so a new method cannot be run unnamed); a result's entity count is the
 * value of its workload's entities parameter in that run; a run yields exactly one row per method and parameter
 * combination it asked for, measured or failed, so a failing benchmark costs only its own row; every row says
 * whether its benchmark ran with the view checks on; results come back grouped by workload in registry order.
 */
package dev.jtecs.bench.suite;
