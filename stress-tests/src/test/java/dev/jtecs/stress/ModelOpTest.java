package dev.jtecs.stress;

import static dev.jtecs.stress.ModelComponents.HEALTH;
import static dev.jtecs.stress.ModelComponents.LEVEL;
import static dev.jtecs.stress.ModelComponents.MARKED;
import static dev.jtecs.stress.ModelComponents.POSITION;
import static dev.jtecs.stress.ModelOp.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.stress.ModelOp.KeyPlan;
import java.util.List;
import org.junit.jupiter.api.Test;

class ModelOpTest {
    @Test
    void factoriesBuildTheRecordsTheyPrintAs() {
        assertEquals(new ModelOp.Spawn(2, true, List.of(new ModelInput.Given(MARKED))), spawn(2, true, MARKED));
        assertEquals("spawn(2, true, MARKED)", spawn(2, true, MARKED).toJava());
        assertEquals("batchSpawn(0, 3, List.of(POSITION), -1, HEALTH.of(1.0))",
                batchSpawn(0, 3, List.of(POSITION), -1, HEALTH.of(1.0)).toJava());
        assertEquals("restore(4, List.of(h(1)), null, keys(KeyPlan.HELD, KEYED, 0, 7), 1, false, LEVEL.of(2))",
                restore(4, List.of(h(1)), null, keys(KeyPlan.HELD, ModelComponents.KEYED, 0, 7), 1, false,
                        LEVEL.of(2)).toJava());
        assertEquals("observeSpawns(3, null)", observeSpawns(3, null).toJava());
        assertEquals("commit(false, h(0))", commit(false, h(0)).toJava());
        assertEquals("fieldWrite(h(1), POSITION, 0, -4, 2)", fieldWrite(h(1), POSITION, 0, -4, 2).toJava());
        ModelInput.EdgeTo edge = new ModelInput.EdgeTo(ModelComponents.HELD_BY, h(2), null);
        ModelOp.Reparent reparent = new ModelOp.Reparent(h(1), edge);
        assertEquals(new ModelOp.SetInput(h(1), edge), reparent.asSet());
        assertEquals(reparent.asSet().toJava(), reparent.toJava(), "replayed as the set it is");
    }

    @Test
    void simplerVariantsDropOneThingEach() {
        List<ModelOp> simpler = spawn(0, true, MARKED, HEALTH.of(2.0)).simpler();
        assertEquals(List.of(spawn(0, false, MARKED, HEALTH.of(2.0)), spawn(0, true, HEALTH.of(2.0)),
                spawn(0, true, MARKED)), simpler);
        assertTrue(batchSpawn(0, 8, List.of(POSITION), 5, MARKED).simpler()
                .contains(batchSpawn(0, 1, List.of(POSITION), 0, MARKED)));
        assertTrue(batchSpawn(0, 8, List.of(POSITION), 5, MARKED).simpler()
                .contains(batchSpawn(0, 8, null, 5, MARKED)));
        assertEquals(List.of(commit(false, h(1))), commit(true, h(1)).simpler());
        assertEquals(List.of(), despawn(h(0)).simpler());
    }

    @Test
    void badArgumentsAreRejectedNamingThem() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> observeSpawns(0, null));
        assertTrue(e.getMessage().contains("every=0"), e.getMessage());
        assertThrows(NullPointerException.class, () -> keys(null, null, 0, 0));
        assertThrows(NullPointerException.class, () -> despawn(null));
        assertThrows(NullPointerException.class, () -> batchRemove(0, null));
    }
}
