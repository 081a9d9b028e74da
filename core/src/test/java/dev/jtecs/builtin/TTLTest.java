package dev.jtecs.builtin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.jtecs.component.Components;
import dev.jtecs.component.PrimitiveKind;
import dev.jtecs.world.World;
import java.util.List;
import org.junit.jupiter.api.Test;

class TTLTest {
    @Test
    void isANativeComponentNamedTTLWithDoubleFields() {
        assertEquals("TTL", TTL.COMPONENT.name());
        assertSame(TTL.COMPONENT, Components.findByName("TTL"));
        assertEquals(List.of("startingTime", "remaining"), TTL.COMPONENT.layout().fieldNames());
        assertEquals(List.of(PrimitiveKind.DOUBLE, PrimitiveKind.DOUBLE), TTL.COMPONENT.layout().fieldKinds());
    }

    @Test
    void aLifetimeInSecondsSetsBothFields() {
        assertEquals(new TTL(0.5, 0.5), new TTL(0.5));
        try (World world = World.create()) {
            long id = world.spawn(TTL.COMPONENT.of(new TTL(2)));
            assertEquals(new TTL(2, 2), world.get(id, TTL.COMPONENT));
        }
    }

    @Test
    void percentCompleteRunsFromZeroToOne() {
        assertEquals(0.0, new TTL(2).percentComplete());
        assertEquals(0.25, new TTL(2, 1.5).percentComplete());
        assertEquals(1.0, new TTL(2, 0).percentComplete());
    }

    @Test
    void percentCompleteIsClamped() {
        assertEquals(1.0, new TTL(2, -0.5).percentComplete(), "overspent");
        assertEquals(0.0, new TTL(2, 3).percentComplete(), "extended past the start");
        assertEquals(1.0, new TTL(0, 0).percentComplete(), "no budget counts as spent");
        assertEquals(1.0, new TTL(-1, 5).percentComplete());
        assertEquals(1.0, new TTL(Double.NaN, 1).percentComplete());
    }
}
