package dev.jtecs.world;

import dev.jtecs.entity.Entity;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongPredicate;
import java.util.function.LongFunction;

/**
 * The world's {@code EntityKey} index: committed holders by key, plus the claims staged in the open
 * transaction. A claim is checked at the call (so duplicates never become visible) and confirmed by
 * {@link #reconcile} after each drain against the values the entities actually hold.
 */
final class KeyIndex {
    private final Map<String, Long> committed = new HashMap<>();
    private final Map<String, Long> pending = new HashMap<>();

    /** The committed holder of a key, or 0. */
    long holder(String key) {
        Long id = committed.get(key);
        return id == null ? 0 : id;
    }

    boolean isEmpty() {
        return committed.isEmpty() && pending.isEmpty();
    }

    /**
     * Checks that {@code entity} may claim {@code key}: no other live entity holds it and no other entity has
     * claimed it in the open transaction.
     *
     * @throws IllegalArgumentException naming the key and both entities
     */
    void checkClaim(String key, long entity, LongPredicate alive) {
        if (key.isEmpty()) {
            throw new IllegalArgumentException("EntityKey of " + (entity == 0 ? "a new entity"
                    : Entity.toString(entity)) + " must not be empty");
        }
        Long owner = committed.get(key);
        if (owner != null && owner != entity && alive.test(owner)) {
            throw new IllegalArgumentException("EntityKey '" + key + "' is already held by live entity "
                    + Entity.toString(owner) + "; cannot claim it for " + describe(entity));
        }
        Long claimant = pending.get(key);
        if (claimant != null && claimant != entity) {
            throw new IllegalArgumentException("EntityKey '" + key + "' is already claimed by "
                    + Entity.toString(claimant) + " in this transaction; cannot claim it for " + describe(entity));
        }
    }

    private static String describe(long entity) {
        return entity == 0 ? "a new entity" : Entity.toString(entity);
    }

    /** Records a staged claim (checked already). */
    void stageClaim(String key, long entity) {
        pending.put(key, entity);
    }

    /** Records a committed key immediately (a write-through), releasing the entity's previous key. */
    void commitNow(String key, String previous, long entity) {
        if (previous != null && !previous.isEmpty()) {
            committed.remove(previous, entity);
        }
        committed.put(key, entity);
    }

    /**
     * Brings the index in line with the world after a drain: staged claims whose entity now holds that key
     * become committed; entries whose holder died or no longer holds the key are dropped.
     *
     * @param currentKey the key an entity holds now ({@code null} when it has none or is dead)
     */
    void reconcile(LongFunction<String> currentKey) {
        for (Map.Entry<String, Long> claim : pending.entrySet()) {
            if (claim.getKey().equals(currentKey.apply(claim.getValue()))) {
                committed.put(claim.getKey(), claim.getValue());
            }
        }
        pending.clear();
        List<String> stale = new ArrayList<>();
        for (Map.Entry<String, Long> entry : committed.entrySet()) {
            if (!entry.getKey().equals(currentKey.apply(entry.getValue()))) {
                stale.add(entry.getKey());
            }
        }
        for (String key : stale) {
            committed.remove(key);
        }
    }

    /** Forgets every key (the world cleared its entities). */
    void clear() {
        committed.clear();
        pending.clear();
    }

    /** Forgets claims that were never published (a failed or discarded commit). */
    void dropPending() {
        pending.clear();
    }
}
