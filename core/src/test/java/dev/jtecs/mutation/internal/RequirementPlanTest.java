package dev.jtecs.mutation.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.component.Components;
import dev.jtecs.component.Input;
import dev.jtecs.component.PairComponent;
import dev.jtecs.component.Relationship;
import dev.jtecs.component.Relationships;
import dev.jtecs.component.ScalarComponent;
import dev.jtecs.component.TagComponent;
import dev.jtecs.entity.Entity;
import dev.jtecs.storage.internal.PairRegistry;
import dev.jtecs.storage.internal.SignatureBuilder;
import org.junit.jupiter.api.Test;

class RequirementPlanTest {
    static final Relationship EXCLUSIVE = Relationships.register("test.plan.Exclusive", o -> o.exclusive());
    static final Relationship MANY = Relationships.register("test.plan.Many");
    static final ScalarComponent.OfInt B = Components.scalar("test.plan.B", 1);
    static final ScalarComponent.OfInt C = Components.scalar("test.plan.C", 2);
    static final ScalarComponent.OfInt D = Components.scalar("test.plan.D", 3);
    static final Input B_VALUE = B.of(10);
    static final Input C_VALUE = C.of(20);
    static final Input D_VALUE = D.of(30);
    static final TagComponent NEEDS_THREE = Components.tag("test.plan.NeedsThree",
            o -> o.requires(B_VALUE, C_VALUE, D_VALUE));

    @Test
    void aRequirementRemovedLaterInTheSameScopeIsForgottenAndTheOthersKeepTheirOrderAndValues() {
        Transaction tx = new Transaction();
        int record = tx.begin(Entity.pack(3, 0), 3, TxState.STAGED_MUTATE);
        tx.put(record, NEEDS_THREE, NEEDS_THREE); // brings B, C and D with their values
        tx.put(record, C, null); // then C is removed again before the commit
        SignatureBuilder signature = new SignatureBuilder();
        RequirementPlan plan = new RequirementPlan(new PairRegistry());

        plan.plan(tx, record, signature);

        assertFalse(signature.contains(C), "the removal wins over the requirement that brought it");
        assertTrue(signature.contains(NEEDS_THREE) && signature.contains(B) && signature.contains(D));
        assertEquals(2, plan.size(), "C's requirement value is forgotten, so nothing writes it");
        assertSame(B, plan.componentAt(0));
        assertSame(B_VALUE, plan.inputAt(0));
        assertSame(D, plan.componentAt(1), "the later requirement moves up in step with its value");
        assertSame(D_VALUE, plan.inputAt(1));

        tx.put(record, B, null); // now the first one goes too
        plan.plan(tx, record, new SignatureBuilder());
        assertEquals(1, plan.size());
        assertSame(D, plan.componentAt(0));
        assertSame(D_VALUE, plan.inputAt(0));
    }

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

    static final ScalarComponent.OfInt[] EIGHT = new ScalarComponent.OfInt[8];
    static {
        for (int i = 0; i < EIGHT.length; i++) {
            EIGHT[i] = Components.scalar("test.plan.Eight" + i, i);
        }
    }
    static final TagComponent NEEDS_EIGHT = Components.tag("test.plan.NeedsEight", o -> o.requires(
            EIGHT[0], EIGHT[1], EIGHT[2], EIGHT[3], EIGHT[4], EIGHT[5], EIGHT[6], EIGHT[7]));

    @Test
    void aRequirementForgottenFromAFullPlanMovesTheRestUpWithinIt() {
        Transaction tx = new Transaction();
        int record = tx.begin(Entity.pack(3, 0), 3, TxState.STAGED_MUTATE);
        tx.put(record, NEEDS_EIGHT, NEEDS_EIGHT); // eight requirements: the plan's arrays exactly full
        tx.put(record, EIGHT[1], null);
        RequirementPlan plan = new RequirementPlan(new PairRegistry());

        plan.plan(tx, record, new SignatureBuilder());

        assertEquals(7, plan.size());
        for (int k = 0, i = 0; i < EIGHT.length; i++) {
            if (i != 1) {
                assertSame(EIGHT[i], plan.componentAt(k), "requirement " + i);
                assertSame(EIGHT[i], plan.inputAt(k++));
            }
        }
    }
}
