package dev.jtecs.stress;

import static dev.jtecs.stress.ModelComponents.MARKED;
import static dev.jtecs.stress.ModelOp.spawn;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ModelScriptTest {
    @Test
    void theSameSeedGivesTheSameScriptAndAnotherSeedAnother() {
        assertEquals(ModelScript.generate(11, 300), ModelScript.generate(11, 300));
        assertNotEquals(ModelScript.generate(11, 300).ops(), ModelScript.generate(12, 300).ops());
    }

    @Test
    void aScriptIsImmutableAndCanBeCutDown() {
        List<ModelOp> ops = new ArrayList<>(List.of(spawn(0, false, MARKED)));
        ModelScript script = new ModelScript(1, true, false, ops);
        ops.clear();
        assertEquals(1, script.ops().size());
        assertThrows(UnsupportedOperationException.class, () -> script.ops().add(spawn(1, false)));
        ModelScript cut = script.withOps(List.of());
        assertEquals(new ModelScript(1, true, false, List.of()), cut);
        new ModelRun(cut).run(); // the closing commit alone
    }

    @Test
    void withoutRelationsNoOperationNamesAnEdge() {
        for (long seed = 0; seed < 20; seed++) {
            ModelScript script = ModelScript.generate(seed, 400, false);
            assertTrue(!script.relational());
            assertTrue(script.toJunit(null).indexOf("edge(") < 0, "seed " + seed);
        }
    }

    @Test
    void aNegativeLengthIsRejected() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ModelScript.generate(1, -1));
        assertTrue(e.getMessage().contains("operations=-1"), e.getMessage());
    }

    /**
     * One seed in four runs unobserved, drawn apart from the operations: the script of a seed is the same
     * whichever way it runs, the short constructor makes an observed script, cutting keeps the choice, and an
     * unobserved script prints as one (replaying it builds the same script).
     */
    @Test
    void aScriptSaysWhetherItObservesTheWorldAndKeepsItWhenCut() {
        int unobserved = 0;
        for (long seed = 0; seed < 40; seed++) {
            ModelScript script = ModelScript.generate(seed, 60);
            unobserved += script.observed() ? 0 : 1;
            ModelScript flipped = new ModelScript(seed, script.instant(), script.relational(), !script.observed(),
                    script.ops());
            assertEquals(script.observed(), script.withOps(List.of()).observed());
            assertNotEquals(script, flipped);
            if (!script.observed()) {
                String source = script.toJunit(null);
                assertTrue(source.contains("unobserved)"), source.lines().limit(12).toList().toString());
                assertTrue(source.contains("L, " + script.instant() + ", " + script.relational() + ", false, List.of("),
                        "the printed script is unobserved too");
                new ModelRun(script).run();
            }
        }
        assertTrue(unobserved > 3 && unobserved < 20, unobserved + " of 40 seeds unobserved");
        assertTrue(new ModelScript(1, true, false, List.of()).observed());
    }
}
