package dev.jtecs.mutation.internal;

import dev.jtecs.builtin.EntityKey;
import dev.jtecs.component.BaseRelationship;
import dev.jtecs.component.Component;
import dev.jtecs.component.ComponentValue;
import dev.jtecs.component.Input;
import dev.jtecs.component.ManagedComponent;
import dev.jtecs.component.PairComponent;
import dev.jtecs.component.RelationshipValue;
import dev.jtecs.component.TagComponent;
import dev.jtecs.component.TargetSelector;
import dev.jtecs.entity.internal.EntityIndex;
import dev.jtecs.storage.internal.PairRegistry;
import java.util.List;
import java.util.Objects;

/**
 * The checks every mutation call makes on its inputs before anything is staged: a rejected input changes nothing.
 *
 * <p>An input is a component definition with a default, a constructed value, or an edge {@code REL.to(target)}
 * whose target is alive or staged; a bare relationship, a selector or a pair is a query term or belongs to the
 * world, never an input. A pair named in a call must be one this world allocated.
 */
public final class InputChecks {
    private final EntityIndex index;
    private final PairRegistry pairs;
    private final KeyIndex keys;
    private final CommitDrain drain;
    private boolean reportingDespawns;

    InputChecks(EntityIndex index, PairRegistry pairs, KeyIndex keys, CommitDrain drain) {
        this.index = index;
        this.pairs = pairs;
        this.keys = keys;
        this.drain = drain;
    }

    /** Checks every spawn input. */
    void spawnInputs(Input[] inputs) {
        Objects.requireNonNull(inputs, "inputs");
        for (Input input : inputs) {
            spawnInput(input);
        }
    }

    /** A spawn input: a valid input, and a key that no other entity holds or has claimed. */
    void spawnInput(Input input) {
        input(input);
        if (input.component() == EntityKey.COMPONENT) {
            keys.checkClaim(Staging.keyOf(input), 0);
        }
    }

    /**
     * Checks one input.
     *
     * @throws IllegalArgumentException for a managed definition without default, a relationship, selector or pair
     *     given as an input, or an edge to a dead target
     */
    public void input(Input input) {
        Objects.requireNonNull(input, "input");
        if (input instanceof TagComponent) {
            return; // (a final class: one compare, and none of the checks below can apply to a tag)
        }
        if (input instanceof ManagedComponent<?> managed && !managed.hasDefault()) {
            throw new IllegalArgumentException("component " + managed.name()
                    + " has no default value; pass a constructed value (" + managed.name() + ".of(...))");
        }
        if (input instanceof BaseRelationship<?> relationship) {
            throw new IllegalArgumentException("relationship " + relationship.name() + " is not an input: pass "
                    + relationship.name() + ".to(target)");
        }
        if (input instanceof TargetSelector<?> selector) {
            throw new IllegalArgumentException("selector " + selector.name() + " is a query term, not an input: "
                    + "pass " + selector.relationship().name() + ".to(target)");
        }
        if (input instanceof PairComponent pair) {
            throw new IllegalArgumentException("pair " + pair.name() + " belongs to the world: pass "
                    + pair.relationship().name() + ".to(target)");
        }
        if (input instanceof ComponentValue<?> value && (value.component() instanceof BaseRelationship<?>
                || value.component() instanceof TargetSelector<?> || value.component() instanceof PairComponent)) {
            throw new IllegalArgumentException("an edge is not a component value: pass "
                    + value.component().name() + ".of(record) or .to(target)");
        }
        if (input instanceof RelationshipValue edge) {
            edge(edge.relationship(), edge.target());
        }
    }

    /**
     * The part of {@link #input} an edge needs, for a caller that knows it holds the edge of {@code relationship} to
     * {@code target} (or only those two, without an edge value): the target must be live or staged; the first edge
     * also turns on the drain's report of whole-archetype despawns.
     */
    public void edge(BaseRelationship<?> relationship, long target) {
        if (!reportingDespawns) {
            drain.reportWholeDespawns(true); // from now on whole-archetype despawns report their ids
            reportingDespawns = true;
        }
        byte state = index.stateOf(target);
        if (state != EntityIndex.ALIVE && state != EntityIndex.RESERVED) {
            throw new IllegalArgumentException(index.describeDead(target, "relationship target of "
                    + relationship.name()));
        }
    }

    /** A batch's inputs as an array, each non-null and every edge checked (its target live or staged). */
    Input[] batchInputs(List<? extends Input> inputs) {
        Objects.requireNonNull(inputs, "inputs");
        Input[] array = new Input[inputs.size()];
        for (int i = 0; i < array.length; i++) {
            array[i] = Objects.requireNonNull(inputs.get(i), "input");
            if (array[i] instanceof RelationshipValue) {
                input(array[i]); // the target must be live or staged
            }
        }
        return array;
    }

    /**
     * Rejects {@code null}, and a pair this world does not know: pair ids are allocated per world, so another
     * world's pair (or one that {@code compact()} forgot) would alias a different edge here.
     *
     * @param owner the world, for the message
     */
    public void ownPair(Component<?> component, String operation, Object owner) {
        Objects.requireNonNull(component, "component");
        if (component instanceof PairComponent pair && pairs.find(pair.relationship(), pair.target()) != pair) {
            throw new IllegalArgumentException(operation + ": pair " + pair.name() + " (id " + pair.id()
                    + ") is not a pair of " + owner + ": it belongs to another world, or compact() forgot it; "
                    + "name edges with " + pair.relationship().name() + ".targeting(target)");
        }
    }
}
