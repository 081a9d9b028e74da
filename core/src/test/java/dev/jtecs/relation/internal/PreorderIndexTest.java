package dev.jtecs.relation.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.component.Relationship;
import dev.jtecs.component.Relationships;
import dev.jtecs.entity.Entity;
import dev.jtecs.entity.internal.AllocationFaults;
import dev.jtecs.entity.internal.EntityIndex;
import dev.jtecs.storage.internal.ArchetypeRegistry;
import dev.jtecs.storage.internal.NativeMemory;
import dev.jtecs.storage.internal.SparseEdges;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The preorder index: once built, each indexed entity's run is exactly its descendants in the store, depth first
 * with children ascending, beside the right depths and parents; entities on or below a cycle, and ids sharing a slot,
 * are left out; every edge change makes it stale; it is wanted only after store walks covered half the slots since
 * the last change; and a build that cannot allocate leaves it stale and the store untouched.
 */
class PreorderIndexTest {
    static final Relationship UNDER = ChildIndexTest.UNDER; // sparse, exclusive, reverse-indexed

    /** A store of random exclusive edges over live entities, some of them despawned after edges pointed at them. */
    private static final class Fixture implements AutoCloseable {
        final NativeMemory memory = new NativeMemory();
        final ArchetypeRegistry registry = new ArchetypeRegistry(memory);
        final SparseEdges store = registry.sparseEdges();
        final EntityIndex entities = new EntityIndex(10_000);
        final PreorderIndex index = new PreorderIndex(UNDER, store, registry.clock(), entities);
        private int rows;

        /** A published entity: only those hold edges. */
        long spawn() {
            long id = entities.allocate();
            entities.publish(Entity.slot(id), 0, rows++);
            return id;
        }

        @Override
        public void close() {
            registry.close();
            memory.close();
        }
    }

    /** The descendants of {@code target} by the store's reverse index, depth first, children ascending. */
    private static void descendants(SparseEdges store, long target, Set<Long> onPath, List<Long> out) {
        for (long child : store.sources(UNDER, target)) {
            if (onPath.add(child)) { // a cycle would repeat: the index holds none, so the model must not either
                out.add(child);
                descendants(store, child, onPath, out);
            }
        }
    }

    @Test
    void eachIndexedRunIsTheStoresSubtreeAndCyclesAndSharedSlotsAreLeftOut() {
        long seed = Long.getLong("jtecs.seed", new SplittableRandom().nextLong());
        System.out.println("PreorderIndexTest seed " + seed + " (replay: -Djtecs.seed=" + seed + ")");
        SplittableRandom random = new SplittableRandom(seed);
        for (int round = 0; round < 40; round++) {
            try (Fixture f = new Fixture()) {
                List<Long> ids = new ArrayList<>();
                for (int i = 0; i < 60; i++) {
                    ids.add(f.spawn());
                }
                for (int e = 0; e < 80; e++) { // mostly edges to earlier entities (trees), some to later ones (cycles)
                    int s = random.nextInt(ids.size());
                    int t = random.nextInt(5) == 0 ? random.nextInt(ids.size()) : random.nextInt(Math.max(1, s));
                    if (s != t) {
                        f.store.add(UNDER, ids.get(s), ids.get(t), null);
                    }
                }
                for (int k = 0; k < 6; k++) { // despawn a few: their edges go, the edges to them stay
                    long dead = ids.get(random.nextInt(ids.size()));
                    if (f.entities.isAlive(dead)) {
                        f.store.removeSource(dead);
                        f.entities.free(Entity.slot(dead));
                    }
                }
                for (int k = 0; k < 6; k++) { // new entities take the freed slots, some below the old ones
                    long reborn = f.spawn();
                    f.store.add(UNDER, reborn, ids.get(random.nextInt(ids.size())), null);
                    ids.add(reborn);
                }
                assertTrue(f.index.build());
                assertTrue(f.index.isCurrent());
                check(f, ids, "seed " + seed + " round " + round);
            }
        }
    }

