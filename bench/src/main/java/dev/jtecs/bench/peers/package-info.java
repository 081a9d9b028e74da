/**
 * The peer engines' side of the benchmarks: their components, written as each engine's authors recommend.
 * Fairness choices are documented next to each benchmark method that uses them.
 */
package dev.jtecs.bench.peers;
