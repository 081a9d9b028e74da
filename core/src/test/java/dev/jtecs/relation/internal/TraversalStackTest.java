package dev.jtecs.relation.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.component.Relationship;
import dev.jtecs.component.Relationships;
import dev.jtecs.storage.internal.ArchetypeRegistry;
import dev.jtecs.storage.internal.NativeMemory;
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
}
