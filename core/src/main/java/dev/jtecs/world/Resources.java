package dev.jtecs.world;

import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Optional;

/**
 * A world's resources: typed singletons (gravity, the input state, a level's settings) that belong to the
 * world rather than to any entity. At most one value per class; the class is the key exactly as given, so a
 * value stored under an interface is found under that interface, not under its implementation class.
 *
 * <p>Resources are plain heap objects: they are never staged, published or snapshotted, and
 * {@link World#clearEntities()} leaves them alone. Confined like its world: every method throws
 * {@link WrongThreadException} on a thread other than the world's owner ({@link World#checkThread()}).
 */
public final class Resources {
    private final World world;
    private final Map<Class<?>, Object> values = new IdentityHashMap<>();

    Resources(World world) {
        this.world = world;
    }

    /**
     * Stores {@code value} under {@code type}, replacing any earlier value of that type.
     *
     * @return the value it replaced, if any
     * @throws ClassCastException when {@code value} is not an instance of {@code type} (nothing is stored)
     */
    public <T> Optional<T> put(Class<T> type, T value) {
        world.checkThread();
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(value, "value");
        T checked = type.cast(value); // a raw-typed caller cannot slip in a value of another class
        return Optional.ofNullable(type.cast(values.put(type, checked)));
    }

    /**
     * The value stored under {@code type}.
     *
     * @throws NoSuchElementException when there is none
     */
    public <T> T get(Class<T> type) {
        world.checkThread();
        Object value = values.get(Objects.requireNonNull(type, "type"));
        if (value == null) {
            throw new NoSuchElementException("no resource of type " + type.getName() + " (put one with "
                    + "resources().put(" + type.getSimpleName() + ".class, value)); present: " + typeNames());
        }
        return type.cast(value);
    }

    /** The value stored under {@code type}, or empty. */
    public <T> Optional<T> find(Class<T> type) {
        world.checkThread();
        return Optional.ofNullable(type.cast(values.get(Objects.requireNonNull(type, "type"))));
    }

    /** Whether a value is stored under {@code type}. */
    public boolean contains(Class<?> type) {
        world.checkThread();
        return values.containsKey(Objects.requireNonNull(type, "type"));
    }

    /** Removes the value stored under {@code type}; returns it, or empty when there was none. */
    public <T> Optional<T> remove(Class<T> type) {
        world.checkThread();
        return Optional.ofNullable(type.cast(values.remove(Objects.requireNonNull(type, "type"))));
    }

    /** How many resources are stored. */
    public int size() {
        world.checkThread();
        return values.size();
    }

    private List<String> typeNames() {
        return values.keySet().stream().map(Class::getName).sorted().toList();
    }
}
