package dev.jtecs.mutation.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.builtin.EntityKey;
import dev.jtecs.component.Components;
import dev.jtecs.component.Input;
import dev.jtecs.component.ManagedComponent;
import dev.jtecs.component.ScalarComponent;
import dev.jtecs.component.TagComponent;
import dev.jtecs.entity.Entity;
import dev.jtecs.storage.internal.Table;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Placing single spawns by their cached shape, and planning batches at the call. */
class SpawnPlacementTest {
    static final ScalarComponent.OfInt HP = Components.scalar("test.spawnplace.Hp", 3);
    static final TagComponent A = Components.tag("test.spawnplace.A");
    static final TagComponent B = Components.tag("test.spawnplace.B", o -> o.requires(HP.of(9)));

    static final class Cursed {
        Cursed() {
            throw new IllegalStateException("constructor failed");
        }
    }

    static final ManagedComponent<Cursed> CURSED = Components.registerManaged(Cursed.class,
            o -> o.name("test.spawnplace.Cursed").defaults(Cursed::new));

    private final DrainFixture fixture = new DrainFixture();
    private final RequirementPlan requirements = new RequirementPlan(fixture.registry.pairs());
    private final SpawnPlacement spawns = new SpawnPlacement(fixture.drain, fixture.index, fixture.registry,
            fixture.tx, requirements, new Destinations(fixture.registry, fixture.tx, requirements),
            new RequiredEdges());

    @AfterEach
    void tearDown() {
        fixture.close();
    }

    private int stage(Input... inputs) {
        long id = fixture.stageSpawn(inputs);
        return fixture.tx.find(Entity.slot(id));
    }

    @Test
    void consecutiveSpawnsOfOneSequenceShareTheirShape() {
        int first = stage(A, HP.of(1));
        int second = stage(A, HP.of(2));
        int other = stage(HP.of(3), A);
        SpawnPlacement.SpawnShape shape = spawns.shapeOf(first);
        assertSame(shape, spawns.shapeOf(second), "same components in the same order: no signature work");
        SpawnPlacement.SpawnShape reordered = spawns.shapeOf(other);
        assertNotSame(shape, reordered, "another order is another shape");
        assertSame(shape.table(), reordered.table(), "of the same archetype");
    }

    @Test
    void aSpawnWritesRequirementsThenItsValuesAndPublishesItsId() {
        int record = stage(B);
        long id = fixture.tx.id(record);
        spawns.spawn(record);
        assertTrue(fixture.index.isAlive(id));
        Table table = fixture.tableOf(id);
        assertEquals(9, table.readValue(table.position(HP.id()), fixture.index.rowOf(Entity.slot(id))),
                "B's requirement");
        assertEquals(TxState.COMMITTED, fixture.tx.state(record));
    }

    @Test
    void aWriteThatThrowsRemovesTheRowAndPublishesNothing() {
        int record = stage(A, CURSED);
        long id = fixture.tx.id(record);
        Table table = spawns.shapeOf(record).table();
        table.ensureCapacity(1);
        assertThrows(IllegalStateException.class, () -> spawns.spawn(record));
        assertEquals(0, table.count(), "the appended row went again");
        assertTrue(!fixture.index.isAlive(id));
    }

    @Test
    void aBatchPlanRefusesEntityKeyUnlessAskedAndNamesEveryColumnsWrite() {
        assertThrows(IllegalArgumentException.class, () -> spawns.planBatch(new Input[] {EntityKey.COMPONENT}, false));
        BatchOp.SpawnPlan plan = spawns.planBatch(new Input[] {B, HP.of(4), A}, false);
        assertEquals(3, plan.positions().length, "A, B and the required HP");
        int hp = plan.table().position(HP.id());
        assertEquals(BatchOp.VALUE, plan.modes()[hp], "the explicit value wins over the requirement");
    }
}
