package dev.jtecs.component;

import dev.jtecs.component.internal.RecordCodec;
import dev.jtecs.component.internal.TypeAccess;
import java.lang.invoke.MethodHandles;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.IntFunction;

/**
 * The process-wide component registry: assigns ids and names once, for every world.
 *
 * <p>Registration is thread-safe (one lock); lookups read an immutable snapshot published after each registration,
 * so they take no lock. Names are unique: registering a name again returns the existing definition when it is
 * the same definition (same kind, type, name, transient flag, scalar default, and no factory or requirements on
 * either side), and is an error otherwise.
 *
 * <p>Id space: registered components take ids {@code 1..MAX_COMPONENT_ID}. Ids from {@link #FIRST_PAIR_ID}
 * upward are reserved for world-local relationship pairs (one id per dense edge target), so an archetype
 * signature is always a sorted {@code int[]} whatever it holds.
 */
public final class Components {
    /** The greatest id a registered component can have. */
    public static final int MAX_COMPONENT_ID = (1 << 20) - 1;
    /** The first id of the range reserved for relationship pairs. */
    public static final int FIRST_PAIR_ID = 1 << 20;

    private static final Object LOCK = new Object();
    private static volatile Component<?>[] byId = new Component<?>[1];
    private static volatile Map<String, Component<?>> byName = Map.of();

    private Components() {}

    /**
     * Registers a class: a record of primitive fields becomes a {@link NativeComponent}, anything else a
     * {@link ManagedComponent}. The result type is inferred from the assignment, as in
     * {@code NativeComponent<Velocity> V = Components.register(Velocity.class)}; use {@link #registerNative} or
     * {@link #registerManaged} to state the kind explicitly.
     *
     * <p>The kind is the class's, not the variable's: a record with a field that is not primitive becomes a
     * managed component even when the result is assigned to a {@code NativeComponent} variable, and that
     * assignment's cast, in the caller's code, fails with a bare {@link ClassCastException}. For a record meant to
     * be native, {@link #registerNative} says instead which field is in the way, before registering anything.
     */
    public static <T, C extends Component<T>> C register(Class<T> type) {
        return register(type, options -> {});
    }

    /**
     * Registers a class of a named module that does not open its package to {@code dev.jtecs.core}: jtecs reaches
     * the class through {@code lookup} instead, so {@code Components.register(MethodHandles.lookup(),
     * Position.class)} needs no {@code opens} in the caller's {@code module-info.java}. Otherwise the same as
     * {@link #register(Class)}; see {@link ComponentOptions#lookup} for what the lookup must be and what jtecs does
     * with it.
     *
     * @throws IllegalArgumentException when the lookup has no full privilege access or cannot reach {@code type}
     */
    public static <T, C extends Component<T>> C register(MethodHandles.Lookup lookup, Class<T> type) {
        return register(lookup, type, options -> {});
    }

    /**
     * Registers a class with options, reached through {@code lookup}; see
     * {@link #register(MethodHandles.Lookup, Class)}.
     */
    public static <T, C extends Component<T>> C register(MethodHandles.Lookup lookup, Class<T> type,
            Consumer<ComponentOptions<T>> options) {
        Objects.requireNonNull(lookup, "lookup");
        Objects.requireNonNull(options, "options");
        return register(type, o -> {
            o.lookup(lookup);
            options.accept(o);
        });
    }

    /** Registers a class with options; see {@link #register(Class)}. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public static <T, C extends Component<T>> C register(Class<T> type, Consumer<ComponentOptions<T>> options) {
        Objects.requireNonNull(type, "type");
        if (RecordCodec.isPrimitiveRecord(type)) {
            return (C) registerNative((Class) type, (Consumer) options);
        }
        return (C) registerManaged(type, options);
    }

    /** Registers a record whose fields are all primitive as a native (off-heap SoA) component. */
    public static <T extends Record> NativeComponent<T> registerNative(Class<T> type) {
        return registerNative(type, options -> {});
    }

