package dev.jtecs.bench.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.builtin.ChildOf;
import dev.jtecs.world.World;
import org.junit.jupiter.api.Test;

class ForestTest {
    @Test
    void theTransformsShapedForestHoldsCompleteTreesOfForty() {
        Forest forest = Forest.transformsShaped(120);
        assertEquals(3, forest.roots().length);
        assertEquals(3 * 27, forest.leaves().length);
        assertEquals(120, forest.parent.length);
        assertThrows(IllegalArgumentException.class, () -> Forest.transformsShaped(100), "not a multiple of 40");
    }

    @Test
    void theStorageParameterNamesSparseChildOfOrItsDenseTwin() {
        assertSame(ChildOf.COMPONENT, Forest.parentOf("sparse"));
        assertFalse(Forest.parentOf("dense").isSparse());
        assertTrue(Forest.parentOf("dense").isCascadeDelete());
        assertThrows(IllegalArgumentException.class, () -> Forest.parentOf("columnar"));
    }

    @Test
    void aSparseForestInAWorldHasTheSameShape() {
        Forest forest = Forest.transformsShaped(40);
        try (World world = World.create()) {
            long[] ids = forest.spawnInto(world, Forest.parentOf("sparse"));
            assertEquals(40, world.entityCount());
            assertEquals(3, world.relationshipSources(ChildOf.COMPONENT, ids[0]).length);
            assertFalse(world.has(ids[0], ChildOf.COMPONENT), "the root has no parent");
        }
    }
}
