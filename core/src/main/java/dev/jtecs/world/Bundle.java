package dev.jtecs.world;

import dev.jtecs.component.Component;
import dev.jtecs.component.Input;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * A named, reusable spawn shape registered in one world ({@link World#newBundle}): a {@link BundleDefinition}'s
 * required and defaulted components. {@link #spawn} checks that every required component is supplied, fills in
 * the defaults the call does not override, and spawns the entity through {@link World#spawn(Input...)}, so a
 * bundle spawn is a spawn like any other: it is staged or published the same way, carries the active state's
 * tag, and delivers {@link dev.jtecs.event.OnSpawn}.
 *
 * <p>Inputs beyond the definition are allowed and added as given; an input of a defaulted component replaces its
 * default (the default's factory does not run). When one component is passed twice, the last input wins.
 *
 * @implNote One spawn builds one input array: the defaults not overridden, in definition order, then the call's
 *     inputs. Factories run before the entity is spawned, so a factory that throws leaves nothing spawned.
 */
public final class Bundle {
    private final World world;
    private final String name;
    private final BundleDefinition definition;
    private final Component<?>[] required;
    private final BundleDefinition.Default[] defaults;

    Bundle(World world, String name, BundleDefinition definition) {
        this.world = world;
        this.name = name;
        this.definition = definition;
        this.required = definition.requiredComponents().toArray(Component<?>[]::new);
        this.defaults = definition.defaults().toArray(BundleDefinition.Default[]::new);
    }

    /** The name this bundle is registered under in its world. */
    public String name() {
        return name;
    }

    public BundleDefinition definition() {
        return definition;
    }

    /** The components every spawn must supply, in definition order. */
    public List<Component<?>> required() {
        return definition.requiredComponents();
    }

    /** The components the bundle fills in when a spawn does not supply them, in definition order. */
    public List<Component<?>> defaulted() {
        return definition.defaultedComponents();
    }

    /**
     * Spawns an entity of this bundle into its world; see {@link World#spawnBundle(Bundle, Input...)}.
     *
     * @throws IllegalArgumentException when a required component is missing (nothing is spawned)
     * @throws IllegalStateException when the world is closed
     */
    public long spawn(Input... inputs) {
        return world.spawnBundle(this, inputs);
    }

    boolean belongsTo(World candidate) {
        return world == candidate;
    }

    /** The inputs of one spawn: the defaults not overridden, then {@code inputs}. */
    Input[] resolve(Input[] inputs) {
        Objects.requireNonNull(inputs, "inputs");
        for (Input input : inputs) {
            Objects.requireNonNull(input, "input");
        }
        List<Component<?>> missing = null;
        for (Component<?> component : required) {
            if (!supplies(inputs, component)) {
                if (missing == null) {
                    missing = new ArrayList<>();
                }
                missing.add(component);
            }
        }
        if (missing != null) {
            throw new IllegalArgumentException("bundle '" + name + "' requires " + names(required()) + "; missing "
                    + names(missing) + " (nothing was spawned)");
        }
        int defaulted = 0;
        Input[] resolved = new Input[defaults.length + inputs.length];
        for (BundleDefinition.Default d : defaults) {
            if (!supplies(inputs, d.component())) {
                resolved[defaulted++] = d.resolve(name);
            }
        }
        System.arraycopy(inputs, 0, resolved, defaulted, inputs.length);
        int length = defaulted + inputs.length;
        return length == resolved.length ? resolved : Arrays.copyOf(resolved, length);
    }

    private static boolean supplies(Input[] inputs, Component<?> component) {
        for (Input input : inputs) {
            if (input.component() == component) {
                return true;
            }
        }
        return false;
    }

    private static List<String> names(List<Component<?>> components) {
        return components.stream().map(Component::name).toList();
    }

    @Override
    public String toString() {
        return "Bundle[" + name + ": required=" + names(required()) + " defaulted=" + names(defaulted()) + "]";
    }
}
