package dev.jtecs.relation.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.builtin.ChildOf;
import dev.jtecs.component.Component;
import dev.jtecs.component.Components;
import dev.jtecs.component.PairComponent;
import dev.jtecs.component.Relationship;
import dev.jtecs.component.RelationshipDefinition;
import dev.jtecs.component.RelationshipValue;
import dev.jtecs.component.Relationships;
import dev.jtecs.component.ScalarComponent;
import dev.jtecs.component.TagComponent;
import dev.jtecs.entity.Entity;
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

/** The relationship machinery ({@link Relations}, and edge staging), driven through the world. */
class RelationsTest {
    static final ScalarComponent.OfInt LOYALTY = Components.scalar("test.rel.Loyalty", 5);
    static final Relationship FOLLOWS = Relationships.register("test.rel.Follows", o -> o.requires(LOYALTY));
    static final Relationship PARENT = Relationships.register("test.rel.Parent", o -> o.exclusive());
    static final TagComponent MARK = Components.tag("test.rel.Mark");

    private final World world = World.create();

    @AfterEach
    void close() {
        world.close();
    }

    private List<Long> targets(long id, Relationship relationship) {
        List<Long> out = new ArrayList<>();
        world.forEachRelationship(id, relationship, edge -> out.add(edge.target()));
        return out;
    }