    private static void check(Fixture f, List<Long> ids, String label) {
        PreorderIndex index = f.index;
        Set<Long> indexed = new HashSet<>();
        List<Integer> slots = new ArrayList<>();
        for (int q = 0; q < index.count; q++) {
            long id = index.ids[q];
            assertTrue(indexed.add(id), label + ": " + Entity.toString(id) + " twice");
            slots.add(Entity.slot(id));
            int parent = index.parents[q];
            long storeParent = f.entities.isAlive(id) ? f.store.firstTarget(UNDER, id) : 0;
            if (parent < 0) {
                assertEquals(0, index.depths[q], label);
                assertEquals(0, storeParent, label + ": a root has no edge of its own");
            } else {
                assertTrue(parent < q, label);
                assertEquals(storeParent, index.ids[parent], label + ": the parent is the store's target");
                assertEquals(index.depths[parent] + 1, index.depths[q], label);
            }
            List<Long> run = new ArrayList<>();
            for (int r = q + 1, end = index.subtreeEnd(q); r < end; r++) {
                run.add(index.ids[r]);
            }
            List<Long> model = new ArrayList<>();
            descendants(f.store, id, new HashSet<>(Set.of(id)), model);
            assertEquals(model, run, label + ": the run after " + Entity.toString(id));
        }
        for (long id : ids) {
            int at = index.positionOf(id);
            boolean onCycle = onOrBelowCycle(f, id);
            boolean hasEdges = f.store.sourceCount(UNDER, id) > 0 || f.store.count(UNDER, id) > 0
                    && f.entities.isAlive(id);
            if (onCycle || !hasEdges) {
                assertEquals(-1, at, label + ": " + Entity.toString(id) + (onCycle ? " on a cycle" : " has no edge"));
                continue;
            }
            assertTrue(indexed.contains(id), label + ": " + Entity.toString(id) + " is reached from a root");
            boolean shared = slots.stream().filter(s -> s == Entity.slot(id)).count() > 1;
            if (shared) {
                assertEquals(-1, at, label + ": a slot two indexed ids share is looked up in the store");
            } else {
                assertEquals(id, index.ids[at], label);
            }
        }
    }

    /** Whether following first targets up from a live {@code id} repeats an entity. */
    private static boolean onOrBelowCycle(Fixture f, long id) {
        Set<Long> seen = new HashSet<>();
        for (long current = id; f.entities.isAlive(current); current = f.store.firstTarget(UNDER, current)) {
            if (!seen.add(current)) {
                return true;
            }
            if (f.store.firstTarget(UNDER, current) == 0) {
                return false;
            }
        }
        return false;
    }

    /** The ids the last build laid out, in position order. */
    private static List<Long> laidOut(PreorderIndex index) {
        List<Long> ids = new ArrayList<>();
        for (int q = 0; q < index.count; q++) {
            ids.add(index.ids[q]);
        }
        return ids;
    }

    @Test
    void aSmallForestLaysOutAsTheWalkVisitsIt() {
        try (Fixture f = new Fixture()) {
            long root = f.spawn();
            long a = f.spawn();
            long b = f.spawn();
            long a1 = f.spawn();
            long a2 = f.spawn();
            long x = f.spawn();
            long y = f.spawn();
            f.store.add(UNDER, b, root, null); // added out of order: children still lie ascending
            f.store.add(UNDER, a, root, null);
            f.store.add(UNDER, a2, a, null);
            f.store.add(UNDER, a1, a, null);
            f.store.add(UNDER, x, y, null); // x and y under each other: a cycle, no root
            f.store.add(UNDER, y, x, null);
            assertTrue(f.index.build());
            assertEquals(5, f.index.count);
            assertEquals(List.of(root, a, a1, a2, b), laidOut(f.index));
            assertEquals(List.of(0, 1, 2, 2, 1), List.of(f.index.depths[0], f.index.depths[1], f.index.depths[2],
                    f.index.depths[3], f.index.depths[4]));
            assertEquals(List.of(-1, 0, 1, 1, 0), List.of(f.index.parents[0], f.index.parents[1],
                    f.index.parents[2], f.index.parents[3], f.index.parents[4]));
            assertEquals(5, f.index.subtreeEnd(0));
            assertEquals(4, f.index.subtreeEnd(1));
            assertEquals(3, f.index.subtreeEnd(2));
            assertEquals(-1, f.index.positionOf(x), "on a cycle");
            assertEquals(-1, f.index.positionOf(Entity.pack(Entity.slot(a), 1)), "another generation of a's slot");
            assertEquals(-1, f.index.positionOf(Entity.pack(9_000, 0)), "a slot past the index");
            assertEquals(1, f.index.positionOf(a));
        }
    }

