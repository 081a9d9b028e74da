package dev.jtecs.relation.internal;

import static dev.jtecs.relation.internal.RelationFixtures.*;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import dev.jtecs.component.Component;
import dev.jtecs.component.Components;
import dev.jtecs.component.PairComponent;
import dev.jtecs.component.Relationship;
import dev.jtecs.component.RelationshipValue;
import dev.jtecs.component.TagComponent;
import dev.jtecs.query.Query;
import dev.jtecs.query.QueryDescriptor;
import dev.jtecs.storage.Archetype;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import dev.jtecs.mutation.BatchIds;
import dev.jtecs.world.CompactResult;
import dev.jtecs.world.World;

/** The relationship layer seen through the world ({@link Relations}): edges added, staged, read, queried and batched. */
class RelationsTest {
    private final World world = World.create();

    @AfterEach
    void close() {
        world.close();
    }

    private List<Long> targets(long id, Relationship relationship) {
        return RelationFixtures.targets(world, id, relationship);
    }

    private String dump() {
        return RelationFixtures.dump(world);
    }

    static final Relationship WATCHES = dev.jtecs.component.Relationships.register("test.rel.Watches",
            o -> o.sparse());

    /**
     * {@code hearsDespawnOf}: in a world with edges, an entity that holds none and that no edge with a reverse
     * index names can die without the settlement (an instant despawn then publishes nothing around it); a sparse
     * source, a target with a list of sources, a holder of a pair and a target named by a pair cannot. A relations
     * layer over a model of its own, as the world builds them.
     */
    @Test
    void onlyAnEntityNoEdgeInvolvesCanDieUnheardByTheSettlement() {
        try (RelationFixtures.Layer layer = new RelationFixtures.Layer(100)) {
            Relations relations = layer.relations;
            dev.jtecs.mutation.internal.MutationModel model = layer.model;
            java.util.function.LongFunction<dev.jtecs.storage.internal.Table> table = layer::tableOf;
            long loner = model.spawn(new dev.jtecs.component.Input[] {MARK});
            assertFalse(relations.hearsDespawnOf(loner, table.apply(loner)), "no edge in the world");
            long liked = model.spawn(new dev.jtecs.component.Input[] {MARK});
            long liker = model.spawn(new dev.jtecs.component.Input[] {LIKES.to(liked)});
            long held = model.spawn(new dev.jtecs.component.Input[] {MARK});
            long holder = model.spawn(new dev.jtecs.component.Input[] {HOLDS.to(held)});
            assertTrue(relations.hearsDespawnOf(liker, table.apply(liker)), "a sparse source");
            assertTrue(relations.hearsDespawnOf(liked, table.apply(liked)), "a target with a list of sources");
            assertTrue(relations.hearsDespawnOf(holder, table.apply(holder)));
            assertTrue(relations.hearsDespawnOf(held, table.apply(held)));
            assertFalse(relations.hearsDespawnOf(loner, table.apply(loner)), "sparse edges elsewhere: still unheard");
            long watched = model.spawn(new dev.jtecs.component.Input[] {MARK});
            long watcher = model.spawn(new dev.jtecs.component.Input[] {WATCHES.to(watched)});
            assertTrue(relations.hearsDespawnOf(watcher, table.apply(watcher)));
            assertFalse(relations.hearsDespawnOf(watched, table.apply(watched)),
                    "the target of a relationship without a reverse index: its edges keep the dead id");
            long known = model.spawn(new dev.jtecs.component.Input[] {MARK});
            long knower = model.spawn(new dev.jtecs.component.Input[] {KNOWS.to(known)});
            assertTrue(relations.hearsDespawnOf(knower, table.apply(knower)), "a holder of a pair");
            assertTrue(relations.hearsDespawnOf(known, table.apply(known)), "a target named by a pair");
            assertFalse(relations.hearsDespawnOf(loner, table.apply(loner)), "pairs elsewhere: still unheard");
            assertTrue(relations.hearsDespawns());
        }
    }

