package dev.jtecs.kernels;

import java.lang.foreign.MemorySegment;

/**
 * The particle kernels behind one interface, so a column kernel is written once and runs either implementation:
 * {@link #SCALAR} (the specification, {@link ScalarParticleOps}) or the vector one
 * ({@link dev.jtecs.kernels.vector.VectorParticleOps}) that {@link KernelProvider#particles()} picks when the Vector
 * API pays. Rows are {@code [0, count)} of jtecs columns (64-byte aligned, capacity padded to 64 rows).
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

    /**
     * {@code remaining -= dt} over a float column, listing the rows whose result is {@code <= 0} in
     * {@code expiredRows} (ascending, from index 0); unconditional, so the vector one may also write the padding
     * rows (and never lists them). See {@link ScalarParticleOps#countdown}.
     *
     * @return how many rows expired
     */
    int countdown(MemorySegment remaining, int count, float dt, int[] expiredRows);
}
