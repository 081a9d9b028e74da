package dev.jtecs.stress;

import static dev.jtecs.stress.ModelComponents.*;
import static dev.jtecs.stress.ModelOp.*;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Replays model seed 11132153 (staged path, relationships on), 7 operations.
 * Shrunk from 668 to 7 operations; the mismatch it reproduces:
 * batch despawn events differ: world=[OnDespawn 4294967297] model=[OnDespawn 2, OnDespawn 4294967297]
 */
class ModelSeed11132153Test {
    static ModelScript script() {
        return new ModelScript(11132153L, false, true, List.of(
                spawnAt(0, revive(4, 1), false),
                spawn(1, false, edge(HELD_BY, h(0)), ELITE),
                commit(false, h(5)),
                batchSpawn(2, 2, null, -1),
                despawn(h(3)),
                set(h(0), edge(HELD_BY, h(3))),
                batchRemove(2, HELD_BY)));
    }

    @Test
    void engineMatchesReferenceOnThisScript() {
        new ModelRun(script()).run(); // throws ModelMismatch where they disagree
    }
}
