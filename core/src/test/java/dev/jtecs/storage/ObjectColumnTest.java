package dev.jtecs.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class ObjectColumnTest {
    @Test
    void getAndSetAreTyped() {
        Object[] array = new Object[4];
        ObjectColumn<String> column = new ObjectColumn<>(array, String.class);
        assertNull(column.get(0));
        column.set(2, "two");
        assertEquals("two", column.get(2));
        assertEquals("two", array[2]);
        assertEquals(4, column.capacityRows());
        assertEquals(String.class, column.type());
        assertNull(column.owner(), "detached: no archetype");
    }

    @Test
    void rejectsNullAndForeignTypes() {
        Object[] array = {42};
        ObjectColumn<String> column = new ObjectColumn<>(array, String.class);
        assertThrows(NullPointerException.class, () -> column.set(0, null));
        assertThrows(ClassCastException.class, () -> column.get(0));
        assertThrows(ArrayIndexOutOfBoundsException.class, () -> column.get(1));
    }
}
