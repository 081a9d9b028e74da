package dev.jtecs.schedule;

/**
 * What a world lends its {@link Pipeline} to control publication around systems. A dispatch holds the world's
 * structural work for its whole length, so staged spawns, moves and despawns wait for a barrier instead of
 * publishing call by call; the pipeline places the barriers (after each leaf phase, and where systems ask).
 *
 * <p>A hold is a scope of the world's, with one difference: an explicit {@code world.commit()} or
 * {@code world.unwind()} made inside it still publishes at once (they close only scopes the caller opened).
 * Iterations and {@code defer()} scopes opened inside a hold are respected: a barrier waits for them.
 */
public interface DispatchScope {
    /** Closes every scope the caller left open and publishes pending work ({@code world.unwind()}). */
    void unwind();

    /** Opens a hold: structural work stages until a barrier or the matching {@link #release}. Holds nest. */
    void hold();

    /**
     * Closes the innermost hold. When no scope remains open and {@code publish} is true, publishes what is staged;
     * with {@code publish} false (a dispatch that failed) the work stays staged for a later commit.
     */
    void release(boolean publish);

    /**
     * A barrier: publishes staged work now, unless a scope the systems opened (an iteration, a {@code defer()})
     * is still open or a publication is already running (it picks the work up itself).
     */
    void barrier();

    /**
     * Throws {@link WrongThreadException} unless the calling thread owns the world; the pipeline checks this at
     * each of its entry points, so a scheduler reached on another thread changes nothing.
     */
    void checkThread();
}
