package dev.jtecs.stress;

import dev.jtecs.component.BaseRelationship;
import dev.jtecs.component.Component;
import dev.jtecs.component.ComponentValue;
import dev.jtecs.component.Input;
import dev.jtecs.component.Relationship;
import dev.jtecs.component.RelationshipValue;
import dev.jtecs.component.TargetSelector;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The reference's rules for what a row holds after a change, requirements included, written from
 * {@code docs/components.md} on plain maps: additions expand their requirements breadth first, each
 * component's in declaration order, adding only what the row lacks at that moment; the first requirement to
 * reach a component gives its value; explicit values win over requirement values; a present component keeps
 * its value.
 *
 * <p>A row is an insertion-ordered map from component to value; a value may be {@code null} (a managed
 * component that no constructor filled), so presence is {@code containsKey}.
 */
final class ReferenceRows {
    /** A staged removal among a record's entries. */
    static final Object REMOVED = new Object();

    private ReferenceRows() {}

    /** {@code record} with its component {@code field} replaced by {@code value}, through its canonical constructor. */
    static Record withField(Record record, String field, Object value) {
        java.lang.reflect.RecordComponent[] components = record.getClass().getRecordComponents();
        Object[] values = new Object[components.length];
        Class<?>[] types = new Class<?>[components.length];
        boolean found = false;
        try {
            for (int i = 0; i < components.length; i++) {
                java.lang.reflect.Method accessor = components[i].getAccessor();
                accessor.setAccessible(true);
                types[i] = components[i].getType();
                found |= components[i].getName().equals(field);
                values[i] = components[i].getName().equals(field) ? value : accessor.invoke(record);
            }
            if (!found) {
                throw new IllegalArgumentException(record.getClass().getSimpleName() + " has no field " + field);
            }
            java.lang.reflect.Constructor<?> canonical = record.getClass().getDeclaredConstructor(types);
            canonical.setAccessible(true);
            return (Record) canonical.newInstance(values);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot rebuild " + record, e);
        }
    }

    /** The value an input stands for when a constructor runs: its constructed value or its default. */
    static Object valueOf(Input input) {
        if (input instanceof ComponentValue<?> value) {
            return value.value();
        }
        if (input instanceof RelationshipValue edge) {
            return edge; // what the marker reads while this is the first edge
        }
        return input.component().newDefault();
    }

    /**
     * The row that staged entries (values, or {@link #REMOVED}) leave when replayed in staging order on
     * {@code before}: a removal ends a run of additions, and each run expands its requirements together.
     */
    static Map<Component<?>, Object> replay(Map<Component<?>, Object> before, Map<Component<?>, Object> entries) {
        Set<Component<?>> present = new LinkedHashSet<>(before.keySet());
        Map<Component<?>, Object> required = new HashMap<>();
        List<Component<?>> run = new ArrayList<>();
        for (Map.Entry<Component<?>, Object> entry : entries.entrySet()) {
            Component<?> component = entry.getKey();
            if (entry.getValue() == REMOVED) {
                expand(run, present, required);
                run.clear();
                drop(present, required, component);
            } else if (component instanceof TargetSelector<?> edge) {
                addEdge(present, required, run, edge);
            } else if (present.add(component)) {
                run.add(component);
            }
        }
        expand(run, present, required);
        Map<Component<?>, Object> row = new LinkedHashMap<>();
        for (Component<?> component : present) {
            Object staged = entries.get(component);
            if (entries.containsKey(component) && staged != REMOVED) {
                row.put(component, staged);
            } else if (required.containsKey(component)) {
                row.put(component, required.get(component));
            } else {
                row.put(component, before.get(component));
            }
        }
        return normalize(row);
    }

    /**
     * Adds an edge (its selector stands for it in a row) at this point of a replay: an exclusive relationship
     * loses its other edges first, and the marker joins the run when the entity had no edge of it.
     */
    private static void addEdge(Set<Component<?>> present, Map<Component<?>, Object> required,
            List<Component<?>> run, TargetSelector<?> edge) {
        BaseRelationship<?> relationship = edge.relationship();
        if (relationship.isExclusive()) {
            for (TargetSelector<?> other : edgesOf(present, relationship)) {
                if (!other.equals(edge)) {
                    drop(present, required, other);
                }
            }
        }
        present.add(edge);
        if (present.add(relationship)) {
            run.add(relationship); // the marker is added: its requirements apply
        }
    }

