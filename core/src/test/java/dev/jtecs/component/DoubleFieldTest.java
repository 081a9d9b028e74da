package dev.jtecs.component;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class DoubleFieldTest {
    record Holder(double value, long other) {}

    static final NativeComponent<Holder> HOLDER = Components.registerNative(Holder.class);

    @Test
    void selectsTheFieldOfItsKind() {
        DoubleField field = HOLDER.doubleField("value");
        assertEquals(HOLDER, field.component());
        assertEquals(0, field.field());
        assertEquals("value", field.name());
        assertEquals(field, new DoubleField(HOLDER, 0));
    }

    @Test
    void rejectsAFieldOfAnotherKindOrIndex() {
        assertThrows(IllegalArgumentException.class, () -> new DoubleField(HOLDER, 1));
        assertThrows(IllegalArgumentException.class, () -> new DoubleField(HOLDER, 2));
        assertThrows(IllegalArgumentException.class, () -> new DoubleField(HOLDER, -1));
        assertThrows(NullPointerException.class, () -> new DoubleField(null, 0));
    }
}
