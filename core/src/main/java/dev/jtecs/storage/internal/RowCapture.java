package dev.jtecs.storage.internal;

/**
 * A staged batch's claim on a table's current rows, copied lazily: the table calls {@link #materialize} just
 * before its rows first change, so a batch whose table stays untouched until it runs never copies its ids.
 */
public interface RowCapture {
    /** Copies the ids of {@code table}'s rows, which are still exactly the captured ones. */
    void materialize(Table table);

    /** Whether this capture selects its rows for despawning. */
    boolean dooms();
}
