package dev.jtecs.component;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class FloatFieldTest {
    record Holder(float value, long other) {}

    static final NativeComponent<Holder> HOLDER = Components.registerNative(Holder.class);

    @Test
    void selectsTheFieldOfItsKind() {
        FloatField field = HOLDER.floatField("value");
        assertEquals(HOLDER, field.component());
        assertEquals(0, field.field());
        assertEquals("value", field.name());
        assertEquals(field, new FloatField(HOLDER, 0));
    }

    @Test
    void rejectsAFieldOfAnotherKindOrIndex() {
        assertThrows(IllegalArgumentException.class, () -> new FloatField(HOLDER, 1));
        assertThrows(IllegalArgumentException.class, () -> new FloatField(HOLDER, 2));
        assertThrows(IllegalArgumentException.class, () -> new FloatField(HOLDER, -1));
        assertThrows(NullPointerException.class, () -> new FloatField(null, 0));
    }
}
