package dev.jtecs.event;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.jtecs.component.Component;
import dev.jtecs.component.Components;
import dev.jtecs.component.ScalarComponent;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class OnDespawnTest {
    static final ScalarComponent.OfInt HP = Components.scalar("test.ondespawn.Hp", 0);

    /** A context that answers every value with 7 and records the despawns it is asked for. */
    private static final class Recording implements OnDespawn.Context {
        final List<Long> despawned = new ArrayList<>();

        @Override
        @SuppressWarnings("unchecked")
        public <T> T committedValue(long entity, Component<T> component) {
            return (T) Integer.valueOf(7);
        }

        @Override
        public void despawn(long entity) {
            despawned.add(entity);
        }
    }

    @Test
    void despawnsGoToTheContextAndAreListedInOrder() {
        Recording context = new Recording();
        OnDespawn event = new OnDespawn(42, null, -1, context);
        event.despawn(5);
        event.despawn(3);
        assertEquals(List.of(5L, 3L), context.despawned);
        assertEquals(List.of(5L, 3L), event.requestedDespawns());
        assertThrows(UnsupportedOperationException.class, () -> event.requestedDespawns().add(1L));
    }

    @Test
    void anEntityNeverPublishedHasNoValuesAndSaysSo() {
        OnDespawn unpublished = new OnDespawn(42, null, -1, new Recording());
        assertNull(unpublished.get(HP), "no committed archetype: nothing is asked of the context");
        assertEquals(-1, unpublished.row());
        assertEquals("OnDespawn[entity=42, row=-1]", unpublished.toString());
        assertThrows(NullPointerException.class, () -> new OnDespawn(42, null, -1, null));
    }
}
