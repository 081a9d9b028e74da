package dev.jtecs.component;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class BooleanFieldTest {
    record Holder(boolean value, long other) {}

    static final NativeComponent<Holder> HOLDER = Components.registerNative(Holder.class);

    @Test
    void selectsTheFieldOfItsKind() {
        BooleanField field = HOLDER.booleanField("value");
        assertEquals(HOLDER, field.component());
        assertEquals(0, field.field());
        assertEquals("value", field.name());
        assertEquals(field, new BooleanField(HOLDER, 0));
    }

    @Test
    void rejectsAFieldOfAnotherKindOrIndex() {
        assertThrows(IllegalArgumentException.class, () -> new BooleanField(HOLDER, 1));
        assertThrows(IllegalArgumentException.class, () -> new BooleanField(HOLDER, 2));
        assertThrows(IllegalArgumentException.class, () -> new BooleanField(HOLDER, -1));
        assertThrows(NullPointerException.class, () -> new BooleanField(null, 0));
    }
}
