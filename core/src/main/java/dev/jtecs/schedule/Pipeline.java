package dev.jtecs.schedule;

import java.util.List;

/**
 * A world's scheduler: it owns the systems, the phase registry, the fixed-step clock and the order things run
 * in, and the world forwards every registration, phase-control and inspection call to it. {@link Scheduler} is
 * the default; supply another through {@code WorldConfig.pipelineFactory} to replace scheduling while the world
 * keeps owning entities, storage and publication.
 *
 * <p>Contract expected by the world: {@link #update} runs one frame (the world clears dirty bits after it
 * returns); {@link #run} dispatches one selection once; both bracket their systems with the
 * {@link DispatchScope} they were created with. Methods reject bad input with an exception before changing
 * anything.
 */
public interface Pipeline {
    /** Runs one frame of {@code dt} seconds, fixed steps included. */
    void update(double dt);

    /** Runs a phase, a phase tree or a group once, passing {@code dt} to every system. */
    void run(PhaseSelection selection, double dt);

    /** Registers a system and returns its unique (explicit or generated) name. */
    String addSystem(SystemConfig config);

    /** Unregisters a system; returns whether it existed. */
    boolean removeSystem(String name);

    /**
     * Swaps the body of a registered system and keeps everything else: its name, phase, place in the dispatch
     * order, ordering constraints, run condition, barriers and enabled state. Returns false when no system has
     * this name. The default refuses, so a pipeline written before this method existed says so instead of
     * silently ignoring the call.
     *
     * @throws UnsupportedOperationException when this pipeline cannot swap bodies
     */
    default boolean replaceSystemBody(String name, SystemBody body) {
        throw new UnsupportedOperationException(getClass().getName() + " cannot replace the body of system "
                + name);
    }

    /** Turns a system on or off; returns false when no system has this name. */
    boolean setSystemEnabled(String name, boolean enabled);

    /** Every registered system, in dispatch order: phases in registry order, dependency order within each. */
    List<SystemInfo> listSystems();

    /** How many systems are registered. */
    int systemCount();

    /** Registers a custom phase or phase tree. */
    void registerPhase(PhaseDefinition definition);

    /**
     * The registered leaf phases in registry position order: what snapshots record the enabled flags of. The
     * default refuses, so a custom pipeline that does not support snapshots says so when one is saved or loaded.
     *
     * @throws UnsupportedOperationException when this pipeline cannot take part in snapshots
     */
    default List<Phase> leafPhases() {
        throw new UnsupportedOperationException(getClass().getName() + " does not list its phases for snapshots");
    }

    /**
     * Sets the fixed-step remainder, the accumulated time not yet spent in a fixed step (snapshot restore).
     *
     * @throws IllegalArgumentException unless {@code seconds} is finite and not negative
     * @throws UnsupportedOperationException when this pipeline cannot take part in snapshots
     */
    default void restoreFixedAccumulator(double seconds) {
        throw new UnsupportedOperationException(getClass().getName() + " cannot restore its fixed-step remainder");
    }

    /** Enables every leaf of a selection. */
    void enablePhase(PhaseSelection selection);

    /** Disables every leaf of a selection: their systems are skipped, run conditions unevaluated. */
    void disablePhase(PhaseSelection selection);

    /** Whether a leaf is enabled; for a tree, whether all its leaves are. */
    boolean isPhaseEnabled(Phase phase);

    /**
     * Asks for a publication barrier: inside a running system (its body or run condition), once after it
     * returns; outside any system, at once.
     */
    void enqueueCommit();

    /** The fixed-step clock's settings and counters. */
    FixedTiming fixedTiming();

    /** Fixed steps completed so far. */
    long fixedStepCount();

    /** Seconds of fixed time abandoned under overload so far ({@link FixedTiming#timeDropped()} without a record). */
    double fixedTimeDropped();

    /** Whole fixed steps abandoned under overload so far ({@link FixedTiming#stepsDropped()} without a record). */
    long fixedStepsDropped();

    /** Releases what the pipeline holds beyond the heap (worker threads); the world calls it when it closes. */
    default void close() {}
}
