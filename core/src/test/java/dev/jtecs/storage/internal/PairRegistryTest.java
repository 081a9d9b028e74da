package dev.jtecs.storage.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.component.Components;
import dev.jtecs.component.PairComponent;
import dev.jtecs.component.Relationship;
import dev.jtecs.component.Relationships;
import dev.jtecs.entity.Entity;
import java.util.List;
import org.junit.jupiter.api.Test;

class PairRegistryTest {
    static final Relationship A = Relationships.register("test.pairs.A");
    static final Relationship B = Relationships.register("test.pairs.B");

    @Test
    void handsOutOnePairPerRelationshipAndTargetInFirstSeenOrder() {
        PairRegistry pairs = new PairRegistry();
        assertTrue(pairs.isEmpty());
        long t = Entity.pack(9, 1);
        PairComponent a = pairs.pair(A, t);
        org.junit.jupiter.api.Assertions.assertFalse(pairs.isEmpty());
        PairComponent b = pairs.pair(B, t);
        assertSame(a, pairs.pair(A, t));
        assertSame(a, pairs.find(A, t));
        assertNull(pairs.find(A, Entity.pack(9, 2)));
        assertNull(pairs.find(B, Entity.pack(1, 0)));
        assertEquals(Components.FIRST_PAIR_ID, a.id());
        assertEquals(Components.FIRST_PAIR_ID + 1, b.id());
        assertEquals(List.of(a, b), pairs.targeting(t));
        assertEquals(List.of(), pairs.targeting(Entity.pack(1, 0)));
        assertEquals(2, pairs.size());
    }

    @Test
    void aPairWhoseCreationFailsIsNotNotedAndSpendsNoId() {
        PairRegistry pairs = new PairRegistry();
        int failures = 0;
        try {
            for (int i = 1; i <= 200; i++) {
                long target = Entity.pack(i, 0);
                for (int k = 1; ; k++) { // fail each heap growth of the creation in turn, then let it through
                    dev.jtecs.entity.internal.AllocationFaults.failAt(
                            dev.jtecs.entity.internal.AllocationFaults.Kind.HEAP, k);
                    try {
                        pairs.pair(A, target);
                    } catch (OutOfMemoryError expected) {
                        failures++;
                        assertNull(pairs.find(A, target), "pair " + i);
                        assertEquals(List.of(), pairs.targeting(target), "pair " + i);
                        assertEquals(i - 1, pairs.size(), "pair " + i + ": no id spent");
                        continue;
                    } finally {
                        dev.jtecs.entity.internal.AllocationFaults.disarm();
                    }
                    break;
                }
                PairComponent made = pairs.find(A, target);
                assertEquals(Components.FIRST_PAIR_ID + i - 1, made.id(), "ids without gaps");
                assertEquals(List.of(made), pairs.targeting(target));
            }
        } finally {
            dev.jtecs.entity.internal.AllocationFaults.disarm();
        }
        assertEquals(dev.jtecs.entity.internal.AllocationFaults.ENABLED, failures > 0, "the map's growths failed");
    }

    @Test
    void forgetsPairsOfDeadTargetsThatNoArchetypeHolds() {
        PairRegistry pairs = new PairRegistry();
        long dead = Entity.pack(1, 0);
        long alive = Entity.pack(2, 0);
        PairComponent gone = pairs.pair(A, dead);
        PairComponent held = pairs.pair(B, dead);
        PairComponent kept = pairs.pair(A, alive);
        assertEquals(3, pairs.live());
        int forgotten = pairs.forgetDead(id -> id == alive, id -> id == held.id());
        assertEquals(1, forgotten);
        assertNull(pairs.find(A, dead));
        assertSame(held, pairs.find(B, dead));
        assertSame(kept, pairs.find(A, alive));
        assertEquals(List.of(held), pairs.targeting(dead));
        PairComponent again = pairs.pair(A, dead);
        assertTrue(again.id() > kept.id(), "forgotten ids are not handed out again");
        org.junit.jupiter.api.Assertions.assertNotSame(gone, again);
    }

    @Test
    void aDeadTargetWhosePairsAllGoLeavesTheRegistryEmpty() {
        PairRegistry pairs = new PairRegistry();
        long dead = Entity.pack(3, 0);
        pairs.pair(A, dead);
        pairs.pair(B, dead);
        assertEquals(2, pairs.forgetDead(id -> false, id -> false));
        assertTrue(pairs.isEmpty(), "no target is left with pairs");
        assertEquals(0, pairs.live());
        assertEquals(List.of(), pairs.targeting(dead));
        assertEquals(2, pairs.size(), "ids handed out stay counted");
    }

