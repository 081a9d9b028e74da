package dev.jtecs.component;

import java.lang.invoke.MethodHandles;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Registration options: an explicit persisted name, the transient flag, a default-value factory and requirements.
 * Used through the lambda of {@code Components.register(type, o -> o.name("game.Velocity"))}.
 *
 * @param <T> the value type
 */
public final class ComponentOptions<T> {
    private String name;
    private boolean transient_;
    private Supplier<? extends T> defaults;
    private final List<Input> requires = new ArrayList<>();
    private Function<? super T, ?> save;
    private Function<Object, ? extends T> load;
    private BiFunction<Object, Object, ? extends T> deserialize;
    private Class<?> worldType;
    private MethodHandles.Lookup lookup;

    ComponentOptions() {}

    /** Pins the persisted name; otherwise the canonical class name is used. */
    public ComponentOptions<T> name(String name) {
        Objects.requireNonNull(name, "name");
        if (name.isBlank()) {
            throw new IllegalArgumentException("component name must not be blank");
        }
        this.name = name;
        return this;
    }

    /**
     * The lookup through which jtecs reaches the registered class: pass your own {@code MethodHandles.lookup()}.
     * jtecs reads a record's components and calls its canonical constructor (and a managed class's no-argument
     * constructor for its default) through method handles; in a named module it cannot reach a class of a package
     * that is not open to {@code dev.jtecs.core}, and registering such a class fails without a lookup. With one,
     * no {@code opens} is needed. {@link Components#register(MethodHandles.Lookup, Class)} says the same in one
     * call.
     *
     * <p>jtecs keeps the lookup for the life of the JVM, one per module, and reaches every class of that module it
     * must reach through it: the reach that opening every package of the module to {@code dev.jtecs.core} would
     * give, and no more than the module's own code has. On the class path no lookup is needed; one does no harm.
     *
     * @param lookup a lookup with full privilege access (not {@code publicLookup()}, nor one narrowed by
     *     {@code in} or {@code dropLookupMode}) that reaches the registered class: made in its module, or in one
     *     that its package is open to; checked at registration, with an {@code IllegalArgumentException}
     */
    public ComponentOptions<T> lookup(MethodHandles.Lookup lookup) {
        this.lookup = Objects.requireNonNull(lookup, "lookup");
        return this;
    }

    /** Marks the component transient: snapshots omit its values. */
    public ComponentOptions<T> transient_(boolean value) {
        this.transient_ = value;
        return this;
    }

    /** A factory for default values, run once per entity that receives the definition as input. */
    public ComponentOptions<T> defaults(Supplier<? extends T> factory) {
        this.defaults = Objects.requireNonNull(factory, "factory");
        return this;
    }

    /**
     * Components every entity with this one also receives (with their defaults unless supplied). A required
     * relationship must be an edge ({@code REL.to(target)}); it is added only when the entity holds no edge of
     * that relationship yet.
     *
     * @throws IllegalArgumentException for a bare relationship, a target selector or a pair component; nothing
     *     is added then
     */
    public ComponentOptions<T> requires(Input... inputs) {
        for (Input input : inputs) {
            Objects.requireNonNull(input, "required input");
            if (input instanceof Relationship || input instanceof TargetSelector<?> || input instanceof PairComponent) {
                throw new IllegalArgumentException("a required relationship must be an edge with a target: "
                        + "pass REL.to(target), not " + input);
            }
        }
        requires.addAll(Arrays.asList(inputs));
        return this;
    }

    /**
     * A custom snapshot encoder: turns a value into a detached tree of {@code null}, booleans, numbers, strings,
     * lists and string-keyed maps. Pair it with {@link #load} or {@link #deserialize} (checked at registration).
     * A custom codec replaces the automatic one and turns off the binary format's raw column copy for this
     * component in both directions, so the codec always runs.
     */
    public ComponentOptions<T> save(Function<? super T, ?> encoder) {
        this.save = Objects.requireNonNull(encoder, "encoder");
        return this;
    }

    /** The decoder of {@link #save}'s trees; excludes {@link #deserialize}. */
    public ComponentOptions<T> load(Function<Object, ? extends T> decoder) {
        this.load = Objects.requireNonNull(decoder, "decoder");
        return this;
    }

    /**
     * A world-aware decoder of {@link #save}'s trees; excludes {@link #load}. It receives the destination world
     * (as {@code worldType}, normally {@code World.class}) before the load changes anything, so it sees the world's
     * definitions, resources and streams, not the entities being loaded.
     */
    @SuppressWarnings("unchecked")
    public <W> ComponentOptions<T> deserialize(Class<W> worldType,
            BiFunction<? super W, Object, ? extends T> decoder) {
        this.worldType = Objects.requireNonNull(worldType, "worldType");
        this.deserialize = (BiFunction<Object, Object, ? extends T>) (BiFunction<?, Object, ? extends T>)
                Objects.requireNonNull(decoder, "decoder");
        return this;
    }

    /**
     * The custom codec, or {@code null} for none.
     *
     * @throws IllegalArgumentException when only half of a codec is given, or both {@code load} and
     *     {@code deserialize}
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    SnapshotCodec<T> codec(String component) {
        if (load != null && deserialize != null) {
            throw new IllegalArgumentException("component " + component + ": snapshot codecs are incomplete or "
                    + "ambiguous: give load or deserialize, not both");
        }
        boolean decoder = load != null || deserialize != null;
        if (save == null && !decoder) {
            return null;
        }
        if (save == null || !decoder) {
            throw new IllegalArgumentException("component " + component + ": snapshot codecs are incomplete: "
                    + (save == null ? "load/deserialize needs a save encoder" : "save needs a load or deserialize "
                    + "decoder"));
        }
        return new SnapshotCodec(component, save, load, deserialize, worldType);
    }

    boolean hasCodec() {
        return save != null || load != null || deserialize != null;
    }

    String name() {
        return name;
    }

    MethodHandles.Lookup lookup() {
        return lookup;
    }

    boolean isTransient() {
        return transient_;
    }

    Supplier<? extends T> defaults() {
        return defaults;
    }

    List<Input> requires() {
        return requires;
    }

    @Override
    public String toString() {
        return "ComponentOptions[name=" + name + ", transient=" + transient_ + ", defaults=" + (defaults != null)
                + ", requires=" + Arrays.toString(requires.toArray()) + ", codec=" + hasCodec() + ", lookup="
                + (lookup != null) + "]";
    }
}
