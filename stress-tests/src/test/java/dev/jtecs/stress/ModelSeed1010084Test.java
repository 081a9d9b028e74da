package dev.jtecs.stress;

import static dev.jtecs.stress.ModelComponents.*;
import static dev.jtecs.stress.ModelOp.*;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Replays model seed 1010084 (staged path, relationships off), 19 operations.
 * Shrunk from 400 to 19 operations; the mismatch it reproduces:
 * batch despawn events differ: world=[OnDespawn 1, OnDespawn 2, OnDespawn 3, OnDespawn 4, OnDespawn 5, OnDespawn 6, OnDespawn@ 4294967303, OnDespawn 4294967303] model=[OnDespawn 1, OnDespawn 2, OnDespawn 3, OnDespawn 4, OnDespawn 5, OnDespawn 6, OnDespawn 4294967303]
 */
class ModelSeed1010084Test {
    static ModelScript script() {
        return new ModelScript(1010084L, false, false, List.of(
                spawn(0, false),
                observeSpawns(7, null),
                spawn(1, false),
                spawn(2, false),
                spawn(3, false),
                spawn(4, false),
                spawn(5, false),
                spawn(6, false),
                commit(false, h(15)),
                failingSpawn(7, 1, 0, List.of(beyond(1, 2), revive(16, 1), revive(16, 2), beyond(2, 1), beyond(1, 2)), List.of(POSITION, LABEL, HEALTH, ACTIVE)),
                spawn(12, true),
                commit(false, h(17)),
                spawnAt(13, h(6), false),
                commit(false, h(1)),
                batchSpawn(14, 1, null, -1),
                commit(false, h(18)),
                batchRewrite(6, ELITE),
                failingWriter(9, VELOCITY, 0),
                batchDespawn(2)));
    }

    @Test
    void engineMatchesReferenceOnThisScript() {
        new ModelRun(script()).run(); // throws ModelMismatch where they disagree
    }
}

