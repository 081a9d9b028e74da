package dev.jtecs.storage.internal;

import dev.jtecs.component.PairComponent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.component.Component;
import dev.jtecs.component.Components;
import dev.jtecs.component.TagComponent;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ArchetypeRegistryTest {
    static final TagComponent A = Components.tag("test.registry.A");
    static final TagComponent B = Components.tag("test.registry.B");

    private final NativeMemory memory = new NativeMemory();
    private final ArchetypeRegistry registry = new ArchetypeRegistry(memory);

    @AfterEach
    void tearDown() {
        registry.close();
        memory.close();
    }

    @Test
    void closeReleasesEveryTableEvenWhenFreeingOneFails() {
        NativeMemory own = new NativeMemory();
        ArchetypeRegistry closing = new ArchetypeRegistry(own);
        Table a = closing.withAdded(closing.root(), A);
        Table b = closing.withAdded(closing.root(), B);
        a.appendRow(1);
        b.appendRow(2);
        own.close(); // every free the release makes now fails
        assertThrows(IllegalStateException.class, closing::close);
        assertTrue(a.isReleased());
        assertTrue(b.isReleased(), "released although the table before it failed to free");
        assertEquals(0, a.count());
        assertEquals(0, b.capacityRows());
        assertThrows(IndexOutOfBoundsException.class, () -> b.entityAt(0), "no row reaches the freed buffers");
    }

    @Test
    void rootIsTableZeroWithEmptySignature() {
        assertEquals(0, registry.root().id());
        assertEquals(0, registry.root().componentCount());
        assertEquals(1, registry.size());
    }

    @Test
    void addAndRemoveWalkTheGraphAndShareTablesBySignature() {
        Table a = registry.withAdded(registry.root(), A);
        Table ab = registry.withAdded(a, B);
        Table b = registry.withAdded(registry.root(), B);
        Table ba = registry.withAdded(b, A);
        assertSame(ab, ba, "one table per signature, whatever the path");
        assertSame(a, registry.withRemoved(ab, B));
        assertSame(b, registry.withRemoved(ab, A));
        assertSame(ab, registry.withAdded(ab, A), "adding a present component stays");
        assertSame(a, registry.withRemoved(a, B), "removing an absent component stays");
        assertSame(ab, a.addEdge(B.id()), "edges are cached both ways");
        assertSame(a, ab.removeEdge(B.id()));
        assertEquals(4, registry.size());
        List<Integer> ids = new ArrayList<>();
        registry.forEach(table -> ids.add(table.id()));
        assertEquals(List.of(0, 1, 2, 3), ids);
        assertSame(ab, registry.get(ab.id()));
    }

    /** {@code find} answers the table of a signature that exists and null for one that does not, creating nothing. */
    @Test
    void findAnswersAnExistingTableAndCreatesNone() {
        dev.jtecs.component.Component<?>[] ab = A.id() < B.id() ? new dev.jtecs.component.Component<?>[] {A, B}
                : new dev.jtecs.component.Component<?>[] {B, A};
        int count = registry.count();
        assertNull(registry.find(ab, 2));
        assertEquals(count, registry.count(), "nothing created");
        Table both = registry.withAdded(registry.withAdded(registry.root(), A), B);
        assertSame(both, registry.find(ab, 2));
        assertSame(registry.root(), registry.find(ab, 0), "no component: the root");
        assertSame(registry.withAdded(registry.root(), ab[0]), registry.find(ab, 1), "the first length only");
    }

    @Test
    void storesStartAsTableIdsAndFollowAnExchange() {
        Table a = registry.withAdded(registry.root(), A);
        Table ab = registry.withAdded(a, B);
        assertSame(a, registry.ofStore(a.id()));
        int row = a.appendRows(3);
        a.writeConsecutiveEntities(row, 3, 1);
        int aStore = a.store();
        int abStore = ab.store();
        int[] missing = registry.exchange(a, ab);
        assertEquals(1, missing.length);
        assertSame(ab, registry.ofStore(aStore), "the rows' block now belongs to the destination");
        assertSame(a, registry.ofStore(abStore));
        assertEquals(3, ab.count());
        assertEquals(2, registry.componentCount());
    }

    @Test
    void pruningFreesAnIdAndItsBlockForTheNextTableAndDetachesEdges() {
        Table a = registry.withAdded(registry.root(), A);
        Table ab = registry.withAdded(a, B);
        int row = a.appendRows(2);
        a.writeConsecutiveEntities(row, 2, 1);
        org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class, () -> registry.prune(a));
        org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
                () -> registry.prune(registry.root()));
        registry.exchange(a, ab); // ab now owns a's old block, a owns ab's
        assertSame(a, registry.root().addEdge(A.id()), "the edges this test expects pruning to drop exist");
        assertSame(a, ab.removeEdge(B.id()));
        int freedId = a.id();
        int freedStore = a.store();
        int before = registry.count();
        registry.prune(a);
        assertEquals(before - 1, registry.count());
        org.junit.jupiter.api.Assertions.assertNull(registry.get(freedId));
        org.junit.jupiter.api.Assertions.assertNull(ab.removeEdge(B.id()), "no edge leads to the pruned table");
        org.junit.jupiter.api.Assertions.assertNull(registry.root().addEdge(A.id()), "from either side");
        Table b = registry.withAdded(registry.root(), B);
        assertEquals(freedId, b.id(), "the freed id is reused");
        assertEquals(freedStore, b.store(), "with the freed block");
        assertSame(b, registry.ofStore(freedStore));
        assertSame(ab, registry.ofStore(ab.store()));
        assertEquals(List.of(b, ab), registry.withComponent(B.id()).stream()
                .sorted(java.util.Comparator.comparingInt(Table::id)).toList());
    }

    static final dev.jtecs.component.Relationship LIKES = dev.jtecs.component.Relationships.register(
            "test.registry.Likes", o -> { });

    @Test
    void denseRelationshipChurnKeepsNoIndexEntryPerPairEverSeen() { // issue 18, defect 8
        // pair ids are never reused: an entry kept per pair ever indexed grew the heap by ~52 B a pair for good
        long target = 1;
        for (int round = 0; round < 50; round++) {
            List<Table> tables = new ArrayList<>();
            for (int i = 0; i < 100; i++) {
                tables.add(registry.withAdded(registry.withAdded(registry.root(), A),
                        registry.pairs().pair(LIKES, target++)));
            }
            assertEquals(100, registry.indexedPairs(), "round " + round);
            registry.pruneAll(tables);
            assertEquals(0, registry.indexedPairs(), "round " + round + ": no entry outlives its tables");
            assertEquals(1, registry.componentCount(), "only A is still indexed");
        }
    }

    /**
     * A pruning makes everything it needs before the first table leaves any structure: failing each heap growth of
     * a pruning in turn leaves every table registered, indexed, reachable by its edges and its signature.
     */
    @Test
    void aPruningThatCannotAllocateLeavesEveryTableRegistered() {
        Table a = registry.withAdded(registry.root(), A);
        List<Table> prunable = new ArrayList<>();
        for (long target = 1; target <= 40; target++) { // forty pair tables off A: A's edge map holds them all
            Table pair = registry.withAdded(a, registry.pairs().pair(LIKES, target));
            a.missingPositionsFor(pair); // a move plan towards each, in A
            prunable.add(pair);
        }
        for (int i = 0; i < 10; i++) { // ten of them pruned and made again: their ids wait to be reused
            Table gone = prunable.remove(prunable.size() - 1);
            registry.prune(gone);
        }
        int failures = 0;
        for (int k = 1; ; k++) {
            int before = registry.count();
            dev.jtecs.entity.internal.AllocationFaults.failAt(dev.jtecs.entity.internal.AllocationFaults.Kind.HEAP,
                    k);
            boolean failed = false;
            try {
                registry.pruneAll(prunable);
            } catch (OutOfMemoryError expected) {
                failed = true;
            } finally {
                dev.jtecs.entity.internal.AllocationFaults.disarm();
            }
            if (!failed) {
                assertEquals(before - prunable.size(), registry.count());
                assertEquals(0, registry.indexedPairs());
                break;
            }
            failures++;
            assertEquals(before, registry.count(), "allocation " + k);
            assertEquals(prunable.size(), registry.indexedPairs(), "allocation " + k);
            for (Table table : prunable) {
                org.junit.jupiter.api.Assertions.assertFalse(table.isPruned(), "allocation " + k);
                org.junit.jupiter.api.Assertions.assertSame(table,
                        registry.withAdded(a, table.componentAt(table.componentCount() - 1)), "allocation " + k);
                org.junit.jupiter.api.Assertions.assertSame(table, registry.findOrCreate(
                        new Component<?>[] {A, table.componentAt(table.componentCount() - 1)}), "allocation " + k);
            }
        }
        assertEquals(dev.jtecs.entity.internal.AllocationFaults.ENABLED, failures > 0, "the pruning's growths failed");
    }

    @Test
    void pruningSeveralTablesAtOnceDetachesEachAndRefusesAPopulatedOne() {
        Table a = registry.withAdded(registry.root(), A);
        Table ab = registry.withAdded(a, B);
        Table b = registry.withAdded(registry.root(), B);
        a.missingPositionsFor(ab); // plans towards pruned tables go too
        b.missingPositionsFor(ab);
        int row = b.appendRows(1);
        b.writeConsecutiveEntities(row, 1, 1);
        int before = registry.count();
        org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
                () -> registry.pruneAll(List.of(ab, b)));
        assertEquals(before, registry.count(), "a refused batch prunes nothing");
        org.junit.jupiter.api.Assertions.assertFalse(ab.isPruned());
        registry.pruneAll(List.of(ab, a));
        assertEquals(before - 2, registry.count());
        org.junit.jupiter.api.Assertions.assertTrue(ab.isPruned() && a.isPruned());
        assertEquals(List.of(b), registry.withComponent(B.id()));
        assertEquals(List.of(), registry.withComponent(A.id()));
        org.junit.jupiter.api.Assertions.assertNull(b.addEdge(A.id()), "no edge leads to a pruned table");
        Table again = registry.withAdded(b, A);
        org.junit.jupiter.api.Assertions.assertNotSame(ab, again);
        assertEquals(2, again.componentCount());
    }

    @Test
    void pruningSeveralTablesFreesTheirIdsInTheGivenOrderSoWorldsStayDeterministic() {
        List<Table> tables = new ArrayList<>();
        for (int i = 0; i < 40; i++) { // enough that an identity-hash order would differ from registry order
            tables.add(registry.withAdded(registry.root(), registry.pairs().pair(LIKES, 1000 + i)));
        }
        List<Integer> ids = tables.stream().map(Table::id).toList();
        registry.pruneAll(tables);
        for (int i = 0; i < 40; i++) { // freed ids are reused first in, first out
            Table next = registry.withAdded(registry.root(), registry.pairs().pair(LIKES, 5000 + i));
            assertEquals(ids.get(i), next.id(), "reuse " + i);
        }
    }

    @Test
    void aTableWhosePairIndexCannotGrowIsNotRegisteredAndTheListenerHearsOfEveryTableThatIs() {
        // each new pair makes an index list in the pair map, which grows by doubling: fail every heap growth a
        // creation reaches, and the registry must never hold a table its creation listener did not hear of
        List<Table> heard = new ArrayList<>();
        registry.onCreate(heard::add);
        Table a = registry.withAdded(registry.root(), A);
        int injected = 0;
        long target = 1;
        for (int i = 0; i < 80; i++) {
            PairComponent pair = registry.pairs().pair(LIKES, target++);
            for (int k = 1; ; k++) {
                int before = registry.size();
                dev.jtecs.entity.internal.AllocationFaults.failAt(dev.jtecs.entity.internal.AllocationFaults.Kind.HEAP,
                        k);
                boolean failed = false;
                try {
                    registry.withAdded(a, pair);
                } catch (OutOfMemoryError e) {
                    failed = true;
                    injected++;
                } finally {
                    dev.jtecs.entity.internal.AllocationFaults.disarm();
                }
                List<Table> registered = new ArrayList<>();
                registry.forEach(registered::add);
                for (Table table : registered) {
                    assertTrue(table == registry.root() || heard.contains(table),
                            "pair " + i + " k=" + k + ": table " + table.id() + " registered unheard");
                }
                if (!failed) {
                    assertEquals(before + 1, registry.size());
                    break;
                }
                assertEquals(before, registry.size(), "a failed creation registers nothing");
            }
        }
        assertTrue(injected > 80, "every creation reached a growth to fail: " + injected);
    }

    static final TagComponent C = Components.tag("test.registry.C");

    @Test
    void removingAComponentFromATableFoundBySignatureBuildsTheSmallerOneAndCachesTheEdgeBothWays() {
        Table abc = registry.findOrCreate(sorted(A, B, C)); // no edge leads here: the removal builds its target
        Table ac = registry.withRemoved(abc, B);
        assertEquals(List.of(A.id(), C.id()), ids(ac));
        assertSame(ac, abc.removeEdge(B.id()));
        assertSame(abc, ac.addEdge(B.id()));
        assertSame(ac, registry.withRemoved(abc, B), "the cached edge");
        assertSame(registry.findOrCreate(sorted(A, C)), ac, "one table per signature");
        Table bc = registry.withRemoved(abc, A);
        assertEquals(List.of(B.id(), C.id()), ids(bc));
        assertEquals(List.of(A.id(), B.id()), ids(registry.withRemoved(abc, C)));
        assertEquals(5, registry.count(), "the root, abc, ac, bc, ab");
    }

    private static dev.jtecs.component.Component<?>[] sorted(dev.jtecs.component.Component<?>... components) {
        dev.jtecs.component.Component<?>[] copy = components.clone();
        java.util.Arrays.sort(copy, java.util.Comparator.comparingInt(dev.jtecs.component.Component::id));
        return copy;
    }

    private static List<Integer> ids(Table table) {
        List<Integer> ids = new ArrayList<>();
        for (int p = 0; p < table.componentCount(); p++) {
            ids.add(table.componentAt(p).id());
        }
        return ids;
    }

    @Test
    void tablesTurningDirtyAllocateNothing() {
        // the queue grows when a table is made, not when one turns dirty: a structural change (a row appended or
        // swapped out) that then failed to allocate would leave its table out of the queue for good
        Table a = registry.withAdded(registry.root(), A);
        List<Table> tables = new ArrayList<>();
        for (long target = 1; target <= 300; target++) {
            tables.add(registry.withAdded(a, registry.pairs().pair(LIKES, target)));
        }
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        Table[] each = tables.toArray(new Table[0]);
        long before = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < each.length; i++) { // indexed: an iterator would be an allocation of its own
            each[i].markStructural();
        }
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertEquals(0, allocated, "bytes allocated while 300 tables turned dirty");
        assertEquals(tables, registry.dirtyQueue());
    }

    @Test
    void theDirtyQueueHoldsEachTableOnceInFirstDirtiedOrderUntilCleared() {
        Table a = registry.withAdded(registry.root(), A);
        Table b = registry.withAdded(registry.root(), B);
        Table c = registry.withAdded(registry.root(), C);
        assertEquals(List.of(), registry.dirtyQueue());
        b.markDirty(0);
        a.markStructural();
        assertEquals(List.of(b, a), registry.dirtyQueue(), "a structural change queues the table too");
        b.markDirty(0);
        a.markDirty(0);
        assertEquals(List.of(b, a), registry.dirtyQueue(), "each once, first dirtied first");
        List<dev.jtecs.storage.Archetype> visited = new ArrayList<>();
        registry.forEachDirty(archetype -> {
            visited.add(archetype);
            c.markDirty(0); // queued during the visit: not visited by it
        });
        assertEquals(List.of(b.archetype(), a.archetype()), visited);
        assertEquals(List.of(b, a, c), registry.dirtyQueue());
        b.dirty().clear();
        visited.clear();
        registry.forEachDirty(visited::add);
        assertEquals(List.of(a.archetype(), c.archetype()), visited, "a queued table no longer dirty is skipped");
        registry.clearDirty();
        assertEquals(List.of(), registry.dirtyQueue());
        assertTrue(!a.dirty().anyDirty() && !c.dirty().anyDirty(), "every queued table's marks cleared");
        c.markDirty(0);
        assertEquals(List.of(c), registry.dirtyQueue(), "a cleared table queues again");
    }

    @Test
    void aVisitThatEmptiesTheDirtyQueueEndsThere() {
        Table a = registry.withAdded(registry.root(), A);
        Table b = registry.withAdded(registry.root(), B);
        Table c = registry.withAdded(registry.root(), C);
        a.markDirty(0);
        b.markDirty(0);
        List<dev.jtecs.storage.Archetype> visited = new ArrayList<>();
        registry.forEachDirty(archetype -> {
            visited.add(archetype);
            registry.clearDirty();
            c.markDirty(0); // the queue starts again during the visit
        });
        assertEquals(List.of(a.archetype()), visited);
        assertEquals(List.of(c), registry.dirtyQueue());
    }

    @Test
    void creatingAndPruningTablesCountsThemAndAdvancesTheirComponentsCounters() {
        assertEquals(1, registry.count(), "the root");
        Table a = registry.withAdded(registry.root(), A);
        Table ab = registry.withAdded(a, B);
        assertEquals(3, registry.count());
        record Spot(float x) {}
        Table spotted = registry.withAdded(ab, Components.registerNative(Spot.class));
        spotted.appendRows(2);
        spotted.truncate(0);
        int buffers = memory.liveBuffers();
        registry.prune(spotted);
        assertTrue(memory.liveBuffers() < buffers, "a pruned table's buffers are freed");
        long before = registry.clock().version(B.id());
        long aBefore = registry.clock().version(A.id());
        registry.prune(ab);
        assertEquals(2, registry.count());
        assertTrue(registry.clock().version(B.id()) > before, "B's tables changed");
        assertTrue(registry.clock().version(A.id()) > aBefore);
    }

    @Test
    void anObserverThatFailsOnAPrunedTableFailsThePruneAfterEveryTableIsGone() {
        Table a = registry.withAdded(registry.root(), A);
        Table b = registry.withAdded(registry.root(), B);
        List<String> heard = new ArrayList<>();
        a.addObserver(new dev.jtecs.storage.EntityObserver() {
            @Override
            public void onArchetypeDestroyed(dev.jtecs.storage.Archetype archetype) {
                throw new IllegalStateException("observer failed");
            }
        });
        b.addObserver(new dev.jtecs.storage.EntityObserver() {
            @Override
            public void onArchetypeDestroyed(dev.jtecs.storage.Archetype archetype) {
                heard.add("b");
            }
        });
        IllegalStateException failure = org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
                () -> registry.pruneAll(List.of(a, b)));
        assertEquals("observer failed", failure.getMessage());
        assertEquals(List.of("b"), heard, "the other table's observer still heard");
        assertTrue(a.isPruned() && b.isPruned());
        assertEquals(1, registry.count());
    }

    @Test
    void signaturesWhoseHashesCollideStayTwoTables() {
        List<TagComponent> tags = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            tags.add(Components.tag("test.registry.collide" + i));
        }
        // find two signatures of two tags each with equal Arrays.hashCode (ids i < j: 31 * (31 + i) + j)
        java.util.Map<Integer, TagComponent[]> byHash = new java.util.HashMap<>();
        TagComponent[] first = null;
        TagComponent[] second = null;
        for (int x = 0; x < tags.size() && second == null; x++) {
            for (int y = x + 1; y < tags.size() && second == null; y++) {
                TagComponent[] pair = {tags.get(x), tags.get(y)};
                java.util.Arrays.sort(pair, java.util.Comparator.comparingInt(TagComponent::id));
                TagComponent[] earlier = byHash.putIfAbsent(
                        java.util.Arrays.hashCode(new int[] {pair[0].id(), pair[1].id()}), pair);
                if (earlier != null) {
                    first = earlier;
                    second = pair;
                }
            }
        }
        org.junit.jupiter.api.Assertions.assertNotNull(second, "forty tags give two signatures of one hash");
        Table one = registry.findOrCreate(first);
        Table two = registry.findOrCreate(second);
        org.junit.jupiter.api.Assertions.assertNotSame(one, two);
        assertSame(one, registry.findOrCreate(first.clone()));
        assertSame(two, registry.findOrCreate(second.clone()));
        registry.prune(one);
        assertSame(two, registry.findOrCreate(second.clone()), "pruning one leaves the other's entry");
        Table again = registry.findOrCreate(first.clone());
        org.junit.jupiter.api.Assertions.assertNotSame(two, again);
        assertEquals(ids(again), List.of(first[0].id(), first[1].id()));
    }

    @Test
    void closingTheRegistryFreesEveryTablesBuffers() {
        NativeMemory own = new NativeMemory();
        ArchetypeRegistry closing = new ArchetypeRegistry(own);
        record Pos(float x, float y) {}
        dev.jtecs.component.NativeComponent<Pos> pos = Components.registerNative(Pos.class);
        Table table = closing.withAdded(closing.root(), pos);
        table.appendRows(3);
        assertTrue(own.liveBuffers() > 0);
        closing.close();
        assertEquals(0, own.liveBuffers());
        own.close();
    }
}
