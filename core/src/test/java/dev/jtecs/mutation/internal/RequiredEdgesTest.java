package dev.jtecs.mutation.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.component.Relationship;
import dev.jtecs.component.Relationships;
import org.junit.jupiter.api.Test;

class RequiredEdgesTest {
    static final Relationship A = Relationships.register("test.required.A", o -> o.sparse());
    static final Relationship B = Relationships.register("test.required.B", o -> o.sparse());

    @Test
    void aPlannedEdgeIsFoundByItsEntityAndRelationshipUntilConsumed() {
        RequiredEdges edges = new RequiredEdges();
        edges.plan(7, A);
        edges.plan(8, A);
        assertEquals(-1, edges.find(7, B), "another relationship");
        assertEquals(-1, edges.find(9, A), "another entity");
        int at = edges.find(7, A);
        assertTrue(at >= 0);
        assertEquals(at, edges.find(7, A), "finding consumes nothing: a retried edge still finds its plan");
        edges.consume(at);
        assertEquals(-1, edges.find(7, A), "one required edge per relationship arrives");
        assertTrue(edges.find(8, A) >= 0, "the other plan stays");
    }

    @Test
    void clearForgetsEveryPlanAndGrowthKeepsThemAll() {
        RequiredEdges edges = new RequiredEdges();
        for (int i = 0; i < 100; i++) {
            edges.plan(i, i % 2 == 0 ? A : B);
        }
        assertTrue(edges.find(99, B) >= 0, "plans survive growth");
        assertTrue(edges.find(0, A) >= 0);
        edges.clear();
        assertEquals(-1, edges.find(0, A));
    }

    @Test
    void findGivesThePlansOwnPlaceAndAFullTableConsumesAndSearchesWithinItsPlans() {
        RequiredEdges edges = new RequiredEdges();
        for (int i = 1; i <= 8; i++) { // exactly the initial capacity
            edges.plan(i, A);
        }
        assertEquals(1, edges.find(2, A), "the second plan is at index 1");
        assertEquals(7, edges.find(8, A));
        assertEquals(-1, edges.find(9, A), "a full table is searched to its end and no further");
        edges.consume(edges.find(1, A)); // the last plan takes the consumed one's place
        assertEquals(0, edges.find(8, A));
        assertEquals(-1, edges.find(1, A));
        for (int i = 2; i <= 7; i++) {
            assertEquals(i - 1, edges.find(i, A), "plan " + i + " stays where it was");
        }
    }
}
