package dev.jtecs.component;

import java.util.List;
import java.util.function.Supplier;

/**
 * What every definition kind shares: id, name, value type, transient flag, default factory and requirements.
 * Public only so that type inference over mixed definitions (as in {@code List.of(POSITION, HEALTH)}) stays
 * nameable; it is sealed and cannot be extended. Equality is identity, as definitions are singletons.
 *
 * @param <T> the value type
 */
public abstract sealed class BaseComponent<T> implements Component<T>
        permits NativeComponent, ManagedComponent, TagComponent, ScalarComponent, BaseRelationship, PairComponent,
        TargetSelector {
    private final int id;
    private final String name;
    private final Class<T> valueType;
    private final boolean transient_;
    private final Supplier<? extends T> defaults;
    private final List<Input> requires;
    private final boolean explicitOptions;
    private final SnapshotCodec<T> codec;

    BaseComponent(int id, Class<T> valueType, ComponentOptions<T> options, String defaultName) {
        this.id = id;
        this.valueType = valueType;
        this.name = options.name() != null ? options.name() : defaultName;
        this.transient_ = options.isTransient();
        this.defaults = options.defaults();
        this.requires = List.copyOf(options.requires());
        this.codec = options.codec(this.name);
        this.explicitOptions = options.defaults() != null || !options.requires().isEmpty() || options.hasCodec();
    }

    public final int id() {
        return id;
    }

    public final String name() {
        return name;
    }

    public final Class<T> valueType() {
        return valueType;
    }

    public final boolean isTransient() {
        return transient_;
    }

    public final List<Input> requires() {
        return requires;
    }

    /**
     * The custom snapshot codec registered with {@code save} and {@code load} or {@code deserialize}, or
     * {@code null} when snapshots use the automatic codec (see the snapshot guide).
     */
    public final SnapshotCodec<T> snapshotCodec() {
        return codec;
    }

    final Supplier<? extends T> defaults() {
        return defaults;
    }

    /** Whether a registration carried a factory or requirements, which cannot be compared for equality. */
    final boolean hasUncomparableOptions() {
        return explicitOptions;
    }

    final T produceDefault() {
        T value = defaults.get();
        if (value == null || !valueType.isInstance(value)) {
            throw new IllegalStateException("default factory of component " + name + " returned "
                    + (value == null ? "null" : value.getClass().getName()) + ", expected " + valueType.getName());
        }
        return value;
    }

    @Override
    public final String toString() {
        return getClass().getSimpleName() + "[" + name + "#" + id + "]";
    }
}
