package dev.jtecs.component;

/**
 * A component holding one raw value per row: {@code double}, {@code long}, {@code int} and {@code boolean} in an
 * off-heap column, {@code String} in a heap column. Numeric scalars are also column selectors in
 * {@code Archetype.get}.
 *
 * @param <T> the boxed value type {@code World.get} returns
 */
public abstract sealed class ScalarComponent<T> extends BaseComponent<T>
        permits ScalarComponent.OfDouble, ScalarComponent.OfLong, ScalarComponent.OfInt, ScalarComponent.OfBoolean,
                ScalarComponent.OfString {

    private final T scalarDefault;

    ScalarComponent(int id, String name, Class<T> type, T scalarDefault, ComponentOptions<T> options) {
        super(id, type, options, name);
        this.scalarDefault = scalarDefault;
    }

    @Override
    public final StorageKind storage() {
        return StorageKind.SCALAR;
    }

    /** The value rows receive when the definition itself is the input. */
    public final T scalarDefault() {
        return scalarDefault;
    }

    @Override
    public final T newDefault() {
        return scalarDefault;
    }

    /**
     * One value as a snapshot saves it, as a detached tree: what the custom {@code save} codec returns, or without
     * one the value itself (a {@code long} as a decimal string, a non-finite {@code double} as a string).
     *
     * @throws IllegalArgumentException when a custom codec returns something that is not a detached tree
     */
    public final Object snapshotSave(T value) {
        return snapshotEncode(value);
    }

    /**
     * The value a saved tree stands for, read as a snapshot load reads it: the custom {@code load} codec, or the
     * world-aware {@code deserialize} codec given {@code world} (the destination world), or without a custom
     * codec the automatic one ({@code world} unused). The inverse of {@link #snapshotSave}.
     *
     * @throws IllegalArgumentException when {@code saved} is not a value of this component, a world-aware codec
     *     receives another world type, or a custom codec returns {@code null} or another type
     */
    public final T snapshotLoad(Object saved, Object world) {
        return snapshotDecode(saved, world);
    }

    /** A constructed input carrying the boxed value. */
    public final ComponentValue<T> ofBoxed(T value) {
        return new ComponentValue<>(this, value);
    }

    /** A {@code double} scalar. */
    public static final class OfDouble extends ScalarComponent<Double> {
        private static final ComponentLayout LAYOUT = ComponentLayout.single(PrimitiveKind.DOUBLE);

        OfDouble(int id, String name, double value, ComponentOptions<Double> options) {
            super(id, name, Double.class, value, options);
        }

        public ComponentValue<Double> of(double value) {
            return ofBoxed(value);
        }

        @Override
        public ComponentLayout layout() {
            return LAYOUT;
        }
    }

    /** A {@code long} scalar. */
    public static final class OfLong extends ScalarComponent<Long> {
        private static final ComponentLayout LAYOUT = ComponentLayout.single(PrimitiveKind.LONG);

        OfLong(int id, String name, long value, ComponentOptions<Long> options) {
            super(id, name, Long.class, value, options);
        }

        public ComponentValue<Long> of(long value) {
            return ofBoxed(value);
        }

        @Override
        public ComponentLayout layout() {
            return LAYOUT;
        }
    }

    /** An {@code int} scalar. */
    public static final class OfInt extends ScalarComponent<Integer> {
        private static final ComponentLayout LAYOUT = ComponentLayout.single(PrimitiveKind.INT);

        OfInt(int id, String name, int value, ComponentOptions<Integer> options) {
            super(id, name, Integer.class, value, options);
        }

        public ComponentValue<Integer> of(int value) {
            return ofBoxed(value);
        }

        @Override
        public ComponentLayout layout() {
            return LAYOUT;
        }
    }

    /** A {@code boolean} scalar, stored as one byte (0 or 1). */
    public static final class OfBoolean extends ScalarComponent<Boolean> {
        private static final ComponentLayout LAYOUT = ComponentLayout.single(PrimitiveKind.BOOLEAN);

        OfBoolean(int id, String name, boolean value, ComponentOptions<Boolean> options) {
            super(id, name, Boolean.class, value, options);
        }

        public ComponentValue<Boolean> of(boolean value) {
            return ofBoxed(value);
        }

        @Override
        public ComponentLayout layout() {
            return LAYOUT;
        }
    }

    /** A {@code String} scalar, stored in a heap column. */
    public static final class OfString extends ScalarComponent<String> {
        OfString(int id, String name, String value, ComponentOptions<String> options) {
            super(id, name, String.class, value, options);
        }

        public ComponentValue<String> of(String value) {
            return ofBoxed(value);
        }

        @Override
        public ComponentLayout layout() {
            return ComponentLayout.HEAP;
        }
    }
}
