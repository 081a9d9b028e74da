/**
 * JMH benchmarks, one workload shape per class ({@code integrate}, {@code spawn_batch}, ... as named in the
 * workload table), with the plain-array and plain-segment baselines in the same class so every figure is a ratio
 * from one run. Run with {@code java --add-modules jdk.incubator.vector -cp bench/target/jtecs.jar
 * org.openjdk.jmh.Main <Benchmark> -prof gc}.
 */
package dev.jtecs.bench.jmh;
