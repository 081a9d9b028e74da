package dev.jtecs.bench.jmh;

import dev.jtecs.bench.particles.ParticleSnapshot;

/**
 * One engine's implementation of the {@code particles} frame ({@link dev.jtecs.bench.particles.ParticleRules}),
 * as {@link ParticlesBenchmark} measures it and its test compares them: populated by its constructor from a
 * {@link dev.jtecs.bench.particles.ParticleEmitter} over the stream {@code ParticleSimulation.RANDOM_STREAM} of
 * the given seed, then one {@link #frame()} per operation.
 */
interface ParticleFrame extends AutoCloseable {
    /** Runs one frame: gravity, damping, integrate, countdown and expiry, respawn, extraction. */
    void frame();

    /** Live particles now. */
    int liveCount();

    /** Particles expired so far. */
    long expired();

    /** Bytes the last frame's extraction wrote into the output buffer. */
    long extractedBytes();

    /** Every live particle's state, in canonical order. */
    ParticleSnapshot snapshot();

    @Override
    void close();
}