    /** Registers a record whose fields are all primitive as a native component, with options. */
    public static <T extends Record> NativeComponent<T> registerNative(
            Class<T> type, Consumer<ComponentOptions<T>> options) {
        Objects.requireNonNull(type, "type");
        if (!RecordCodec.isPrimitiveRecord(type)) {
            throw new IllegalArgumentException(notNative(type));
        }
        ComponentOptions<T> opts = configure(options);
        grant(opts, type);
        return add(id -> new NativeComponent<>(id, type, opts), NativeComponent.class);
    }

    /** Why {@code type} cannot be native: the record and its first field that is not primitive, and what it needs. */
    private static String notNative(Class<?> type) {
        if (!type.isRecord()) {
            return "cannot register " + type.getName() + " as a native component: it is not a record (a native "
                    + "component is a record of primitive fields); register it as a managed component";
        }
        for (java.lang.reflect.RecordComponent part : type.getRecordComponents()) {
            if (!part.getType().isPrimitive()) {
                return "cannot register record " + type.getName() + " as a native component: its field '"
                        + part.getName() + "' is a " + part.getType().getTypeName() + ", and every field of a "
                        + "native component must be a primitive (boolean, byte, short, char, int, long, float or "
                        + "double); flatten it into primitive fields, or register the record as a managed component";
            }
        }
        throw new AssertionError(type); // callers ask only for records that are not primitive records
    }

    /** Registers any class as a managed (heap column) component. */
    public static <T> ManagedComponent<T> registerManaged(Class<T> type) {
        return registerManaged(type, options -> {});
    }

    /** Registers any class as a managed component, with options. */
    public static <T> ManagedComponent<T> registerManaged(Class<T> type, Consumer<ComponentOptions<T>> options) {
        Objects.requireNonNull(type, "type");
        if (type.isPrimitive()) {
            throw new IllegalArgumentException("cannot register " + type.getName() + " as a component");
        }
        ComponentOptions<T> opts = configure(options);
        grant(opts, type);
        return add(id -> new ManagedComponent<>(id, type, opts), ManagedComponent.class);
    }

    /** Registers a tag: presence only, no storage. */
    public static TagComponent tag(String name) {
        return tag(name, options -> {});
    }

    /** Registers a tag with options (transient, requires); a tag takes no defaults factory. */
    public static TagComponent tag(String name, Consumer<ComponentOptions<Boolean>> options) {
        ComponentOptions<Boolean> opts = configure(options);
        if (opts.defaults() != null) {
            throw new IllegalArgumentException("tag " + name + " stores no value and takes no defaults factory");
        }
        if (opts.hasCodec()) {
            throw new IllegalArgumentException("tag " + name + " stores no value and takes no snapshot codec");
        }
        noLookup("tag " + name, opts);
        String pinned = pinnedName(name, opts);
        return add(id -> new TagComponent(id, pinned, opts), TagComponent.class);
    }

    public static ScalarComponent.OfDouble scalar(String name, double defaultValue) {
        return scalar(name, defaultValue, options -> {});
    }

    public static ScalarComponent.OfDouble scalar(
            String name, double defaultValue, Consumer<ComponentOptions<?>> options) {
        ComponentOptions<Double> opts = scalarOptions(name, options);
        return add(id -> new ScalarComponent.OfDouble(id, name, defaultValue, opts), ScalarComponent.OfDouble.class);
    }

    public static ScalarComponent.OfLong scalar(String name, long defaultValue) {
        return scalar(name, defaultValue, options -> {});
    }

    public static ScalarComponent.OfLong scalar(
            String name, long defaultValue, Consumer<ComponentOptions<?>> options) {
        ComponentOptions<Long> opts = scalarOptions(name, options);
        return add(id -> new ScalarComponent.OfLong(id, name, defaultValue, opts), ScalarComponent.OfLong.class);
    }

    public static ScalarComponent.OfInt scalar(String name, int defaultValue) {
        return scalar(name, defaultValue, options -> {});
    }

    public static ScalarComponent.OfInt scalar(
            String name, int defaultValue, Consumer<ComponentOptions<?>> options) {
        ComponentOptions<Integer> opts = scalarOptions(name, options);
        return add(id -> new ScalarComponent.OfInt(id, name, defaultValue, opts), ScalarComponent.OfInt.class);
    }

