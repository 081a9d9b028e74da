package dev.jtecs.mutation.internal;

import dev.jtecs.entity.internal.Failures;
import dev.jtecs.storage.EntityObserver;
import dev.jtecs.storage.Archetype;
import dev.jtecs.storage.internal.Table;

/**
 * How the drain tells a table's entity observers (query membership among them) what happened to its rows, so that
 * one observer that throws cannot leave the others out of step.
 *
 * <p>Every observer hears every notification, even after one of them threw; the first exception then
 * propagates, later ones attached to it as suppressed. A removal that an observer refuses does not happen (the
 * publication fails before the rows leave), so the observers that took the removal in hear the rows come back
 * ({@code onEntitiesAdded} with the same range and other archetype); the observer that threw is taken not to have
 * processed the removal and hears nothing more. Additions, activations, deactivations and row moves have already
 * happened when they are reported: they stand, whoever throws.
 *
 * @implNote The loops allocate nothing and catch nothing unless an observer throws.
 */
final class Notifications {
    private Notifications() {}

    /** Rows {@code [from, to)} are about to leave (for {@code other}, or to die); undone when an observer throws. */
    static void removed(Table table, int from, int to, Table other) {
        EntityObserver[] observers = table.observers();
        if (observers.length == 0) {
            return;
        }
        Archetype archetype = table.archetype();
        Archetype otherArchetype = other == null ? null : other.archetype();
        Throwable failure = null;
        boolean[] threw = null; // allocated on the rare failure only
        for (int i = 0; i < observers.length; i++) {
            try {
                observers[i].onEntitiesRemoved(archetype, from, to, otherArchetype);
            } catch (RuntimeException | Error e) {
                failure = Failures.fold(failure, e);
                threw = threw == null ? new boolean[observers.length] : threw;
                threw[i] = true;
            }
        }
        if (failure == null) {
            return;
        }
        for (int i = 0; i < observers.length; i++) { // the rows stay: those that took the removal in hear it undone
            if (!threw[i]) {
                try {
                    observers[i].onEntitiesAdded(archetype, from, to, otherArchetype);
                } catch (RuntimeException | Error e) {
                    failure = Failures.fold(failure, e);
                }
            }
        }
        throw Failures.rethrow(failure);
    }

    /** Rows {@code [from, to)} arrived (activation first when the table was empty); they stay, whoever throws. */
    static void added(Table table, int from, int to, Table other) {
        EntityObserver[] observers = table.observers();
        if (observers.length == 0) {
            return;
        }
        Archetype archetype = table.archetype();
        Throwable failure = null;
        if (table.count() == to - from) {
            for (EntityObserver observer : observers) {
                try {
                    observer.onActivated(archetype);
                } catch (RuntimeException | Error e) {
                    failure = Failures.fold(failure, e);
                }
            }
        }
        Archetype otherArchetype = other == null ? null : other.archetype();
        for (EntityObserver observer : observers) {
            try {
                observer.onEntitiesAdded(archetype, from, to, otherArchetype);
            } catch (RuntimeException | Error e) {
                failure = Failures.fold(failure, e);
            }
        }
        if (failure != null) {
            throw Failures.rethrow(failure);
        }
    }

    /** The table became empty, when it did. */
    static void deactivated(Table table) {
        if (table.count() != 0) {
            return;
        }
        Throwable failure = null;
        for (EntityObserver observer : table.observers()) {
            try {
                observer.onDeactivated(table.archetype());
            } catch (RuntimeException | Error e) {
                failure = Failures.fold(failure, e);
            }
        }
        if (failure != null) {
            throw Failures.rethrow(failure);
        }
    }

    /**
     * A swap-remove moved {@code moved} from row {@code last} into {@code row} (when {@code moved} is not 0), and
     * the table may have become empty.
     */
    static void swapRemoved(Table table, long moved, int last, int row) {
        EntityObserver[] observers = table.observers();
        if (observers.length == 0) {
            return;
        }
        Archetype archetype = table.archetype();
        Throwable failure = null;
        if (moved != 0) {
            for (EntityObserver observer : observers) {
                try {
                    observer.onEntityMove(archetype, moved, last, row);
                } catch (RuntimeException | Error e) {
                    failure = Failures.fold(failure, e);
                }
            }
        }
        if (table.count() == 0) {
            for (EntityObserver observer : observers) {
                try {
                    observer.onDeactivated(archetype);
                } catch (RuntimeException | Error e) {
                    failure = Failures.fold(failure, e);
                }
            }
        }
        if (failure != null) {
            throw Failures.rethrow(failure);
        }
    }
}
