package dev.jtecs.stress;

import static dev.jtecs.stress.ModelComponents.FOLLOWS;
import static dev.jtecs.stress.ModelComponents.MARKED;
import static dev.jtecs.stress.ModelOp.*;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class ModelHandlesTest {
    @Test
    void handlesAreRenumberedFromZeroInBindingOrder() {
        ModelScript script = new ModelScript(1, true, true, List.of(spawn(40, false, MARKED),
                batchSpawn(7, 2, null, -1, edge(FOLLOWS, h(40))), despawn(h(8)), spawnAt(90, revive(40, 1), false),
                batchSpawnAt(3, List.of(h(7), slotOf(0, 1)), null, -1), despawn(h(500)), commit(false, h(90))));
        ModelScript renumbered = ModelHandles.renumber(script);
        assertEquals(List.of(spawn(0, false, MARKED), batchSpawn(1, 2, null, -1, edge(FOLLOWS, h(0))),
                despawn(h(2)), spawnAt(3, revive(0, 1), false), batchSpawnAt(4, List.of(h(1), slotOf(0, 1)), null, -1),
                despawn(h(6)), commit(false, h(3))), renumbered.ops());
    }

    @Test
    void aRenumberedScriptRunsTheSameWay() {
        ModelScript script = ModelScript.generate(3, 400);
        ModelScript renumbered = ModelHandles.renumber(script.withOps(script.ops().subList(200, 400)));
        ModelRun original = new ModelRun(script.withOps(script.ops().subList(200, 400)));
        ModelRun again = new ModelRun(renumbered);
        assertEquals(original.run(), again.run());
        assertEquals(original.rejected(), again.rejected());
        assertEquals(original.batchCalls(), again.batchCalls());
    }

    @Test
    void widthsCoverWhatEachOperationMayBind() {
        assertEquals(1, ModelHandles.width(spawn(0, false)));
        assertEquals(5, ModelHandles.width(batchSpawn(0, 5, null, -1)));
        assertEquals(0, ModelHandles.width(batchSpawn(0, -1, null, -1)));
        assertEquals(1, ModelHandles.width(restore(0, List.of(), null, keys(KeyPlan.NONE, null, 0, 0), 0, false)));
        assertEquals(3, ModelHandles.width(failingSpawn(0, 0, 3, List.of(), List.of())));
        assertEquals(0, ModelHandles.width(despawn(h(0))));
    }
}
