package dev.jtecs.storage.internal;

import dev.jtecs.component.PairComponent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
}
