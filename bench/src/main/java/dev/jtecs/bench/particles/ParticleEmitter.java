package dev.jtecs.bench.particles;

import dev.jtecs.random.Xoshiro128;
import java.util.Objects;

/**
 * The deterministic source of new particles: fills scratch arrays with the initial values of the next particles,
 * drawn from one random stream in a fixed order, so that every implementation that asks for the same counts in
 * the same order gets the same particles (jtecs draws from {@code world.randomStream(name)}, the peers from a
 * {@code RandomStreams} of the same seed and name: the same sequence).
 *
 * <p>Two shapes. {@link #initial} spreads particles over the extent with lifetimes drawn from the steady
 * state's distribution of remaining life, so turnover is about 1% from the first frame. {@link #burst} draws one
 * emitter point for the whole burst, then per particle a velocity and a fresh lifetime. Per particle the draws
 * are, in order: (x, y for {@code initial}), vx, vy, lifetime.
 *
 * <p>The arrays are reused: their first {@code count} entries hold the particles of the last call, until the
 * next one. Not thread-safe.
 */
public final class ParticleEmitter {
    private final Xoshiro128 random;
    private float[] x = new float[0];
    private float[] y = new float[0];
    private float[] vx = new float[0];
    private float[] vy = new float[0];
    private double[] lifetime = new double[0];
    private int count;

    public ParticleEmitter(Xoshiro128 random) {
        this.random = Objects.requireNonNull(random, "random");
    }

    /**
     * The next {@code count} particles of the initial population: positions uniform over the extent, lifetimes
     * from the steady state's remaining-life density {@code (1 - r / 2m) / m} on {@code [0, 2m]}. Calling it
     * twice with {@code a} and {@code b} gives the same particles as once with {@code a + b}.
     *
     * @return {@code count}
     */
    public int initial(int count) {
        prepare(count);
        double span = 2 * ParticleRules.MEAN_LIFETIME;
        for (int i = 0; i < count; i++) {
            x[i] = (random.nextFloat() * 2 - 1) * ParticleRules.HALF_EXTENT;
            y[i] = (random.nextFloat() * 2 - 1) * ParticleRules.HALF_EXTENT;
            velocity(i);
            lifetime[i] = span * (1 - Math.sqrt(1 - random.nextDouble())); // inverse of the residual CDF
        }
        return count;
    }

    /**
     * One burst of {@code count} particles from one emitter point: velocities as in {@link #initial}, lifetimes
     * uniform in {@code (0, 2 * MEAN_LIFETIME]}.
     *
     * @return {@code count}
     */
    public int burst(int count) {
        prepare(count);
        float ex = (random.nextFloat() * 2 - 1) * ParticleRules.HALF_EXTENT;
        float ey = (random.nextFloat() * 2 - 1) * ParticleRules.HALF_EXTENT;
        double span = 2 * ParticleRules.MEAN_LIFETIME;
        for (int i = 0; i < count; i++) {
            x[i] = ex;
            y[i] = ey;
            velocity(i);
            lifetime[i] = span * (1 - random.nextDouble());
        }
        return count;
    }

    private void velocity(int i) {
        vx[i] = (random.nextFloat() * 2 - 1) * ParticleRules.SPEED;
        vy[i] = random.nextFloat() * ParticleRules.SPEED;
    }

    private void prepare(int count) {
        if (count < 0) {
            throw new IllegalArgumentException("count=" + count + " must not be negative");
        }
        if (x.length < count) {
            int n = Math.max(count, x.length * 2);
            x = new float[n];
            y = new float[n];
            vx = new float[n];
            vy = new float[n];
            lifetime = new double[n];
        }
        this.count = count;
    }

    /** How many particles the last call produced. */
    public int count() {
        return count;
    }

    /** Positions x of the last call's particles, entries {@code [0, count())}. */
    public float[] x() {
        return x;
    }

    public float[] y() {
        return y;
    }

    public float[] vx() {
        return vx;
    }

    public float[] vy() {
        return vy;
    }

    /** Lifetimes in seconds: both {@code TTL.startingTime} and {@code TTL.remaining} start at this value. */
    public double[] lifetime() {
        return lifetime;
    }
}
