package dev.jtecs.query.internal;

import dev.jtecs.query.QueryCursor;

import dev.jtecs.storage.Archetype;
import dev.jtecs.storage.LongColumn;

/** The world's {@link QueryCursor}: a position in its query's iteration order, and one scope of the world. */
final class WorldQueryCursor implements QueryCursor {
    private final WorldQuery query;
    private final QueryHost host;
    private final boolean oneGroup;
    private final int group;
    private final int limit;
    private int position = -1;
    private Archetype current;
    private boolean closed;
    private final int scope;

    WorldQueryCursor(WorldQuery query, QueryHost host, boolean oneGroup, int group) {
        this.query = query;
        this.host = host;
        this.oneGroup = oneGroup;
        this.group = group;
        this.limit = query.matchedCount();
        this.scope = host.openCursorScope();
    }

    /** Advances to the next non-empty archetype; returns {@code false} (and closes) when there is none. */
    @Override
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
    @Override
    public Archetype archetype() {
        requireCurrent();
        return current;
    }

    /** The current archetype's row count. */
    @Override
    public int count() {
        requireCurrent();
        return current.count();
    }

    /** The current archetype's entity column. */
    @Override
    public LongColumn entities() {
        requireCurrent();
        return current.entities();
    }

    private void requireCurrent() {
        if (current == null) {
            throw new IllegalStateException(closed ? "cursor is closed" : "call next() first");
        }
    }

    /**
     * Ends the iteration scope (publishing staged work if it was the outermost scope). Idempotent; after an
     * {@code unwind()}, which closed the scope already, it changes nothing.
     */
    @Override
    public void close() {
        host.checkThread();
        if (closed) {
            return;
        }
        closed = true;
        current = null;
        host.closeCursorScope(scope);
    }
}