    public static ScalarComponent.OfBoolean scalar(String name, boolean defaultValue) {
        return scalar(name, defaultValue, options -> {});
    }

    public static ScalarComponent.OfBoolean scalar(
            String name, boolean defaultValue, Consumer<ComponentOptions<?>> options) {
        ComponentOptions<Boolean> opts = scalarOptions(name, options);
        return add(id -> new ScalarComponent.OfBoolean(id, name, defaultValue, opts),
                ScalarComponent.OfBoolean.class);
    }

    public static ScalarComponent.OfString scalar(String name, String defaultValue) {
        return scalar(name, defaultValue, options -> {});
    }

    public static ScalarComponent.OfString scalar(
            String name, String defaultValue, Consumer<ComponentOptions<?>> options) {
        Objects.requireNonNull(defaultValue, "defaultValue");
        ComponentOptions<String> opts = scalarOptions(name, options);
        return add(id -> new ScalarComponent.OfString(id, name, defaultValue, opts), ScalarComponent.OfString.class);
    }

    /** Registers a target-only relationship (see {@link Relationships}). */
    static Relationship registerRelationship(String name, RelationshipOptions options) {
        if (options.componentOptions().hasCodec()) {
            throw new IllegalArgumentException("relationship " + name + " carries no payload and takes no snapshot "
                    + "codec");
        }
        if (options.payloadDefaults() != null) {
            throw new IllegalArgumentException("relationship " + name + " carries no payload and takes no defaults "
                    + "factory");
        }
        noLookup("relationship " + name, options.componentOptions());
        String pinned = pinnedName(name, options.componentOptions());
        return sameOptions(add(id -> new Relationship(id, pinned, options), Relationship.class), options);
    }

    /** Registers a payload relationship (see {@link Relationships}). */
    @SuppressWarnings("unchecked")
    static <T extends Record> RelationshipDefinition<T> registerRelationshipDefinition(Class<T> type,
            RelationshipOptions options) {
        if (!type.isRecord()) {
            throw new IllegalArgumentException(type.getName() + " is not a record");
        }
        grant(options.componentOptions(), type);
        String name = options.componentOptions().name() != null ? options.componentOptions().name()
                : type.getCanonicalName() != null ? type.getCanonicalName() : type.getName();
        RelationshipDefinition<?> created = add(id -> new RelationshipDefinition<>(id, name, type, options),
                RelationshipDefinition.class);
        if (created.valueType() != type) {
            throw new IllegalStateException("relationship '" + name + "' is already registered for "
                    + created.valueType().getName());
        }
        if (options.payloadDefaults() != null && created.payloadDefaults() != options.payloadDefaults()) {
            throw new IllegalStateException("relationship '" + name + "' is already registered; a defaults factory "
                    + "cannot be compared with the registered one, so register it once and share the definition");
        }
        return (RelationshipDefinition<T>) sameOptions(created, options);
    }

    private static <R extends BaseRelationship<?>> R sameOptions(R created, RelationshipOptions options) {
        if (created.isExclusive() != options.isExclusive() || created.hasReverseIndex() != options.hasReverseIndex()
                || created.isCascadeDelete() != options.isCascadeDelete() || created.isSparse() != options.isSparse()) {
            throw new IllegalStateException("relationship '" + created.name() + "' is already registered with other "
                    + "options (exclusive=" + created.isExclusive() + ", reverseIndex=" + created.hasReverseIndex()
                    + ", cascadeDelete=" + created.isCascadeDelete() + ", sparse=" + created.isSparse() + ")");
        }
        return created;
    }

    /** The definition with this id, or {@code null}. */
    public static Component<?> findById(int id) {
        Component<?>[] snapshot = byId;
        return id > 0 && id < snapshot.length ? snapshot[id] : null;
    }