    @Test
    void edgesAreAddedKeptAndReportedInTargetOrder() {
        long a = world.spawn();
        long b = world.spawn();
        long c = world.spawn();
        long follower = world.spawn(FOLLOWS.to(c), FOLLOWS.to(a));
        assertTrue(world.has(follower, FOLLOWS));
        assertEquals(List.of(a, c), targets(follower, FOLLOWS));
        assertEquals(FOLLOWS.to(a), world.get(follower, FOLLOWS), "the first edge in ascending target order");
        assertEquals(FOLLOWS.to(a), world.getFirstRelationship(follower, FOLLOWS));
        world.set(follower, FOLLOWS.to(b));
        world.set(follower, FOLLOWS.to(c)); // already there: nothing changes
        assertEquals(List.of(a, b, c), targets(follower, FOLLOWS));
        assertEquals(5, world.get(follower, LOYALTY), "a relationship's requirements apply with its first edge");
    }

    @Test
    void anExclusiveRelationshipKeepsTheLastEdge() {
        long p1 = world.spawn();
        long p2 = world.spawn();
        long p3 = world.spawn();
        long child = world.spawn(PARENT.to(p1), PARENT.to(p2));
        assertEquals(List.of(p2), targets(child, PARENT), "within one spawn the last edge wins");
        world.set(child, PARENT.to(p3));
        assertEquals(List.of(p3), targets(child, PARENT));
        world.defer();
        world.set(child, PARENT.to(p1));
        world.set(child, PARENT.to(p2));
        world.commit();
        assertEquals(List.of(p2), targets(child, PARENT), "staged edges replace each other too");
    }

    @Test
    void removingOneEdgeKeepsTheOthersAndRemovingTheRelationshipRemovesAll() {
        long a = world.spawn();
        long b = world.spawn();
        long e = world.spawn(FOLLOWS.to(a), FOLLOWS.to(b), MARK);
        world.remove(e, FOLLOWS.to(a));
        assertEquals(List.of(b), targets(e, FOLLOWS));
        world.remove(e, FOLLOWS.to(b));
        assertFalse(world.has(e, FOLLOWS), "the marker goes with the last edge");
        assertNull(world.get(e, FOLLOWS));
        assertTrue(world.has(e, MARK));
        world.set(e, FOLLOWS.to(a));
        world.set(e, FOLLOWS.to(b));
        world.remove(e, FOLLOWS);
        assertFalse(world.has(e, FOLLOWS));
        assertEquals(List.of(), targets(e, FOLLOWS));
        world.remove(e, FOLLOWS.to(a)); // absent: nothing happens
        long unrelated = world.spawn();
        world.remove(e, FOLLOWS.to(unrelated)); // a pair this world never met
        assertTrue(world.isAlive(e));
    }

    @Test
    void stagedEdgesFollowCallOrder() {
        long a = world.spawn();
        long b = world.spawn();
        world.defer();
        long e = world.spawn(FOLLOWS.to(a));
        world.set(e, FOLLOWS.to(b));
        world.remove(e, FOLLOWS.to(a));
        assertFalse(world.isAlive(e));
        world.commit();
        assertEquals(List.of(b), targets(e, FOLLOWS));
        world.defer();
        world.remove(e, FOLLOWS);
        world.set(e, FOLLOWS.to(a));
        world.commit();
        assertEquals(List.of(a), targets(e, FOLLOWS), "an edge set after removing all stays");
    }

    @Test
    void aStagedSpawnWhoseOnlyEdgeIsRemovedInTheSameScopeSpawnsWithoutIt() {
        long t = world.spawn();
        world.defer();
        long plain = world.spawn(PARENT.to(t));
        world.remove(plain, PARENT.to(t));
        long marked = world.spawn(MARK, PARENT.to(t));
        world.remove(marked, PARENT.targeting(t));
        world.commit();
        assertTrue(world.isAlive(plain) && world.isAlive(marked), dump());
        assertFalse(world.has(plain, PARENT));
        assertFalse(world.has(marked, PARENT));
        assertTrue(world.has(marked, MARK));
    }

