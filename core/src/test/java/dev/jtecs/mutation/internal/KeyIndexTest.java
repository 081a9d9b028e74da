package dev.jtecs.mutation.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class KeyIndexTest {
    /** The keys live entities hold: absent means dead or keyless. */
    private final Map<Long, String> held = new HashMap<>();
    private int lookups;
    private final KeyIndex keys = new KeyIndex(id -> {
        lookups++;
        return held.get(id);
    });

    @Test
    void stagedClaimsBecomeCommittedWhenTheEntityHoldsTheKey() {
        keys.checkClaim("a", 1);
        keys.stageClaim("a", 1);
        assertTrue(keys.hasPending());
        assertThrows(IllegalArgumentException.class, () -> keys.checkClaim("a", 2));
        keys.checkClaim("a", 1);
        held.put(1L, "a");
        keys.reconcile();
        assertEquals(1, keys.holder("a"));
    }

    @Test
    void abandonedClaimsAndStaleEntriesCountForNothing() {
        keys.stageClaim("a", 1);
        keys.stageClaim("b", 2);
        held.put(1L, "a");
        keys.reconcile();
        assertEquals(0, keys.holder("b"), "entity 2 never held b");
        held.remove(1L); // entity 1 died
        assertEquals(0, keys.holder("a"));
        keys.checkClaim("a", 3);
        assertEquals(0, keys.size(), "the stale entry was dropped when met");
    }

    /** A write-through as {@code Staging} makes it: the claim, the row (the test's map), then the release. */
    private void commit(String key, String previous, long id) {
        keys.claimNow(key, id);
        keys.releaseNow(key, previous, id);
    }

    @Test
    void aClaimThatFailsToAllocateLeavesNoEntry() {
        held.put(5L, "k");
        dev.jtecs.entity.internal.AllocationFaults.failAt(dev.jtecs.entity.internal.AllocationFaults.Kind.HEAP, 1);
        try {
            assertThrows(OutOfMemoryError.class, () -> keys.claimNow("k", 5));
        } finally {
            dev.jtecs.entity.internal.AllocationFaults.disarm();
        }
        assertEquals(0, keys.size());
        commit("k", null, 5);
        assertEquals(5, keys.holder("k"));
        commit("k", "k", 5); // the same key again: its entry stays
        assertEquals(5, keys.holder("k"));
    }

    @Test
    void liveHoldersBlockClaimsAndDeadOrRekeyedOnesDoNot() {
        held.put(7L, "k");
        commit("k", null, 7);
        assertThrows(IllegalArgumentException.class, () -> keys.checkClaim("k", 8));
        keys.checkClaim("k", 7);
        held.put(7L, "other"); // a staged set gave 7 another key
        keys.checkClaim("k", 8);
        assertThrows(IllegalArgumentException.class, () -> keys.checkClaim("", 9));
    }

    @Test
    void aWriteThroughReleasesThePreviousKey() {
        held.put(3L, "new");
        commit("old", null, 3);
        commit("new", "old", 3);
        assertEquals(0, keys.holder("old"));
        assertEquals(3, keys.holder("new"));
        keys.stageClaim("x", 4);
        keys.dropPending();
        keys.checkClaim("x", 5);
    }

    @Test
    void reconcilingLooksOnlyAtStagedClaimsAndTheMapStaysBounded() {
        for (long id = 1; id <= 10_000; id++) {
            held.put(id, "k" + id);
            commit("k" + id, null, id);
        }
        lookups = 0;
        keys.stageClaim("k1", 1);
        keys.reconcile();
        assertEquals(1, lookups, "one claim, one lookup: not a walk over 10,000 keys");
        for (long id = 1; id <= 10_000; id++) {
            held.remove(id); // every holder dies without the index hearing of it
        }
        for (long id = 20_001; id <= 40_000; id++) {
            held.put(id, "n" + id);
            commit("n" + id, null, id);
        }
        assertTrue(keys.size() < 2 * 20_000 + 64, "sweeps keep the map near the live keys: " + keys.size());
    }

    @Test
    void rekeyingAnEntityDropsItsPreviousEntryAtOnce() {
        held.put(3L, "new");
        commit("old", null, 3);
        commit("new", "old", 3);
        assertEquals(1, keys.size(), "the previous key's entry went with the call, not when met");
        commit("newer", "", 3); // an empty previous key releases nothing
        assertEquals(2, keys.size());
    }

    @Test
    void theSixtyFourthEntrySweepsTheStaleOnesAndKeepsTheLive() {
        for (long id = 1; id <= 63; id++) {
            commit("gone" + id, null, id); // no holder holds these: stale from the start
        }
        assertEquals(63, keys.size(), "no sweep below 64 entries");
        held.put(64L, "live");
        commit("live", null, 64);
        assertEquals(1, keys.size(), "at 64 entries the sweep drops the 63 stale ones");
        assertEquals(64, keys.holder("live"), "and keeps the live one");
    }

    @Test
    void reconcilingSweepsToo() {
        for (long id = 1; id <= 63; id++) {
            keys.claimNow("gone" + id, id); // a claim alone never sweeps: no holder holds these
        }
        assertEquals(63, keys.size());
        held.put(64L, "live");
        assertFalse(keys.hasPending());
        keys.stageClaim("live", 64);
        assertTrue(keys.hasPending());
        keys.reconcile(); // confirms the claim: the sixty-fourth entry, and the sweep
        assertFalse(keys.hasPending());
        assertEquals(1, keys.size(), "the 63 stale entries went");
        assertEquals(64, keys.holder("live"));
    }

    @Test
    void aRefusedClaimNamesBothEntitiesOrANewOne() {
        held.put(7L, "k");
        commit("k", null, 7);
        String forNew = assertThrows(IllegalArgumentException.class, () -> keys.checkClaim("k", 0)).getMessage();
        assertTrue(forNew.contains("a new entity"), forNew);
        long other = dev.jtecs.entity.Entity.pack(8, 0);
        String forOther = assertThrows(IllegalArgumentException.class, () -> keys.checkClaim("k", other))
                .getMessage();
        assertTrue(forOther.contains(dev.jtecs.entity.Entity.toString(other)), forOther);
        assertTrue(forOther.contains(dev.jtecs.entity.Entity.toString(7)), forOther);
    }
}
