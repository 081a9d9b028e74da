package dev.jtecs.snapshot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** The load's start event: listeners per key in subscription order, refused once the event is closed. */
class StartSnapshotLoadTest {
    private static final SnapshotPrelude PRELUDE = new SnapshotPrelude(1, 9, 4, 2, List.of());

    @Test
    void listenersOfAKeyComeBackInSubscriptionOrderAndAreACopy() {
        StartSnapshotLoad event = new StartSnapshotLoad(PRELUDE);
        assertSame(PRELUDE, event.prelude());
        List<String> heard = new ArrayList<>();
        Consumer<Object> first = v -> heard.add("first " + v);
        Consumer<Object> second = v -> heard.add("second " + v);
        event.onData("k", first);
        event.onData("other", v -> heard.add("other"));
        event.onData("k", second);
        assertEquals(List.of(first, second), event.listeners("k"));
        assertEquals(List.of(), event.listeners("missing"));
        assertThrows(UnsupportedOperationException.class, () -> event.listeners("k").clear());
        event.listeners("k").forEach(l -> l.accept(3));
        assertEquals(List.of("first 3", "second 3"), heard);
        assertEquals("StartSnapshotLoad[4 entities, keys=[k, other]]", event.toString());
    }

    @Test
    void subscriptionIsRefusedForAnEmptyKeyAndOnceTheEventIsClosed() {
        StartSnapshotLoad event = new StartSnapshotLoad(PRELUDE);
        assertEquals("onData: a key must not be empty",
                assertThrows(IllegalArgumentException.class, () -> event.onData("", v -> { })).getMessage());
        assertThrows(NullPointerException.class, () -> event.onData("k", null));
        event.close();
        assertEquals("onData(k): subscribe while StartSnapshotLoad is delivered",
                assertThrows(IllegalStateException.class, () -> event.onData("k", v -> { })).getMessage());
        assertEquals(List.of(), event.listeners("k"));
        assertThrows(NullPointerException.class, () -> new StartSnapshotLoad(null));
    }
}
