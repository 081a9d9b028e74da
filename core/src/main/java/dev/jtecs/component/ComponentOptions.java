package dev.jtecs.component;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
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

    String name() {
        return name;
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
                + ", requires=" + Arrays.toString(requires.toArray()) + "]";
    }
}