    @Test
    void queriesMatchAnyEdgeThroughTheRelationship() {
        long a = world.spawn();
        long b = world.spawn();
        world.spawn(FOLLOWS.to(a));
        world.spawn(FOLLOWS.to(b));
        world.spawn(FOLLOWS.to(a), FOLLOWS.to(b));
        world.spawn(MARK);
        Query followers = world.newQuery(QueryDescriptor.builder().include(FOLLOWS).build());
        assertEquals(3, followers.count());
        Query loners = world.newQuery(QueryDescriptor.builder().exclude(FOLLOWS).include(MARK).build());
        assertEquals(1, loners.count());
    }

    @Test
    void archetypesReportEveryRowsEdges() {
        long a = world.spawn();
        long b = world.spawn();
        long e = world.spawn(FOLLOWS.to(b), FOLLOWS.to(a));
        Archetype archetype = world.archetypeOf(e);
        int row = world.rowOf(e);
        assertEquals(FOLLOWS.to(a), archetype.getFirstRelationship(FOLLOWS, row));
        assertEquals(FOLLOWS.to(a), archetype.getValue(row, FOLLOWS));
        List<Long> seen = new ArrayList<>();
        archetype.forEachRelationship(FOLLOWS, row, edge -> seen.add(edge.target()));
        assertEquals(List.of(a, b), seen);
        long pairs = archetype.components().stream().filter(c -> c instanceof PairComponent).count();
        assertEquals(2, pairs);
        for (Component<?> component : archetype.components()) {
            if (component instanceof PairComponent pair) {
                assertTrue(pair.id() >= Components.FIRST_PAIR_ID);
                assertEquals(FOLLOWS, pair.relationship());
            }
        }
    }

    @Test
    void badEdgesAreRejectedAndChangeNothing() {
        long live = world.spawn(MARK);
        long dead = world.spawn();
        world.despawn(dead);
        String before = dump();
        assertThrows(IllegalArgumentException.class, () -> world.spawn(FOLLOWS), "a bare relationship");
        assertThrows(IllegalArgumentException.class, () -> world.set(live, FOLLOWS));
        assertThrows(IllegalArgumentException.class, () -> world.spawn(FOLLOWS.to(dead)), "a dead target");
        assertThrows(IllegalArgumentException.class, () -> world.set(live, FOLLOWS.to(dead)));
        assertThrows(IllegalArgumentException.class, () -> FOLLOWS.to(0), "not an entity id");
        assertThrows(IllegalArgumentException.class, () -> world.set(dead, FOLLOWS.to(live)), "a dead source");
        assertThrows(IllegalArgumentException.class, () -> world.batchSpawn(2, List.of(FOLLOWS)),
                "batches take edges, not bare relationships");
        Query marked = world.newQuery(QueryDescriptor.builder().include(MARK).build());
        assertThrows(IllegalArgumentException.class, () -> world.batchSet(marked, FOLLOWS));
        assertEquals(before, dump());
    }

    @Test
    void anEdgeMayTargetAnEntityStagedInTheSameScope() {
        world.defer();
        long leader = world.spawn();
        long follower = world.spawn(FOLLOWS.to(leader));
        world.commit();
        assertEquals(List.of(leader), targets(follower, FOLLOWS));
        RelationshipValue edge = world.get(follower, FOLLOWS);
        assertEquals(leader, edge.target());
    }

