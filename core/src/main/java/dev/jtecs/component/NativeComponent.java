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
            args[i] = switch (layout.fieldKinds().get(i)) {
                case BYTE -> (byte) 0;
                case BOOLEAN -> false;
                case SHORT -> (short) 0;
                case CHAR -> (char) 0;
                case INT -> 0;
                case FLOAT -> 0f;
                case LONG -> 0L;
                case DOUBLE -> 0d;
            };
        }
        return args;
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
