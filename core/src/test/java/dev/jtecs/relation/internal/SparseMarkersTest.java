package dev.jtecs.relation.internal;

import static dev.jtecs.relation.internal.RelationFixtures.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import dev.jtecs.builtin.ChildOf;
import dev.jtecs.component.Relationship;
import dev.jtecs.entity.Entity;
import dev.jtecs.query.Query;
import dev.jtecs.query.QueryDescriptor;
import dev.jtecs.storage.Archetype;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import dev.jtecs.mutation.BatchIds;
import dev.jtecs.world.World;

/** Sparse edges and their markers ({@link SparseMarkers} and the edge store), driven through the world. */
class SparseMarkersTest {
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

    /**
     * An instant {@code set} of a sparse edge to an entity that holds the relationship's marker already (a
     * reparenting, an extra target) is added at once ({@code CommitDrain.setSparseAtOnce}, {@code addAtOnce});
     * the world it leaves is the one the same call leaves in a scope of its own, whose publication flushes the
     * staged write and settles its marker. Random sparse edges of four relationships (many-target, exclusive,
     * cascading, {@code ChildOf}; each edge points at an entity spawned earlier, so cascades form no cycle), edge
     * removals and despawns, the same in both worlds (fixed seeds, named in each message); whole states compared.
     */
    @Test
    void anInstantSparseEdgeWriteLeavesTheWorldThatTheSameWriteInAScopeLeaves() {
        Relationship[] relationships = {LIKES, OWNER, HOLDS, ChildOf.COMPONENT};
        for (long seed = 1; seed <= 8; seed++) {
            java.util.Random random = new java.util.Random(seed);
            try (World instant = World.create(); World scoped = World.create()) {
                List<Long> alive = new ArrayList<>();
                for (int step = 0; step < 500; step++) {
                    String where = "seed " + seed + " step " + step;
                    int op = alive.size() < 2 ? 0 : random.nextInt(10);
                    if (op < 3) {
                        long id = instant.spawn();
                        assertEquals(id, scoped.spawn(), where);
                        alive.add(id);
                    } else if (op < 9) {
                        int a = random.nextInt(alive.size());
                        int b = random.nextInt(alive.size());
                        if (a == b) {
                            continue;
                        }
                        long source = alive.get(Math.max(a, b));
                        long target = alive.get(Math.min(a, b));
                        Relationship relationship = relationships[random.nextInt(relationships.length)];
                        boolean add = op < 8;
                        if (add) {
                            instant.set(source, relationship.to(target));
                        } else {
                            instant.remove(source, relationship.to(target));
                        }
                        scoped.defer();
                        if (add) {
                            scoped.set(source, relationship.to(target));
                        } else {
                            scoped.remove(source, relationship.to(target));
                        }
                        scoped.commit();
                    } else {
                        despawnInBoth(instant, scoped, alive.get(random.nextInt(alive.size())), alive, where);
                    }
                    assertFalse(instant.hasPendingChanges(), where);
                    assertSameStateEvery100(scoped, instant, step, where);
                }
            }
        }
    }