    private String dump() {
        StringBuilder sb = new StringBuilder();
        world.forEachArchetype(a -> {
            for (int row = 0; row < a.count(); row++) {
                sb.append(Entity.toString(a.entity(row))).append(a.components()).append(';');
            }
        });
        return sb + " alive=" + world.entityCount();
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
    void despawningATargetRemovesTheEdgesPointingAtIt() {
        long leader = world.spawn();
        long other = world.spawn();
        long f1 = world.spawn(FOLLOWS.to(leader));
        long f2 = world.spawn(FOLLOWS.to(leader), FOLLOWS.to(other));
        long child = world.spawn(PARENT.to(leader));
        world.despawn(leader);
        assertTrue(world.isAlive(f1), "sources survive (no cascade)");
        assertFalse(world.has(f1, FOLLOWS));
        assertEquals(List.of(other), targets(f2, FOLLOWS));
        assertFalse(world.has(child, PARENT));
        Query all = world.newQuery(QueryDescriptor.builder().include(FOLLOWS).temp().build());
        assertEquals(1, all.count());
    }

    @Test
    void aTargetDespawnedInAWholeArchetypeDespawnAlsoLosesItsIncomingEdges() {
        BatchIds leaders = world.batchSpawn(3, List.of(MARK));
        long f = world.spawn(FOLLOWS.to(leaders.get(1)));
        world.batchDespawn(world.newQuery(QueryDescriptor.builder().include(MARK).build()));
        assertFalse(world.has(f, FOLLOWS));
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

    static final Relationship KNOWS = Relationships.register("test.rel.Knows", o -> o.reverseIndex());

    @Test
    void sourcesAndTargetsComeInAscendingIdOrder() {
        long hub = world.spawn();
        long a = world.spawn(KNOWS.to(hub));
        long b = world.spawn(KNOWS.to(hub), MARK);
        long c = world.spawn(KNOWS.to(hub));
        world.spawn(KNOWS.to(a));
        assertEquals(List.of(a, b, c), java.util.Arrays.stream(world.relationshipSources(KNOWS, hub)).boxed()
                .toList());
        List<Long> seen = new ArrayList<>();
        world.targets(hub, KNOWS, seen::add);
        assertEquals(List.of(a, b, c), seen);
        assertEquals(0, world.relationshipSources(KNOWS, c).length);
        assertThrows(IllegalArgumentException.class, () -> world.relationshipSources(FOLLOWS, hub),
                "FOLLOWS has no reverse index");
        assertThrows(IllegalArgumentException.class, () -> world.traverse(hub, FOLLOWS, (e, d) -> { }));
    }

    @Test
    void traverseIsDepthFirstExcludesTheRootAndVisitsEachEntityOnce() {
        long root = world.spawn();
        long a = world.spawn(KNOWS.to(root));
        long b = world.spawn(KNOWS.to(root));
        long a1 = world.spawn(KNOWS.to(a));
        long a2 = world.spawn(KNOWS.to(a), KNOWS.to(b)); // two parents: visited once
        long a11 = world.spawn(KNOWS.to(a1));
        world.set(root, KNOWS.to(a11)); // a cycle back to the root
        List<String> visits = new ArrayList<>();
        world.traverse(root, KNOWS, (entity, depth) -> visits.add(entity + "@" + depth));
        assertEquals(List.of(a + "@0", a1 + "@1", a11 + "@2", a2 + "@1", b + "@0"), visits);
    }

    @Test
    void walkUpFollowsTheFirstEdgeStopsOnRequestAndRaisesOnCyclesAndDepth() {
        long top = world.spawn();
        long mid = world.spawn(PARENT.to(top));
        long low = world.spawn(PARENT.to(mid));
        List<String> seen = new ArrayList<>();
        world.walkUp(low, PARENT, (ancestor, depth) -> seen.add(ancestor + "@" + depth));
        assertEquals(List.of(mid + "@1", top + "@2"), seen);
        seen.clear();
        world.walkUp(low, PARENT, (ancestor, depth) -> {
            seen.add(ancestor + "@" + depth);
            return false;
        });
        assertEquals(List.of(mid + "@1"), seen, "the visitor stopped the walk");
        assertThrows(IllegalStateException.class, () -> world.walkUp(low, PARENT, (x, d) -> true, 1));
        world.set(top, PARENT.to(low));
        assertThrows(IllegalStateException.class, () -> world.walkUp(low, PARENT, (x, d) -> true));
    }

    @Test
    void cascadeDeleteRequiresExclusiveAndReverseIndex() {
        assertThrows(IllegalArgumentException.class,
                () -> Relationships.register("test.rel.BadCascade", o -> o.cascadeDelete().exclusive()));
        assertThrows(IllegalArgumentException.class,
                () -> Relationships.register("test.rel.BadCascade2", o -> o.cascadeDelete().reverseIndex()));
        assertTrue(dev.jtecs.builtin.ChildOf.COMPONENT.isCascadeDelete());
        assertTrue(dev.jtecs.builtin.ChildOf.COMPONENT.isExclusive());
        assertTrue(dev.jtecs.builtin.ChildOf.COMPONENT.hasReverseIndex());
    }

    @Test
    void despawningAParentDespawnsItsSubtreeInTheSameCommit() {
        Relationship childOf = dev.jtecs.builtin.ChildOf.COMPONENT;
        long root = world.spawn();
        long a = world.spawn(childOf.to(root));
        long b = world.spawn(childOf.to(root));
        long a1 = world.spawn(childOf.to(a), MARK);
        long deep = a1;
        for (int level = 0; level < 100; level++) { // deeper than the drain's wave limit
            deep = world.spawn(childOf.to(deep));
        }
        long bystander = world.spawn(FOLLOWS.to(a));
        List<Long> despawned = new ArrayList<>();
        world.observe(Entity.WORLD, dev.jtecs.event.OnDespawn.class, e -> despawned.add(e.entity()));
        world.despawn(root);
        assertFalse(world.isAlive(a));
        assertFalse(world.isAlive(b));
        assertFalse(world.isAlive(a1));
        assertFalse(world.isAlive(deep));
        assertEquals(104, despawned.size(), "root, a, b, a1 and the 100-deep chain, each reported once");
        assertTrue(world.isAlive(bystander), "a non-cascading edge is only removed");
        assertFalse(world.has(bystander, FOLLOWS));
        assertEquals(1, world.entityCount(), "only the bystander is left");
    }

    @Test
    void aFailedCommitLeavesACascadedSubtreeAliveAndUsable() {
        Relationship childOf = dev.jtecs.builtin.ChildOf.COMPONENT;
        long root = world.spawn();
        long child = world.spawn(childOf.to(root));
        long grandchild = world.spawn(childOf.to(child), LOYALTY.of(0));
        world.newQuery(QueryDescriptor.builder().include(MARK).onEntitiesAdded((a, f, t) -> {
            throw new IllegalStateException("boom");
        }).build());
        world.defer();
        world.despawn(child); // cascades to grandchild in the next wave...
        world.spawn(MARK);    // ...whose failure discards it
        assertThrows(IllegalStateException.class, world::commit);
        assertFalse(world.isAlive(child), "published before the failure");
        assertTrue(world.isAlive(grandchild), "its cascade was discarded with the failed wave");
        assertTrue(world.hasPendingChanges(), "the settlement of the dead child waits for the next publication");
        world.defer();
        world.set(grandchild, LOYALTY.of(1)); // writes through: no stale selection mark blocks it
        assertEquals(1, world.get(grandchild, LOYALTY), "no stale mark blocks it");
        world.commit(); // the next publication runs the cascade the failure cut short
        assertFalse(world.isAlive(grandchild));
        assertTrue(world.isAlive(root));
        assertFalse(world.hasPendingChanges());
    }

    @Test
    void aCascadeLeavesAnEntityAPendingBatchDespawnSelectedToThatBatch() {
        Relationship childOf = dev.jtecs.builtin.ChildOf.COMPONENT;
        Query marked = world.newQuery(QueryDescriptor.builder().include(MARK).build());
        List<Long> despawned = new ArrayList<>();
        world.observe(Entity.WORLD, dev.jtecs.event.OnDespawn.class, e -> despawned.add(e.entity()));
        for (boolean lazy : new boolean[] {false, true}) {
            long root = world.spawn(LOYALTY);
            long child = world.spawn(childOf.to(root));
            long selected = world.spawn(childOf.to(child), MARK);
            long leaf = world.spawn(childOf.to(selected));
            despawned.clear();
            world.defer();
            if (lazy) { // nothing staged before: the batches claim whole archetypes, copying no ids
                world.batchDespawn(world.newQuery(QueryDescriptor.builder().include(LOYALTY).temp().build()));
            } else { // a record staged before: the batch copies its members and marks them
                world.despawn(root);
            }
            world.batchDespawn(marked); // selects and reports `selected` now; root's cascade reaches it first
            assertEquals(List.of(root, selected), despawned);
            world.commit();
            assertEquals(List.of(root, selected, child, leaf), despawned, "lazy=" + lazy + ": each once");
            assertEquals(0, world.entityCount(), dump());
        }
    }

    @Test
    void aCascadeLeavesAnEntityWhoseDespawnIsStagedLaterInCallOrderToThatDespawn() {
        Relationship childOf = dev.jtecs.builtin.ChildOf.COMPONENT;
        Query marked = world.newQuery(QueryDescriptor.builder().include(MARK).build());
        List<Long> despawned = new ArrayList<>();
        world.observe(Entity.WORLD, dev.jtecs.event.OnDespawn.class, e -> despawned.add(e.entity()));
        long root = world.spawn();
        long child = world.spawn(childOf.to(root));
        long grandchild = world.spawn(childOf.to(child));
        long parent = world.spawn();
        world.defer();
        world.despawn(root);
        long staged = world.spawn(childOf.to(parent)); // not alive at the call below
        world.despawn(parent);
        world.batchSet(marked, LOYALTY.of(1)); // a query batch: what follows publishes after the cascades ran
        world.despawn(child); // reported now; root's cascade reaches it first
        world.despawn(staged); // reported now; parent's death reaches it first, as it is placed
        assertEquals(List.of(root, parent, child, staged), despawned);
        world.commit();
        assertEquals(List.of(root, parent, child, staged, grandchild), despawned, "each once");
        assertEquals(0, world.entityCount(), dump());
    }

    @Test
    void aFailureLaterInTheWaveLeavesTheDeadTargetToTheNextPublication() {
        Relationship childOf = dev.jtecs.builtin.ChildOf.COMPONENT;
        Query marked = world.newQuery(QueryDescriptor.builder().include(MARK).build());
        long parent = world.spawn();
        long child = world.spawn(childOf.to(parent), MARK);
        long fan = world.spawn(FOLLOWS.to(parent), MARK);
        world.defer();
        world.despawn(parent); // settled once its segment has published; the cascade waits for a further wave...
        world.batchSet(marked, LOYALTY, (archetype, fromRow, toRow) -> {
            throw new IllegalStateException("boom"); // ...which this failure discards
        });
        assertThrows(IllegalStateException.class, world::commit);
        assertFalse(world.isAlive(parent), "published before the failure");
        assertTrue(world.isAlive(child), "its cascade was discarded with the failed publication");
        world.spawn(); // the next publication settles the dead parent again
        assertFalse(world.isAlive(child), "no edge outlives its target: " + dump());
        assertTrue(world.isAlive(fan));
        assertFalse(world.has(fan, FOLLOWS));
    }

    @Test
    void noEdgeOutlivesItsTargetWhateverTheStagingOrder() {
        long t1 = world.spawn();
        long f1 = world.spawn();
        world.defer();
        world.despawn(t1);
        world.set(f1, FOLLOWS.to(t1)); // t1 is still alive at the call
        world.commit();
        assertFalse(world.has(f1, FOLLOWS), "edge set after the target's despawn in the same scope");

        long t2 = world.spawn();
        world.defer();
        world.despawn(t2);
        long f2 = world.spawn(FOLLOWS.to(t2));
        world.commit();
        assertTrue(world.isAlive(f2));
        assertFalse(world.has(f2, FOLLOWS), "spawned with an edge to a dying target");

        long f3 = world.spawn();
        world.defer();
        long t3 = world.spawn();
        world.set(f3, FOLLOWS.to(t3));
        world.despawn(t3); // a cancelled staged spawn
        world.commit();
        assertFalse(world.has(f3, FOLLOWS), "edge to a spawn that never happened");

        long p = world.spawn();
        world.defer();
        world.despawn(p);
        long orphan = world.spawn(dev.jtecs.builtin.ChildOf.COMPONENT.to(p));
        world.commit();
        assertFalse(world.isAlive(orphan), "a cascading edge to a dead parent takes the child with it");
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
    void traversalsNestAndAnObserverMayTraverseDuringACascade() {
        long root = world.spawn();
        long a = world.spawn(KNOWS.to(root));
        long b = world.spawn(KNOWS.to(root));
        world.spawn(KNOWS.to(a));
        List<String> visits = new ArrayList<>();
        world.traverse(root, KNOWS, (entity, depth) -> {
            int[] below = {0};
            world.traverse(entity, KNOWS, (inner, d) -> below[0]++);
            visits.add(entity + ":" + below[0]);
        });
        assertEquals(List.of(a + ":1", (a + 2) + ":0", b + ":0").size(), visits.size());
        assertEquals(a + ":1", visits.get(0));

        Relationship childOf = dev.jtecs.builtin.ChildOf.COMPONENT;
        long top = world.spawn();
        long mid = world.spawn(childOf.to(top));
        long leaf = world.spawn(childOf.to(mid));
        List<Integer> counts = new ArrayList<>();
        world.observe(Entity.WORLD, dev.jtecs.event.OnDespawn.class, e -> {
            int[] n = {0};
            world.traverse(top, KNOWS, (x, d) -> n[0]++); // a nested walk from inside the cascade
            counts.add(n[0]);
        });
        world.despawn(top);
        assertFalse(world.isAlive(leaf));
        assertEquals(3, counts.size(), "top, mid and leaf, once each");
    }

    @Test
    void aChildReparentedOrDetachedEarlierInCallOrderIsSparedByItsOldParentsCascade() {
        Relationship childOf = dev.jtecs.builtin.ChildOf.COMPONENT;
        long p1 = world.spawn();
        long p2 = world.spawn();
        long moved = world.spawn(childOf.to(p1));
        long detached = world.spawn(childOf.to(p1));
        long stays = world.spawn(childOf.to(p1));
        world.defer();
        world.set(moved, childOf.to(p2));
        world.remove(detached, childOf);
        world.despawn(p1);
        world.commit();
        assertTrue(world.isAlive(moved));
        assertEquals(List.of(p2), targets(moved, childOf));
        assertTrue(world.isAlive(detached));
        assertFalse(world.isAlive(stays));
    }

    @Test
    void aBatchMemberReTargetedInTheSegmentThatPlacesItIsSparedByItsDeadParentsCascade() {
        Relationship childOf = dev.jtecs.builtin.ChildOf.COMPONENT;
        long p1 = world.spawn();
        long p2 = world.spawn();
        List<Long> despawned = new ArrayList<>();
        world.observe(Entity.WORLD, dev.jtecs.event.OnDespawn.class, e -> despawned.add(e.entity()));
        world.defer();
        BatchIds ids = world.batchSpawn(2, List.of(childOf.to(p1)));
        world.despawn(p1);
        world.set(ids.get(0), childOf.to(p2)); // applies once the batch is placed, before p1's death is settled
        world.commit();
        assertTrue(world.isAlive(ids.get(0)), "re-targeted in call order, as a published child would be");
        assertEquals(List.of(p2), targets(ids.get(0), childOf));
        assertFalse(world.isAlive(ids.get(1)), "still a child of the dead parent: taken by its cascade");
        assertEquals(List.of(p1, ids.get(1)), despawned);
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


    static final Relationship LIKES = Relationships.register("test.rel.Likes", o -> o.sparse().reverseIndex());
    static final Relationship OWNER = Relationships.register("test.rel.Owner", o -> o.sparse().exclusive()
            .reverseIndex());
    static final Relationship HOLDS = Relationships.register("test.rel.Holds", o -> o.sparse().exclusive()
            .reverseIndex().cascadeDelete());

    static final long ANCHOR = Entity.pack(40, 0);
    static final TagComponent ANCHORED = Components.tag("test.rel.Anchored", o -> o.requires(PARENT.to(ANCHOR)));
    static final TagComponent OWNED = Components.tag("test.rel.Owned", o -> o.requires(OWNER.to(ANCHOR)));

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

    /** Sparse relationships: edges in the world's store, the marker in the archetype. */
    @org.junit.jupiter.api.Nested
    class Sparse {
        @Test
        void edgesAreKeptInTargetOrderWithoutAnArchetypePerTargetSet() {
            long a = world.spawn();
            long b = world.spawn();
            long c = world.spawn();
            long e = world.spawn(LIKES.to(c), LIKES.to(a));
            long f = world.spawn(LIKES.to(b));
            assertTrue(world.has(e, LIKES));
            assertEquals(List.of(a, c), targets(e, LIKES));
            assertEquals(LIKES.to(a), world.get(e, LIKES));
            assertEquals(LIKES.to(a), world.getFirstRelationship(e, LIKES));
            assertEquals(world.archetypeOf(e), world.archetypeOf(f), "one archetype whatever the targets");
            int archetypes = world.archetypeCount();
            world.set(e, LIKES.to(b));
            world.set(e, LIKES.to(c)); // already there
            assertEquals(List.of(a, b, c), targets(e, LIKES));
            assertEquals(archetypes, world.archetypeCount(), "adding edges creates no archetype");
            Archetype archetype = world.archetypeOf(e);
            assertEquals(LIKES.to(a), archetype.getFirstRelationship(LIKES, world.rowOf(e)));
            List<Long> rowTargets = new ArrayList<>();
            archetype.forEachRelationship(LIKES, world.rowOf(e), edge -> rowTargets.add(edge.target()));
            assertEquals(List.of(a, b, c), rowTargets);
            assertEquals(LIKES.to(b), archetype.getFirstRelationship(LIKES, world.rowOf(f)));
        }

        @Test
        void anExclusiveSparseRelationshipKeepsTheLastEdge() {
            long p1 = world.spawn();
            long p2 = world.spawn();
            long p3 = world.spawn();
            long e = world.spawn(OWNER.to(p1), OWNER.to(p2));
            assertEquals(List.of(p2), targets(e, OWNER));
            world.set(e, OWNER.to(p3));
            assertEquals(List.of(p3), targets(e, OWNER));
            assertEquals(List.of(e), java.util.Arrays.stream(world.relationshipSources(OWNER, p3)).boxed().toList());
            assertEquals(0, world.relationshipSources(OWNER, p2).length, "the reverse index unlinked the old edge");
        }

        @Test
        void theMarkerGoesWithTheLastEdgeAndRemovingTheRelationshipRemovesAll() {
            long a = world.spawn();
            long b = world.spawn();
            long e = world.spawn(LIKES.to(a), LIKES.to(b), MARK);
            world.remove(e, LIKES.to(a));
            assertEquals(List.of(b), targets(e, LIKES));
            assertTrue(world.has(e, LIKES));
            world.remove(e, LIKES.to(b));
            assertFalse(world.has(e, LIKES), "no edge left: no marker");
            assertNull(world.get(e, LIKES));
            world.set(e, LIKES.to(a));
            world.set(e, LIKES.to(b));
            world.remove(e, LIKES);
            assertFalse(world.has(e, LIKES));
            assertEquals(List.of(), targets(e, LIKES));
            assertEquals(0, world.relationshipSources(LIKES, a).length);
            world.defer();
            world.set(e, LIKES.to(a));
            world.remove(e, LIKES.to(a));
            world.commit();
            assertFalse(world.has(e, LIKES), "added and removed in one commit: nothing left");
            world.defer();
            world.remove(e, LIKES);
            world.set(e, LIKES.to(b));
            world.commit();
            assertEquals(List.of(b), targets(e, LIKES), "call order decides");
            assertTrue(world.has(e, LIKES));
            assertTrue(world.has(e, MARK));
        }

        @Test
        void queriesMatchTheMarker() {
            long a = world.spawn();
            long e = world.spawn(LIKES.to(a));
            world.spawn(MARK);
            Query likers = world.newQuery(QueryDescriptor.builder().include(LIKES).build());
            assertEquals(List.of(e), ids(likers));
            world.remove(e, LIKES.to(a));
            assertEquals(List.of(), ids(likers));
        }

        private List<Long> ids(Query query) {
            List<Long> out = new ArrayList<>();
            for (Archetype archetype : query.archetypes()) {
                for (int row = 0; row < archetype.count(); row++) {
                    out.add(archetype.entity(row));
                }
            }
            return out;
        }

        @Test
        void aDeadTargetStaysUntilRemovedUnlessTheRelationshipCascades() {
            long target = world.spawn();
            long e = world.spawn(LIKES.to(target));
            world.despawn(target);
            assertEquals(List.of(target), targets(e, LIKES), "a sparse edge keeps the dead target's id");
            assertFalse(world.isAlive(target));
            assertEquals(List.of(e), java.util.Arrays.stream(world.relationshipSources(LIKES, target)).boxed()
                    .toList());
            world.remove(e, LIKES.to(target));
            assertFalse(world.has(e, LIKES));

            long root = world.spawn();
            long child = world.spawn(HOLDS.to(root));
            long grandchild = world.spawn(HOLDS.to(child), MARK);
            long bystander = world.spawn(LIKES.to(child));
            world.despawn(root);
            assertFalse(world.isAlive(child));
            assertFalse(world.isAlive(grandchild), "the cascade is recursive");
            assertTrue(world.isAlive(bystander));
            assertEquals(List.of(child), targets(bystander, LIKES));
        }

        /** Found by the model sweep (seed 1005713): a sparse cascade went on through ChildOf only a wave later. */
        @Test
        void aCascadeFollowsEveryCascadingRelationshipAtOnceSoALaterDetachIsTooLate() {
            Relationship childOf = dev.jtecs.builtin.ChildOf.COMPONENT;
            Query children = world.newQuery(QueryDescriptor.builder().include(childOf).build());
            long root = world.spawn();
            long held = world.spawn(HOLDS.to(root)); // sparse, cascading
            long child = world.spawn(childOf.to(held)); // dense, cascading
            long grandchild = world.spawn(HOLDS.to(child));
            List<Long> despawned = new ArrayList<>();
            world.observe(Entity.WORLD, dev.jtecs.event.OnDespawn.class, e -> despawned.add(e.entity()));
            world.defer();
            world.despawn(root);
            world.batchRemove(children, childOf); // detaches child after the despawn, across a query batch
            world.commit();
            assertEquals(List.of(root, held, child, grandchild), despawned, "the whole subtree, once each");
            assertFalse(world.isAlive(child), "taken by the cascade before the batch detached it");
            assertFalse(world.isAlive(grandchild));
        }

        @Test
        void anEdgeToATargetThatDiesBeforeItLandsCascadesToo() {
            long root = world.spawn();
            world.defer();
            long child = world.spawn(HOLDS.to(root));
            world.despawn(root);
            world.commit();
            assertFalse(world.isAlive(child), "the edge landed on a dead target of a cascading relationship");
            assertFalse(world.isAlive(root));
        }

        @Test
        void traversingFromADeadTargetVisitsTheNewEntityInItsSlot() {
            long old = world.spawn();
            long watcher = world.spawn(LIKES.to(old));
            world.despawn(old); // the sparse edge keeps the dead id
            long recycled = world.spawn(LIKES.to(watcher)); // old's slot, one generation up
            assertEquals(Entity.slot(old), Entity.slot(recycled));
            List<Long> visits = new ArrayList<>();
            world.traverse(old, LIKES, (entity, depth) -> visits.add(entity));
            assertEquals(List.of(watcher, recycled), visits, "only the root is skipped, not its slot");
        }

        @Test
        void anEdgeReplacedInTheSameFlushDoesNotCascadeFromItsDeadTarget() {
            long dying = world.spawn();
            long keeper = world.spawn();
            world.defer();
            world.despawn(dying);
            long spawned = world.spawn(HOLDS.to(dying), HOLDS.to(keeper)); // exclusive: the last edge wins
            long moved = world.spawn();
            world.commit();
            world.defer();
            long gone = world.spawn();
            world.despawn(gone);
            world.set(moved, HOLDS.to(gone)); // gone is still staged when this is called...
            world.set(moved, HOLDS.to(keeper)); // ...and a later call re-targets moved
            world.commit();
            assertTrue(world.isAlive(spawned), "the edge to the dead target never outlived its spawn call");
            assertEquals(List.of(keeper), targets(spawned, HOLDS));
            assertTrue(world.isAlive(moved), "re-targeted before the flush: the cascade does not reach it");
            assertEquals(List.of(keeper), targets(moved, HOLDS));
        }

        @Test
        void aDespawnCancelsStagedWritesAndARecycledSlotStartsWithoutEdges() {
            long target = world.spawn();
            long e = world.spawn(LIKES.to(target));
            world.defer();
            world.set(e, LIKES.to(world.spawn()));
            world.despawn(e);
            world.commit();
            assertFalse(world.isAlive(e));
            long reused = world.spawn();
            assertEquals(Entity.slot(e), Entity.slot(reused), "the slot is recycled");
            assertEquals(List.of(), targets(reused, LIKES));
            assertFalse(world.has(reused, LIKES));
            assertEquals(0, world.relationshipSources(LIKES, target).length, "the dead source left the index");
            world.set(reused, LIKES.to(target));
            assertEquals(List.of(target), targets(reused, LIKES));
        }

        @Test
        void traversalAndWalkUpFollowSparseEdges() {
            long root = world.spawn();
            long a = world.spawn(OWNER.to(root));
            long b = world.spawn(OWNER.to(root));
            long a1 = world.spawn(OWNER.to(a));
            List<String> visits = new ArrayList<>();
            world.traverse(root, OWNER, (entity, depth) -> visits.add(entity + "@" + depth));
            assertEquals(List.of(a + "@0", a1 + "@1", b + "@0"), visits);
            List<String> up = new ArrayList<>();
            world.walkUp(a1, OWNER, (ancestor, depth) -> up.add(ancestor + "@" + depth));
            assertEquals(List.of(a + "@1", root + "@2"), up);
            List<Long> sources = new ArrayList<>();
            world.targets(root, OWNER, sources::add);
            assertEquals(List.of(a, b), sources);
        }

        @Test
        void targetingIsRejectedForSparseRelationships() {
            long a = world.spawn();
            long e = world.spawn(LIKES.to(a));
            String before = dump();
            assertThrows(IllegalArgumentException.class, () -> LIKES.targeting(a));
            assertEquals(before, dump());
        }

        @Test
        void batchesTakeSparseEdgesInCallOrder() {
            long a = world.spawn();
            long b = world.spawn();
            BatchIds ids = world.batchSpawn(3, List.of(LIKES.to(a), MARK), null);
            for (int i = 0; i < 3; i++) {
                assertEquals(List.of(a), targets(ids.get(i), LIKES));
            }
            Query marked = world.newQuery(QueryDescriptor.builder().include(MARK).build());
            world.batchSet(marked, LIKES.to(b));
            assertEquals(List.of(a, b), targets(ids.get(1), LIKES));
            world.batchRemove(marked, LIKES.to(a));
            assertEquals(List.of(b), targets(ids.get(2), LIKES));
            assertTrue(world.has(ids.get(2), LIKES));
            world.batchRemove(marked, LIKES.to(b));
            assertFalse(world.has(ids.get(0), LIKES), "the last edge went: so did the marker");
            world.batchSet(marked, LIKES.to(a));
            world.batchRemove(marked, LIKES);
            assertFalse(world.has(ids.get(0), LIKES));
            assertEquals(0, world.relationshipSources(LIKES, a).length);

            world.defer();
            world.set(ids.get(0), LIKES.to(a));
            world.batchRemove(marked, LIKES);
            world.set(ids.get(1), LIKES.to(b));
            world.commit();
            assertEquals(List.of(), targets(ids.get(0), LIKES), "the batch came after the set");
            assertEquals(List.of(b), targets(ids.get(1), LIKES), "and before this one");
            assertTrue(world.has(ids.get(1), LIKES));
            assertFalse(world.has(ids.get(0), LIKES));
        }

        @Test
        void anEdgeABatchAddsAfterTheLastEdgeWentKeepsTheMarker() {
            long p0 = world.spawn();
            long hq = world.spawn();
            long q = world.spawn(LIKES.to(p0), MARK);
            Query marked = world.newQuery(QueryDescriptor.builder().include(MARK).build());
            world.defer();
            world.remove(q, LIKES.to(p0));
            world.batchSet(marked, LIKES.to(hq));
            world.commit();
            assertEquals(List.of(hq), targets(q, LIKES));
            assertTrue(world.has(q, LIKES), "the marker follows the edges where the wave left them");
        }

        @Test
        void aRequiredSparseEdgeLandsInCallOrderWithStagedRemovals() {
            world.spawnAt(ANCHOR);
            long p0 = world.spawn();
            long e = world.spawn(OWNER.to(p0));
            world.defer();
            world.remove(e, OWNER);
            world.set(e, OWNED);
            world.commit();
            assertEquals(List.of(ANCHOR), targets(e, OWNER), "removed, then required: the required edge stays");
            assertTrue(world.has(e, OWNER));
            world.defer();
            world.remove(e, OWNED);
            world.remove(e, OWNER);
            world.set(e, OWNED);
            world.remove(e, OWNER.to(ANCHOR));
            world.commit();
            assertEquals(List.of(), targets(e, OWNER), "required, then removed: gone, as for a dense edge");
            assertFalse(world.has(e, OWNER));
            long f = world.spawn(OWNER.to(p0));
            world.set(f, OWNED);
            assertEquals(List.of(p0), targets(f, OWNER), "an existing edge wins");
        }

        @Test
        void clearingEntitiesDropsSparseEdges() {
            long a = world.spawn();
            world.spawn(LIKES.to(a));
            world.clearEntities();
            long fresh = world.spawn();
            long other = world.spawn();
            assertEquals(0, world.relationshipSources(LIKES, a).length);
            assertEquals(List.of(), targets(fresh, LIKES));
            assertEquals(List.of(), targets(other, LIKES));
        }
    }

    record Spring(long target, float stiffness) {}

    record Bond(long target, String label) {}

    record Debt(long target, int amount) {}

    static final RelationshipDefinition<Spring> SPRING = Relationships.register(Spring.class,
            o -> o.name("test.rel.Spring").reverseIndex());
    static final RelationshipDefinition<Spring> TETHER = Relationships.register(Spring.class,
            o -> o.name("test.rel.Tether").exclusive());
    static final RelationshipDefinition<Bond> BOND = Relationships.register(Bond.class, o -> o.name("test.rel.Bond"));
    static final RelationshipDefinition<Debt> DEBT = Relationships.register(Debt.class,
            o -> o.name("test.rel.Debt").sparse().reverseIndex());
    static final TagComponent SPRUNG = Components.tag("test.rel.Sprung",
            o -> o.requires(SPRING.of(new Spring(ANCHOR, 7f)), DEBT.of(new Debt(ANCHOR, 70))));

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

    @Test
    void walkUpRefusesANegativeDepthBeforeVisiting() {
        long root = world.spawn();
        long child = world.spawn(PARENT.to(root));
        List<Long> visited = new ArrayList<>();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> world.walkUp(child, PARENT, (ancestor, depth) -> visited.add(ancestor), -1));
        assertTrue(e.getMessage().contains("maxDepth=-1"), e.getMessage());
        assertEquals(List.of(), visited);
    }

    static final Relationship WATCH = Relationships.register("test.rel.Watch", o -> o.sparse().reverseIndex());
    static final Relationship HOLD = Relationships.register("test.rel.Hold",
            o -> o.sparse().exclusive().reverseIndex().cascadeDelete());

    @Test
    void aRowPublishedBeforeAFailureKeepsItsSparseEdges() {
        long target = world.spawn();
        world.newQuery(QueryDescriptor.builder().include(MARK).onEntitiesAdded((archetype, from, to) -> {
            throw new IllegalStateException("callback failed");
        }).build());
        assertThrows(IllegalStateException.class, () -> world.spawn(MARK, WATCH.to(target)));
        long[] sources = world.relationshipSources(WATCH, target);
        assertEquals(1, sources.length, "the published row's edge landed");
        assertTrue(world.has(sources[0], WATCH), "and its marker agrees");
        assertEquals(List.of(target), targets(sources[0], WATCH));
    }

    @Test
    void aCascadeCutShortByAFailureIsSettledByTheNextPublication() {
        long parent = world.spawn();
        long child = world.spawn(ChildOf.COMPONENT.to(parent));
        boolean[] failing = {true};
        world.observe(0, dev.jtecs.event.OnDespawn.class, event -> {
            if (event.entity() == child && failing[0]) {
                throw new IllegalStateException("cascade observer failed");
            }
        });
        assertThrows(IllegalStateException.class, () -> world.despawn(parent));
        assertFalse(world.isAlive(parent));
        assertTrue(world.isAlive(child), "the cascade was discarded with the failed publication");
        assertTrue(world.hasPendingChanges(), "its settlement waits for the next publication");
        failing[0] = false;
        world.unwind();
        assertFalse(world.isAlive(child), "unwind() ran it");
        assertFalse(world.hasPendingChanges());
    }

    @Test
    void anEdgeThatLandedOnADeadTargetIsSettledAfterAFailedCascade() {
        long target = world.spawn();
        boolean[] failing = {true};
        world.observe(0, dev.jtecs.event.OnDespawn.class, event -> {
            if (event.entity() != target && failing[0]) {
                throw new IllegalStateException("cascade observer failed");
            }
        });
        world.defer();
        world.despawn(target);
        long source = world.spawn(HOLD.to(target)); // its edge lands after its target died in the same wave
        assertThrows(IllegalStateException.class, world::commit);
        assertTrue(world.isAlive(source));
        assertTrue(world.hasPendingChanges());
        failing[0] = false;
        world.unwind();
        assertFalse(world.isAlive(source), "the cascade of a cascading edge to a dead target ran after all");
    }
}
