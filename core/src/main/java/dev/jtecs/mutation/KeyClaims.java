package dev.jtecs.mutation;

import dev.jtecs.storage.internal.Table;

/** Claims the {@code EntityKey} values a restoration batch wrote into freshly placed rows, or throws. */
@FunctionalInterface
public interface KeyClaims {
    void claimRows(Table table, int fromRow, int toRow);
}