    /**
     * Sparse edge writes staged in scopes of several calls, mixed so that some take the short way (an edge to an
     * entity carrying the marker with nothing else staged: queued alone, and, once landed, not noted for the
     * settlement) and some the general one (first edges, removals, a removal of the relationship, a batch removal
     * from the entities showing the marker when it is called, despawns): after each commit every live entity
     * carries each marker exactly while it holds an edge of that relationship, and its edges are those a model of
     * the calls in call order holds. Fixed seeds; each message names the seed, the scope and its calls.
     */
    @Test
    void stagedEdgeWritesKeepEveryMarkerInStepWithTheEdgesAModelHolds() {
        Relationship[] relationships = {LIKES, OWNER};
        for (long seed = 1; seed <= 12; seed++) {
            java.util.Random random = new java.util.Random(seed);
            try (World w = World.create()) {
                Query liking = w.newQuery(QueryDescriptor.builder().include(LIKES).build());
                List<Long> alive = new ArrayList<>();
                java.util.Map<Long, java.util.Map<Relationship, java.util.TreeSet<Long>>> model =
                        new java.util.HashMap<>();
                for (int i = 0; i < 24; i++) {
                    alive.add(w.spawn());
                }
                for (int scope = 0; scope < 150; scope++) {
                    StringBuilder calls = new StringBuilder();
                    java.util.Set<Long> doomed = new java.util.HashSet<>();
                    w.defer();
                    int n = 1 + random.nextInt(6);
                    for (int c = 0; c < n; c++) {
                        long source = alive.get(random.nextInt(alive.size()));
                        long target = alive.get(random.nextInt(alive.size()));
                        Relationship relationship = relationships[random.nextInt(relationships.length)];
                        int op = random.nextInt(20);
                        calls.append(op).append(' ').append(relationship.name()).append(' ')
                                .append(Entity.toString(source)).append("->").append(Entity.toString(target))
                                .append("; ");
                        if (op == 0) {
                            // its members: the entities that published state shows with the marker now
                            for (long member : alive) {
                                if (w.has(member, LIKES) && model.containsKey(member)) {
                                    model.get(member).remove(LIKES);
                                }
                            }
                            w.batchRemove(liking, LIKES);
                            continue;
                        }
                        if (op == 1 && !doomed.contains(source)) {
                            w.despawn(source);
                            doomed.add(source);
                            model.remove(source);
                            continue;
                        }
                        if (doomed.contains(source) || source == target) {
                            continue;
                        }
                        java.util.Map<Relationship, java.util.TreeSet<Long>> edges =
                                model.computeIfAbsent(source, k -> new java.util.HashMap<>());
                        java.util.TreeSet<Long> held =
                                edges.computeIfAbsent(relationship, k -> new java.util.TreeSet<>());
                        if (op < 15) {
                            w.set(source, relationship.to(target));
                            if (relationship == OWNER) {
                                held.clear();
                            }
                            held.add(target);
                        } else if (op < 19) {
                            w.remove(source, relationship.to(target));
                            held.remove(target);
                        } else {
                            w.remove(source, relationship);
                            held.clear();
                        }
                    }
                    w.commit();
                    String where = "seed " + seed + " scope " + scope + " (op relationship source->target: " + calls
                            + ")";
                    assertFalse(w.hasPendingChanges(), where);
                    alive.removeAll(doomed);
                    while (alive.size() < 24) {
                        alive.add(w.spawn());
                    }
                    for (long id : alive) {
                        for (Relationship relationship : relationships) {
                            java.util.TreeSet<Long> expected = model.getOrDefault(id, java.util.Map.of())
                                    .getOrDefault(relationship, new java.util.TreeSet<>());
                            assertEquals(List.copyOf(expected), RelationFixtures.targets(w, id, relationship),
                                    where + ": " + Entity.toString(id) + " " + relationship.name());
                            assertEquals(!expected.isEmpty(), w.has(id, relationship),
                                    where + ": the marker of " + Entity.toString(id) + " " + relationship.name());
                        }
                    }
                }
            }
        }
    }

    /**
     * An edge to a dead target is refused, with the world unchanged, on the short ways too: the entity carries the
     * marker and nothing is staged for it, inside a scope and outside one.
     */
    @Test
    void anEdgeToADeadTargetIsRefusedOnTheShortWays() {
        long parent = world.spawn();
        long child = world.spawn(LIKES.to(parent));
        long dead = world.spawn();
        world.despawn(dead);
        String before = dump();
        IllegalArgumentException instant = assertThrows(IllegalArgumentException.class,
                () -> world.set(child, LIKES.to(dead)));
        assertTrue(instant.getMessage().contains("relationship target of test.rel.Likes"), instant.getMessage());
        world.defer();
        assertThrows(IllegalArgumentException.class, () -> world.set(child, LIKES.to(dead)));
        assertFalse(world.hasPendingChanges(), "nothing was queued");
        world.commit();
        assertEquals(before, dump());
        assertEquals(List.of(parent), targets(child, LIKES));
    }

    /**
     * An edge staged by a callback after the entity's last edge went but before the marker followed it (a batch's
     * writer, which runs after the flush; the marker is still published, so the edge is queued alone) lands in the
     * next wave, after the marker left: it is noted for the settlement, which brings the marker back.
     */
    @Test
    void anEdgeThatLandsAfterTheMarkerLeftBringsItBack() {
        long a = world.spawn();
        long x = world.spawn();
        long e = world.spawn(LIKES.to(a));
        world.spawn(MARK);
        Query marked = world.newQuery(QueryDescriptor.builder().include(MARK).build());
        world.defer();
        world.remove(e, LIKES.to(a)); // its last edge: the marker is to go, at the end of the wave
        world.batchSet(marked, LOYALTY, (archetype, from, to) -> {
            assertTrue(world.has(e, LIKES), "the marker is still published when the writer runs");
            assertEquals(List.of(), targets(e, LIKES), "the removal was flushed before the batch");
            world.set(e, LIKES.to(x));
        });
        world.commit();
        assertEquals(List.of(x), targets(e, LIKES));
        assertTrue(world.has(e, LIKES), "an edge and no marker: " + dump());
        assertFalse(world.hasPendingChanges());
    }

