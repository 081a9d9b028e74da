package dev.jtecs.stress;

import static dev.jtecs.stress.ModelComponents.*;
import static dev.jtecs.stress.ModelOp.*;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Replays model seed 11165557 (staged path, relationships on), 9 operations.
 * The eight-minute run shrank it to these; the world despawned C alone, the reference C and D. C's cascading edge
 * lands on a cancelled spawn, so the settlement after the first segment stages C's despawn, with the subtree C has
 * then (none). D is placed in the next segment with an edge to C, which is still alive, and is re-targeted to A in
 * the one after: when C dies, in the settlement's wave, D is no longer its child. The reference used to count any
 * entity whose despawn some earlier settlement had staged as dead already, and took D; it now follows the rule of
 * {@code docs/relationships.md} ("Cascading delete"): a subtree is the one found when its despawn is staged, and an
 * edge to a member placed after that is judged when the member dies.
 */
class ModelSeed11165557Test {
    static ModelScript script() {
        return new ModelScript(11165557L, false, true, List.of(
                spawnAt(0, beyond(5, 2), false), // A
                spawnAt(1, beyond(4, 2), false), // B
                spawn(2, false), // C
                set(h(2), edge(HELD_BY, h(1))), // C held by B (sparse, exclusive, cascading)
                despawn(h(1)), // B's staged spawn cancelled: C's edge lands on nothing
                batchRewrite(6, VELOCITY), // a query batch ends the first segment
                spawn(3, false, edge(HELD_BY, h(2))), // D, held by C, whose despawn is staged
                batchRemove(10, SCORE), // another query batch
                set(h(3), edge(HELD_BY, h(0))))); // D re-targeted to A before C dies
    }

    @Test
    void engineMatchesReferenceOnThisScript() {
        new ModelRun(script()).run(); // throws ModelMismatch where they disagree
    }
}
