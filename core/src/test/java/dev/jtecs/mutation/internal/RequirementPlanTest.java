package dev.jtecs.mutation.internal;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.component.PairComponent;
import dev.jtecs.component.Relationship;
import dev.jtecs.component.Relationships;
import dev.jtecs.entity.Entity;
import dev.jtecs.storage.internal.PairRegistry;
import dev.jtecs.storage.internal.SignatureBuilder;
import org.junit.jupiter.api.Test;

class RequirementPlanTest {
    static final Relationship EXCLUSIVE = Relationships.register("test.plan.Exclusive", o -> o.exclusive());
    static final Relationship MANY = Relationships.register("test.plan.Many");

    @Test
    void anExclusiveEdgeEvictsTheOtherEdgesTheRowHoldsWhenReplayed() {
        PairRegistry pairs = new PairRegistry();
        PairComponent unforeseen = pairs.pair(EXCLUSIVE, Entity.pack(1, 0)); // e.g. added by a pending batch set
        PairComponent staged = pairs.pair(EXCLUSIVE, Entity.pack(2, 0));
        PairComponent other = pairs.pair(MANY, Entity.pack(1, 0));
        Transaction tx = new Transaction();
        int record = tx.begin(Entity.pack(3, 0), 3, TxState.STAGED_MUTATE);
        tx.put(record, staged, staged); // staged without seeing `unforeseen`, so it stages no removal of it
        tx.put(record, EXCLUSIVE, EXCLUSIVE);
        SignatureBuilder signature = new SignatureBuilder();
        signature.add(EXCLUSIVE);
        signature.add(unforeseen);
        signature.add(MANY);
        signature.add(other);

        new RequirementPlan(new dev.jtecs.storage.internal.PairRegistry()).plan(tx, record, signature);

        assertTrue(signature.contains(staged), "the edge set last");
        assertFalse(signature.contains(unforeseen), "an exclusive relationship keeps one edge");
        assertTrue(signature.contains(EXCLUSIVE));
        assertTrue(signature.contains(other) && signature.contains(MANY), "other relationships keep theirs");
    }
}
