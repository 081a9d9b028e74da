package dev.jtecs.world;

import dev.jtecs.builtin.EntityKey;
import dev.jtecs.component.BaseRelationship;
import dev.jtecs.component.Component;
import dev.jtecs.component.ComponentValue;
import dev.jtecs.component.Input;
import dev.jtecs.component.ManagedComponent;
import dev.jtecs.component.PairComponent;
import dev.jtecs.component.Relationship;
import dev.jtecs.component.RelationshipDefinition;
import dev.jtecs.component.RelationshipValue;
import dev.jtecs.component.TargetSelector;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * The shape of a {@link Bundle}: <em>required</em> components, which every spawn must supply, and
 * <em>defaulted</em> ones, which the bundle fills in when a spawn does not. A default is either a shared
 * {@link Input} (a definition standing for its own default, or a constructed value handed to every entity) or a
 * factory called once per spawned entity, for values that must not be shared.
 *
 * <p>Immutable: each method returns a changed copy, as in
 * {@code BundleDefinition.required(VELOCITY).with(Transform2D.COMPONENT).with(INVENTORY, Inventory::new)}. A
 * component appears at most once in a definition, required or defaulted; naming it again is an error.
 */
public final class BundleDefinition {
    private static final BundleDefinition EMPTY = new BundleDefinition(List.of(), List.of());

    /** One defaulted component: exactly one of a shared input and a per-entity factory. */
    record Default(Component<?> component, Input value, Supplier<?> factory) {
        /** The input for one spawn: the shared one, or a fresh one from the factory. */
        Input resolve(String bundle) {
            if (value != null) {
                return value;
            }
            Object made = factory.get();
            if (made == null) {
                throw new IllegalStateException("bundle '" + bundle + "': the factory of " + component.name()
                        + " returned null");
            }
            return inputOf(bundle, component, made);
        }
    }

    private final List<Component<?>> required;
    private final List<Default> defaults;

    private BundleDefinition(List<Component<?>> required, List<Default> defaults) {
        this.required = required;
        this.defaults = defaults;
    }

    /** A definition with no components: its bundle spawns exactly what each call passes (plus the state tag). */
    public static BundleDefinition empty() {
        return EMPTY;
    }

    /**
     * A definition requiring these components: every spawn of its bundle must pass an input for each (a
     * constructed value, an edge {@code REL.to(target)} for a relationship, or the definition itself to take its
     * default deliberately).
     *
     * @throws IllegalArgumentException for a component named twice, a target selector, or a pair component
     */
    public static BundleDefinition required(Component<?>... components) {
        return EMPTY.andRequired(components);
    }

    /** A copy that also requires these components; see {@link #required(Component[])}. */
    public BundleDefinition andRequired(Component<?>... components) {
        Objects.requireNonNull(components, "components");
        List<Component<?>> next = new ArrayList<>(required);
        for (Component<?> component : components) {
            Objects.requireNonNull(component, "component");
            checkNew(component);
            if (next.contains(component)) {
                throw new IllegalArgumentException("component " + component.name() + " is named twice in one "
                        + "required(...)");
            }
            checkStorable(component, "required");
            next.add(component);
        }
        return new BundleDefinition(List.copyOf(next), defaults);
    }

    /**
     * A copy with these defaults, each shared by every entity spawned without an input of its component: a
     * definition stands for its own default (its factory, if it has one, runs per entity as in any spawn), a
     * constructed value is handed to each entity as it is, so it should be immutable.
     *
     * @throws IllegalArgumentException for a component already in the definition, a bare relationship (it has no
     *     target; pass {@code REL.to(target)}), a selector or pair, a managed definition without a default, or
     *     an {@code EntityKey} value (one key cannot go to many entities; use a factory)
     */
    public BundleDefinition with(Input... defaultInputs) {
        Objects.requireNonNull(defaultInputs, "defaults");
        List<Default> next = new ArrayList<>(defaults);
        List<Component<?>> added = new ArrayList<>();
        for (Input input : defaultInputs) {
            Objects.requireNonNull(input, "default");
            Component<?> component = input.component();
            checkNew(component);
            if (added.contains(component)) {
                throw new IllegalArgumentException("component " + component.name() + " is named twice in one with(...)");
            }
            checkSharedDefault(input, component);
            added.add(component);
            next.add(new Default(component, input, null));
        }
        return new BundleDefinition(required, List.copyOf(next));
    }

