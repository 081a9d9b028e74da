package dev.jtecs.relation.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.builtin.ChildOf;
import dev.jtecs.component.Relationship;
import dev.jtecs.component.Relationships;
import dev.jtecs.entity.Entity;
import dev.jtecs.entity.internal.AllocationFaults;
import dev.jtecs.storage.internal.ArchetypeRegistry;
import dev.jtecs.storage.internal.NativeMemory;
import dev.jtecs.storage.internal.SparseEdges;
import dev.jtecs.world.World;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The flat child index: once built it pushes exactly what the store's reverse index pushes (same children,
 * popping ascending, same depth), it stops being current at every change to the relationship's edges, it is
 * wanted only after walks on the store covered half the slots since the last change, a slot holding two target ids
 * is read from the store, and a build that cannot allocate leaves it stale and the walks right.
 */
class ChildIndexTest {
    static final Relationship UNDER = Relationships.register("test.childIndex.Under",
            o -> o.sparse().exclusive().reverseIndex());
    static final Relationship KEEPS = Relationships.register("test.childIndex.Keeps",
            o -> o.sparse().reverseIndex()); // not exclusive: a source may hold several targets

    /** What {@code push} leaves on a fresh stack, popped: "id@depth" in pop order. */
    private static List<String> popped(TraversalStack stack, int top, int base) {
        List<String> out = new ArrayList<>();
        while (top > base) {
            top--;
            out.add(stack.entities[top] + "@" + stack.depths[top]);
        }
        return out;
    }

    /** For random edges, and again after each of two rounds of changes, each rebuilt into the last build's arrays. */
    @Test
    void aBuiltIndexPushesWhatTheStorePushesForEveryTarget() {
        for (Relationship relationship : List.of(UNDER, KEEPS)) {
            try (NativeMemory memory = new NativeMemory()) {
                ArchetypeRegistry registry = new ArchetypeRegistry(memory);
                SparseEdges store = registry.sparseEdges();
                SplittableRandom random = new SplittableRandom(21);
                long[] ids = new long[300];
                for (int i = 0; i < ids.length; i++) {
                    ids[i] = Entity.pack(1 + i, random.nextInt(3));
                }
                for (int e = 0; e < 900; e++) { // random edges, some replaced or removed on the way
                    long source = ids[random.nextInt(ids.length)];
                    long target = ids[random.nextInt(ids.length)];
                    if (random.nextInt(5) == 0) {
                        store.removeAll(relationship, source);
                    } else {
                        store.add(relationship, source, target, null);
                    }
                }
                ChildIndex index = new ChildIndex(relationship, store, registry.clock());
                assertFalse(index.isCurrent(), "never built");
                TraversalStack fromIndex = new TraversalStack(registry);
                TraversalStack fromStore = new TraversalStack(registry);
                for (int build = 0; build < 3; build++) { // a rebuild after changes reuses the arrays of the last
                    assertTrue(index.build());
                    assertTrue(index.isCurrent());
                    for (int i = 0; i < ids.length; i++) {
                        long target = ids[i];
                        int a = index.push(fromIndex, target, i % 5, 3);
                        int b = fromStore.pushChildren(relationship, target, i % 5, 3);
                        assertEquals(b, a, relationship.name() + " build " + build + " " + Entity.toString(target));
                        assertEquals(popped(fromStore, b, 3), popped(fromIndex, a, 3));
                    }
                    for (int e = 0; e < 300; e++) { // most sources leave; a few new edges, to other targets
                        long source = ids[random.nextInt(ids.length)];
                        if (random.nextInt(4) == 0) {
                            store.add(relationship, source, ids[random.nextInt(ids.length / 2)], null);
                        } else {
                            store.removeAll(relationship, source);
                        }
                    }
                }
                assertEquals(3, index.push(fromIndex, Entity.pack(5_000, 0), 0, 3), "a slot beyond the index");
                registry.close();
            }
        }
    }

    @Test
    void everyEdgeChangeMakesItStaleAndASlotWithTwoTargetsIsReadFromTheStore() {
        try (NativeMemory memory = new NativeMemory()) {
            ArchetypeRegistry registry = new ArchetypeRegistry(memory);
            SparseEdges store = registry.sparseEdges();
            long deadTarget = Entity.pack(7, 0); // a dead id kept by its sources, and the entity now in slot 7
            long liveTarget = Entity.pack(7, 1);
            long a = Entity.pack(1, 0);
            long b = Entity.pack(2, 0);
            long c = Entity.pack(3, 0);
            store.add(KEEPS, a, deadTarget, null);
            store.add(KEEPS, b, liveTarget, null);
            store.add(KEEPS, c, liveTarget, null);
            ChildIndex index = new ChildIndex(KEEPS, store, registry.clock());
            assertTrue(index.build());
            TraversalStack stack = new TraversalStack(registry);
            assertEquals(List.of(b + "@0", c + "@0"), popped(stack, index.push(stack, liveTarget, 0, 0), 0));
            assertEquals(List.of(a + "@2"), popped(stack, index.push(stack, deadTarget, 2, 0), 0));
            assertTrue(index.isCurrent());
            store.add(KEEPS, a, c, null);
            assertFalse(index.isCurrent(), "an added edge");
            assertTrue(index.build());
            assertFalse(store.add(KEEPS, a, c, null), "already there");
            assertTrue(index.isCurrent(), "no change, still current");
            store.remove(KEEPS, a, c);
            assertFalse(index.isCurrent(), "a removed edge");
            registry.close();
        }
    }

