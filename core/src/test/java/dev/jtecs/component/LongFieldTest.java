package dev.jtecs.component;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class LongFieldTest {
    record Holder(long value, int other) {}

    static final NativeComponent<Holder> HOLDER = Components.registerNative(Holder.class);

    @Test
    void selectsTheFieldOfItsKind() {
        LongField field = HOLDER.longField("value");
        assertEquals(HOLDER, field.component());
        assertEquals(0, field.field());
        assertEquals("value", field.name());
        assertEquals(field, new LongField(HOLDER, 0));
    }

    @Test
    void rejectsAFieldOfAnotherKindOrIndex() {
        assertThrows(IllegalArgumentException.class, () -> new LongField(HOLDER, 1));
        assertThrows(IllegalArgumentException.class, () -> new LongField(HOLDER, 2));
        assertThrows(IllegalArgumentException.class, () -> new LongField(HOLDER, -1));
        assertThrows(NullPointerException.class, () -> new LongField(null, 0));
    }
}
