package dev.jtecs.mutation.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.component.Components;
import dev.jtecs.component.ScalarComponent;
import dev.jtecs.component.TagComponent;
import dev.jtecs.entity.Entity;
import dev.jtecs.storage.internal.Table;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Where a record's row ends: one lookup, requirements planned, no intermediate archetype. */
class DestinationsTest {
    static final ScalarComponent.OfInt HP = Components.scalar("test.dest.Hp", 3);
    static final TagComponent A = Components.tag("test.dest.A");
    static final TagComponent B = Components.tag("test.dest.B", o -> o.requires(HP.of(9)));

    private final DrainFixture fixture = new DrainFixture();
    private final RequirementPlan requirements = new RequirementPlan(fixture.registry.pairs());
    private final Destinations destinations = new Destinations(fixture.registry, fixture.tx, requirements);

    @AfterEach
    void tearDown() {
        fixture.close();
    }

    private int record(long id) {
        return fixture.tx.begin(id, Entity.slot(id), TxState.STAGED_MUTATE);
    }

    @Test
    void aLoneChangeFollowsTheGraphEdgeAndPlansNothing() {
        Table root = fixture.registry.root();
        int record = record(fixture.index.allocate());
        fixture.tx.put(record, A, A);
        Table withA = destinations.resolve(record, root);
        assertTrue(withA.has(A.id()));
        assertEquals(0, requirements.size());
        assertSame(withA, root.addEdge(A.id()), "the edge is cached for the next one");
    }

    @Test
    void severalChangesAndTheirRequirementsResolveToOneTableInOneLookup() {
        Table root = fixture.registry.root();
        int archetypesBefore = fixture.registry.count();
        int record = record(fixture.index.allocate());
        fixture.tx.put(record, A, A);
        fixture.tx.put(record, B, B);
        Table target = destinations.resolve(record, root);
        assertTrue(target.has(A.id()) && target.has(B.id()) && target.has(HP.id()), "B requires HP");
        assertEquals(1, requirements.size(), "HP's required value is planned for the writes");
        assertEquals(archetypesBefore + 1, fixture.registry.count(), "only the final archetype was created");
    }

    @Test
    void anAddThenARemoveOfTheSameComponentStaysPut() {
        Table root = fixture.registry.root();
        int record = record(fixture.index.allocate());
        fixture.tx.put(record, A, A);
        fixture.tx.put(record, A, null); // the last write wins: a removal
        fixture.tx.put(record, B, B);
        fixture.tx.put(record, B, null);
        assertSame(root, destinations.resolve(record, root));
    }
}
