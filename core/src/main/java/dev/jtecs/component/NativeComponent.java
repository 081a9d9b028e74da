package dev.jtecs.component;

import dev.jtecs.component.internal.RecordCodec;
import java.util.ArrayList;
import java.util.List;

/**
 * A component whose value is a record of primitive fields, stored as one off-heap column per field (true SoA).
 *
 * <p>Without a defaults factory, the default value has every field zero (and is written without constructing a
 * record). Field handles ({@link #floatField} and friends) select single columns for kernels and queries.
 *
 * @param <T> the record type
 */
public final class NativeComponent<T extends Record> extends BaseComponent<T> implements FieldSource {
    private final ComponentLayout layout;
    private final RecordCodec codec;

    NativeComponent(int id, Class<T> type, ComponentOptions<T> options) {
        super(id, type, options, type.getCanonicalName() != null ? type.getCanonicalName() : type.getName());
        this.codec = RecordCodec.of(type);
        List<String> names = List.of(codec.names());
        List<PrimitiveKind> kinds = new ArrayList<>(List.of(codec.kinds()));
        this.layout = new ComponentLayout(names, kinds, false);
    }

    @Override
    public StorageKind storage() {
        return StorageKind.NATIVE;
    }

    @Override
    public ComponentLayout layout() {
        return layout;
    }

    /** Whether a defaults factory was registered; without one the default is all zero bits. */
    public boolean hasDefaultFactory() {
        return defaults() != null;
    }

    @Override
    public T newDefault() {
        if (defaults() != null) {
            return produceDefault();
        }
        return valueType().cast(codec.construct(zeroArgs()));
    }

    private Object[] zeroArgs() {
        Object[] args = new Object[layout.nativeColumnCount()];
        for (int i = 0; i < args.length; i++) {
            args[i] = dev.jtecs.component.internal.TreeCodec.zero(layout.fieldKinds().get(i));
        }
        return args;
    }

    /**
     * One value as a snapshot saves it, as a detached tree: what the custom {@code save} codec returns, or without
     * one the automatic codec's map of field name to value in declaration order ({@code long} fields as decimal
     * strings, NaN and infinities as strings), the same values a table snapshot holds field by field.
     *
     * @throws IllegalArgumentException when a custom codec returns something that is not a detached tree
     */
    public Object snapshotSave(T value) {
        return snapshotEncode(value);
    }

    /**
     * The value a saved tree stands for, read as a snapshot load reads it: the custom {@code load} codec, or the
     * world-aware {@code deserialize} codec given {@code world} (the destination world), or without a custom
     * codec the automatic one ({@code world} unused; a field the map lacks takes zero). The inverse of
     * {@link #snapshotSave}.
     *
     * @throws IllegalArgumentException when {@code saved} is not a value of this component, a world-aware codec
     *     receives another world type, or a custom codec returns {@code null} or another type
     */
    public T snapshotLoad(Object saved, Object world) {
        return snapshotDecode(saved, world);
    }

    /** A constructed input carrying {@code value}. */
    public ComponentValue<T> of(T value) {
        return new ComponentValue<>(this, value);
    }

    @Override
    public Component<?> fieldOwner() {
        return this;
    }

    @Override
    public int fieldIndex(String field) {
        int index = layout.indexOf(field);
        if (index < 0) {
            throw new IllegalArgumentException("component " + name() + " has no field '" + field + "'; fields: "
                    + layout.fieldNames());
        }
        return index;
    }

}
