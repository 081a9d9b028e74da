package dev.jtecs.schedule;

import java.util.List;

/**
 * Thrown when the {@code before}/{@code after} constraints of one phase form a cycle, so no order satisfies
 * them. Names the phase and every system the cycle blocks (those on it and those that must follow them).
 * Raised before any system of the dispatch runs, and by {@code listSystems}; removing a system on the cycle
 * repairs the schedule (disabling one does not: disabled systems keep their edges).
 */
public final class ScheduleCycleException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    private final transient Phase phase;
    private final transient List<String> blocked;

    public ScheduleCycleException(Phase phase, List<String> blocked) {
        super("ordering cycle in phase " + phase + ": systems " + blocked
                + " cannot be ordered (remove one of them to repair the schedule)");
        this.phase = phase;
        this.blocked = List.copyOf(blocked);
    }

    /** The phase whose constraints cycle. */
    public Phase phase() {
        return phase;
    }

    /** The blocked systems, in registration order. */
    public List<String> blocked() {
        return blocked;
    }
}
