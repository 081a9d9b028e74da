package dev.jtecs.component;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class IntFieldTest {
    record Holder(int value, long other) {}

    static final NativeComponent<Holder> HOLDER = Components.registerNative(Holder.class);

    @Test
    void selectsTheFieldOfItsKind() {
        IntField field = HOLDER.intField("value");
        assertEquals(HOLDER, field.component());
        assertEquals(0, field.field());
        assertEquals("value", field.name());
        assertEquals(field, new IntField(HOLDER, 0));
    }

    @Test
    void rejectsAFieldOfAnotherKindOrIndex() {
        assertThrows(IllegalArgumentException.class, () -> new IntField(HOLDER, 1));
        assertThrows(IllegalArgumentException.class, () -> new IntField(HOLDER, 2));
        assertThrows(IllegalArgumentException.class, () -> new IntField(HOLDER, -1));
        assertThrows(NullPointerException.class, () -> new IntField(null, 0));
    }
}
