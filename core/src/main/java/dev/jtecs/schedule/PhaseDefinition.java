package dev.jtecs.schedule;

import java.util.List;
import java.util.Objects;

/**
 * A custom phase to register with {@code world.registerPhase}: a leaf (no children), or a tree whose children
 * are phases the world already has, run in the order given.
 *
 * <p>The position places the phase in the world's phase registry, which is the order {@code listSystems}
 * reports phases in; it does not make the phase run as part of {@code update}. {@link #APPEND} (the default)
 * puts it after every phase registered so far; {@code at(i)} inserts it before the phase now at {@code i}.
 *
 * @param phase the phase's name
 * @param children the children of a tree, empty for a leaf
 * @param position a registry index, or {@link #APPEND}
 */
public record PhaseDefinition(Phase phase, List<Phase> children, int position) {
    /** The position that appends after every registered phase. */
    public static final int APPEND = -1;

    public PhaseDefinition {
        Objects.requireNonNull(phase, "phase");
        children = List.copyOf(children); // rejects null elements too
        if (position < APPEND) {
            throw new IllegalArgumentException("position=" + position + " of phase " + phase
                    + " must be a registry index (>= 0) or APPEND");
        }
    }

    /** A leaf phase, appended to the registry. */
    public static PhaseDefinition leaf(String name) {
        return leaf(Phase.of(name));
    }

    /** A leaf phase, appended to the registry. */
    public static PhaseDefinition leaf(Phase phase) {
        return new PhaseDefinition(phase, List.of(), APPEND);
    }

    /**
     * A tree that runs the named phases in this order.
     *
     * @throws IllegalArgumentException when no child is given
     */
    public static PhaseDefinition tree(String name, String... children) {
        Objects.requireNonNull(children, "children");
        return tree(Phase.of(name), java.util.Arrays.stream(children).map(Phase::of).toArray(Phase[]::new));
    }

    /**
     * A tree that runs these phases in this order.
     *
     * @throws IllegalArgumentException when no child is given
     */
    public static PhaseDefinition tree(Phase phase, Phase... children) {
        Objects.requireNonNull(children, "children");
        if (children.length == 0) {
            throw new IllegalArgumentException("tree phase " + phase + " needs at least one child; "
                    + "use PhaseDefinition.leaf for a leaf");
        }
        return new PhaseDefinition(phase, List.of(children), APPEND);
    }

    /** This definition, placed at registry index {@code position} (must be {@code 0 .. phase count}). */
    public PhaseDefinition at(int position) {
        if (position < 0) {
            throw new IllegalArgumentException("position=" + position + " of phase " + phase + " must be >= 0");
        }
        return new PhaseDefinition(phase, children, position);
    }

    public boolean isLeaf() {
        return children.isEmpty();
    }
}
