package dev.jtecs.snapshot.internal;

import java.util.List;

/**
 * What the world above this layer gives snapshots: the facade handed to handlers and world-aware codecs, and
 * the durable metadata that lives above the entity layers (the state stack, the pipeline's fixed-step remainder
 * and phase flags). The world implements it; snapshots never import the world.
 */
public interface SnapshotHost {
    /** The world facade: what handlers and {@code deserialize} codecs receive. */
    Object facade();

    /** Throws unless a save or load may start now: not during publication, a dispatch or inside a scope. */
    void checkQuiet(String operation);

    /** Publishes pending work (a save sees committed state only). */
    void publishPending();

    /** The state stack, bottom first. */
    List<String> states();

    /** Whether a state of this name was created in the world. */
    boolean hasState(String name);

    /** Replaces the state stack with these created states (no transition runs, no event is delivered). */
    void restoreStates(List<String> stack);

    /** The registered leaf phases in registry position order. */
    List<String> leafPhases();

    boolean isPhaseEnabled(String leaf);

    void setPhaseEnabled(String leaf, boolean enabled);

    double fixedAccumulator();

    void restoreFixedAccumulator(double seconds);
}
