package dev.jtecs.query;

import dev.jtecs.storage.Archetype;

/**
 * A membership callback: rows {@code [fromRow, toRow)} of {@code archetype} entered (or are about to leave) a
 * query's match set. Runs inside the commit drain; it may read the rows until it returns and may stage work.
 */
@FunctionalInterface
public interface QueryCallback {
    void onRows(Archetype archetype, int fromRow, int toRow);
}
