/**
 * The {@code particles} workload: its components, its rules (one set of numbers every implementation follows),
 * the deterministic emitter of new particles, and the jtecs simulation that the command line
 * ({@code ./jtecs particles}) and the JMH benchmark ({@code ParticlesBenchmark}) both run.
 *
 * <pre>
 *   ParticleEmitter(random stream) ──► batchSpawn initializer (bulk copies) ──► world
 *   world.update(FIXED_STEP): gravity, damping, integrate (kernels) ─► TTL countdown + despawn ─► respawn burst
 *                             ─► DirtyExtractor (RENDER) ─► output buffer
 * </pre>
 *
 * <p>Invariants: a simulation keeps its population constant; the same N, seed and kernels give the same state
 * after every frame; {@link dev.jtecs.bench.particles.ParticleRules} is the single source of the frame's
 * arithmetic, so other engines that follow it compute the same particles.
 */
package dev.jtecs.bench.particles;