    @Test
    void everyEdgeChangeMakesItStaleAndARootsDeathDoesNot() {
        try (Fixture f = new Fixture()) {
            long root = f.spawn();
            long a = f.spawn();
            long b = f.spawn();
            f.store.add(UNDER, a, root, null);
            assertTrue(f.index.build());
            assertFalse(f.store.add(UNDER, a, root, null), "already there");
            assertTrue(f.index.isCurrent(), "no change, still current");
            f.store.add(UNDER, b, root, null);
            assertFalse(f.index.isCurrent(), "an added edge");
            assertTrue(f.index.build());
            f.store.add(UNDER, b, a, null);
            assertFalse(f.index.isCurrent(), "a retargeted edge");
            assertTrue(f.index.build());
            f.store.remove(UNDER, b, a);
            assertFalse(f.index.isCurrent(), "a removed edge");
            assertTrue(f.index.build());
            f.store.removeSource(a);
            assertFalse(f.index.isCurrent(), "a dead source's edges dropped");
            f.store.add(UNDER, a, root, null);
            assertTrue(f.index.build());
            f.entities.free(Entity.slot(root)); // the root dies; its source keeps the edge to its id
            assertTrue(f.index.isCurrent(), "nothing a walk reads changed");
            assertEquals(0, f.index.positionOf(root), "the dead root still heads its tree");
        }
    }

    @Test
    void itIsWantedOnceStoreWalksCoverHalfTheSlotsSinceTheLastChange() {
        try (Fixture f = new Fixture()) {
            long a = f.spawn();
            long parent = f.spawn();
            long b = f.spawn();
            long c = f.spawn();
            f.store.add(UNDER, a, parent, null);
            PreorderIndex index = f.index;
            assertFalse(index.wanted());
            assertFalse(index.noteSlowWork(30, 100));
            f.store.add(UNDER, b, parent, null); // the tally restarts
            assertFalse(index.noteSlowWork(30, 100), "30 since the change, not 60");
            assertTrue(index.noteSlowWork(20, 100));
            assertTrue(index.wanted());
            f.store.add(UNDER, c, parent, null);
            assertFalse(index.wanted(), "earned before the last change: not any more");
            assertTrue(index.noteSlowWork(50, 100));
            assertTrue(index.build());
            assertFalse(index.wanted(), "a build spends it");
        }
    }

    @Test
    void aBuildThatCannotAllocateLeavesTheIndexStaleAndTheStoreAsItWas() {
        try (Fixture f = new Fixture()) {
            long root = f.spawn();
            List<Long> all = new ArrayList<>(List.of(root));
            for (int i = 0; i < 100; i++) { // deep enough that the build's stack grows
                long child = f.spawn();
                f.store.add(UNDER, child, all.get(i / 50), null);
                all.add(child);
            }
            long[] before = f.store.sources(UNDER, root);
            int failures = 0;
            for (int k = 1; ; k++) {
                assertTrue(k < 100, "a build makes a few allocations, not " + k);
                AllocationFaults.failAt(AllocationFaults.Kind.HEAP, k);
                boolean built;
                try {
                    built = f.index.build();
                } finally {
                    AllocationFaults.disarm();
                }
                if (built) {
                    break;
                }
                failures++;
                assertFalse(f.index.isCurrent(), "allocation " + k);
                assertTrue(java.util.Arrays.equals(before, f.store.sources(UNDER, root)), "the store is untouched");
            }
            assertEquals(AllocationFaults.ENABLED, failures > 0, "each of the build's allocations was failed once");
            assertTrue(f.index.isCurrent());
            assertEquals(all.size(), f.index.count);
            assertEquals(all.get(0), f.index.ids[0]);
        }
    }

