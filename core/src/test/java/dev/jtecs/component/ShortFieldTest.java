package dev.jtecs.component;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class ShortFieldTest {
    record Holder(short value, long other) {}

    static final NativeComponent<Holder> HOLDER = Components.registerNative(Holder.class);

    @Test
    void selectsTheFieldOfItsKind() {
        ShortField field = HOLDER.shortField("value");
        assertEquals(HOLDER, field.component());
        assertEquals(0, field.field());
        assertEquals("value", field.name());
        assertEquals(field, new ShortField(HOLDER, 0));
    }

    @Test
    void rejectsAFieldOfAnotherKindOrIndex() {
        assertThrows(IllegalArgumentException.class, () -> new ShortField(HOLDER, 1));
        assertThrows(IllegalArgumentException.class, () -> new ShortField(HOLDER, 2));
        assertThrows(IllegalArgumentException.class, () -> new ShortField(HOLDER, -1));
        assertThrows(NullPointerException.class, () -> new ShortField(null, 0));
    }
}
