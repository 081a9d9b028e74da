package dev.jtecs.builtin;

import dev.jtecs.component.Components;
import dev.jtecs.component.DoubleField;
import dev.jtecs.component.NativeComponent;

/**
 * A lifetime in seconds of fixed-step time: the builtin countdown
 * ({@link dev.jtecs.builtin.systems.BuiltinSystems#TTL}) takes the fixed
 * timestep off {@code remaining} once per fixed step and despawns the entity in the step where it reaches zero.
 * Registered as {@code "TTL"}.
 *
 * <p>{@code startingTime} is the budget that {@link #percentComplete()} measures against; writing a larger
 * {@code remaining} extends the life (write both to restart the fraction too).
 *
 * <p>Field types. Both are {@code double}: the countdown subtracts one step at a time, and {@code float}
 * rounding adds up (measured at 60 steps per second: a 100-second lifetime ends 0.41 of a step off, a
 * 1,000-second one 12 steps off), while {@code double} stays within a ten-millionth of a step over 1,000
 * seconds.
 *
 * @param startingTime the lifetime the entity started with, seconds
 * @param remaining seconds of fixed time left
 */
public record TTL(double startingTime, double remaining) {
    /** The registered component, named {@code "TTL"}; the default is all zero (expires at the next step). */
    public static final NativeComponent<TTL> COMPONENT = Components.registerNative(TTL.class, o -> o.name("TTL"));

    /**
     * How close to zero, as a fraction of the step, a lifetime counts as spent: the countdown ends a lifetime
     * when {@code remaining <= step * SPENT_SLACK} after the subtraction, so one that is a whole number of steps
     * up to rounding ends in that step rather than one later. Every countdown (the builtin system, the SIMD
     * kernels) uses this one value.
     */
    public static final double SPENT_SLACK = 0x1p-10;

    public static final DoubleField STARTING_TIME = COMPONENT.doubleField("startingTime");
    public static final DoubleField REMAINING = COMPONENT.doubleField("remaining");

    /** A fresh lifetime of {@code seconds}: both fields set to it. */
    public TTL(double seconds) {
        this(seconds, seconds);
    }

    /**
     * How much of the lifetime is spent, from 0 (fresh) to 1 (expired): {@code 1 - remaining / startingTime},
     * clamped to {@code [0, 1]}. A lifetime that starts at zero or below answers 1, as if already spent; a
     * {@code remaining} above {@code startingTime} answers 0.
     */
    public double percentComplete() {
        if (!(startingTime > 0)) {
            return 1;
        }
        return Math.clamp(1 - remaining / startingTime, 0.0, 1.0);
    }
}
