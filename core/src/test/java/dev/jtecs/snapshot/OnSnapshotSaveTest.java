package dev.jtecs.snapshot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.jtecs.component.Components;
import dev.jtecs.component.TagComponent;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The save event: data keys unique against the event, the predicate of keys taken elsewhere, and its close. */
class OnSnapshotSaveTest {
    static final TagComponent A = Components.tag("onsave.A");
    static final TagComponent B = Components.tag("onsave.B");

    @Test
    void dataKeysMustBeNewToTheEventAndToTheKeysTakenBeforeIt() {
        OnSnapshotSave event = new OnSnapshotSave(Set.of("taken")::contains);
        event.addData("b", 1);
        event.addData("a", null);
        assertEquals(List.of("b", "a"), List.copyOf(event.data().keySet()));
        assertEquals("addData: key 'taken' is already used in this snapshot",
                assertThrows(IllegalArgumentException.class, () -> event.addData("taken", 2)).getMessage());
        assertEquals("addData: key 'b' is already used in this snapshot",
                assertThrows(IllegalArgumentException.class, () -> event.addData("b", 2)).getMessage());
        assertEquals(1, event.data().get("b"));
        assertEquals("addData: a key must not be empty",
                assertThrows(IllegalArgumentException.class, () -> event.addData("", 2)).getMessage());
        assertThrows(UnsupportedOperationException.class, () -> event.data().clear());
    }

    @Test
    void exclusionsAreKeptOnceInOrder() {
        OnSnapshotSave event = new OnSnapshotSave(key -> false);
        event.exclude(B);
        event.exclude(A);
        event.exclude(B);
        assertEquals(List.of(B, A), event.excluded());
        assertThrows(UnsupportedOperationException.class, () -> event.excluded().clear());
        assertThrows(NullPointerException.class, () -> event.exclude(null));
    }

    @Test
    void aClosedEventRefusesDataAndExclusions() {
        OnSnapshotSave event = new OnSnapshotSave(key -> false);
        event.close();
        assertEquals("addData: OnSnapshotSave is over",
                assertThrows(IllegalStateException.class, () -> event.addData("k", 1)).getMessage());
        assertEquals("exclude: OnSnapshotSave is over",
                assertThrows(IllegalStateException.class, () -> event.exclude(A)).getMessage());
        assertEquals(0, event.data().size());
        assertEquals(0, event.excluded().size());
    }
}
