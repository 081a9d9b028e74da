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

class RelativeTransform2DTest {
    @Test
    void isANativeComponentNamedRelativeTransform2DWithFloatFields() {
        assertEquals("RelativeTransform2D", RelativeTransform2D.COMPONENT.name());
        assertSame(RelativeTransform2D.COMPONENT, Components.findByName("RelativeTransform2D"));
        assertEquals(List.of("x", "y", "z", "rotation", "scaleX", "scaleY", "originX", "originY"),
                RelativeTransform2D.COMPONENT.layout().fieldNames());
        assertEquals(Collections.nCopies(8, PrimitiveKind.FLOAT),
                RelativeTransform2D.COMPONENT.layout().fieldKinds());
    }

    @Test
    void theDefaultIsNoOffset() {
        assertEquals(new RelativeTransform2D(0, 0, 0, 0, 1, 1, 0, 0), RelativeTransform2D.IDENTITY);
        assertEquals(RelativeTransform2D.IDENTITY, RelativeTransform2D.COMPONENT.newDefault());
        assertEquals(new RelativeTransform2D(2, 3, 0, 0, 1, 1, 0, 0), RelativeTransform2D.offset(2, 3));
    }

    @Test
    void itBringsATransformToWriteInto() {
        try (World world = World.create()) {
            long parent = world.spawn(Transform2D.COMPONENT.of(Transform2D.at(1, 1)));
            long child = world.spawn(RelativeTransform2D.COMPONENT.of(RelativeTransform2D.offset(2, 3)),
                    ChildOf.COMPONENT.to(parent));
            assertTrue(world.has(child, Transform2D.COMPONENT));
            assertEquals(Transform2D.IDENTITY, world.get(child, Transform2D.COMPONENT), "until composed");
            long given = world.spawn(RelativeTransform2D.COMPONENT, Transform2D.COMPONENT.of(Transform2D.at(9, 9)));
            assertEquals(Transform2D.at(9, 9), world.get(given, Transform2D.COMPONENT), "an explicit one wins");
        }
    }
}
