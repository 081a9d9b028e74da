package dev.jtecs.world;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class KeyIndexTest {
    private final KeyIndex keys = new KeyIndex();
    private final Map<Long, String> held = new HashMap<>();

    @Test
    void stagedClaimsBecomeCommittedWhenTheEntityHoldsTheKey() {
        keys.checkClaim("a", 1, id -> true);
        keys.stageClaim("a", 1);
        assertThrows(IllegalArgumentException.class, () -> keys.checkClaim("a", 2, id -> true));
        keys.checkClaim("a", 1, id -> true);
        held.put(1L, "a");
        keys.reconcile(held::get);
        assertEquals(1, keys.holder("a"));
    }

    @Test
    void reconcileDropsStaleEntriesAndAbandonedClaims() {
        keys.stageClaim("a", 1);
        keys.stageClaim("b", 2);
        held.put(1L, "a");
        keys.reconcile(held::get);
        assertEquals(0, keys.holder("b"), "entity 2 never held b");
        held.remove(1L);
        keys.reconcile(held::get);
        assertEquals(0, keys.holder("a"));
        assertTrue(keys.isEmpty());
    }

    @Test
    void liveHoldersBlockClaimsAndDeadOnesDoNot() {
        keys.commitNow("k", null, 7);
        assertThrows(IllegalArgumentException.class, () -> keys.checkClaim("k", 8, id -> true));
        keys.checkClaim("k", 8, id -> id != 7);
        keys.checkClaim("k", 7, id -> true);
        assertThrows(IllegalArgumentException.class, () -> keys.checkClaim("", 9, id -> true));
    }

    @Test
    void commitNowReleasesThePreviousKey() {
        keys.commitNow("old", null, 3);
        keys.commitNow("new", "old", 3);
        assertEquals(0, keys.holder("old"));
        assertEquals(3, keys.holder("new"));
        keys.stageClaim("x", 4);
        keys.dropPending();
        keys.checkClaim("x", 5, id -> true);
    }
}
