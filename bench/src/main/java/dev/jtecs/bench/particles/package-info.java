/**
 * The particle workload: its components and a deterministic simulation (integrate, count lifetimes down,
 * replace expired particles) shared by the command line and the benchmarks.
 *
 * <p>Invariants: the same entity count and seed give the same world after every frame; the live population
 * stays constant.
 */
package dev.jtecs.bench.particles;
