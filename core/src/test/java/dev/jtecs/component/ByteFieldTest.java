package dev.jtecs.component;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class ByteFieldTest {
    record Holder(byte value, long other) {}

    static final NativeComponent<Holder> HOLDER = Components.registerNative(Holder.class);

    @Test
    void selectsTheFieldOfItsKind() {
        ByteField field = HOLDER.byteField("value");
        assertEquals(HOLDER, field.component());
        assertEquals(0, field.field());
        assertEquals("value", field.name());
        assertEquals(field, new ByteField(HOLDER, 0));
    }

    @Test
    void rejectsAFieldOfAnotherKindOrIndex() {
        assertThrows(IllegalArgumentException.class, () -> new ByteField(HOLDER, 1));
        assertThrows(IllegalArgumentException.class, () -> new ByteField(HOLDER, 2));
        assertThrows(IllegalArgumentException.class, () -> new ByteField(HOLDER, -1));
        assertThrows(NullPointerException.class, () -> new ByteField(null, 0));
    }
}
