package dev.jtecs.builtin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.component.Components;
import dev.jtecs.component.PrimitiveKind;
import dev.jtecs.world.World;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

class PreviousTransform2DTest {
    @Test
    void isANativeComponentNamedPreviousTransform2DWithFloatFields() {
        assertEquals("PreviousTransform2D", PreviousTransform2D.COMPONENT.name());
        assertSame(PreviousTransform2D.COMPONENT, Components.findByName("PreviousTransform2D"));
        assertEquals(List.of("x", "y", "rotation"), PreviousTransform2D.COMPONENT.layout().fieldNames());
        assertEquals(Collections.nCopies(3, PrimitiveKind.FLOAT),
                PreviousTransform2D.COMPONENT.layout().fieldKinds());
        assertEquals(new PreviousTransform2D(0, 0, 0), PreviousTransform2D.COMPONENT.newDefault());
    }

    @Test
    void ofTakesAPose() {
        assertEquals(new PreviousTransform2D(1, 2, 0.5f),
                PreviousTransform2D.of(new Transform2D(1, 2, 3, 4, 0.5f, 6, 7)));
    }

    @Test
    void itBringsATransform() {
        try (World world = World.create()) {
            long id = world.spawn(PreviousTransform2D.COMPONENT);
            assertTrue(world.has(id, Transform2D.COMPONENT));
            assertEquals(Transform2D.IDENTITY, world.get(id, Transform2D.COMPONENT));
        }
    }
}
