package dev.jtecs.entity.internal;

/**
 * Collecting failures while the engine finishes what it started: code that must tell every observer, or visit
 * every archetype, even when one of them throws keeps the first failure, attaches the later ones to it as
 * suppressed, and throws it once the work is done. The one place this is written, for every layer.
 */
public final class Failures {
    private Failures() {}

    /** {@code first}, with {@code next} attached as suppressed; {@code next} when there was none yet. */
    public static Throwable fold(Throwable first, Throwable next) {
        if (first == null) {
            return next;
        }
        if (first != next) {
            first.addSuppressed(next);
        }
        return first;
    }

    /**
     * Throws {@code failure} when it is an {@link Error}; otherwise returns it, a {@link RuntimeException}, for the
     * caller to {@code throw} (so the compiler sees the method end there).
     */
    public static RuntimeException rethrow(Throwable failure) {
        if (failure instanceof Error error) {
            throw error;
        }
        return (RuntimeException) failure;
    }

    /** Throws {@code failure} as {@link #rethrow} does, when there is one. */
    public static void throwIfAny(Throwable failure) {
        if (failure != null) {
            throw rethrow(failure);
        }
    }
}
