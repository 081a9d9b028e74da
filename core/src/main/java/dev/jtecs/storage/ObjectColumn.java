package dev.jtecs.storage;

import java.util.Objects;

/**
 * A view of one heap column of references (managed components and string scalars).
 *
 * <p>Valid until the archetype's next structural change, like the off-heap views.
 *
 * @param <T> the element type
 */
public final class ObjectColumn<T> {
    private final Object[] array;
    private final Class<T> type;

    public ObjectColumn(Object[] array, Class<T> type) {
        this.array = Objects.requireNonNull(array, "array");
        this.type = Objects.requireNonNull(type, "type");
    }

    public T get(int row) {
        return type.cast(array[row]);
    }

    /** Replaces one row's value; {@code null} is rejected (absence is structural, not a null value). */
    public void set(int row, T value) {
        array[row] = type.cast(Objects.requireNonNull(value, "value"));
    }

    public int capacityRows() {
        return array.length;
    }

    public Class<T> type() {
        return type;
    }
}
