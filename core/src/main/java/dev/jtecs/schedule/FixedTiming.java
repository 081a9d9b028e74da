package dev.jtecs.schedule;

/**
 * A snapshot of a world's fixed-step clock.
 *
 * @param timestep seconds per fixed step
 * @param accumulator simulated seconds not yet spent in a fixed step
 * @param maxSteps the most fixed steps one frame runs
 * @param overload what happens to time beyond {@code maxSteps} steps
 * @param stepCount fixed steps completed since the world was created
 * @param timeDropped seconds abandoned under {@link FixedOverload#DROP}, accumulated
 * @param stepsDropped whole steps abandoned under {@link FixedOverload#DROP}, accumulated
 */
public record FixedTiming(double timestep, double accumulator, int maxSteps, FixedOverload overload,
        long stepCount, double timeDropped, long stepsDropped) {
    /**
     * How far the simulation has advanced into the next fixed step, {@code accumulator / timestep}: the blend
     * factor for interpolating rendered state between the last two steps (below 1 unless time has accumulated).
     */
    public double alpha() {
        return accumulator / timestep;
    }
}
