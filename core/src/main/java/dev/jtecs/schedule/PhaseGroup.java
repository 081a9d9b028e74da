package dev.jtecs.schedule;

import java.util.List;

/**
 * The predefined groups of predefined phases, each an ordered list of leaves. A group is not a registered phase:
 * it only names a selection for {@code runPhase}, {@code enablePhase} and {@code disablePhase}.
 */
public enum PhaseGroup implements PhaseSelection {
    /** What {@code world.startup()} runs. */
    STARTUP(List.of(Phases.PRE_STARTUP, Phases.STARTUP, Phases.POST_STARTUP)),
    /** One fixed step; {@code world.update} runs it once per step due. */
    FIXED_UPDATE(List.of(Phases.FIXED_PRE_UPDATE, Phases.FIXED_UPDATE, Phases.FIXED_POST_UPDATE)),
    /** The variable-rate part of a frame (the fixed steps run between {@code PRE_UPDATE} and {@code UPDATE}). */
    MAIN(List.of(Phases.FIRST, Phases.PRE_UPDATE, Phases.UPDATE, Phases.POST_UPDATE, Phases.LAST)),
    /** The end of a frame. */
    RENDER(List.of(Phases.PRE_RENDER, Phases.RENDER, Phases.POST_RENDER)),
    /** What {@code world.shutdown()} runs. */
    SHUTDOWN(List.of(Phases.PRE_SHUTDOWN, Phases.SHUTDOWN, Phases.POST_SHUTDOWN)),
    /** Every predefined phase, in registry order. */
    ALL(Phases.PREDEFINED);

    private final List<Phase> phases;

    PhaseGroup(List<Phase> phases) {
        this.phases = phases;
    }

    /** The group's leaves, in the order they run. */
    public List<Phase> phases() {
        return phases;
    }
}
