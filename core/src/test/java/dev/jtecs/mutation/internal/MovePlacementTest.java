package dev.jtecs.mutation.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.component.Components;
import dev.jtecs.component.ManagedComponent;
import dev.jtecs.component.ScalarComponent;
import dev.jtecs.component.TagComponent;
import dev.jtecs.entity.Entity;
import dev.jtecs.storage.Archetype;
import dev.jtecs.storage.EntityObserver;
import dev.jtecs.storage.internal.Table;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Publishing the staged changes of committed entities: planned once, moved once, or written in place. */
class MovePlacementTest {
    static final ScalarComponent.OfInt HP = Components.scalar("test.moveplace.Hp", 3);
    static final TagComponent A = Components.tag("test.moveplace.A");

    static final class Cursed {
        Cursed() {
            throw new IllegalStateException("constructor failed");
        }
    }

    static final ManagedComponent<Cursed> CURSED = Components.registerManaged(Cursed.class,
            o -> o.name("test.moveplace.Cursed").defaults(Cursed::new));

    private final DrainFixture fixture = new DrainFixture();
    private final RequirementPlan requirements = new RequirementPlan(fixture.registry.pairs());
    private final MovePlacement moves = new MovePlacement(fixture.drain, fixture.index, fixture.registry, fixture.tx,
            requirements, new Destinations(fixture.registry, fixture.tx, requirements), new RequiredEdges());

    @AfterEach
    void tearDown() {
        fixture.close();
    }

    /** A published entity with {@code HP = 1}. */
    private long published() {
        long id = fixture.stageSpawn(HP.of(1));
        fixture.drain.drain();
        return id;
    }

    private int stageChange(long id, dev.jtecs.component.Component<?> component, dev.jtecs.component.Input input) {
        int record = fixture.tx.begin(id, Entity.slot(id), TxState.STAGED_MUTATE);
        fixture.tx.put(record, component, input);
        fixture.tx.seal();
        return record;
    }

    @Test
    void anUnchangedSignatureIsWrittenInPlace() {
        long id = published();
        Table before = fixture.tableOf(id);
        int record = stageChange(id, HP, HP.of(7));
        moves.startSegment(record, record + 1);
        assertSame(before, moves.plan(record, before));
        moves.move(record);
        assertSame(before, fixture.tableOf(id));
        assertEquals(7, before.readValue(before.position(HP.id()), fixture.index.rowOf(Entity.slot(id))));
        assertTrue(before.dirty().isDirty(before.position(HP.id())), "the write is marked");
    }

    @Test
    void aChangedSignatureMovesTheRowWithItsValues() {
        long id = published();
        Table before = fixture.tableOf(id);
        int record = stageChange(id, A, A);
        moves.startSegment(record, record + 1);
        Table after = moves.plan(record, before);
        after.ensureCapacity(1);
        moves.move(record);
        assertSame(after, fixture.tableOf(id));
        assertEquals(0, before.count());
        assertEquals(1, after.readValue(after.position(HP.id()), fixture.index.rowOf(Entity.slot(id))), "kept");
    }

    @Test
    void aWriteThatThrowsLeavesTheEntityWhereItWasAndItsObserversHearItBack() {
        long id = published();
        Table before = fixture.tableOf(id);
        List<String> heard = new ArrayList<>();
        before.addObserver(new EntityObserver() {
            @Override
            public void onEntitiesAdded(Archetype archetype, int fromRow, int toRow, Archetype other) {
                heard.add("added back");
            }

            @Override
            public void onEntitiesRemoved(Archetype archetype, int fromRow, int toRow, Archetype other) {
                heard.add("removed");
            }
        });
        int record = stageChange(id, CURSED, CURSED);
        moves.startSegment(record, record + 1);
        Table after = moves.plan(record, before);
        after.ensureCapacity(1);
        assertThrows(IllegalStateException.class, () -> moves.move(record));
        assertSame(before, fixture.tableOf(id));
        assertEquals(1, before.count());
        assertEquals(0, after.count(), "the copied row went again");
        assertEquals(List.of("removed", "added back"), heard);
    }

