package dev.jtecs.mutation.internal;

import dev.jtecs.builtin.EntityKey;
import dev.jtecs.entity.Entity;
import dev.jtecs.entity.internal.AllocationFaults;
import dev.jtecs.storage.internal.Table;
import java.util.HashSet;
import java.util.Set;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.function.LongFunction;

/**
 * The world's {@code EntityKey} index: committed holders by key, plus the claims staged in the open
 * transaction. A claim is checked at the call (so duplicates never become visible) and confirmed after each
 * drain.
 *
 * <p>Entries are validated lazily: an entry counts only while its holder is alive and still holds that key
 * (asked through {@code currentKey}), so publication touches only the claims it staged, never every key; stale
 * entries (a holder despawned, or rekeyed by a staged set) are dropped when met, and swept in one pass
 * whenever the map has doubled since the last sweep, so the map stays proportional to the live keys.
 */
public final class KeyIndex {
    private final Map<String, Long> committed = new HashMap<>();
    private final Map<String, Long> pending = new HashMap<>();
    private final LongFunction<String> currentKey;
    private int sweepAt = 64;

    /** @param currentKey the key a live entity holds now, or {@code null} when it is dead or has none */
    KeyIndex(LongFunction<String> currentKey) {
        this.currentKey = currentKey;
    }

    /** The live holder of a key, or 0. */
    long holder(String key) {
        Long id = committed.get(key);
        if (id == null) {
            return 0;
        }
        if (!key.equals(currentKey.apply(id))) {
            committed.remove(key); // stale: the holder died or holds another key now
            return 0;
        }
        return id;
    }

    boolean hasPending() {
        return !pending.isEmpty();
    }

    /**
     * Checks that {@code entity} may claim {@code key}: no other live entity holds it and no other entity has
     * claimed it in the open transaction.
     *
     * @throws IllegalArgumentException naming the key and both entities
     */
    void checkClaim(String key, long entity) {
        if (key.isEmpty()) {
            throw new IllegalArgumentException("EntityKey of " + describe(entity) + " must not be empty");
        }
        long owner = holder(key);
        if (owner != 0 && owner != entity) {
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

    /**
     * Records a committed key at once (a write-through), before the entity's row holds it: the one step that
     * allocates, so a failure leaves the key unclaimed and the row as it was (an entry whose row then does not
     * hold the key is stale, and dropped when met). {@link #releaseNow} follows once the row holds it.
     */
    void claimNow(String key, long entity) {
        AllocationFaults.beforeHeapGrowth(1); // the map's entry, failed the same way as the engine's arrays
        committed.put(key, entity);
    }

    /** After a write-through: releases the entity's previous key (when another) and sweeps when due. */
    void releaseNow(String key, String previous, long entity) {
        if (previous != null && !previous.isEmpty() && !previous.equals(key)) {
            committed.remove(previous, entity);
        }
        sweepIfDue();
    }

    /** After a drain: staged claims whose entity now holds that key become committed; the rest are dropped. */
    void reconcile() {
        for (Map.Entry<String, Long> claim : pending.entrySet()) {
            if (claim.getKey().equals(currentKey.apply(claim.getValue()))) {
                put(claim.getKey(), claim.getValue());
            }
        }
        pending.clear();
    }

    private void put(String key, long entity) {
        committed.put(key, entity);
        sweepIfDue();
    }

    /** Drops the stale entries once the map has doubled since the last sweep. */
    private void sweepIfDue() {
        if (committed.size() >= sweepAt) {
            Iterator<Map.Entry<String, Long>> entries = committed.entrySet().iterator();
            while (entries.hasNext()) {
                Map.Entry<String, Long> entry = entries.next();
                if (!entry.getKey().equals(currentKey.apply(entry.getValue()))) {
                    entries.remove();
                }
            }
            sweepAt = Math.max(64, committed.size() * 2);
        }
    }

    /** The number of entries held, stale ones included until they are met or swept. */
    int size() {
        return committed.size();
    }

    /** Forgets every key (the world cleared its entities). */
    void clear() {
        committed.clear();
        pending.clear();
        sweepAt = 64;
    }

    /** Forgets claims that were never published (a failed or discarded commit). */
    void dropPending() {
        pending.clear();
    }

    /**
     * Claims the keys a restoration batch wrote into its rows (checked all before any is recorded).
     *
     * @throws IllegalArgumentException for a missing, empty or duplicate key
     */
    void claimRows(Table table, int fromRow, int toRow) {
        int position = table.position(EntityKey.COMPONENT.id());
        Set<String> seen = new HashSet<>();
        for (int row = fromRow; row < toRow; row++) {
            Object key = table.readValue(position, row);
            long id = table.entityAt(row);
            if (!(key instanceof String text) || text.isEmpty()) {
                throw new IllegalArgumentException("batchSpawnAtRaw: entity " + Entity.toString(id)
                        + " has no EntityKey (the initializer must write a non-empty key)");
            }
            if (!seen.add(text)) {
                throw new IllegalArgumentException("batchSpawnAtRaw: EntityKey '" + text
                        + "' appears twice in the batch");
            }
            checkClaim(text, id);
        }
        for (int row = fromRow; row < toRow; row++) {
            // staged, not committed: the rows publish after this; the drain's reconcile confirms the claims
            stageClaim((String) table.readValue(position, row), table.entityAt(row));
        }
    }
}