    /**
     * A reparenting outside any scope is published at once and leaves nothing to settle; the first edge of a
     * relationship, whose marker the entity lacks, still moves its row; a failed growth of the store (a parent's
     * list of children growing) leaves the world as it was.
     */
    @Test
    void aReparentingAtOnceLeavesNothingToSettleAndAFailedGrowthChangesNothing() {
        long first = world.spawn();
        long second = world.spawn();
        long child = world.spawn();
        Archetype before = world.archetypeOf(child);
        world.set(child, ChildOf.COMPONENT.to(first));
        assertTrue(world.archetypeOf(child) != before, "the first edge adds the marker: the row moved");
        world.set(child, ChildOf.COMPONENT.to(second));
        assertEquals(List.of(second), targets(child, ChildOf.COMPONENT));
        assertEquals(0, world.relationshipSources(ChildOf.COMPONENT, first).length);
        assertEquals(List.of(child), java.util.Arrays.stream(world.relationshipSources(ChildOf.COMPONENT, second))
                .boxed().toList());
        assertFalse(world.hasPendingChanges());
        long[] children = new long[200];
        for (int i = 0; i < children.length; i++) {
            children[i] = world.spawn(ChildOf.COMPONENT.to(first));
        }
        int failures = 0;
        for (long each : children) {
            for (int k = 1; ; k++) {
                String state = dev.jtecs.testing.WorldState.of(world);
                if (dev.jtecs.entity.internal.AllocationFaults.ENABLED) {
                    dev.jtecs.entity.internal.AllocationFaults.failAt(
                            dev.jtecs.entity.internal.AllocationFaults.Kind.HEAP, k);
                }
                try {
                    world.set(each, ChildOf.COMPONENT.to(second));
                } catch (OutOfMemoryError expected) {
                    failures++;
                    assertEquals(state, dev.jtecs.testing.WorldState.of(world), "allocation " + k);
                    continue;
                } finally {
                    if (dev.jtecs.entity.internal.AllocationFaults.ENABLED) {
                        dev.jtecs.entity.internal.AllocationFaults.disarm();
                    }
                }
                break;
            }
            assertEquals(List.of(second), targets(each, ChildOf.COMPONENT));
        }
        assertEquals(dev.jtecs.entity.internal.AllocationFaults.ENABLED, failures > 0, "growths were failed");
        assertEquals(201, world.relationshipSources(ChildOf.COMPONENT, second).length);
    }

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
        long child = world.spawn(childOf.to(held)); // sparse too (ChildOf is), cascading
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

    /**
     * Reparentings staged back to back to one parent (a run the store could take in one step) whose parent dies
     * before they land: the run is declined and each write lands on its own, so the cascade takes every child, as
     * one write's does (below).
     */
    @Test
    void aRunOfEdgesToATargetThatDiesBeforeTheyLandCascadesToo() {
        long first = world.spawn();
        long doomed = world.spawn();
        long[] children = new long[6];
        for (int i = 0; i < children.length; i++) {
            children[i] = world.spawn(HOLDS.to(first)); // the marker already: each set is queued alone
        }
        world.defer();
        world.despawn(doomed);
        for (long child : children) {
            world.set(child, HOLDS.to(doomed)); // alive at the call, dead when the run lands
        }
        world.commit();
        for (long child : children) {
            assertFalse(world.isAlive(child), Entity.toString(child) + " followed its dead parent: " + dump());
        }
        assertTrue(world.isAlive(first));
        assertEquals(0, world.relationshipSources(HOLDS, first).length);
    }

