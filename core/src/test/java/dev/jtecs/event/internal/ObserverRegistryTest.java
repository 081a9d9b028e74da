package dev.jtecs.event.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.event.Observer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ObserverRegistryTest {
    record Ping(int n) {}

    record Pong(int n) {}

    private final ObserverRegistry registry = new ObserverRegistry();
    private final List<String> log = new ArrayList<>();

    @Test
    void aStopThatCannotAllocateKeepsEveryObserver() {
        Observer<Ping> a = p -> log.add("a");
        Observer<Ping> b = p -> log.add("b");
        Observer<Ping> c = p -> log.add("c");
        registry.observe(5, Ping.class, a, null, false);
        registry.observe(5, Ping.class, b, null, false);
        registry.observe(5, Ping.class, c, null, false);
        dev.jtecs.entity.internal.AllocationFaults.failAt(dev.jtecs.entity.internal.AllocationFaults.Kind.HEAP, 1);
        try {
            assertThrows(OutOfMemoryError.class, () -> registry.stop(5, Ping.class, b));
        } finally {
            dev.jtecs.entity.internal.AllocationFaults.disarm();
        }
        assertEquals(3, registry.count());
        registry.deliver(5, Ping.class, new Ping(1));
        assertEquals(List.of("a", "b", "c"), log);
        assertTrue(registry.stop(5, Ping.class, b));
        assertEquals(2, registry.count());
        log.clear();
        registry.deliver(5, Ping.class, new Ping(2));
        assertEquals(List.of("a", "c"), log);
    }

    @Test
    void deliversInRegistrationOrderPerAddressAndType() {
        registry.observe(5, Ping.class, (Observer<Ping>) p -> log.add("a" + p.n()), null, false);
        registry.observe(5, Ping.class, (Observer<Ping>) p -> log.add("b" + p.n()), null, false);
        registry.observe(6, Ping.class, (Observer<Ping>) p -> log.add("other"), null, false);
        registry.observe(5, Pong.class, (Observer<Pong>) p -> log.add("pong"), null, false);
        registry.deliver(5, Ping.class, new Ping(1));
        assertEquals(List.of("a1", "b1"), log);
        assertEquals(4, registry.count());
        assertEquals(2, registry.observedEntityAddresses());
    }

    @Test
    void onceRegistrationsRunOnce() {
        registry.observe(0, Ping.class, (Observer<Ping>) p -> log.add("once"), null, true);
        registry.deliver(0, Ping.class, new Ping(1));
        registry.deliver(0, Ping.class, new Ping(2));
        assertEquals(List.of("once"), log);
        assertFalse(registry.has(0, Ping.class));
        assertEquals(0, registry.count());
    }

    @Test
    void stopByIdentityOrIdAndRejectDuplicateIds() {
        Observer<Ping> callback = p -> log.add("cb");
        registry.observe(1, Ping.class, callback, null, false);
        registry.observe(1, Ping.class, (Observer<Ping>) p -> log.add("named"), "n", false);
        assertThrows(IllegalArgumentException.class,
                () -> registry.observe(1, Ping.class, (Observer<Ping>) p -> { }, "n", false));
        assertTrue(registry.stop(1, Ping.class, callback));
        assertFalse(registry.stop(1, Ping.class, callback));
        assertTrue(registry.stop(1, Ping.class, "n"));
        assertFalse(registry.has(1, Ping.class));
        assertEquals(0, registry.observedEntityAddresses());
        assertFalse(registry.stop(9, Ping.class, "missing"));
    }

    @Test
    void clearRemovesOneAddressOnly() {
        registry.observe(0, Ping.class, (Observer<Ping>) p -> log.add("world"), null, false);
        registry.observe(3, Ping.class, (Observer<Ping>) p -> log.add("entity"), null, false);
        registry.observe(4, Pong.class, (Observer<Pong>) p -> log.add("entity"), null, false);
        registry.clear(3);
        assertFalse(registry.has(3, Ping.class));
        assertTrue(registry.has(4, Pong.class));
        assertTrue(registry.has(0, Ping.class));
        assertEquals(2, registry.count());
        registry.clear(77);
    }

    @Test
    void aCallbackStoppingALaterOnceObserverPreventsItsDelivery() {
        Observer<Ping> later = p -> log.add("later");
        registry.observe(0, Ping.class, (Observer<Ping>) p -> registry.stop(0, Ping.class, later), null, false);
        registry.observe(0, Ping.class, later, null, true);
        registry.deliver(0, Ping.class, new Ping(1));
        assertEquals(List.of(), log);
    }

    @Test
    void rejectsNulls() {
        assertThrows(NullPointerException.class, () -> registry.observe(0, null, p -> { }, null, false));
        assertThrows(NullPointerException.class, () -> registry.observe(0, Ping.class, null, null, false));
        assertThrows(NullPointerException.class, () -> registry.stop(0, Ping.class, (String) null));
    }

    @Test
    void aPresenceFollowsEveryKindOfRegistrationChange() {
        ObserverRegistry.Presence pings = registry.presence(Ping.class);
        Observer<Ping> callback = p -> log.add("ping");
        assertFalse(pings.atWorld());
        assertFalse(pings.at(7));
        registry.observe(0, Ping.class, callback, "w", false);
        assertTrue(pings.atWorld(), "observe");
        registry.observe(0, Pong.class, (Observer<Pong>) p -> { }, null, false);
        assertTrue(pings.atWorld(), "another type changes nothing");
        assertTrue(registry.stop(0, Ping.class, "w"));
        assertFalse(pings.atWorld(), "stop by id");
        registry.observe(0, Ping.class, callback, null, true);
        assertTrue(pings.atWorld());
        registry.deliver(0, Ping.class, new Ping(1));
        assertFalse(pings.atWorld(), "a once-observer fired");
        registry.observe(0, Ping.class, callback, null, false);
        assertTrue(pings.atWorld());
        registry.clear(0);
        assertFalse(pings.atWorld(), "clear");
        registry.observe(7, Ping.class, callback, null, false);
        assertTrue(pings.at(7));
        assertFalse(pings.at(8));
        assertFalse(pings.atWorld());
        registry.clearEntityAddresses();
        assertFalse(pings.at(7), "entity addresses cleared");
        assertThrows(NullPointerException.class, () -> registry.presence(null));
    }

    /**
     * A presence is silent exactly while nothing observes its type at the world and no entity address is observed
     * for any type, through every kind of registration change, and one made after registrations sees them.
     */
    @Test
    void aPresenceIsSilentOnlyWhileNobodyAnywhereCouldHearIt() {
        ObserverRegistry.Presence pings = registry.presence(Ping.class);
        Observer<Ping> callback = p -> log.add("ping");
        assertTrue(pings.silent());
        registry.observe(0, Pong.class, (Observer<Pong>) p -> { }, "pong", false);
        assertTrue(pings.silent(), "another type at the world reaches no ping");
        registry.observe(9, Pong.class, (Observer<Pong>) p -> { }, null, false);
        assertFalse(pings.silent(), "an observed entity address: a despawn there must be checked");
        registry.clear(9);
        assertTrue(pings.silent(), "the address cleared");
        registry.observe(0, Ping.class, callback, null, true);
        assertFalse(pings.silent());
        assertFalse(registry.presence(Ping.class).silent(), "a presence made later sees what is registered");
        registry.deliver(0, Ping.class, new Ping(1));
        assertTrue(pings.silent(), "the once-observer fired");
        registry.observe(4, Ping.class, callback, "at4", false);
        assertFalse(pings.silent());
        assertTrue(registry.stop(4, Ping.class, "at4"));
        assertTrue(pings.silent(), "stopped");
        registry.observe(5, Ping.class, callback, null, false);
        registry.clearEntityAddresses();
        assertTrue(pings.silent(), "entity addresses cleared");
        assertTrue(registry.stop(0, Pong.class, "pong"));
        assertTrue(pings.silent());
    }

    @Test
    void emitStopsAtTheFirstThrowingObserver() {
        // issue 18, smaller item: emit stops at the first throwing observer
        registry.observe(0, Ping.class, (Observer<Ping>) p -> log.add("first"), null, false);
        registry.observe(0, Ping.class, (Observer<Ping>) p -> {
            throw new IllegalStateException("second failed");
        }, null, false);
        registry.observe(0, Ping.class, (Observer<Ping>) p -> log.add("once"), null, true);
        registry.observe(0, Ping.class, (Observer<Ping>) p -> {
            throw new IllegalArgumentException("fourth failed");
        }, null, false);
        registry.observe(0, Ping.class, (Observer<Ping>) p -> log.add("fifth"), null, false);
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> registry.deliver(0, Ping.class, new Ping(1)));
        assertEquals("second failed", e.getMessage(), "the first exception propagates");
        assertEquals(1, e.getSuppressed().length);
        assertEquals("fourth failed", e.getSuppressed()[0].getMessage());
        assertEquals(List.of("first", "once", "fifth"), log, "every observer heard the event");
        assertEquals(4, registry.count(), "the once-observer went exactly once");
        assertThrows(IllegalStateException.class, () -> registry.deliver(0, Ping.class, new Ping(2)));
        assertEquals(List.of("first", "once", "fifth", "first", "fifth"), log);
    }

    /** A once observer that was the last at its entity address takes the address with it once it has run. */
    @Test
    void theLastOnceObserverAtAnEntityLeavesNoAddressBehind() {
        registry.observe(5, Ping.class, (Observer<Ping>) p -> log.add("once"), null, true);
        assertEquals(1, registry.observedEntityAddresses());
        registry.deliver(5, Ping.class, new Ping(1));
        assertEquals(List.of("once"), log);
        assertEquals(0, registry.observedEntityAddresses());
        assertTrue(registry.presence(Ping.class).silent(), "nobody anywhere hears a Ping now");
    }

    /** A callback that clears its own address stops a once observer after it there from being delivered. */
    @Test
    void aCallbackClearingItsAddressPreventsALaterOnceObserverThere() {
        registry.observe(5, Ping.class, (Observer<Ping>) p -> registry.clear(5), null, false);
        registry.observe(5, Ping.class, (Observer<Ping>) p -> log.add("later"), null, true);
        registry.deliver(5, Ping.class, new Ping(1));
        assertEquals(List.of(), log);
        assertEquals(0, registry.count());
        assertEquals(0, registry.observedEntityAddresses());
    }
}
