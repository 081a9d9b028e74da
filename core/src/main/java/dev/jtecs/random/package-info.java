/**
 * Deterministic random numbers: the {@link dev.jtecs.random.Xoshiro128} generator and the named streams a world
 * derives from its seed.
 *
 * <pre>
 *   world seed (32 bits) ─┐
 *                         ├─ FNV-1a(name bytes) XOR seed*golden ─► SplitMix64 ─► xoshiro128** state (4 words)
 *   stream name (UTF-8) ──┘
 * </pre>
 *
 * <p>Invariants: a stream's sequence is a function of the seed and its name alone; a generator's state is never
 * all zeros; every documented draw method consumes a documented number of raw outputs, so sequences are stable
 * across releases.
 */
package dev.jtecs.random;