    @Test
    void targetingSelectsOneTargetInQueriesAndArchetypes() {
        long leader = world.spawn();
        long other = world.spawn();
        long f1 = world.spawn(FOLLOWS.to(leader));
        long f2 = world.spawn(FOLLOWS.to(leader), FOLLOWS.to(other));
        long f3 = world.spawn(FOLLOWS.to(other));
        assertEquals(FOLLOWS.targeting(leader), FOLLOWS.targeting(leader));
        Query ofLeader = world.newQuery(QueryDescriptor.builder().include(FOLLOWS.targeting(leader)).build());
        assertEquals(2, ofLeader.count());
        Query onlyOther = world.newQuery(QueryDescriptor.builder().include(FOLLOWS)
                .exclude(FOLLOWS.targeting(leader)).build());
        assertEquals(1, onlyOther.count());
        Query either = world.newQuery(QueryDescriptor.builder()
                .includeAny(FOLLOWS.targeting(leader), FOLLOWS.targeting(other)).build());
        assertEquals(3, either.count());
        assertTrue(world.has(f2, FOLLOWS.targeting(other)));
        assertFalse(world.has(f1, FOLLOWS.targeting(other)));
        assertEquals(FOLLOWS.to(leader), world.get(f1, FOLLOWS.targeting(leader)), "a selector reads its edge");
        assertNull(world.get(f3, FOLLOWS.targeting(leader)));
        assertTrue(world.archetypeOf(f3).has(FOLLOWS.targeting(other)));
        assertEquals(2, world.findArchetypes(FOLLOWS.targeting(other)).size());
        assertEquals(0, world.findArchetypes(FOLLOWS.targeting(f1)).size(), "a pair this world never met");
        long later = world.spawn(FOLLOWS.to(leader), MARK);
        assertEquals(3, ofLeader.count(), "persistent queries adopt new archetypes with the edge");
        world.remove(later, FOLLOWS.targeting(leader)); // a selector names one edge
        assertFalse(world.has(later, FOLLOWS));
        assertThrows(IllegalArgumentException.class, () -> world.set(f1, FOLLOWS.targeting(leader)),
                "a selector is not an input");
        assertThrows(IllegalArgumentException.class, () -> FOLLOWS.targeting(0));
    }

    @Test
    void batchCallsTakeExplicitEdges() {
        long leader = world.spawn();
        long other = world.spawn();
        BatchIds ids = world.batchSpawn(50, List.of(FOLLOWS.to(leader), MARK));
        assertEquals(List.of(leader), targets(ids.get(49), FOLLOWS));
        assertEquals(5, world.get(ids.get(0), LOYALTY), "the relationship's requirements apply in bulk");
        BatchIds children = world.batchSpawn(3, List.of(PARENT.to(leader), PARENT.to(other)));
        assertEquals(List.of(other), targets(children.get(0), PARENT), "exclusive: the last edge given wins");
        Query marked = world.newQuery(QueryDescriptor.builder().include(MARK).build());
        world.batchSet(marked, FOLLOWS.to(other));
        assertEquals(List.of(leader, other), targets(ids.get(7), FOLLOWS));
        world.batchRemove(marked, FOLLOWS.to(leader));
        assertEquals(List.of(other), targets(ids.get(7), FOLLOWS));
        world.batchRemove(marked, FOLLOWS);
        assertFalse(world.has(ids.get(7), FOLLOWS));
        Query kids = world.newQuery(QueryDescriptor.builder().include(PARENT).build());
        world.batchSet(kids, PARENT.to(leader));
        assertEquals(List.of(leader), targets(children.get(2), PARENT), "exclusive edges replace in bulk too");
        assertThrows(IllegalArgumentException.class, () -> world.batchSpawn(2, List.of(FOLLOWS)));
        assertThrows(IllegalArgumentException.class, () -> world.batchSet(marked, FOLLOWS, (a, f, t) -> { }));
        long dead = world.spawn();
        world.despawn(dead);
        assertThrows(IllegalArgumentException.class, () -> world.batchSpawn(2, List.of(FOLLOWS.to(dead))));
        world.despawn(leader);
        assertFalse(world.has(children.get(0), PARENT.targeting(leader)));
    }

