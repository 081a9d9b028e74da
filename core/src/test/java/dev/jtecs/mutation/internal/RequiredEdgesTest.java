package dev.jtecs.mutation.internal;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.component.Relationship;
import dev.jtecs.component.Relationships;
import org.junit.jupiter.api.Test;

class RequiredEdgesTest {
    static final Relationship A = Relationships.register("test.required.A", o -> o.sparse());
    static final Relationship B = Relationships.register("test.required.B", o -> o.sparse());

    @Test
    void aPlannedEdgeIsConsumedOnceByItsEntityAndRelationship() {
        RequiredEdges edges = new RequiredEdges();
        edges.plan(7, A);
        edges.plan(8, A);
        assertFalse(edges.consume(7, B), "another relationship");
        assertFalse(edges.consume(9, A), "another entity");
        assertTrue(edges.consume(7, A));
        assertFalse(edges.consume(7, A), "one required edge per relationship arrives");
        assertTrue(edges.consume(8, A));
    }

    @Test
    void clearForgetsEveryPlanAndGrowthKeepsThemAll() {
        RequiredEdges edges = new RequiredEdges();
        for (int i = 0; i < 100; i++) {
            edges.plan(i, i % 2 == 0 ? A : B);
        }
        assertTrue(edges.consume(99, B), "plans survive growth");
        edges.clear();
        assertFalse(edges.consume(0, A));
    }
}
