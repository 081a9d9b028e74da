package dev.jtecs.storage;


/**
 * Row and lifetime notifications of one archetype, registered with {@code Archetype.addEntityObserver}. Every
 * method has an empty default, so an observer implements only what it needs. Ranges are zero-based and
 * half-open. Callbacks run inside the commit drain: they may read the given rows until they return and may
 * stage more work, which the next wave of the same commit publishes.
 */
public interface EntityObserver {
    /**
     * Rows {@code [fromRow, toRow)} were placed and initialized.
     *
     * @param other the archetype the rows came from, or {@code null} for spawns
     */
    default void onEntitiesAdded(Archetype archetype, int fromRow, int toRow, Archetype other) {}

    /**
     * Rows {@code [fromRow, toRow)} are about to leave; their values are still readable.
     *
     * @param other the archetype they move to, or {@code null} for despawns
     */
    default void onEntitiesRemoved(Archetype archetype, int fromRow, int toRow, Archetype other) {}

    /** A swap-remove moved {@code entity} from {@code fromRow} (the last row) into {@code toRow}. */
    default void onEntityMove(Archetype archetype, long entity, int fromRow, int toRow) {}

    /** The archetype became non-empty. */
    default void onActivated(Archetype archetype) {}

    /** The archetype became empty. */
    default void onDeactivated(Archetype archetype) {}

    /** The archetype is about to be unregistered by maintenance. */
    default void onArchetypeDestroyed(Archetype archetype) {}
}
