package dev.jtecs.query;

import dev.jtecs.storage.Archetype;
import dev.jtecs.storage.LongColumn;

/**
 * A step-by-step iteration over a query's non-empty archetypes, and one scope of its world from creation until
 * it is exhausted or closed. Closing is idempotent and safe after {@code World.unwind()}; use
 * try-with-resources when the loop can leave early. {@link #next()} and {@link #close()} throw
 * {@link WrongThreadException} on a thread other than the world's owner.
 *
 * <pre>
 * try (QueryCursor c = query.cursor()) {
 *     while (c.next()) { use(c.archetype(), c.count()); }
 * }
 * </pre>
 */
public final class QueryCursor implements AutoCloseable {
    private final Query query;
    private final Query.Host host;
    private final boolean oneGroup;
    private final int group;
    private final int limit;
    private int position = -1;
    private Archetype current;
    private boolean closed;

    QueryCursor(Query query, Query.Host host, boolean oneGroup, int group) {
        this.query = query;
        this.host = host;
        this.oneGroup = oneGroup;
        this.group = group;
        this.limit = query.matchedCount();
        host.enterScope();
    }

    /** Advances to the next non-empty archetype; returns {@code false} (and closes) when there is none. */
    public boolean next() {
        host.checkThread();
        if (closed) {
            return false;
        }
        while (++position < limit) {
            if (oneGroup && query.groupAt(position) != group) {
                continue;
            }
            Archetype candidate = query.matchedAt(position);
            if (candidate.count() > 0) {
                current = candidate;
                return true;
            }
        }
        current = null;
        close();
        return false;
    }

    /** The current archetype. */
    public Archetype archetype() {
        requireCurrent();
        return current;
    }

    /** The current archetype's row count. */
    public int count() {
        requireCurrent();
        return current.count();
    }

    /** The current archetype's entity column. */
    public LongColumn entities() {
        requireCurrent();
        return current.entities();
    }

    private void requireCurrent() {
        if (current == null) {
            throw new IllegalStateException(closed ? "cursor is closed" : "call next() first");
        }
    }

    /** Ends the iteration scope (publishing staged work if it was the outermost scope). Idempotent. */
    @Override
    public void close() {
        host.checkThread();
        if (closed) {
            return;
        }
        closed = true;
        current = null;
        host.exitScope(true);
    }
}
