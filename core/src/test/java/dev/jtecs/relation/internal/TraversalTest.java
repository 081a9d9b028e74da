package dev.jtecs.relation.internal;

import static dev.jtecs.relation.internal.RelationFixtures.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import dev.jtecs.builtin.ChildOf;
import dev.jtecs.component.Relationship;
import dev.jtecs.entity.Entity;
import dev.jtecs.relation.AncestorVisitor;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import dev.jtecs.world.World;

/** The walks ({@link Traversal}): {@code traverse} and {@code walkUp}, driven through the world. */
class TraversalTest {
    private final World world = World.create();

    @AfterEach
    void close() {
        world.close();
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
    void walkUpRefusesANegativeDepthBeforeVisiting() {
        long root = world.spawn();
        long child = world.spawn(PARENT.to(root));
        List<Long> visited = new ArrayList<>();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> world.walkUp(child, PARENT, (ancestor, depth) -> visited.add(ancestor), -1));
        assertTrue(e.getMessage().contains("maxDepth=-1"), e.getMessage());
        assertEquals(List.of(), visited);
    }

    @Test
    void walkUpMayGoExactlyMaxDepthLevelsAndAnEntityWithoutEdgesNeedsNone() {
        long top = world.spawn();
        long mid = world.spawn(PARENT.to(top));
        long low = world.spawn(PARENT.to(mid));
        List<Long> seen = new ArrayList<>();
        world.walkUp(low, PARENT, (ancestor, depth) -> seen.add(ancestor), 2);
        assertEquals(List.of(mid, top), seen, "two levels within maxDepth=2");
        seen.clear();
        world.walkUp(top, PARENT, (ancestor, depth) -> seen.add(ancestor), 0);
        assertEquals(List.of(), seen, "no edge: maxDepth=0 is enough");
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> world.walkUp(mid, PARENT, (ancestor, depth) -> true, 0));
        assertTrue(e.getMessage().contains("deeper than 0"), e.getMessage());
    }

    @Test
    void walkUpNamesACycleAsACycle() {
        long a = world.spawn();
        long b = world.spawn(PARENT.to(a));
        long c = world.spawn(PARENT.to(b));
        world.set(a, PARENT.to(c));
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> world.walkUp(c, PARENT, (ancestor, depth) -> true, 1_000));
        assertTrue(e.getMessage().contains("cycle at " + Entity.toString(c)), e.getMessage());
    }

    @Test
    void walkUpFollowsAChainLongerThanItsFirstPathAndNestsInItsVisitor() {
        List<Long> chain = new ArrayList<>(List.of(world.spawn()));
        for (int i = 1; i < 70; i++) { // beyond the path's first 16 entries, and its first growth
            chain.add(world.spawn(PARENT.to(chain.get(i - 1))));
        }
        List<String> seen = new ArrayList<>();
        List<Integer> innerDepths = new ArrayList<>();
        world.walkUp(chain.get(69), PARENT, (ancestor, depth) -> {
            seen.add(ancestor + "@" + depth);
            if (depth == 3) { // a walk from the visitor of another walk gets a path of its own
                int[] deepest = {0};
                world.walkUp(ancestor, PARENT, (x, d) -> {
                    deepest[0] = d;
                    return true;
                });
                innerDepths.add(deepest[0]);
            }
            return true;
        });
        List<String> expected = new ArrayList<>();
        for (int depth = 1; depth < 70; depth++) {
            expected.add(chain.get(69 - depth) + "@" + depth);
        }
        assertEquals(expected, seen);
        assertEquals(List.of(66), innerDepths, "from chain[66] up to chain[0]");
    }

    /**
     * The first walk of a sparse, exclusive relationship builds its preorder index at once; the first walks of one
     * whose sources may hold several targets read the store and earn its flat child index. A change sends walks of
     * either back to the store, and walks there earn the index again: once they reach half the slots in use, the
     * next walk builds.
     */
    @Test
    void aSparseWalkOnTheStoreEarnsItsIndexOnceItsWalksReachHalfTheSlotsInUse() {
        for (Relationship relationship : List.of(ChildIndexTest.UNDER, ChildIndexTest.KEEPS)) {
            try (dev.jtecs.storage.internal.NativeMemory memory = new dev.jtecs.storage.internal.NativeMemory()) {
                var registry = new dev.jtecs.storage.internal.ArchetypeRegistry(memory);
                var entities = new dev.jtecs.entity.internal.EntityIndex(1_000);
                long root = entities.allocate();
                entities.publish(Entity.slot(root), 0, 0); // only published entities hold edges
                List<String> expected = new ArrayList<>();
                List<Long> children = new ArrayList<>();
                for (int i = 0; i < 3; i++) {
                    long child = entities.allocate();
                    entities.publish(Entity.slot(child), 0, 1 + i);
                    children.add(child);
                    registry.sparseEdges().add(relationship, child, root, null);
                    expected.add(child + "@0");
                }
                for (int i = 0; i < 3; i++) {
                    entities.allocate(); // slots in use: 1 (the world's) + 7
                }
                assertEquals(8, entities.highWater());
                Traversal traversal = new Traversal(entities, registry);
                assertTrue(traversal.childIndex(KNOWS) == null, "a dense relationship is read by archetype");
                assertTrue(traversal.preorderIndex(KNOWS) == null, "and has no preorder index");
                boolean exclusive = relationship.isExclusive();
                assertEquals(exclusive, traversal.preorderIndex(relationship) != null, relationship.name());
                java.util.function.BooleanSupplier current = exclusive
                        ? () -> traversal.preorderIndex(relationship).isCurrent()
                        : () -> traversal.childIndex(relationship).isCurrent();
                for (int walk = 0; walk < 4; walk++) {
                    List<String> visits = new ArrayList<>();
                    traversal.traverse(root, relationship, (entity, depth) -> visits.add(entity + "@" + depth));
                    assertEquals(expected, visits, "walk " + walk);
                    // the preorder index: built by the first walk. The child index: the first walk reaches the root
                    // and 3 children, 4 of 8 slots, so the second builds and reads it
                    assertEquals(walk > 0 || exclusive, current.getAsBoolean(),
                            relationship.name() + " after walk " + walk);
                }
                registry.sparseEdges().removeAll(relationship, children.get(0));
                expected.remove(0);
                for (int walk = 0; walk < 3; walk++) {
                    List<String> visits = new ArrayList<>();
                    traversal.traverse(root, relationship, (entity, depth) -> visits.add(entity + "@" + depth));
                    assertEquals(expected, visits, "after the change, walk " + walk);
                    // each walk on the store reaches the root and 2 children, 3 of 8 slots: the second earns, the
                    // third builds (the preorder index is built at once only on a relationship's first walk)
                    assertEquals(walk == 2, current.getAsBoolean(), relationship.name() + " after the change, walk "
                            + walk);
                }
                registry.close();
            }
        }
    }

    static final Relationship OWNED_BY = dev.jtecs.component.Relationships.register("test.traversal.OwnedBy",
            o -> o.sparse().exclusive().reverseIndex());
    static final Relationship LED_BY = dev.jtecs.component.Relationships.register("test.traversal.LedBy",
            o -> o.exclusive().reverseIndex());

    /** Exclusive relationships, sparse and dense: a tree walked once, a cycle through the root ended there. */
    @Test
    void anExclusiveWalkVisitsATreeOnceAndEndsACycleThroughTheRoot() {
        for (Relationship relationship : List.of(ChildOf.COMPONENT, OWNED_BY, LED_BY)) {
            long root = world.spawn();
            long a = world.spawn(relationship.to(root));
            long b = world.spawn(relationship.to(root));
            long a1 = world.spawn(relationship.to(a));
            long a2 = world.spawn(relationship.to(a));
            long a11 = world.spawn(relationship.to(a1));
            world.set(root, relationship.to(a11)); // the root below its own grandchild: a cycle
            List<String> visits = new ArrayList<>();
            world.traverse(root, relationship, (entity, depth) -> visits.add(entity + "@" + depth));
            assertEquals(List.of(a + "@0", a1 + "@1", a11 + "@2", a2 + "@1", b + "@0"), visits,
                    relationship.name());
            visits.clear();
            world.traverse(a1, relationship, (entity, depth) -> visits.add(entity + "@" + depth));
            assertEquals(List.of(a11 + "@0", root + "@1", a + "@2", a2 + "@3", b + "@2"), visits,
                    relationship.name() + ": from inside the cycle, back round to its start");
        }
    }

    @Test
    void anExclusiveWalkFromADeadRootVisitsTheEntityThatTookItsSlotOnce() {
        long root = world.spawn();
        long a = world.spawn(OWNED_BY.to(root));
        world.despawn(root); // OwnedBy does not cascade: a keeps its edge to the dead id
        long reborn = world.spawn(OWNED_BY.to(a));
        assertEquals(Entity.slot(root), Entity.slot(reborn), "the slot was recycled");
        long below = world.spawn(OWNED_BY.to(reborn));
        List<Long> visits = new ArrayList<>();
        world.traverse(root, OWNED_BY, (entity, depth) -> visits.add(entity));
        assertEquals(List.of(a, reborn, below), visits);
    }

    /** A traversal over a bare store and entity index, so that a test can see which index a walk reads. */
    private static final class Bare implements AutoCloseable {
        final dev.jtecs.storage.internal.NativeMemory memory = new dev.jtecs.storage.internal.NativeMemory();
        final dev.jtecs.storage.internal.ArchetypeRegistry registry =
                new dev.jtecs.storage.internal.ArchetypeRegistry(memory);
        final dev.jtecs.entity.internal.EntityIndex entities = new dev.jtecs.entity.internal.EntityIndex(1_000);
        final Traversal traversal = new Traversal(entities, registry);
        final List<Long> ids = new ArrayList<>();
        private int rows;

        /** A published entity: only those hold edges. */
        long spawn() {
            long id = entities.allocate();
            entities.publish(dev.jtecs.entity.Entity.slot(id), 0, rows++);
            return id;
        }

        /** The same forest for the same seed: trees, a cycle or two, a dead target kept by its sources; -1: empty. */
        Bare(long seed) {
            if (seed == -1) {
                return; // empty: the test lays out its own
            }
            java.util.SplittableRandom random = new java.util.SplittableRandom(seed);
            for (int i = 0; i < 80; i++) {
                ids.add(spawn());
            }
            for (int i = 1; i < ids.size(); i++) {
                int t = random.nextInt(12) == 0 ? random.nextInt(ids.size()) : random.nextInt(i);
                if (t != i && random.nextInt(10) != 0) {
                    registry.sparseEdges().add(ChildIndexTest.UNDER, ids.get(i), ids.get(t), null);
                }
            }
            long dead = ids.get(random.nextInt(ids.size()));
            registry.sparseEdges().removeSource(dead);
            entities.free(dev.jtecs.entity.Entity.slot(dead));
        }

        /**
         * One change a visitor makes mid-walk, the same in every fixture for the same random state; then, when
         * {@code relayOut}, walks nested in that visitor from every entity, enough to build the index again while the
         * outer walk still reads the arrays it started with.
         */
        void change(java.util.SplittableRandom random, boolean relayOut) {
            change(random);
            for (int pass = 0; relayOut && pass < 3; pass++) {
                for (long id : List.copyOf(ids)) {
                    traversal.traverse(id, ChildIndexTest.UNDER, (e, d) -> { });
                }
            }
        }

        private void change(java.util.SplittableRandom random) {
            var store = registry.sparseEdges();
            long a = ids.get(random.nextInt(ids.size()));
            long b = ids.get(random.nextInt(ids.size()));
            switch (random.nextInt(4)) {
                case 0 -> {
                    if (entities.isAlive(a) && a != b) {
                        store.add(ChildIndexTest.UNDER, a, b, null); // a reparent, perhaps into a cycle
                    }
                }
                case 1 -> store.removeAll(ChildIndexTest.UNDER, a);
                case 2 -> {
                    if (entities.isAlive(a)) { // a despawn: its edges go, the edges to it stay
                        store.removeSource(a);
                        entities.free(dev.jtecs.entity.Entity.slot(a));
                    }
                }
                default -> {
                    long born = spawn(); // a new child, perhaps in a freed slot
                    ids.add(born);
                    store.add(ChildIndexTest.UNDER, born, b, null);
                }
            }
        }

        boolean indexed() {
            return traversal.preorderIndex(ChildIndexTest.UNDER).isCurrent();
        }

        void link(long child, long parent) {
            registry.sparseEdges().add(ChildIndexTest.UNDER, child, parent, null);
        }

        /** A published entity with an edge to {@code parent}. */
        long childOf(long parent) {
            long child = spawn();
            link(child, parent);
            return child;
        }

        /** Walks (up when {@code up}, else down) from each start, until the walks on the store earned the index. */
        void indexBy(boolean up, long... starts) {
            for (int warm = 0; warm < 3 && !indexed(); warm++) {
                for (long start : starts) {
                    if (up) {
                        traversal.walkUp(start, ChildIndexTest.UNDER, (e, d) -> true, 100);
                    } else {
                        traversal.traverse(start, ChildIndexTest.UNDER, (e, d) -> { });
                    }
                }
            }
            assertTrue(indexed(), "the walks earned the preorder index");
        }

        @Override
        public void close() {
            registry.close();
            memory.close();
        }
    }

    /**
     * A walk over the preorder index whose visitor changes the hierarchy goes on exactly as the same walk on the
     * store: the same visits, the same depths, the same end or exception, for {@code traverse} and {@code walkUp},
     * from every entity, with the change at every step, and with walks nested in the visitor that lay the index out
     * again meanwhile.
     */
    @Test
    void aWalkOnThePreorderIndexThatChangesTheHierarchyGoesOnAsTheStoreWalkWould() {
        long seed = Long.getLong("jtecs.seed", new java.util.SplittableRandom().nextLong());
        System.out.println("TraversalTest preorder seed " + seed + " (replay: -Djtecs.seed=" + seed + ")");
        java.util.SplittableRandom random = new java.util.SplittableRandom(seed);
        int compared = 0;
        for (int round = 0; round < 60; round++) {
            long forestSeed = random.nextLong();
            int start = random.nextInt(80);
            int changeAt = random.nextInt(6);
            long changeSeed = random.nextLong();
            boolean up = random.nextBoolean();
            boolean relayOut = random.nextInt(3) == 0;
            List<String> outcomes = new ArrayList<>();
            for (boolean flat : new boolean[] {true, false}) {
                try (Bare bare = new Bare(forestSeed)) {
                    if (flat) {
                        bare.indexBy(false, bare.ids.stream().mapToLong(Long::longValue).toArray());
                    }
                    long from = bare.ids.get(start);
                    List<String> visits = new ArrayList<>();
                    java.util.SplittableRandom changes = new java.util.SplittableRandom(changeSeed);
                    try {
                        if (up) {
                            bare.traversal.walkUp(from, ChildIndexTest.UNDER, (e, d) -> {
                                visits.add(e + "@" + d);
                                if (visits.size() == changeAt + 1) {
                                    bare.change(changes, relayOut);
                                }
                                return true;
                            }, 100);
                        } else {
                            bare.traversal.traverse(from, ChildIndexTest.UNDER, (e, d) -> {
                                visits.add(e + "@" + d);
                                if (visits.size() == changeAt + 1) {
                                    bare.change(changes, relayOut);
                                }
                            });
                        }
                    } catch (IllegalStateException cycle) {
                        visits.add(cycle.getMessage());
                    }
                    outcomes.add(String.join(" ", visits));
                }
            }
            assertEquals(outcomes.get(1), outcomes.get(0), "seed " + seed + " round " + round + (up ? " walkUp" : ""));
            compared += outcomes.get(0).isEmpty() ? 0 : 1;
        }
        assertTrue(compared > 20, "most walks visited something: " + compared);
    }

    /** The preorder walks stop where the store's do: {@code walkUp}'s visitor may end it, and its depth limit holds. */
    @Test
    void aWalkUpOnThePreorderIndexStopsOnRequestAndAtItsDepthLimit() {
        try (Bare bare = new Bare(7)) {
            bare.ids.add(bare.spawn()); // takes the slot the fixture freed, so the chain below shares none
            long leaf = bare.spawn();
            long top = leaf;
            List<Long> chain = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                long parent = bare.spawn();
                bare.link(top, parent);
                chain.add(parent);
                top = parent;
            }
            bare.ids.add(leaf);
            bare.indexBy(true, bare.ids.stream().mapToLong(Long::longValue).toArray()); // walks up earn it too
            assertTrue(bare.traversal.preorderIndex(ChildIndexTest.UNDER).positionOf(leaf) >= 0, "the leaf is in it");
            List<Long> seen = new ArrayList<>();
            bare.traversal.walkUp(leaf, ChildIndexTest.UNDER, (e, d) -> seen.add(e) && d < 2, 100);
            assertEquals(chain.subList(0, 2), seen, "the visitor ended it at depth 2");
            seen.clear();
            bare.traversal.walkUp(leaf, ChildIndexTest.UNDER, (e, d) -> seen.add(e), 5);
            assertEquals(chain, seen, "exactly maxDepth levels");
            seen.clear();
            IllegalStateException deep = assertThrows(IllegalStateException.class,
                    () -> bare.traversal.walkUp(leaf, ChildIndexTest.UNDER, (e, d) -> seen.add(e), 4));
            assertTrue(deep.getMessage().contains("deeper than 4 levels"), deep.getMessage());
            assertEquals(chain.subList(0, 4), seen);
            assertTrue(bare.indexed());
        }
    }

    /**
     * Walks up alone earn the preorder index again after a change: each adds the levels it read (visits + 1) whether it
     * ended at a root, at a dead ancestor or at its visitor's request, and half the slots in use since the last
     * change earn a build. (The relationship's first walk built the index at once; the change made it stale.)
     */
    @Test
    void walksUpAddWhatTheyReadToTheTallyHoweverTheyEnd() {
        for (String end : List.of("root", "dead", "visitor")) {
            try (Bare bare = new Bare(-1)) { // no forest of its own: slots 1..8 in use after the lines below
                long root = bare.spawn();
                List<Long> children = new ArrayList<>();
                for (int i = 0; i < 3; i++) {
                    long child = bare.childOf(root);
                    children.add(child);
                }
                while (bare.entities.highWater() < 9) {
                    bare.spawn();
                }
                if (end.equals("dead")) {
                    bare.entities.free(dev.jtecs.entity.Entity.slot(root)); // the children keep their edges to it
                }
                bare.traversal.walkUp(children.get(0), ChildIndexTest.UNDER, (e, d) -> true, 10);
                assertTrue(bare.indexed(), end + ": the relationship's first walk built the index");
                var store = bare.registry.sparseEdges(); // the same edges again, the counter moved: stale
                store.removeAll(ChildIndexTest.UNDER, children.get(0));
                store.add(ChildIndexTest.UNDER, children.get(0), root, null);
                assertFalse(bare.indexed(), end);
                AncestorVisitor visitor = (e, d) -> !end.equals("visitor");
                // a walk reads the child, then its parent (2), or stops at the parent's visit (1): of 9 slots in use,
                // 5 reads are half, so the third walk earns the build (6), or the fifth when each reads 1
                int walks = end.equals("visitor") ? 5 : 3;
                for (int i = 0; i < walks; i++) {
                    bare.traversal.walkUp(children.get(i % 3), ChildIndexTest.UNDER, visitor, 10);
                    assertEquals(i == walks - 1, bare.traversal.preorderIndex(ChildIndexTest.UNDER).wanted(),
                            end + ": after walk " + i);
                }
                List<Long> seen = new ArrayList<>();
                bare.traversal.walkUp(children.get(0), ChildIndexTest.UNDER, (e, d) -> seen.add(e), 10);
                assertTrue(bare.indexed(), end + ": the next walk built it");
                assertEquals(List.of(root), seen, end);
            }
        }
    }

    /** A walk from a dead root over the preorder index, whose visitor puts a new entity in the root's slot below it. */
    @Test
    void aResumedWalkFromADeadRootVisitsTheEntityThatTakesItsSlotMidWalk() {
        try (Bare bare = new Bare(-1)) {
            long root = bare.spawn();
            long a = bare.childOf(root);
            long b = bare.childOf(root);
            bare.ids.addAll(List.of(root, a, b));
            bare.entities.free(dev.jtecs.entity.Entity.slot(root)); // a and b keep their edges to the dead id
            bare.indexBy(false, root);
            List<Long> visits = new ArrayList<>();
            long[] reborn = {0};
            bare.traversal.traverse(root, ChildIndexTest.UNDER, (e, d) -> {
                visits.add(e);
                if (e == a) {
                    reborn[0] = bare.spawn(); // the dead root's slot, a new generation
                    bare.link(reborn[0], b);
                }
            });
            assertEquals(dev.jtecs.entity.Entity.slot(root), dev.jtecs.entity.Entity.slot(reborn[0]));
            assertEquals(List.of(a, b, reborn[0]), visits, "the store walk from a dead root stamps no slot for it");
        }
    }

    /** The entity whose visit changed the edges counts as seen when the walk goes on from the store. */
    @Test
    void aResumedWalkDoesNotVisitTheChangingEntityAgainWhenItMovesBelowALaterSibling() {
        try (Bare bare = new Bare(-1)) {
            long root = bare.spawn();
            long a = bare.childOf(root);
            long b = bare.childOf(root);
            long c = bare.childOf(root);
            bare.indexBy(false, root);
            List<String> visits = new ArrayList<>();
            bare.traversal.traverse(root, ChildIndexTest.UNDER, (e, d) -> {
                visits.add(e + "@" + d);
                if (e == b) {
                    bare.link(b, c); // b moves below c
                }
            });
            assertEquals(List.of(a + "@0", b + "@0", c + "@0"), visits, "b once, though c now holds it");
        }
    }

    /** A walk that must go on from the store while a walk on the store is in progress gets a stack of its own. */
    @Test
    void aPreorderWalkResumedInsideAStoreWalkTakesAStackOfItsOwn() {
        try (Bare bare = new Bare(-1)) {
            long root = bare.spawn();
            long a = bare.childOf(root);
            long b = bare.childOf(root);
            long hub = bare.spawn();
            long spoke = bare.spawn();
            bare.registry.sparseEdges().add(ChildIndexTest.KEEPS, spoke, hub, null);
            bare.indexBy(false, root);
            List<String> inner = new ArrayList<>();
            List<Long> outer = new ArrayList<>();
            bare.traversal.traverse(hub, ChildIndexTest.KEEPS, (e, d) -> { // on the store: it holds the idle stack
                outer.add(e);
                bare.traversal.traverse(root, ChildIndexTest.UNDER, (x, depth) -> {
                    inner.add(x + "@" + depth);
                    if (x == a) {
                        bare.registry.sparseEdges().removeAll(ChildIndexTest.UNDER, b); // goes on from the store
                    }
                });
            });
            assertEquals(List.of(spoke), outer);
            assertEquals(List.of(a + "@0", b + "@0"), inner,
                    "b left after the walk put it on its stack, as on the store");
        }
    }

    /** Once the edges change, both walks read the store until the walks on it earn a new preorder index. */
    @Test
    void aStalePreorderIndexIsNotRead() {
        try (Bare bare = new Bare(-1)) {
            long root = bare.spawn();
            long a = bare.childOf(root);
            long b = bare.childOf(root);
            long leaf = bare.childOf(a);
            bare.indexBy(false, root);
            bare.link(leaf, b); // the leaf moves from a to b
            assertFalse(bare.indexed());
            List<Long> up = new ArrayList<>();
            bare.traversal.walkUp(leaf, ChildIndexTest.UNDER, (e, d) -> up.add(e), 10);
            assertEquals(List.of(b, root), up);
            List<Long> down = new ArrayList<>();
            bare.traversal.traverse(root, ChildIndexTest.UNDER, (e, d) -> down.add(e));
            assertEquals(List.of(a, b, leaf), down);
        }
    }

    /** A walk up whose visitor moves an ancestor still to be climbed goes on along the new edge. */
    @Test
    void aWalkUpOnThePreorderIndexFollowsAnAncestorTheVisitorMoved() {
        try (Bare bare = new Bare(-1)) {
            long top = bare.spawn();
            long other = bare.spawn();
            long middle = bare.childOf(top);
            long leaf = bare.childOf(middle);
            bare.childOf(other);
            bare.indexBy(true, leaf);
            List<String> seen = new ArrayList<>();
            bare.traversal.walkUp(leaf, ChildIndexTest.UNDER, (e, d) -> {
                seen.add(e + "@" + d);
                if (e == middle) {
                    bare.link(middle, other);
                }
                return true;
            }, 10);
            assertEquals(List.of(middle + "@1", other + "@2"), seen);
        }
    }
}
