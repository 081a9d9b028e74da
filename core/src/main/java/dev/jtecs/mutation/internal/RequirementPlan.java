package dev.jtecs.mutation.internal;

import dev.jtecs.entity.internal.Growth;

import dev.jtecs.component.Component;
import dev.jtecs.component.ComponentValue;
import dev.jtecs.component.Input;
import dev.jtecs.component.PairComponent;
import dev.jtecs.component.BaseRelationship;
import dev.jtecs.component.RelationshipValue;
import dev.jtecs.storage.internal.PairRegistry;
import dev.jtecs.storage.internal.SignatureBuilder;
import java.util.Arrays;
import java.util.List;

/**
 * Resolves a staged row's final component set the way the same calls would have resolved one by one: the
 * staged entries are replayed in staging order on the row's previous set; a removal takes its component out
 * (and forgets a requirement that had brought it); each run of consecutive additions (the inputs of one spawn,
 * say) adds its components the set lacks and then expands their requirements together, breadth first, each
 * component's requirements in declaration order, adding every required component the set lacks at that
 * moment. The first requirement to add a component supplies its value; explicit inputs are written
 * after requirement values, so they win; a component already present keeps its value; expansion visits each
 * component once per addition, so it always ends. An edge of an exclusive relationship evicts the other edges of
 * that relationship the set holds at that point, whoever put them there (the row, or a query batch published
 * after the call that staged the edge), so the last edge set wins.
 *
 * <p>Reused by the drain: the arrays grow once and are then cleared per use, so planning allocates nothing.
 */
final class RequirementPlan {
    private Component<?>[] components = new Component<?>[8];
    private Input[] inputs = new Input[8];
    private int size;
    private Component<?>[] queue = new Component<?>[8];
    private final PairRegistry pairs;

    RequirementPlan(PairRegistry pairs) {
        this.pairs = pairs;
    }

    /**
     * Replays a record's entries on {@code signature} (loaded with the row's previous components), leaving the
     * final component set there and the requirement values in this plan.
     */
    void plan(Transaction transaction, int record, SignatureBuilder signature) {
        clear();
        int batch = 0;
        for (int e = transaction.firstEntry(record); e >= 0; e = transaction.nextEntry(e)) {
            Component<?> component = transaction.entryComponent(e);
            if (transaction.entryInput(e) == null) {
                expand(batch, signature);
                batch = 0;
                if (signature.remove(component)) {
                    forget(component);
                }
                if (component instanceof BaseRelationship<?> relationship) {
                    signature.removeEdgesOf(relationship, null); // remove(id, REL): every edge, also unforeseen ones
                }
                continue;
            }
            if (component instanceof PairComponent pair && pair.relationship().isExclusive()) {
                // the last edge set wins, also over edges staging could not see (one a pending query batch adds)
                signature.removeEdgesOf(pair.relationship(), pair);
            }
            if (signature.add(component)) {
                if (batch == queue.length) {
                    queue = Growth.copyOf(queue, batch * 2);
                }
                queue[batch++] = component;
            }
        }
        expand(batch, signature);
    }

    /**
     * Plans one batch of additions (a batch spawn's inputs, or one component a batch set adds): each component
     * the signature lacks is added, then their requirements expand together, breadth first.
     */
    void planAdditions(Component<?>[] added, int count, SignatureBuilder signature) {
        clear();
        int batch = 0;
        for (int i = 0; i < count; i++) {
            if (signature.add(added[i])) {
                if (batch == queue.length) {
                    queue = Growth.copyOf(queue, batch * 2);
                }
                queue[batch++] = added[i];
            }
        }
        expand(batch, signature);
    }

    /**
     * Expands the requirements of the {@code count} components at the head of the queue (one batch of
     * consecutive additions, which the same transition adds together), breadth first.
     */
    private void expand(int count, SignatureBuilder signature) {
        int head = 0;
        int tail = count;
        while (head < tail) {
            List<Input> requires = queue[head++].requires();
            for (int r = 0; r < requires.size(); r++) {
                Input input = requires.get(r);
                Component<?> required = input.component();
                if (input instanceof RelationshipValue edge && !signature.contains(edge.relationship())
                        && !edge.relationship().isSparse()) {
                    PairComponent pair = pairs.pair(edge.relationship(), edge.target());
                    signature.add(pair); // the edge's pair; its marker follows below
                    record(pair, edge.payload() == null ? pair : new ComponentValue<>(pair, edge.payload()));
                }
                if (!signature.add(required)) {
                    continue; // present or staged explicitly (for a relationship: any edge of it wins)
                }
                record(required, input);
                if (tail == queue.length) {
                    queue = Growth.copyOf(queue, tail * 2);
                }
                queue[tail++] = required;
            }
        }
        Arrays.fill(queue, 0, tail, null);
    }

    private void record(Component<?> component, Input input) {
        if (size == components.length) {
            // every array first, then assign: a failed growth leaves them all as they were, in step
            var grownComponents = Growth.copyOf(components, size * 2);
            var grownInputs = Growth.copyOf(inputs, size * 2);
            components = grownComponents;
            inputs = grownInputs;
        }
        components[size] = component;
        inputs[size++] = input;
    }

    /** The components this plan added through requirements, with {@link #inputAt} their values. */
    Component<?> componentAt(int index) {
        return components[index];
    }

    Input inputAt(int index) {
        return inputs[index];
    }

    private void forget(Component<?> component) {
        for (int i = 0; i < size; i++) {
            if (components[i] == component) {
                System.arraycopy(components, i + 1, components, i, size - i - 1);
                System.arraycopy(inputs, i + 1, inputs, i, size - i - 1);
                size--;
                components[size] = null;
                inputs[size] = null;
                return;
            }
        }
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
}
