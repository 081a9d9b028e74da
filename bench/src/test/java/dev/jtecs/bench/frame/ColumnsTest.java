package dev.jtecs.bench.frame;

import static dev.jtecs.bench.particles.Particles.POSITION;
import static dev.jtecs.bench.particles.Particles.VX;
import static dev.jtecs.bench.particles.Particles.X;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.bench.particles.Particles.Position;
import dev.jtecs.builtin.TTL;
import dev.jtecs.builtin.Transform2D;
import dev.jtecs.storage.Archetype;
import dev.jtecs.world.World;
import org.junit.jupiter.api.Test;

class ColumnsTest {
    @Test
    void readsAnyFieldTypeWithoutMarkingIt() {
        try (World world = World.create()) {
            long id = world.spawn(POSITION.of(new Position(3, 4)), TTL.COMPONENT.of(new TTL(2.5)),
                    Transform2D.COMPONENT);
            Archetype archetype = world.archetypeOf(id);
            world.clearDirty();
            assertEquals(3f, Columns.segment(archetype, X).getAtIndex(java.lang.foreign.ValueLayout.JAVA_FLOAT, 0));
            assertEquals(2.5, Columns.segment(archetype, TTL.REMAINING)
                    .getAtIndex(java.lang.foreign.ValueLayout.JAVA_DOUBLE, 0));
            assertEquals(1, Columns.segment(archetype, Transform2D.SCALE_X)
                    .getAtIndex(java.lang.foreign.ValueLayout.JAVA_FLOAT, 0));
            assertTrue(archetype.dirtyComponents().isEmpty());
            assertNull(Columns.read(archetype, VX));
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> Columns.segment(archetype, VX));
            assertTrue(e.getMessage().contains("has no column x of"), e.getMessage());
        }
    }

    @Test
    void knowsEachFieldsElementSize() {
        assertEquals(4, Columns.elementBytes(X));
        assertEquals(8, Columns.elementBytes(TTL.REMAINING));
        assertEquals(4, Columns.elementBytes(Transform2D.LAYER));
    }
}
