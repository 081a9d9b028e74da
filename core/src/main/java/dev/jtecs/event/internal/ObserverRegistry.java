package dev.jtecs.event.internal;

import dev.jtecs.entity.internal.Failures;
import dev.jtecs.entity.internal.Growth;
import dev.jtecs.event.Observer;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Every observer registration of one world, by address and event type.
 *
 * <p>Registrations per (address, type) live in a copy-on-write array: a delivery walks the array it started
 * with, so registering or stopping observers from a callback changes later deliveries only. Ids are unique per
 * (address, type).
 *
 * @implNote {@link #has} on an address nobody observes costs one hash lookup; {@link #observedEntityAddresses}
 *     lets the world skip even that for entity addresses in the common case of no entity observers, and a
 *     {@link Presence} answers for one event type from flags every registration change refreshes, so per-entity
 *     paths (a despawn, a spawn) read a field and pay no lookup at all.
 */
public final class ObserverRegistry {
    private static final Registration[] NONE = new Registration[0];

    private final Map<Long, Map<Class<?>, Registration[]>> byAddress = new HashMap<>();
    private int count;
    private int entityAddresses;
    private Presence[] presences = new Presence[0]; // brought up to date after every registration change
    private int delivering; // deliveries running on the stack (observers may deliver in turn)

    /** One registration: the callback, an optional id, and whether it fires once. */
    private record Registration(Observer<?> callback, String id, boolean once) {}

    /**
     * Registers a callback.
     *
     * @throws IllegalArgumentException when {@code id} is already used at this address and type
     */
    public void observe(long address, Class<?> type, Observer<?> callback, String id, boolean once) {
        Objects.requireNonNull(type, "event type");
        Objects.requireNonNull(callback, "callback");
        Map<Class<?>, Registration[]> byType = byAddress.get(address);
        Registration[] current = byType == null ? NONE : byType.getOrDefault(type, NONE);
        if (id != null) {
            for (Registration registration : current) {
                if (id.equals(registration.id)) {
                    throw new IllegalArgumentException("observer id '" + id + "' is already registered at address="
                            + address + " for " + type.getSimpleName());
                }
            }
        }
        if (byType == null) {
            byType = new HashMap<>();
            byAddress.put(address, byType);
            if (address != 0) {
                entityAddresses++;
            }
        }
        Registration[] next = Arrays.copyOf(current, current.length + 1);
        next[current.length] = new Registration(callback, id, once);
        byType.put(type, next);
        count++;
        changed();
    }

    /** Removes the registrations of a callback (by identity); returns whether any was removed. */
    public boolean stop(long address, Class<?> type, Observer<?> callback) {
        return remove(address, type, callback, null);
    }

    /** Removes the registration with an id; returns whether it existed. */
    public boolean stop(long address, Class<?> type, String id) {
        Objects.requireNonNull(id, "id");
        return remove(address, type, null, id);
    }

    private boolean remove(long address, Class<?> type, Observer<?> callback, String id) {
        Map<Class<?>, Registration[]> byType = byAddress.get(address);
        Registration[] current = byType == null ? null : byType.get(type);
        if (current == null) {
            return false;
        }
        Registration[] kept = new Registration[current.length];
        int n = 0;
        for (Registration registration : current) {
            boolean match = callback != null ? registration.callback == callback : id.equals(registration.id);
            if (!match) {
                kept[n++] = registration;
            }
        }
        if (n == current.length) {
            return false;
        }
        Registration[] trimmed = n == 0 ? null : Growth.copyOf(kept, n); // allocated before anything changes
        count -= current.length - n;
        if (n == 0) {
            byType.remove(type);
            if (byType.isEmpty()) {
                dropAddress(address);
            }
        } else {
            byType.put(type, trimmed); // replaces the entry: no allocation
        }
        changed();
        return true;
    }

    /** Whether anything observes this type at this address. */
    public boolean has(long address, Class<?> type) {
        if (address != 0 && entityAddresses == 0) {
            return false;
        }
        Map<Class<?>, Registration[]> byType = byAddress.get(address);
        return byType != null && byType.containsKey(type);
    }

    /**
     * Delivers an event to the observers of its type at an address, in registration order. Every observer hears
     * it even when an earlier one threw; the first exception then propagates, later ones attached as suppressed.
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public <E> void deliver(long address, Class<E> type, E event) {
        if (!has(address, type)) {
            return;
        }
        Registration[] snapshot = byAddress.get(address).get(type);
        Throwable failure = null;
        delivering++;
        try {
            for (Registration registration : snapshot) {
                if (registration.once && !removeExact(address, type, registration)) {
                    continue; // an earlier callback of this delivery already stopped it
                }
                try {
                    ((Observer) registration.callback).onEvent(event);
                } catch (RuntimeException | Error e) {
                    failure = Failures.fold(failure, e);
                }
            }
        } finally {
            delivering--;
        }
        Failures.throwIfAny(failure);
    }

    private boolean removeExact(long address, Class<?> type, Registration target) {
        Map<Class<?>, Registration[]> byType = byAddress.get(address);
        Registration[] current = byType == null ? null : byType.get(type);
        if (current == null) {
            return false;
        }
        int index = -1;
        for (int i = 0; i < current.length; i++) {
            if (current[i] == target) {
                index = i;
                break;
            }
        }
        if (index < 0) {
            return false;
        }
        Registration[] next = new Registration[current.length - 1];
        System.arraycopy(current, 0, next, 0, index);
        System.arraycopy(current, index + 1, next, index, current.length - index - 1);
        count--;
        if (next.length == 0) {
            byType.remove(type);
            if (byType.isEmpty()) {
                dropAddress(address);
            }
        } else {
            byType.put(type, next);
        }
        changed();
        return true;
    }

    /** Removes every registration at an address. */
    public void clear(long address) {
        if (address != 0 && entityAddresses == 0) {
            return; // nothing observes any entity: skip the (boxing) lookup
        }
        Map<Class<?>, Registration[]> byType = byAddress.get(address);
        if (byType == null) {
            return;
        }
        for (Registration[] registrations : byType.values()) {
            count -= registrations.length;
        }
        dropAddress(address);
        changed();
    }

    /** A registration was added or removed: every presence answers from the registrations as they are now. */
    private void changed() {
        for (Presence presence : presences) {
            presence.refresh();
        }
    }

    /** Removes every registration at every entity address (address 0 keeps its observers). */
    public void clearEntityAddresses() {
        if (entityAddresses == 0) {
            return;
        }
        java.util.List<Long> addresses = new java.util.ArrayList<>(byAddress.keySet());
        for (long address : addresses) {
            if (address != 0) {
                clear(address);
            }
        }
    }

    private void dropAddress(long address) {
        byAddress.remove(address);
        if (address != 0) {
            entityAddresses--;
        }
    }

    /** Whether a delivery is running: an observer (or code it called) is on the stack. */
    public boolean isDelivering() {
        return delivering > 0;
    }

    /** The number of live registrations. */
    public int count() {
        return count;
    }

    /** The number of entity addresses (not 0) with at least one registration. */
    public int observedEntityAddresses() {
        return entityAddresses;
    }

    /**
     * A view of who observes one event type, kept up to date by every registration change from now on; see
     * {@link Presence}. A registry holds each one it hands out for its life: ask once per type and keep it.
     */
    public Presence presence(Class<?> type) {
        Presence presence = new Presence(Objects.requireNonNull(type, "type"));
        presence.refresh();
        Presence[] more = Arrays.copyOf(presences, presences.length + 1);
        more[presences.length] = presence;
        presences = more;
        return presence;
    }

    /**
     * Whether anything observes one event type, answered from two flags that every registration change brings up
     * to date (observing, stopping, a once-observer firing, clearing an address): a per-entity path (a despawn, a
     * spawn) reads a field. Invariant: {@link #atWorld()} equals {@code has(0, type)}, {@link #silent()} equals
     * {@code !has(0, type) && observedEntityAddresses() == 0}, and {@link #at} equals {@code has(address, type)} at
     * every moment.
     */
    public final class Presence {
        private final Class<?> type;
        private boolean atWorld;
        private boolean silent;

        private Presence(Class<?> type) {
            this.type = type;
        }

        private void refresh() {
            atWorld = has(0, type);
            silent = !atWorld && entityAddresses == 0;
        }

        /** Whether anything observes the type at address 0. */
        public boolean atWorld() {
            return atWorld;
        }

        /**
         * Whether an event of the type would reach nobody, wherever it is delivered: nothing observes it at address
         * 0 and no entity address is observed at all (for any type).
         */
        public boolean silent() {
            return silent;
        }

        /** Whether anything observes the type at {@code address}; no lookup while no entity address is observed. */
        public boolean at(long address) {
            return address == 0 ? atWorld : entityAddresses > 0 && has(address, type);
        }
    }
}
