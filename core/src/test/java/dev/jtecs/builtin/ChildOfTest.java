package dev.jtecs.builtin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.query.Query;
import dev.jtecs.query.QueryDescriptor;
import dev.jtecs.storage.Archetype;
import dev.jtecs.world.World;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ChildOfTest {
    @Test
    void theBuiltinIsExclusiveReverseIndexedCascadingAndDense() {
        assertEquals("ChildOf", ChildOf.COMPONENT.name());
        assertTrue(ChildOf.COMPONENT.isExclusive());
        assertTrue(ChildOf.COMPONENT.hasReverseIndex());
        assertTrue(ChildOf.COMPONENT.isCascadeDelete());
        assertFalse(ChildOf.COMPONENT.isSparse());
        assertSame(ChildOf.COMPONENT, ChildOf.ANY);
    }

    @Test
    void anySelectsEntitiesWithAnyParentAndItsExclusionSelectsRoots() {
        try (World world = World.create()) {
            long root = world.spawn();
            long child = world.spawn(ChildOf.COMPONENT.to(root));
            long grandchild = world.spawn(ChildOf.COMPONENT.to(child));
            Query roots = world.newQuery(QueryDescriptor.builder().exclude(ChildOf.ANY).build());
            Query children = world.newQuery(QueryDescriptor.builder().include(ChildOf.ANY).build());
            assertEquals(List.of(root), members(roots));
            assertEquals(List.of(child, grandchild), members(children));
        }
    }

    private static List<Long> members(Query query) {
        List<Long> out = new ArrayList<>();
        for (Archetype archetype : query.archetypes()) {
            for (int row = 0; row < archetype.count(); row++) {
                out.add(archetype.entity(row));
            }
        }
        out.sort(null);
        return out;
    }
}
