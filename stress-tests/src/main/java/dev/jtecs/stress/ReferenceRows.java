package dev.jtecs.stress;

import dev.jtecs.component.Component;
import dev.jtecs.component.ComponentValue;
import dev.jtecs.component.Input;
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

    /** The value an input stands for when a constructor runs: its constructed value or its default. */
    static Object valueOf(Input input) {
        if (input instanceof ComponentValue<?> value) {
            return value.value();
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
                if (present.remove(component)) {
                    required.remove(component); // a later run may bring it back, with its own value
                }
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
        return row;
    }

    /**
     * The row a spawn batch places: its distinct components (first occurrence order, last input winning),
     * explicit values as given, explicit definitions {@link ModelComponents#uninitialized uninitialized}, and
     * requirements with their values.
     */
    static Map<Component<?>, Object> batchRow(List<? extends Input> inputs) {
        Map<Component<?>, Input> chosen = new LinkedHashMap<>();
        for (Input input : inputs) {
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
            } else if (input instanceof ComponentValue<?> value) {
                row.put(component, value.value());
            } else {
                row.put(component, ModelComponents.uninitialized(component));
            }
        }
        return row;
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
