package dev.jtecs.state;

/**
 * What a {@link StatePolicy} does to the entities of a state at one of its transitions. The operation reaches
 * every published entity that carries the state's tag, whatever other tags it has ({@code Disabled} and
 * {@code Paused} included), and runs as a bulk call over them.
 *
 * <p>The builtin tags are added and removed as such: the world does not remember who put them there, so
 * {@link #RESUME} also resumes an entity that game code had paused for another reason.
 */
public enum StateOperation {
    /** Leaves the entities alone. */
    NONE,
    /** Adds {@code Paused}: logic queries stop matching the entities, render queries still do. */
    PAUSE,
    /** Removes {@code Paused}. */
    RESUME,
    /** Adds {@code Disabled}: no query matches the entities unless it names {@code Disabled} itself. */
    DISABLE,
    /** Removes {@code Disabled}. */
    ENABLE,
    /** Despawns the entities, with the usual {@code OnDespawn} events and cascades. */
    DESPAWN
}
