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
    private final boolean readOnly;

    public ObjectColumn(Object[] array, Class<T> type) {
        this(array, type, false);
    }

    /** A view whose {@link #set} throws when {@code readOnly} (columns whose writes must go through the world). */
    public ObjectColumn(Object[] array, Class<T> type, boolean readOnly) {
        this.array = Objects.requireNonNull(array, "array");
        this.type = Objects.requireNonNull(type, "type");
        this.readOnly = readOnly;
    }

    public T get(int row) {
        return type.cast(array[row]);
    }

    /** Replaces one row's value; {@code null} is rejected (absence is structural, not a null value). */
    public void set(int row, T value) {
        if (readOnly) {
            throw new UnsupportedOperationException("this column is read-only: its values change through World.set");
        }
        array[row] = type.cast(Objects.requireNonNull(value, "value"));
    }

    public boolean isReadOnly() {
        return readOnly;
    }

    public int capacityRows() {
        return array.length;
    }

    public Class<T> type() {
        return type;
    }
}
