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
    private final Archetype owner;
    private final long version;
    private final String label;

    /** A detached view of a caller's array (no archetype, never checked). */
    public ObjectColumn(Object[] array, Class<T> type) {
        this(array, type, false, null);
    }

    /**
     * A view of one column of {@code owner} (or a detached one when {@code null}) at its current
     * {@link Archetype#storageVersion()}, whose {@link #set} throws when {@code readOnly} (columns whose writes
     * must go through the world).
     */
    public ObjectColumn(Object[] array, Class<T> type, boolean readOnly, Archetype owner) {
        this(array, type, readOnly, owner, null);
    }

    /**
     * {@link #ObjectColumn(Object[], Class, boolean, Archetype)} with the column's {@code label} (the component
     * it holds), which the checked mode names.
     */
    public ObjectColumn(Object[] array, Class<T> type, boolean readOnly, Archetype owner, String label) {
        this.array = Objects.requireNonNull(array, "array");
        this.type = Objects.requireNonNull(type, "type");
        this.readOnly = readOnly;
        this.owner = owner;
        this.version = owner == null ? 0 : owner.storageVersion();
        this.label = label;
    }

    public T get(int row) {
        if (ViewChecks.ENABLED) {
            ViewChecks.row(this, label, owner, version, row);
        }
        return type.cast(array[row]);
    }

    /** Replaces one row's value; {@code null} is rejected (absence is structural, not a null value). */
    public void set(int row, T value) {
        if (readOnly) {
            throw new UnsupportedOperationException("this column is read-only: its values change through World.set");
        }
        if (ViewChecks.ENABLED) {
            ViewChecks.row(this, label, owner, version, row);
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

    /** The archetype this view belongs to, or {@code null} for a detached view. */
    public Archetype owner() {
        return owner;
    }
}
