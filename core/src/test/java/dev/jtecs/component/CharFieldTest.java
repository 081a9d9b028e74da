package dev.jtecs.component;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class CharFieldTest {
    record Holder(char value, long other) {}

    static final NativeComponent<Holder> HOLDER = Components.registerNative(Holder.class);

    @Test
    void selectsTheFieldOfItsKind() {
        CharField field = HOLDER.charField("value");
        assertEquals(HOLDER, field.component());
        assertEquals(0, field.field());
        assertEquals("value", field.name());
        assertEquals(field, new CharField(HOLDER, 0));
    }

    @Test
    void rejectsAFieldOfAnotherKindOrIndex() {
        assertThrows(IllegalArgumentException.class, () -> new CharField(HOLDER, 1));
        assertThrows(IllegalArgumentException.class, () -> new CharField(HOLDER, 2));
        assertThrows(IllegalArgumentException.class, () -> new CharField(HOLDER, -1));
        assertThrows(NullPointerException.class, () -> new CharField(null, 0));
    }
}
