package dev.jtecs.component;

import dev.jtecs.component.internal.TreeCodec;
import java.util.List;
import java.util.Objects;
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

    /**
     * One value as a snapshot holds it: the custom {@code save} codec's tree when the definition has one,
     * otherwise the automatic codec's (see {@link TreeCodec}). What the public {@code snapshotSave} of the value
     * definitions returns.
     *
     * @throws IllegalArgumentException when the automatic codec cannot encode the value type, or the custom
     *     codec returns something that is not a detached tree
     */
    final Object snapshotEncode(T value) {
        Objects.requireNonNull(value, "value");
        String where = "snapshotSave(" + name + ")";
        if (!valueType.isInstance(value)) {
            throw new IllegalArgumentException(where + ": " + value.getClass().getName() + " is not a "
                    + valueType.getName());
        }
        if (codec != null) {
            return TreeCodec.detach(codec.save(value), where);
        }
        String refusal = TreeCodec.refusal(valueType);
        if (refusal != null) {
            throw new IllegalArgumentException(where + ": the automatic codec cannot encode " + valueType.getName()
                    + ": " + refusal + "; register save/load codecs for it");
        }
        return TreeCodec.encodeManaged(value);
    }

    /**
     * One value read back from what {@link #snapshotEncode} made: the custom {@code load} codec, or the world-aware
     * {@code deserialize} one given {@code world}, when the definition has one; otherwise the automatic codec
     * ({@code world} unused). What the public {@code snapshotLoad} of the value definitions returns.
     *
     * @throws IllegalArgumentException when the tree is not a value of this definition, a world-aware codec gets
     *     another world type, or the custom codec returns {@code null} or a value of another type
     */
    final T snapshotDecode(Object saved, Object world) {
        String where = "snapshotLoad(" + name + ")";
        Object value = codec != null ? codec.load(saved, world) : TreeCodec.decodeManaged(valueType, saved, where);
        if (value == null || !valueType.isInstance(value)) {
            throw new IllegalArgumentException(where + ": " + (codec != null ? "the custom codec" : "the tree")
                    + " gave " + (value == null ? "null" : "a " + value.getClass().getName()) + ", not a "
                    + valueType.getName());
        }
        return valueType.cast(value);
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
