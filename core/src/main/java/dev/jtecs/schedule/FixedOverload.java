package dev.jtecs.schedule;

/** What the fixed-step loop does with time it could not spend in one frame (more steps due than the limit). */
public enum FixedOverload {
    /**
     * Abandon the whole steps beyond the limit and keep only the remainder below one step, so a slow frame never
     * snowballs into slower ones; the abandoned steps are counted.
     */
    DROP,
    /** Keep everything in the accumulator and catch up over later frames, at most the limit per frame. */
    ACCUMULATE
}