    @Test
    void itIsWantedOnceStoreWalksCoverHalfTheSlotsSinceTheLastChange() {
        try (NativeMemory memory = new NativeMemory()) {
            ArchetypeRegistry registry = new ArchetypeRegistry(memory);
            SparseEdges store = registry.sparseEdges();
            store.add(UNDER, Entity.pack(1, 0), Entity.pack(2, 0), null);
            ChildIndex index = new ChildIndex(UNDER, store, registry.clock());
            assertFalse(index.wanted());
            assertFalse(index.noteSlowWork(30, 100));
            assertFalse(index.wanted());
            store.add(UNDER, Entity.pack(3, 0), Entity.pack(2, 0), null); // the tally restarts
            assertFalse(index.noteSlowWork(30, 100), "30 since the change, not 60");
            assertTrue(index.noteSlowWork(20, 100));
            assertTrue(index.wanted());
            store.add(UNDER, Entity.pack(4, 0), Entity.pack(2, 0), null);
            assertFalse(index.wanted(), "earned before the last change: not any more");
            assertTrue(index.noteSlowWork(50, 100));
            assertTrue(index.build());
            assertFalse(index.wanted(), "a build spends it");
            registry.close();
        }
    }

    @Test
    void aBuildThatCannotAllocateLeavesTheIndexStaleAndChangesNothingElse() {
        try (NativeMemory memory = new NativeMemory()) {
            ArchetypeRegistry registry = new ArchetypeRegistry(memory);
            SparseEdges store = registry.sparseEdges();
            long parent = Entity.pack(9, 0);
            long child = Entity.pack(10, 0);
            store.add(UNDER, child, parent, null);
            ChildIndex index = new ChildIndex(UNDER, store, registry.clock());
            AllocationFaults.failAt(AllocationFaults.Kind.HEAP, 1);
            boolean built;
            try {
                built = index.build();
            } finally {
                AllocationFaults.disarm();
            }
            if (AllocationFaults.ENABLED) {
                assertFalse(built);
                assertFalse(index.isCurrent());
            }
            assertEquals(1, store.sourceCount(UNDER, parent), "the store is untouched");
            assertTrue(index.build(), "the next build works");
            TraversalStack stack = new TraversalStack(registry);
            assertEquals(List.of(child + "@1"), popped(stack, index.push(stack, parent, 1, 0), 0));
            registry.close();
        }
    }

    @Test
    void aRebuildGrowsItsSlotsForATargetInTheSlotJustPastTheLastBuild() {
        try (NativeMemory memory = new NativeMemory()) {
            ArchetypeRegistry registry = new ArchetypeRegistry(memory);
            SparseEdges store = registry.sparseEdges();
            long first = Entity.pack(5, 0);
            long next = Entity.pack(6, 0); // the slot one past the first build's last
            long a = Entity.pack(1, 0);
            long b = Entity.pack(2, 0);
            store.add(KEEPS, a, first, null);
            ChildIndex index = new ChildIndex(KEEPS, store, registry.clock());
            assertTrue(index.build());
            store.add(KEEPS, b, next, null);
            assertTrue(index.build());
            TraversalStack stack = new TraversalStack(registry);
            assertEquals(List.of(b + "@0"), popped(stack, index.push(stack, next, 0, 0), 0));
            assertEquals(List.of(a + "@1"), popped(stack, index.push(stack, first, 1, 0), 0));
            registry.close();
        }
    }

    @Test
    void aDenseRelationshipHasNoChildIndex() {
        Relationship dense = Relationships.register("test.childIndex.Dense", o -> o.reverseIndex());
        try (NativeMemory memory = new NativeMemory()) {
            ArchetypeRegistry registry = new ArchetypeRegistry(memory);
            assertThrows(IllegalArgumentException.class,
                    () -> new ChildIndex(dense, registry.sparseEdges(), registry.clock()));
            registry.close();
        }
    }

    @Test
    void repeatedTraversalsOfAStillHierarchyGoFlatAndStayRightThroughChanges() {
        // through the world: the first walks go to the store and earn the index, later ones read it; a reparent
        // mid-walk (from the visitor) sends the rest of that walk to the store, as the store's walks see it
        try (World world = World.create()) {
            long root = world.spawn();
            List<Long> nodes = new ArrayList<>(List.of(root));
            SplittableRandom random = new SplittableRandom(5);
            for (int i = 0; i < 200; i++) {
                nodes.add(world.spawn(ChildOf.COMPONENT.to(nodes.get(random.nextInt(nodes.size())))));
            }
            List<String> first = walk(world, root);
            assertEquals(200, first.size());
            for (int i = 0; i < 5; i++) {
                assertEquals(first, walk(world, root), "walk " + i);
            }
            long moved = nodes.get(150);
            long newParent = nodes.get(3);
            List<String> visits = new ArrayList<>();
            boolean[] done = {false};
            world.traverse(root, ChildOf.COMPONENT, (entity, depth) -> {
                visits.add(entity + "@" + depth);
                if (!done[0]) {
                    done[0] = true;
                    world.set(moved, ChildOf.COMPONENT.to(newParent)); // published now: scope depth 0
                }
            });
            assertEquals(200, visits.size(), "every entity once, the moved one included");
            List<String> after = walk(world, root);
            for (int i = 0; i < 3; i++) {
                assertEquals(after, walk(world, root));
            }
        }
    }

    private static List<String> walk(World world, long root) {
        List<String> visits = new ArrayList<>();
        world.traverse(root, ChildOf.COMPONENT, (entity, depth) -> visits.add(entity + "@" + depth));
        return visits;
    }
}
