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
