package dev.jtecs.stress;

import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Runs model seeds one after another and adds up what they checked: the loop behind the CI model test and the
 * long {@code jtecs stress} run. Each seed's script is generated, executed and compared; the first mismatch is
 * returned to the caller (which shrinks it with {@link ModelShrinker}).
 */
public final class ModelSweep {
    /** What the seeds run so far checked, with the time spent running them. */
    public record Totals(long seeds, long operations, long commits, long batchCalls, long rejected,
            long failedPublications, long sparseEdges, long cascades, long frames, long snapshots, long fieldWrites,
            long instantSeeds, long unobservedSeeds, long nanos) {
        /** Operations executed per second of run time. */
        public double operationsPerSecond() {
            return nanos == 0 ? 0 : operations * 1e9 / nanos;
        }

        /** One line: seeds, operations, commits and the rates. */
        public String summary() {
            return String.format(Locale.ROOT, "%,d seeds (%,d instant path, %,d staged path, %,d unobserved), "
                    + "%,d operations, "
                    + "%,d commits compared, %,d batch calls, %,d illegal calls rejected, %,d publications failed "
                    + "as predicted, %,d frames, %,d sparse edges compared, %,d cascade despawns, %,d snapshot round "
                    + "trips, %,d field writes landed; %,.0f ops/s",
                    seeds, instantSeeds, seeds - instantSeeds, unobservedSeeds, operations, commits, batchCalls,
                    rejected,
                    failedPublications, frames, sparseEdges, cascades, snapshots, fieldWrites, operationsPerSecond());
        }
    }

    private final int operations;
    private final boolean relations;
    private final Supplier<WorldCalls> calls;
    private long seeds;
    private long executed;
    private long commits;
    private long batchCalls;
    private long rejected;
    private long failedPublications;
    private long sparseEdges;
    private long cascades;
    private long frames;
    private long snapshots;
    private long fieldWrites;
    private long instantSeeds;
    private long unobservedSeeds;
    private long nanos;

    /**
     * A sweep of scripts of {@code operations} operations each; {@code relations} false leaves relationship
     * edges out of every seed (otherwise three seeds in four have them).
     */
    public ModelSweep(int operations, boolean relations) {
        this(operations, relations, () -> WorldCalls.DIRECT);
    }

    /** A sweep whose runs change their worlds through a fresh {@code calls()} each (a façade, in tests). */
    public ModelSweep(int operations, boolean relations, Supplier<WorldCalls> calls) {
        if (operations < 1) {
            throw new IllegalArgumentException("operations=" + operations + " must be at least 1");
        }
        this.operations = operations;
        this.relations = relations;
        this.calls = Objects.requireNonNull(calls, "calls");
    }

    /** Runs one seed; returns its mismatch (with the script to shrink), or {@code null} when it passed. */
    public ModelMismatch run(long seed) {
        long start = System.nanoTime();
        ModelRun run = new ModelRun(ModelScript.generate(seed, operations, relations), calls.get());
        try {
            commits += run.run();
            return null;
        } catch (ModelMismatch mismatch) {
            return mismatch;
        } finally {
            nanos += System.nanoTime() - start;
            seeds++;
            executed += run.executed();
            batchCalls += run.batchCalls();
            rejected += run.rejected();
            failedPublications += run.failedPublications();
            sparseEdges += run.sparseEdgesCompared();
            cascades += run.cascades();
            frames += run.frames();
            snapshots += run.snapshotsChecked();
            for (int mode = 0; mode < ModelFieldWrites.MODES; mode++) {
                fieldWrites += run.fieldWrites().landed(mode);
            }
            instantSeeds += run.instant() ? 1 : 0;
            unobservedSeeds += run.observed() ? 0 : 1;
        }
    }

    /** The totals so far. */
    public Totals totals() {
        return new Totals(seeds, executed, commits, batchCalls, rejected, failedPublications, sparseEdges, cascades,
                frames, snapshots, fieldWrites, instantSeeds, unobservedSeeds, nanos);
    }

    /** Operations per script. */
    public int operations() {
        return operations;
    }

    /** Shrinks a mismatch one of this sweep's runs gave, through the same calls. */
    public ModelShrinker.Result shrink(ModelMismatch mismatch, Duration budget) {
        return ModelShrinker.shrink(mismatch.script(), mismatch, calls, budget);
    }
}
