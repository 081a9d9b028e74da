package dev.jtecs.component;

import java.util.Objects;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * A component's custom snapshot codec, registered with {@code save} and either {@code load} or a world-aware
 * {@code deserialize} ({@link ComponentOptions}). Snapshots call {@link #save} for every saved value and
 * {@link #load} for every loaded one; a component with a custom codec never takes the binary format's raw column
 * path, in either direction.
 *
 * @param <T> the value type (the edge record of a payload relationship)
 */
public final class SnapshotCodec<T> {
    private final String component;
    private final Function<? super T, ?> save;
    private final Function<Object, ? extends T> load;
    private final BiFunction<Object, Object, ? extends T> deserialize;
    private final Class<?> worldType;

    SnapshotCodec(String component, Function<? super T, ?> save, Function<Object, ? extends T> load,
            BiFunction<Object, Object, ? extends T> deserialize, Class<?> worldType) {
        this.component = component;
        this.save = save;
        this.load = load;
        this.deserialize = deserialize;
        this.worldType = worldType;
    }

    /** Encodes one value into a detached tree. */
    public Object save(T value) {
        return save.apply(value);
    }

    /**
     * Decodes one saved tree; {@code world} is the destination world, handed to a world-aware decoder.
     *
     * @throws IllegalArgumentException when a world-aware decoder expects another world type
     */
    public T load(Object saved, Object world) {
        if (load != null) {
            return load.apply(saved);
        }
        if (!worldType.isInstance(world)) {
            throw new IllegalArgumentException("component " + component + ": its deserialize expects a "
                    + worldType.getName() + ", got " + (world == null ? "null" : world.getClass().getName()));
        }
        return deserialize.apply(world, saved);
    }

    /** Whether the decoder receives the destination world. */
    public boolean isWorldAware() {
        return deserialize != null;
    }

    @Override
    public String toString() {
        return "SnapshotCodec[" + Objects.toString(component) + (isWorldAware() ? ", world-aware" : "") + "]";
    }
}
