package dev.jtecs.query;

import dev.jtecs.builtin.Disabled;
import dev.jtecs.builtin.Paused;
import dev.jtecs.component.Component;
import dev.jtecs.component.TargetSelector;
import dev.jtecs.storage.Archetype;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.ToIntFunction;

/**
 * What a query matches, immutable: archetypes that have every {@code include} component, at least one
 * {@code includeAny} component (when any are listed), and no {@code exclude} component. {@code Disabled} is left
 * out unless included explicitly; a {@link QueryKind#LOGIC logic} query also leaves out {@code Paused} unless
 * included explicitly. Optional: a name, a {@code groupBy} function (called once per archetype), membership
 * callbacks, and {@code temp()} for a query that freezes its archetype set at construction.
 *
 * <p>Built with {@link #builder()}; the lists are copied, so later changes to the caller's arrays or lists
 * change nothing.
 */
public final class QueryDescriptor {
    private final List<Component<?>> include;
    private final List<Component<?>> includeAny;
    private final List<Component<?>> exclude;
    private final String name;
    private final QueryKind kind;
    private final ToIntFunction<Archetype> groupBy;
    private final QueryCallback onEntitiesAdded;
    private final QueryCallback onEntitiesRemoved;
    private final boolean temporary;
    private final int[] includeIds;
    private final int[] anyIds;
    private final int[] excludeIds;
    private final TargetSelector<?>[] includeEdges;
    private final TargetSelector<?>[] anyEdges;
    private final TargetSelector<?>[] excludeEdges;
    private final int[] explicitExcludeIds;

    private QueryDescriptor(Builder b) {
        include = List.copyOf(b.include);
        includeAny = List.copyOf(b.includeAny);
        List<Component<?>> excluded = new ArrayList<>(b.exclude);
        if (!mentions(Disabled.COMPONENT) && !excluded.contains(Disabled.COMPONENT)) {
            excluded.add(Disabled.COMPONENT);
        }
        if (b.kind == QueryKind.LOGIC && !mentions(Paused.COMPONENT) && !excluded.contains(Paused.COMPONENT)) {
            excluded.add(Paused.COMPONENT);
        }
        exclude = List.copyOf(excluded);
        name = b.name;
        kind = b.kind;
        groupBy = b.groupBy;
        onEntitiesAdded = b.onEntitiesAdded;
        onEntitiesRemoved = b.onEntitiesRemoved;
        temporary = b.temporary;
        includeIds = ids(include);
        anyIds = ids(includeAny);
        excludeIds = ids(exclude);
        includeEdges = edges(include);
        anyEdges = edges(includeAny);
        excludeEdges = edges(exclude);
        explicitExcludeIds = ids(b.exclude);
        for (Component<?> c : include) {
            if (exclude.contains(c)) {
                throw new IllegalArgumentException("component " + c.name() + " is both included and excluded");
            }
        }
        if (temporary && (onEntitiesAdded != null || onEntitiesRemoved != null)) {
            throw new IllegalArgumentException("a temporary query cannot have membership callbacks");
        }
    }

    private static int[] ids(List<Component<?>> components) {
        return components.stream().filter(c -> !(c instanceof TargetSelector<?>)).mapToInt(Component::id).toArray();
    }

    private static TargetSelector<?>[] edges(List<Component<?>> components) {
        return components.stream().filter(c -> c instanceof TargetSelector<?>).toArray(TargetSelector<?>[]::new);
    }

