package dev.jtecs.relation.internal;

import static dev.jtecs.relation.internal.RelationFixtures.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import dev.jtecs.builtin.ChildOf;
import dev.jtecs.component.Relationship;
import dev.jtecs.component.Relationships;
import dev.jtecs.entity.Entity;
import dev.jtecs.query.Query;
import dev.jtecs.query.QueryDescriptor;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import dev.jtecs.mutation.BatchIds;
import dev.jtecs.world.World;

/** What a dying target does to its edges ({@link Settlement}): removal, cascades, and what failed publications leave to the next one; driven through the world. */
class SettlementTest {
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
     * An instant despawn of an entity no edge involves skips the settlement and the publication around it
     * ({@code CommitDrain.despawnUnheard}); one that holds an edge or is named by one takes the publication, whose
     * settlement removes the edges pointing at it and despawns a cascading subtree. The twin world has an observer
     * on every archetype, so all its despawns take the publication; both take the same random spawns, edges (dense,
     * sparse, cascading) and despawns (fixed seeds, named in each message) and their whole states stay equal, but
     * for structure versions: a cascade the unheard world despawns at once empties a table in one truncation, where
     * the heard one removes the rows one at a time.
     */
    @Test
    void despawnsTheSettlementNeedNotHearLeaveTheWorldThatHearingThemLeaves() {
        Relationship[] relationships = {FOLLOWS, PARENT, KNOWS, LIKES, HOLDS, dev.jtecs.builtin.ChildOf.COMPONENT};
        for (long seed = 1; seed <= 8; seed++) {
            java.util.Random random = new java.util.Random(seed);
            try (World unheard = World.create(); World heard = World.create()) {
                dev.jtecs.storage.EntityObserver listener = new dev.jtecs.storage.EntityObserver() { };
                heard.observe(dev.jtecs.entity.Entity.WORLD, dev.jtecs.event.ArchetypeCreated.class,
                        event -> event.archetype().addEntityObserver(listener));
                List<Long> alive = new java.util.ArrayList<>();
                for (int step = 0; step < 500; step++) {
                    int op = alive.isEmpty() ? 0 : random.nextInt(10);
                    String where = "seed " + seed + " step " + step;
                    if (op < 4) {
                        dev.jtecs.component.Input[] shape = random.nextBoolean()
                                ? new dev.jtecs.component.Input[] {MARK} : new dev.jtecs.component.Input[0];
                        long id = unheard.spawn(shape);
                        assertEquals(id, heard.spawn(shape), where);
                        alive.add(id);
                    } else if (op < 6) {
                        // an edge points at an entity spawned earlier: cascading edges can form no cycle
                        int a = random.nextInt(alive.size());
                        int b = random.nextInt(alive.size());
                        if (a != b) {
                            long source = alive.get(Math.max(a, b));
                            long target = alive.get(Math.min(a, b));
                            Relationship relationship = relationships[random.nextInt(relationships.length)];
                            unheard.set(source, relationship.to(target));
                            heard.set(source, relationship.to(target));
                        }
                    } else {
                        despawnInBoth(unheard, heard, alive.get(random.nextInt(alive.size())), alive, where);
                    }
                    if (step % 100 == 99) {
                        assertEquals(unversioned(heard), unversioned(unheard), where);
                    }
                }
            }
        }
    }

    /**
     * A silent cascade through {@code ChildOf} alone, with nothing else staged, despawns its subtree at once
     * ({@code Settlement.despawnAtOnce}) instead of staging it for the next wave. The twin world has an entity
     * observer on every archetype, so its cascades stage their despawns as before. Both take the same random trees
     * (children with and without a tag, so a subtree spans tables it empties and tables it leaves rows in),
     * reparentings, sparse edges of two other relationships to anyone and of a second cascading one to older ids,
     * pairs of two dense relationships to anyone (a subtree that a pair or a cascading edge points into, or whose
     * tables hold a pair, is staged; one elsewhere in the world changes nothing), instant despawns, and scopes that
     * despawn beside other work; their whole states, and the ids their spawns get (the free list's order), stay equal
     * (fixed seeds, named in each message).
     */
    @Test
    void aSubtreeDespawnedAtOnceLeavesWhatItsStagedDespawnsLeave() {
        Relationship childOf = ChildOf.COMPONENT;
        for (long seed = 1; seed <= 6; seed++) {
            java.util.Random random = new java.util.Random(seed);
            try (World atOnce = World.create(); World staged = World.create()) {
                dev.jtecs.storage.EntityObserver listener = new dev.jtecs.storage.EntityObserver() { };
                staged.observe(Entity.WORLD, dev.jtecs.event.ArchetypeCreated.class,
                        event -> event.archetype().addEntityObserver(listener));
                List<Long> alive = new ArrayList<>();
                for (int step = 0; step < 600; step++) {
                    String where = "seed " + seed + " step " + step;
                    int op = alive.isEmpty() ? 0 : random.nextInt(16);
                    long first = alive.isEmpty() ? 0 : alive.get(random.nextInt(alive.size()));
                    long second = alive.isEmpty() ? 0 : alive.get(random.nextInt(alive.size()));
                    long older = Math.min(first, second); // edges of ChildOf point at older ids: no cycle
                    long younger = Math.max(first, second);
                    if (op < 6) { // a spawn, mostly under a parent
                        List<dev.jtecs.component.Input> shape = new ArrayList<>();
                        if (random.nextBoolean()) {
                            shape.add(MARK);
                        }
                        if (!alive.isEmpty() && random.nextInt(5) != 0) {
                            shape.add(childOf.to(first));
                        }
                        dev.jtecs.component.Input[] inputs = shape.toArray(dev.jtecs.component.Input[]::new);
                        long id = atOnce.spawn(inputs);
                        assertEquals(id, staged.spawn(inputs), where);
                        alive.add(id);
                    } else if (op < 7 && older != younger) { // a reparenting
                        atOnce.set(younger, childOf.to(older));
                        staged.set(younger, childOf.to(older));
                    } else if (op < 9 && first != second) { // another sparse relationship's edge, either way
                        Relationship other = op == 7 ? LIKES : random.nextBoolean() ? OWNER : HOLDS;
                        long source = other == HOLDS ? younger : first; // a cascading edge: to an older id too
                        long target = other == HOLDS ? older : second;
                        atOnce.set(source, other.to(target));
                        staged.set(source, other.to(target));
                    } else if (op < 12) {
                        despawnInBoth(atOnce, staged, first, alive, where);
                    } else if (op >= 14) { // a pair, either way: a dense edge, exclusive or with a reverse index
                        Relationship dense = op == 14 ? PARENT : KNOWS;
                        atOnce.set(first, dense.to(second));
                        staged.set(first, dense.to(second));
                    } else { // a scope: a despawn beside other work, which stages the cascade in both worlds
                        boolean tag = op == 12;
                        for (World world : List.of(atOnce, staged)) {
                            world.defer();
                            world.despawn(first);
                            if (tag) {
                                world.set(second, MARK);
                            } else {
                                world.despawn(second);
                            }
                            world.commit();
                        }
                        alive.removeIf(each -> !atOnce.isAlive(each));
                        for (long each : alive) {
                            assertTrue(staged.isAlive(each), where);
                        }
                    }
                    if (step % 50 == 49) {
                        assertEquals(unversioned(staged), unversioned(atOnce), where);
                    }
                }
            }
        }
    }

