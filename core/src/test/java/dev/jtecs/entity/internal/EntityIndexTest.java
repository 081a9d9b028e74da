package dev.jtecs.entity.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.entity.Entity;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class EntityIndexTest {
    @Test
    void allocateHandsOutReservedIdsFromSlotOne() {
        EntityIndex index = new EntityIndex(10);
        long a = index.allocate();
        long b = index.allocate();
        assertEquals(1L, a);
        assertEquals(2L, b);
        assertEquals(EntityIndex.RESERVED, index.stateOf(a));
        assertFalse(index.isAlive(a));
    }

    @Test
    void publishMakesAliveAndRecordsLocation() {
        EntityIndex index = new EntityIndex(10);
        long id = index.allocate();
        index.publish(Entity.slot(id), 3, 7);
        assertTrue(index.isAlive(id));
        assertEquals(3, index.storeOf(Entity.slot(id)));
        assertEquals(7, index.rowOf(Entity.slot(id)));
        assertEquals(1, index.aliveCount());
    }

    @Test
    void freeBumpsGenerationSoStaleHandlesFail() {
        EntityIndex index = new EntityIndex(10);
        long id = index.allocate();
        index.publish(Entity.slot(id), 0, 0);
        index.free(Entity.slot(id));
        assertFalse(index.isAlive(id));
        long recycled = index.allocate();
        assertEquals(Entity.slot(id), Entity.slot(recycled));
        assertEquals(Entity.generation(id) + 1, Entity.generation(recycled));
        assertEquals(EntityIndex.FREE, index.stateOf(id));
        String message = assertThrows(IllegalArgumentException.class,
                () -> index.requireLiveOrReserved(id, "set")).getMessage();
        assertTrue(message.contains("slot=1") && message.contains("id generation=0")
                && message.contains("current generation=1"), message);
    }

    @Test
    void isAliveIsExactForAnyLong() {
        EntityIndex index = new EntityIndex(10);
        long id = index.allocate();
        index.publish(Entity.slot(id), 0, 0);
        for (long probe : new long[] {0, -1, Long.MIN_VALUE, Long.MAX_VALUE, id + (1L << 32), id + 1, 1L << 31}) {
            assertFalse(index.isAlive(probe), "probe " + probe);
        }
        assertTrue(index.isAlive(id));
    }

    @Test
    void capacityIsEnforced() {
        EntityIndex index = new EntityIndex(2);
        index.allocate();
        index.allocate();
        String message = assertThrows(IllegalStateException.class, index::allocate).getMessage();
        assertTrue(message.contains("maxEntities=2"), message);
    }

    @Test
    void reserveAtRevivesFreeSlotWithRequestedGeneration() {
        EntityIndex index = new EntityIndex(100);
        long id = Entity.pack(5, 9);
        index.reserveAt(id);
        assertEquals(EntityIndex.RESERVED, index.stateOf(id));
        // slots 1..4 were skipped and are free; allocation takes them, never slot 5
        Set<Integer> slots = new HashSet<>();
        for (int i = 0; i < 4; i++) {
            slots.add(Entity.slot(index.allocate()));
        }
        assertEquals(Set.of(1, 2, 3, 4), slots);
        assertEquals(6, Entity.slot(index.allocate()));
    }

    @Test
    void reserveAtRejectsSlotInUseAndChangesNothing() {
        EntityIndex index = new EntityIndex(100);
        long live = index.allocate();
        index.publish(Entity.slot(live), 0, 0);
        long sameSlotOtherGeneration = Entity.pack(Entity.slot(live), 4);
        assertThrows(IllegalArgumentException.class, () -> index.reserveAt(live));
        assertThrows(IllegalArgumentException.class, () -> index.reserveAt(sameSlotOtherGeneration));
        assertTrue(index.isAlive(live));
        assertEquals(2, index.highWater());
    }

    @Test
    void reserveAtRejectsMalformedAndOutOfRange() {
        EntityIndex index = new EntityIndex(10);
        assertThrows(IllegalArgumentException.class, () -> index.reserveAt(0));
        assertThrows(IllegalArgumentException.class, () -> index.reserveAt(-5));
        assertThrows(IllegalArgumentException.class, () -> index.reserveAt(Entity.pack(11, 0)));
        assertEquals(1, index.highWater());
    }

    @Test
    void reserveAtOfAFreedSlotRemovesItFromTheFreeStack() {
        EntityIndex index = new EntityIndex(10);
        long a = index.allocate();
        long b = index.allocate();
        index.free(Entity.slot(a));
        index.free(Entity.slot(b));
        index.reserveAt(Entity.pack(Entity.slot(a), 7));
        long next = index.allocate();
        assertEquals(Entity.slot(b), Entity.slot(next));
        assertEquals(3, Entity.slot(index.allocate()));
    }

    @Test
    void exhaustedGenerationRetiresTheSlot() {
        EntityIndex index = new EntityIndex(10);
        long old = Entity.pack(1, Entity.MAX_GENERATION);
        index.reserveAt(old);
        index.free(1);
        assertEquals(EntityIndex.RETIRED, index.stateOf(old));
        assertEquals(2, Entity.slot(index.allocate()));
        assertThrows(IllegalArgumentException.class, () -> index.reserveAt(Entity.pack(1, 0)));
    }

    @Test
    void rejectsBadCapacity() {
        assertThrows(IllegalArgumentException.class, () -> new EntityIndex(0));
        assertThrows(IllegalArgumentException.class, () -> new EntityIndex(Entity.MAX_ENTITIES + 1));
    }
}
