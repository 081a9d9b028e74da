package dev.jtecs.stress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.world.World;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ModelSweepTest {
    @Test
    void totalsAddUpWhatEachSeedChecked() {
        ModelSweep sweep = new ModelSweep(150, true);
        long commits = 0;
        for (long seed = 0; seed < 5; seed++) {
            assertNull(sweep.run(seed));
            commits += new ModelRun(ModelScript.generate(seed, 150, true)).run();
        }
        ModelSweep.Totals totals = sweep.totals();
        assertEquals(5, totals.seeds());
        assertEquals(commits, totals.commits());
        assertTrue(totals.operations() >= 5 * 150, "operations=" + totals.operations());
        assertTrue(totals.operationsPerSecond() > 0);
        assertTrue(totals.summary().startsWith("5 seeds ("), totals.summary());
    }

    @Test
    void aMismatchComesBackWithItsScriptAndShrinksThroughTheSameCalls() {
        WorldCalls noDespawns = new WorldCalls() {
            @Override
            public void despawn(World world, long id) {
                // loses every despawn
            }
        };
        ModelSweep sweep = new ModelSweep(200, false, () -> noDespawns);
        ModelMismatch mismatch = null;
        for (long seed = 0; mismatch == null && seed < 50; seed++) {
            mismatch = sweep.run(seed);
        }
        assertNotNull(mismatch);
        assertEquals(mismatch.seed() + 1, sweep.totals().seeds());
        ModelShrinker.Result result = sweep.shrink(mismatch, Duration.ofSeconds(30));
        assertTrue(result.shrunk().ops().size() <= 3, result.junit());
    }

    @Test
    void aSweepNeedsAtLeastOneOperationPerSeed() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new ModelSweep(0, true));
        assertTrue(e.getMessage().contains("operations=0"), e.getMessage());
    }
}
