package dev.jtecs.schedule;

import java.util.Objects;

/**
 * A phase of the frame, identified by its name: the predefined ones are the constants of {@link Phases}, custom
 * ones are registered per world with {@link PhaseDefinition}. Two phases with the same name are the same phase;
 * a phase means something to a world only once that world has it registered.
 *
 * <p>A phase is either a <em>leaf</em>, which holds systems and runs them in dependency order, or a <em>tree</em>,
 * an ordered list of child phases that runs each child in turn.
 *
 * @param name a non-empty, stable name; namespace custom ones ({@code "game.Physics"})
 */
public record Phase(String name) implements PhaseSelection {
    public Phase {
        Objects.requireNonNull(name, "name");
        if (name.isBlank()) {
            throw new IllegalArgumentException("a phase needs a non-blank name, got \"" + name + "\"");
        }
    }

    /** The phase with this name. */
    public static Phase of(String name) {
        return new Phase(name);
    }

    @Override
    public String toString() {
        return name;
    }
}
