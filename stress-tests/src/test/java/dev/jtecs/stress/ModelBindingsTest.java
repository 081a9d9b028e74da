package dev.jtecs.stress;

import static dev.jtecs.stress.ModelOp.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.entity.Entity;
import java.util.List;
import org.junit.jupiter.api.Test;

class ModelBindingsTest {
    @Test
    void referencesResolveAgainstTheBoundIds() {
        ModelBindings bindings = new ModelBindings();
        assertEquals(0, bindings.last());
        assertEquals(Entity.pack(1, 2), bindings.resolve(beyond(1, 2))); // nothing seen yet: slot 1
        bindings.bind(0, Entity.pack(4, 1));
        bindings.bind(1, Entity.pack(2, 0));
        assertEquals(Entity.pack(4, 1), bindings.resolve(h(0)));
        assertEquals(Entity.pack(4, 3), bindings.resolve(revive(0, 2)));
        assertEquals(Entity.pack(7, 0), bindings.resolve(beyond(3, 0)));
        assertEquals(-1L, bindings.resolve(id(-1)));
        assertEquals(Entity.pack(2, 0), bindings.last());
        assertEquals(List.of(Entity.pack(4, 1), Entity.pack(2, 0)), bindings.seen());
        assertTrue(bindings.isBound(Entity.pack(2, 0)));
        assertFalse(bindings.isBound(Entity.pack(2, 1)));
    }

    @Test
    void anUnboundHandleNamesASlotNoModelWorldHas() {
        ModelBindings bindings = new ModelBindings();
        long id = bindings.resolve(h(9));
        assertEquals(ModelRef.UNBOUND_SLOT + 9, Entity.slot(id));
        assertTrue(Entity.slot(id) > ModelRun.MAX_ENTITIES);
        assertEquals(Entity.pack(1, 1), bindings.resolve(revive(9, 1))); // as beyond(1, 1)
    }

    @Test
    void anIdArrayMayRepeatAnotherMembersSlot() {
        ModelBindings bindings = new ModelBindings();
        bindings.bind(0, Entity.pack(3, 0));
        long[] ids = bindings.resolveAll(List.of(slotOf(1, 5), h(0), slotOf(1, 1), id(0)));
        assertEquals(Entity.pack(3, 5), ids[0]);
        assertEquals(Entity.pack(3, 0), ids[1]);
        assertEquals(Entity.pack(3, 1), ids[2]);
        assertEquals(0L, ids[3]);
        assertThrows(IllegalArgumentException.class, () -> bindings.resolve(slotOf(0, 0)));
    }
}
