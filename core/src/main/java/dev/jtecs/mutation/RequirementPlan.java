package dev.jtecs.mutation;

import dev.jtecs.component.Component;
import dev.jtecs.component.Input;
import dev.jtecs.storage.internal.SignatureBuilder;
import dev.jtecs.storage.internal.Table;
import java.util.Arrays;
import java.util.List;

/**
 * Expands the requirements of the components a row gains, breadth first: the staged components in staging
 * order, each one's requirements in declaration order, then theirs. The first requirement that names a
 * component supplies its value; components the row already had and components staged explicitly keep theirs;
 * a cycle ends because every component is expanded at most once.
 *
 * <p>Reused by the drain: the arrays grow once and are then cleared per use, so planning allocates nothing.
 */
final class RequirementPlan {
    private Component<?>[] components = new Component<?>[8];
    private Input[] inputs = new Input[8];
    private int size;
    private Component<?>[] queue = new Component<?>[8];

    /**
     * Plans the requirements of one record against its row's previous table, adding each planned component to
     * {@code signature}.
     */
    void plan(Transaction transaction, int record, Table before, SignatureBuilder signature) {
        clear();
        int head = 0;
        int tail = 0;
        for (int e = transaction.firstEntry(record); e >= 0; e = transaction.nextEntry(e)) {
            Component<?> staged = transaction.entryComponent(e);
            if (transaction.entryInput(e) != null && !before.has(staged.id())) {
                queue = grow(queue, tail + 1);
                queue[tail++] = staged;
            }
        }
        while (head < tail) {
            List<Input> requires = queue[head++].requires();
            for (int r = 0; r < requires.size(); r++) {
                Input input = requires.get(r);
                Component<?> required = input.component();
                if (before.has(required.id()) || isStaged(transaction, record, required) || inputFor(required) != null) {
                    continue;
                }
                if (size == components.length) {
                    components = Arrays.copyOf(components, size * 2);
                    inputs = Arrays.copyOf(inputs, size * 2);
                }
                components[size] = required;
                inputs[size++] = input;
                signature.add(required);
                queue = grow(queue, tail + 1);
                queue[tail++] = required;
            }
        }
        Arrays.fill(queue, 0, tail, null);
    }

    private static boolean isStaged(Transaction transaction, int record, Component<?> component) {
        int entry = transaction.findEntry(record, component);
        return entry >= 0 && transaction.entryInput(entry) != null;
    }

    /** Forgets the last plan: for rows whose change cannot pull any requirement. */
    void reset() {
        if (size > 0) {
            clear();
        }
    }

    /** The requirement input planned for a component, or {@code null}. */
    Input inputFor(Component<?> component) {
        for (int i = 0; i < size; i++) {
            if (components[i] == component) {
                return inputs[i];
            }
        }
        return null;
    }

    int size() {
        return size;
    }

    private void clear() {
        Arrays.fill(components, 0, size, null);
        Arrays.fill(inputs, 0, size, null);
        size = 0;
    }

    private static Component<?>[] grow(Component<?>[] array, int needed) {
        return needed <= array.length ? array : Arrays.copyOf(array, Math.max(needed, array.length * 2));
    }
}
