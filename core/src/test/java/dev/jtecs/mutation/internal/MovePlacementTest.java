package dev.jtecs.mutation.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.component.Components;
import dev.jtecs.component.ManagedComponent;
import dev.jtecs.component.ScalarComponent;
import dev.jtecs.component.TagComponent;
import dev.jtecs.entity.Entity;
import dev.jtecs.entity.internal.AllocationFaults;
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
    static final TagComponent C = Components.tag("test.moveplace.C");
    static final ScalarComponent.OfInt SPEED = Components.scalar("test.moveplace.Speed", 0);
    static final dev.jtecs.component.Relationship PAIRED =
            dev.jtecs.component.Relationships.register("test.moveplace.Paired");

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

    // ---------------------------------------------------------------- tag moves

    static final TagComponent B = Components.tag("test.moveplace.B");

    /** Publishes {@code n} entities with {@code HP = i} (one table); stages tag moves adding A to the first k. */
    private long[] stageTagMovesAddingA(int n, int k) {
        long[] ids = new long[n];
        for (int i = 0; i < n; i++) {
            ids[i] = fixture.stageSpawn(HP.of(i));
        }
        fixture.drain.drain();
        for (int i = 0; i < k; i++) {
            fixture.tx.stageTagMove(ids[i], Entity.slot(ids[i]), A, true);
        }
        return ids;
    }

    // ---------------------------------------------------------------- the lone move

    /** Stages one compact move of {@code id} and seals it: the wave {@link MovePlacement#moveLone} is for. */
    private void sealLoneMove(long id, dev.jtecs.component.Component<?> component, boolean adds) {
        fixture.tx.stageTagMove(id, Entity.slot(id), component, adds);
        fixture.tx.seal();
    }

    @Test
    void aLoneTagMoveBetweenUnobservedTablesMovesItsRowAtOnceAndBack() {
        long[] ids = stageTagMovesAddingA(3, 0);
        Table source = fixture.tableOf(ids[0]);
        sealLoneMove(ids[0], A, true);
        assertTrue(moves.moveLone());
        Table target = fixture.tableOf(ids[0]);
        assertTrue(target.has(A.id()));
        assertEquals(2, source.count());
        assertEquals(1, target.count());
        assertEquals(0, hp(ids[0]), "the value moved with its row");
        for (long id : ids) {
            assertIndexed(id); // the last row filled the hole
        }
        assertEquals(1, target.dirty().writeCount(target.position(A.id())), "an added tag is marked");
        assertEquals(0, fixture.tx.tagMoveId(0), "done");
        fixture.tx.recycle();
        assertTrue(fixture.tx.isEmpty());

        sealLoneMove(ids[0], A, false);
        assertTrue(moves.moveLone());
        assertSame(source, fixture.tableOf(ids[0]));
        assertEquals(0, target.count());
        assertEquals(3, source.count());
        assertEquals(0, hp(ids[0]));
        for (long id : ids) {
            assertIndexed(id);
        }
        assertEquals(0, source.dirty().writeCount(source.position(HP.id())), "a removal marks no column");
        fixture.tx.recycle();
    }

    @Test
    void aLoneValueMoveWritesItsValueAndMarksItsColumn() {
        long id = published();
        Table source = fixture.tableOf(id);
        fixture.tx.stageValueMove(id, Entity.slot(id), SPEED.of(9));
        fixture.tx.seal();
        assertTrue(moves.moveLone());
        Table target = fixture.tableOf(id);
        assertEquals(fixture.registry.withAdded(source, SPEED), target);
        assertEquals(9, target.readValue(target.position(SPEED.id()), fixture.index.rowOf(Entity.slot(id))));
        assertEquals(1, hp(id));
        assertEquals(1, target.dirty().writeCount(target.position(SPEED.id())));
        assertEquals(0, source.count());
        fixture.tx.recycle();
    }

    @Test
    void aLoneValueMoveWhoseValueThrowsLeavesTheRowWhereItWas() {
        long[] ids = stageTagMovesAddingA(2, 0);
        Table source = fixture.tableOf(ids[0]);
        fixture.tx.stageValueMove(ids[0], Entity.slot(ids[0]), CURSED);
        fixture.tx.seal();
        assertThrows(IllegalStateException.class, moves::moveLone);
        Table target = fixture.registry.withAdded(source, CURSED);
        assertEquals(0, target.count(), "the copied row went again");
        assertEquals(2, source.count());
        for (long id : ids) {
            assertSame(source, fixture.tableOf(id));
            assertIndexed(id);
        }
        assertEquals(0, hp(ids[0]));
        assertEquals(1, hp(ids[1]));
        fixture.tx.recycle();
    }

    @Test
    void aLoneMoveWhoseDestinationCannotGrowChangesNothing() {
        long[] ids = stageTagMovesAddingA(2, 0);
        Table source = fixture.tableOf(ids[1]);
        Table target = fixture.registry.withAdded(source, A);
        assertEquals(0, target.capacityRows(), "nothing allocated yet: the move must grow it");
        sealLoneMove(ids[1], A, true);
        AllocationFaults.failAt(AllocationFaults.Kind.NATIVE, 1);
        try {
            assertThrows(OutOfMemoryError.class, moves::moveLone);
        } finally {
            AllocationFaults.disarm();
        }
        assertEquals(2, source.count());
        assertEquals(0, target.count());
        assertSame(source, fixture.tableOf(ids[1]));
        assertIndexed(ids[1]);
        assertEquals(ids[1], fixture.tx.tagMoveId(0), "not done: the wave's failure discards it");
        fixture.tx.recycle();
    }

    @Test
    void aLoneMoveLeavesObservedTablesAndPairsToTheGeneralWave() {
        long observedSource = published();
        fixture.tableOf(observedSource).addObserver(new EntityObserver() { });
        long observedTarget = fixture.stageSpawn(HP.of(2), B);
        long paired = fixture.stageSpawn(HP.of(3), fixture.registry.pairs().pair(PAIRED, observedSource));
        long plain = fixture.stageSpawn(HP.of(4), C);
        fixture.drain.drain();
        fixture.registry.withAdded(fixture.tableOf(observedTarget), A).addObserver(new EntityObserver() { });
        for (long id : new long[] {observedSource, observedTarget, paired}) {
            Table before = fixture.tableOf(id);
            sealLoneMove(id, A, true);
            assertFalse(moves.moveLone(), "observers or pairs need the general wave");
            assertSame(before, fixture.tableOf(id), "nothing moved");
            assertEquals(id, fixture.tx.tagMoveId(0), "still to publish");
            fixture.tx.recycle();
        }
        sealLoneMove(plain, A, true);
        assertTrue(moves.moveLone(), "neither table holds pairs or observers");
        assertTrue(fixture.tableOf(plain).has(A.id()));
        fixture.tx.recycle();
    }

    @Test
    void aLoneMoveOfADeadEntityIsLeftToTheGeneralWaveAndOneThatChangesNothingIsDone() {
        long[] ids = stageTagMovesAddingA(2, 0);
        Table source = fixture.tableOf(ids[0]);
        sealLoneMove(ids[0], A, false); // it has no A: removing it changes nothing
        assertTrue(moves.moveLone());
        assertEquals(0, fixture.tx.tagMoveId(0));
        assertSame(source, fixture.tableOf(ids[0]));
        assertEquals(2, source.count());
        fixture.tx.recycle();

        fixture.tx.begin(ids[1], Entity.slot(ids[1]), TxState.STAGED_DESPAWN);
        fixture.drain.drain();
        assertFalse(fixture.index.isAlive(ids[1]));
        sealLoneMove(ids[1], A, true);
        assertFalse(moves.moveLone());
        assertEquals(ids[1], fixture.tx.tagMoveId(0), "left to the general wave, which lapses it");
        assertEquals(1, source.count());
        fixture.tx.recycle();
    }

    /** Where the index puts an entity agrees with the row that holds it. */
    private void assertIndexed(long id) {
        Table table = fixture.tableOf(id);
        assertEquals(id, table.entityAt(fixture.index.rowOf(Entity.slot(id))), "the index agrees for " + id);
    }

    /** Plans the sealed tag moves with {@link #moves} (reserving their destinations) as the drain would. */
    private void planSealedTagMoves() {
        fixture.tx.seal();
        moves.startSegment(0, fixture.tx.sealedEnd());
        int n = fixture.tx.sealedTagMoves();
        moves.startTags(n);
        for (int move = 0; move < n; move++) {
            Table target = moves.planTag(move);
            if (target != null) {
                target.ensureCapacity(target.count() + n);
            }
        }
    }

    @Test
    void tagMovesTakingEveryRowOfATableMoveItWholeWithTheTagColumnDirty() {
        long[] ids = stageTagMovesAddingA(200, 200);
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
            assertEquals(i, hp(ids[i]), "the value moved with its row");
            assertIndexed(ids[i]);
        }
        assertEquals(1, target.dirty().writeCount(target.position(A.id())), "an added tag is marked, once for the run");
        assertTrue(target.dirty().isStructurallyDirty());
        assertTrue(fixture.tx.isEmpty());
        assertEquals(0, fixture.tx.sealedTagMoves(), "recycled");
    }

    @Test
    void tagMovesTakingEveryRowIntoAPopulatedTableCopyItOnceAndRelocateEveryEntity() {
        long settled = fixture.stageSpawn(HP.of(-1), A);
        fixture.drain.drain();
        long[] ids = stageTagMovesAddingA(100, 100);
        fixture.drain.drain();
        Table target = fixture.tableOf(settled);
        assertEquals(101, target.count());
        for (int i = 0; i < ids.length; i++) {
            assertSame(target, fixture.tableOf(ids[i]));
            assertEquals(i, hp(ids[i]));
            assertIndexed(ids[i]);
        }
        assertEquals(-1, hp(settled));
        // and back: removals take every row of the tagged table to the untagged one, now empty
        Table tagged = target;
        fixture.tx.stageTagMove(settled, Entity.slot(settled), A, false);
        for (long id : ids) {
            fixture.tx.stageTagMove(id, Entity.slot(id), A, false);
        }
        fixture.drain.drain();
        assertEquals(0, tagged.count());
        for (long id : ids) {
            assertTrue(!fixture.tableOf(id).has(A.id()));
            assertIndexed(id);
        }
        assertEquals(-1, hp(settled));
    }

    @Test
    void tagMovesTakingPartOfATableMoveRowByRow() {
        long[] ids = stageTagMovesAddingA(50, 0);
        Table source = fixture.tableOf(ids[0]);
        for (int i = 0; i < ids.length; i += 2) {
            fixture.tx.stageTagMove(ids[i], Entity.slot(ids[i]), A, true);
        }
        int sourceStore = source.store();
        fixture.drain.drain();
        assertEquals(25, source.count());
        assertEquals(sourceStore, source.store(), "no exchange");
        Table target = fixture.tableOf(ids[0]);
        assertEquals(25, target.count());
        for (int i = 0; i < ids.length; i++) {
            assertSame((i & 1) == 0 ? target : source, fixture.tableOf(ids[i]));
            assertEquals(i, hp(ids[i]));
            assertIndexed(ids[i]);
        }
        assertEquals(25, target.dirty().writeCount(target.position(A.id())), "marked per moved row");
    }

    @Test
    void anObservedTableHearsEveryTagMoveAlone() {
        long[] ids = stageTagMovesAddingA(10, 10);
        Table source = fixture.tableOf(ids[0]);
        List<String> heard = new ArrayList<>();
        source.addObserver(new EntityObserver() {
            @Override
            public void onEntitiesRemoved(Archetype archetype, int fromRow, int toRow, Archetype other) {
                heard.add(archetype.entity(fromRow) + " " + (toRow - fromRow));
            }
        });
        fixture.drain.drain();
        List<String> expected = new ArrayList<>();
        for (long id : ids) {
            expected.add(id + " 1");
            assertTrue(fixture.tableOf(id).has(A.id()));
            assertIndexed(id);
        }
        assertEquals(expected, heard, "one notification per row, in staging order");
    }

    @Test
    void tagMovesPublishAmongTheWavesRecordsInStagingOrder() {
        long[] ids = stageTagMovesAddingA(4, 1); // ids[0]: a tag move staged before any record
        int record = fixture.tx.begin(ids[1], Entity.slot(ids[1]), TxState.STAGED_MUTATE);
        fixture.tx.put(record, A, A);
        fixture.tx.stageTagMove(ids[2], Entity.slot(ids[2]), A, true);
        record = fixture.tx.begin(ids[3], Entity.slot(ids[3]), TxState.STAGED_MUTATE);
        fixture.tx.put(record, A, A);
        Table source = fixture.tableOf(ids[0]);
        List<Long> heard = new ArrayList<>();
        source.addObserver(new EntityObserver() {
            @Override
            public void onEntitiesRemoved(Archetype archetype, int fromRow, int toRow, Archetype other) {
                heard.add(archetype.entity(fromRow));
            }
        });
        fixture.drain.drain();
        assertEquals(List.of(ids[0], ids[1], ids[2], ids[3]), heard);
        Table target = fixture.tableOf(ids[0]);
        for (int i = 0; i < 4; i++) {
            assertEquals(ids[i], target.entityAt(i), "rows in staging order");
        }
    }

    @Test
    void aTagMoveWhoseEntityDiedBeforeTheDrainLapses() {
        long[] ids = stageTagMovesAddingA(3, 3);
        Table source = fixture.tableOf(ids[0]);
        int slot = Entity.slot(ids[1]);
        CommitDrain.detachRow(fixture.index, source, fixture.index.rowOf(slot)); // ids[1] dies unstaged
        fixture.index.free(slot);
        fixture.drain.drain();
        assertTrue(fixture.tableOf(ids[0]).has(A.id()));
        assertTrue(fixture.tableOf(ids[2]).has(A.id()));
        assertEquals(0, source.count());
        assertEquals(2, fixture.tableOf(ids[0]).count());
        assertIndexed(ids[0]);
        assertIndexed(ids[2]);
        assertTrue(fixture.tx.isEmpty());
    }

    @Test
    void aTagMoveWhoseEntityDiesAfterItWasPlannedLapsesWithoutTouchingAnyRow() {
        long[] ids = stageTagMovesAddingA(3, 1);
        Table source = fixture.tableOf(ids[0]);
        source.addObserver(new EntityObserver() {}); // no whole-table move
        planSealedTagMoves();
        int slot = Entity.slot(ids[0]);
        CommitDrain.detachRow(fixture.index, source, fixture.index.rowOf(slot));
        fixture.index.free(slot);
        Table target = fixture.registry.withAdded(source, A);
        moves.moveAllWithTags(0, 0);
        assertEquals(0, target.count());
        assertEquals(2, source.count());
        assertIndexed(ids[1]);
        assertIndexed(ids[2]);
        assertEquals(0, fixture.tx.tagMoveId(0), "done");
        fixture.tx.recycle();
    }

    @Test
    void aTagMoveAllocatesWhatTheRemovalNeedsBeforeObserversHearOfIt() {
        long[] ids = stageTagMovesAddingA(3, 1);
        Table source = fixture.tableOf(ids[0]);
        source.dirty().clear(); // a later swap-remove records its overwritten row: that record needs room
        List<String> heard = new ArrayList<>();
        source.addObserver(new EntityObserver() {
            @Override
            public void onEntitiesRemoved(Archetype archetype, int fromRow, int toRow, Archetype other) {
                heard.add("removed");
            }

            @Override
            public void onEntitiesAdded(Archetype archetype, int fromRow, int toRow, Archetype other) {
                heard.add("added back");
            }
        });
        planSealedTagMoves();
        Table target = fixture.registry.withAdded(source, A);
        AllocationFaults.failAt(AllocationFaults.Kind.HEAP, 1);
        try {
            assertThrows(OutOfMemoryError.class, () -> moves.moveAllWithTags(0, 0));
        } finally {
            AllocationFaults.disarm();
        }
        assertEquals(List.of(), heard, "it failed before anyone heard of the move");
        assertEquals(3, source.count());
        assertEquals(0, target.count());
        for (long id : ids) {
            assertSame(source, fixture.tableOf(id));
            assertIndexed(id);
        }
        fixture.tx.recycle(); // the failed wave's moves lapse; staged again, they publish
        fixture.tx.stageTagMove(ids[0], Entity.slot(ids[0]), A, true);
        fixture.drain.drain();
        assertSame(target, fixture.tableOf(ids[0]));
        assertIndexed(ids[0]);
        assertIndexed(ids[1]);
        assertIndexed(ids[2]);
        assertEquals(List.of("removed"), heard);
    }

    @Test
    void aThrowingMoveObserverHidesNoTagMoveFromTheDestination() {
        long[] ids = stageTagMovesAddingA(2, 1);
        Table before = fixture.tableOf(ids[0]);
        before.addObserver(new EntityObserver() {
            @Override
            public void onEntityMove(Archetype archetype, long entity, int fromRow, int toRow) {
                throw new IllegalStateException("move observer failed");
            }
        });
        Table after = fixture.registry.withAdded(before, A);
        List<String> heard = new ArrayList<>();
        after.addObserver(new EntityObserver() {
            @Override
            public void onEntitiesAdded(Archetype archetype, int fromRow, int toRow, Archetype source) {
                heard.add("added " + archetype.entity(fromRow));
            }
        });
        IllegalStateException e = assertThrows(IllegalStateException.class, fixture.drain::drain);
        assertEquals("move observer failed", e.getMessage());
        assertSame(after, fixture.tableOf(ids[0]), "the row moved");
        assertEquals(List.of("added " + ids[0]), heard, "the destination heard of the row all the same");
        assertEquals(1, after.dirty().writeCount(after.position(A.id())), "the added tag is marked");
        assertIndexed(ids[0]);
        assertIndexed(ids[1]);
    }

    @Test
    void aWaveThatFailsAmongItsTagMovesKeepsThosePublishedAndForgetsTheRest() {
        long[] ids = stageTagMovesAddingA(4, 4);
        Table source = fixture.tableOf(ids[0]);
        Table target = fixture.registry.withAdded(source, A);
        target.addObserver(new EntityObserver() {
            @Override
            public void onEntitiesAdded(Archetype archetype, int fromRow, int toRow, Archetype other) {
                if (archetype.entity(fromRow) == ids[1]) {
                    throw new IllegalStateException("added callback failed");
                }
            }
        });
        assertThrows(IllegalStateException.class, fixture.drain::drain);
        assertTrue(fixture.tx.isEmpty(), "nothing of the failed wave stays staged");
        assertFalse(fixture.drain.hasWork());
        assertSame(target, fixture.tableOf(ids[0]));
        assertSame(target, fixture.tableOf(ids[1]), "published before its callback threw");
        assertSame(source, fixture.tableOf(ids[2]), "never published");
        assertSame(source, fixture.tableOf(ids[3]));
        for (long id : ids) {
            assertIndexed(id);
        }
        fixture.tx.stageTagMove(ids[2], Entity.slot(ids[2]), A, true); // the slots take new work
        fixture.drain.drain();
        assertSame(target, fixture.tableOf(ids[2]));
    }

    @Test
    void discardingStagedWorkForgetsTagMoves() {
        long[] ids = stageTagMovesAddingA(2, 2);
        Table source = fixture.tableOf(ids[0]);
        fixture.drain.discardStaged();
        assertFalse(fixture.drain.hasWork());
        fixture.drain.drain();
        assertSame(source, fixture.tableOf(ids[0]));
        assertSame(source, fixture.tableOf(ids[1]));
        fixture.tx.stageTagMove(ids[1], Entity.slot(ids[1]), B, true);
        fixture.drain.drain();
        assertTrue(fixture.tableOf(ids[1]).has(B.id()));
        assertSame(source, fixture.tableOf(ids[0]));
    }

    @Test
    void aWholeTableRunTakesOnlyTheEntitiesItPlanned() {
        long[] ids = stageTagMovesAddingA(2, 0);
        long x = fixture.stageSpawn(HP.of(9), B);
        fixture.drain.drain();
        Table source = fixture.tableOf(ids[0]);
        Table xHome = fixture.tableOf(x);
        int record = fixture.tx.begin(x, Entity.slot(x), TxState.STAGED_MUTATE);
        fixture.tx.put(record, B, null); // x moves into the tag moves' source first
        for (long id : ids) {
            fixture.tx.stageTagMove(id, Entity.slot(id), A, true);
        }
        fixture.tx.seal();
        moves.startSegment(0, 1);
        assertSame(source, moves.plan(0, xHome));
        source.ensureCapacity(source.count() + 1);
        moves.startTags(2);
        Table target = moves.planTag(0);
        assertSame(target, moves.planTag(1));
        target.ensureCapacity(2);
        int slot = Entity.slot(ids[1]);
        CommitDrain.detachRow(fixture.index, source, fixture.index.rowOf(slot)); // a planned entity dies
        fixture.index.free(slot);
        moves.moveAllWithTags(0, 1);
        assertSame(source, fixture.tableOf(x), "as many rows as planned moves, but one is not theirs: it stays");
        assertEquals(9, hp(x));
        assertSame(target, fixture.tableOf(ids[0]));
        assertEquals(1, target.count());
        assertIndexed(x);
        assertIndexed(ids[0]);
        fixture.tx.recycle();
    }

    /**
     * Tag moves planned in runs: entities of three tables, interleaved, each adding or removing one of two tags in
     * a random order; every entity lands in exactly the archetype its own change names (a run reuses its edge only
     * while the table and the change stay the same).
     */
    @Test
    void interleavedTagMovesFromSeveralTablesEachLandWhereTheirChangeSays() {
        long seed = new java.util.SplittableRandom().nextLong();
        System.out.println("MovePlacementTest.interleavedTagMoves seed=" + seed);
        java.util.SplittableRandom random = new java.util.SplittableRandom(seed);
        try (dev.jtecs.world.World world = dev.jtecs.world.World.create()) {
            int n = 600;
            long[] ids = new long[n];
            boolean[][] has = new boolean[n][2];
            for (int i = 0; i < n; i++) {
                has[i][0] = random.nextBoolean();
                has[i][1] = random.nextBoolean();
                java.util.List<dev.jtecs.component.Input> inputs = new java.util.ArrayList<>();
                inputs.add(HP.of(i));
                if (has[i][0]) {
                    inputs.add(A);
                }
                if (has[i][1]) {
                    inputs.add(B);
                }
                ids[i] = world.spawn(inputs.toArray(dev.jtecs.component.Input[]::new));
            }
            for (int round = 0; round < 4; round++) {
                world.defer();
                for (int i = 0; i < n; i++) {
                    if (random.nextInt(5) == 0) {
                        continue; // no change: breaks runs
                    }
                    int which = random.nextBoolean() ? 1 : 0;
                    TagComponent tag = which == 0 ? A : B;
                    if (random.nextBoolean()) {
                        world.set(ids[i], tag); // sometimes a tag it already has: a planned no-op
                        has[i][which] = true;
                    } else {
                        world.remove(ids[i], tag);
                        has[i][which] = false;
                    }
                }
                world.commit();
                for (int i = 0; i < n; i++) {
                    String at = "seed=" + seed + " round=" + round + " entity " + i;
                    assertEquals(has[i][0], world.has(ids[i], A), at);
                    assertEquals(has[i][1], world.has(ids[i], B), at);
                    assertEquals(i, world.get(ids[i], HP), at);
                }
            }
        }
    }
}
