package dev.jtecs.bench.particles;

import dev.jtecs.builtin.TTL;
import dev.jtecs.kernels.MotionKernels;

/**
 * The rules of one particle frame, shared by every implementation (jtecs and the peers), so that all of them
 * compute the same numbers. Per frame, one fixed step of {@link #FIXED_STEP} seconds:
 *
 * <pre>
 *   vy += GRAVITY_STEP                                   (GRAVITY * DT, rounded to float once)
 *   vx *= DAMPING_FACTOR;  vy *= DAMPING_FACTOR          (pow(RETAIN_PER_SECOND, DT), rounded to float once)
 *   x += vx * DT;  y += vy * DT
 *   remaining -= FIXED_STEP (double); spent when remaining &lt;= SPENT_LIMIT  ──► despawn
 *   as many particles as were despawned are spawned again, in one burst (ParticleEmitter.burst)
 *   x, y, startingTime, remaining of what changed ──► the output buffer
 * </pre>
 *
 * Each line is evaluated in {@code float} (or {@code double} for lifetimes) in exactly this order, with no fused
 * multiply-add, which is what the kernels and their scalar twins do; so every implementation agrees bit for bit.
 * Lifetimes are uniform in {@code (0, 2 * MEAN_LIFETIME]}: in the steady state about {@code 1 / }
 * {@value #MEAN_LIFETIME_FRAMES} of the particles expire each frame (1%).
 */
public final class ParticleRules {
    /** Seconds per fixed step and per frame: one fixed step per frame. */
    public static final double FIXED_STEP = 1.0 / 60.0;
    /** {@link #FIXED_STEP} as the {@code float} the motion kernels take. */
    public static final float DT = (float) FIXED_STEP;
    /** Vertical acceleration, units per second squared. */
    public static final float GRAVITY = -9.81f;
    /** {@code GRAVITY * DT}, rounded to float once, as the gravity kernel does. */
    public static final float GRAVITY_STEP = GRAVITY * DT;
    /** The fraction of velocity left after one second of damping. */
    public static final float RETAIN_PER_SECOND = 0.5f;
    /** The per-frame velocity factor of damping, as the damping kernel computes it. */
    public static final float DAMPING_FACTOR = MotionKernels.dampingFactor(RETAIN_PER_SECOND, DT);
    /** The mean lifetime in frames: about 1% of the particles expire per frame. */
    public static final int MEAN_LIFETIME_FRAMES = 100;
    /** The mean lifetime in seconds. */
    public static final double MEAN_LIFETIME = MEAN_LIFETIME_FRAMES * FIXED_STEP;
    /** A lifetime is spent when {@code remaining <= SPENT_LIMIT} after the subtraction (the TTL rule). */
    public static final double SPENT_LIMIT = FIXED_STEP * TTL.SPENT_SLACK;
    /** Initial positions and burst points lie in {@code [-HALF_EXTENT, HALF_EXTENT)} on both axes. */
    public static final float HALF_EXTENT = 500f;
    /** Horizontal speeds lie in {@code [-SPEED, SPEED)}, vertical ones in {@code [0, SPEED)}. */
    public static final float SPEED = 20f;

    private ParticleRules() {}
}