    @Test
    void compactPrunesEmptyArchetypesWithDeadTargetsAndReusesTheirIds() {
        long t1 = world.spawn();
        long t2 = world.spawn();
        long f1 = world.spawn(FOLLOWS.to(t1));
        long f2 = world.spawn(FOLLOWS.to(t2), MARK);
        Archetype dying = world.archetypeOf(f1);
        Archetype survivor = world.archetypeOf(f2);
        int survivorId = survivor.id();
        List<String> events = new ArrayList<>();
        dying.addEntityObserver(new dev.jtecs.storage.EntityObserver() {
            @Override
            public void onArchetypeDestroyed(Archetype archetype) {
                events.add("destroyed " + archetype.id());
            }
        });
        Query followers = world.newQuery(QueryDescriptor.builder().include(FOLLOWS)
                .onEntitiesAdded((a, f, t) -> events.add("added")).build());
        Query retained = world.newQuery(QueryDescriptor.builder().include(FOLLOWS).temp().build());
        assertEquals(2, followers.archetypes().size());
        events.clear(); // the new query's report of its initial members
        world.despawn(t1); // f1 loses its edge: its old archetype is now empty, with a dead target
        int before = world.archetypeCount();
        assertEquals(new CompactResult(1, 0), world.compact());
        assertEquals(List.of("destroyed " + dying.id()), events);
        assertEquals(before - 1, world.archetypeCount());
        assertEquals(1, followers.archetypes().size(), "the persistent query released it");
        assertEquals(survivorId, world.archetypeOf(f2).id(), "survivors keep their ids");
        int[] seen = {0};
        world.forEachArchetype(a -> seen[0]++);
        assertEquals(world.archetypeCount(), seen[0]);
        long t3 = world.spawn();
        long f3 = world.spawn(FOLLOWS.to(t3), LOYALTY.of(9));
        assertEquals(dying.id(), world.archetypeOf(f3).id(), "the next new archetype reuses the freed id");
        assertEquals(2, followers.archetypes().size(), "and persistent queries adopt it");
        assertEquals(2, retained.archetypes().size(), "a temporary query keeps what it had, not the newcomer");
        assertEquals(List.of(t3), targets(f3, FOLLOWS));
        assertEquals(new CompactResult(0, 0), world.compact(), "nothing left to prune");
        assertEquals(0, world.findArchetypes(FOLLOWS.targeting(t1)).size(), "t1's pair is forgotten too");
        world.despawn(f3);
        world.despawn(t3);
        world.spawn(FOLLOWS.to(f2));
        assertEquals(1, world.compact().pruned());
    }

    @Test
    void anExclusiveEdgeSetOnABatchMemberBeforePlacementReplacesTheBatchsEdge() {
        long p1 = world.spawn();
        long p2 = world.spawn();
        world.defer();
        long e = world.batchSpawn(1, List.of(PARENT.to(p1))).get(0);
        world.set(e, PARENT.to(p2));
        world.commit();
        assertEquals(List.of(p2), targets(e, PARENT));
        world.defer();
        long f = world.batchSpawn(1, List.of(FOLLOWS.to(p1), FOLLOWS.to(p2))).get(0);
        world.remove(f, FOLLOWS);
        world.commit();
        assertFalse(world.has(f, FOLLOWS), "removing every edge of a batch member before placement");
    }

    @Test
    void anExclusiveEdgeSetAfterAPendingBatchSetOfAnotherReplacesIt() {
        long p1 = world.spawn();
        long p2 = world.spawn();
        long e = world.spawn(MARK);
        world.defer();
        world.batchSet(world.newQuery(QueryDescriptor.builder().include(MARK).build()), PARENT.to(p1));
        world.set(e, PARENT.to(p2)); // staged after the batch, whose edge it cannot see yet
        world.commit();
        assertEquals(List.of(p2), targets(e, PARENT), "the last edge set wins: " + dump());
    }

    @Test
    void removingAllEdgesAfterAPendingBatchSetOfAnEdgeAppliesAfterIt() {
        long t = world.spawn();
        long e = world.spawn(MARK);
        world.defer();
        world.batchSet(world.newQuery(QueryDescriptor.builder().include(MARK).build()), FOLLOWS.to(t));
        world.remove(e, FOLLOWS);
        world.commit();
        assertFalse(world.has(e, FOLLOWS));
    }

