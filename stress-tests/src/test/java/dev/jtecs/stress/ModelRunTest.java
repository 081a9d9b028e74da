package dev.jtecs.stress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Runs many seeded random streams of single and batch calls, commits and clears against the reference model.
 *
 * <p>Replay one seed with {@code -Djtecs.seed=<seed>} (and see more of its history with
 * {@code -Djtecs.modelLogTail=<n>}, 40 operations by default); widen the sweep with {@code -Djtecs.modelSeeds=<n>}
 * and move it with {@code -Djtecs.modelBaseSeed=<base>}.
 */
class ModelRunTest {
    private static final int OPERATIONS = 400;

    @Test
    void engineMatchesReferenceModelAcrossManySeeds() {
        String replay = System.getProperty("jtecs.seed");
        if (replay != null) {
            new ModelRun(Long.parseLong(replay), OPERATIONS).run();
            return;
        }
        int seeds = Integer.getInteger("jtecs.modelSeeds", 2000);
        long base = Long.getLong("jtecs.modelBaseSeed", 20261129L);
        SplittableRandom seedSource = new SplittableRandom(base);
        long commits = 0;
        long rejected = 0;
        long batchCalls = 0;
        long failures = 0;
        long sparseEdges = 0;
        long cascades = 0;
        int instant = 0;
        for (int i = 0; i < seeds; i++) {
            long seed = seedSource.nextLong();
            ModelRun run = new ModelRun(seed, OPERATIONS);
            commits += run.run();
            rejected += run.rejected();
            batchCalls += run.batchCalls();
            failures += run.failedPublications();
            sparseEdges += run.sparseEdgesCompared();
            cascades += run.cascades();
            instant += run.instant() ? 1 : 0;
        }
        System.out.printf("model runs: %d seeds from base %d (%d instant path, %d staged path), %d commits "
                + "compared, %d batch calls, %d illegal calls rejected, %d publications failed as predicted, "
                + "%d sparse edges compared, %d cascade despawns%n",
                seeds, base, instant, seeds - instant, commits, batchCalls, rejected, failures, sparseEdges, cascades);
        assertTrue(commits >= seeds, "every run ends with a compared commit");
        assertTrue(rejected > 0, "the stream must include illegal calls");
        assertTrue(batchCalls > 0, "the stream must include batch calls");
        assertTrue(failures > 0, "the stream must include publications that fail");
        assertTrue(sparseEdges > 0, "the stream must include sparse edges");
        assertTrue(instant > 0 && instant < seeds, "both paths must be exercised");
    }

    @Test
    void sameSeedReplaysTheSameRun() {
        ModelRun first = new ModelRun(7, OPERATIONS);
        ModelRun second = new ModelRun(7, OPERATIONS);
        assertEquals(first.run(), second.run());
        assertEquals(first.rejected(), second.rejected());
    }
}