    /**
     * A run of reparentings longer than the notes' first room, whose store growth fails at each heap allocation in
     * turn: every failure is the injected one (the notes of the whole run had their room made first), and the
     * publication after it lands the run.
     */
    @Test
    void aLongRunWhoseGrowthFailsNotesEveryEntityInRoomMadeFirst() {
        long first = world.spawn();
        long[] children = new long[40];
        for (int i = 0; i < children.length; i++) {
            children[i] = world.spawn(ChildOf.COMPONENT.to(first));
        }
        long second = world.spawn(); // no list yet: the run's first growth is the new parent's list
        int failures = 0;
        for (int k = 1; ; k++) {
            world.defer();
            for (long child : children) {
                world.set(child, ChildOf.COMPONENT.to(second));
            }
            if (dev.jtecs.entity.internal.AllocationFaults.ENABLED) { // (the build's tests run with it)
                dev.jtecs.entity.internal.AllocationFaults.failAt(
                        dev.jtecs.entity.internal.AllocationFaults.Kind.HEAP, k);
            }
            try {
                world.commit();
            } catch (OutOfMemoryError expected) {
                failures++;
                continue;
            } finally {
                if (dev.jtecs.entity.internal.AllocationFaults.ENABLED) {
                    dev.jtecs.entity.internal.AllocationFaults.disarm();
                }
            }
            break;
        }
        assertEquals(dev.jtecs.entity.internal.AllocationFaults.ENABLED, failures > 0, "growths were failed");
        world.commit();
        assertEquals(children.length, world.relationshipSources(ChildOf.COMPONENT, second).length, dump());
        for (long child : children) {
            assertEquals(List.of(second), targets(child, ChildOf.COMPONENT));
        }
        assertFalse(world.hasPendingChanges());
    }