    @Test
    void requiredEdgesArriveUnlessTheEntityAlreadyHasAnEdgeOfThatRelationship() {
        world.spawnAt(ANCHOR);
        long p = world.spawn();
        for (Relationship relationship : List.of(PARENT, OWNER)) {
            TagComponent requiring = relationship == PARENT ? ANCHORED : OWNED;
            long e = world.spawn(requiring);
            assertEquals(List.of(ANCHOR), targets(e, relationship), relationship + ": the required edge");
            long explicit = world.spawn(relationship.to(p), requiring);
            assertEquals(List.of(p), targets(explicit, relationship), "an explicit edge wins");
            long existing = world.spawn(relationship.to(p));
            world.set(existing, requiring);
            assertEquals(List.of(p), targets(existing, relationship), "an existing edge wins");
            BatchIds batch = world.batchSpawn(2, List.of(requiring, MARK), null);
            assertEquals(List.of(ANCHOR), targets(batch.get(1), relationship), "batch spawns honour it");
            long plain = world.spawn(MARK);
            Query marked = world.newQuery(QueryDescriptor.builder().include(MARK).exclude(requiring).build());
            world.batchSet(marked, requiring);
            assertEquals(List.of(ANCHOR), targets(plain, relationship), "batch sets honour it");
            assertTrue(world.has(plain, relationship));
            world.batchDespawn(world.newQuery(QueryDescriptor.builder().include(MARK).build()));
        }
    }

    @Test
    void aBareRelationshipOrASelectorCannotBeRequired() {
        assertThrows(IllegalArgumentException.class,
                () -> Components.tag("test.rel.BadRequirement", o -> o.requires(PARENT)));
        assertThrows(IllegalArgumentException.class,
                () -> Components.tag("test.rel.BadRequirement", o -> o.requires(FOLLOWS.targeting(ANCHOR))));
        assertNull(Components.findByName("test.rel.BadRequirement"), "nothing was registered");
    }

    /** Payload relationships: edges carry a record, stored natively, by reference, or in the sparse store. */
    @org.junit.jupiter.api.Nested
    class Payload {
        private <V> List<V> edges(long id, dev.jtecs.component.BaseRelationship<V> relationship) {
            List<V> out = new ArrayList<>();
            world.forEachRelationship(id, relationship, out::add);
            return out;
        }

        @Test
        void nativePayloadsAreReadByEdgeAndReplacedPerTarget() {
            long a = world.spawn();
            long b = world.spawn();
            long e = world.spawn(SPRING.of(new Spring(b, 3f)), SPRING.of(new Spring(a, 2f)));
            assertEquals(new Spring(a, 2f), world.get(e, SPRING), "the first edge in target order");
            assertEquals(new Spring(a, 2f), world.getFirstRelationship(e, SPRING));
            assertEquals(List.of(new Spring(a, 2f), new Spring(b, 3f)), edges(e, SPRING));
            assertEquals(new Spring(b, 3f), world.get(e, SPRING.targeting(b)));
            Archetype before = world.archetypeOf(e);
            world.set(e, SPRING.of(new Spring(a, 5f)));
            assertEquals(before, world.archetypeOf(e), "same target: the payload is written in place");
            assertEquals(List.of(new Spring(a, 5f), new Spring(b, 3f)), edges(e, SPRING));
            assertEquals(List.of(e), java.util.Arrays.stream(world.relationshipSources(SPRING, a)).boxed().toList());
            world.remove(e, SPRING.to(a));
            assertEquals(List.of(new Spring(b, 3f)), edges(e, SPRING));
            world.set(e, SPRING.to(a));
            assertEquals(new Spring(a, 0f), world.get(e, SPRING), "to(target): other fields zero");
        }