    /**
     * A world's whole state without its structure versions: those count structural changes, and a despawn one
     * row at a time (the staged path of an observed table) makes more of them than one truncation.
     */
    private static String unversioned(World world) {
        return dev.jtecs.testing.WorldState.of(world).replaceAll("structur(e|al)=\\d+", "structur$1=_");
    }

    /**
     * The at-once despawn is taken exactly where nothing could tell it from the staged one: a silent cascade
     * through a cascading sparse relationship, with nothing else staged, no entity observer on the subtree's
     * tables, no pair in them or pointing at a member, and no edge of another cascading sparse relationship pointing
     * at a member (pairs and such edges elsewhere in the world do not matter). A relations layer over a model of its
     * own, as the world builds them, so its count can be read.
     */
    @Test
    void onlyASilentUnobservedCascadeWithNothingStagedIsDespawnedAtOnce() {
        try (RelationFixtures.Layer layer = new RelationFixtures.Layer(5000)) {
            Relations relations = layer.relations;
            dev.jtecs.mutation.internal.MutationModel model = layer.model;
            dev.jtecs.entity.internal.EntityIndex index = layer.index;
            java.util.function.LongFunction<long[]> tree = root -> { // a root, 3 children, 9 grandchildren
                long[] ids = new long[13];
                ids[0] = root;
                for (int i = 1; i < ids.length; i++) {
                    ids[i] = model.spawn(new dev.jtecs.component.Input[] {ChildOf.COMPONENT.to(ids[(i - 1) / 3])});
                }
                return ids;
            };
            long[] first = tree.apply(model.spawn(new dev.jtecs.component.Input[] {MARK}));
            model.despawn(first[0]);
            assertEquals(1, relations.subtreesDespawnedAtOnce());
            for (long id : first) {
                assertFalse(index.isAlive(id));
            }

            long[] scoped = tree.apply(model.spawn(new dev.jtecs.component.Input[] {MARK}));
            long bystander = model.spawn(new dev.jtecs.component.Input[] {MARK});
            model.scopes().defer();
            model.despawn(scoped[0]);
            model.set(bystander, LIKES.to(scoped[1])); // other work staged beside it: the subtree is staged
            model.scopes().commit();
            assertEquals(1, relations.subtreesDespawnedAtOnce());
            for (long id : scoped) {
                assertFalse(index.isAlive(id));
            }

            long[] alone = tree.apply(model.spawn(new dev.jtecs.component.Input[] {MARK}));
            model.scopes().defer();
            model.despawn(alone[0]); // a scope with nothing else staged: at once
            model.scopes().commit();
            assertEquals(2, relations.subtreesDespawnedAtOnce());

            long[] paired = tree.apply(model.spawn(new dev.jtecs.component.Input[] {MARK}));
            long fan = model.spawn(new dev.jtecs.component.Input[] {KNOWS.to(bystander)}); // pairs elsewhere
            model.despawn(paired[0]); // the world holds a pair, but none names the subtree: at once
            assertEquals(3, relations.subtreesDespawnedAtOnce());
            long[] named = tree.apply(model.spawn(new dev.jtecs.component.Input[] {MARK}));
            model.set(fan, KNOWS.to(named[5])); // a pair points at a member: staged, so the pair is settled
            model.despawn(named[0]);
            assertEquals(3, relations.subtreesDespawnedAtOnce());
            assertTrue(index.isAlive(fan));
            dev.jtecs.storage.internal.PairRegistry pairs = layer.registry.pairs();
            assertTrue(layer.tableOf(fan).position(pairs.find(KNOWS, named[5]).id()) < 0, "the pair to the member");
            assertTrue(layer.tableOf(fan).position(pairs.find(KNOWS, bystander).id()) >= 0, "the pair elsewhere");
            long[] holding = tree.apply(model.spawn(new dev.jtecs.component.Input[] {MARK}));
            model.set(holding[7], PARENT.to(bystander)); // a member holds a pair: its table has pairs, staged
            model.despawn(holding[0]);
            assertEquals(3, relations.subtreesDespawnedAtOnce());
            for (long[] ids : List.of(paired, named, holding)) {
                for (long id : ids) {
                    assertFalse(index.isAlive(id));
                }
            }

            // a second cascading sparse relationship: its edges elsewhere in the world change nothing, but an edge of
            // it to a member stages the subtree, so the member's despawn takes its holder along
            long keep = model.spawn(new dev.jtecs.component.Input[] {MARK});
            long kept = model.spawn(new dev.jtecs.component.Input[] {HOLDS.to(keep)});
            long[] beside = tree.apply(model.spawn(new dev.jtecs.component.Input[] {MARK}));
            model.despawn(beside[0]);
            assertEquals(4, relations.subtreesDespawnedAtOnce());
            long[] held = tree.apply(model.spawn(new dev.jtecs.component.Input[] {MARK}));
            long holder = model.spawn(new dev.jtecs.component.Input[] {HOLDS.to(held[4])});
            model.despawn(held[0]);
            assertEquals(4, relations.subtreesDespawnedAtOnce());
            assertFalse(index.isAlive(holder), "the holder of a member went with it");
            for (long[] ids : List.of(beside, held)) {
                for (long id : ids) {
                    assertFalse(index.isAlive(id));
                }
            }
            assertTrue(index.isAlive(keep) && index.isAlive(kept), "the edge elsewhere, and both its ends");

            long[] watched = tree.apply(model.spawn(new dev.jtecs.component.Input[] {MARK}));
            dev.jtecs.storage.EntityObserver listener = new dev.jtecs.storage.EntityObserver() { };
            dev.jtecs.storage.internal.Table children = layer.tableOf(watched[1]);
            children.addObserver(listener);
            model.despawn(watched[0]); // the children's table is observed: staged, so the observer hears it
            assertEquals(4, relations.subtreesDespawnedAtOnce());
            for (long id : watched) {
                assertFalse(index.isAlive(id));
            }
            assertTrue(children.removeObserver(listener));
            for (int i = 0; i < 2100; i++) { // slots far past the reverse index's cells for so few targets
                model.spawn(new dev.jtecs.component.Input[] {MARK});
            }
            long[] far = tree.apply(model.spawn(new dev.jtecs.component.Input[] {MARK}));
            model.despawn(far[0]); // the root's list is kept beside the cells: staged, all the same
            assertEquals(4, relations.subtreesDespawnedAtOnce());
            for (long id : far) {
                assertFalse(index.isAlive(id));
            }
            // a member's list beside the cells, below a root whose list sits in its cell: the level that meets it
            // refuses the walk, and the subtree is staged all the same
            long child = model.spawn(new dev.jtecs.component.Input[] {ChildOf.COMPONENT.to(bystander)}); // far slot
            long grandchild = model.spawn(new dev.jtecs.component.Input[] {ChildOf.COMPONENT.to(child)});
            assertTrue(dev.jtecs.entity.Entity.slot(bystander) < 100 && dev.jtecs.entity.Entity.slot(child) > 2000,
                    "the root in a low slot, its child in a far one");
            model.despawn(bystander);
            assertEquals(4, relations.subtreesDespawnedAtOnce());
            for (long id : new long[] {bystander, child, grandchild}) {
                assertFalse(index.isAlive(id));
            }
        }
    }