    /** The definition with this id; throws when there is none. */
    public static Component<?> requireById(int id) {
        Component<?> found = findById(id);
        if (found == null) {
            throw new IllegalArgumentException("no component with id=" + id + " (registered: 1.." + (byId.length - 1)
                    + ")");
        }
        return found;
    }

    /** The definition with this name, or {@code null}. */
    public static Component<?> findByName(String name) {
        return byName.get(name);
    }

    /** Every registered definition in id order. */
    public static List<Component<?>> declared() {
        Component<?>[] snapshot = byId;
        return List.of(Arrays.copyOfRange(snapshot, 1, snapshot.length));
    }

    /** The number of registered definitions. */
    public static int count() {
        return byId.length - 1;
    }

    private static <T> ComponentOptions<T> configure(Consumer<ComponentOptions<T>> options) {
        Objects.requireNonNull(options, "options");
        ComponentOptions<T> opts = new ComponentOptions<>();
        options.accept(opts);
        return opts;
    }

    private static <T> ComponentOptions<T> scalarOptions(String name, Consumer<ComponentOptions<?>> options) {
        Objects.requireNonNull(options, "options");
        ComponentOptions<T> opts = new ComponentOptions<>();
        options.accept(opts);
        if (opts.defaults() != null) {
            throw new IllegalArgumentException("scalar " + name + " takes its default as an argument, not a factory");
        }
        noLookup("scalar " + name, opts);
        pinnedName(name, opts);
        return opts;
    }

    /** Hands the registration's lookup, if any, to the core's access to classes, before anything reflects on it. */
    private static void grant(ComponentOptions<?> opts, Class<?> type) {
        if (opts.lookup() != null) {
            TypeAccess.grant(opts.lookup(), type);
        }
    }

    private static void noLookup(String what, ComponentOptions<?> opts) {
        if (opts.lookup() != null) {
            throw new IllegalArgumentException(what + " has no class for jtecs to reach and takes no lookup");
        }
    }

    private static String pinnedName(String name, ComponentOptions<?> opts) {
        Objects.requireNonNull(name, "name");
        if (name.isBlank()) {
            throw new IllegalArgumentException("component name must not be blank");
        }
        if (opts.name() != null && !opts.name().equals(name)) {
            throw new IllegalArgumentException("name given twice: '" + name + "' and '" + opts.name() + "'");
        }
        return name;
    }

    private static <C extends Component<?>> C add(IntFunction<C> factory, Class<?> kind) {
        synchronized (LOCK) {
            Component<?>[] current = byId;
            int id = current.length;
            if (id > MAX_COMPONENT_ID) {
                throw new IllegalStateException("component id space exhausted: MAX_COMPONENT_ID=" + MAX_COMPONENT_ID);
            }
            C created = factory.apply(id);
            Component<?> existing = byName.get(created.name());
            if (existing != null) {
                if (sameDefinition(existing, created, kind)) {
                    @SuppressWarnings("unchecked")
                    C same = (C) existing;
                    return same;
                }
                throw new IllegalStateException("component name '" + created.name() + "' is already registered as "
                        + existing + " holding " + existing.valueType().getName() + "; cannot register "
                        + created.getClass().getSimpleName() + " holding " + created.valueType().getName()
                        + " under the same name (pin a different name with options.name(...))");
            }
            Component<?>[] next = Arrays.copyOf(current, id + 1);
            next[id] = created;
            Map<String, Component<?>> names = new HashMap<>(byName);
            names.put(created.name(), created);
            byName = Map.copyOf(names);
            byId = next;
            return created;
        }
    }

    private static boolean sameDefinition(Component<?> existing, Component<?> created, Class<?> kind) {
        if (existing.getClass() != kind || existing.valueType() != created.valueType()
                || existing.isTransient() != created.isTransient()) {
            return false;
        }
        if (((BaseComponent<?>) existing).hasUncomparableOptions()
                || ((BaseComponent<?>) created).hasUncomparableOptions()) {
            return false;
        }
        if (existing instanceof ScalarComponent<?> a && created instanceof ScalarComponent<?> b) {
            return a.scalarDefault().equals(b.scalarDefault());
        }
        return true;
    }
}
