package dev.jtecs.docs;

import static dev.jtecs.stress.ModelComponents.HEALTH;
import static dev.jtecs.stress.ModelComponents.LEVEL;
import static dev.jtecs.stress.ModelComponents.MARKED;
import static dev.jtecs.stress.ModelOp.commit;
import static dev.jtecs.stress.ModelOp.despawn;
import static dev.jtecs.stress.ModelOp.h;
import static dev.jtecs.stress.ModelOp.read;
import static dev.jtecs.stress.ModelOp.spawn;
import static dev.jtecs.stress.ModelOp.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.entity.Entity;
import dev.jtecs.stress.ModelMismatch;
import dev.jtecs.stress.ModelRun;
import dev.jtecs.stress.ModelScript;
import dev.jtecs.stress.ModelShrinker;
import dev.jtecs.stress.WorldCalls;
import dev.jtecs.world.World;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The examples of {@code docs/stress.md}. */
class StressGuideTest {
    @Test
    void aSeedIsTheWholeRecipe() {
        // begin-example
        ModelScript script = ModelScript.generate(20261129L, 400);
        assertEquals(script, ModelScript.generate(20261129L, 400)); // nothing random happens after this

        ModelRun run = new ModelRun(script);
        long commits = run.run(); // throws ModelMismatch at the first disagreement
        assertEquals(script.ops().size(), run.executed());
        assertTrue(commits > 0 && run.rejected() > 0);
        // end-example
    }

    @Test
    void aScriptWrittenByHand() {
        // begin-example
        ModelScript script = new ModelScript(1L, false, false, List.of( // staged path, no relationships
                spawn(0, false, HEALTH.of(20.0), LEVEL.of(3)), // binds handle 0 to the id the world hands out
                spawn(1, false, HEALTH.of(80.0), MARKED),
                commit(false, h(0)),
                update(), // stress.Grow: Level 4; stress.Reap despawns h(0), whose health is at most 25
                despawn(h(0)), // dead by now: the world must reject it, and the run checks that it does
                read(h(1))));
        ModelRun run = new ModelRun(script);
        run.run();
        assertEquals(1, run.rejected());
        assertEquals(1, run.frames());
        // end-example
    }

    @Test
    void aBrokenFacadeIsCaughtAndShrunk() {
        // begin-example
        WorldCalls forgetful = new WorldCalls() { // an engine bug, simulated: despawns of odd slots are lost
            @Override
            public void despawn(World world, long id) {
                if (Entity.slot(id) % 2 == 0) {
                    world.despawn(id);
                }
            }
        };
        ModelScript script = ModelScript.generate(20261129L, 400);
        ModelMismatch mismatch = assertThrows(ModelMismatch.class, () -> new ModelRun(script, forgetful).run());

        ModelShrinker.Result result = ModelShrinker.shrink(script, mismatch, () -> forgetful, Duration.ofSeconds(30));
        assertTrue(result.shrunk().ops().size() <= 3); // a spawn or two and the lost despawn
        String source = result.junit(); // a JUnit 5 class for stress-tests/src/test/java/dev/jtecs/stress
        assertTrue(source.contains("new ModelRun(script()).run();"));
        // end-example
    }
}