    /**
     * Drops a component at this point of a replay: a relationship takes all its edges with it, and the last
     * edge of a relationship takes the marker (so a later edge adds it again, with its requirements).
     */
    private static void drop(Set<Component<?>> present, Map<Component<?>, Object> required,
            Component<?> component) {
        if (present.remove(component)) {
            required.remove(component); // a later run may bring it back, with its own value
        }
        if (component instanceof BaseRelationship<?> relationship) {
            present.removeAll(edgesOf(present, relationship));
        } else if (component instanceof TargetSelector<?> edge && edgesOf(present, edge.relationship()).isEmpty()) {
            present.remove(edge.relationship());
            required.remove(edge.relationship());
        }
    }

    private static List<TargetSelector<?>> edgesOf(Set<Component<?>> present, BaseRelationship<?> relationship) {
        List<TargetSelector<?>> edges = new ArrayList<>();
        for (Component<?> component : present) {
            if (component instanceof TargetSelector<?> edge && edge.relationship() == relationship) {
                edges.add(edge);
            }
        }
        return edges;
    }

    /**
     * Sets every dense relationship marker of a row to its first edge in ascending target order (what {@code get}
     * reads), and drops the dense markers with no edge left; returns the row. A sparse marker is left as it is:
     * its edges are in the reference's store, not in the row.
     */
    static Map<Component<?>, Object> normalize(Map<Component<?>, Object> row) {
        Map<BaseRelationship<?>, TargetSelector<?>> first = null;
        for (Component<?> component : row.keySet()) {
            if (component instanceof TargetSelector<?> edge) {
                first = first == null ? new HashMap<>() : first;
                first.merge(edge.relationship(), edge, (a, b) -> a.target() <= b.target() ? a : b);
            }
        }
        for (BaseRelationship<?> relationship : ModelComponents.DENSE) {
            TargetSelector<?> edge = first == null ? null : first.get(relationship);
            if (edge == null) {
                row.remove(relationship);
            } else {
                row.put(relationship, reported(relationship, edge.target(), row.get(edge)));
            }
        }
        return row;
    }

    /** What an edge input stores: its payload record, or {@code TRUE} for a target-only edge. */
    static Object stored(RelationshipValue value) {
        return value.payload() == null ? Boolean.TRUE : value.payload();
    }

    /** What reads report for an edge: the payload record, or a {@code RelationshipValue} for a target-only one. */
    static Object reported(BaseRelationship<?> relationship, long target, Object stored) {
        return relationship.payloadType() == null ? new RelationshipValue((Relationship) relationship, target) : stored;
    }

    /** The targets of a row's (dense) edges of one relationship, ascending. */
    static List<Long> targets(Map<Component<?>, Object> row, BaseRelationship<?> relationship) {
        List<Long> targets = new ArrayList<>();
        for (Component<?> component : row.keySet()) {
            if (component instanceof TargetSelector<?> edge && edge.relationship() == relationship) {
                targets.add(edge.target());
            }
        }
        targets.sort(null);
        return targets;
    }

    /** What {@code forEachRelationship} reports for a row's dense edges of one relationship, by ascending target. */
    static List<Object> edges(Map<Component<?>, Object> row, BaseRelationship<?> relationship) {
        List<Object> edges = new ArrayList<>();
        for (long target : targets(row, relationship)) {
            edges.add(reported(relationship, target, row.get(relationship.targeting(target))));
        }
        return edges;
    }

    /** A query batch's {@code batchSet(query, edge)} on one row: the edge, exclusive replacing, marker, requirements. */
    static void addEdge(Map<Component<?>, Object> row, RelationshipValue value) {
        BaseRelationship<?> relationship = value.relationship();
        TargetSelector<?> edge = relationship.targeting(value.target());
        if (relationship.isExclusive()) {
            row.keySet().removeIf(c -> c instanceof TargetSelector<?> other && other.relationship() == relationship
                    && !other.equals(edge));
        }
        row.put(edge, stored(value)); // a held target's payload is replaced
        if (!row.containsKey(relationship)) {
            add(row, relationship, value);
        }
        normalize(row);
    }

    /** Removes a component from a row: a relationship with all its edges, an edge (selector) with the marker if last. */
    static void removeFrom(Map<Component<?>, Object> row, Component<?> component) {
        row.remove(component);
        if (component instanceof BaseRelationship<?> relationship) {
            row.keySet().removeIf(c -> c instanceof TargetSelector<?> edge && edge.relationship() == relationship);
        }
        if (component instanceof BaseRelationship<?> || component instanceof TargetSelector<?>) {
            normalize(row);
        }
    }

