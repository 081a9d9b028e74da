package dev.jtecs.stress;

import static dev.jtecs.stress.ModelComponents.*;
import static dev.jtecs.stress.ModelOp.*;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Replays model seed 1005713 (staged path, relationships on), 6 operations.
 * Shrunk from 400 to 6 operations; the mismatch it reproduces:
 * batch despawn events differ: world=[OnDespawn 2, OnDespawn 3, OnDespawn 4, OnDespawn 5, OnDespawn 6, OnDespawn 7] model=[OnDespawn 2, OnDespawn 3, OnDespawn 4, OnDespawn 5, OnDespawn 6, OnDespawn 7, OnDespawn 8]
 */
class ModelSeed1005713Test {
    static ModelScript script() {
        return new ModelScript(1005713L, false, true, List.of(
                spawn(0, false),
                batchSpawn(1, 6, null, -1, edge(HELD_BY, h(0))),
                batchSpawn(7, 1, null, -1, edge(CHILD_OF, h(4))),
                commit(false, h(8)),
                despawn(id(1L)),
                batchRemove(8, CHILD_OF)));
    }

    @Test
    void engineMatchesReferenceOnThisScript() {
        new ModelRun(script()).run(); // throws ModelMismatch where they disagree
    }
}