        @Test
        void nativePayloadColumnsAreReachedThroughTheSelectorAndMarkedDirty() {
            long a = world.spawn();
            long e = world.spawn(SPRING.of(new Spring(a, 2f)));
            Archetype archetype = world.archetypeOf(e);
            int row = world.rowOf(e);
            dev.jtecs.component.FloatField stiffness = SPRING.targeting(a).floatField("stiffness");
            assertEquals(2f, archetype.get(stiffness).get(row));
            world.clearDirty();
            archetype.getMut(stiffness).set(row, 9f);
            assertEquals(new Spring(a, 9f), world.get(e, SPRING));
            assertTrue(archetype.anyComponentDirty(), "getMut marks the pair's column");
            assertEquals(new Spring(a, 9f), archetype.getValue(row, SPRING.targeting(a)));
            assertNull(archetype.get(SPRING.targeting(e).floatField("stiffness")), "no such edge here");
            assertThrows(IllegalArgumentException.class, () -> SPRING.targeting(a).longField("target"));
            assertThrows(IllegalArgumentException.class, () -> archetype.set(row, SPRING.of(new Spring(e, 1f))));
            assertThrows(IllegalArgumentException.class, () -> archetype.get(SPRING.targeting(a)), "native");
            assertEquals(new Spring(a, 9f), world.get(e, SPRING), "unchanged by the refused calls");
        }

        @Test
        void anExclusivePayloadRelationshipKeepsTheLastEdge() {
            long a = world.spawn();
            long b = world.spawn();
            long e = world.spawn(TETHER.of(new Spring(a, 1f)));
            world.set(e, TETHER.of(new Spring(b, 2f)));
            assertEquals(List.of(new Spring(b, 2f)), edges(e, TETHER));
            world.set(e, TETHER.of(new Spring(b, 4f)));
            assertEquals(List.of(new Spring(b, 4f)), edges(e, TETHER));
            assertTrue(world.has(e, TETHER.targeting(b)));
        }

        @Test
        void managedPayloadsAreKeptByReferenceAndReadOnlyInColumns() {
            long a = world.spawn();
            Bond bond = new Bond(a, "ally");
            long e = world.spawn(BOND.of(bond));
            assertSame(bond, world.get(e, BOND), "stored by reference");
            Archetype archetype = world.archetypeOf(e);
            dev.jtecs.storage.ObjectColumn<Bond> column = archetype.get(BOND.targeting(a));
            assertSame(bond, column.get(world.rowOf(e)));
            assertTrue(column.isReadOnly(), "records name their target: they change through World.set");
            world.set(e, BOND.of(new Bond(a, "rival")));
            assertEquals(new Bond(a, "rival"), world.get(e, BOND));
            BatchIds ids = world.batchSpawn(2, List.of(BOND.of(bond)), null);
            assertEquals(bond, world.get(ids.get(0), BOND));
            assertEquals(bond, world.get(ids.get(1), BOND));
        }

        @Test
        void sparsePayloadsLiveInTheStore() {
            long a = world.spawn();
            long b = world.spawn();
            long e = world.spawn(DEBT.of(new Debt(b, 20)), DEBT.of(new Debt(a, 10)), MARK);
            assertEquals(List.of(new Debt(a, 10), new Debt(b, 20)), edges(e, DEBT));
            world.set(e, DEBT.of(new Debt(a, 15)));
            assertEquals(new Debt(a, 15), world.get(e, DEBT), "same target: payload replaced");
            assertEquals(new Debt(a, 15), world.archetypeOf(e).getFirstRelationship(DEBT, world.rowOf(e)));
            Query marked = world.newQuery(QueryDescriptor.builder().include(MARK).build());
            world.batchSet(marked, DEBT.of(new Debt(b, 99)));
            assertEquals(List.of(new Debt(a, 15), new Debt(b, 99)), edges(e, DEBT));
            world.remove(e, DEBT.to(a));
            world.remove(e, DEBT.to(b));
            assertFalse(world.has(e, DEBT));
            assertEquals(0, world.relationshipSources(DEBT, b).length);
        }

