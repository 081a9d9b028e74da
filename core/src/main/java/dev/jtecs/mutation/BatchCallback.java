package dev.jtecs.mutation;

import dev.jtecs.storage.Archetype;

/**
 * Initializes or rewrites one contiguous run of rows of a batch operation, at publication: rows
 * {@code [fromRow, toRow)} of {@code archetype}. Take columns with {@code getMut} inside the call; they are valid
 * until it returns. Called after the rows are placed and before any membership callback sees them.
 */
@FunctionalInterface
public interface BatchCallback {
    void rows(Archetype archetype, int fromRow, int toRow);
}
