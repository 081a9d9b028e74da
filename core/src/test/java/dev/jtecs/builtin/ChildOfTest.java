package dev.jtecs.builtin;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.entity.Entity;
import dev.jtecs.query.Query;
import dev.jtecs.query.QueryDescriptor;
import dev.jtecs.storage.Archetype;
import dev.jtecs.world.World;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ChildOfTest {
    @Test
    void theBuiltinIsExclusiveReverseIndexedCascadingAndSparse() {
        assertEquals("ChildOf", ChildOf.COMPONENT.name());
        assertTrue(ChildOf.COMPONENT.isExclusive());
        assertTrue(ChildOf.COMPONENT.hasReverseIndex());
        assertTrue(ChildOf.COMPONENT.isCascadeDelete());
        assertTrue(ChildOf.COMPONENT.isSparse());
        assertSame(ChildOf.COMPONENT, ChildOf.ANY);
        assertThrows(IllegalArgumentException.class, () -> ChildOf.COMPONENT.targeting(Entity.pack(1, 0)));
    }

    @Test
    void childrenOfEveryParentShareOneArchetypeAndReparentingMovesNoRow() {
        try (World world = World.create()) {
            long[] parents = new long[50];
            for (int i = 0; i < parents.length; i++) {
                parents[i] = world.spawn();
            }
            int archetypes = world.archetypeCount();
            long first = world.spawn(ChildOf.COMPONENT.to(parents[0]));
            for (int i = 1; i < parents.length; i++) {
                long child = world.spawn(ChildOf.COMPONENT.to(parents[i]));
                assertSame(world.archetypeOf(first), world.archetypeOf(child));
            }
            assertEquals(archetypes + 1, world.archetypeCount()); // [ChildOf] alone, whatever the parents
            int row = world.rowOf(first);
            world.set(first, ChildOf.COMPONENT.to(parents[7])); // reparented: the store changes, the row stays
            assertEquals(row, world.rowOf(first));
            assertEquals(parents[7], world.get(first, ChildOf.COMPONENT).target());
            assertArrayEquals(new long[] {first, world.archetypeOf(first).entity(7)},
                    world.relationshipSources(ChildOf.COMPONENT, parents[7]));
        }
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
