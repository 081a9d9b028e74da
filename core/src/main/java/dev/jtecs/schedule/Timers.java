package dev.jtecs.schedule;

import dev.jtecs.random.Xoshiro128;
import dev.jtecs.world.World;

/** The stateful run conditions behind {@link RunIf}'s timer factories; one instance per factory call. */
final class Timers {
    private Timers() {}

    /**
     * {@link RunIf#after(double)}: a one-shot delay that unregisters its system; {@link RunIf#afterFrames(int)}
     * when {@code frames >= 0}, whose delay in seconds is fixed at its first evaluation from the world's nominal
     * frame time then.
     */
    static final class After implements RunIf {
        private final int frames;
        private double seconds;
        private double elapsed;
        private boolean fired;

        After(double seconds) {
            this.seconds = seconds;
            this.frames = -1;
        }

        After(int frames) {
            this.frames = frames;
            this.seconds = Double.NaN;
        }

        @Override
        public boolean test(double dt, World world, String systemName) {
            if (fired) {
                return false;
            }
            if (Double.isNaN(seconds)) {
                seconds = frames * world.getNominalFrameTime(); // the deadline is set now and stays
            }
            elapsed += dt;
            if (elapsed < seconds) {
                return false;
            }
            fired = true;
            world.removeSystem(systemName); // the running dispatch still lets this one run happen
            return true;
        }
    }

    /** {@link RunIf#every}: an interval timer that keeps excess time. */
    static final class Every implements RunIf {
        private final double base;
        private final double jitter;
        private final Xoshiro128 generator;
        private double interval;
        private double elapsed;

        Every(double base, double jitter, Xoshiro128 generator) {
            this.base = base;
            this.jitter = jitter;
            this.generator = generator;
            this.interval = base;
        }

        @Override
        public boolean test(double dt, World world, String systemName) {
            elapsed += dt;
            if (elapsed < interval) {
                return false;
            }
            elapsed -= interval;
            if (generator != null && jitter > 0) {
                double offset = jitter * (2 * generator.nextDouble() - 1);
                interval = Math.max(base * 0.01, base + offset);
            }
            return true;
        }

        /** The interval now running (tests read it to check the jitter). */
        double interval() {
            return interval;
        }

        double elapsed() {
            return elapsed;
        }
    }

    /** {@link RunIf#cooldown(double)}: ready at first, then again after a quiet period. */
    static final class Cooldown implements RunIf {
        private final double seconds;
        private double elapsed;
        private boolean ready = true;

        Cooldown(double seconds) {
            this.seconds = seconds;
        }

        @Override
        public boolean test(double dt, World world, String systemName) {
            if (!ready) {
                elapsed += dt;
                if (elapsed < seconds) {
                    return false;
                }
            }
            ready = false;
            elapsed = 0; // the excess beyond the cooldown is discarded
            return true;
        }
    }
}