        @Test
        void batchesAndRequirementsCarryPayloads() {
            world.spawnAt(ANCHOR);
            long a = world.spawn();
            BatchIds ids = world.batchSpawn(3, List.of(SPRING.of(new Spring(a, 4f)), MARK), null);
            for (int i = 0; i < 3; i++) {
                assertEquals(new Spring(a, 4f), world.get(ids.get(i), SPRING));
            }
            Query marked = world.newQuery(QueryDescriptor.builder().include(MARK).build());
            world.batchSet(marked, SPRING.of(new Spring(a, 6f)));
            assertEquals(new Spring(a, 6f), world.get(ids.get(2), SPRING), "batch set replaces the payload");
            long required = world.spawn(SPRUNG);
            assertEquals(new Spring(ANCHOR, 7f), world.get(required, SPRING));
            assertEquals(new Debt(ANCHOR, 70), world.get(required, DEBT));
            BatchIds more = world.batchSpawn(2, List.of(SPRUNG), null);
            assertEquals(new Debt(ANCHOR, 70), world.get(more.get(1), DEBT));
            assertEquals(new Spring(ANCHOR, 7f), world.get(more.get(1), SPRING));
        }

        @Test
        void anEdgeIsNotAComponentValue() {
            long a = world.spawn();
            long e = world.spawn(MARK);
            String before = dump();
            assertThrows(IllegalArgumentException.class,
                    () -> world.set(e, new dev.jtecs.component.ComponentValue<>(SPRING, new Spring(a, 1f))));
            assertThrows(IllegalArgumentException.class, () -> world.spawn(SPRING), "a bare definition");
            assertEquals(before, dump());
        }
    }

    @Test
    void anotherWorldsPairIsRefusedWhereItWouldAliasAnEdge() {
        long parent = world.spawn();
        long child = world.spawn(PARENT.to(parent));
        try (World other = World.create()) {
            long otherParent = other.spawn();
            long otherChild = other.spawn(FOLLOWS.to(otherParent)); // the other world's first pair
            PairComponent foreign = (PairComponent) other.archetypeOf(otherChild).components().stream()
                    .filter(c -> c instanceof PairComponent).findFirst().orElseThrow();
            PairComponent own = (PairComponent) world.archetypeOf(child).components().stream()
                    .filter(c -> c instanceof PairComponent).findFirst().orElseThrow();
            assertEquals(own.id(), foreign.id(), "pair ids are per world: the two alias");
            String before = dump();
            for (Executable call : List.<Executable>of(() -> world.remove(child, foreign),
                    () -> world.has(child, foreign), () -> world.get(child, foreign),
                    () -> world.markComponentDirty(child, foreign), () -> world.findArchetypes(foreign))) {
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call);
                assertTrue(e.getMessage().contains(foreign.name()) && e.getMessage().contains(world.toString()),
                        e.getMessage());
            }
            assertEquals(before, dump());
            assertEquals(List.of(parent), targets(child, PARENT), "the aliased edge is still there");
            assertTrue(world.has(child, own), "the world's own pair still answers");
        }
    }

    /**
     * Despawns published as a run (many of one table in one scope) still tell the relationship layer of every death
     * while the world holds edges or pairs: a dead source's sparse edges leave its target's list, and a dense edge
     * to a dead target goes ({@code hearsDespawns} is true in both worlds; BatchDespawnsTest covers a false one).
     */
    @Test
    void despawnsPublishedAsARunStillDropTheEdgesOfTheDead() {
        try (World sparseOnly = World.create(); World denseOnly = World.create()) {
            long target = sparseOnly.spawn();
            long[] sources = new long[20];
            for (int i = 0; i < sources.length; i++) {
                sources[i] = sparseOnly.spawn(LIKES.to(target));
            }
            long survivor = sources[sources.length - 1];
            sparseOnly.defer();
            for (int i = 0; i < sources.length - 1; i++) {
                sparseOnly.despawn(sources[i]);
            }
            sparseOnly.commit();
            assertArrayEquals(new long[] {survivor}, sparseOnly.relationshipSources(LIKES, target));

            long[] targets = new long[20];
            for (int i = 0; i < targets.length; i++) {
                targets[i] = denseOnly.spawn();
            }
            long knower = denseOnly.spawn(KNOWS.to(targets[3]));
            denseOnly.defer();
            for (long each : targets) {
                denseOnly.despawn(each);
            }
            denseOnly.commit();
            assertFalse(denseOnly.has(knower, KNOWS), "no dense edge outlives its target");
        }
    }
}
