package dev.jtecs.storage.internal;

import dev.jtecs.component.Components;
import dev.jtecs.component.PairComponent;
import dev.jtecs.component.BaseRelationship;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One world's pair components: the component of each (relationship, target) pair the world has met, with ids
 * handed out from {@link Components#FIRST_PAIR_ID} upward in the order pairs are first met, and an index by
 * target so that a dying target finds the pairs that point at it.
 */
public final class PairRegistry {
    private final Map<BaseRelationship<?>, LongMap<PairComponent>> byRelationship = new java.util.IdentityHashMap<>();
    private final LongMap<ArrayList<PairComponent>> byTarget = new LongMap<>(); // by target id: no boxed key
    private int nextId = Components.FIRST_PAIR_ID;

    /** The pair component of ({@code relationship}, {@code target}), created on first use. */
    public PairComponent pair(BaseRelationship<?> relationship, long target) {
        LongMap<PairComponent> targets = byRelationship.computeIfAbsent(relationship, r -> new LongMap<>());
        PairComponent pair = targets.get(target);
        if (pair == null) {
            if (nextId == Integer.MAX_VALUE) {
                throw new IllegalStateException("pair id space exhausted");
            }
            // every allocation before the pair is noted (the pair, its target's list with room, the map entries):
            // a failure leaves at most an empty list for the target, and the id is not spent
            PairComponent created = PairComponent.create(nextId, relationship, target);
            ArrayList<PairComponent> pointing = byTarget.get(target);
            if (pointing == null) {
                pointing = new ArrayList<>(2);
                byTarget.put(target, pointing);
            } else {
                pointing.ensureCapacity(pointing.size() + 1);
            }
            targets.put(target, created);
            pointing.add(created);
            nextId++;
            pair = created;
        }
        return pair;
    }

    /** The pair component of ({@code relationship}, {@code target}), or {@code null} when never met. */
    public PairComponent find(BaseRelationship<?> relationship, long target) {
        LongMap<PairComponent> targets = byRelationship.get(relationship);
        return targets == null ? null : targets.get(target);
    }

    /** Every pair pointing at {@code target} (any relationship); empty when none. */
    public List<PairComponent> targeting(long target) {
        List<PairComponent> pairs = byTarget.get(target);
        return pairs == null ? List.of() : pairs;
    }

    /**
     * Whether no pair points at any of {@code ids[0, n)} (a subtree that may die without settling a pair).
     * Allocates nothing.
     */
    public boolean namesNone(long[] ids, int n) {
        if (byTarget.size() == 0) {
            return true;
        }
        for (int i = 0; i < n; i++) {
            List<PairComponent> pointing = byTarget.get(ids[i]);
            if (pointing != null && !pointing.isEmpty()) {
                return false;
            }
        }
        return true;
    }

    /** Whether any pair exists at all (a world without relationships skips every relationship check). */
    public boolean isEmpty() {
        return byTarget.size() == 0;
    }

    /** The number of pairs met (ids handed out; forgotten pairs included). */
    public int size() {
        return nextId - Components.FIRST_PAIR_ID;
    }

    /**
     * Forgets the pairs whose target is dead and that no archetype holds any more (compaction), so a world whose
     * targets come and go keeps a bounded registry. Their ids are not handed out again. Returns how many went.
     * Everything that allocates comes before the first change (the pairs to forget are found first, then the
     * fresh tables of every map made): a failed allocation leaves the registry as it was.
     */
    public int forgetDead(java.util.function.LongPredicate alive, java.util.function.IntPredicate held) {
        int before = live();
        java.util.Set<PairComponent> gone = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        byTarget.forEach((target, pointing) -> {
            if (!pointing.isEmpty() && !alive.test(target)) {
                for (PairComponent pair : pointing) {
                    if (!held.test(pair.id())) {
                        gone.add(pair);
                    }
                }
            }
        });
        LongMap.Retain targets = byTarget.prepareRetain();
        List<LongMap<PairComponent>> maps = new ArrayList<>(byRelationship.values());
        List<LongMap.Retain> fresh = new ArrayList<>(maps.size());
        for (LongMap<PairComponent> map : maps) {
            fresh.add(map.prepareRetain());
        }
        // nothing below allocates
        byTarget.retain(targets, pointing -> {
            int k = 0; // the list keeps its pairs that stay, in order, in place
            for (int i = 0; i < pointing.size(); i++) {
                PairComponent pair = pointing.get(i);
                if (!gone.contains(pair)) {
                    pointing.set(k++, pair);
                }
            }
            while (pointing.size() > k) {
                pointing.remove(pointing.size() - 1);
            }
            return k > 0; // (an empty list, which a failed pair() can leave, goes too)
        });
        for (int m = 0; m < maps.size(); m++) {
            maps.get(m).retain(fresh.get(m), pair -> !gone.contains(pair));
        }
        return before - live();
    }

    /** The pairs currently known (met and not forgotten). */
    public int live() {
        int[] n = {0};
        byTarget.forEach((target, pairs) -> n[0] += pairs.size());
        return n[0];
    }
}