    /**
     * Where each of {@code ids} but the first, and {@code outsider}, has its row: archetype, row, and the entity the
     * row holds. Read without publishing (a read that opens a scope would publish what a failure left to settle).
     */
    private static List<String> rowsOf(World w, long[] ids, long outsider) {
        List<String> rows = new ArrayList<>();
        for (int i = 1; i <= ids.length; i++) {
            long id = i < ids.length ? ids[i] : outsider;
            dev.jtecs.storage.Archetype archetype = w.archetypeOf(id);
            int row = w.rowOf(id);
            rows.add(archetype.components() + "@" + row + "=" + Entity.toString(archetype.entity(row)));
        }
        return rows;
    }

    /**
     * An at-once despawn of a subtree that runs out of heap at any growth changes nothing but the root's own
     * despawn, published before: every member alive in its table, each list of sources back in the reverse index
     * as it was, and the next publication despawns the subtree.
     */
    @Test
    void aSubtreeDespawnedAtOnceThatRunsOutOfHeapAnywhereKeepsEveryEdge() {
        org.junit.jupiter.api.Assumptions.assumeTrue(dev.jtecs.entity.internal.AllocationFaults.ENABLED,
                "needs -Djtecs.allocationFaults=true (set by the build)");
        Relationship childOf = ChildOf.COMPONENT;
        int injected = 0;
        int kept = 0; // failures that left the subtree alive
        for (int k = 1; k < 400; k++) {
            try (World w = World.create()) {
                long[] ids = new long[300];
                ids[0] = w.spawn();
                for (int i = 1; i < ids.length; i++) { // fan-out 4, half the children tagged: two tables
                    ids[i] = i % 2 == 0 ? w.spawn(childOf.to(ids[(i - 1) / 4]), MARK)
                            : w.spawn(childOf.to(ids[(i - 1) / 4]));
                }
                long liker = w.spawn(LIKES.to(ids[7]));
                long other = w.spawn(MARK);
                long outsider = w.spawn(childOf.to(other)); // shares the members' table: rows are swap-removed
                List<String> sources = new ArrayList<>();
                for (long id : ids) {
                    sources.add(java.util.Arrays.toString(w.relationshipSources(childOf, id)));
                }
                String before = RelationFixtures.dump(w);
                List<String> rows = rowsOf(w, ids, outsider);
                dev.jtecs.testing.FaultAttempt.Outcome fault = dev.jtecs.testing.FaultAttempt.run(
                        dev.jtecs.entity.internal.AllocationFaults.Kind.HEAP, k, () -> w.despawn(ids[0]));
                if (fault == dev.jtecs.testing.FaultAttempt.Outcome.UNSPENT) {
                    assertTrue(kept >= 3, "growths of the subtree's despawn were failed: " + kept + " of "
                            + injected);
                    for (long id : ids) {
                        assertFalse(w.isAlive(id), "k=" + k);
                    }
                    return;
                }
                if (fault == dev.jtecs.testing.FaultAttempt.Outcome.LET_GO) {
                    continue;
                }
                injected++;
                if (w.isAlive(ids[0])) {
                    assertEquals(before, RelationFixtures.dump(w), "k=" + k + ": failed before anything published");
                    w.despawn(ids[0]); // the call failed whole: made again
                } else if (w.isAlive(ids[1])) { // the subtree's despawn failed: all of it stays, edges and all
                    kept++;
                    assertEquals(rows, rowsOf(w, ids, outsider), "k=" + k + ": every row where it was");
                    for (int i = 1; i < ids.length; i++) {
                        assertTrue(w.isAlive(ids[i]), "k=" + k + " member " + i);
                        assertEquals(sources.get(i), java.util.Arrays.toString(w.relationshipSources(childOf,
                                ids[i])), "k=" + k + " member " + i + "'s sources");
                    }
                    assertEquals(List.of(ids[7]), RelationFixtures.targets(w, liker, LIKES));
                    w.unwind(); // the next publication settles what the failed one left
                }
                for (long id : ids) {
                    assertFalse(w.isAlive(id), "k=" + k);
                }
                assertTrue(w.isAlive(liker));
                assertEquals(List.of(other), RelationFixtures.targets(w, outsider, childOf));
            }
        }
        throw new AssertionError("the despawn kept failing");
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
    void aCascadingSparseEdgeThatLandedOnADeadTargetFollowsItEvenWhenTheWaveFails() {
        Query marked = world.newQuery(QueryDescriptor.builder().include(MARK).build());
        long target = world.spawn();
        world.spawn(MARK);
        world.defer();
        world.despawn(target);
        long source = world.spawn(HOLD.to(target)); // its cascading sparse edge lands after the target died
        world.batchSet(marked, LOYALTY, (archetype, fromRow, toRow) -> {
            throw new IllegalStateException("boom"); // fails the wave before its end settles the landed edge
        });
        assertThrows(IllegalStateException.class, world::commit);
        assertTrue(world.isAlive(source), "published before the failure");
        world.unwind();
        assertFalse(world.isAlive(source), "no source outlives its cascading target: " + dump());
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

    static final Relationship DENSE_HOLD = Relationships.register("test.rel.DenseHold",
            o -> o.exclusive().reverseIndex().cascadeDelete());

    @Test
    void aDenseCascadingRelationshipTakesTheWholeSubtree() {
        long root = world.spawn();
        long child = world.spawn(DENSE_HOLD.to(root));
        long grandchild = world.spawn(DENSE_HOLD.to(child), MARK);
        long fan = world.spawn(FOLLOWS.to(child));
        world.despawn(root);
        assertFalse(world.isAlive(child));
        assertFalse(world.isAlive(grandchild));
        assertTrue(world.isAlive(fan), "a non-cascading edge only goes");
        assertFalse(world.has(fan, FOLLOWS));
    }

    @Test
    void aSparseCascadeGoesOnThroughDenseCascadingEdgesAtOnceSoALaterDetachIsTooLate() {
        long root = world.spawn();
        long held = world.spawn(HOLDS.to(root)); // sparse, cascading
        long child = world.spawn(DENSE_HOLD.to(held)); // dense, cascading
        Query holding = world.newQuery(QueryDescriptor.builder().include(DENSE_HOLD).build());
        world.defer();
        world.despawn(root);
        world.batchRemove(holding, DENSE_HOLD); // detaches child after the despawn, across a query batch
        world.commit();
        assertFalse(world.isAlive(held));
        assertFalse(world.isAlive(child), "taken by the cascade before the later call detached it: " + dump());
    }

    /**
     * A cascading sparse edge staged to a target whose despawn is staged before it lands on a dead target, and its
     * source goes the way of that target; the source's own subtree (a sparse child, and a dense one below that)
     * goes in the same step, so a later call of the scope that detaches the child (across a query batch) is too
     * late, as it is for a child of a target that dies. Found by the long model run, seed 11132153.
     */
    @Test
    void aSourceWhoseEdgeLandedOnADeadTargetTakesItsSubtreeAtOnce() {
        long source = world.spawn();
        long child = world.spawn(HOLDS.to(source)); // sparse, cascading
        long grandchild = world.spawn(DENSE_HOLD.to(child)); // dense, cascading
        long bystander = world.spawn(HOLDS.to(world.spawn()));
        landOnADeadTargetThenDetach(source, HOLDS); // the batch's members at the call: child and bystander
        assertFalse(world.isAlive(source), dump());
        assertFalse(world.isAlive(child), "taken with its parent before the batch detached it: " + dump());
        assertFalse(world.isAlive(grandchild), dump());
        assertTrue(world.isAlive(bystander));
        assertFalse(world.has(bystander, HOLDS), "the batch detached the others");
    }

    /** As above, for a dense cascading edge straight to the source: its holder goes in the same step too. */
    @Test
    void aSourceWhoseEdgeLandedOnADeadTargetTakesItsDenseChildrenAtOnce() {
        long source = world.spawn();
        long denseChild = world.spawn(DENSE_HOLD.to(source)); // dense, cascading, straight below the source
        long bystander = world.spawn(DENSE_HOLD.to(world.spawn()));
        landOnADeadTargetThenDetach(source, DENSE_HOLD); // the batch's members at the call: denseChild, bystander
        assertFalse(world.isAlive(source), dump());
        assertFalse(world.isAlive(denseChild), "taken with its parent before the batch detached it: " + dump());
        assertTrue(world.isAlive(bystander));
        assertFalse(world.has(bystander, DENSE_HOLD), "the batch detached the others");
    }

    /**
     * One scope, committed: a target despawned, then {@code source}'s {@code HOLDS} edge set to it (alive at the
     * call, dead when the edge lands), then a query batch detaching every holder of {@code detached}.
     */
    private void landOnADeadTargetThenDetach(long source, Relationship detached) {
        long doomed = world.spawn();
        Query holding = world.newQuery(QueryDescriptor.builder().include(detached).build());
        world.defer();
        world.despawn(doomed);
        world.set(source, HOLDS.to(doomed));
        world.batchRemove(holding, detached);
        world.commit();
    }

    @Test
    void anEntityReachedThroughTwoCascadingRelationshipsIsDespawnedOnce() {
        Relationship childOf = ChildOf.COMPONENT;
        long root = world.spawn();
        long twoSparse = world.spawn(HOLDS.to(root), childOf.to(root));
        long sparseAndDense = world.spawn(childOf.to(root), DENSE_HOLD.to(root));
        long below = world.spawn(HOLDS.to(twoSparse));
        long plain = world.spawn(childOf.to(root));
        long bystander = world.spawn();
        world.despawn(root);
        for (long id : new long[] {root, twoSparse, sparseAndDense, below, plain}) {
            assertFalse(world.isAlive(id), Entity.toString(id) + ": " + dump());
        }
        assertEquals(1, world.entityCount(), dump());
        assertTrue(world.isAlive(bystander));
        assertFalse(world.hasPendingChanges());
        try (World w = World.create()) { // ChildOf the one sparse cascading relationship, a dense one beside it
            long top = w.spawn();
            long middle = w.spawn(childOf.to(top));
            long twice = w.spawn(childOf.to(middle), DENSE_HOLD.to(middle)); // in one walk through both
            w.despawn(top);
            assertFalse(w.isAlive(twice));
            assertEquals(0, w.entityCount());
        }
    }

    /**
     * A parent with more children than the cascade's first room for its walk, sparse and dense: the walk makes
     * room as it copies each family, and every child goes.
     */
    @Test
    void aFamilyLargerThanTheWalksFirstRoomIsTakenWhole() {
        for (Relationship relationship : List.of(HOLDS, DENSE_HOLD)) {
            try (World w = World.create()) {
                long root = w.spawn();
                long[] children = new long[300];
                for (int i = 0; i < children.length; i++) {
                    children[i] = w.spawn(relationship.to(root));
                }
                long grandchild = w.spawn(relationship.to(children[children.length - 1]));
                w.despawn(root);
                assertEquals(0, w.entityCount(), relationship.name());
                assertFalse(w.isAlive(grandchild));
            }
        }
    }

    @Test
    void aCascadeFollowsEveryCascadingSparseRelationshipHoweverMany() {
        long root = world.spawn();
        List<Long> sources = new ArrayList<>();
        for (int i = 0; i < 6; i++) { // more than the cascade's first room for four relationships
            Relationship hold = Relationships.register("test.rel.ManyHold" + i,
                    o -> o.sparse().exclusive().reverseIndex().cascadeDelete());
            long source = world.spawn(hold.to(root));
            sources.add(source);
            sources.add(world.spawn(hold.to(source)));
        }
        world.despawn(root);
        for (long source : sources) {
            assertFalse(world.isAlive(source), Entity.toString(source) + ": " + dump());
        }
        assertEquals(0, world.entityCount());
    }

    @Test
    void aCycleOfCascadingEdgesUnderADyingTargetIsDespawnedOnceAndTheCascadeEnds() {
        Relationship childOf = ChildOf.COMPONENT;
        long root = world.spawn();
        long a = world.spawn(HOLDS.to(root));
        long b = world.spawn(childOf.to(a));
        world.set(a, childOf.to(b)); // a and b hold each other through ChildOf
        List<Long> despawned = new ArrayList<>();
        world.observe(Entity.WORLD, dev.jtecs.event.OnDespawn.class, e -> despawned.add(e.entity()));
        world.despawn(root);
        assertEquals(List.of(root, a, b), despawned, "once each");
        assertEquals(0, world.entityCount());
    }

    @Test
    void sixteenTargetsDyingTogetherAllLoseTheirEdgesEvenAfterAFailedPublication() {
        Relationship childOf = ChildOf.COMPONENT;
        for (int n : new int[] {15, 16, 17}) {
            try (World w = World.create()) {
                long[] targets = new long[n];
                long[] fans = new long[n];
                for (int i = 0; i < n; i++) {
                    targets[i] = w.spawn();
                    fans[i] = w.spawn(FOLLOWS.to(targets[i]));
                }
                w.defer();
                for (long target : targets) {
                    w.despawn(target);
                }
                w.commit();
                for (long fan : fans) {
                    assertTrue(w.isAlive(fan));
                    assertFalse(w.has(fan, FOLLOWS), n + " targets: " + RelationFixtures.dump(w));
                }

                Query marked = w.newQuery(QueryDescriptor.builder().include(MARK).build());
                long[] parents = new long[n];
                long[] children = new long[n];
                for (int i = 0; i < n; i++) {
                    parents[i] = w.spawn();
                    children[i] = w.spawn(childOf.to(parents[i]), MARK);
                }
                w.defer();
                for (long parent : parents) {
                    w.despawn(parent);
                }
                w.batchSet(marked, LOYALTY, (archetype, fromRow, toRow) -> {
                    throw new IllegalStateException("boom"); // discards the cascades the settlements staged
                });
                IllegalStateException e = assertThrows(IllegalStateException.class, w::commit);
                assertEquals("boom", e.getMessage());
                for (int i = 0; i < n; i++) {
                    assertFalse(w.isAlive(parents[i]));
                    assertTrue(w.isAlive(children[i]), "its cascade was discarded");
                }
                w.spawn(); // the next publication settles every dead parent again
                for (long child : children) {
                    assertFalse(w.isAlive(child), n + " parents: " + RelationFixtures.dump(w));
                }
            }
        }
    }

    @Test
    void aTargetInAnySlotLosesItsEdgesAcrossTheGrowthOfThePerSlotStamps() {
        for (int slot : new int[] {63, 64, 65, 130, 300}) {
            try (World w = World.create()) {
                long target;
                do {
                    target = w.spawn();
                } while (Entity.slot(target) < slot);
                assertEquals(slot, Entity.slot(target));
                long fan = w.spawn(FOLLOWS.to(target));
                long child = w.spawn(HOLDS.to(target));
                w.despawn(target);
                assertFalse(w.has(fan, FOLLOWS), "slot " + slot);
                assertFalse(w.isAlive(child), "slot " + slot);
            }
        }
    }

    /** Found by the model sweep (seed 8282657498379059715) with the placement's check taken out. */
    @Test
    void anEdgePlacedInALaterSegmentThanItsTargetsDeathDoesNotOutliveIt() {
        Query marked = world.newQuery(QueryDescriptor.builder().include(MARK).build());
        long target = world.spawn(MARK);
        long fan = world.spawn();
        world.defer();
        world.batchDespawn(marked); // a query batch: the target dies in a segment of its own...
        world.set(fan, FOLLOWS.to(target)); // ...before this row is placed with an edge to it (alive at the call)
        BatchIds spawned = world.batchSpawn(2, List.of(FOLLOWS.to(target)));
        world.commit();
        assertFalse(world.isAlive(target));
        assertTrue(world.isAlive(fan));
        assertFalse(world.has(fan, FOLLOWS), dump());
        for (int i = 0; i < 2; i++) {
            assertTrue(world.isAlive(spawned.get(i)));
            assertFalse(world.has(spawned.get(i), FOLLOWS), dump());
        }
    }

    @Test
    void aSourceWhoseCascadingEdgeLandedOnADeadTargetAndWasThenDetachedInTheSameFlushIsSpared() {
        long keeper = world.spawn();
        long detached = world.spawn(HOLDS.to(keeper));
        world.defer();
        long gone = world.spawn();
        world.despawn(gone);
        world.set(detached, HOLDS.to(gone)); // lands on a dead target...
        world.remove(detached, HOLDS); // ...and a later call of the same flush leaves it no edge at all
        world.commit();
        assertTrue(world.isAlive(detached), "no edge left, nothing to follow: " + dump());
        assertEquals(List.of(), targets(detached, HOLDS));
        assertFalse(world.has(detached, HOLDS), "the marker went with the last edge");
    }

    /**
     * A commit that runs out of heap at any point while forty targets in high slots die: once unwound and
     * published again, every dead target has lost its incoming edges and every live one kept them. The room
     * to note the dead targets is made before the first one dies ({@code prepareDespawns}), all of it (more than
     * twice the first 16 noted targets, slots beyond twice the first 64 stamps), so a failure there leaves no
     * target dead and un-noted.
     */
    @Test
    void aDespawnOfManyTargetsThatRunsOutOfHeapAnywhereLeavesNoEdgeToADeadTarget() {
        org.junit.jupiter.api.Assumptions.assumeTrue(dev.jtecs.entity.internal.AllocationFaults.ENABLED,
                "needs -Djtecs.allocationFaults=true (set by the build)");
        int injected = 0;
        for (int k = 1; k < 400; k++) {
            try (World w = World.create()) {
                for (int i = 0; i < 150; i++) {
                    w.spawn(); // the targets' slots lie beyond twice the first 64 per-slot stamps
                }
                long[] targets = new long[40];
                long[] fans = new long[40];
                for (int i = 0; i < targets.length; i++) {
                    targets[i] = w.spawn();
                    fans[i] = w.spawn(FOLLOWS.to(targets[i]));
                }
                w.defer();
                for (long target : targets) {
                    w.despawn(target);
                }
                dev.jtecs.testing.FaultAttempt.Outcome fault = RelationFixtures.commitFailingAtHeapGrowth(w, k);
                if (fault == dev.jtecs.testing.FaultAttempt.Outcome.LET_GO) {
                    continue; // the growth failed was let go and the commit went through: on to the next
                }
                if (fault == dev.jtecs.testing.FaultAttempt.Outcome.UNSPENT) {
                    assertTrue(injected > 0, "the despawn allocates");
                    return;
                }
                injected++;
                w.unwind();
                w.spawn(); // a further publication settles what the failed one left
                for (int i = 0; i < targets.length; i++) {
                    if (w.isAlive(targets[i])) {
                        assertEquals(List.of(targets[i]), targets(w, fans[i]), "k=" + k + " live target " + i);
                    } else {
                        assertFalse(w.has(fans[i], FOLLOWS), "k=" + k + " dead target " + i + ": "
                                + RelationFixtures.dump(w));
                    }
                }
            }
        }
        throw new AssertionError("the commit kept failing");
    }

    /**
     * Many cascading edges land on targets that died in the same wave, and the commit runs out of heap at each of
     * its growths in turn: settling one of those sources (noting its dead target) may fail, and the sources not
     * settled yet must stay noted for the next publication, which despawns them.
     */
    @Test
    void edgesThatLandedOnDeadTargetsAreAllSettledWhateverGrowthFails() {
        int injected = 0;
        for (int k = 1; k < 400; k++) {
            try (World w = World.create()) {
                for (int i = 0; i < 150; i++) {
                    w.spawn();
                }
                long[] targets = new long[40];
                for (int i = 0; i < targets.length; i++) {
                    targets[i] = w.spawn();
                }
                w.defer();
                long[] sources = new long[targets.length];
                for (int i = 0; i < targets.length; i++) {
                    w.despawn(targets[i]);
                    sources[i] = w.spawn(HOLD.to(targets[i])); // lands after its target died
                }
                dev.jtecs.testing.FaultAttempt.Outcome fault = RelationFixtures.commitFailingAtHeapGrowth(w, k);
                if (fault == dev.jtecs.testing.FaultAttempt.Outcome.LET_GO) {
                    for (long source : sources) { // the commit went through: what a clean one leaves
                        assertFalse(w.isAlive(source), "k=" + k);
                    }
                    continue; // the growth failed was let go: on to the next
                }
                if (fault == dev.jtecs.testing.FaultAttempt.Outcome.UNSPENT) {
                    assertEquals(dev.jtecs.entity.internal.AllocationFaults.ENABLED, injected > 0,
                            "the commit allocates");
                    for (long source : sources) {
                        assertFalse(w.isAlive(source));
                    }
                    return;
                }
                injected++;
                w.unwind();
                w.spawn(); // a further publication settles what the failed one left
                for (int i = 0; i < sources.length; i++) {
                    assertFalse(w.isAlive(sources[i]), "k=" + k + " source " + i + " outlived its cascading "
                            + "target: " + RelationFixtures.dump(w));
                }
            }
        }
        throw new AssertionError("the commit kept failing");
    }

    private static List<Long> targets(World w, long id) {
        return RelationFixtures.targets(w, id, FOLLOWS);
    }

    static final Relationship KNEW = Relationships.register("test.rel.Knew");
    static final dev.jtecs.component.TagComponent FIRST = dev.jtecs.component.Components.tag("test.rel.First");
    static final dev.jtecs.component.TagComponent SECOND = dev.jtecs.component.Components.tag("test.rel.Second");

    /**
     * A publication settles two targets that held one slot in turn (the second spawned into the slot the first
     * freed), then fails before the second's settlement publishes: the next publication settles both again, so
     * the edge to the second goes too.
     */
    @Test
    void twoTargetsOfOneSlotLeftByAFailedPublicationAreBothSettledByTheNext() {
        Query marked = world.newQuery(QueryDescriptor.builder().include(MARK).build());
        world.spawn(MARK);
        long a = world.spawn();
        long sa = world.spawn(FIRST, KNEW.to(a));
        long[] b = new long[1];
        long[] sb = new long[1];
        world.newQuery(QueryDescriptor.builder().include(FIRST).exclude(KNEW).onEntitiesAdded((archetype, f, t) -> {
            if (b[0] == 0) { // wave 2: sa lost its edge to a, whose slot is free now
                b[0] = world.spawn();
                sb[0] = world.spawn(SECOND, KNEW.to(b[0]));
            }
        }).build());
        world.newQuery(QueryDescriptor.builder().include(SECOND).include(KNEW).onEntitiesAdded((archetype, f, t) -> {
            world.despawn(b[0]); // wave 3: sb arrived with its edge; b dies in wave 4
        }).build());
        world.observe(0, dev.jtecs.event.OnDespawn.class, event -> {
            if (event.entity() == b[0]) { // wave 4: a batch that fails wave 5 before sb's edge removal publishes
                world.batchSet(marked, LOYALTY, (archetype, fromRow, toRow) -> {
                    throw new IllegalStateException("boom");
                });
            }
        });
        world.defer();
        world.despawn(a);
        assertThrows(IllegalStateException.class, world::commit);
        assertEquals(Entity.slot(a), Entity.slot(b[0]), "b took a's slot");
        assertFalse(world.isAlive(b[0]));
        assertFalse(world.has(sa, KNEW));
        assertEquals(List.of(b[0]), targets(sb[0], KNEW), "the failed wave discarded the removal of this edge");
        world.unwind();
        assertEquals(List.of(), targets(sb[0], KNEW), "no edge outlives its target: " + dump());
        assertFalse(world.has(sb[0], KNEW));
    }

    /**
     * A list despawned in one call publishes runs of one archetype together (rows gone and slots freed before any
     * is reported: {@link Settlement#despawnedRun}), and leaves the same world as despawning the same entities one
     * call at a time, each reported alone. Random forests of bands of twenty entities (each band one archetype)
     * with cascading {@code ChildOf} and {@code HOLDS}, non-cascading sparse {@code LIKES} and dense
     * {@code FOLLOWS} edges to earlier entities; a random ascending selection (a third to nine tenths) despawned
     * both ways in twin worlds. Compared: the rows (as a set: removals in another order leave the rows in another
     * order), liveness, each entity's targets and each target's sources.
     */
    @Test
    void aRunOfDespawnsSettlesEdgesAsDespawningEachAlone() {
        long base = Long.getLong("jtecs.seed", new java.util.SplittableRandom().nextLong());
        System.out.println("SettlementTest run seed " + base + " (replay: -Djtecs.seed=" + base + ")");
        Relationship childOf = ChildOf.COMPONENT;
        Relationship[] kinds = {childOf, HOLDS, LIKES, FOLLOWS};
        for (int round = 0; round < 60; round++) {
            java.util.Random random = new java.util.Random(base + round);
            int n = 40 + random.nextInt(120);
            int selected = 3 + random.nextInt(7); // of 10
            long[][] built = new long[2][];
            World[] twins = {World.create(), World.create()};
            try {
                int[] bandKinds = new int[n / 20 + 1];
                for (int b = 1; b < bandKinds.length; b++) {
                    bandKinds[b] = 1 + random.nextInt(15); // a bit per relationship; band 0: roots
                }
                long[] targetPicks = new long[n * kinds.length];
                for (int k = 0; k < targetPicks.length; k++) {
                    targetPicks[k] = random.nextLong();
                }
                for (int t = 0; t < 2; t++) {
                    built[t] = new long[n];
                    for (int i = 0; i < n; i++) {
                        List<dev.jtecs.component.Input> inputs = new ArrayList<>(List.of(MARK));
                        for (int k = 0; k < kinds.length; k++) {
                            if (i >= 20 && (bandKinds[i / 20] & 1 << k) != 0) {
                                long target = built[t][Math.floorMod(targetPicks[i * kinds.length + k], i)];
                                inputs.add(kinds[k].to(target));
                                if (kinds[k] == FOLLOWS) {
                                    inputs.add(LOYALTY);
                                }
                            }
                        }
                        built[t][i] = twins[t].spawn(inputs.toArray(new dev.jtecs.component.Input[0]));
                    }
                }
                assertEquals(java.util.Arrays.toString(built[0]), java.util.Arrays.toString(built[1]));
                long[] ids = built[0];
                long[] chosen = java.util.stream.LongStream.of(ids).filter(id -> random.nextInt(10) < selected).toArray();
                twins[0].despawn(chosen, 0, chosen.length);
                for (long id : chosen) {
                    if (twins[1].isAlive(id)) {
                        twins[1].despawn(id);
                    }
                }
                String where = "seed " + base + ", round " + round;
                assertEquals(sortedRows(twins[1]), sortedRows(twins[0]), where); // (rows leave in other orders)
                for (long id : ids) {
                    assertEquals(twins[1].isAlive(id), twins[0].isAlive(id), where);
                    for (Relationship kind : kinds) {
                        if (twins[0].isAlive(id)) {
                            assertEquals(RelationFixtures.targets(twins[1], id, kind),
                                    RelationFixtures.targets(twins[0], id, kind), kind + " of " + id + ", " + where);
                        }
                        if (kind != FOLLOWS) {
                            assertEquals(java.util.Arrays.toString(twins[1].relationshipSources(kind, id)),
                                    java.util.Arrays.toString(twins[0].relationshipSources(kind, id)),
                                    kind + " sources of " + id + ", " + where);
                        }
                    }
                }
            } finally {
                twins[0].close();
                twins[1].close();
            }
        }
    }

    /** A complete tree of {@code levels} levels, {@code fanOut} children a node, spawned breadth first. */
    private static long[] spawnTree(World w, int fanOut, int levels) {
        List<Long> ids = new ArrayList<>(List.of(w.spawn(MARK)));
        for (int head = 0, level = 1, end = 1; level < levels; level++) {
            for (int last = end; head < last; head++) {
                for (int c = 0; c < fanOut; c++) {
                    ids.add(w.spawn(ChildOf.COMPONENT.to(ids.get(head)), MARK));
                }
            }
            end = ids.size();
        }
        return ids.stream().mapToLong(Long::longValue).toArray();
    }

    /**
     * A cascade frees its subtree deepest level first, whether observed or not, so that the same tree spawned again
     * (a level reloaded) takes consecutive slots in the order it first took them, round after round, but for the
     * root's slot (freed a wave earlier, so taken last) which each round moves among the leaves; freed in the walk's
     * order, the slots came back in reverse and each round scrambled them further, so a long-lived world walked
     * every array indexed by slot out of order. Observers still hear the subtree level by level.
     */
    @Test
    void aSubtreeSpawnedAgainAfterACascadeTakesConsecutiveSlots() {
        for (boolean observed : new boolean[] {false, true}) {
            try (World w = World.create()) {
                List<Long> heard = new ArrayList<>();
                if (observed) { // staged level by level, published deepest level first all the same
                    w.observe(Entity.WORLD, dev.jtecs.event.OnDespawn.class, e -> heard.add(e.entity()));
                }
                for (int round = 0; round < 8; round++) {
                    long[] tree = spawnTree(w, 3, 5); // 121 entities, breadth first
                    int steps = 0;
                    for (int i = 1; i < tree.length; i++) {
                        steps += Entity.slot(tree[i]) == Entity.slot(tree[i - 1]) + 1 ? 1 : 0;
                    }
                    assertTrue(steps >= tree.length - 1 - 2 * round, (observed ? "observed" : "silent") + ", round "
                            + round + ": " + steps + " of " + (tree.length - 1)
                            + " neighbours in the breadth-first order hold neighbouring slots");
                    heard.clear();
                    w.despawn(tree[0]);
                    assertEquals(0, w.entityCount());
                    if (observed && round == 0) { // (later rounds' families hold recycled ids, not in spawn order)
                        assertEquals(java.util.Arrays.stream(tree).boxed().toList(), heard, "level by level");
                    }
                }
            }
        }
    }

    /**
     * An observer that despawns another entity while a cascade stages its subtree: the subtree's despawns are not
     * alone in the list, so they publish in the order they were staged; every entity dies all the same.
     */
    @Test
    void aCascadeWhoseObserverDespawnsMoreKeepsItsOrderAndLosesNothing() {
        long[] tree = spawnTree(world, 3, 4);
        long[] other = spawnTree(world, 2, 3);
        world.observe(Entity.WORLD, dev.jtecs.event.OnDespawn.class, e -> {
            if (e.entity() == tree[5] && world.isAlive(other[0])) {
                world.despawn(other[0]);
            }
        });
        world.despawn(tree[0]);
        assertEquals(0, world.entityCount(), dump());
        long[] again = spawnTree(world, 3, 4);
        assertEquals(again.length, world.entityCount());
    }

    /** An observed cascade reports its subtree level by level, each level in ascending id order. */
    @Test
    void aCascadeReportsItsSubtreeLevelByLevel() {
        long[] tree = spawnTree(world, 2, 4); // root; 2; 4; 8
        List<Long> despawned = new ArrayList<>();
        world.observe(Entity.WORLD, dev.jtecs.event.OnDespawn.class, e -> despawned.add(e.entity()));
        world.despawn(tree[0]);
        assertEquals(java.util.Arrays.stream(tree).boxed().toList(), despawned);
    }

    /**
     * A silent cascade whose subtree holds entities with staged work (a record, a tag move, an entity a batch
     * despawn selected) stages those the long way and the rest in short, and the world goes on: nothing left
     * marked, every id recycled, later calls answered.
     */
    @Test
    void aSilentCascadeOverEntitiesWithStagedWorkLeavesAWorkingWorld() {
        long[] tree = spawnTree(world, 3, 4); // 40 entities
        world.defer();
        world.set(tree[5], LOYALTY.of(3));  // a record
        world.set(tree[7], FIRST);          // a tag move
        world.remove(tree[20], MARK);       // a tag move away
        world.despawn(tree[30]);            // staged already: its own despawn
        world.despawn(tree[0]);
        world.commit();
        assertEquals(0, world.entityCount(), dump());
        assertFalse(world.hasPendingChanges());
        long[] again = spawnTree(world, 3, 4);
        world.set(again[5], LOYALTY.of(4));
        assertEquals(4, world.get(again[5], LOYALTY), "no mark left on a recycled slot blocks a write");
        world.despawn(again[0]);
        assertEquals(0, world.entityCount());
    }

    /**
     * A silent cascade whose commit runs out of heap at each of its growths in turn: the publication fails, what
     * it published stays, and the next publication despawns the rest of the subtree; no id is left marked.
     */
    @Test
    void aSilentCascadeThatRunsOutOfHeapAnywhereIsFinishedByTheNextPublication() {
        int injected = 0;
        for (int k = 1; k < 400; k++) {
            try (World w = World.create()) {
                long[] tree = spawnTree(w, 4, 5); // 341 entities
                w.defer();
                w.despawn(tree[0]);
                dev.jtecs.testing.FaultAttempt.Outcome fault = RelationFixtures.commitFailingAtHeapGrowth(w, k);
                if (fault == dev.jtecs.testing.FaultAttempt.Outcome.LET_GO) {
                    assertEquals(0, w.entityCount(), "k=" + k + ": the commit went through, the tree is gone");
                    continue; // the growth failed was let go: on to the next
                }
                if (fault == dev.jtecs.testing.FaultAttempt.Outcome.UNSPENT) {
                    assertEquals(dev.jtecs.entity.internal.AllocationFaults.ENABLED, injected > 0,
                            "the cascade allocates");
                    assertEquals(0, w.entityCount());
                    return;
                }
                injected++;
                w.unwind();
                w.spawn(); // a further publication finishes the cascade, if the root's despawn was published
                boolean rootPublished = !w.isAlive(tree[0]);
                assertEquals(rootPublished ? 1 : tree.length + 1, w.entityCount(), "k=" + k + ": all or none "
                        + RelationFixtures.dump(w));
                if (!rootPublished) {
                    w.despawn(tree[0]);
                    assertEquals(1, w.entityCount(), "k=" + k);
                }
                long[] again = spawnTree(w, 4, 3);
                w.despawn(again[0]);
                assertEquals(1, w.entityCount(), "k=" + k);
            }
        }
        throw new AssertionError("the commit kept failing");
    }

    private static List<String> sortedRows(World world) {
        List<String> rows = new ArrayList<>(List.of(RelationFixtures.dump(world).split(";")));
        rows.sort(null);
        return rows;
    }
}
