package dev.jtecs.entity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class EntityTest {
    @Test
    void packRoundTripsSlotAndGeneration() {
        long id = Entity.pack(12345, 678);
        assertEquals(12345, Entity.slot(id));
        assertEquals(678, Entity.generation(id));
        assertTrue(id > 0);
    }

    @Test
    void freshSlotsAtGenerationZeroAreSmallIntegers() {
        assertEquals(1L, Entity.pack(1, 0));
        assertEquals(42L, Entity.pack(42, 0));
    }

    @Test
    void extremesStayPositiveAndRoundTrip() {
        long id = Entity.pack(Entity.MAX_ENTITIES, Entity.MAX_GENERATION);
        assertTrue(id > 0);
        assertEquals(Entity.MAX_ENTITIES, Entity.slot(id));
        assertEquals(Entity.MAX_GENERATION, Entity.generation(id));
        assertTrue(Entity.isWellFormed(id));
    }

    @Test
    void slotZeroIsNeverAnEntity() {
        assertThrows(IllegalArgumentException.class, () -> Entity.pack(0, 0));
        assertFalse(Entity.isWellFormed(Entity.WORLD));
        assertEquals("world(0)", Entity.toString(0));
    }

    @Test
    void malformedIdsAreRejected() {
        assertFalse(Entity.isWellFormed(-1));
        assertFalse(Entity.isWellFormed(Long.MIN_VALUE));
        assertFalse(Entity.isWellFormed(5L << 32)); // generation 5, slot 0
        assertFalse(Entity.isWellFormed(Entity.MAX_ENTITIES + 1L));
        assertThrows(IllegalArgumentException.class, () -> Entity.pack(Entity.MAX_ENTITIES + 1, 0));
        assertThrows(IllegalArgumentException.class, () -> Entity.pack(1, -1));
        assertTrue(Entity.toString(-7).startsWith("malformed"));
    }

    @Test
    void toStringShowsSlotAndGeneration() {
        assertEquals("7#3", Entity.toString(Entity.pack(7, 3)));
    }

    @Test
    void defaultCapacityFitsTheFormat() {
        assertTrue(Entity.DEFAULT_MAX_ENTITIES <= Entity.MAX_ENTITIES);
    }
}
