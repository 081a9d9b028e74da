package dev.jtecs.kernels;

import java.lang.foreign.MemorySegment;

/**
 * The particle frame's per-row work in one pass: gravity, damping, integration and the lifetime countdown, reading
 * and writing each column once instead of once per kernel. {@link #SCALAR} ({@link ScalarParticleStepOps}) is the
 * specification; the vector twin ({@code dev.jtecs.kernels.vector.VectorParticleStepOps}) is what
 * {@link KernelProvider#particleSteps()} picks when the Vector API pays.
 *
 * <p>Per row, in this order and with no fused multiply-add (the order of the separate kernels
 * {@link MotionKernels#gravity}, {@link MotionKernels#damping}, {@link MotionKernels#integrate2d} and
 * {@link LifetimeOps#countdown}, so a fused pass leaves the same bits as the four passes):
 *
 * <pre>
 *   vy += dv;  vx *= factor;  vy *= factor;  x += vx * dt;  y += vy * dt       (float)
 *   remaining -= step;  remaining &lt;= spentLimit ──► row listed in expiredRows     (double)
 * </pre>
 *
 * <p>Rows are {@code [0, count)} of jtecs columns (64-byte aligned, capacity padded to 64 rows): four float
 * columns and one double column. Every write is unconditional, so the vector twin may also write the padding
 * rows; it never lists them.
 */
public interface ParticleStepOps {
    /** The scalar twin: the specification. */
    ParticleStepOps SCALAR = new ScalarParticleStepOps();

    /** Which implementation this is. */
    KernelMode mode();

    /**
     * One fused step over rows {@code [0, count)}; the rows whose lifetime is spent go to {@code expiredRows} in
     * ascending order, from index 0.
     *
     * @param dv the velocity change of gravity, {@code g * dt} rounded to float once
     * @param factor the damping factor ({@link MotionKernels#dampingFactor})
     * @param dt the float step the integration takes
     * @param step the double step the countdown takes
     * @param spentLimit a lifetime at or below this after the subtraction is spent
     * @return how many rows expired
     * @throws IllegalArgumentException when a column is shorter than {@code count} (padded, for the vector twin)
     *     or {@code expiredRows} is shorter than {@code count}
     */
    int step(MemorySegment x, MemorySegment y, MemorySegment vx, MemorySegment vy, MemorySegment remaining,
            int count, float dv, float factor, float dt, double step, double spentLimit, int[] expiredRows);
}
