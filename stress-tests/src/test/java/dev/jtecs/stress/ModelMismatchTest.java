package dev.jtecs.stress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class ModelMismatchTest {
    @Test
    void theKindFoldsIdsAndDropsWhatEachSideSaw() {
        assertEquals("get(###, stress.Position)",
                ModelMismatch.kindOf("get(3#0, stress.Position) world=Position[x=1.0] model=null"));
        assertEquals("isAlive(###)", ModelMismatch.kindOf("isAlive(12#1) world=true model=false"));
        assertEquals("event logs differ from entry #:", ModelMismatch.kindOf(
                "event logs differ from entry 5: world=[OnDespawn 3] model=[]"));
        assertEquals(ModelMismatch.kindOf("a write to 4#0 stress.Health was not marked dirty"),
                ModelMismatch.kindOf("a write to 17#2 stress.Health was not marked dirty"));
    }

    @Test
    void aMismatchNamesItsSeedStepAndLastOperations() {
        ModelScript script = new ModelScript(9, true, false, List.of());
        ModelMismatch mismatch = new ModelMismatch(script, 3, "count differs", List.of("#2 spawn(0, false)"));
        assertEquals(9, mismatch.seed());
        assertEquals(3, mismatch.step());
        assertEquals("count differs", mismatch.detail());
        assertEquals(script, mismatch.script());
        assertTrue(mismatch.getMessage().contains("seed=9") && mismatch.getMessage().contains("#2 spawn(0, false)"));
        assertNull(new ModelMismatch(9, 3, "x", List.of()).script());
    }
}