    @Test
    void namesNoneSaysWhetherAPairPointsAtAnyOfTheFirstIds() {
        PairRegistry pairs = new PairRegistry();
        long[] ids = {Entity.pack(5, 0), Entity.pack(6, 1), Entity.pack(7, 0)};
        assertTrue(pairs.namesNone(ids, 3), "no pair at all");
        pairs.pair(A, Entity.pack(8, 0));
        assertTrue(pairs.namesNone(ids, 3), "a pair elsewhere");
        pairs.pair(A, Entity.pack(6, 0)); // slot 6's earlier generation: another id
        assertTrue(pairs.namesNone(ids, 3));
        pairs.pair(B, Entity.pack(7, 0));
        assertFalse(pairs.namesNone(ids, 3));
        assertTrue(pairs.namesNone(ids, 2), "only the first n count");
        pairs.forgetDead(id -> id != Entity.pack(7, 0), id -> false);
        assertTrue(pairs.namesNone(ids, 3), "its pairs forgotten");
        assertEquals(2, pairs.live());
    }

    /**
     * A creation that fails after its target's list went into the index by target leaves that list empty; the next
     * compaction drops it, whether its target lives or not, so a registry whose pairs were all forgotten is empty.
     * The list is left by the growth of the relationship's own map, which the set-up makes the only growth of the
     * call: four targets with pairs of another relationship only give the index by target room to spare.
     */
    @Test
    void anEmptyListThatAFailedCreationLeftGoesAtTheNextCompaction() {
        org.junit.jupiter.api.Assumptions.assumeTrue(dev.jtecs.entity.internal.AllocationFaults.ENABLED,
                "needs -Djtecs.allocationFaults=true (set by the build)");
        PairRegistry pairs = new PairRegistry();
        for (int i = 1; i <= 4; i++) {
            pairs.pair(B, Entity.pack(100 + i, 0));
        }
        for (int i = 1; i <= 8; i++) {
            pairs.pair(A, Entity.pack(i, 0));
        }
        long last = Entity.pack(9, 0);
        dev.jtecs.entity.internal.AllocationFaults.failAt(dev.jtecs.entity.internal.AllocationFaults.Kind.HEAP, 1);
        try {
            assertThrows(OutOfMemoryError.class, () -> pairs.pair(A, last));
        } finally {
            dev.jtecs.entity.internal.AllocationFaults.disarm();
        }
        assertNull(pairs.find(A, last));
        assertEquals(List.of(), pairs.targeting(last));
        assertEquals(12, pairs.live());
        assertEquals(12, pairs.forgetDead(id -> id == last, id -> false));
        assertTrue(pairs.isEmpty(), "the empty list of a live target went too");
    }

    /**
     * A compaction whose allocation fails leaves the registry as it was: every heap growth of the call fails in
     * turn (the fresh tables of the index by target and of each relationship's map), and after each the same pairs
     * are found, point at the same targets and count the same; then the compaction runs and forgets what it should.
     */
    @Test
    void aCompactionWhoseAllocationFailsChangesNothing() {
        org.junit.jupiter.api.Assumptions.assumeTrue(dev.jtecs.entity.internal.AllocationFaults.ENABLED,
                "needs -Djtecs.allocationFaults=true (set by the build)");
        PairRegistry pairs = new PairRegistry();
        long[] targets = new long[12];
        for (int i = 0; i < targets.length; i++) {
            targets[i] = Entity.pack(200 + i, i % 3);
            pairs.pair(A, targets[i]);
            if (i % 2 == 0) {
                pairs.pair(B, targets[i]);
            }
        }
        java.util.function.LongPredicate alive = id -> Entity.slot(id) % 3 == 0; // a third of the targets live
        PairComponent held = pairs.find(B, targets[2]); // a dead target's pair an archetype still holds
        java.util.function.IntPredicate holds = id -> id == held.id();
        String before = dump(pairs, targets);
        int failures = 0;
        for (int k = 1; ; k++) {
            dev.jtecs.entity.internal.AllocationFaults.failAt(dev.jtecs.entity.internal.AllocationFaults.Kind.HEAP,
                    k);
            try {
                int forgotten = pairs.forgetDead(alive, holds);
                assertEquals(11, forgotten, "the 8 dead targets' pairs of A and 4 of B, less the one held");
                break;
            } catch (OutOfMemoryError injected) {
                failures++;
                assertEquals(before, dump(pairs, targets), "failed growth " + k + " changed the registry");
            } finally {
                dev.jtecs.entity.internal.AllocationFaults.disarm();
            }
        }
        assertTrue(failures >= 3, "a failure at least in the index by target's tables and in each relationship's: "
                + failures);
        for (long target : targets) {
            boolean lives = alive.test(target);
            assertEquals(lives, pairs.find(A, target) != null, "A -> " + target);
        }
        assertSame(held, pairs.find(B, targets[2]));
        assertEquals(List.of(held), pairs.targeting(targets[2]));
        assertEquals(7, pairs.live(), "A and B of the 4 live targets (2 of them have B), and the held pair");
    }

    /** What the registry answers about {@code targets}: each relationship's pair, the pairs pointing, the count. */
    private static String dump(PairRegistry pairs, long[] targets) {
        StringBuilder out = new StringBuilder("live=" + pairs.live() + " empty=" + pairs.isEmpty() + "\n");
        for (long target : targets) {
            out.append(target).append(": A=").append(pairs.find(A, target)).append(" B=")
                    .append(pairs.find(B, target)).append(" targeting=").append(pairs.targeting(target)).append('\n');
        }
        return out.toString();
    }
}
