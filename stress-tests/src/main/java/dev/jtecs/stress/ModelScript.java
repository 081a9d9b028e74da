package dev.jtecs.stress;

import java.util.List;
import java.util.Objects;

/**
 * A recorded model run: the seed it was generated from, the path it takes ({@code instant}: no scope open, every
 * call publishes at once; otherwise one {@code defer()} scope per transaction), whether relationship reads are
 * compared, whether the run observes the world's lifecycle events ({@code observed}: an {@code OnSpawn} and an
 * {@code OnDespawn} observer at the world, and the entity observers its operations ask for, their events compared
 * with the reference's; otherwise none of them, so the world takes the paths it takes when nobody listens, such
 * as the short forms of despawns and cascades), and the operations in order. {@link ModelRun} executes it against
 * a fresh world and reference and ends with a commit; the same script always gives the same result.
 *
 * <p>The script is the run's whole description: nothing random happens at execution, so a script printed as
 * Java ({@link #toJunit}) replays exactly, and one with operations removed is still a valid script.
 */
public record ModelScript(long seed, boolean instant, boolean relational, boolean observed, List<ModelOp> ops) {
    public ModelScript {
        ops = List.copyOf(Objects.requireNonNull(ops, "ops"));
    }

    /** An observed script (the form scripts had before unobserved runs existed). */
    public ModelScript(long seed, boolean instant, boolean relational, List<ModelOp> ops) {
        this(seed, instant, relational, true, ops);
    }

    /**
     * The script of a seed: {@code operations} random operations (plus, on the instant path, a comparison every
     * 25); relationships in three seeds in four unless {@code -Djtecs.modelRelations=false}, the sparse ones alone in
     * one such seed in three ({@code ModelGenerator.sparseOnly}); observed in three seeds in four.
     */
    public static ModelScript generate(long seed, int operations) {
        return ModelGenerator.generate(seed, operations, ModelGenerator.RELATIONS);
    }

    /** As {@link #generate(long, int)}; {@code relations} false leaves relationship edges out of every seed. */
    public static ModelScript generate(long seed, int operations, boolean relations) {
        return ModelGenerator.generate(seed, operations, relations);
    }

    /** This script with other operations (a shrinking candidate). */
    public ModelScript withOps(List<ModelOp> replaced) {
        return new ModelScript(seed, instant, relational, observed, replaced);
    }

    /** The script as a standalone JUnit 5 test class ({@link ModelSource#junit}). */
    public String toJunit(String note) {
        return ModelSource.junit(this, note);
    }
}
