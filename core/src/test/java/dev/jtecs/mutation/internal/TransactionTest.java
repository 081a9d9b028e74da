package dev.jtecs.mutation.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.component.Components;
import dev.jtecs.component.ScalarComponent;
import dev.jtecs.component.TagComponent;
import dev.jtecs.entity.Entity;
import dev.jtecs.entity.internal.AllocationFaults;
import dev.jtecs.storage.internal.NativeMemory;
import dev.jtecs.storage.internal.Table;
import dev.jtecs.testing.FaultAttempt;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TransactionTest {
    static final TagComponent A = Components.tag("test.tx.A");
    static final TagComponent B = Components.tag("test.tx.B");
    static final ScalarComponent.OfInt N = Components.scalar("test.tx.N", 0);

    record Spot(int x, float y) {}

    /** Not plain: an accessor of its own, so its values are kept as the objects. */
    record Odd(int x) {
        @Override
        public int x() {
            return x + 0; // code of its own, however small
        }
    }

    record Dot(long id, double r) {}

    record Cell(int v) {}

    record Mass(float m) {}

    record Tick(long t) {}

    record Hue(double h) {}

    static final dev.jtecs.component.NativeComponent<Spot> SPOT = Components.registerNative(Spot.class);
    static final dev.jtecs.component.NativeComponent<Dot> DOT = Components.registerNative(Dot.class);
    static final dev.jtecs.component.NativeComponent<Odd> ODD = Components.registerNative(Odd.class);
    // the source table a tag move names: these tests stage moves for entities that live in no world, so any table
    // will do; an empty one allocates nothing
    static final Table SOURCE = new Table(0, new dev.jtecs.component.Component<?>[0], new NativeMemory());

    private static List<Object> entries(Transaction tx, int record) {
        List<Object> out = new ArrayList<>();
        for (int e = tx.firstEntry(record); e >= 0; e = tx.nextEntry(e)) {
            out.add(tx.entryComponent(e));
            out.add(tx.entryInput(e));
        }
        return out;
    }

    /**
     * {@code holdsNoWork}: true only while no entity has anything staged, in the open wave or the one being
     * drained: a record, a quiet despawn waiting (or its mark), a mark alone.
     */
    @Test
    void holdsNoWorkOnlyWhileNothingIsStagedForAnyEntity() {
        Transaction tx = new Transaction();
        assertTrue(tx.holdsNoWork());
        tx.begin(Entity.pack(3, 0), 3, TxState.STAGED_MUTATE);
        assertFalse(tx.holdsNoWork(), "an open record");
        tx.seal();
        assertFalse(tx.holdsNoWork(), "a sealed record, until the wave is recycled");
        tx.recycle();
        assertTrue(tx.holdsNoWork());
        tx.stageQuietDespawn(Entity.pack(4, 0), 4);
        assertFalse(tx.holdsNoWork(), "a quiet despawn waiting");
        tx.seal();
        assertFalse(tx.holdsNoWork(), "sealed, its slot still marked");
        tx.undoom(4); // published: the drain drops the mark
        assertTrue(tx.holdsNoWork());
        tx.recycle();
        tx.doom(9);
        assertFalse(tx.holdsNoWork(), "a mark alone");
        tx.undoom(9);
        assertTrue(tx.holdsNoWork());
    }

    @Test
    void oneRecordPerSlotFoundBySlot() {
        Transaction tx = new Transaction();
        assertEquals(-1, tx.find(5));
        int r = tx.begin(5, 5, TxState.STAGED_SPAWN);
        assertEquals(r, tx.find(5));
        assertEquals(5, tx.id(r));
        assertEquals(5, tx.slot(r));
        assertEquals(TxState.STAGED_SPAWN, tx.state(r));
        assertThrows(IllegalStateException.class, () -> tx.begin(5, 5, TxState.STAGED_MUTATE));
        assertEquals(-1, tx.find(100_000));
        int far = tx.begin(100_000, 100_000, TxState.STAGED_DESPAWN);
        assertEquals(far, tx.find(100_000));
        assertEquals(2, tx.openRecords());
    }

    /** A batch despawn of no table: the smallest batch operation there is. */
    private static BatchOp emptyDespawn(Transaction tx) {
        return BatchOp.query(BatchOp.Kind.DESPAWN, new Table[0], new long[0][], new long[0], new int[0], null, null,
                null, tx);
    }

    @Test
    void reservedRoomLetsTheBatchOperationsAndMarksThatFollowAllocateNothing() {
        Transaction tx = new Transaction();
        AllocationFaults.failAt(AllocationFaults.Kind.HEAP, 1);
        try {
            assertThrows(OutOfMemoryError.class, () -> tx.reserveOps(20));
            assertEquals(0, tx.openOps());
            tx.reserveOps(20); // the fault fired once: this one grows
            AllocationFaults.failAt(AllocationFaults.Kind.HEAP, 1); // any growth from here throws
            for (int i = 0; i < 20; i++) {
                tx.addOp(emptyDespawn(tx));
            }
            assertEquals(20, tx.openOps());
            assertTrue(AllocationFaults.armed(AllocationFaults.Kind.HEAP), "the room reserved held them all");
            BatchOp refused = emptyDespawn(tx);
            assertThrows(OutOfMemoryError.class, () -> tx.addOp(refused), "a 21st needs room");
            assertEquals(20, tx.openOps(), "and failed before it was staged");
            assertFalse(tx.isLastOpenOp(refused), "nor is it the last");
            assertTrue(tx.hasOpenBoundary());

            AllocationFaults.disarm();
            tx.reserveDoom(100_000);
            AllocationFaults.failAt(AllocationFaults.Kind.HEAP, 1);
            tx.doom(99_999);
            tx.doom(0);
            assertTrue(tx.isDoomed(99_999));
            assertTrue(tx.isDoomed(0));
            assertTrue(AllocationFaults.armed(AllocationFaults.Kind.HEAP), "the marks fit the room reserved");
        } finally {
            AllocationFaults.disarm();
        }
    }

    @Test
    void lastWriteWinsAndFirstStagingOrderIsKept() {
        Transaction tx = new Transaction();
        int r = tx.begin(1, 1, TxState.STAGED_MUTATE);
        tx.put(r, A, A);
        tx.put(r, N, N.of(1));
        tx.put(r, A, null);
        tx.put(r, N, N.of(2));
        assertEquals(java.util.Arrays.asList(A, null, N, N.of(2)), entries(tx, r));
        assertTrue(tx.findEntry(r, N) >= 0);
        assertEquals(-1, tx.findEntry(r, B));
    }

    @Test
    void dropUnlinksAnyEntry() {
        Transaction tx = new Transaction();
        int r = tx.begin(1, 1, TxState.STAGED_SPAWN);
        tx.put(r, A, A);
        tx.put(r, B, B);
        tx.put(r, N, N);
        tx.drop(r, B);
        assertEquals(List.of(A, A, N, N), entries(tx, r));
        tx.drop(r, N);
        tx.put(r, B, B);
        assertEquals(List.of(A, A, B, B), entries(tx, r));
        tx.drop(r, A);
        tx.drop(r, B);
        assertEquals(List.of(), entries(tx, r));
        tx.drop(r, B);
        tx.put(r, N, N);
        assertEquals(List.of(N, N), entries(tx, r));
    }

    @Test
    void cancelIntoForgetsEntries() {
        Transaction tx = new Transaction();
        int r = tx.begin(1, 1, TxState.STAGED_SPAWN);
        tx.put(r, A, A);
        tx.cancelInto(r, TxState.CANCELLED_SPAWN);
        assertEquals(TxState.CANCELLED_SPAWN, tx.state(r));
        assertEquals(-1, tx.firstEntry(r));
    }

    @Test
    void sealHandsTheWaveOverAndLaterStagingOpensTheNextWave() {
        Transaction tx = new Transaction();
        int r = tx.begin(1, 1, TxState.STAGED_SPAWN);
        tx.put(r, A, A);
        tx.seal();
        assertTrue(tx.isEmpty());
        assertEquals(-1, tx.find(1), "sealed records are no longer found by slot");
        assertEquals(0, tx.sealedStart());
        assertEquals(1, tx.sealedEnd());
        assertSame(A, tx.entryComponent(tx.firstEntry(r)));
        int next = tx.begin(1, 1, TxState.STAGED_MUTATE); // the same slot again, in the next wave
        tx.put(next, N, N.of(3));
        assertThrows(IllegalStateException.class, tx::seal);
        tx.recycle();
        assertEquals(1, tx.openRecords());
        int moved = tx.find(1);
        assertEquals(0, moved);
        assertEquals(TxState.STAGED_MUTATE, tx.state(moved));
        assertEquals(List.of(N, N.of(3)), entries(tx, moved));
        tx.seal();
        tx.recycle();
        assertTrue(tx.isEmpty());
        assertEquals(-1, tx.find(1));
    }

    @Test
    void growsPastInitialCapacities() {
        Transaction tx = new Transaction();
        for (int slot = 1; slot <= 5000; slot++) {
            int r = tx.begin(slot, slot, TxState.STAGED_SPAWN);
            tx.put(r, A, A);
            tx.put(r, N, N.of(slot));
        }
        assertEquals(5000, tx.openRecords());
        int r = tx.find(4321);
        assertEquals(N.of(4321), tx.entryInput(tx.findEntry(r, N)));
        tx.seal();
        tx.recycle();
        assertNull(tx.state(0));
    }

    private static BatchOp boundary() {
        return BatchOp.query(BatchOp.Kind.REMOVE, new dev.jtecs.storage.internal.Table[0], new long[0][],
                new long[0], new int[0], A, null, null, new Transaction());
    }

    @Test
    void aBoundaryOperationClosesEarlierRecordsAndLaterCallsOpenNewOnes() {
        Transaction tx = new Transaction();
        int early = tx.begin(1, 1, TxState.STAGED_MUTATE);
        assertFalse(tx.hasOpenBoundary());
        BatchOp op = boundary();
        tx.addOp(op);
        assertTrue(op.isBoundary());
        assertTrue(tx.hasOpenBoundary());
        assertTrue(tx.isClosed(early));
        assertEquals(early, tx.find(1), "still found, but closed");
        int late = tx.begin(1, 1, TxState.STAGED_MUTATE);
        assertFalse(tx.isClosed(late));
        assertEquals(late, tx.find(1));
        assertThrows(IllegalStateException.class, () -> tx.begin(1, 1, TxState.STAGED_MUTATE));
        assertFalse(tx.isEmpty());
    }

    @Test
    void sealHandsOperationsToTheDrainAndRecycleKeepsTheNextWaves() {
        Transaction tx = new Transaction();
        tx.begin(1, 1, TxState.STAGED_MUTATE);
        BatchOp first = boundary();
        assertFalse(tx.isLastOpenOp(first), "not staged");
        tx.addOp(first);
        assertTrue(tx.isLastOpenOp(first));
        tx.seal();
        assertFalse(tx.isLastOpenOp(first), "sealed: no spawn joins it any more");
        assertEquals(1, tx.sealedOps());
        assertFalse(tx.hasOpenBoundary());
        assertTrue(tx.isEmpty(), "nothing open once sealed");
        tx.begin(2, 2, TxState.STAGED_MUTATE);
        BatchOp next = boundary();
        tx.addOp(next);
        assertTrue(tx.isLastOpenOp(next));
        assertFalse(tx.isLastOpenOp(first));
        assertTrue(tx.isClosed(tx.find(2)));
        tx.recycle();
        assertTrue(tx.isLastOpenOp(next), "the next wave's operation stays the last, moved to the front");
        assertEquals(0, tx.sealedOps());
        assertSame(next, tx.op(0));
        assertEquals(0, tx.find(2), "the next wave moved to the front");
        assertTrue(tx.isClosed(0), "and stays closed behind its boundary");
        BatchOp third = boundary();
        tx.addOp(third);
        assertFalse(tx.isLastOpenOp(next), "another came after it");
        assertTrue(tx.isLastOpenOp(third));
        tx.seal();
        assertEquals(2, tx.sealedOps());
        tx.recycle();
        assertTrue(tx.isEmpty());
        assertFalse(tx.isLastOpenOp(third), "recycled with its wave");
        assertFalse(tx.isLastOpenOp(null), "none is last when there is none");
    }

    @Test
    void theBatchIdPoolHandsOutRangesKeepsThemThroughGrowthAndRestartsOnceNoOperationIsLeft() {
        Transaction tx = new Transaction();
        int a = tx.reserveBatchIds(3);
        long[] first = tx.batchIds();
        first[a] = 11;
        first[a + 2] = 13;
        int b = tx.reserveBatchIds(1000); // grows: a new array
        assertEquals(a + 3, b);
        assertTrue(tx.batchIds() != first);
        assertEquals(13, first[a + 2], "the old array still holds the first range");
        assertEquals(13, tx.batchIds()[a + 2], "and so does the new one");
        tx.addOp(boundary());
        tx.seal();
        assertEquals(b + 1000, tx.reserveBatchIds(1), "a range staged while the wave drains comes after");
        tx.addOp(boundary());
        tx.recycle();
        assertEquals(b + 1001, tx.reserveBatchIds(1), "an operation is left: ranges are not reused yet");
        tx.seal();
        tx.recycle();
        assertEquals(0, tx.reserveBatchIds(5), "no operation left: the pool starts over");
    }

    @Test
    void doomMarksAreKeptPerSlotAndBatchCancelsPerWave() {
        Transaction tx = new Transaction();
        assertFalse(tx.isDoomed(5));
        tx.doom(5);
        tx.doom(70_000);
        assertTrue(tx.isDoomed(5));
        assertTrue(tx.isDoomed(70_000));
        assertFalse(tx.isDoomed(6));
        tx.undoom(5);
        assertFalse(tx.isDoomed(5));
        tx.undoom(1 << 30);
        tx.noteBatchCancel();
        tx.seal();
        assertTrue(tx.sealedBatchCancels());
        tx.recycle();
        tx.seal();
        assertFalse(tx.sealedBatchCancels());
        tx.recycle();
    }

    // ---------------------------------------------------------------- tag moves

    @Test
    void aTagMoveIsNoRecordUntilALaterCallForItsSlotTurnsItIntoOne() {
        Transaction tx = new Transaction();
        tx.stageTagMove(7, 7, A, true, SOURCE);
        tx.stageTagMove(8, 8, B, false, SOURCE);
        assertFalse(tx.isEmpty());
        assertEquals(0, tx.openRecords(), "no record yet");
        assertEquals(-1, tx.peek(7), "peeking leaves it a tag move");
        assertTrue(tx.hasOpenTagMoves());
        int r = tx.find(7);
        assertTrue(r >= 0);
        assertEquals(1, tx.openRecords());
        assertEquals(7, tx.id(r));
        assertEquals(TxState.STAGED_MUTATE, tx.state(r));
        assertEquals(List.of(A, A), entries(tx, r), "the staged addition, as its entry");
        assertEquals(r, tx.find(7), "found as the record from now on");
        assertEquals(r, tx.peek(7));
        int removal = tx.find(8);
        assertEquals(java.util.Arrays.asList(B, null), entries(tx, removal), "a removal stays a removal");
        assertFalse(tx.hasOpenTagMoves());
        tx.seal();
        assertEquals(2, tx.sealedTagMoves());
        assertEquals(0, tx.tagMoveId(0), "lapsed: the records carry them");
        assertEquals(0, tx.tagMoveId(1));
        tx.recycle();
        assertTrue(tx.isEmpty());
    }

    // ---------------------------------------------------------------- one run of tag moves

    /** A table of its own for a run's tests: its structural count is its own. */
    private static Table table(int id) {
        return new Table(id, new dev.jtecs.component.Component<?>[0], new NativeMemory());
    }

    @Test
    void tagMovesOfOneChangeFromOneTableSealAsOneRunStampedWithItsStructuralCountAtTheFirst() {
        Transaction tx = new Transaction();
        Table t = table(3);
        t.markStructural();
        t.markStructural();
        for (int slot = 1; slot <= 3; slot++) {
            tx.stageTagMove(slot, slot, A, true, t);
            t.markStructural(); // later changes are the drain's to see, not the stamp's
        }
        assertNull(tx.sealedRunTable(), "nothing sealed yet");
        tx.seal();
        assertSame(t, tx.sealedRunTable());
        assertEquals(2, tx.sealedRunStamp(), "the count when the first move was staged");
        tx.recycle();
        assertNull(tx.sealedRunTable(), "the drained wave's run is gone");
        tx.seal();
        assertNull(tx.sealedRunTable(), "an empty wave has no run");
        tx.recycle();
    }

    @Test
    void anotherTableAnotherTagAnotherDirectionAnotherMarkOrALapseEndsTheRun() {
        Table t = table(4);
        List<java.util.function.Consumer<Transaction>> breakers = List.of(
                tx -> tx.stageTagMove(9, 9, A, true, table(5)),
                tx -> tx.stageTagMove(9, 9, B, true, t),
                tx -> tx.stageTagMove(9, 9, A, false, t),
                tx -> {
                    tx.begin(20, 20, TxState.STAGED_MUTATE); // a record: the next move has another mark
                    tx.stageTagMove(9, 9, A, true, t);
                },
                tx -> tx.find(1)); // the first move turns into a record
        for (int k = 0; k < breakers.size(); k++) {
            Transaction tx = new Transaction();
            tx.stageTagMove(1, 1, A, true, t);
            tx.stageTagMove(2, 2, A, true, t);
            breakers.get(k).accept(tx);
            tx.stageTagMove(3, 3, A, true, t); // back to the run's own change: too late
            tx.seal();
            assertNull(tx.sealedRunTable(), "breaker " + k);
            tx.recycle();
        }
    }

    @Test
    void aRunStagedWhileAWaveDrainsKeepsItsMarkWhenItMovesToTheFront() {
        Transaction tx = new Transaction();
        Table t = table(6);
        tx.begin(20, 20, TxState.STAGED_MUTATE);
        tx.seal(); // a wave of one record: the next wave's moves are staged after it (mark 1)
        tx.stageTagMove(1, 1, A, true, t);
        tx.stageTagMove(2, 2, A, true, t);
        tx.recycle(); // the record drained: the moves move to the front, their mark to 0
        assertEquals(0, tx.tagMoveMark(0));
        tx.stageTagMove(3, 3, A, true, t); // staged now, with mark 0 too
        tx.seal();
        assertSame(t, tx.sealedRunTable(), "one run across the recycle");
        assertEquals(3, tx.sealedTagMoves());
        tx.recycle();
    }

    @Test
    void aSlotWithATagMoveTakesNoSecondStagingWithoutTurningItIntoARecord() {
        Transaction tx = new Transaction();
        tx.stageTagMove(3, 3, A, true, SOURCE);
        assertThrows(IllegalStateException.class, () -> tx.begin(3, 3, TxState.STAGED_DESPAWN));
        assertThrows(IllegalStateException.class, () -> tx.stageTagMove(3, 3, B, true, SOURCE));
        assertEquals(0, tx.openRecords());
        int r = tx.find(3);
        assertEquals(List.of(A, A), entries(tx, r), "still the first move");
    }

    @Test
    void aBatchBoundaryTurnsEveryOpenTagMoveIntoARecordThatPublishesBeforeIt() {
        Transaction tx = new Transaction();
        tx.stageTagMove(1, 1, A, true, SOURCE);
        int spawn = tx.begin(2, 2, TxState.STAGED_SPAWN);
        tx.stageTagMove(3, 3, B, false, SOURCE);
        assertEquals(1, tx.openRecords());
        assertTrue(tx.hasOpenTagMoves());
        BatchOp op = boundary();
        tx.addOp(op);
        assertFalse(tx.hasOpenTagMoves());
        assertEquals(3, tx.openRecords());
        assertEquals(3, op.recordMark, "both precede the boundary");
        int first = tx.peek(1);
        int third = tx.peek(3);
        assertTrue(tx.isClosed(first) && tx.isClosed(third) && tx.isClosed(spawn));
        assertEquals(List.of(A, A), entries(tx, first));
        assertEquals(java.util.Arrays.asList(B, null), entries(tx, third));
        tx.seal();
        for (int move = 0; move < tx.sealedTagMoves(); move++) {
            assertEquals(0, tx.tagMoveId(move), "no tag move is left to publish");
        }
        tx.recycle();
    }

    @Test
    void sealedTagMovesAreNotFoundAndThoseStagedMeanwhileMoveToTheFrontWithTheirPlaceAmongRecords() {
        Transaction tx = new Transaction();
        tx.begin(1, 1, TxState.STAGED_MUTATE);
        tx.stageTagMove(2, 2, A, true, SOURCE);
        assertEquals(1, tx.tagMoveMark(0), "staged after one record");
        tx.seal();
        assertTrue(tx.isEmpty());
        assertEquals(1, tx.sealedTagMoves());
        assertEquals(2, tx.tagMoveId(0));
        assertEquals(A.id(), tx.tagMoveComponent(0));
        assertTrue(tx.tagMoveAdds(0));
        assertEquals(-1, tx.find(2), "sealed: no longer found by slot");
        tx.stageTagMove(2, 2, A, false, SOURCE); // the same slot again, in the next wave
        tx.begin(4, 4, TxState.STAGED_MUTATE);
        tx.stageTagMove(5, 5, B, true, SOURCE);
        assertEquals(1, tx.tagMoveMark(1), "after the sealed record, before the next one");
        assertEquals(2, tx.tagMoveMark(2));
        assertThrows(IllegalStateException.class, tx::seal);
        tx.tagMoveDone(0);
        tx.recycle();
        assertFalse(tx.isEmpty());
        assertEquals(1, tx.openRecords());
        assertEquals(-1, tx.peek(2), "still a tag move");
        tx.seal();
        assertEquals(2, tx.sealedTagMoves());
        assertEquals(2, tx.tagMoveId(0));
        assertFalse(tx.tagMoveAdds(0));
        assertEquals(0, tx.tagMoveMark(0), "before the record that moved to the front");
        assertEquals(5, tx.tagMoveId(1));
        assertEquals(1, tx.tagMoveMark(1));
        tx.recycle();
        assertTrue(tx.isEmpty());
        assertEquals(-1, tx.find(2));
        assertEquals(-1, tx.find(5));
    }

    @Test
    void tagMovesGrowPastTheirInitialCapacity() {
        Transaction tx = new Transaction();
        for (int slot = 1; slot <= 3000; slot++) {
            tx.stageTagMove(slot, slot, (slot & 1) == 0 ? A : B, (slot % 3) != 0, SOURCE);
        }
        tx.seal();
        assertEquals(3000, tx.sealedTagMoves());
        for (int move = 0; move < 3000; move++) {
            int slot = move + 1;
            assertEquals(slot, tx.tagMoveId(move));
            assertEquals(((slot & 1) == 0 ? A : B).id(), tx.tagMoveComponent(move));
            assertEquals((slot % 3) != 0, tx.tagMoveAdds(move));
        }
        tx.recycle();
        assertTrue(tx.isEmpty());
    }

    @Test
    void aTagMoveGrowthThatFailsLeavesEveryTagArrayAsItWas() {
        Transaction tx = new Transaction();
        for (int slot = 1; slot <= 64; slot++) {
            tx.stageTagMove(slot, slot, A, true, SOURCE);
        }
        int failed = 0;
        for (int k = 1; ; k++) { // the id, tag, mark, input and value arrays grow in turn, each failed once
            FaultAttempt.Outcome outcome = FaultAttempt.run(AllocationFaults.Kind.HEAP, k,
                    () -> tx.stageTagMove(65, 65, B, false, SOURCE));
            if (outcome == FaultAttempt.Outcome.FAILED) {
                failed++;
                assertEquals(-1, tx.peek(65), "growth " + k + ": nothing staged for the slot");
                continue;
            }
            assertEquals(FaultAttempt.Outcome.UNSPENT, outcome, "growth " + k + ": no growth here lets a failure go");
            break;
        }
        assertEquals(5, failed, "the five tag-move arrays");
        for (int slot = 66; slot <= 200; slot++) {
            tx.stageTagMove(slot, slot, B, false, SOURCE);
        }
        tx.seal();
        assertEquals(200, tx.sealedTagMoves());
        for (int move = 0; move < 200; move++) {
            assertEquals(move + 1, tx.tagMoveId(move));
            assertEquals(move < 64, tx.tagMoveAdds(move));
        }
        tx.recycle();
    }

    @Test
    void aPromotionWhoseAllocationFailsLeavesTheTagMoveStaged() {
        Transaction tx = new Transaction();
        for (int slot = 100; slot < 164; slot++) {
            tx.begin(slot, slot, TxState.STAGED_MUTATE); // the record arrays are full
        }
        tx.stageTagMove(5, 5, A, true, SOURCE);
        AllocationFaults.failAt(AllocationFaults.Kind.HEAP, 1);
        try {
            assertThrows(OutOfMemoryError.class, () -> tx.find(5));
        } finally {
            AllocationFaults.disarm();
        }
        assertEquals(64, tx.openRecords());
        assertEquals(-1, tx.peek(5));
        assertTrue(tx.hasOpenTagMoves(), "the move is still staged");
        int r = tx.find(5);
        assertEquals(List.of(A, A), entries(tx, r));
    }

    @Test
    void discardingTheTransactionForgetsItsTagMoves() {
        Transaction tx = new Transaction();
        tx.stageTagMove(1, 1, A, true, SOURCE);
        tx.stageTagMove(2, 2, A, false, SOURCE);
        tx.find(2);
        tx.seal(); // what CommitDrain.discardStaged does: seal, release records, recycle
        tx.recycle();
        assertTrue(tx.isEmpty());
        assertEquals(-1, tx.find(1));
        assertEquals(-1, tx.find(2));
        tx.stageTagMove(1, 1, B, true, SOURCE); // the slots take new work
        tx.begin(2, 2, TxState.STAGED_MUTATE);
    }

    @Test
    void anyDoomedCountsEachMarkedSlotOnceAcrossWordBoundaries() {
        Transaction tx = new Transaction();
        assertFalse(tx.anyDoomed());
        for (int slot : new int[] {63, 64, 127, 128}) { // the last and first bit of neighbouring words
            tx.doom(slot);
            tx.doom(slot); // twice: still one mark
        }
        for (int slot : new int[] {62, 65, 126, 129}) {
            assertFalse(tx.isDoomed(slot), "slot " + slot);
        }
        for (int slot : new int[] {63, 64, 127}) {
            assertTrue(tx.isDoomed(slot));
            tx.undoom(slot);
            tx.undoom(slot); // a second undoom of a cleared mark changes nothing
            assertFalse(tx.isDoomed(slot));
            assertTrue(tx.anyDoomed(), "slot 128 is still marked");
        }
        tx.undoom(128);
        assertFalse(tx.anyDoomed(), "every mark cleared");
        tx.doom(3);
        tx.doom(4_000);
        tx.undoomAll();
        assertFalse(tx.anyDoomed());
        assertFalse(tx.isDoomed(3));
        assertFalse(tx.isDoomed(4_000));
    }

    @Test
    void droppingTheTailEntryLetsTheNextPutFollowTheNewTail() {
        Transaction tx = new Transaction();
        int r = tx.begin(1, 1, TxState.STAGED_SPAWN);
        tx.put(r, A, A);
        tx.put(r, B, B);
        tx.drop(r, B); // the tail
        tx.put(r, N, N.of(1));
        assertEquals(List.of(A, A, N, N.of(1)), entries(tx, r));
        tx.drop(r, A); // the head
        tx.drop(r, N); // the only one left: the record is empty
        assertEquals(List.of(), entries(tx, r));
        tx.put(r, B, B);
        assertEquals(List.of(B, B), entries(tx, r), "an emptied record starts its chain again");
        tx.drop(r, A); // not staged: nothing changes
        assertEquals(List.of(B, B), entries(tx, r));
    }

    // ---------------------------------------------------------------- quiet despawns

    @Test
    void aQuietDespawnIsNoRecordButAMarkAndAnIdWithItsPlaceAmongRecords() {
        Transaction tx = new Transaction();
        tx.begin(1, 1, TxState.STAGED_MUTATE);
        tx.stageQuietDespawn(2, 2);
        assertTrue(tx.isDoomed(2), "its slot is marked: later calls for it read the mark");
        assertEquals(-1, tx.peek(2), "no record");
        assertEquals(-1, tx.find(2));
        assertFalse(tx.isEmpty());
        assertEquals("0 spawns, 1 moves, 1 despawns, 0 tag moves and 0 batch operations, the first for entity "
                + dev.jtecs.entity.Entity.toString(1), tx.describeOpen());
        tx.seal();
        assertTrue(tx.isEmpty());
        assertEquals(1, tx.sealedQuietDespawns());
        assertEquals(2, tx.quietDespawnIds()[0]);
        assertEquals(1, tx.quietDespawnMark(0), "staged after one record: it publishes before record 1");
        tx.begin(3, 3, TxState.STAGED_MUTATE); // staged while the wave drains: the next wave's
        tx.stageQuietDespawn(4, 4);
        assertEquals(2, tx.quietDespawnMark(1), "after the sealed record and the next wave's first");
        IllegalStateException draining = assertThrows(IllegalStateException.class, tx::seal);
        assertEquals("a sealed wave of 1 records, 0 tag moves and 1 quiet despawns is draining",
                draining.getMessage());
        tx.recycle();
        assertFalse(tx.isEmpty());
        assertEquals("0 spawns, 1 moves, 1 despawns, 0 tag moves and 0 batch operations, the first for entity "
                + dev.jtecs.entity.Entity.toString(3), tx.describeOpen());
        tx.seal();
        assertEquals(1, tx.sealedQuietDespawns());
        assertEquals(4, tx.quietDespawnIds()[0], "moved to the front");
        assertEquals(1, tx.quietDespawnMark(0), "after the record that moved to the front with it");
        tx.recycle();
        assertTrue(tx.isEmpty());
        assertEquals(0, tx.sealedQuietDespawns());
    }

    /** Room made for quiet despawns up front: the despawns it was made for then allocate nothing. */
    @Test
    void reservedQuietDespawnsAllocateNothingAndAFailedReservationChangesNothing() {
        Transaction tx = new Transaction();
        AllocationFaults.failAt(AllocationFaults.Kind.HEAP, 1);
        try {
            assertThrows(OutOfMemoryError.class, () -> tx.reserveQuietDespawns(500, 9_000));
        } finally {
            AllocationFaults.disarm();
        }
        assertEquals(0, tx.quietDespawnCount(), "nothing staged");
        tx.reserveQuietDespawns(500, 9_000);
        AllocationFaults.failAt(AllocationFaults.Kind.HEAP, 1); // any growth now would throw
        try {
            for (int i = 0; i < 500; i++) {
                tx.stageQuietDespawn(8_500 + i, 8_500 + i);
            }
        } finally {
            AllocationFaults.disarm();
        }
        assertEquals(500, tx.quietDespawnCount());
        assertTrue(tx.isDoomed(8_999));
        assertEquals(8_999, tx.quietDespawnId(499));
    }

    /**
     * Open quiet despawns that publish at one place among the records can be reversed (the order in which they
     * publish and free their slots); a range a record was begun inside of is left as it was, and only the open
     * ones can be.
     */
    @Test
    void openQuietDespawnsAtOnePlaceReverseAndOthersDoNot() {
        Transaction tx = new Transaction();
        tx.stageQuietDespawn(1, 1);
        tx.seal();
        for (int slot = 2; slot <= 5; slot++) {
            tx.stageQuietDespawn(slot, slot);
        }
        assertTrue(tx.reverseQuietDespawns(1, 5));
        assertEquals(List.of(5L, 4L, 3L, 2L), java.util.stream.IntStream.range(1, 5)
                .mapToObj(tx::quietDespawnId).toList());
        assertTrue(tx.isDoomed(2) && tx.isDoomed(5), "the marks stay");
        assertTrue(tx.reverseQuietDespawns(1, 3), "two swap");
        assertEquals(List.of(4L, 5L, 3L, 2L), java.util.stream.IntStream.range(1, 5)
                .mapToObj(tx::quietDespawnId).toList());
        assertFalse(tx.reverseQuietDespawns(2, 3), "one is its own reverse");
        assertFalse(tx.reverseQuietDespawns(5, 5), "an empty range (a cascade that staged no quiet despawn)");
        IllegalArgumentException sealed = assertThrows(IllegalArgumentException.class,
                () -> tx.reverseQuietDespawns(0, 5));
        assertEquals("quiet despawns [0, 5) are not within the open [1, 5)", sealed.getMessage());
        assertThrows(IllegalArgumentException.class, () -> tx.reverseQuietDespawns(3, 6));
        tx.begin(9, 9, TxState.STAGED_MUTATE); // a record between two quiet despawns: they publish apart
        tx.stageQuietDespawn(6, 6);
        assertFalse(tx.reverseQuietDespawns(4, 6));
        assertEquals(2L, tx.quietDespawnId(4));
        assertEquals(6L, tx.quietDespawnId(5));
    }

    @Test
    void quietDespawnsGrowPastTheirCapacityAndAFailedGrowthStagesNothing() {
        Transaction tx = new Transaction();
        for (int slot = 1; slot <= 64; slot++) {
            tx.stageQuietDespawn(slot, slot);
        }
        for (int k = 1; k <= 2; k++) { // the id and mark arrays grow in turn
            AllocationFaults.failAt(AllocationFaults.Kind.HEAP, k);
            try {
                assertThrows(OutOfMemoryError.class, () -> tx.stageQuietDespawn(65, 65), "growth " + k);
            } finally {
                AllocationFaults.disarm();
            }
            assertFalse(tx.isDoomed(65), "the slot is not marked, growth " + k);
        }
        tx.stageQuietDespawn(65, 65); // the lists grow: they have room for slot 5000's despawn
        AllocationFaults.failAt(AllocationFaults.Kind.HEAP, 1);
        try { // the marks must grow for slot 5000
            assertThrows(OutOfMemoryError.class, () -> tx.stageQuietDespawn(5000, 5000));
        } finally {
            AllocationFaults.disarm();
        }
        assertFalse(tx.isDoomed(5000));
        for (int slot = 66; slot <= 200; slot++) {
            tx.stageQuietDespawn(slot, slot);
        }
        tx.seal();
        assertEquals(200, tx.sealedQuietDespawns(), "nothing of the failed calls was listed");
        for (int k = 0; k < 200; k++) {
            assertEquals(k + 1, tx.quietDespawnIds()[k]);
            assertEquals(0, tx.quietDespawnMark(k));
        }
        tx.recycle();
        assertTrue(tx.isEmpty());
    }

    @Test
    void theOpenWaveIsDescribedByStateWithItsFirstEntity() {
        Transaction tx = new Transaction();
        assertEquals("0 spawns, 0 moves, 0 despawns, 0 tag moves and 0 batch operations", tx.describeOpen());
        long first = dev.jtecs.entity.Entity.pack(7, 2);
        tx.stageTagMove(first, 7, A, true, SOURCE);
        tx.begin(dev.jtecs.entity.Entity.pack(8, 0), 8, TxState.STAGED_SPAWN);
        tx.begin(dev.jtecs.entity.Entity.pack(9, 0), 9, TxState.STAGED_SPAWN);
        tx.begin(dev.jtecs.entity.Entity.pack(10, 0), 10, TxState.STAGED_MUTATE);
        tx.begin(dev.jtecs.entity.Entity.pack(11, 0), 11, TxState.STAGED_DESPAWN);
        tx.begin(dev.jtecs.entity.Entity.pack(12, 0), 12, TxState.CANCELLED_SPAWN);
        assertEquals("2 spawns, 1 moves, 2 despawns, 1 tag moves and 0 batch operations, the first for entity "
                + dev.jtecs.entity.Entity.toString(dev.jtecs.entity.Entity.pack(8, 0)), tx.describeOpen(),
                "a record names the first entity before a tag move does");
        tx.seal();
        tx.recycle();
        tx.stageTagMove(first, 7, B, true, SOURCE);
        assertEquals("0 spawns, 0 moves, 0 despawns, 1 tag moves and 0 batch operations, the first for entity "
                + dev.jtecs.entity.Entity.toString(first), tx.describeOpen(), "a sealed wave is not described");
    }
    // ---------------------------------------------------------------- arrays at their edges, the next wave

    @Test
    void peekAndStagingAnswerForSlotsAtAndPastTheSlotTable() {
        Transaction tx = new Transaction();
        assertEquals(-1, tx.peek(1024), "the first slot past the initial table");
        assertEquals(-1, tx.peek(1 << 20));
        tx.stageTagMove(5000, 5000, A, true, SOURCE); // past twice the table: the table grows to hold it
        assertEquals(-1, tx.peek(5000), "a tag move stays one");
        int r = tx.find(5000);
        assertEquals(List.of(A, A), entries(tx, r));
        int far = tx.begin(9000, 9000, TxState.STAGED_SPAWN);
        assertEquals(far, tx.peek(9000));
    }

    @Test
    void aFullTableOfTagMovesIsPromotedCheckedAndSealedWithoutReadingPastIt() {
        Transaction tx = new Transaction();
        for (int slot = 1; slot <= 64; slot++) { // exactly the initial capacity of the tag arrays
            tx.stageTagMove(slot, slot, A, true, SOURCE);
        }
        tx.addOp(boundary());
        assertEquals(64, tx.openRecords(), "every move became a record before the boundary");
        assertFalse(tx.hasOpenTagMoves());

        Transaction sealing = new Transaction();
        for (int slot = 1; slot <= 64; slot++) {
            sealing.stageTagMove(slot, slot, B, false, SOURCE);
        }
        sealing.seal();
        assertEquals(64, sealing.sealedTagMoves());
        assertEquals(-1, sealing.find(64), "sealed moves are no longer found by slot");
        sealing.tagMovesDone(0, 64);
        sealing.recycle();
        assertTrue(sealing.isEmpty());
    }

    @Test
    void aPromotionWhoseEntryGrowthFailsLeavesTheTagMoveStaged() {
        Transaction tx = new Transaction();
        for (int slot = 100; slot < 165; slot++) { // 65 records: the record arrays have room
            int r = tx.begin(slot, slot, TxState.STAGED_MUTATE);
            tx.put(r, A, A);
            if (slot < 163) {
                tx.put(r, B, B); // 63 * 2 + 2 = 128 entries: the entry arrays are full
            }
        }
        tx.stageTagMove(5, 5, N, false, SOURCE);
        AllocationFaults.failAt(AllocationFaults.Kind.HEAP, 1);
        try {
            assertThrows(OutOfMemoryError.class, () -> tx.find(5));
        } finally {
            AllocationFaults.disarm();
        }
        assertEquals(65, tx.openRecords());
        assertTrue(tx.hasOpenTagMoves(), "the move is still staged");
        assertEquals(java.util.Arrays.asList(N, null), entries(tx, tx.find(5)));
    }

    @Test
    void aCancelledRecordAndARecycledWaveKeepNoStagedValue() {
        Transaction tx = new Transaction();
        int r = tx.begin(1, 1, TxState.STAGED_SPAWN);
        tx.put(r, A, A);
        tx.put(r, N, N.of(4));
        int head = tx.firstEntry(r);
        int second = tx.nextEntry(head);
        tx.cancelInto(r, TxState.CANCELLED_SPAWN);
        for (int e : new int[] {head, second}) {
            assertNull(tx.entryComponent(e), "entry " + e);
            assertNull(tx.entryInput(e), "entry " + e);
        }
        int kept = tx.begin(2, 2, TxState.STAGED_MUTATE);
        tx.put(kept, N, N.of(5));
        int entry = tx.firstEntry(kept);
        tx.seal();
        tx.recycle(); // nothing staged meanwhile: the entry storage starts over
        assertNull(tx.entryComponent(entry));
        assertNull(tx.entryInput(entry));
    }

    @Test
    void batchIdRangesAlwaysFitThePool() {
        Transaction tx = new Transaction();
        int a = tx.reserveBatchIds(10);
        assertTrue(tx.batchIds().length >= a + 10, "the first range fits");
        int b = tx.reserveBatchIds(5);
        assertEquals(10, b);
        assertTrue(tx.batchIds().length >= b + 5, "so does one reserved into a pool that has room for part");
        tx.batchIds()[b + 4] = 42;
        assertEquals(42, tx.batchIds()[14]);
    }

    @Test
    void openOperationsCountOnlyThoseStagedSinceTheSeal() {
        Transaction tx = new Transaction();
        BatchOp first = boundary();
        tx.addOp(first);
        tx.addOp(boundary());
        assertTrue(tx.isLastOpenOp(tx.op(1)));
        assertFalse(tx.isLastOpenOp(first), "not the last one");
        tx.seal();
        assertEquals(0, tx.openOps());
        assertFalse(tx.isLastOpenOp(tx.op(1)), "sealed: nothing staged now comes after it in the open wave");
        BatchOp late = boundary();
        tx.addOp(late);
        assertEquals(1, tx.openOps());
        assertTrue(tx.isLastOpenOp(late));
        assertEquals("0 spawns, 0 moves, 0 despawns, 0 tag moves and 1 batch operations", tx.describeOpen());
        tx.recycle();
        assertEquals(1, tx.openOps());
    }

    @Test
    void undoomAllClearsTheMarksSoALaterMarkFindsNoneOfThem() {
        Transaction tx = new Transaction();
        tx.doom(5);
        tx.doom(100_000); // far past the initial words: the bit set grows to hold it
        assertTrue(tx.isDoomed(100_000));
        tx.undoomAll();
        tx.doom(7); // marks counted again: the check reads the bits
        assertFalse(tx.isDoomed(5));
        assertFalse(tx.isDoomed(100_000));
        assertTrue(tx.isDoomed(7));
    }

    @Test
    void aRunHoldingEveryMarkClearsThemAllAndOneBesideOtherMarksClearsOnlyItsOwn() {
        Transaction tx = new Transaction();
        long[] run = new long[100];
        for (int i = 0; i < run.length; i++) {
            run[i] = Entity.pack(10 + i * 3, 1); // slots 10 to 307, five words of the bit set
            tx.doom(10 + i * 3);
        }
        tx.undoomRun(run, run.length); // every mark is the run's: cleared at once
        assertFalse(tx.anyDoomed());
        for (int i = 0; i < run.length; i++) {
            assertFalse(tx.isDoomed(10 + i * 3));
        }
        tx.doom(12); // counted again from zero
        assertTrue(tx.anyDoomed());
        tx.undoom(12);
        assertFalse(tx.anyDoomed());

        for (int i = 0; i < run.length; i++) {
            tx.doom(10 + i * 3);
        }
        tx.doom(11); // a mark beside the run's (another despawn still staged) stays
        tx.undoomRun(run, run.length);
        assertTrue(tx.isDoomed(11));
        assertFalse(tx.isDoomed(10));
        assertFalse(tx.isDoomed(307));
        tx.undoom(11);
        assertFalse(tx.anyDoomed());
    }

    @Test
    void aShortRunInALongBitSetClearsItsMarksOneByOne() {
        Transaction tx = new Transaction();
        tx.doom(1 << 20); // the bit set grows to 16,385 words
        tx.undoom(1 << 20);
        long[] run = {Entity.pack(3, 0), Entity.pack(700_000, 2)};
        tx.doom(3);
        tx.doom(700_000);
        tx.undoomRun(run, 2); // the only marks, but far fewer slots than words: cleared per slot, same result
        assertFalse(tx.anyDoomed());
        assertFalse(tx.isDoomed(3));
        assertFalse(tx.isDoomed(700_000));
        tx.doom(9);
        assertTrue(tx.isDoomed(9));
    }

    @Test
    void aRunNamingASlotWithoutAMarkIsRefusedByTheAssertion() {
        Transaction tx = new Transaction();
        tx.doom(1);
        tx.doom(2);
        long[] run = {Entity.pack(1, 0), Entity.pack(3, 0)}; // as many as the marks, but slot 3 has none
        assertThrows(AssertionError.class, () -> tx.undoomRun(run, 2));
        long[] past = {Entity.pack(1, 0), Entity.pack(100_000, 0)}; // a slot past the bit set's words
        assertThrows(AssertionError.class, () -> tx.undoomRun(past, 2));
        assertTrue(tx.isDoomed(1) && tx.isDoomed(2)); // refused before any mark went
    }

    @Test
    void sealsAreCountedAndTheOpenRecordsAreThoseOfTheNextWave() {
        Transaction tx = new Transaction();
        assertEquals(0, tx.seals());
        tx.begin(1, 1, TxState.STAGED_MUTATE);
        tx.begin(2, 2, TxState.STAGED_MUTATE);
        tx.seal();
        assertEquals(1, tx.seals());
        assertEquals(0, tx.openRecords());
        tx.begin(3, 3, TxState.STAGED_MUTATE);
        assertEquals(1, tx.openRecords(), "one staged while the wave drains");
        IllegalStateException draining = assertThrows(IllegalStateException.class, tx::seal);
        assertEquals("a sealed wave of 2 records, 0 tag moves and 0 quiet despawns is draining", draining.getMessage());
        tx.recycle();
        tx.seal();
        assertEquals(3, tx.seals(), "the refused seal counted too");
    }

    @Test
    void aNextWaveRecordKeepsItsEntryChainAndItsBatchMarkThroughRecycling() {
        Transaction tx = new Transaction();
        for (int slot = 1; slot <= 2; slot++) {
            int r = tx.begin(slot, slot, TxState.STAGED_MUTATE);
            tx.put(r, A, A);
            tx.put(r, B, B);
        }
        tx.seal();
        int next = tx.begin(3, 3, TxState.STAGED_MUTATE); // staged while the wave drains
        tx.put(next, N, N.of(1));
        BatchOp op = boundary();
        tx.addOp(op);
        assertEquals(3, op.recordMark);
        tx.recycle();
        int moved = tx.find(3);
        assertEquals(0, moved);
        assertEquals(1, op.recordMark, "after the one record that moved to the front");
        int reopened = tx.begin(3, 3, TxState.STAGED_MUTATE); // closed behind the boundary: a new record
        tx.put(reopened, A, A);
        tx.put(moved, B, B); // the moved record's chain goes on from its own tail
        assertEquals(List.of(N, N.of(1), B, B), entries(tx, moved));
        assertEquals(List.of(A, A), entries(tx, reopened));
    }

    @Test
    void nextWaveTagMovesMoveToTheFrontWithTheirValuesAndStayFindable() {
        Transaction tx = new Transaction();
        tx.stageValueMove(1, 1, N.of(1), SOURCE);
        tx.seal();
        tx.stageTagMove(2, 2, A, true, SOURCE); // staged while the wave drains
        tx.stageValueMove(3, 3, N.of(3), SOURCE);
        tx.stageTagMove(4, 4, B, false, SOURCE);
        tx.find(4); // lapsed: a record now
        tx.tagMoveDone(0);
        tx.recycle();
        assertNull(tx.tagMoveInput(0), "a tag carries no value");
        assertEquals(N.of(3), tx.tagMoveInput(1), "the value moved with its move");
        assertEquals(-1, tx.peek(3), "still a tag move, found by its slot");
        int r = tx.find(3);
        assertEquals(List.of(N, N.of(3)), entries(tx, r));
        assertTrue(tx.hasOpenTagMoves(), "the tag move of slot 2 is still open");
        tx.find(2);
        assertFalse(tx.hasOpenTagMoves(), "each move was found once, at its own index");
        assertEquals(3, tx.openRecords());
    }
    /**
     * A plain record's value is staged as its fields' bits: the move keeps no reference to the record or its
     * input, reads back as an equal value (built again), survives recycling with the next wave's moves, and its
     * staged values are forgotten once no move is open. A record that is not plain is kept as the object.
     */
    @Test
    void aPlainRecordsValueIsStagedAsBitsAndKeptForTheMoveThatCarriesIt() {
        Transaction tx = new Transaction();
        var spot = SPOT.of(new Spot(3, 4.5f));
        tx.stageValueMove(1, 1, spot, SOURCE);
        var odd = ODD.of(new Odd(7));
        tx.stageValueMove(2, 2, odd, SOURCE);
        assertEquals(0, tx.tagMoveStagedValue(0), "the first value of its component");
        assertTrue(tx.tagMoveHasValue(0));
        assertEquals(spot, tx.tagMoveInput(0), "an equal value, built again");
        assertTrue(spot.value() != ((dev.jtecs.component.ComponentValue<?>) tx.tagMoveInput(0)).value(), "not the one given");
        assertEquals(-1, tx.tagMoveStagedValue(1), "not plain: kept as given");
        assertSame(odd, tx.tagMoveInput(1));
        tx.stageTagMove(3, 3, A, true, SOURCE);
        assertFalse(tx.tagMoveHasValue(2), "a tag carries no value");
        tx.seal();
        tx.stageValueMove(4, 4, SPOT.of(new Spot(8, 9f)), SOURCE); // staged while the wave drains
        tx.tagMovesDone(0, 3);
        tx.recycle();
        assertEquals(1, tx.tagMoveStagedValue(0), "moved to the front with its index: the values stay while it is open");
        assertEquals(SPOT.of(new Spot(8, 9f)), tx.tagMoveInput(0));
        tx.seal();
        tx.tagMovesDone(0, 1);
        tx.recycle();
        tx.stageValueMove(5, 5, SPOT.of(new Spot(1, 1f)), SOURCE);
        assertEquals(0, tx.tagMoveStagedValue(0), "no move was open: the staged values were forgotten");
        // promoted to a record (another change for the slot), the move's value is the record's entry
        int r = tx.find(5);
        assertEquals(List.of(SPOT, SPOT.of(new Spot(1, 1f))), entries(tx, r));
    }

    /** Values of several plain components, staged in turn, are each found with their own component's values. */
    @Test
    void valuesOfSeveralComponentsStagedInTurnReadBackEachFromItsOwn() {
        Transaction tx = new Transaction();
        for (int i = 0; i < 100; i++) {
            if (i % 3 == 0) {
                tx.stageValueMove(i + 1, i + 1, DOT.of(new Dot(i, i / 2.0)), SOURCE);
            } else {
                tx.stageValueMove(i + 1, i + 1, SPOT.of(new Spot(i, -i)), SOURCE);
            }
        }
        for (int i = 99; i >= 0; i--) { // read back from the last, so the remembered component keeps changing
            Object expected = i % 3 == 0 ? DOT.of(new Dot(i, i / 2.0)) : SPOT.of(new Spot(i, -i));
            assertEquals(expected, tx.tagMoveInput(i), "move " + i);
            assertEquals(i % 3 == 0 ? i / 3 : i - i / 3 - 1, tx.tagMoveStagedValue(i), "move " + i + "'s index");
        }
    }

    /**
     * Values of more plain components than the transaction's lists first make room for (four) are each staged with
     * their own component's values, in one wave and again in the next, where every list was reset.
     */
    @Test
    void valuesOfMoreComponentsThanTheFirstRoomHoldsAreEachStagedWithTheirOwn() {
        Transaction tx = new Transaction();
        List<dev.jtecs.component.Input> inputs = List.of(SPOT.of(new Spot(1, 2f)), DOT.of(new Dot(3, 4.5)),
                Components.registerNative(Cell.class).of(new Cell(6)),
                Components.registerNative(Mass.class).of(new Mass(7.5f)),
                Components.registerNative(Tick.class).of(new Tick(8)),
                Components.registerNative(Hue.class).of(new Hue(9.25)));
        for (int wave = 0; wave < 2; wave++) {
            for (int c = 0; c < inputs.size(); c++) {
                tx.stageValueMove(c + 1, c + 1, inputs.get(c), SOURCE);
            }
            for (int c = 0; c < inputs.size(); c++) {
                assertEquals(inputs.get(c), tx.tagMoveInput(c), "wave " + wave + ", component " + c);
                assertEquals(0, tx.tagMoveStagedValue(c), "wave " + wave + ": the first value of its component");
            }
            tx.seal();
            tx.tagMovesDone(0, inputs.size());
            tx.recycle();
        }
    }

    /**
     * The per-slot and per-batch arrays grow by doubling, so that many calls that each need a little more room make
     * few growths (a growth to exactly what one call needs would copy the whole array again on every call).
     */
    @Test
    void roomMadeCallByCallGrowsByDoublingNotByWhatEachCallNeeds() {
        Transaction tx = new Transaction();
        AllocationFaults.disarm(); // restarts the count of growths
        for (int slot = 1; slot <= 100_000; slot++) {
            tx.begin(slot, slot, TxState.STAGED_SPAWN);
        }
        long records = AllocationFaults.seen(AllocationFaults.Kind.HEAP);
        assertTrue(records <= 100, records + " growths for 100,000 records begun slot by slot");
        AllocationFaults.disarm();
        for (int slot = 0; slot < 1_000_000; slot++) {
            tx.doom(slot);
        }
        long marks = AllocationFaults.seen(AllocationFaults.Kind.HEAP);
        assertTrue(marks <= 20, marks + " growths for 1,000,000 slots doomed in ascending order");
        AllocationFaults.disarm();
        for (int batch = 0; batch < 10_000; batch++) {
            tx.reserveBatchIds(10);
        }
        long ids = AllocationFaults.seen(AllocationFaults.Kind.HEAP);
        assertTrue(ids <= 20, ids + " growths for 10,000 ranges of 10 batch ids");
    }

    /** Room that is there already, exactly, is not made again: the calls that fit allocate nothing. */
    @Test
    void roomThatFitsExactlyIsNotMadeAgain() {
        Transaction tx = new Transaction();
        AllocationFaults.failAt(AllocationFaults.Kind.HEAP, 1); // any growth from here throws
        try {
            tx.reserveDoom(1024); // the first marks hold 16 words: slots below 1,024
            tx.doom(1023);
            tx.reserveQuietDespawns(64, 1023); // the first quiet list holds 64
        } finally {
            AllocationFaults.disarm();
        }
        assertTrue(tx.isDoomed(1023));
        tx.reserveQuietDespawns(1, 1024); // slot 1,024 needs a 17th word of marks, made here
        tx.reserveBatchIds(8);
        tx.seal();
        tx.recycle(); // no batch is left: its ids' room is used again from the start
        AllocationFaults.failAt(AllocationFaults.Kind.HEAP, 1);
        try {
            tx.stageQuietDespawn(1024, 1024);
            assertEquals(0, tx.reserveBatchIds(8));
        } finally {
            AllocationFaults.disarm();
        }
        assertTrue(tx.isDoomed(1024));
    }

    /** Room for the marks of a million slots takes about the bits it needs, not a multiple of the slots. */
    @Test
    void roomForTheMarksOfAMillionSlotsTakesABitPerSlot() {
        long bytes = dev.jtecs.testing.Allocations.fewestBytes(3, () -> new Transaction().reserveDoom(1 << 20));
        // 128 KiB of marks, and the new transaction's own first arrays (a few KiB)
        assertTrue(bytes < 200_000, bytes + " bytes");
    }

    /**
     * A plain record's value given as its fields' bits ({@code stageBitsMove}) is staged as {@code stageValueMove}
     * stages the record: among the same component's staged values, in order, read back as an equal value.
     */
    @Test
    void aValueGivenAsItsBitsIsStagedAsTheRecordItCameFromWouldBe() {
        Transaction tx = new Transaction();
        long[] bits = new long[2];
        tx.stageValueMove(1, 1, SPOT.of(new Spot(3, 4.5f)), SOURCE);
        dev.jtecs.storage.internal.StagedValues.plainWriter(SPOT).bits(new Spot(-7, Float.intBitsToFloat(0x7fc00005)),
                bits);
        tx.stageBitsMove(2, 2, SPOT, bits, SOURCE);
        assertEquals(1, tx.tagMoveStagedValue(1), "the second value of its component");
        assertTrue(tx.tagMoveHasValue(1));
        Spot read = (Spot) ((dev.jtecs.component.ComponentValue<?>) tx.tagMoveInput(1)).value();
        assertEquals(-7, read.x());
        assertEquals(0x7fc00005, Float.floatToRawIntBits(read.y()), "the bits as given");
        assertEquals(SPOT.id(), tx.tagMoveComponent(1));
        assertTrue(tx.tagMoveAdds(1));
        assertThrows(IllegalStateException.class, () -> tx.stageBitsMove(2, 2, SPOT, bits, SOURCE),
                "the slot has staged work");
        assertEquals(2, tx.openTagMoves(), "the refused move staged nothing");
    }

    /**
     * A failed growth of the staged values, or of the move after them, stages nothing the move would read: each
     * growth failed in turn, with the first 64 moves staged already so that the move's own arrays must grow too; for
     * a value given as a record and as its bits alike.
     */
    @Test
    void aFailedGrowthStagesNoValueMove() {
        assertTrue(AllocationFaults.ENABLED, "the suite runs with -Djtecs.allocationFaults");
        int failed = failEachGrowth("a record", tx -> tx.stageValueMove(1, 1, SPOT.of(new Spot(5, 6f)), SOURCE));
        assertTrue(failed >= 6, failed + " growths failed: the values' and the move's five arrays");
        long[] bits = {5, Float.floatToRawIntBits(6f)};
        failed = failEachGrowth("its bits", tx -> tx.stageBitsMove(1, 1, SPOT, bits, SOURCE));
        assertTrue(failed >= 6, failed + " growths of a move given as bits failed");
    }

    /**
     * Fails each growth in turn while {@code stage} stages slot 1's move of {@code Spot(5, 6)} behind 64 tag moves;
     * after each failure nothing is staged for the slot and the call stages when tried again. Returns how many
     * growths failed.
     */
    private static int failEachGrowth(String what, java.util.function.Consumer<Transaction> stage) {
        int failed = 0;
        for (int k = 1; ; k++) {
            Transaction tx = new Transaction();
            for (int slot = 2; slot <= 65; slot++) {
                tx.stageTagMove(slot, slot, A, true, SOURCE); // the tag-move arrays' first 64 places
            }
            FaultAttempt.Outcome outcome = FaultAttempt.run(AllocationFaults.Kind.HEAP, k, () -> stage.accept(tx));
            String growth = what + ", growth " + k;
            if (outcome != FaultAttempt.Outcome.FAILED) {
                assertEquals(FaultAttempt.Outcome.UNSPENT, outcome, growth + ": no growth lets a failure go");
                assertEquals(SPOT.of(new Spot(5, 6f)), tx.tagMoveInput(64), growth + " was not needed");
                return failed;
            }
            failed++;
            assertEquals(-1, tx.peek(1), growth + ": nothing staged for the slot");
            stage.accept(tx);
            assertEquals(SPOT.of(new Spot(5, 6f)), tx.tagMoveInput(64), growth + ": and it stages again");
        }
    }

    @Test
    void aRecycledWaveLeavesNoValueForALaterTagMoveAtTheSameIndex() {
        Transaction tx = new Transaction();
        tx.stageValueMove(1, 1, N.of(10), SOURCE);
        tx.stageValueMove(2, 2, N.of(20), SOURCE);
        tx.seal();
        tx.tagMovesDone(0, 2);
        tx.recycle();
        tx.stageTagMove(3, 3, A, true, SOURCE); // index 0 again, with no value of its own
        tx.stageValueMove(4, 4, N.of(40), SOURCE); // index 1: the moves below it are read for values now
        assertNull(tx.tagMoveInput(0), "the published wave's value is gone");
        assertEquals(N.of(40), tx.tagMoveInput(1));
    }

    @Test
    void twoOpenNextWaveMovesAreEachFoundAtTheirOwnIndexAfterRecycling() {
        Transaction tx = new Transaction();
        tx.stageTagMove(1, 1, A, true, SOURCE);
        tx.seal();
        tx.stageTagMove(2, 2, A, true, SOURCE); // staged while the wave drains: indices 1 and 2
        tx.stageTagMove(3, 3, B, false, SOURCE);
        tx.tagMoveDone(0);
        tx.recycle(); // to indices 0 and 1; index 2 still holds its old copy
        assertEquals(java.util.Arrays.asList(B, null), entries(tx, tx.find(3)));
        assertTrue(tx.hasOpenTagMoves(), "slot 2's move is still open");
        assertEquals(List.of(A, A), entries(tx, tx.find(2)));
        assertFalse(tx.hasOpenTagMoves(), "each promoted at its own index");
        assertEquals(2, tx.openRecords());
    }

    @Test
    void hasStagedSeesRecordsAndTagMovesAlikeAndSlotsPastTheTable() {
        Transaction tx = new Transaction();
        assertFalse(tx.hasStaged(7));
        assertFalse(tx.hasStaged(1 << 20), "past the slot table");
        tx.begin(7, 7, TxState.STAGED_MUTATE);
        tx.stageTagMove(9, 9, A, true, SOURCE);
        assertTrue(tx.hasStaged(7));
        assertTrue(tx.hasStaged(9), "a tag move, which peek does not report");
        assertEquals(-1, tx.peek(9));
        assertFalse(tx.hasStaged(8));
    }
}
