package dev.jtecs.schedule;

/**
 * The fixed-step accumulator: frame time goes in, whole steps of {@code timestep} come out, at most
 * {@code maxSteps} per frame; what is left over follows the {@link FixedOverload} policy.
 *
 * <pre>
 *   add(dt) ─► accumulator ─► takeStep() x up to maxSteps (each takes one timestep out)
 *                          └► settle(): DROP keeps accumulator mod timestep and counts the rest as dropped;
 *                                       ACCUMULATE keeps everything for later frames
 * </pre>
 */
final class FixedClock {
    final double timestep;
    final int maxSteps;
    final FixedOverload overload;
    private double accumulator;
    private long stepCount;
    private double timeDropped;
    private long stepsDropped;

    FixedClock(double timestep, int maxSteps, FixedOverload overload) {
        if (!(timestep > 0) || Double.isInfinite(timestep)) {
            throw new IllegalArgumentException("timestep=" + timestep + " must be positive and finite");
        }
        if (maxSteps < 1) {
            throw new IllegalArgumentException("maxSteps=" + maxSteps + " must be at least 1");
        }
        this.timestep = timestep;
        this.maxSteps = maxSteps;
        this.overload = java.util.Objects.requireNonNull(overload, "overload");
    }

    void add(double dt) {
        accumulator += dt;
    }

    /**
     * Takes one step's time out of the accumulator when a whole step is there and this frame has taken fewer
     * than {@code maxSteps}.
     *
     * @param taken the steps this frame has taken so far
     */
    boolean takeStep(int taken) {
        if (taken >= maxSteps || accumulator < timestep) {
            return false;
        }
        accumulator -= timestep;
        return true;
    }

    /** Counts a step whose systems have run. */
    void completed() {
        stepCount++;
    }

    /** Applies the overload policy once the frame has taken its steps. */
    void settle() {
        if (overload == FixedOverload.DROP && accumulator >= timestep) {
            double remainder = accumulator % timestep; // exact: the fractional step survives untouched
            double dropped = accumulator - remainder;
            stepsDropped += Math.round(dropped / timestep);
            timeDropped += dropped;
            accumulator = remainder;
        }
    }

    FixedTiming timing() {
        return new FixedTiming(timestep, accumulator, maxSteps, overload, stepCount, timeDropped, stepsDropped);
    }

    /** Sets the remainder (snapshot restore). */
    void restoreAccumulator(double seconds) {
        if (!(seconds >= 0) || Double.isInfinite(seconds)) {
            throw new IllegalArgumentException("fixed accumulator=" + seconds + " must be finite and not negative");
        }
        accumulator = seconds;
    }

    double accumulator() {
        return accumulator;
    }

    long stepCount() {
        return stepCount;
    }

    double timeDropped() {
        return timeDropped;
    }

    long stepsDropped() {
        return stepsDropped;
    }
}
