package dev.jtecs.schedule;

import dev.jtecs.random.Xoshiro128;
import dev.jtecs.world.World;
import java.util.Objects;

/**
 * A run condition: decides, each time its system's phase is dispatched, whether the system's body runs. It
 * receives the phase's delta time, the world and the system's registered name.
 *
 * <p>A condition is evaluated only when its system would otherwise run: a disabled system, a system in a
 * disabled phase, or an operand that a combinator short-circuits past is not evaluated at all, so a timer in it
 * does not advance. Timers keep their own state, one instance per factory call; a condition shared by two
 * systems shares that state (each evaluation consumes its dt). Timers are not saved in snapshots.
 *
 * <p>The timer factories take seconds of phase time (the dt the phase dispatches with), not wall-clock time.
 */
@FunctionalInterface
public interface RunIf {
    /** Whether the system named {@code systemName} runs in this dispatch. */
    boolean test(double dt, World world, String systemName);

    /**
     * Fires once, on the first evaluation at which at least {@code seconds} of phase time have been consumed,
     * and removes its system from the world just before that one run; false ever after.
     */
    static RunIf after(double seconds) {
        requireNonNegative("after", "seconds", seconds);
        return new Timers.After(seconds);
    }

    /**
     * {@link #after(double)} counted in presentation frames: fires once {@code frames} times the world's
     * {@linkplain World#getNominalFrameTime() nominal frame time} of phase time has passed. The frames are
     * converted to seconds at the condition's first evaluation, with the nominal frame time of that moment; a
     * later {@link World#setNominalFrameTime} changes waits that start afterwards, never this deadline.
     *
     * @throws IllegalArgumentException when {@code frames} is negative
     */
    static RunIf afterFrames(int frames) {
        if (frames < 0) {
            throw new IllegalArgumentException("afterFrames: frames=" + frames + " must not be negative");
        }
        return new Timers.After(frames);
    }

    /**
     * Fires each time {@code interval} seconds of phase time have accumulated. The excess is kept (a 5 s dt
     * against a 2 s interval fires now and leaves 3 s, so the next evaluation fires too), but one evaluation
     * fires at most once.
     */
    static RunIf every(double interval) {
        requirePositive("every", "interval", interval);
        return new Timers.Every(interval, 0, null);
    }

    /**
     * Like {@link #every(double)}, with each interval after the first drawn uniformly from
     * {@code interval ± jitter} (one {@link Xoshiro128#nextDouble()} per firing) and clamped to at least 1% of
     * {@code interval}. The first interval is exactly {@code interval}. Pass a world stream
     * ({@code world.randomStream(name)}) to make the draws reproducible from the world's seed.
     */
    static RunIf every(double interval, double jitter, Xoshiro128 generator) {
        requirePositive("every", "interval", interval);
        requireNonNegative("every", "jitter", jitter);
        return new Timers.Every(interval, jitter, Objects.requireNonNull(generator, "generator"));
    }

    /**
     * Starts ready: fires at its first evaluation, then again once {@code seconds} of phase time have been
     * consumed since the last firing. Time beyond {@code seconds} is discarded when it fires.
     */
    static RunIf cooldown(double seconds) {
        requireNonNegative("cooldown", "seconds", seconds);
        return new Timers.Cooldown(seconds);
    }

    /**
     * True while the state named {@code state} is the active one: the top of the world's state stack
     * ({@link World#peekState()}). A state covered by another one is not active.
     */
    static RunIf inState(String state) {
        Objects.requireNonNull(state, "state");
        return (dt, world, name) -> state.equals(world.peekState());
    }

    /** True when both are; {@code second} is not evaluated when {@code first} is false. */
    static RunIf both(RunIf first, RunIf second) {
        Objects.requireNonNull(first, "first");
        Objects.requireNonNull(second, "second");
        return (dt, world, name) -> first.test(dt, world, name) && second.test(dt, world, name);
    }

    /** True when either is; {@code second} is not evaluated when {@code first} is true. */
    static RunIf either(RunIf first, RunIf second) {
        Objects.requireNonNull(first, "first");
        Objects.requireNonNull(second, "second");
        return (dt, world, name) -> first.test(dt, world, name) || second.test(dt, world, name);
    }

    /** The opposite of {@code condition} (which is still evaluated, so a timer in it advances). */
    static RunIf negate(RunIf condition) {
        Objects.requireNonNull(condition, "condition");
        return (dt, world, name) -> !condition.test(dt, world, name);
    }

    private static void requirePositive(String factory, String what, double value) {
        if (!(value > 0) || Double.isInfinite(value)) {
            throw new IllegalArgumentException(factory + ": " + what + "=" + value + " must be positive and finite");
        }
    }

    private static void requireNonNegative(String factory, String what, double value) {
        if (!(value >= 0) || Double.isInfinite(value)) {
            throw new IllegalArgumentException(factory + ": " + what + "=" + value
                    + " must be non-negative and finite");
        }
    }
}
