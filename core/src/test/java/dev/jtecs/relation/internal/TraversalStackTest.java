package dev.jtecs.relation.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.component.Relationship;
import dev.jtecs.component.Relationships;
import dev.jtecs.storage.internal.ArchetypeRegistry;
import dev.jtecs.storage.internal.NativeMemory;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The walks' reusable stack: children pushed to pop in ascending id order, visit stamps without clearing. */
class TraversalStackTest {
    static final Relationship UNDER = Relationships.register("test.stack.Under", o -> o.reverseIndex());
    static final Relationship SPARSE_UNDER = Relationships.register("test.stack.SparseUnder",
            o -> o.sparse().exclusive().reverseIndex());

    @Test
    void sparseChildrenPopAscendingAndTheStackGrowsForAWideParent() {
        // 150 children of one parent, added in a shuffled order, pushed above 40 entries already on the stack
        // (more than the stack's first 64 entries hold): they pop in ascending id order, all at the given depth
        try (NativeMemory memory = new NativeMemory()) {
            ArchetypeRegistry registry = new ArchetypeRegistry(memory);
            long parent = dev.jtecs.entity.Entity.pack(1, 0);
            java.util.List<Long> children = new java.util.ArrayList<>();
            for (int i = 0; i < 150; i++) {
                children.add(dev.jtecs.entity.Entity.pack(2 + i, i % 4));
            }
            java.util.Collections.shuffle(children, new java.util.Random(21));
            for (long child : children) {
                registry.sparseEdges().add(SPARSE_UNDER, child, parent, null);
            }
            TraversalStack stack = new TraversalStack(registry);
            int top = stack.pushChildren(SPARSE_UNDER, parent, 7, 40);
            assertEquals(190, top);
            java.util.Collections.sort(children);
            for (int i = 0; i < children.size(); i++) {
                assertEquals(children.get(i), stack.entities[--top], "pop " + i);
                assertEquals(7, stack.depths[top]);
            }
            assertEquals(40, top);
            registry.close();
        }
    }

    @Test
    void visitStampsForgetEverySlotWithoutClearingAndGrowOnDemand() {
        try (NativeMemory memory = new NativeMemory()) {
            ArchetypeRegistry registry = new ArchetypeRegistry(memory);
            TraversalStack stack = new TraversalStack(registry);
            stack.newVisit();
            assertTrue(stack.markSeen(3));
            assertFalse(stack.markSeen(3), "seen in this visit");
            assertTrue(stack.markSeen(10_000), "stamps grow to any slot");
            stack.newVisit();
            assertTrue(stack.markSeen(3), "a new visit starts unseen");
            registry.close();
        }
    }

    @Test
    void aTargetWithoutEdgesPushesNothing() {
        try (NativeMemory memory = new NativeMemory()) {
            ArchetypeRegistry registry = new ArchetypeRegistry(memory);
            TraversalStack stack = new TraversalStack(registry);
            assertEquals(5, stack.pushChildren(UNDER, 42, 0, 5), "the top stays where it was");
            registry.close();
        }
    }

    @Test
    void aWideDenseParentsChildrenFromSeveralArchetypesPopAscending() {
        // children alternate between two archetypes, so the rows read are not in id order; odd and even widths
        // meet the reversal with and without a middle entry; 100 also grow the stack past its first 64 entries
        try (dev.jtecs.world.World world = dev.jtecs.world.World.create()) {
            for (int width : new int[] {2, 7, 24, 25, 100}) {
                long parent = world.spawn();
                List<Long> children = new ArrayList<>();
                for (int i = 0; i < width; i++) {
                    children.add(i % 2 == 0 ? world.spawn(UNDER.to(parent))
                            : world.spawn(UNDER.to(parent), RelationFixtures.MARK));
                }
                List<Long> visits = new ArrayList<>();
                world.traverse(parent, UNDER, (entity, depth) -> visits.add(entity));
                assertEquals(children, visits, "width " + width);
            }
        }
    }

    @Test
    void aDenseSortStaysInsideItsRangeAboveStaleEntries() {
        // the stack keeps the entries of an earlier walk above the top; sorting a later push must not take them in
        try (dev.jtecs.world.World world = dev.jtecs.world.World.create()) {
            long small = world.spawn();
            long s1 = world.spawn(UNDER.to(small));
            long s2 = world.spawn(UNDER.to(small));
            long large = world.spawn();
            for (int i = 0; i < 5; i++) {
                world.spawn(UNDER.to(large));
            }
            int[] count = {0};
            world.traverse(large, UNDER, (entity, depth) -> count[0]++);
            assertEquals(5, count[0]);
            List<Long> visits = new ArrayList<>();
            world.traverse(small, UNDER, (entity, depth) -> visits.add(entity));
            assertEquals(List.of(s1, s2), visits);
        }
    }

    @Test
    void theStackGrowsByDoublingAndOnlyWhenAPushOverflowsIt() {
        try (NativeMemory memory = new NativeMemory()) {
            ArchetypeRegistry registry = new ArchetypeRegistry(memory);
            TraversalStack stack = new TraversalStack(registry);
            long[] ascending = new long[200];
            for (int i = 0; i < ascending.length; i++) {
                ascending[i] = 1_000 + i;
            }
            assertEquals(64, stack.pushDescending(ascending, 10, 74, 2, 0));
            assertEquals(64, stack.entities.length, "64 entries fill the stack without growing it");
            assertEquals(65, stack.pushDescending(ascending, 0, 1, 3, 64));
            assertEquals(128, stack.entities.length, "one more doubles it");
            assertEquals(128, stack.depths.length);
            assertEquals(1_000, stack.entities[64]);
            assertEquals(3, stack.depths[64]);
            for (int i = 0; i < 64; i++) {
                assertEquals(1_010 + i, stack.entities[63 - i], "entry " + (63 - i) + " pops in ascending order");
                assertEquals(2, stack.depths[63 - i]);
            }
            assertEquals(65 + 200, stack.pushDescending(ascending, 0, 200, 0, 65), "a push beyond double");
            assertEquals(265, stack.entities.length, "grows to what the push needs when doubling is not enough");
            registry.close();
        }
    }
}