    @Test
    void anEdgeFromAnEntityThatIsNotPublishedIsNoHierarchyToLayOut() {
        try (Fixture f = new Fixture()) {
            long parent = f.spawn();
            long reserved = f.entities.allocate(); // reserved, not yet published
            f.store.add(UNDER, reserved, parent, null);
            assertTrue(f.index.neverTried(), "no build tried yet: a relationship's first walk builds at once");
            assertFalse(f.index.build(), "the walks read the store");
            assertFalse(f.index.neverTried(), "a failed build was tried too: later builds are earned");
            assertFalse(f.index.isCurrent());
            f.entities.publish(Entity.slot(reserved), 0, 99);
            assertTrue(f.index.build());
            assertEquals(List.of(parent, reserved), laidOut(f.index));
        }
    }

    @Test
    void treesLieInAscendingRootOrderWhateverOrderTheStoreHoldsThemIn() {
        try (Fixture f = new Fixture()) {
            long early = f.spawn(); // slot 1
            List<Long> roots = new ArrayList<>();
            for (int i = 0; i < 20; i++) { // more roots than the build's first list of them holds
                roots.add(f.spawn());
            }
            f.entities.free(Entity.slot(early));
            long reborn = f.spawn(); // slot 1 again, a later generation: a higher id than every root above
            roots.add(reborn);
            assertTrue(reborn > roots.get(0) && Entity.slot(reborn) < Entity.slot(roots.get(0)),
                    "the store meets the reborn root first, by slot");
            for (long root : roots) {
                f.store.add(UNDER, f.spawn(), root, null);
            }
            assertTrue(f.index.build());
            List<Long> laidOut = new ArrayList<>();
            for (int q = 0; q < f.index.count; q++) {
                if (f.index.parents[q] < 0) {
                    laidOut.add(f.index.ids[q]);
                }
            }
            List<Long> ascending = new ArrayList<>(roots);
            java.util.Collections.sort(ascending);
            assertEquals(ascending, laidOut);
        }
    }

    @Test
    void aParentWithMoreChildrenThanTheStackHoldsIsLaidOutWhole() {
        for (int children : new int[] {63, 64, 65, 300}) { // the build's stack starts at 64 entries
            try (Fixture f = new Fixture()) {
                long root = f.spawn();
                List<Long> expected = new ArrayList<>(List.of(root));
                for (int i = 0; i < children; i++) {
                    long child = f.spawn();
                    f.store.add(UNDER, child, root, null);
                    expected.add(child);
                }
                long grandchild = f.spawn();
                f.store.add(UNDER, grandchild, expected.get(children), null); // below the last child
                expected.add(grandchild);
                assertTrue(f.index.build());
                assertEquals(expected, laidOut(f.index), children + " children");
                assertEquals(children + 2, f.index.subtreeEnd(0));
            }
        }
    }

    @Test
    void anEntitySpawnedAfterTheBuildIsNotInItAndItsLookupSaysSo() {
        try (Fixture f = new Fixture()) {
            long root = f.spawn();
            f.store.add(UNDER, f.spawn(), root, null);
            assertTrue(f.index.build());
            long late = f.spawn(); // the slot just past the ones the build saw; no edge changed
            assertTrue(f.index.isCurrent());
            assertEquals(-1, f.index.positionOf(late));
        }
    }

    @Test
    void onlyASparseExclusiveReverseIndexedRelationshipHasOne() {
        Relationship dense = Relationships.register("test.preorderIndex.Dense", o -> o.exclusive().reverseIndex());
        try (Fixture f = new Fixture()) {
            for (Relationship r : List.of(dense, ChildIndexTest.KEEPS)) {
                assertThrows(IllegalArgumentException.class,
                        () -> new PreorderIndex(r, f.store, f.registry.clock(), f.entities), r.name());
            }
        }
    }
}