    /**
     * A copy where {@code factory} makes the value of {@code component} for each entity spawned without an input
     * of it: a fresh value per entity. For a target-only relationship the factory returns the edge
     * ({@code REL.to(target)}); for a payload relationship, its record.
     *
     * @throws IllegalArgumentException for a component already in the definition, a selector or a pair
     */
    public <T> BundleDefinition with(Component<T> component, Supplier<? extends T> factory) {
        Objects.requireNonNull(component, "component");
        Objects.requireNonNull(factory, "factory");
        checkNew(component);
        checkStorable(component, "defaulted");
        List<Default> next = new ArrayList<>(defaults);
        next.add(new Default(component, null, factory));
        return new BundleDefinition(required, List.copyOf(next));
    }

    /** The required components, in the order they were named. */
    public List<Component<?>> requiredComponents() {
        return required;
    }

    /** The defaulted components, in the order they were named. */
    public List<Component<?>> defaultedComponents() {
        List<Component<?>> components = new ArrayList<>(defaults.size());
        for (Default d : defaults) {
            components.add(d.component());
        }
        return List.copyOf(components);
    }

    List<Default> defaults() {
        return defaults;
    }

    @Override
    public String toString() {
        return "BundleDefinition[required=" + names(required) + " defaulted=" + names(defaultedComponents()) + "]";
    }

    private static List<String> names(List<Component<?>> components) {
        return components.stream().map(Component::name).toList();
    }

    private void checkNew(Component<?> component) {
        if (required.contains(component)) {
            throw new IllegalArgumentException("component " + component.name() + " is already required in " + this);
        }
        for (Default d : defaults) {
            if (d.component() == component) {
                throw new IllegalArgumentException("component " + component.name() + " already has a default in "
                        + this);
            }
        }
    }

    private static void checkStorable(Component<?> component, String role) {
        if (component instanceof TargetSelector<?> selector) {
            throw new IllegalArgumentException("selector " + selector.name() + " is a query term and cannot be "
                    + role + "; name the relationship " + selector.relationship().name());
        }
        if (component instanceof PairComponent pair) {
            throw new IllegalArgumentException("pair " + pair.name() + " belongs to one world and cannot be " + role
                    + "; name the relationship " + pair.relationship().name());
        }
    }

    private static void checkSharedDefault(Input input, Component<?> component) {
        checkStorable(component, "defaulted");
        if (input instanceof BaseRelationship<?> relationship) {
            throw new IllegalArgumentException("relationship " + relationship.name() + " has no target to default "
                    + "to; pass " + relationship.name() + ".to(target), a factory, or require it");
        }
        if (input instanceof ManagedComponent<?> managed && !managed.hasDefault()) {
            throw new IllegalArgumentException("component " + managed.name() + " has no default value; pass "
                    + managed.name() + ".of(...) or a factory");
        }
        if (component == EntityKey.COMPONENT) {
            throw new IllegalArgumentException("an EntityKey default would give every entity the same key; pass "
                    + "a factory, or require the key");
        }
    }

    /** The input that writes {@code value}, made by a factory, to {@code component}. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    static Input inputOf(String bundle, Component<?> component, Object value) {
        if (component instanceof Relationship relationship) {
            if (value instanceof RelationshipValue edge && edge.relationship() == relationship) {
                return edge;
            }
            throw new IllegalStateException("bundle '" + bundle + "': the factory of " + relationship.name()
                    + " must return an edge " + relationship.name() + ".to(target), returned " + value);
        }
        if (component instanceof RelationshipDefinition definition) {
            return definition.of((Record) value);
        }
        return new ComponentValue<>((Component<Object>) component, value);
    }
}