    /** More edge removals in one wave than the notes' first room: every entity noted, every marker gone. */
    @Test
    void aWaveOfManyRemovalsNotesEveryEntityAndTakesEveryMarker() {
        long parent = world.spawn();
        long[] children = new long[40];
        for (int i = 0; i < children.length; i++) {
            children[i] = world.spawn(HOLDS.to(parent));
        }
        world.defer();
        for (long child : children) {
            world.remove(child, HOLDS.to(parent)); // each queued alone: one note per landed removal
        }
        world.commit();
        for (long child : children) {
            assertFalse(world.has(child, HOLDS), Entity.toString(child) + ": " + dump());
        }
        assertEquals(0, world.relationshipSources(HOLDS, parent).length);
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

    /**
     * A wave that fails on a membership callback, and then runs out of heap while it settles the edges of the rows
     * it published: the failure's own clean-up still releases what the wave did not publish, and the next
     * publication brings every marker in step with the edges.
     */
    @Test
    void aWaveThatFailsAndThenRunsOutOfHeapInItsCleanUpStillReleasesEverything() {
        int injected = 0;
        for (int k = 1; k <= 8; k++) {
            try (World w = World.create()) {
                long target = w.spawn();
                int[] seen = {0};
                int armAt = k;
                w.newQuery(dev.jtecs.query.QueryDescriptor.builder().include(LIKES).onEntitiesAdded((a, f, t) -> {
                    if (seen[0]++ == 3) { // the fourth source published: the wave fails here
                        dev.jtecs.entity.internal.AllocationFaults.failAt(
                                dev.jtecs.entity.internal.AllocationFaults.Kind.HEAP, armAt);
                        throw new IllegalStateException("callback failed");
                    }
                }).build());
                long[] sources = new long[8];
                w.defer();
                for (int i = 0; i < sources.length; i++) {
                    sources[i] = w.spawn(LIKES.to(target));
                }
                try {
                    w.commit();
                    throw new AssertionError("the callback fails the wave");
                } catch (IllegalStateException expected) {
                    for (Throwable second : expected.getSuppressed()) {
                        injected += second instanceof OutOfMemoryError ? 1 : 0;
                    }
                } finally {
                    dev.jtecs.entity.internal.AllocationFaults.disarm();
                }
                w.unwind();
                assertFalse(w.hasPendingChanges(), "k=" + k + ": nothing of the failed wave stays staged");
                w.spawn(); // a further publication settles the markers
                for (long id : sources) {
                    if (w.isAlive(id)) {
                        List<Long> edges = RelationFixtures.targets(w, id, LIKES);
                        assertEquals(!edges.isEmpty(), w.has(id, LIKES), "k=" + k + " " + edges);
                    }
                }
                assertTrue(w.has(w.spawn(LIKES.to(target)), LIKES), "k=" + k + ": the world still works");
            }
        }
        assertEquals(dev.jtecs.entity.internal.AllocationFaults.ENABLED, injected > 0,
                "a clean-up ran out of heap at least once");
    }

    /**
     * A publication whose sparse flush runs out of heap at any point: after {@code unwind()} every entity carries
     * the relationship marker exactly while it holds an edge, the reverse index agrees, and each published entity
     * has the edges it was given (a write that failed once is retried for a published entity).
     */
    @Test
    void aSparseFlushThatRunsOutOfHeapLeavesNoMarkerWithoutItsEdge() {
        int injected = 0;
        for (int k = 1; k < 400; k++) {
            try (World w = World.create()) {
                long[] targets = new long[6];
                for (int i = 0; i < targets.length; i++) {
                    targets[i] = w.spawn();
                }
                long[] sources = new long[40];
                w.defer();
                for (int i = 0; i < sources.length; i++) {
                    sources[i] = w.spawn(LIKES.to(targets[i % 6]), LIKES.to(targets[(i * 5 + 1) % 6]));
                }
                dev.jtecs.testing.FaultAttempt.Outcome fault = RelationFixtures.commitFailingAtHeapGrowth(w, k);
                if (fault == dev.jtecs.testing.FaultAttempt.Outcome.LET_GO) {
                    continue; // the growth failed was let go and the commit went through: on to the next
                }
                if (fault == dev.jtecs.testing.FaultAttempt.Outcome.UNSPENT) {
                    assertTrue(injected > 0, "the flush allocates");
                    return;
                }
                injected++;
                w.unwind();
                for (int i = 0; i < sources.length; i++) {
                    long id = sources[i];
                    if (!w.isAlive(id)) {
                        continue; // discarded with the failed wave
                    }
                    List<Long> edges = RelationFixtures.targets(w, id, LIKES);
                    assertEquals(!edges.isEmpty(), w.has(id, LIKES), "k=" + k + " source " + i + " " + edges);
                    assertEquals(java.util.stream.Stream.of(targets[i % 6], targets[(i * 5 + 1) % 6]).distinct()
                            .sorted().toList(), edges, "k=" + k + ": a published source has its edges");
                    for (long target : edges) {
                        long[] back = w.relationshipSources(LIKES, target);
                        assertTrue(java.util.Arrays.stream(back).anyMatch(s -> s == id), "k=" + k + " reverse");
                    }
                }
                long fresh = w.spawn(LIKES.to(targets[0]));
                assertTrue(w.has(fresh, LIKES), "the world still works after k=" + k);
            }
        }
        throw new AssertionError("the commit kept failing");
    }

    /**
     * A batch that adds a sparse edge to a table of one row and runs out of heap in the edge's write: the row
     * moved into the marker's archetype before the write, so the failed write is remembered and, after
     * {@code unwind()}, the entity carries the marker exactly while it holds an edge.
     */
    @Test
    void aOneRowSparseBatchThatRunsOutOfHeapLeavesNoMarkerWithoutItsEdge() {
        sparseBatchRunningOutOfHeap(1, 100, true);
    }

    /**
     * A batch that adds a sparse edge to a table of rows and runs out of heap at any point: after {@code unwind()}
     * every entity carries the marker exactly while it holds an edge. The rows after the failing write moved with
     * the marker and got no edge: the batch notes them for the settlement (room made before its first write).
     */
    @Test
    void aSparseBatchThatRunsOutOfHeapLeavesNoMarkerWithoutItsEdge() {
        sparseBatchRunningOutOfHeap(40, 400, false);
    }

    /**
     * Fails the {@code k}-th heap growth of a batch giving {@code rows} marked entities a sparse edge, for every
     * {@code k} below {@code maxK} until the batch runs through; after each failure and {@code unwind()}, every entity
     * has the marker exactly while it holds an edge (and, when {@code nothingPending}, nothing is left staged).
     */
    private static void sparseBatchRunningOutOfHeap(int rows, int maxK, boolean nothingPending) {
        int injected = 0;
        for (int k = 1; k < maxK; k++) {
            try (World w = World.create()) {
                long target = w.spawn();
                long[] sources = new long[rows];
                for (int i = 0; i < sources.length; i++) {
                    sources[i] = w.spawn(MARK);
                }
                Query marked = w.newQuery(QueryDescriptor.builder().include(MARK).build());
                w.defer();
                w.batchSet(marked, LIKES.to(target));
                dev.jtecs.testing.FaultAttempt.Outcome fault = RelationFixtures.commitFailingAtHeapGrowth(w, k);
                if (fault == dev.jtecs.testing.FaultAttempt.Outcome.LET_GO) {
                    continue; // the growth failed was let go and the commit went through: on to the next
                }
                if (fault == dev.jtecs.testing.FaultAttempt.Outcome.UNSPENT) {
                    assertTrue(injected > 0, "the batch allocates");
                    return;
                }
                injected++;
                w.unwind();
                for (int i = 0; i < sources.length; i++) {
                    List<Long> edges = RelationFixtures.targets(w, sources[i], LIKES);
                    assertEquals(!edges.isEmpty(), w.has(sources[i], LIKES), "k=" + k + " source " + i + " " + edges);
                }
                if (nothingPending) {
                    assertFalse(w.hasPendingChanges(), "k=" + k);
                }
            }
        }
        throw new AssertionError("the commit kept failing");
    }
}
