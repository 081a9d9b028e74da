package dev.jtecs.kernels;

import java.lang.foreign.MemorySegment;

/**
 * The particle kernels behind one interface, so a column kernel is written once and runs either implementation:
 * {@link #SCALAR} (the specification) or the vector one that {@link KernelProvider#particles()} picks when the
 * Vector API pays. Rows are {@code [0, count)} of jtecs columns (64-byte aligned, capacity padded to 64 rows).
 *
 * <p>Unconditional kernels may also write the padding rows past {@code count}; conditional ones never touch them
 * and return whether a row changed.
 */
public interface ParticleOps {
    /** The scalar twins: the specification, and the implementation where vectors are unavailable or forced off. */
    ParticleOps SCALAR = new ScalarParticleOps();

    /** Which implementation this is. */
    KernelMode mode();

    /** {@code x += vx * dt; y += vy * dt}. */
    void integrate2d(MemorySegment x, MemorySegment y, MemorySegment vx, MemorySegment vy, int count, float dt);

    /** {@code x += vx * dt; y += vy * dt; z += vz * dt}; see {@link ScalarParticleOps#integrate3d}. */
    void integrate3d(MemorySegment x, MemorySegment y, MemorySegment z, MemorySegment vx, MemorySegment vy,
            MemorySegment vz, int count, float dt);

    /** {@code v += a * dt}, with {@code a * dt} rounded to float once. */
    void accelerate(MemorySegment v, int count, float a, float dt);

    /** {@code v *= factor}. */
    void scale(MemorySegment v, int count, float factor);

    /** Wraps once into {@code [min, max)}; see {@link ScalarParticleOps#wrap}. Returns whether any row changed. */
    boolean wrap(MemorySegment c, int count, float min, float max);

    /** Clamps into {@code [min, max]}; see {@link ScalarParticleOps#clamp}. Returns whether any row changed. */
    boolean clamp(MemorySegment c, int count, float min, float max);
}
