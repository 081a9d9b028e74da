package dev.jtecs.query;

import dev.jtecs.storage.Archetype;
import dev.jtecs.storage.LongColumn;

/**
 * A step-by-step iteration over a query's non-empty archetypes, and one scope of its world from creation until
 * it is exhausted or closed, or until {@code World.unwind()} closes it (publishing, so rows may move under the
 * loop). Closing is idempotent, and changes nothing after an {@code unwind()} closed the scope; use
 * try-with-resources when the loop can leave early. {@link #next()} and {@link #close()} throw
 * {@link WrongThreadException} on a thread other than the world's owner.
 *
 * <pre>
 * try (QueryCursor c = query.cursor()) {
 *     while (c.next()) { use(c.archetype(), c.count()); }
 * }
 * </pre>
 */
public interface QueryCursor extends AutoCloseable {
    /** Advances to the next non-empty archetype; returns {@code false} (and closes) when there is none. */
    boolean next();

    /**
     * The current archetype.
     *
     * @throws IllegalStateException before the first {@link #next()} or once closed
     */
    Archetype archetype();

    /** The current archetype's row count. */
    int count();

    /** The current archetype's entity column (read-only). */
    LongColumn entities();

    /** Ends the iteration scope (publishing staged work if it was the outermost scope). Idempotent. */
    @Override
    void close();
}
