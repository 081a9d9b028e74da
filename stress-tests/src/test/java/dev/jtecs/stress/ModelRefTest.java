package dev.jtecs.stress;

import static dev.jtecs.stress.ModelComponents.MARKED;
import static dev.jtecs.stress.ModelOp.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class ModelRefTest {
    @Test
    void referencesPrintAsTheFactoriesThatBuildThem() {
        assertEquals("h(3)", h(3).toJava());
        assertEquals("id(-1L)", id(-1).toJava());
        assertEquals("revive(2, 1)", revive(2, 1).toJava());
        assertEquals("beyond(4, 0)", beyond(4, 0).toJava());
        assertEquals("slotOf(1, 2)", slotOf(1, 2).toJava());
    }

    @Test
    void negativeNumbersAreRejectedNamingThem() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> h(-1));
        assertTrue(e.getMessage().contains("handle=-1"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> revive(1, -2));
        assertTrue(e.getMessage().contains("handle=1") && e.getMessage().contains("generationStep=-2"));
        e = assertThrows(IllegalArgumentException.class, () -> beyond(0, 0));
        assertTrue(e.getMessage().contains("slotStep=0") && e.getMessage().contains("generation=0"));
        assertThrows(IllegalArgumentException.class, () -> slotOf(-1, 0));
    }

    @Test
    void anUnboundHandleNamesAnIdNoWorldOfTheModelHandsOut() {
        // h(5) is never bound: every call naming it must be rejected, and reading it finds nothing
        ModelRun run = new ModelRun(new ModelScript(0, true, false, List.of(spawn(0, false, MARKED),
                despawn(h(5)), set(h(5), MARKED), read(h(5)), despawn(h(0)))));
        run.run();
        assertEquals(2, run.rejected());
    }

    @Test
    void aSpawnAtOfAHandleStillLiveIsRejectedAndOfARevivedSlotIsNot() {
        ModelRun run = new ModelRun(new ModelScript(0, false, false, List.of(spawn(0, false, MARKED),
                commit(false, h(0)), spawnAt(1, h(0), false), despawn(h(0)), commit(false, h(0)),
                spawnAt(2, revive(0, 1), false, MARKED), spawnAt(3, beyond(1, 0), false))));
        run.run();
        assertEquals(1, run.rejected());
    }
}
