package dev.jtecs.mutation.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.component.Components;
import dev.jtecs.component.ManagedComponent;
import dev.jtecs.component.NativeComponent;
import dev.jtecs.component.PairComponent;
import dev.jtecs.component.Relationship;
import dev.jtecs.component.Relationships;
import dev.jtecs.component.ScalarComponent;
import dev.jtecs.component.TagComponent;
import dev.jtecs.entity.Entity;
import dev.jtecs.entity.internal.AllocationFaults;
import dev.jtecs.storage.Archetype;
import dev.jtecs.storage.EntityObserver;
import dev.jtecs.storage.internal.Table;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
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

    private DrainFixture fixture = new DrainFixture();
    private final RequirementPlan requirements = new RequirementPlan(fixture.registry.pairs());
    private MovePlacement moves = new MovePlacement(fixture.drain, fixture.index, fixture.registry, fixture.tx,
            requirements, new Destinations(fixture.registry, fixture.tx, requirements), new RequiredEdges());

    @AfterEach
    void tearDown() {
        fixture.close();
    }

    /**
     * The first move between two archetypes makes their move plan. Failing each allocation of such a move in
     * turn, on the instant path and the staged one, leaves the entity where it was and only there: no row of it in
     * the destination that the index does not know.
     */
    @Test
    void aFirstMoveBetweenTwoArchetypesWhoseAllocationFailsLeavesTheEntityOnlyWhereItWas() {
        for (boolean staged : new boolean[] {false, true}) {
            int failures = 0;
            for (int k = 1; ; k++) {
                try (dev.jtecs.world.World w = dev.jtecs.world.World.create()) {
                    long other = w.spawn(HP.of(7), SPEED.of(1)); // the destination exists, with a row
                    long id = w.spawn(HP.of(1));
                    AllocationFaults.failAt(AllocationFaults.Kind.HEAP, k);
                    boolean failed = false;
                    try {
                        if (staged) {
                            w.defer();
                        }
                        try {
                            w.set(id, SPEED.of(2)); // the first move from {Hp} to {Hp, Speed}
                        } finally {
                            if (staged) {
                                w.commit();
                            }
                        }
                    } catch (OutOfMemoryError expected) {
                        failed = true;
                    } finally {
                        AllocationFaults.disarm();
                    }
                    w.unwind();
                    String label = (staged ? "staged" : "instant") + ", allocation " + k;
                    int[] rows = new int[1];
                    w.forEachArchetype(archetype -> {
                        for (int r = 0; r < archetype.count(); r++) {
                            rows[0] += archetype.entity(r) == id ? 1 : 0;
                        }
                    });
                    assertEquals(1, rows[0], label + ": the entity's rows");
                    assertEquals(1, w.get(id, HP), label);
                    assertEquals(7, w.get(other, HP), label);
                    if (!failed) {
                        assertEquals(2, w.get(id, SPEED), label);
                        break;
                    }
                    failures++;
                    assertFalse(w.has(id, SPEED), label);
                }
            }
            assertEquals(AllocationFaults.ENABLED, failures > 0, (staged ? "staged" : "instant") + ": failed");
        }
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
            fixture.tx.stageTagMove(ids[i], Entity.slot(ids[i]), A, true, fixture.tableOf(ids[i]));
        }
        return ids;
    }

    // ---------------------------------------------------------------- the lone move

    /** Stages one compact move of {@code id} and seals it: the wave {@link MovePlacement#moveLone} is for. */
    private void sealLoneMove(long id, dev.jtecs.component.Component<?> component, boolean adds) {
        fixture.tx.stageTagMove(id, Entity.slot(id), component, adds, fixture.tableOf(id));
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
        assertBackInSource(ids, source, target);
        fixture.tx.recycle();
    }

    @Test
    void aLoneValueMoveWritesItsValueAndMarksItsColumn() {
        long id = published();
        Table source = fixture.tableOf(id);
        fixture.tx.stageValueMove(id, Entity.slot(id), SPEED.of(9), fixture.tableOf(id));
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
        fixture.tx.stageValueMove(ids[0], Entity.slot(ids[0]), CURSED, fixture.tableOf(ids[0]));
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

    // ---------------------------------------------------------------- the move at once (no staging)

    static final TagComponent NEEDS_SPEED = Components.tag("test.moveplace.NeedsSpeed", o -> o.requires(SPEED));

    @Test
    void aMoveAtOnceAddsATagAndRemovesItWithNothingStaged() {
        long[] ids = stageTagMovesAddingA(3, 0);
        Table source = fixture.tableOf(ids[0]);
        assertFalse(moves.moveAtOnce(ids[0], A, true, null), "a destination the edge cache does not hold yet");
        assertSame(source, fixture.tableOf(ids[0]));
        fixture.registry.withAdded(source, A); // caches the edges both ways, as a first general move does
        fixture.registry.withRemoved(source, HP);
        assertTrue(moves.moveAtOnce(ids[0], A, true, null));
        assertTrue(fixture.tx.isEmpty(), "nothing was staged");
        Table target = fixture.tableOf(ids[0]);
        assertEquals(fixture.registry.withAdded(source, A), target);
        assertEquals(2, source.count());
        assertEquals(1, target.count());
        assertEquals(0, hp(ids[0]), "the value moved with its row");
        for (long id : ids) {
            assertIndexed(id); // the last row filled the hole
        }
        assertEquals(1, target.dirty().writeCount(target.position(A.id())), "an added tag is marked");

        assertTrue(moves.moveAtOnce(ids[0], A, false, null));
        assertBackInSource(ids, source, target);
        assertEquals(1, target.dirty().writeCount(target.position(A.id())), "nor does it mark the tag again");

        assertTrue(moves.moveAtOnce(ids[1], HP, false, null), "a value component leaves as a plain row move too");
        assertFalse(fixture.tableOf(ids[1]).has(HP.id()));
        assertIndexed(ids[1]);
        assertTrue(fixture.tx.isEmpty());
    }

    record Plain(float v) {} // generated accessor

    record Doubled(float v) { // an accessor of its own: reading the value runs user code
        @Override
        public float v() {
            return v * 2;
        }
    }

    static final dev.jtecs.component.NativeComponent<Plain> PLAIN = Components.registerNative(Plain.class);
    static final dev.jtecs.component.NativeComponent<Doubled> DOUBLED = Components.registerNative(Doubled.class);

    /**
     * A plain value's move at once, the value given as its fields' bits: a native record with generated accessors
     * moves its row into the destination the edge cache holds, value written and its column marked once; a record
     * with an accessor of its own is refused having changed nothing (its write runs user code, which the general
     * value move frames), as is a destination not known yet.
     */
    @Test
    void aPlainValueMovesAtOnceAndARecordWithAnAccessorOfItsOwnIsRefused() {
        long id = published();
        Table source = fixture.tableOf(id);
        long[] two = new long[1];
        dev.jtecs.storage.internal.StagedValues.plainWriter(PLAIN).bits(new Plain(2), two);
        assertFalse(moves.movePlainBitsFrom(id, source, PLAIN, two), "no destination cached yet");
        Table plainTarget = fixture.registry.withAdded(source, PLAIN);
        Table doubledTarget = fixture.registry.withAdded(source, DOUBLED);
        assertFalse(moves.movePlainBitsFrom(id, source, DOUBLED, new long[] {2}), "user code in the write");
        assertSame(source, fixture.tableOf(id));
        assertEquals(0, doubledTarget.count());
        assertTrue(moves.movePlainBitsFrom(id, source, PLAIN, two));
        assertSame(plainTarget, fixture.tableOf(id));
        assertEquals(new Plain(2), plainTarget.readValue(plainTarget.position(PLAIN.id()),
                fixture.index.rowOf(Entity.slot(id))));
        assertEquals(1, plainTarget.dirty().writeCount(plainTarget.position(PLAIN.id())), "the new column is marked");
        assertTrue(fixture.tx.isEmpty());
    }

    @Test
    void aMoveAtOnceLeavesEveryOtherCallToTheStagedPathHavingChangedNothing() {
        long plain = published();
        long withA = fixture.stageSpawn(HP.of(2), A);
        long observed = fixture.stageSpawn(HP.of(3), C);
        long paired = fixture.stageSpawn(HP.of(4), fixture.registry.pairs().pair(PAIRED, plain));
        long dead = fixture.stageSpawn(HP.of(5));
        fixture.drain.drain();
        fixture.tableOf(observed).addObserver(new EntityObserver() { });
        fixture.tx.begin(dead, Entity.slot(dead), TxState.STAGED_DESPAWN);
        fixture.drain.drain();
        long observedTarget = fixture.stageSpawn(HP.of(7), B);
        fixture.drain.drain();
        fixture.registry.withAdded(fixture.tableOf(observedTarget), A).addObserver(new EntityObserver() { });
        long reserved = fixture.stageSpawn(HP.of(6)); // staged, not published
        Table plainTable = fixture.tableOf(plain);
        for (long id : new long[] {plain, observed, paired}) { // each refusal below has its own reason
            fixture.registry.withAdded(fixture.tableOf(id), A);
        }
        fixture.registry.withAdded(plainTable, SPEED);
        fixture.registry.withAdded(plainTable, NEEDS_SPEED);
        fixture.registry.withRemoved(fixture.tableOf(paired), fixture.registry.pairs().pair(PAIRED, plain));
        String[] cases = {"a value component to add", "a tag with requirements", "a tag it has",
            "a dead entity", "a staged spawn", "an observed table", "an observed destination", "a table with pairs",
            "a relationship pair to remove"};
        boolean[] refused = {
            !moves.moveAtOnce(plain, SPEED, true, null),
            !moves.moveAtOnce(plain, NEEDS_SPEED, true, null),
            !moves.moveAtOnce(withA, A, true, null),
            !moves.moveAtOnce(dead, A, true, null),
            !moves.moveAtOnce(reserved, A, true, null),
            !moves.moveAtOnce(observed, A, true, null),
            !moves.moveAtOnce(observedTarget, A, true, null),
            !moves.moveAtOnce(paired, A, true, null),
            !moves.moveAtOnce(paired, fixture.registry.pairs().pair(PAIRED, plain), false, null)};
        for (int i = 0; i < cases.length; i++) {
            assertTrue(refused[i], cases[i] + " takes the staged path");
        }
        assertSame(plainTable, fixture.tableOf(plain));
        assertEquals(1, plainTable.count());
        assertTrue(fixture.tableOf(withA).has(A.id()));
        assertFalse(fixture.tableOf(observed).has(A.id()));
        assertFalse(fixture.tableOf(observedTarget).has(A.id()));
        assertFalse(fixture.tableOf(paired).has(A.id()));
        assertTrue(fixture.tableOf(paired).hasPairs());
        fixture.drain.drain(); // the staged spawn alone publishes: nothing was staged beside it
        assertTrue(fixture.index.isAlive(reserved));
        assertFalse(fixture.tableOf(reserved).has(A.id()));
        assertSame(plainTable, fixture.tableOf(plain));
        assertTrue(fixture.tx.isEmpty());

        assertTrue(moves.moveAtOnce(plain, A, false, null), "removing what it lacks is done: there is nothing to do");
        assertSame(plainTable, fixture.tableOf(plain));
        assertEquals(0, plainTable.dirty().writeCount(plainTable.position(HP.id())));
    }

    @Test
    void aNewValueMovedAtOnceIsWrittenAndMarkedAndOneWhoseAccessorThrowsLeavesTheRowWhereItWas() {
        long[] ids = stageTagMovesAddingA(3, 0);
        Table source = fixture.tableOf(ids[0]);
        fixture.registry.withAdded(source, SPEED); // the edges a move at once takes are cached
        fixture.registry.withAdded(source, BRITTLE);
        assertTrue(moves.moveAtOnce(ids[0], SPEED, true, SPEED.of(9)));
        Table target = fixture.tableOf(ids[0]);
        assertEquals(fixture.registry.withAdded(source, SPEED), target);
        assertEquals(9, target.readValue(target.position(SPEED.id()), fixture.index.rowOf(Entity.slot(ids[0]))));
        assertEquals(0, hp(ids[0]));
        assertEquals(1, target.dirty().writeCount(target.position(SPEED.id())));
        assertTrue(fixture.tx.isEmpty());
        assertFalse(moves.moveAtOnce(ids[0], SPEED, true, SPEED.of(10)), "a value it has is a write-through");
        assertEquals(9, target.readValue(target.position(SPEED.id()), fixture.index.rowOf(Entity.slot(ids[0]))));
        assertFalse(moves.moveAtOnce(ids[1], SPEED, true, HP.of(4)), "a value of another component is refused");
        assertFalse(moves.moveAtOnce(ids[1], CURSED, true, CURSED), "a bare component asks for a default: staged");
        assertSame(source, fixture.tableOf(ids[1]));

        Brittle.failing = true;
        try {
            assertThrows(IllegalStateException.class,
                    () -> moves.moveAtOnce(ids[1], BRITTLE, true, BRITTLE.of(new Brittle(4))));
        } finally {
            Brittle.failing = false;
        }
        assertEquals(0, fixture.registry.withAdded(source, BRITTLE).count(), "the copied row went again");
        assertEquals(2, source.count());
        for (long id : new long[] {ids[1], ids[2]}) {
            assertSame(source, fixture.tableOf(id));
            assertIndexed(id);
        }
        assertEquals(1, hp(ids[1]));
        assertEquals(2, hp(ids[2]));
        assertTrue(fixture.tx.isEmpty());
    }

    @Test
    void aMoveAtOnceWhoseDestinationCannotGrowChangesNothing() {
        long[] ids = stageTagMovesAddingA(2, 0);
        Table source = fixture.tableOf(ids[1]);
        Table target = fixture.registry.withAdded(source, A);
        assertEquals(0, target.capacityRows(), "nothing allocated yet: the move must grow it");
        AllocationFaults.failAt(AllocationFaults.Kind.NATIVE, 1);
        try {
            assertThrows(OutOfMemoryError.class, () -> moves.moveAtOnce(ids[1], A, true, null));
        } finally {
            AllocationFaults.disarm();
        }
        assertEquals(2, source.count());
        assertEquals(0, target.count());
        for (long id : ids) {
            assertSame(source, fixture.tableOf(id));
            assertIndexed(id);
        }
        assertEquals(1, hp(ids[1]));
        assertTrue(fixture.tx.isEmpty());
        assertTrue(moves.moveAtOnce(ids[1], A, true, null), "the same move succeeds once memory is there");
        assertSame(target, fixture.tableOf(ids[1]));
    }

    /** {@code ids[0]} moved back from {@code target}: {@code source} holds all three again, value kept, unmarked. */
    private void assertBackInSource(long[] ids, Table source, Table target) {
        assertSame(source, fixture.tableOf(ids[0]));
        assertEquals(0, target.count());
        assertEquals(3, source.count());
        assertEquals(0, hp(ids[0]));
        for (long id : ids) {
            assertIndexed(id);
        }
        assertEquals(0, source.dirty().writeCount(source.position(HP.id())), "a removal marks no column");
    }

    /** Where the index puts an entity agrees with the row that holds it. */
    private void assertIndexed(long id) {
        Table table = fixture.tableOf(id);
        assertEquals(id, table.entityAt(fixture.index.rowOf(Entity.slot(id))), "the index agrees for " + id);
    }

    /** Entity {@code id} is in {@code table}, at the row the index gives, with HP {@code hp}. */
    private void assertAt(Table table, long id, int hp) {
        assertSame(table, fixture.tableOf(id), "the table of " + Entity.toString(id));
        assertEquals(hp, hp(id), "the HP of " + Entity.toString(id));
        assertIndexed(id);
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

    /** Seals the staged tag moves and plans them as one run, as the drain does; returns the run's destination. */
    private Table planSealedRun() {
        fixture.tx.seal();
        moves.startSegment(0, fixture.tx.sealedEnd());
        int n = fixture.tx.sealedTagMoves();
        moves.startTags(n);
        assertTrue(moves.planRun(n), "one run");
        Table target = moves.runTarget();
        target.ensureCapacity(target.count() + n);
        return target;
    }

    @Test
    void oneRunOfTagMovesIsPlannedAtOnceAndMovesItsTableWhole() {
        long[] ids = stageTagMovesAddingA(50, 50);
        Table source = fixture.tableOf(ids[0]);
        int store = source.store();
        Table target = planSealedRun();
        assertTrue(target.has(A.id()));
        assertSame(source, fixture.tableOf(ids[49]), "planning moves nothing");
        moves.moveAllWithTags(0, 0);
        assertEquals(store, target.store(), "moved whole");
        for (int i = 0; i < ids.length; i++) {
            assertAt(target, ids[i], i);
        }
    }

    @Test
    void aRunWhoseTableChangedSinceItsFirstMoveIsPlannedMoveByMove() {
        long[] ids = stageTagMovesAddingA(3, 3);
        kill(ids[2]); // the table changes after the run was staged
        fixture.tx.seal();
        moves.startSegment(0, fixture.tx.sealedEnd());
        moves.startTags(3);
        assertFalse(moves.planRun(3), "a run whose table changed is not planned at once");
        fixture.tx.recycle();
        assertTrue(fixture.tx.isEmpty());
    }

    @Test
    void aRunWhoseTableChangesAfterPlanningMovesOneByOneAndLeavesANewcomerAlone() {
        long[] ids = stageTagMovesAddingA(4, 4);
        Table source = fixture.tableOf(ids[0]);
        int store = source.store();
        Table target = planSealedRun();
        // as many rows as moves again, but not the same entities: ids[0] left, a newcomer came
        kill(ids[0]);
        long newcomer = fixture.index.allocate();
        int row = source.appendRow(newcomer);
        source.writeValue(source.position(HP.id()), row, 77);
        fixture.index.publish(Entity.slot(newcomer), source.store(), row);
        assertEquals(4, source.count());
        moves.moveAllWithTags(0, 0);
        assertSame(source, fixture.tableOf(newcomer), "the newcomer has no move: it stays");
        assertEquals(77, hp(newcomer));
        assertEquals(store, source.store(), "not moved whole");
        assertFalse(fixture.index.isAlive(ids[0]));
        for (int i = 1; i < ids.length; i++) {
            assertAt(target, ids[i], i);
        }
        assertIndexed(newcomer);
    }

    @Test
    void aRunOfFewerMovesThanItsTableHasRowsMovesOneByOne() {
        long[] ids = stageTagMovesAddingA(10, 4);
        Table source = fixture.tableOf(ids[0]);
        int store = source.store();
        Table target = planSealedRun();
        moves.moveAllWithTags(0, 0);
        for (int move = 0; move < 4; move++) {
            assertEquals(0, fixture.tx.tagMoveId(move), "published: done");
        }
        assertEquals(store, source.store(), "not moved whole");
        assertEquals(6, source.count());
        for (int i = 0; i < ids.length; i++) {
            assertAt(i < 4 ? target : source, ids[i], i);
        }
    }

    /** The entities of a table's rows, in row order. */
    private static List<Long> rowsOf(Table table) {
        List<Long> entities = new ArrayList<>();
        for (int row = 0; row < table.count(); row++) {
            entities.add(table.entityAt(row));
        }
        return entities;
    }

    /**
     * Stages the addition of A to every third of 30 entities of one table and publishes it; with {@code observed},
     * an observer on the source sends every move down the one-by-one path. Returns the source's and the
     * destination's rows afterwards, as slots, and how many structural changes each table counted.
     */
    private List<Object> publishEveryThird(boolean observed) {
        try (DrainFixture f = new DrainFixture()) {
            long[] ids = new long[30];
            for (int i = 0; i < ids.length; i++) {
                ids[i] = f.stageSpawn(HP.of(i));
            }
            f.drain.drain();
            Table source = f.tableOf(ids[0]);
            if (observed) {
                source.addObserver(new EntityObserver() {});
            }
            long sourceChanges = source.dirty().structuralCount();
            for (int i = 0; i < ids.length; i += 3) {
                f.tx.stageTagMove(ids[i], Entity.slot(ids[i]), A, true, f.tableOf(ids[i]));
            }
            f.drain.drain();
            Table target = f.tableOf(ids[0]);
            assertTrue(target.has(A.id()));
            for (int i = 0; i < ids.length; i++) {
                Table table = f.tableOf(ids[i]);
                assertSame(i % 3 == 0 ? target : source, table, "entity " + i);
                assertEquals(ids[i], table.entityAt(f.index.rowOf(Entity.slot(ids[i]))), "indexed " + i);
                assertEquals(i, (Integer) table.readValue(table.position(HP.id()), f.index.rowOf(Entity.slot(ids[i]))));
            }
            assertEquals(10, target.dirty().writeCount(target.position(A.id())), "the tag marked once per entity");
            return List.of(rowsOf(source), rowsOf(target), source.dirty().structuralCount() - sourceChanges,
                    target.dirty().structuralCount());
        }
    }

    @Test
    void aRunOfTagMovesFromPartOfATableLeavesEveryRowWhereOneByOneMovesWouldAndCountsOneChangePerTable() {
        List<Object> together = publishEveryThird(false);
        List<Object> alone = publishEveryThird(true);
        assertEquals(alone.get(0), together.get(0), "the source's rows, in order");
        assertEquals(alone.get(1), together.get(1), "the destination's rows, in order");
        assertEquals(10L, alone.get(2), "one by one: a change per row that left");
        assertEquals(1L, together.get(2), "together: one change for the run");
        assertEquals(1L, together.get(3), "and one for the destination");
    }

    @Test
    void asManyMovesAsTheTableHasRowsButTwoChangesAreNoWholeTableMove() {
        long[] ids = publishedMany(2, 0);
        Table source = fixture.tableOf(ids[0]);
        fixture.tx.stageTagMove(ids[0], Entity.slot(ids[0]), A, true, source);
        fixture.tx.stageTagMove(ids[1], Entity.slot(ids[1]), C, true, source); // not one run: planned move by move
        fixture.drain.drain();
        assertTrue(fixture.tableOf(ids[0]).has(A.id()) && !fixture.tableOf(ids[0]).has(C.id()));
        assertTrue(fixture.tableOf(ids[1]).has(C.id()) && !fixture.tableOf(ids[1]).has(A.id()));
        assertIndexed(ids[0]);
        assertIndexed(ids[1]);
    }

    @Test
    void anEntityThatLeftItsTableBetweenPlanningAndMovingSplitsAPartialRun() {
        long[] ids = stageTagMovesAddingA(10, 6);
        Table source = fixture.tableOf(ids[0]);
        Table target = planSealedRun();
        kill(ids[2]); // in the middle of the run, after planning
        moves.moveAllWithTags(0, 0);
        assertFalse(fixture.index.isAlive(ids[2]));
        for (int i = 0; i < ids.length; i++) {
            if (i != 2) {
                assertAt(i < 6 ? target : source, ids[i], i);
            }
        }
        assertEquals(List.of(ids[0], ids[1], ids[3], ids[4], ids[5]), rowsOf(target), "call order");
    }

    @Test
    void aRunWhoseChangeLeavesItsEntitiesWhereTheyAreIsPlannedAsNothing() {
        long[] ids = stageTagMovesAddingA(3, 0);
        Table source = fixture.tableOf(ids[0]);
        for (long id : ids) {
            fixture.tx.stageTagMove(id, Entity.slot(id), A, false, source); // removes what none of them has
        }
        fixture.tx.seal();
        moves.startSegment(0, fixture.tx.sealedEnd());
        moves.startTags(3);
        assertTrue(moves.planRun(3));
        assertEquals(null, moves.runTarget(), "nothing to move");
        moves.moveAllWithTags(0, 0);
        for (long id : ids) {
            assertSame(source, fixture.tableOf(id));
            assertIndexed(id);
        }
        fixture.tx.recycle();
        assertTrue(fixture.tx.isEmpty());
    }

    @Test
    void aRunOfTagMovesWhoseRemovalRoomCannotGrowChangesNothing() {
        long[] ids = stageTagMovesAddingA(30, 0);
        Table source = fixture.tableOf(ids[0]);
        source.dirty().clear(); // from now on each swap-remove records its overwritten row: that needs room
        for (int i = 0; i < ids.length; i += 3) {
            fixture.tx.stageTagMove(ids[i], Entity.slot(ids[i]), A, true, source);
        }
        List<Long> before = rowsOf(source);
        planSealedTagMoves();
        Table target = fixture.registry.withAdded(source, A);
        AllocationFaults.failAt(AllocationFaults.Kind.HEAP, 1);
        try {
            assertThrows(OutOfMemoryError.class, () -> moves.moveAllWithTags(0, 0));
        } finally {
            AllocationFaults.disarm();
        }
        assertEquals(before, rowsOf(source), "no row moved");
        assertEquals(0, target.count());
        for (long id : ids) {
            assertIndexed(id);
        }
        fixture.tx.recycle();
    }

    @Test
    void aRunOfTagMovesStopsAtAMoveThatCarriesAValueOrComesFromAnotherTableAndValueMovesGoOneByOne() {
        long[] ids = publishedMany(8, 0); // ids[6] and ids[7] stay: no run is the whole table
        long[] others = publishedMany(2, 100, MASS.of(new Mass(1)));
        Table source = fixture.tableOf(ids[0]);
        fixture.tx.stageTagMove(ids[0], Entity.slot(ids[0]), A, true, source);
        fixture.tx.stageTagMove(ids[1], Entity.slot(ids[1]), A, true, source);
        fixture.tx.stageValueMove(ids[2], Entity.slot(ids[2]), SPEED.of(9), source); // carries a value
        fixture.tx.stageTagMove(others[0], Entity.slot(others[0]), A, true, fixture.tableOf(others[0]));
        fixture.tx.stageTagMove(ids[3], Entity.slot(ids[3]), A, true, source);
        fixture.tx.stageValueMove(ids[4], Entity.slot(ids[4]), SPEED.of(10), source); // two value moves with one
        fixture.tx.stageValueMove(ids[5], Entity.slot(ids[5]), SPEED.of(11), source); // destination: one by one
        fixture.drain.drain();
        for (int i = 4; i <= 5; i++) {
            Table speedy = fixture.tableOf(ids[i]);
            assertEquals(i + 6, speedy.readValue(speedy.position(SPEED.id()), fixture.index.rowOf(Entity.slot(ids[i]))));
        }
        Table withA = fixture.tableOf(ids[0]);
        assertTrue(withA.has(A.id()));
        assertEquals(List.of(ids[0], ids[1], ids[3]), rowsOf(withA), "call order");
        assertEquals(9, fixture.tableOf(ids[2]).readValue(fixture.tableOf(ids[2]).position(SPEED.id()),
                fixture.index.rowOf(Entity.slot(ids[2]))));
        assertTrue(fixture.tableOf(others[0]).has(A.id()));
        for (long id : ids) {
            assertIndexed(id);
        }
        assertIndexed(others[0]);
        assertIndexed(others[1]);
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
            assertAt(target, ids[i], i);
        }
        assertEquals(-1, hp(settled));
        // and back: removals take every row of the tagged table to the untagged one, now empty
        Table tagged = target;
        fixture.tx.stageTagMove(settled, Entity.slot(settled), A, false, fixture.tableOf(settled));
        for (long id : ids) {
            fixture.tx.stageTagMove(id, Entity.slot(id), A, false, fixture.tableOf(id));
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
            fixture.tx.stageTagMove(ids[i], Entity.slot(ids[i]), A, true, fixture.tableOf(ids[i]));
        }
        int sourceStore = source.store();
        fixture.drain.drain();
        assertEquals(25, source.count());
        assertEquals(sourceStore, source.store(), "no exchange");
        Table target = fixture.tableOf(ids[0]);
        assertEquals(25, target.count());
        for (int i = 0; i < ids.length; i++) {
            assertAt((i & 1) == 0 ? target : source, ids[i], i);
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
        fixture.tx.stageTagMove(ids[2], Entity.slot(ids[2]), A, true, fixture.tableOf(ids[2]));
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
        fixture.tx.stageTagMove(ids[0], Entity.slot(ids[0]), A, true, fixture.tableOf(ids[0]));
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
        fixture.tx.stageTagMove(ids[2], Entity.slot(ids[2]), A, true, fixture.tableOf(ids[2])); // the slots take new work
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
        fixture.tx.stageTagMove(ids[1], Entity.slot(ids[1]), B, true, fixture.tableOf(ids[1]));
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
            fixture.tx.stageTagMove(id, Entity.slot(id), A, true, fixture.tableOf(id));
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

    /** A world whose every archetype has an entity observer when {@code observed}: every move then goes alone. */
    private static dev.jtecs.world.World differentialWorld(boolean observed) {
        dev.jtecs.world.World world = dev.jtecs.world.World.create();
        if (observed) {
            world.observe(0, dev.jtecs.event.ArchetypeCreated.class,
                    created -> created.archetype().addEntityObserver(new EntityObserver() {}));
        }
        return world;
    }

    /**
     * The short paths of tag moves (one run planned at once, whole-table moves, partial runs row by row, quiet
     * despawns) against the paths every move takes when each archetype is observed: the same random scopes of
     * tag changes, removals, value changes, despawns and spawns, over entities of three archetypes, each followed
     * by a few of the same calls with no scope open (which the plain world moves at once,
     * {@link MovePlacement#moveAtOnce}), leave every entity with the same components and values. Fixed seeds, named
     * in each failure.
     */
    @Test
    void theShortPathsOfTagMovesEndWhereTheOneByOnePathsEnd() {
        for (long seed = 1; seed <= 40; seed++) {
            java.util.SplittableRandom random = new java.util.SplittableRandom(seed);
            java.util.SplittableRandom instant = new java.util.SplittableRandom(-seed); // the scopes' draws stay
            try (dev.jtecs.world.World fast = differentialWorld(false);
                    dev.jtecs.world.World slow = differentialWorld(true)) {
                List<Long> ids = new ArrayList<>();
                for (int i = 0; i < 90; i++) {
                    List<dev.jtecs.component.Input> inputs = new ArrayList<>(List.of(HP.of(i)));
                    if (i % 3 == 1) {
                        inputs.add(A);
                    } else if (i % 3 == 2) {
                        inputs.add(C);
                    }
                    long id = fast.spawn(inputs.toArray(new dev.jtecs.component.Input[0]));
                    assertEquals(id, slow.spawn(inputs.toArray(new dev.jtecs.component.Input[0])), "seed " + seed);
                    ids.add(id);
                }
                for (int round = 0; round < 12; round++) {
                    fast.defer();
                    slow.defer();
                    int from = random.nextInt(ids.size());
                    int stride = 1 + random.nextInt(4);
                    int count = random.nextInt(ids.size());
                    dev.jtecs.component.TagComponent tag = random.nextBoolean() ? A : C;
                    boolean add = random.nextInt(3) != 0;
                    for (int k = 0; k < count; k++) {
                        long id = ids.get((from + k * stride) % ids.size());
                        int other = random.nextInt(40);
                        for (dev.jtecs.world.World world : List.of(fast, slow)) {
                            if (!world.isAlive(id)) {
                                continue;
                            }
                            if (other == 0) {
                                world.despawn(id);
                            } else if (other == 1) {
                                world.set(id, SPEED.of(k)); // a value move, alone in the run
                            } else if (other == 2) {
                                world.set(id, HP.of(1000 + k)); // a write-through
                            } else if (add) {
                                world.set(id, tag);
                            } else {
                                world.remove(id, tag);
                            }
                        }
                    }
                    if (random.nextInt(4) == 0) {
                        long fresh = fast.spawn(HP.of(-round), A);
                        assertEquals(fresh, slow.spawn(HP.of(-round), A), "seed " + seed + " round " + round);
                        ids.add(fresh);
                    }
                    fast.commit();
                    slow.commit();
                    // then a few calls with no scope open: the fast world moves the plain ones at once
                    for (int k = instant.nextInt(12); k > 0; k--) {
                        long id = ids.get(instant.nextInt(ids.size()));
                        int what = instant.nextInt(10);
                        dev.jtecs.component.TagComponent instantTag = instant.nextBoolean() ? A : C;
                        for (dev.jtecs.world.World world : List.of(fast, slow)) {
                            if (!world.isAlive(id)) {
                                continue;
                            }
                            if (what == 0) {
                                world.despawn(id);
                            } else if (what == 1) {
                                world.set(id, SPEED.of(-k)); // a value move
                            } else if (what == 2) {
                                world.remove(id, SPEED); // a value component leaving
                            } else if (what < 6) {
                                world.set(id, instantTag);
                            } else {
                                world.remove(id, instantTag);
                            }
                        }
                    }
                    for (long id : ids) {
                        String at = "seed " + seed + " round " + round + " entity " + Entity.toString(id);
                        assertEquals(slow.isAlive(id), fast.isAlive(id), at);
                        if (fast.isAlive(id)) {
                            assertEquals(slow.has(id, A), fast.has(id, A), at);
                            assertEquals(slow.has(id, C), fast.has(id, C), at);
                            assertEquals(slow.get(id, HP), fast.get(id, HP), at);
                            assertEquals(slow.get(id, SPEED), fast.get(id, SPEED), at);
                        }
                    }
                }
            }
        }
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

    // ---------------------------------------------------------------- plans, runs and failures (issue 27)

    record Counted(int n) {}

    static final AtomicInteger FACTORY_CALLS = new AtomicInteger();
    /** A native component whose default comes from a factory (which counts its calls). */
    static final NativeComponent<Counted> COUNTED = Components.registerNative(Counted.class,
            o -> o.name("test.moveplace.Counted").defaults(() -> new Counted(1000 + FACTORY_CALLS.incrementAndGet())));

    record Mass(float kg) {}

    /** A native component without a factory: its default is all zero. */
    static final NativeComponent<Mass> MASS = Components.registerNative(Mass.class, o -> o.name("test.moveplace.Mass"));

    record Label(String text) {}

    /** A managed component whose default comes from a factory (which counts its calls). */
    static final ManagedComponent<Label> LABEL = Components.registerManaged(Label.class,
            o -> o.name("test.moveplace.Label").defaults(() -> {
                FACTORY_CALLS.incrementAndGet();
                return new Label("default");
            }));

    /** A tag whose requirement brings {@code COUNTED} with a value of its own. */
    static final TagComponent NEEDY = Components.tag("test.moveplace.Needy", o -> o.requires(COUNTED.of(new Counted(50))));

    static final Relationship FOLLOWS = Relationships.register("test.moveplace.Follows", o -> o.sparse());
    static final Relationship LIKES = Relationships.register("test.moveplace.Likes");

    /** A record whose accessor throws while {@code failing} is set: user code failing as the drain reads it. */
    record Brittle(float v) {
        static boolean failing;

        @Override
        public float v() {
            if (failing) {
                throw new IllegalStateException("accessor failed");
            }
            return v;
        }
    }

    static final NativeComponent<Brittle> BRITTLE = Components.registerNative(Brittle.class,
            o -> o.name("test.moveplace.Brittle"));

    /** Publishes {@code n} entities with {@code HP = base + i} and these other inputs (one table). */
    private long[] publishedMany(int n, int base, dev.jtecs.component.Input... others) {
        long[] ids = new long[n];
        for (int i = 0; i < n; i++) {
            dev.jtecs.component.Input[] inputs = new dev.jtecs.component.Input[others.length + 1];
            inputs[0] = HP.of(base + i);
            System.arraycopy(others, 0, inputs, 1, others.length);
            ids[i] = fixture.stageSpawn(inputs);
        }
        fixture.drain.drain();
        return ids;
    }

    /** Opens a record for a published entity with these entries (a {@code null} input: a removal). */
    private int record(long id, Object... componentsAndInputs) {
        int record = fixture.tx.begin(id, Entity.slot(id), TxState.STAGED_MUTATE);
        for (int i = 0; i < componentsAndInputs.length; i += 2) {
            fixture.tx.put(record, (dev.jtecs.component.Component<?>) componentsAndInputs[i],
                    (dev.jtecs.component.Input) componentsAndInputs[i + 1]);
        }
        return record;
    }

    /** A query batch that selects nothing: a boundary, so the records staged after it form a second segment. */
    private void stageBoundary(DrainFixture on) {
        on.tx.addOp(BatchOp.query(BatchOp.Kind.REMOVE, new Table[0], new long[0][], new long[0], new int[0], B, null,
                null, on.tx));
    }

    private <T> T value(long id, dev.jtecs.component.Component<T> component) {
        Table table = fixture.tableOf(id);
        @SuppressWarnings("unchecked")
        T value = (T) table.readValue(table.position(component.id()), fixture.index.rowOf(Entity.slot(id)));
        return value;
    }

    /** Kills an entity behind the drain's back (no record, no event), as an earlier segment's despawn would. */
    private void kill(long id) {
        int slot = Entity.slot(id);
        CommitDrain.detachRow(fixture.index, fixture.tableOf(id), fixture.index.rowOf(slot));
        fixture.index.free(slot);
    }

    @Test
    void theRecordsOfASecondSegmentMoveByTheirOwnPlans() {
        long[] first = publishedMany(42, 0, B); // 40 of 42 rows change: moved one by one
        long[] whole = publishedMany(40, 1000); // every row changes: moved as one run
        long dead = publishedMany(1, 5000, MASS.of(new Mass(1)))[0];
        for (int i = 0; i < 40; i++) {
            record(first[i], A, A);
        }
        stageBoundary(fixture);
        Table wholeSource = fixture.tableOf(whole[0]);
        int wholeStore = wholeSource.store();
        for (int i = 0; i < whole.length; i++) {
            record(whole[i], A, A, HP, HP.of(2000 + i));
        }
        record(first[40], A, A, HP, HP.of(-40)); // after the run: alone (first[41] stays)
        record(dead, A, A);
        kill(dead); // its record lapses in the second segment (index 81 of the wave)
        fixture.drain.drain();
        Table withA = fixture.tableOf(whole[0]);
        assertEquals(wholeStore, withA.store(), "the second segment's run moved whole (its plan was found)");
        for (int i = 0; i < whole.length; i++) {
            assertSame(withA, fixture.tableOf(whole[i]));
            assertEquals(2000 + i, hp(whole[i]));
            assertIndexed(whole[i]);
        }
        for (int i = 0; i < 40; i++) {
            assertTrue(fixture.tableOf(first[i]).has(A.id()) && fixture.tableOf(first[i]).has(B.id()));
            assertEquals(i, hp(first[i]));
            assertIndexed(first[i]);
        }
        assertSame(fixture.tableOf(first[0]), fixture.tableOf(first[40]));
        assertEquals(-40, hp(first[40]));
        assertIndexed(first[40]);
        assertFalse(fixture.tableOf(first[41]).has(A.id()));
        assertIndexed(first[41]);
        assertFalse(fixture.index.isAlive(dead));
        assertTrue(fixture.tx.isEmpty());
    }

    @Test
    void aFailedWaveStillLandsTheSparseWritesOfTheRecordsItPublished() {
        List<String> applied = new ArrayList<>();
        try (DrainFixture f = new DrainFixture(new DrainHooks() {
            @Override
            public void applySparse(long entity, byte op, dev.jtecs.component.BaseRelationship<?> relationship,
                    long target, Object payload) {
                applied.add(entity + " -> " + target);
            }
        })) {
            long inPlace = f.stageSpawn(HP.of(1));
            long moved = f.stageSpawn(HP.of(2));
            long failing = f.stageSpawn(HP.of(3));
            long[] run = {f.stageSpawn(HP.of(4), B), f.stageSpawn(HP.of(5), B), f.stageSpawn(HP.of(6), B)};
            f.drain.drain();
            int r = f.tx.begin(inPlace, Entity.slot(inPlace), TxState.STAGED_MUTATE);
            f.tx.put(r, HP, HP.of(10)); // written in place
            f.sparse.stage(inPlace, SparseWriteQueue.ADD, FOLLOWS, 71, null, f.tx.openOps());
            r = f.tx.begin(moved, Entity.slot(moved), TxState.STAGED_MUTATE);
            f.tx.put(r, A, A); // moved alone
            f.sparse.stage(moved, SparseWriteQueue.ADD, FOLLOWS, 72, null, f.tx.openOps());
            for (long id : run) { // every row of their table: moved as one run
                r = f.tx.begin(id, Entity.slot(id), TxState.STAGED_MUTATE);
                f.tx.put(r, A, A);
            }
            f.sparse.stage(run[1], SparseWriteQueue.ADD, FOLLOWS, 73, null, f.tx.openOps());
            r = f.tx.begin(failing, Entity.slot(failing), TxState.STAGED_MUTATE);
            f.tx.put(r, CURSED, CURSED); // its default throws: the wave fails after the others published
            f.sparse.stage(failing, SparseWriteQueue.ADD, FOLLOWS, 74, null, f.tx.openOps());
            assertThrows(IllegalStateException.class, f.drain::drain);
            assertEquals(List.of(inPlace + " -> 71", moved + " -> 72", run[1] + " -> 73"), applied,
                    "the published rows get their edges; the failed one's write goes");
            assertTrue(f.tableOf(run[1]).has(A.id()));
            assertFalse(f.tableOf(failing).has(CURSED.id()));
            assertFalse(f.drain.hasWork());
        }
    }

    @Test
    void requirementValuesLandOnlyInTheRowWhoseRecordPlannedThem() {
        long[] plain = publishedMany(2, 0); // two rows: neither record's move is a whole-table run
        long[] counted = publishedMany(2, 10, COUNTED.of(new Counted(5)));
        int calls = FACTORY_CALLS.get();
        int valued = record(plain[1], COUNTED, COUNTED.of(new Counted(77))); // first entry of the wave
        int needy = record(plain[0], NEEDY, NEEDY); // its requirement brings COUNTED = 50
        int other = record(counted[0], A, A); // planned after it, needs no requirement
        assertEquals(List.of(0, 1, 2), List.of(valued, needy, other));
        fixture.drain.drain();
        assertEquals(calls, FACTORY_CALLS.get(), "no default made: every new value was staged or required");
        assertEquals(new Counted(77), value(plain[1], COUNTED));
        assertEquals(new Counted(50), value(plain[0], COUNTED), "the requirement's value");
        assertTrue(fixture.tableOf(plain[0]).has(NEEDY.id()));
        Table needyTable = fixture.tableOf(plain[0]);
        assertEquals(1, needyTable.dirty().writeCount(needyTable.position(COUNTED.id())), "the requirement's write is marked");
        assertEquals(new Counted(5), value(counted[0], COUNTED), "not the other record's requirement value");
        assertTrue(fixture.tableOf(counted[0]).has(A.id()));
        assertEquals(new Counted(5), value(counted[1], COUNTED));
    }

    /** A tag whose requirement brings a sparse edge (its marker comes with it). */
    static final TagComponent LEADS = Components.tag("test.moveplace.Leads", o -> o.requires(FOLLOWS.to(99)));

    @Test
    void aRequiredSparseEdgeOfAMovedRowLandsWithItsRequire() {
        List<String> applied = new ArrayList<>();
        try (DrainFixture f = new DrainFixture(new DrainHooks() {
            @Override
            public void applySparse(long entity, byte op, dev.jtecs.component.BaseRelationship<?> relationship,
                    long target, Object payload) {
                applied.add((op == SparseWriteQueue.ADD ? "add " : "op " + op + " ") + target + " of " + entity);
            }
        })) {
            long e = f.stageSpawn(HP.of(1));
            f.drain.drain();
            int r = f.tx.begin(e, Entity.slot(e), TxState.STAGED_MUTATE);
            f.tx.put(r, LEADS, LEADS); // the requirement adds the marker: the move plans the edge
            f.sparse.stage(e, SparseWriteQueue.REQUIRE, FOLLOWS, 99, null, f.tx.openOps()); // as Staging queues it
            f.drain.drain();
            assertTrue(f.tableOf(e).has(LEADS.id()) && f.tableOf(e).has(FOLLOWS.id()));
            assertEquals(List.of("add 99 of " + e), applied, "the planned requirement let its REQUIRE through");
        }
    }

    @Test
    void aSegmentOfRecordsForAllButOneRowOfATableEndsItsRunSearchAtTheSegmentsEnd() {
        long[] ids = publishedMany(64, 0); // two spawn waves, neither over 64 records: the wave's arrays stay at 64
        long kept = publishedMany(1, 64)[0];
        Table source = fixture.tableOf(kept);
        int store = source.store();
        for (int i = 0; i < ids.length; i++) {
            record(ids[i], A, A, HP, HP.of(100 + i)); // 64 records, the segment's last one ends the search
        }
        fixture.drain.drain();
        assertEquals(store, source.store(), "not the whole table: one by one");
        assertEquals(1, source.count());
        for (int i = 0; i < ids.length; i++) {
            assertTrue(fixture.tableOf(ids[i]).has(A.id()));
            assertEquals(100 + i, hp(ids[i]));
            assertIndexed(ids[i]);
        }
        assertIndexed(kept);
    }

    @Test
    void aWriteInPlaceIsMarkedOncePerRecord() {
        long[] ids = publishedMany(2, 0);
        Table table = fixture.tableOf(ids[0]);
        int position = table.position(HP.id());
        long before = table.dirty().writeCount(position);
        record(ids[0], HP, HP.of(7));
        record(ids[1], HP, HP.of(8));
        fixture.drain.drain();
        assertEquals(before + 2, table.dirty().writeCount(position));
        assertEquals(7, hp(ids[0]));
        assertEquals(8, hp(ids[1]));
    }

    @Test
    void aWholeTableRunMarksEachWrittenColumnOnce() {
        long[] ids = publishedMany(5, 0);
        Table source = fixture.tableOf(ids[0]);
        int store = source.store();
        for (int i = 0; i < ids.length; i++) {
            record(ids[i], A, A, HP, HP.of(50 + i)); // HP is the target's column 0
        }
        fixture.drain.drain();
        Table target = fixture.tableOf(ids[0]);
        assertEquals(store, target.store(), "moved whole");
        assertEquals(0, target.position(HP.id()));
        assertEquals(1, target.dirty().writeCount(target.position(HP.id())), "once for the run");
        assertEquals(1, target.dirty().writeCount(target.position(A.id())), "once for the run");
        for (int i = 0; i < ids.length; i++) {
            assertEquals(50 + i, hp(ids[i]));
        }
    }

    /** Stages, for every row of a table of {@code n}, a record adding {@code component} with its own value. */
    private long[] stageValues(int n, dev.jtecs.component.Component<?> component,
            java.util.function.IntFunction<dev.jtecs.component.Input> value, dev.jtecs.component.Input... others) {
        long[] ids = publishedMany(n, 0, others);
        for (int i = 0; i < n; i++) {
            record(ids[i], A, A, component, value.apply(i));
        }
        return ids;
    }

    @Test
    void aRunWhoseNewColumnsHaveDefaultFactoriesMovesRecordByRecordAndMakesNoDefault() {
        long[] managed = stageValues(3, LABEL, i -> LABEL.of(new Label("m" + i)));
        int calls = FACTORY_CALLS.get();
        fixture.drain.drain();
        assertEquals(calls, FACTORY_CALLS.get(), "a staged value needs no default");
        for (int i = 0; i < managed.length; i++) {
            assertEquals(new Label("m" + i), value(managed[i], LABEL));
        }
        long[] nativeWithFactory = stageValues(3, COUNTED, i -> COUNTED.of(new Counted(i)), MASS.of(new Mass(0)));
        calls = FACTORY_CALLS.get();
        fixture.drain.drain();
        assertEquals(calls, FACTORY_CALLS.get(), "a staged value needs no default");
        for (int i = 0; i < nativeWithFactory.length; i++) {
            assertEquals(new Counted(i), value(nativeWithFactory[i], COUNTED));
        }
    }

    @Test
    void aRunWhoseNewColumnsCannotFailMovesWhole() {
        long[] ids = publishedMany(4, 0);
        int store = fixture.tableOf(ids[0]).store();
        for (int i = 0; i < ids.length; i++) {
            record(ids[i], A, A, MASS, MASS.of(new Mass(i))); // a native without a factory: zero default
        }
        fixture.drain.drain();
        assertEquals(store, fixture.tableOf(ids[0]).store(), "moved whole");
        for (int i = 0; i < ids.length; i++) {
            assertEquals(new Mass(i), value(ids[i], MASS));
        }
        // a managed column the rows already have takes its staged values whole too: no default is made
        long[] labelled = publishedMany(3, 0, LABEL.of(new Label("old")));
        store = fixture.tableOf(labelled[0]).store();
        for (int i = 0; i < labelled.length; i++) {
            record(labelled[i], A, A, LABEL, LABEL.of(new Label("new" + i)));
        }
        int calls = FACTORY_CALLS.get();
        fixture.drain.drain();
        assertEquals(calls, FACTORY_CALLS.get());
        assertEquals(store, fixture.tableOf(labelled[0]).store(), "moved whole");
        for (int i = 0; i < labelled.length; i++) {
            assertEquals(new Label("new" + i), value(labelled[i], LABEL));
        }
    }

    static final TagComponent[] NINE = new TagComponent[9];

    static {
        for (int i = 0; i < NINE.length; i++) {
            NINE[i] = Components.tag("test.moveplace.Nine" + i);
        }
    }

    @Test
    void aRunOfRecordsWithManyEntriesMovesWholeWithEveryValue() {
        long[] ids = publishedMany(3, 0);
        int store = fixture.tableOf(ids[0]).store();
        for (int i = 0; i < ids.length; i++) {
            int record = record(ids[i]);
            for (TagComponent tag : NINE) {
                fixture.tx.put(record, tag, tag);
            }
            fixture.tx.put(record, HP, HP.of(30 + i)); // the tenth entry
        }
        fixture.drain.drain();
        Table target = fixture.tableOf(ids[0]);
        assertEquals(store, target.store(), "moved whole");
        for (TagComponent tag : NINE) {
            assertTrue(target.has(tag.id()));
        }
        for (int i = 0; i < ids.length; i++) {
            assertEquals(30 + i, hp(ids[i]));
        }
    }

    @Test
    void recordsStagingOtherEntriesOrEntriesInAnotherOrderMoveOneByOneWithTheirOwnValues() {
        long[] ids = publishedMany(3, 0);
        int store = fixture.tableOf(ids[0]).store();
        record(ids[0], A, A, HP, HP.of(7));
        record(ids[1], HP, HP.of(8), A, A); // the same change, entries in another order
        record(ids[2], A, A, HP, HP.of(9));
        fixture.drain.drain();
        assertEquals(List.of(7, 8, 9), List.of(hp(ids[0]), hp(ids[1]), hp(ids[2])));
        assertSame(fixture.tableOf(ids[0]), fixture.tableOf(ids[2]));
        long[] more = publishedMany(3, 100);
        Table source = fixture.tableOf(more[0]);
        store = source.store();
        record(more[0], B, B, HP, HP.of(7));
        record(more[1], B, B); // fewer entries: not the run's
        record(more[2], B, B, HP, HP.of(9));
        fixture.drain.drain();
        assertNotEquals(store, fixture.tableOf(more[0]).store());
        assertEquals(List.of(7, 101, 9), List.of(hp(more[0]), hp(more[1]), hp(more[2])));
        assertEquals(store, source.store(), "moved one by one: the source kept its store");
        assertEquals(0, source.count());
    }

    @Test
    void aRunIntoAPopulatedTableRelocatesMoreEntitiesThanOneScratchChunk() {
        fixture.close();
        fixture = new DrainFixture(DrainHooks.NONE, 6000); // room for the rows; this test only drains (closed after it)
        long settled = fixture.stageSpawn(HP.of(-1), A);
        fixture.drain.drain();
        long[] ids = publishedMany(5000, 0);
        for (long id : ids) {
            record(id, A, A);
        }
        fixture.drain.drain();
        Table target = fixture.tableOf(settled);
        assertEquals(5001, target.count());
        for (int i = 0; i < ids.length; i++) {
            assertIndexed(ids[i]);
            assertEquals(i, hp(ids[i]));
        }
        fixture.tx.stageTagMove(settled, Entity.slot(settled), B, true, fixture.tableOf(settled));
        for (long id : ids) {
            fixture.tx.stageTagMove(id, Entity.slot(id), B, true, fixture.tableOf(id));
        }
        long settledB = fixture.stageSpawn(HP.of(-2), A, B);
        fixture.drain.drain(); // the spawn lands first: the tag moves' target is populated
        Table withB = fixture.tableOf(settledB);
        assertEquals(5002, withB.count());
        for (long id : ids) {
            assertSame(withB, fixture.tableOf(id));
            assertIndexed(id);
        }
    }

    @Test
    void aFailedRowMoveReportsTheRowBackToTheSourcesObservers() {
        long[] ids = publishedMany(3, 0);
        Table before = fixture.tableOf(ids[0]);
        List<String> heard = new ArrayList<>();
        before.addObserver(new EntityObserver() {
            @Override
            public void onEntitiesAdded(Archetype archetype, int fromRow, int toRow, Archetype other) {
                heard.add("added back " + fromRow + ".." + toRow);
            }

            @Override
            public void onEntitiesRemoved(Archetype archetype, int fromRow, int toRow, Archetype other) {
                heard.add("removed " + fromRow + ".." + toRow);
            }
        });
        record(ids[1], CURSED, CURSED);
        assertThrows(IllegalStateException.class, fixture.drain::drain);
        assertEquals(List.of("removed 1..2", "added back 1..2"), heard);
        assertSame(before, fixture.tableOf(ids[1]));
        assertIndexed(ids[1]);
        heard.clear();
        fixture.tx.stageValueMove(ids[2], Entity.slot(ids[2]), BRITTLE.of(new Brittle(4)), fixture.tableOf(ids[2]));
        Brittle.failing = true;
        try {
            assertThrows(IllegalStateException.class, fixture.drain::drain);
        } finally {
            Brittle.failing = false;
        }
        assertEquals(List.of("removed 2..3", "added back 2..3"), heard, "a value move the same");
        assertSame(before, fixture.tableOf(ids[2]));
        assertEquals(0, fixture.registry.withAdded(before, BRITTLE).count());
        assertIndexed(ids[2]);
    }

    @Test
    void aRecordsMoveAllocatesWhatTheRemovalNeedsBeforeObserversHearOfIt() {
        long[] ids = publishedMany(3, 0);
        Table source = fixture.tableOf(ids[0]);
        source.dirty().clear(); // a later swap-remove records its overwritten row: that record needs room
        List<String> heard = new ArrayList<>();
        source.addObserver(new EntityObserver() {
            @Override
            public void onEntitiesRemoved(Archetype archetype, int fromRow, int toRow, Archetype other) {
                heard.add("removed");
            }
        });
        int record = record(ids[0], A, A);
        fixture.tx.seal();
        moves.startSegment(record, record + 1);
        Table target = moves.plan(record, source);
        target.ensureCapacity(1);
        AllocationFaults.failAt(AllocationFaults.Kind.HEAP, 1);
        try {
            assertThrows(OutOfMemoryError.class, () -> moves.move(record));
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
        fixture.tx.recycle();
    }

    @Test
    void everyPublishedOrLapsedTagMoveReadsDone() {
        long[] alone = publishedMany(2, 10, B);
        long dead = publishedMany(1, 20, MASS.of(new Mass(1)))[0];
        long[] ids = stageTagMovesAddingA(3, 3); // a whole-table run
        fixture.tx.stageTagMove(alone[0], Entity.slot(alone[0]), A, true, fixture.tableOf(alone[0])); // one of two rows: alone
        fixture.tx.stageTagMove(dead, Entity.slot(dead), A, true, fixture.tableOf(dead));
        kill(dead); // lapses at planning
        planSealedTagMoves();
        moves.moveAllWithTags(0, 0);
        for (int move = 0; move < 5; move++) {
            assertEquals(0, fixture.tx.tagMoveId(move), "move " + move);
        }
        fixture.tx.recycle();
        for (long id : ids) {
            assertTrue(fixture.tableOf(id).has(A.id()));
            assertIndexed(id);
        }
        assertTrue(fixture.tableOf(alone[0]).has(A.id()));
        assertFalse(fixture.tableOf(alone[1]).has(A.id()));
    }

    @Test
    void aRecordRunStopsAtATagMoveStagedAmongItsRecords() {
        long[] ids = publishedMany(4, 0); // {HP}
        long other = publishedMany(1, 100, A, B)[0]; // {HP, A, B}: removing B takes it where the records go
        record(ids[0], A, A);
        record(ids[1], A, A);
        fixture.tx.stageTagMove(other, Entity.slot(other), B, false, fixture.tableOf(other)); // staged between the records
        record(ids[2], A, A);
        record(ids[3], A, A);
        fixture.drain.drain();
        Table target = fixture.tableOf(ids[0]);
        assertSame(target, fixture.tableOf(other));
        assertEquals(List.of(ids[0], ids[1], other), List.of(target.entityAt(0), target.entityAt(1),
                target.entityAt(2)), "the tag move publishes after the records begun before it, before the others");
        for (int i = 0; i < ids.length; i++) {
            assertIndexed(ids[i]);
            assertEquals(i, hp(ids[i]));
        }
        assertIndexed(other);
    }

    @Test
    void aRecordRunAfterTheWavesLastTagMoveMovesWhole() {
        long[] ids = publishedMany(4, 0);
        long other = publishedMany(1, 100, B)[0];
        int store = fixture.tableOf(ids[0]).store();
        fixture.tx.stageTagMove(other, Entity.slot(other), A, true, fixture.tableOf(other)); // before any record
        for (long id : ids) {
            record(id, A, A);
        }
        fixture.drain.drain();
        Table target = fixture.tableOf(ids[0]);
        assertEquals(store, target.store(), "moved whole");
        assertTrue(fixture.tableOf(other).has(A.id()));
        for (long id : ids) {
            assertIndexed(id);
        }
    }

    @Test
    void tagMovesStagedBeforeARecordMoveWholeBeforeIt() {
        long[] ids = publishedMany(4, 0);
        long[] others = publishedMany(2, 100, B);
        int store = fixture.tableOf(ids[0]).store();
        record(others[0], MASS, MASS.of(new Mass(3))); // record 0: the tag moves below are staged after it began
        for (long id : ids) {
            fixture.tx.stageTagMove(id, Entity.slot(id), A, true, fixture.tableOf(id)); // they publish before record 1
        }
        record(others[1], MASS, MASS.of(new Mass(4))); // record 1
        fixture.drain.drain();
        Table target = fixture.tableOf(ids[0]);
        assertEquals(store, target.store(), "the tag moves before record 1 moved as one run");
        for (long id : ids) {
            assertIndexed(id);
            assertTrue(fixture.tableOf(id).has(A.id()));
        }
        assertEquals(new Mass(3), value(others[0], MASS));
        assertEquals(new Mass(4), value(others[1], MASS));
    }

    @Test
    void aRunOfValueMovesDoesNotWriteTheValueOfTheMoveAfterIt() {
        long settled = fixture.stageSpawn(HP.of(-1), MASS.of(new Mass(-1)));
        fixture.drain.drain();
        long[] ids = publishedMany(3, 0);
        long[] others = publishedMany(4, 10, B);
        for (int i = 0; i < ids.length; i++) {
            fixture.tx.stageValueMove(ids[i], Entity.slot(ids[i]), MASS.of(new Mass(i)), fixture.tableOf(ids[i]));
        }
        // the next move's entity is in row 1 of its own table: the run's rows are 1..3 of the populated target
        fixture.tx.stageValueMove(others[1], Entity.slot(others[1]), MASS.of(new Mass(99)), fixture.tableOf(others[1]));
        fixture.drain.drain();
        for (int i = 0; i < ids.length; i++) {
            assertEquals(new Mass(i), value(ids[i], MASS), "entity " + i);
        }
        assertEquals(new Mass(-1), value(settled, MASS));
        assertEquals(new Mass(99), value(others[1], MASS));
    }

    /**
     * A whole table of value moves staged out of row order: each value lands in its own entity's row. Values staged
     * in row order go in as one copy; these come in a run that goes down the rows, then in jumps. Into an empty
     * table (which takes the source's rows as they are) and into a populated one (which appends them).
     */
    @Test
    void aWholeRunOfValueMovesStagedOutOfRowOrderWritesEachValueInItsOwnRow() {
        int[] order = {7, 6, 5, 0, 2, 1, 4, 3};
        for (int round = 0; round < 2; round++) {
            long[] ids = publishedMany(order.length, 10 * round);
            Table source = fixture.tableOf(ids[0]);
            for (int i = 0; i < ids.length; i++) {
                assertEquals(i, fixture.index.rowOf(Entity.slot(ids[i])), "entity " + i + " starts in row " + i);
            }
            for (int i : order) {
                fixture.tx.stageValueMove(ids[i], Entity.slot(ids[i]), MASS.of(new Mass(100 * round + i)), source);
            }
            fixture.drain.drain();
            assertEquals(round == 0 ? 0 : order.length, fixture.index.rowOf(Entity.slot(ids[0])),
                    round == 0 ? "the empty table took the rows as they were" : "appended after the first round's");
            for (int i = 0; i < ids.length; i++) {
                assertEquals(new Mass(100 * round + i), value(ids[i], MASS), "round " + round + ", entity " + i);
                assertEquals(10 * round + i, value(ids[i], HP), "round " + round + ", entity " + i);
            }
        }
    }

    /**
     * A value move whose own growth failed leaves its value staged with no move referring to it. The whole run
     * around it still writes each entity its own value: values go in as one copy only while they follow each other
     * in the staged buffer as the rows do, and the abandoned one sits between two moves of consecutive rows.
     */
    @Test
    void aValueLeftByAMoveWhoseGrowthFailedIsWrittenToNoRow() {
        long[] ids = publishedMany(70, 0);
        Table source = fixture.tableOf(ids[0]);
        for (int i = 0; i < 64; i++) { // the moves' first room: 64
            fixture.tx.stageValueMove(ids[i], Entity.slot(ids[i]), MASS.of(new Mass(i)), source);
        }
        // the 65th value grows the staged values (the first heap growth) and is staged; the move's own arrays then
        // fail to grow (the second), so the move is not staged and its value is left behind
        AllocationFaults.failAt(AllocationFaults.Kind.HEAP, 2);
        try {
            assertThrows(OutOfMemoryError.class, () ->
                    fixture.tx.stageValueMove(ids[64], Entity.slot(ids[64]), MASS.of(new Mass(-1)), source));
        } finally {
            AllocationFaults.disarm();
        }
        assertEquals(63, fixture.tx.tagMoveStagedValue(63));
        for (int i = 64; i < ids.length; i++) {
            fixture.tx.stageValueMove(ids[i], Entity.slot(ids[i]), MASS.of(new Mass(i)), source);
        }
        assertEquals(65, fixture.tx.tagMoveStagedValue(64), "the abandoned value holds index 64");
        fixture.drain.drain();
        for (int i = 0; i < ids.length; i++) {
            assertEquals(new Mass(i), value(ids[i], MASS), "entity " + i);
        }
    }

    @Test
    void aWholeRunOfValueMovesWhoseValueThrowsLeavesTheDefaultNotWhatTheBufferHeld() {
        long[] old = publishedMany(13, 0, BRITTLE.of(new Brittle(5)));
        for (int i = 1; i < old.length; i++) { // 12 rows leave: rows 1..12 of the table still hold Brittle(5)
            fixture.tx.begin(old[i], Entity.slot(old[i]), TxState.STAGED_DESPAWN);
        }
        fixture.drain.drain();
        Table target = fixture.tableOf(old[0]);
        assertEquals(1, target.count());
        long[] ids = publishedMany(12, 100);
        for (long id : ids) {
            fixture.tx.stageValueMove(id, Entity.slot(id), BRITTLE.of(new Brittle(7)), fixture.tableOf(id));
        }
        Brittle.failing = true;
        try {
            assertThrows(IllegalStateException.class, fixture.drain::drain);
        } finally {
            Brittle.failing = false;
        }
        assertEquals(13, target.count(), "the run moved every row before the first value threw");
        for (long id : ids) {
            assertSame(target, fixture.tableOf(id));
            assertEquals(new Brittle(0), value(id, BRITTLE), "the default");
            assertIndexed(id);
        }
    }

    @Test
    void aWholeRunIntoATableWithPairsTellsTheHooksOfItsRows() {
        List<String> placed = new ArrayList<>();
        try (DrainFixture f = new DrainFixture(new DrainHooks() {
            @Override
            public void placedWithPairs(Table table, int fromRow, int toRow) {
                placed.add(fromRow + ".." + toRow + (table.has(A.id()) ? " A" : "") + (table.has(B.id()) ? " B" : ""));
            }
        })) {
            PairComponent pair = f.registry.pairs().pair(LIKES, Entity.pack(999, 0));
            long[] ids = new long[4];
            for (int i = 0; i < ids.length; i++) {
                ids[i] = f.stageSpawn(HP.of(i), LIKES, pair);
            }
            long lone = f.stageSpawn(HP.of(9), MASS.of(new Mass(1)), LIKES, pair);
            long mate = f.stageSpawn(HP.of(10), MASS.of(new Mass(1)), LIKES, pair);
            f.drain.drain();
            placed.clear();
            int first = f.tx.begin(mate, Entity.slot(mate), TxState.STAGED_MUTATE); // record 0: alone
            f.tx.put(first, A, A);
            for (long id : ids) { // records 1..4: every row of the table, one run
                int r = f.tx.begin(id, Entity.slot(id), TxState.STAGED_MUTATE);
                f.tx.put(r, A, A);
            }
            f.drain.drain();
            assertEquals(List.of("0..1 A", "0..4 A"), placed);
            placed.clear();
            f.tx.stageTagMove(lone, Entity.slot(lone), B, true, f.tableOf(lone)); // tag move 0: alone
            for (long id : ids) { // tag moves 1..4: every row, one run
                f.tx.stageTagMove(id, Entity.slot(id), B, true, f.tableOf(id));
            }
            f.drain.drain();
            assertEquals(List.of("0..1 B", "0..4 A B"), placed);
        }
    }
}