    /** Publishes {@code n} entities with {@code HP = i}, each then staged to gain {@code A} (and a new HP value). */
    private long[] stageAllGainingA(int n, boolean withValues) {
        long[] ids = new long[n];
        for (int i = 0; i < n; i++) {
            ids[i] = fixture.stageSpawn(HP.of(i));
        }
        fixture.drain.drain();
        for (int i = 0; i < n; i++) {
            int record = fixture.tx.begin(ids[i], Entity.slot(ids[i]), TxState.STAGED_MUTATE);
            fixture.tx.put(record, A, A);
            if (withValues) {
                fixture.tx.put(record, HP, HP.of(100 + i));
            }
        }
        return ids;
    }

    private int hp(long id) {
        Table table = fixture.tableOf(id);
        return (Integer) table.readValue(table.position(HP.id()), fixture.index.rowOf(Entity.slot(id)));
    }

    @Test
    void aRunTakingEveryRowOfATableMovesItWholeAndWritesEachRecordsValues() {
        long[] ids = stageAllGainingA(200, true);
        Table source = fixture.tableOf(ids[0]);
        int sourceStore = source.store();
        fixture.drain.drain();
        Table target = fixture.tableOf(ids[0]);
        assertTrue(target.has(A.id()));
        assertEquals(0, source.count());
        assertEquals(200, target.count());
        assertEquals(sourceStore, target.store(), "an empty destination took the source's buffers");
        for (int i = 0; i < ids.length; i++) {
            assertSame(target, fixture.tableOf(ids[i]));
            assertEquals(100 + i, hp(ids[i]), "each record's own value");
        }
        assertTrue(target.dirty().isDirty(target.position(HP.id())));
        assertTrue(target.dirty().isStructurallyDirty());
    }

    @Test
    void aRunIntoAPopulatedTableCopiesEachColumnOnceAndRelocatesEveryEntity() {
        long settled = fixture.stageSpawn(HP.of(-1), A);
        fixture.drain.drain();
        long[] ids = stageAllGainingA(100, false);
        fixture.drain.drain();
        Table target = fixture.tableOf(settled);
        assertEquals(101, target.count());
        for (int i = 0; i < ids.length; i++) {
            assertSame(target, fixture.tableOf(ids[i]));
            assertEquals(i, hp(ids[i]), "the moved value");
            assertEquals(ids[i], target.entityAt(fixture.index.rowOf(Entity.slot(ids[i]))), "the index agrees");
        }
        assertEquals(-1, hp(settled));
    }

    @Test
    void anObservedTableMovesRecordByRecordToTheSameEnd() {
        long[] observed = stageAllGainingA(10, false);
        Table source = fixture.tableOf(observed[0]);
        List<String> heard = new ArrayList<>();
        source.addObserver(new EntityObserver() {
            @Override
            public void onEntitiesRemoved(Archetype archetype, int fromRow, int toRow, Archetype other) {
                heard.add((toRow - fromRow) + " row");
            }
        });
        fixture.drain.drain();
        assertEquals(10, heard.size(), "one notification per row: the run path is not taken under observation");
        for (long id : observed) {
            assertTrue(fixture.tableOf(id).has(A.id()));
        }
    }

    @Test
    void aThrowingMoveObserverHidesTheMoveFromTheDestinationsMembership() {
        // issue 18, defect 11
        long id = published();
        long other = published();
        Table before = fixture.tableOf(id);
        before.addObserver(new EntityObserver() {
            @Override
            public void onEntityMove(Archetype archetype, long entity, int fromRow, int toRow) {
                throw new IllegalStateException("move observer failed");
            }
        });
        int record = stageChange(id, A, A);
        moves.startSegment(record, record + 1);
        Table after = moves.plan(record, before);
        after.ensureCapacity(1);
        List<String> heard = new ArrayList<>();
        after.addObserver(new EntityObserver() { // a query's membership callbacks are such an observer
            @Override
            public void onActivated(Archetype archetype) {
                heard.add("activated");
            }

            @Override
            public void onEntitiesAdded(Archetype archetype, int fromRow, int toRow, Archetype source) {
                heard.add("added " + archetype.entity(fromRow) + " from " + (source == before.archetype()));
            }
        });
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> moves.move(record));
        assertEquals("move observer failed", e.getMessage());
        assertSame(after, fixture.tableOf(id), "the row moved");
        assertEquals(List.of("activated", "added " + id + " from true"), heard,
                "the destination heard of the row although the source's observer threw");
        assertEquals(other, before.entityAt(0));
        assertEquals(0, fixture.index.rowOf(Entity.slot(other)));
        assertEquals(1, hp(id));
    }
}
