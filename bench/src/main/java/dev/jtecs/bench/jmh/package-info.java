/**
 * JMH benchmarks, one workload shape per class ({@code integrate}, {@code spawn_batch}, ... as named in the
 * workload table), with the plain-array and plain-segment baselines in the same class so every figure is a ratio
 * from one run. Run with {@code java --add-modules jdk.incubator.vector -cp bench/target/jtecs.jar
 * org.openjdk.jmh.Main <Benchmark> -prof gc}.
 *
 * <p>Conventions every class follows: only the measured engine's world is built ({@link
 * dev.jtecs.bench.jmh.EngineUnderTest}, by method-name prefix); each peer loop carries its fairness note; every
 * operation does the same work (state restored untimed per invocation, or operations that alternate between two
 * states); the per-entity workloads measure jtecs on its staged path ({@code jtecs}: the calls in one
 * {@code defer} scope, then {@code commit}) and its instant path ({@code jtecsInstant}: no scope); fixtures stay
 * within the peers' own limits (Dominion: {@link dev.jtecs.bench.jmh.DominionReuse}).
 *
 * <pre>
 *   trial setUp ──► [invocation setUp: restore / refill, untimed] ──► measured operation ──► ... ──► tearDown
 * </pre>
 */
package dev.jtecs.bench.jmh;
