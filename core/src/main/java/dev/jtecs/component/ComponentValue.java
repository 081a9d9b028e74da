package dev.jtecs.component;

import java.util.Objects;

/**
 * A constructed component value: a definition paired with the value to write.
 *
 * @param component the definition
 * @param value the value; for native and managed components a record or object of the definition's type, for
 *     scalar components the boxed raw value
 * @param <T> the value type
 */
public record ComponentValue<T>(Component<T> component, T value) implements Input {
    public ComponentValue {
        Objects.requireNonNull(component, "component");
        if (value == null) { // not a message supplier: a lambda capturing the component is an object per value
            throw new NullPointerException("value for component " + component.name());
        }
        if (!component.valueType().isInstance(value)) {
            throw new IllegalArgumentException("component " + component.name() + " holds "
                    + component.valueType().getName() + ", not " + value.getClass().getName());
        }
    }
}