    /**
     * The row a spawn batch places: its distinct components (first occurrence order, last input winning),
     * explicit values as given, explicit definitions {@link ModelComponents#uninitialized uninitialized}, and
     * requirements with their values.
     */
    static Map<Component<?>, Object> batchRow(List<? extends Input> inputs) {
        Map<Component<?>, Input> chosen = new LinkedHashMap<>();
        for (Input input : inputs) {
            if (input instanceof RelationshipValue value && value.relationship().isSparse()) {
                chosen.put(value.relationship(), value); // the marker only: the edge goes to the store
                continue;
            }
            if (input instanceof RelationshipValue value) { // an edge keyed by its selector; the marker joins
                BaseRelationship<?> relationship = value.relationship();
                if (relationship.isExclusive()) {
                    chosen.keySet().removeIf(c -> c instanceof TargetSelector<?> other
                            && other.relationship() == relationship);
                }
                TargetSelector<?> edge = relationship.targeting(value.target());
                chosen.put(edge, value);
                chosen.put(relationship, value);
                continue;
            }
            chosen.put(input.component(), input);
        }
        Set<Component<?>> present = new LinkedHashSet<>(chosen.keySet());
        Map<Component<?>, Object> required = new HashMap<>();
        expand(new ArrayList<>(chosen.keySet()), present, required);
        Map<Component<?>, Object> row = new LinkedHashMap<>();
        for (Component<?> component : present) {
            Input input = chosen.get(component);
            if (input == null) {
                row.put(component, required.get(component));
            } else if (input instanceof RelationshipValue) {
                row.put(component, component instanceof TargetSelector<?> ? stored((RelationshipValue) input) : input);
            } else if (input instanceof ComponentValue<?> value) {
                row.put(component, value.value());
            } else {
                row.put(component, ModelComponents.uninitialized(component));
            }
        }
        return normalize(row);
    }

    /**
     * A row as a snapshot load restores it: the saved components are the inputs of a {@code spawnAt}, so their
     * requirements expand again (breadth first in input order: components by name, then the dense relationship
     * markers by name, then the sparse ones) and add what the row lacks, with the requirement's value.
     */
    static Map<Component<?>, Object> restored(Map<Component<?>, Object> row) {
        List<Component<?>> order = new ArrayList<>();
        List<Component<?>> dense = new ArrayList<>();
        List<Component<?>> sparse = new ArrayList<>();
        for (Component<?> component : row.keySet()) {
            if (component instanceof TargetSelector<?>) {
                continue;
            }
            if (component instanceof BaseRelationship<?> relationship) {
                (relationship.isSparse() ? sparse : dense).add(component);
            } else {
                order.add(component);
            }
        }
        java.util.Comparator<Component<?>> byName = java.util.Comparator.comparing(Component::name);
        order.sort(byName);
        dense.sort(byName);
        sparse.sort(byName);
        order.addAll(dense);
        order.addAll(sparse);
        Set<Component<?>> present = new LinkedHashSet<>(row.keySet());
        Map<Component<?>, Object> required = new HashMap<>();
        expand(order, present, required);
        Map<Component<?>, Object> out = new LinkedHashMap<>(row);
        for (Component<?> component : present) {
            if (!out.containsKey(component)) {
                out.put(component, required.get(component));
            }
        }
        return normalize(out);
    }

    /** Adds a component the row lacks, with {@code value}, and the requirements it brings with theirs. */
    static void add(Map<Component<?>, Object> row, Component<?> component, Object value) {
        Set<Component<?>> present = new LinkedHashSet<>(row.keySet());
        present.add(component);
        Map<Component<?>, Object> required = new HashMap<>();
        expand(List.of(component), present, required);
        row.put(component, value);
        row.putAll(required);
    }

    /** Expands the requirements of one run of additions, breadth first; records what it added, with values. */
    private static void expand(List<Component<?>> run, Set<Component<?>> present,
            Map<Component<?>, Object> required) {
        Deque<Component<?>> queue = new ArrayDeque<>(run);
        while (!queue.isEmpty()) {
            for (Input requirement : queue.removeFirst().requires()) {
                Component<?> component = requirement.component();
                if (present.add(component)) {
                    required.put(component, valueOf(requirement));
                    queue.addLast(component);
                }
            }
        }
    }
}
