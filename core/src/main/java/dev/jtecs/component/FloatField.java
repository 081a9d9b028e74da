package dev.jtecs.component;

import java.util.Objects;

/**
 * A typed handle on one float field of a native component: selects one SoA column in {@code Archetype.get}.
 *
 * @param component the native component
 * @param field the field's index in declaration order
 */
public record FloatField(NativeComponent<?> component, int field) implements FieldHandle {
    public FloatField {
        Objects.requireNonNull(component, "component");
        FieldHandle.check(component, field, PrimitiveKind.FLOAT);
    }
}
