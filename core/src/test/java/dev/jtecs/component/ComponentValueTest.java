package dev.jtecs.component;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class ComponentValueTest {
    record Speed(float v) {}

    static final NativeComponent<Speed> SPEED = Components.registerNative(Speed.class);

    @Test
    void carriesComponentAndValue() {
        ComponentValue<Speed> value = new ComponentValue<>(SPEED, new Speed(3));
        assertEquals(SPEED, value.component());
        assertEquals(new Speed(3), value.value());
        assertEquals(value, SPEED.of(new Speed(3)));
    }

    @Test
    void rejectsNullAndWrongType() {
        assertThrows(NullPointerException.class, () -> new ComponentValue<>(SPEED, null));
        assertThrows(NullPointerException.class, () -> new ComponentValue<>(null, new Speed(1)));
        @SuppressWarnings({"unchecked", "rawtypes"})
        Component<Object> raw = (Component) SPEED;
        assertThrows(IllegalArgumentException.class, () -> new ComponentValue<>(raw, "not a speed"));
    }
}
