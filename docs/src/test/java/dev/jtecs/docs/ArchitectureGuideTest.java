package dev.jtecs.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.component.Components;
import dev.jtecs.component.FloatField;
import dev.jtecs.component.NativeComponent;
import dev.jtecs.storage.Archetype;
import dev.jtecs.world.World;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The examples of {@code docs/architecture.md}. */
class ArchitectureGuideTest {
    record Position(float x, float y) {}

    static final NativeComponent<Position> POSITION =
            Components.registerNative(Position.class, o -> o.name("docs.architecture.Position"));
    static final FloatField X = POSITION.floatField("x");

    @Test
    void aDirtyMarkQueuesTheArchetypeUntilTheFrameEnds() {
        try (World world = World.create()) {
            long id = world.spawn(POSITION.of(new Position(1, 2)));
            world.clearDirty(); // the spawn marked the archetype structurally dirty
            // begin-example
            Archetype archetype = world.archetypeOf(id);
            archetype.getMut(X).set(world.rowOf(id), 5f); // Table.markDirty -> DirtyState -> the dirty queue
            assertEquals(List.of(archetype), world.dirtyArchetypes()); // in first-dirtied order
            assertTrue(archetype.isComponentDirty(POSITION));
            assertEquals(1, archetype.writeCount(POSITION)); // counts survive clears

            world.update(1 / 60.0); // the frame ends: every mark is cleared
            assertTrue(world.dirtyArchetypes().isEmpty());
            assertFalse(archetype.isComponentDirty(POSITION));
            // end-example
        }
    }
}
