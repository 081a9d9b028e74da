package dev.jtecs.stress;

import static dev.jtecs.stress.ModelComponents.*;
import static dev.jtecs.stress.ModelOp.*;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Replays model seed 3 (staged path, relationships on), 4 operations.
 * Shrunk from 455 to 4 operations; the mismatch it reproduced, with the short way for sparse edges before it
 * checked the edge: expected the world to reject the call (an edge to a target that was never spawned, set on an
 * entity that carries the relationship's marker, was queued instead).
 */
class ModelSeed3Test {
    static ModelScript script() {
        return new ModelScript(3L, false, true, List.of(
                batchSpawn(0, 1, null, -1),
                batchSpawn(1, 3, null, -1, edge(WATCHES, h(0))),
                update(),
                set(h(3), edge(WATCHES, h(4)))));
    }

    @Test
    void engineMatchesReferenceOnThisScript() {
        new ModelRun(script()).run(); // throws ModelMismatch where they disagree
    }
}
