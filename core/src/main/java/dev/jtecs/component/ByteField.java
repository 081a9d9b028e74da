package dev.jtecs.component;

import java.util.Objects;

/**
 * A typed handle on one byte field of a native component (or of a native payload relationship's selector): selects one SoA column in {@code Archetype.get}.
 *
 * @param component the native component
 * @param field the field's index in declaration order
 */
public record ByteField(Component<?> component, int field) implements FieldHandle {
    public ByteField {
        Objects.requireNonNull(component, "component");
        FieldHandle.check(component, field, PrimitiveKind.BYTE);
    }
}
