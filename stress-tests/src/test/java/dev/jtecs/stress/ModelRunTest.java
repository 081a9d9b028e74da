package dev.jtecs.stress;

import static dev.jtecs.stress.ModelComponents.HEALTH;
import static dev.jtecs.stress.ModelComponents.LEVEL;
import static dev.jtecs.stress.ModelComponents.MARKED;
import static dev.jtecs.stress.ModelComponents.SCORE;
import static dev.jtecs.stress.ModelOp.commit;
import static dev.jtecs.stress.ModelOp.despawn;
import static dev.jtecs.stress.ModelOp.h;
import static dev.jtecs.stress.ModelOp.observeSpawns;
import static dev.jtecs.stress.ModelOp.read;
import static dev.jtecs.stress.ModelOp.spawn;
import static dev.jtecs.stress.ModelOp.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.world.World;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Runs many seeded random scripts of single and batch calls, commits, frames and clears against the reference
 * model: the bounded sweep every build runs ({@value #CI_SEEDS} seeds); {@code ./jtecs stress} is the long one.
 *
 * <p>Replay one seed with {@code -Djtecs.seed=<seed>} (and see more of its history with
 * {@code -Djtecs.modelLogTail=<n>}, 40 operations by default); widen the sweep with {@code -Djtecs.modelSeeds=<n>}
 * and move it with {@code -Djtecs.modelBaseSeed=<base>}. A mismatch is shrunk (for up to
 * {@code -Djtecs.shrinkSeconds}, 60 by default) and printed as a JUnit test to paste into this folder.
 */
class ModelRunTest {
    private static final int OPERATIONS = 400;
    private static final int CI_SEEDS = 800;

    @Test
    void engineMatchesReferenceModelAcrossManySeeds() {
        ModelSweep sweep = new ModelSweep(OPERATIONS, ModelGenerator.RELATIONS);
        String replay = System.getProperty("jtecs.seed");
        if (replay != null) {
            ModelMismatch mismatch = sweep.run(Long.parseLong(replay));
            if (mismatch != null) {
                throw shrunk(mismatch);
            }
            return;
        }
        int seeds = Integer.getInteger("jtecs.modelSeeds", CI_SEEDS);
        long base = Long.getLong("jtecs.modelBaseSeed", 20261129L);
        SplittableRandom seedSource = new SplittableRandom(base);
        long cpuStart = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
        for (int i = 0; i < seeds; i++) {
            ModelMismatch mismatch = sweep.run(seedSource.nextLong());
            if (mismatch != null) {
                throw shrunk(mismatch);
            }
        }
        ModelSweep.Totals totals = sweep.totals();
        double cpuSeconds = (ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() - cpuStart) / 1e9;
        System.out.printf(Locale.ROOT, "model runs from base %d: %s; %.1f s of CPU%n", base, totals.summary(),
                cpuSeconds);
        assertEquals(seeds, totals.seeds());
        assertTrue(totals.commits() >= seeds, "every run ends with a compared commit");
        assertTrue(totals.rejected() > 0, "the scripts must include illegal calls");
        assertTrue(totals.batchCalls() > 0, "the scripts must include batch calls");
        assertTrue(totals.failedPublications() > 0, "the scripts must include publications that fail");
        assertTrue(totals.frames() > 0, "the scripts must include frames");
        assertTrue(!ModelGenerator.RELATIONS || totals.sparseEdges() > 0, "the scripts must include sparse edges");
        assertTrue(totals.instantSeeds() > 0 && totals.instantSeeds() < seeds, "both paths must be exercised");
        assertTrue(seeds < 8 || totals.unobservedSeeds() > 0 && totals.unobservedSeeds() < seeds,
                "observed and unobserved runs must both be exercised");
    }

    /** Shrinks a mismatch, prints the JUnit source, and returns the error that fails the test. */
    private static AssertionError shrunk(ModelMismatch mismatch) {
        ModelShrinker.Result result = ModelShrinker.shrink(mismatch,
                Duration.ofSeconds(Long.getLong("jtecs.shrinkSeconds", 60)));
        String source = result.junit();
        System.out.println(source);
        return new AssertionError(mismatch.getMessage() + "\n\nshrunk to " + result.shrunk().ops().size()
                + " operations (" + result.executions() + " runs); paste as stress-tests/src/test/java/dev/jtecs/"
                + "stress/" + ModelSource.className(mismatch.seed()) + ".java:\n" + source, mismatch);
    }

    @Test
    void partitionOperationsAgreeWithTheReferenceAndMeetEveryRule() {
        long calls = 0;
        long rejected = 0;
        for (long seed = 1; seed <= 60; seed++) {
            ModelRun run = new ModelRun(seed, OPERATIONS);
            try {
                run.run();
            } catch (ModelMismatch mismatch) {
                throw shrunk(mismatch);
            }
            calls += run.partitionCalls();
            rejected += run.rejected();
        }
        assertTrue(calls > 60 * OPERATIONS / 12, "partition operations in the scripts: " + calls);
        assertTrue(rejected > 0);
    }

    @Test
    void aPartitionConflictIsRefusedAndTheFirstOperationStays() {
        ModelScript script = new ModelScript(4, false, false, List.of(spawn(0, false, HEALTH.of(1.0)),
                commit(false, h(0)),
                ModelOp.partitionTag(h(0), ModelComponents.ALERT, true),
                ModelOp.partitionTag(h(0), ModelComponents.PANIC, true), // conflict: refused
                ModelOp.partitionTag(h(0), ModelComponents.FLAGGED, true),
                ModelOp.partitionTag(h(0), ModelComponents.CALM, false), // no absent state: refused
                despawn(h(0)),
                ModelOp.partitionTag(h(0), ModelComponents.FLAGGED, false), // remove wins: dropped silently
                commit(false, h(0))));
        ModelRun run = new ModelRun(script);
        run.run();
        assertEquals(2, run.rejected());
        assertEquals(5, run.partitionCalls());
    }

    @Test
    void sameSeedReplaysTheSameRun() {
        ModelRun first = new ModelRun(7, OPERATIONS);
        ModelRun second = new ModelRun(7, OPERATIONS);
        assertEquals(first.script(), second.script());
        assertEquals(first.run(), second.run());
        assertEquals(first.rejected(), second.rejected());
        assertEquals(first.executed(), second.executed());
    }

    @Test
    void aScriptEndsWithACommitAndComparesIt() {
        ModelScript script = new ModelScript(1, false, false, List.of(spawn(0, false, HEALTH.of(40.0)),
                read(h(0))));
        ModelRun run = new ModelRun(script);
        assertEquals(1, run.run());
        assertEquals(2, run.executed());
    }

    @Test
    void framesRunTheSystemsOnTheWorldAndTheReference() {
        ModelScript script = new ModelScript(2, false, false, List.of(
                spawn(0, false, LEVEL.of(4), HEALTH.of(10.0)), // reaped by the first frame
                spawn(1, false, LEVEL.of(7), HEALTH.of(90.0)),
                update(), read(h(0)), read(h(1)), update(), commit(false, h(1))));
        ModelRun run = new ModelRun(script);
        run.run();
        assertEquals(2, run.frames());
    }

    @Test
    void spawnRulesStageWorkFromAnObserver() {
        // slots 1, 2, 3, ...: every 2nd slot gets Score 9, every 3rd is despawned by the second rule
        ModelScript script = new ModelScript(3, true, false, List.of(observeSpawns(2, SCORE.of(9L)),
                observeSpawns(3, null), spawn(0, false, MARKED), spawn(1, false), spawn(2, false, SCORE.of(1L)),
                despawn(h(0)), commit(false, h(1))));
        new ModelRun(script).run();
    }

    @Test
    void aMismatchNamesTheSeedTheOperationAndTheScript() {
        ModelScript script = new ModelScript(4, true, false, List.of(spawn(0, false, MARKED), despawn(h(0))));
        WorldCalls forgetful = new WorldCalls() {
            @Override
            public void despawn(World world, long id) {
                // forgets to forward
            }
        };
        ModelMismatch mismatch = assertThrows(ModelMismatch.class, () -> new ModelRun(script, forgetful).run());
        assertEquals(4, mismatch.seed());
        assertEquals(1, mismatch.step());
        assertEquals(script, mismatch.script());
        assertTrue(mismatch.getMessage().contains("despawn(h(0))"), mismatch.getMessage());
    }
}