    private boolean mentions(Component<?> component) {
        return include.contains(component) || includeAny.contains(component);
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * Whether an archetype's signature satisfies this descriptor's own lists, without the implicit
     * {@code Disabled} and {@code Paused} exclusions (snapshot filters select this way).
     */
    public boolean matchesWithoutStateExclusions(Archetype archetype) {
        return matches(archetype, explicitExcludeIds);
    }

    /** Whether an archetype's signature satisfies this descriptor. */
    public boolean matches(Archetype archetype) {
        return matches(archetype, excludeIds);
    }

    /** Both matches: every include, one of the {@code includeAny} (when it has any), none of the exclusions. */
    private boolean matches(Archetype archetype, int[] excludedIds) {
        for (int id : includeIds) {
            if (!archetype.hasId(id)) {
                return false;
            }
        }
        for (TargetSelector<?> edge : includeEdges) {
            if (!archetype.has(edge)) {
                return false;
            }
        }
        if (anyIds.length + anyEdges.length > 0) {
            boolean any = false;
            for (int id : anyIds) {
                any |= archetype.hasId(id);
            }
            for (TargetSelector<?> edge : anyEdges) {
                any |= archetype.has(edge);
            }
            if (!any) {
                return false;
            }
        }
        for (int id : excludedIds) {
            if (archetype.hasId(id)) {
                return false;
            }
        }
        for (TargetSelector<?> edge : excludeEdges) {
            if (archetype.has(edge)) {
                return false;
            }
        }
        return true;
    }

    public List<Component<?>> include() {
        return include;
    }

    public List<Component<?>> includeAny() {
        return includeAny;
    }

    /** The excluded components, the implicit {@code Disabled} / {@code Paused} included. */
    public List<Component<?>> exclude() {
        return exclude;
    }

    public String name() {
        return name;
    }

    public QueryKind kind() {
        return kind;
    }

    public ToIntFunction<Archetype> groupBy() {
        return groupBy;
    }

    public QueryCallback onEntitiesAdded() {
        return onEntitiesAdded;
    }

    public QueryCallback onEntitiesRemoved() {
        return onEntitiesRemoved;
    }

    public boolean isTemporary() {
        return temporary;
    }

    @Override
    public String toString() {
        return "Query[" + (name == null ? "" : name + ": ") + "include=" + names(include) + " any="
                + names(includeAny) + " exclude=" + names(exclude) + " kind=" + kind + "]";
    }

    private static List<String> names(List<Component<?>> components) {
        return components.stream().map(Component::name).toList();
    }

    /** Collects a descriptor's parts; {@link #build()} validates and copies them. */
    public static final class Builder {
        private final List<Component<?>> include = new ArrayList<>();
        private final List<Component<?>> includeAny = new ArrayList<>();
        private final List<Component<?>> exclude = new ArrayList<>();
        private String name;
        private QueryKind kind = QueryKind.PLAIN;
        private ToIntFunction<Archetype> groupBy;
        private QueryCallback onEntitiesAdded;
        private QueryCallback onEntitiesRemoved;
        private boolean temporary;

        private Builder() {}

        public Builder include(Component<?>... components) {
            add(include, components);
            return this;
        }

        public Builder includeAny(Component<?>... components) {
            add(includeAny, components);
            return this;
        }

        public Builder exclude(Component<?>... components) {
            add(exclude, components);
            return this;
        }

        public Builder name(String value) {
            this.name = Objects.requireNonNull(value, "name");
            return this;
        }

        /** A logic query: also leaves out {@code Paused} entities unless included. */
        public Builder logic() {
            this.kind = QueryKind.LOGIC;
            return this;
        }

        /** A render query: paused entities are still matched. */
        public Builder render() {
            this.kind = QueryKind.RENDER;
            return this;
        }

        /** Assigns each matching archetype a group, once; iteration visits groups in ascending order. */
        public Builder groupBy(ToIntFunction<Archetype> function) {
            this.groupBy = Objects.requireNonNull(function, "groupBy");
            return this;
        }

        public Builder onEntitiesAdded(QueryCallback callback) {
            this.onEntitiesAdded = Objects.requireNonNull(callback, "onEntitiesAdded");
            return this;
        }

        public Builder onEntitiesRemoved(QueryCallback callback) {
            this.onEntitiesRemoved = Objects.requireNonNull(callback, "onEntitiesRemoved");
            return this;
        }

        /** A temporary query: matches the archetypes that exist at construction, and no later ones. */
        public Builder temp() {
            this.temporary = true;
            return this;
        }

        public QueryDescriptor build() {
            return new QueryDescriptor(this);
        }

        private static void add(List<Component<?>> list, Component<?>[] components) {
            for (Component<?> component : Arrays.asList(components)) {
                Objects.requireNonNull(component, "component");
                if (!list.contains(component)) {
                    list.add(component);
                }
            }
        }
    }
}
