package dev.jtecs.mutation.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.component.Components;
import dev.jtecs.component.ManagedComponent;
import dev.jtecs.component.Relationship;
import dev.jtecs.component.Relationships;
import dev.jtecs.component.ScalarComponent;
import dev.jtecs.component.TagComponent;
import dev.jtecs.entity.Entity;
import dev.jtecs.entity.internal.AllocationFaults;
import dev.jtecs.entity.internal.EntityIndex;
import dev.jtecs.storage.EntityObserver;
import dev.jtecs.storage.internal.ArchetypeRegistry;
import dev.jtecs.storage.internal.NativeMemory;
import dev.jtecs.storage.internal.Table;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class CommitDrainTest {
    static final ScalarComponent.OfInt N = Components.scalar("test.drain.N", 0);
    static final TagComponent T = Components.tag("test.drain.T");
    static final TagComponent OTHER = Components.tag("test.drain.Other");
    static final Relationship MANY = Relationships.register("test.drain.Many");
    static final AtomicInteger FACTORY_CALLS = new AtomicInteger();

    record Fragile(int n) {}

    static final ManagedComponent<Fragile> FRAGILE = Components.registerManaged(Fragile.class, o -> o.defaults(() -> {
        if (FACTORY_CALLS.incrementAndGet() == 2) {
            throw new IllegalStateException("factory failed");
        }
        return new Fragile(FACTORY_CALLS.get());
    }));

    private final NativeMemory memory = new NativeMemory();
    private final EntityIndex index = new EntityIndex(1000);
    private final ArchetypeRegistry registry = new ArchetypeRegistry(memory);
    private final Transaction tx = new Transaction();
    private final SparseWriteQueue sparse = new SparseWriteQueue();
    private final CommitDrain drain = drainWith(DrainHooks.NONE);

    private CommitDrain drainWith(DrainHooks hooks) {
        return new CommitDrain(index, registry, tx, sparse, new KeyIndex(id -> null),
                new LifecycleEvents(index, registry, new dev.jtecs.event.internal.ObserverRegistry(), null), hooks);
    }

    @AfterEach
    void tearDown() {
        registry.close();
        memory.close();
    }

    private long stageSpawn(Object... inputs) {
        long id = index.allocate();
        int r = tx.begin(id, Entity.slot(id), TxState.STAGED_SPAWN);
        for (Object input : inputs) {
            dev.jtecs.component.Input in = (dev.jtecs.component.Input) input;
            tx.put(r, in.component(), in);
        }
        return id;
    }

    private Table tableOf(long id) {
        return registry.ofStore(index.storeOf(Entity.slot(id)));
    }

    /**
     * {@code despawnSubtreeAtOnce} is for a settlement inside a publication: called with no publication draining it
     * refuses and changes nothing. (Its use by a cascade, and its refusals there, are SettlementTest's.)
     */
    @Test
    void aSubtreeIsDespawnedAtOnceOnlyWhileAPublicationDrains() {
        try (ModelFixture rig = new ModelFixture()) {
            long[] ids = {rig.model.spawn(new dev.jtecs.component.Input[0]),
                rig.model.spawn(new dev.jtecs.component.Input[0])};
            assertFalse(rig.model.drain().despawnSubtreeAtOnce(ids, 2));
            assertTrue(rig.index.isAlive(ids[0]) && rig.index.isAlive(ids[1]));
        }
    }

    @Test
    void aMoveAtOnceWaitsForStagedWorkPendingSettlementsKeyClaimsAndARunningDrain() {
        boolean[] settling = {false};
        KeyIndex keys = new KeyIndex(id -> null);
        CommitDrain drain = new CommitDrain(index, registry, tx, sparse, keys,
                new LifecycleEvents(index, registry, new dev.jtecs.event.internal.ObserverRegistry(), null),
                new DrainHooks() {
                    @Override
                    public boolean pendingSettlement() {
                        return settling[0];
                    }
                });
        long id = stageSpawn(N.of(1));
        long observed = stageSpawn(N.of(2), OTHER); // observed below: neither table of id's move is
        drain.drain();
        Table table = tableOf(id);
        registry.withAdded(table, T); // the edge a move at once takes is cached

        long staged = stageSpawn(N.of(3));
        long seals = tx.seals();
        assertFalse(drain.moveAtOnce(id, T, true), "a staged spawn waits: the call must publish it too");
        assertFalse(drain.despawnAtOnce(id));
        drain.drain();
        assertTrue(index.isAlive(staged));
        settling[0] = true;
        assertFalse(drain.moveAtOnce(id, T, true), "a settlement waits");
        assertFalse(drain.despawnAtOnce(id));
        settling[0] = false;
        keys.stageClaim("k", id);
        assertFalse(drain.moveAtOnce(id, T, true), "a key claim waits for its reconciliation");
        assertFalse(drain.despawnAtOnce(id));
        keys.clear();
        assertEquals(seals + 1, tx.seals(), "only the drain's wave counted as a submission");
        assertFalse(tx.anyDoomed());
        boolean[] inDrain = new boolean[2];
        tableOf(observed).addObserver(new dev.jtecs.storage.EntityObserver() {
            @Override
            public void onEntitiesRemoved(dev.jtecs.storage.Archetype archetype, int fromRow, int toRow,
                    dev.jtecs.storage.Archetype other) {
                inDrain[0] = true;
                inDrain[1] = drain.moveAtOnce(id, T, true) || drain.despawnAtOnce(id);
            }
        });
        tx.begin(observed, Entity.slot(observed), TxState.STAGED_DESPAWN);
        drain.drain();
        assertTrue(inDrain[0]);
        assertFalse(inDrain[1], "a call from a drain's callback joins the drain");
        assertSame(table, tableOf(id), "nothing moved so far");
        assertTrue(tx.isEmpty());

        long before = tx.seals();
        assertTrue(drain.moveAtOnce(id, T, true), "nothing waits now");
        assertTrue(tableOf(id).has(T.id()));
        assertTrue(tx.isEmpty());
        assertEquals(before + 1, tx.seals(), "the move counts as a submission, as its sealed wave would");
        assertTrue(drain.despawnAtOnce(id));
        assertFalse(index.isAlive(id));
        assertEquals(before + 2, tx.seals());
        assertFalse(drain.isDraining());
    }

    @Test
    void publishesSpawnsIntoTheirArchetype() {
        long a = stageSpawn(N.of(4), T);
        long b = stageSpawn(N.of(5));
        drain.drain();
        assertTrue(index.isAlive(a) && index.isAlive(b));
        assertEquals(4, tableOf(a).readValue(tableOf(a).position(N.id()), index.rowOf(Entity.slot(a))));
        assertTrue(tableOf(a).has(T.id()));
        assertFalse(tableOf(b).has(T.id()));
        assertTrue(tx.isEmpty());
        assertFalse(drain.isDraining());
    }

    @Test
    void despawnsRunBeforeSpawnsSoFreedRowsAreReused() {
        long[] ids = new long[64];
        for (int i = 0; i < 64; i++) {
            ids[i] = stageSpawn(N.of(i));
        }
        drain.drain();
        Table table = tableOf(ids[0]);
        assertEquals(64, table.capacityRows());
        long fresh = stageSpawn(N.of(99)); // staged first ...
        tx.begin(ids[3], Entity.slot(ids[3]), TxState.STAGED_DESPAWN); // ... despawned second
        drain.drain();
        assertEquals(64, table.count());
        assertEquals(64, table.capacityRows(), "the spawn took the row the despawn freed: no growth");
        assertTrue(index.isAlive(fresh));
        assertFalse(index.isAlive(ids[3]));
        assertEquals(ids[63], table.entityAt(3), "the last row moved into the hole");
        assertEquals(3, index.rowOf(Entity.slot(ids[63])));
    }

    @Test
    void theRowsQuietDespawnsFreeCountInTheReservationOfATableThatGetsRows() {
        long[] ids = new long[64];
        for (int i = 0; i < 64; i++) {
            ids[i] = stageSpawn(N.of(i));
        }
        long other = stageSpawn(N.of(100), T);
        drain.drain();
        Table table = tableOf(ids[0]);
        assertEquals(64, table.capacityRows());
        tx.stageQuietDespawn(other, Entity.slot(other)); // a table that gets no rows: nothing to count there
        tx.stageQuietDespawn(ids[3], Entity.slot(ids[3]));
        long fresh = stageSpawn(N.of(99)); // two rows in, two out
        long second = stageSpawn(N.of(98));
        tx.stageQuietDespawn(ids[5], Entity.slot(ids[5]));
        drain.drain();
        assertEquals(64, table.count());
        assertEquals(64, table.capacityRows(), "the spawns took the rows the despawns freed: no growth");
        assertTrue(index.isAlive(fresh) && index.isAlive(second));
        assertFalse(index.isAlive(ids[3]) || index.isAlive(ids[5]) || index.isAlive(other));
    }

    @Test
    void netUnchangedSignatureWritesInPlace() {
        long a = stageSpawn(N.of(1));
        drain.drain();
        Table table = tableOf(a);
        long structural = table.dirty().structuralCount();
        int r = tx.begin(a, Entity.slot(a), TxState.STAGED_MUTATE);
        tx.put(r, N, null);
        tx.put(r, N, N.of(2));
        drain.drain();
        assertEquals(table, tableOf(a));
        assertEquals(structural, table.dirty().structuralCount(), "no row moved");
        assertEquals(2, table.readValue(table.position(N.id()), 0));
    }

    @Test
    void aStagedSpawnKeepsNoMarkerWhoseLastEdgeItsStagingDropped() {
        long a = stageSpawn(N.of(7), MANY); // spawn(REL.to(t)), then remove(REL.to(t)): the pair went, the marker stays
        long b = stageSpawn(N.of(8), T);
        drain.drain();
        assertTrue(index.isAlive(a) && index.isAlive(b));
        Table table = tableOf(a);
        assertFalse(table.has(MANY.id()), "a marker stays only while an edge does");
        assertEquals(1, table.componentCount());
        assertEquals(7, table.readValue(table.position(N.id()), index.rowOf(Entity.slot(a))));
    }

    @Test
    void sparseWritesFlushAfterTheSegmentsMovesAndSkipDespawnedEntities() {
        dev.jtecs.component.Relationship likes = dev.jtecs.component.Relationships.register("test.drain.Likes",
                o -> o.sparse());
        java.util.List<String> log = new java.util.ArrayList<>();
        CommitDrain drain = drainWith(new DrainHooks() {
            @Override
            public void applySparse(long entity, byte op, dev.jtecs.component.BaseRelationship<?> relationship,
                    long target, Object payload) {
                log.add("alive=" + index.isAlive(entity) + " target=" + target);
            }

            @Override
            public void settleSparse() {
                log.add("settle");
            }
        });
        long a = stageSpawn(N.of(1));
        sparse.stage(a, SparseWriteQueue.ADD, likes, 9, null, tx.openOps());
        drain.drain();
        assertEquals(java.util.List.of("alive=true target=9", "settle"), log, "spawned earlier in the same wave");
        tx.begin(a, Entity.slot(a), TxState.STAGED_DESPAWN);
        sparse.stage(a, SparseWriteQueue.ADD, likes, 10, null, tx.openOps());
        assertTrue(drain.hasWork());
        drain.drain();
        assertEquals(java.util.List.of("alive=true target=9", "settle", "settle"), log,
                "the despawn cancelled the write; the wave still settles");
        assertFalse(drain.hasWork());
    }

    /** Hooks that log each call the drain makes, in order. */
    private static DrainHooks logging(java.util.List<String> log) {
        return logging(log, new boolean[] {true});
    }

    /** {@link #logging(java.util.List)} whose {@code hearsDespawns} answers {@code hears[0]} at each call. */
    private static DrainHooks logging(java.util.List<String> log, boolean[] hears) {
        return new DrainHooks() {
            @Override
            public boolean hearsDespawns() {
                return hears[0];
            }

            @Override
            public void prepareDespawns(int count, int highestSlot) {
                log.add("prepare " + count);
            }

            @Override
            public void despawned(long id) {
                log.add("despawned " + id);
            }

            @Override
            public void segmentDone() {
                log.add("segment");
            }

            @Override
            public void settleSparse() {
                log.add("settle");
            }

            @Override
            public void publicationEnded(boolean published) {
                log.add("ended " + published);
            }
        };
    }

    @Test
    void aLoneDespawnRunsTheHooksOfAWholeWaveInItsOrder() {
        for (boolean quiet : new boolean[] {false, true}) { // a despawn record, then a quiet despawn
            java.util.List<String> log = new java.util.ArrayList<>();
            try (DrainFixture rig = new DrainFixture(logging(log))) {
                long a = rig.stageSpawn(N.of(1));
                long b = rig.stageSpawn(N.of(2));
                rig.drain.publish();
                log.clear();
                Table table = rig.tableOf(a);
                stageDespawn(rig, a, quiet);
                rig.drain.publish();
                String when = quiet ? "quiet" : "a record";
                assertEquals(java.util.List.of("prepare 1", "despawned " + a, "segment", "settle", "ended true"), log,
                        when);
                assertEquals(EntityIndex.FREE, rig.index.stateOf(a), when);
                assertFalse(rig.tx.isDoomed(Entity.slot(a)), when);
                assertEquals(1, table.count(), when);
                assertEquals(b, table.entityAt(rig.index.rowOf(Entity.slot(b))), "the last row filled the hole");
                assertEquals(2, table.readValue(table.position(N.id()), rig.index.rowOf(Entity.slot(b))), when);
                assertTrue(rig.tx.isEmpty(), when);
                assertFalse(rig.drain.hasWork(), when);
            }
        }
    }

    @Test
    void aLoneDespawnWhoseObserverThrowsStillReportsItAndDiscardsWhatTheObserverStaged() {
        despawnWhoseMoveObserverThrows(false);
    }

    @Test
    void aDespawnAtOnceWhoseObserverThrowsEndsAsTheLoneDespawnDoes() {
        despawnWhoseMoveObserverThrows(true);
    }

    /** A despawn, staged and published or published at once, whose table's move observer stages work and throws. */
    private void despawnWhoseMoveObserverThrows(boolean atOnce) {
        java.util.List<String> log = new java.util.ArrayList<>();
        CommitDrain drain = drainWith(logging(log));
        long a = stageSpawn(N.of(1));
        long b = stageSpawn(N.of(2));
        drain.publish();
        Table table = tableOf(a);
        table.addObserver(new dev.jtecs.storage.EntityObserver() {
            @Override
            public void onEntityMove(dev.jtecs.storage.Archetype archetype, long entity, int fromRow, int toRow) {
                tx.begin(entity, Entity.slot(entity), TxState.STAGED_DESPAWN); // work for a next wave
                throw new IllegalStateException("move observer failed");
            }
        });
        log.clear();
        if (atOnce) {
            assertThrows(IllegalStateException.class, () -> drain.despawnAtOnce(a));
        } else {
            tx.begin(a, Entity.slot(a), TxState.STAGED_DESPAWN);
            assertThrows(IllegalStateException.class, drain::publish);
        }
        assertEquals(java.util.List.of("prepare 1", "despawned " + a, "ended false"), log,
                "the despawn is reported even though an observer threw; the wave ends there");
        assertFalse(index.isAlive(a), "the row had left: the entity is gone");
        assertTrue(index.isAlive(b), "what the observer staged was discarded with the failed wave");
        assertEquals(b, table.entityAt(index.rowOf(Entity.slot(b))));
        assertFalse(tx.anyDoomed());
        assertTrue(tx.isEmpty());
        assertFalse(drain.hasWork());
        assertFalse(drain.isDraining());
    }

    @Test
    void aDespawnAtOnceRunsTheHooksOfTheLoneDespawnsPublicationAndIsRefusedWhileAnythingWaits() {
        java.util.List<String> log = new java.util.ArrayList<>();
        try (DrainFixture rig = new DrainFixture(logging(log))) {
            long a = rig.stageSpawn(N.of(1));
            long b = rig.stageSpawn(N.of(2));
            rig.drain.publish();
            Table table = rig.tableOf(a);
            long staged = rig.stageSpawn(N.of(3));
            log.clear();
            assertFalse(rig.drain.despawnAtOnce(a), "a staged spawn waits: the call must publish it too");
            assertTrue(log.isEmpty());
            assertTrue(rig.index.isAlive(a));
            assertFalse(rig.tx.isDoomed(Entity.slot(a)));
            rig.drain.publish();
            assertTrue(rig.index.isAlive(staged));
            log.clear();

            assertTrue(rig.drain.despawnAtOnce(a));
            assertEquals(java.util.List.of("prepare 1", "despawned " + a, "segment", "settle", "ended true"), log,
                    "what the publication of the lone despawn runs, in its order");
            assertEquals(EntityIndex.FREE, rig.index.stateOf(a));
            assertFalse(rig.tx.isDoomed(Entity.slot(a)));
            assertEquals(2, table.count());
            assertEquals(b, table.entityAt(rig.index.rowOf(Entity.slot(b))), "the last row filled the hole");
            assertEquals(2, table.readValue(table.position(N.id()), rig.index.rowOf(Entity.slot(b))));
            assertTrue(rig.tx.isEmpty());
            assertFalse(rig.drain.hasWork());
            log.clear();
            assertFalse(rig.drain.despawnAtOnce(a), "gone: the general path names it");
            assertTrue(log.isEmpty());
        }
    }

    record Pace(int v) {} // plain

    static final dev.jtecs.component.NativeComponent<Pace> PACE = Components.registerNative(Pace.class);

    /**
     * A plain value moved at once, given as its fields' bits, ends its publication as a tag's move does: once,
     * published, with nothing else run; with work waiting it is refused having changed nothing.
     */
    @Test
    void aPlainValueMovedAtOnceEndsItsPublicationOnceAndWaitsForNothing() {
        java.util.List<String> log = new java.util.ArrayList<>();
        try (DrainFixture rig = new DrainFixture(logging(log))) {
            long id = rig.stageSpawn(T);
            rig.drain.publish();
            Table source = rig.tableOf(id);
            Table target = rig.registry.withAdded(source, PACE); // the edge a move at once takes is cached
            long staged = rig.stageSpawn(T);
            log.clear();
            long[] three = {3};
            assertFalse(rig.drain.movePlainBitsAtOnce(id, PACE, three, source), "a staged spawn waits");
            assertTrue(log.isEmpty());
            assertSame(source, rig.tableOf(id));
            rig.drain.publish();
            assertTrue(rig.index.isAlive(staged));
            log.clear();
            assertTrue(rig.drain.movePlainBitsAtOnce(id, PACE, three, source));
            assertEquals(java.util.List.of("ended true"), log, "the move was the whole publication");
            assertSame(target, rig.tableOf(id));
            assertEquals(new Pace(3), target.readValue(target.position(PACE.id()), rig.index.rowOf(Entity.slot(id))));
            assertTrue(rig.tx.isEmpty());
        }
    }

    /**
     * A sparse edge set at once: offered to the hooks only for a published entity whose table holds the
     * relationship's marker while nothing waits; when they add it, the call counts as one submission and its
     * publication ends there; when they refuse, nothing changed.
     */
    @Test
    void aSparseEdgeIsOfferedAtOnceOnlyWithItsMarkerInPlaceAndNothingWaiting() {
        java.util.List<String> log = new java.util.ArrayList<>();
        boolean[] accept = {true};
        DrainHooks hooks = new DrainHooks() {
            @Override
            public boolean addSparseAtOnce(long entity, dev.jtecs.component.BaseRelationship<?> relationship,
                    long target, Object payload) {
                log.add("add " + entity + " -> " + target);
                return accept[0];
            }

            @Override
            public void publicationEnded(boolean published) {
                log.add("ended " + published);
            }
        };
        try (DrainFixture rig = new DrainFixture(hooks)) {
            long bare = rig.stageSpawn(N.of(1));
            long marked = rig.stageSpawn(N.of(2), FOLLOWS);
            long target = rig.stageSpawn(N.of(3));
            rig.drain.publish();
            log.clear();
            assertFalse(rig.drain.setSparseAtOnce(bare, FOLLOWS, target, null), "no marker: the row must move");
            long staged = rig.stageSpawn(N.of(4));
            assertFalse(rig.drain.setSparseAtOnce(marked, FOLLOWS, target, null), "a staged spawn waits");
            assertTrue(log.isEmpty(), "neither was offered: " + log);
            rig.drain.publish();
            assertTrue(rig.index.isAlive(staged));
            log.clear();
            long seals = rig.tx.seals();
            assertTrue(rig.drain.setSparseAtOnce(marked, FOLLOWS, target, null));
            assertEquals(java.util.List.of("add " + marked + " -> " + target, "ended true"), log);
            assertEquals(seals + 1, rig.tx.seals());
            log.clear();
            accept[0] = false;
            assertFalse(rig.drain.setSparseAtOnce(marked, FOLLOWS, target, null), "refused by the hooks");
            assertEquals(java.util.List.of("add " + marked + " -> " + target), log, "no publication ended");
            assertEquals(seals + 1, rig.tx.seals());
        }
    }

    /**
     * A spawn at once is placed only when the call's publication would hold it alone: with work staged, or from a
     * drain's callback, it is refused having changed nothing (the caller stages it); otherwise it is placed and
     * counts as one submission.
     */
    @Test
    void aSpawnAtOnceWaitsForNothingAndCountsAsOneSubmission() {
        try (DrainFixture rig = new DrainFixture()) {
            long first = rig.stageSpawn(N.of(1));
            rig.drain.publish(); // the archetype of N exists now
            long staged = rig.stageSpawn(N.of(2));
            int highWater = rig.index.highWater();
            assertEquals(0, rig.drain.spawnAtOnce(null, N.of(3), null, null, 1), "a staged spawn waits");
            assertEquals(highWater, rig.index.highWater(), "no id handed out");
            long[] fromCallback = {-1};
            rig.tableOf(first).addObserver(new EntityObserver() {
                @Override
                public void onEntitiesAdded(dev.jtecs.storage.Archetype archetype, int fromRow, int toRow,
                        dev.jtecs.storage.Archetype other) {
                    fromCallback[0] = rig.drain.spawnAtOnce(null, N.of(4), null, null, 1);
                }
            });
            rig.drain.publish();
            assertEquals(0, fromCallback[0], "a call from a drain's callback joins the drain");
            assertTrue(rig.index.isAlive(staged));
            long seals = rig.tx.seals();
            assertEquals(0, rig.drain.spawnAtOnce(null, N.of(5), null, null, 1), "its archetype is observed");
            rig.tableOf(first).removeObserver(rig.tableOf(first).observers()[0]);
            long placed = rig.drain.spawnAtOnce(null, N.of(5), null, null, 1);
            assertTrue(rig.index.isAlive(placed));
            assertEquals(seals + 1, rig.tx.seals(), "one submission, as its sealed wave would count");
            assertTrue(rig.tx.isEmpty());
        }
    }

    /**
     * A batch's sparse edit whose write fails part way: every write it leaves undone, from the next relationship of
     * the failed row to the last row, is noted once for settlement (the failed write notes itself), in call order.
     */
    @Test
    void aSparseEditThatFailsPartWayNotesEveryWriteItLeaves() {
        Relationship guards = Relationships.register("test.drain.Guards", o -> o.sparse());
        java.util.List<String> noted = new java.util.ArrayList<>();
        int[] writes = {0};
        try (DrainFixture rig = new DrainFixture(new DrainHooks() {
            @Override
            public void applySparse(long entity, byte op, dev.jtecs.component.BaseRelationship<?> relationship,
                    long target, Object payload) {
                if (++writes[0] == 3) {
                    throw new IllegalStateException("the third write fails");
                }
            }

            @Override
            public void rememberUnwritten(long entity, dev.jtecs.component.BaseRelationship<?> relationship) {
                noted.add(Entity.toString(entity) + " " + relationship.name());
            }
        })) {
            long[] ids = {rig.stageSpawn(N.of(1)), rig.stageSpawn(N.of(2)), rig.stageSpawn(N.of(3))};
            rig.drain.publish();
            Table table = rig.tableOf(ids[0]);
            assertEquals(java.util.List.of(ids[0], ids[1], ids[2]),
                    java.util.List.of(table.entityAt(0), table.entityAt(1), table.entityAt(2)));
            BatchOp.SparseEdit edit = new BatchOp.SparseEdit(SparseWriteQueue.ADD,
                    new dev.jtecs.component.BaseRelationship<?>[] {FOLLOWS, guards}, new long[] {7, 8},
                    new Object[2]);
            // row 0: both written; row 1: FOLLOWS fails; left: row 1's Guards, row 2's both
            assertThrows(IllegalStateException.class, () -> rig.drain.sparseRows(edit, table, 0, 3));
            assertEquals(java.util.List.of(Entity.toString(ids[1]) + " test.drain.Guards",
                    Entity.toString(ids[2]) + " " + FOLLOWS.name(), Entity.toString(ids[2]) + " test.drain.Guards"),
                    noted);
        }
    }

    /**
     * An unheard despawn makes what the row's removal allocates first: the free list's room, and the room to note
     * the row the last one overwrites (the table's dirty state was cleared, so that row is noted). Failing each of
     * those growths in turn changes nothing, not even the count of submissions; past them the despawn goes through.
     */
    @Test
    void anUnheardDespawnWhoseGrowthFailsChangesNothing() {
        boolean failedAny = false;
        for (int k = 1; ; k++) {
            try (DrainFixture rig = new DrainFixture(logging(new java.util.ArrayList<>(), new boolean[1]))) {
                long a = rig.stageSpawn(N.of(1));
                long b = rig.stageSpawn(N.of(2));
                long c = rig.stageSpawn(N.of(3));
                rig.drain.publish();
                Table table = rig.tableOf(a);
                table.dirty().clear();
                long seals = rig.tx.seals();
                AllocationFaults.failAt(AllocationFaults.Kind.HEAP, k);
                boolean despawned;
                try {
                    despawned = rig.drain.despawnUnheard(a);
                } catch (OutOfMemoryError e) {
                    failedAny = true;
                    AllocationFaults.disarm();
                    assertTrue(rig.index.isAlive(a), "growth " + k + ": the entity stays");
                    assertEquals(seals, rig.tx.seals(), "growth " + k + ": no submission counted");
                    assertEquals(3, table.count(), "growth " + k);
                    assertEquals(java.util.List.of(a, b, c), java.util.List.of(table.entityAt(0), table.entityAt(1),
                            table.entityAt(2)), "growth " + k + ": every row where it was");
                    assertEquals(1, table.readValue(table.position(N.id()), 0), "growth " + k);
                    assertEquals(0, rig.index.rowOf(Entity.slot(a)), "growth " + k);
                    assertEquals(2, rig.index.rowOf(Entity.slot(c)), "growth " + k);
                    continue;
                } finally {
                    AllocationFaults.disarm();
                }
                assertTrue(despawned, "growth " + k + " was not needed");
                assertFalse(rig.index.isAlive(a));
                assertEquals(java.util.List.of(c, b), java.util.List.of(table.entityAt(0), table.entityAt(1)));
                assertEquals(0, rig.index.rowOf(Entity.slot(c)));
                assertTrue(failedAny, "the removal allocated nothing to fail");
                return;
            }
        }
    }

    /**
     * Where nothing can hear a despawn (no edge in the world, no observer on the table, nothing waiting), the
     * instant despawn removes the row and frees the slot, counts one submission and calls no hook; anything that
     * could hear it, or anything waiting, refuses it having changed nothing.
     */
    @Test
    void anUnheardDespawnRemovesTheRowAndFreesTheSlotAndIsRefusedWhereAnythingCouldHearIt() {
        java.util.List<String> log = new java.util.ArrayList<>();
        boolean[] hears = {false};
        try (DrainFixture rig = new DrainFixture(logging(log, hears))) {
            long a = rig.stageSpawn(N.of(1));
            long b = rig.stageSpawn(N.of(2));
            long c = rig.stageSpawn(N.of(3));
            rig.drain.publish();
            Table table = rig.tableOf(a);
            log.clear();

            hears[0] = true;
            assertFalse(rig.drain.despawnUnheard(a), "edges in the world: the relation layer must hear it");
            hears[0] = false;
            long staged = rig.stageSpawn(N.of(4), T); // in a table of its own
            assertFalse(rig.drain.despawnUnheard(a), "a staged spawn waits: the call must publish it too");
            rig.drain.publish();
            EntityObserver watcher = new EntityObserver() { };
            table.addObserver(watcher);
            assertFalse(rig.drain.despawnUnheard(a), "an observer of its table hears the row leave");
            table.removeObserver(watcher);
            boolean[] fromCallback = {true};
            rig.tableOf(staged).addObserver(new EntityObserver() {
                @Override
                public void onEntitiesRemoved(dev.jtecs.storage.Archetype archetype, int fromRow, int toRow,
                        dev.jtecs.storage.Archetype other) {
                    fromCallback[0] = rig.drain.despawnUnheard(c);
                }
            });
            rig.tx.begin(staged, Entity.slot(staged), TxState.STAGED_DESPAWN);
            rig.drain.publish();
            assertFalse(fromCallback[0], "a call from a drain's callback joins the drain");
            assertTrue(rig.index.isAlive(a) && rig.index.isAlive(c));
            assertEquals(3, table.count(), "nothing refused changed the table");
            log.clear();

            long seals = rig.tx.seals();
            assertTrue(rig.drain.despawnUnheard(a));
            assertTrue(log.isEmpty(), "no hook is called: " + log);
            assertEquals(EntityIndex.FREE, rig.index.stateOf(a));
            assertEquals(seals + 1, rig.tx.seals(), "one submission, as the call's publication would count");
            assertFalse(rig.tx.anyDoomed());
            assertEquals(2, table.count());
            assertEquals(c, table.entityAt(0), "the last row filled the hole");
            assertEquals(0, rig.index.rowOf(Entity.slot(c)));
            assertEquals(3, table.readValue(table.position(N.id()), 0));
            assertEquals(b, table.entityAt(1));
            assertTrue(table.dirty().structuralCount() > 0);
            assertTrue(rig.tx.isEmpty());
            assertFalse(rig.drain.hasWork());
            assertFalse(rig.drain.despawnUnheard(a), "gone: the general path names it");
            long next = rig.index.allocate();
            assertEquals(Entity.slot(a), Entity.slot(next), "the freed slot comes back first");
        }
    }

    @Test
    void aDespawnAtOnceMarksItsSlotForCallbacksAndPublishesWhatTheyStageInTheNextWave() {
        java.util.List<String> log = new java.util.ArrayList<>();
        try (DrainFixture rig = new DrainFixture(logging(log))) {
            long a = rig.stageSpawn(N.of(1));
            long b = rig.stageSpawn(N.of(2));
            rig.drain.publish();
            boolean[] seen = new boolean[2];
            long[] spawned = new long[1];
            rig.tableOf(a).addObserver(new dev.jtecs.storage.EntityObserver() {
                @Override
                public void onEntitiesRemoved(dev.jtecs.storage.Archetype archetype, int fromRow, int toRow,
                        dev.jtecs.storage.Archetype other) {
                    seen[0] = rig.tx.isDoomed(Entity.slot(a));
                    seen[1] = rig.drain.isDraining();
                    spawned[0] = rig.stageSpawn(N.of(7)); // joins the drain: the next wave publishes it
                }
            });
            log.clear();
            assertTrue(rig.drain.despawnAtOnce(a));
            assertTrue(seen[0], "the callback sees the entity marked as despawning");
            assertTrue(seen[1], "and a drain running, which its own calls join");
            assertFalse(rig.index.isAlive(a));
            assertTrue(rig.index.isAlive(spawned[0]), "published in the same publication");
            assertEquals(java.util.List.of("prepare 1", "despawned " + a, "segment", "settle", "segment", "settle",
                    "ended true"), log, "two waves, one publication");
            assertTrue(rig.index.isAlive(b));
            assertFalse(rig.tx.anyDoomed());
            assertTrue(rig.tx.isEmpty());
        }
    }

    @Test
    void aDespawnAtOnceFailingAtAnyHeapAllocationLeavesTheEntityWholeAndUnmarked() {
        int failures = 0;
        for (int k = 1; ; k++) {
            java.util.List<String> log = new java.util.ArrayList<>();
            try (DrainFixture rig = new DrainFixture(logging(log))) {
                long[] ids = new long[70]; // more than the free stack's first room (64): its growth can fail
                for (int i = 0; i < ids.length; i++) {
                    ids[i] = rig.stageSpawn(N.of(i));
                }
                rig.drain.drain();
                for (int i = 0; i < 64; i++) {
                    assertTrue(rig.drain.despawnAtOnce(ids[i]));
                }
                Table table = rig.tableOf(ids[64]);
                long id = ids[64];
                log.clear();
                boolean failed;
                AllocationFaults.failAt(AllocationFaults.Kind.HEAP, k);
                try {
                    assertTrue(rig.drain.despawnAtOnce(id));
                    failed = false;
                } catch (OutOfMemoryError e) {
                    failed = true;
                } finally {
                    AllocationFaults.disarm();
                }
                if (!failed) {
                    assertTrue(failures > 0, "some allocation of the despawn was failed");
                    assertFalse(rig.index.isAlive(id));
                    assertEquals(5, table.count());
                    return;
                }
                failures++;
                String when = "heap allocation " + k + " failed";
                assertTrue(rig.index.isAlive(id), when);
                assertEquals(6, table.count(), when);
                assertEquals(id, table.entityAt(rig.index.rowOf(Entity.slot(id))), when);
                assertEquals(64, table.readValue(table.position(N.id()), rig.index.rowOf(Entity.slot(id))), when);
                assertFalse(rig.tx.anyDoomed(), "no mark is left, " + when);
                assertTrue(rig.tx.isEmpty(), when);
                assertFalse(rig.drain.isDraining(), when);
                assertFalse(log.contains("despawned " + id), when + ": " + log);
                assertTrue(log.isEmpty() || log.get(log.size() - 1).equals("ended false"),
                        when + ": a publication that began ends failed, " + log);
            }
        }
    }

    @Test
    void aLoneDespawnOfAnEntityAlreadyGoneChangesNothing() {
        java.util.List<String> log = new java.util.ArrayList<>();
        CommitDrain drain = drainWith(logging(log));
        long a = stageSpawn(N.of(1));
        drain.publish();
        long dead = a;
        tx.begin(a, Entity.slot(a), TxState.STAGED_DESPAWN);
        drain.publish();
        log.clear();
        tx.begin(dead, Entity.slot(dead), TxState.STAGED_DESPAWN); // already gone: nothing to do
        drain.publish();
        assertEquals(java.util.List.of("segment", "settle", "ended true"), log);
        assertTrue(tx.isEmpty());
    }

    // ---------------------------------------------------------------- quiet despawns

    static final TagComponent U = Components.tag("test.drain.U");

    /** Stages a despawn of a published entity as Staging does: quiet (an id and a mark), or a record and a mark. */
    private static void stageDespawn(DrainFixture rig, long id, boolean quiet) {
        if (quiet) {
            rig.tx.stageQuietDespawn(id, Entity.slot(id));
        } else {
            rig.tx.begin(id, Entity.slot(id), TxState.STAGED_DESPAWN);
            rig.tx.doom(Entity.slot(id));
        }
    }

    /**
     * One scenario on a fresh fixture: 20 entities of N, 3 of N+T, 3 of N+U (watched by a logging observer), then
     * one wave mixing despawns (quiet where {@code quiet}, records otherwise; three are records either way) with
     * spawn and move records: a lone despawn, a run of ten from one table, despawn records between quiet ones of
     * the same table, one from the watched table, and one that empties N+T's last row. Returns the rows of every
     * table in order, the order in which freed slots come back, and what the hooks and the observer heard.
     */
    private static java.util.List<Object> mixedWave(boolean quiet) {
        java.util.List<String> log = new java.util.ArrayList<>();
        try (DrainFixture rig = new DrainFixture(logging(log))) {
            long[] n = new long[20];
            for (int i = 0; i < n.length; i++) {
                n[i] = rig.stageSpawn(N.of(i));
            }
            long[] t = {rig.stageSpawn(N.of(100), T), rig.stageSpawn(N.of(101), T), rig.stageSpawn(N.of(102), T)};
            long[] u = {rig.stageSpawn(N.of(200), U), rig.stageSpawn(N.of(201), U), rig.stageSpawn(N.of(202), U)};
            rig.drain.drain();
            rig.tableOf(u[0]).addObserver(new dev.jtecs.storage.EntityObserver() {
                @Override
                public void onEntitiesRemoved(dev.jtecs.storage.Archetype archetype, int from, int to,
                        dev.jtecs.storage.Archetype other) {
                    log.add("removed rows " + from + ".." + to);
                }

                @Override
                public void onEntityMove(dev.jtecs.storage.Archetype archetype, long entity, int from, int to) {
                    log.add("moved " + entity + " " + from + "->" + to);
                }
            });
            log.clear();
            stageDespawn(rig, n[3], quiet);
            long s1 = rig.stageSpawn(N.of(300));
            for (int i = 5; i < 15; i++) {
                stageDespawn(rig, n[i], quiet);
            }
            int move = rig.tx.begin(n[0], Entity.slot(n[0]), TxState.STAGED_MUTATE);
            rig.tx.put(move, T, T);
            stageDespawn(rig, t[1], false); // a despawn record among the quiet ones, in both waves
            stageDespawn(rig, u[0], quiet);
            rig.stageSpawn(N.of(301), U);
            stageDespawn(rig, n[1], false);
            stageDespawn(rig, t[0], quiet);
            stageDespawn(rig, n[19], quiet);
            stageDespawn(rig, n[2], false);
            rig.drain.drain();
            java.util.List<Object> state = new java.util.ArrayList<>(log);
            for (long id : new long[] {n[4], n[0], s1, u[1]}) {
                Table table = rig.tableOf(id);
                for (int row = 0; row < table.count(); row++) {
                    long entity = table.entityAt(row);
                    state.add(table.id() + ":" + row + "=" + entity + "/"
                            + table.readValue(table.position(N.id()), row));
                    assertEquals(row, rig.index.rowOf(Entity.slot(entity)));
                }
            }
            for (int k = 0; k < 16; k++) {
                state.add(rig.index.allocate()); // freed slots come back in the order the despawns freed them
            }
            assertTrue(rig.tx.isEmpty());
            assertFalse(rig.tx.anyDoomed(), "every mark went with its despawn");
            return state;
        }
    }

    @Test
    void quietDespawnsPublishExactlyAsDespawnRecordsBegunInTheirPlaceWould() {
        java.util.List<Object> records = mixedWave(false);
        java.util.List<Object> quiet = mixedWave(true);
        assertTrue(records.contains("removed rows 0..1"), "the watched table's despawn ran one at a time: "
                + records);
        assertEquals(records, quiet);
    }

    @Test
    void aWaveThatFailsAfterSomeQuietDespawnsKeepsThoseAndUnmarksTheRest() {
        for (boolean lone : new boolean[] {false, true}) {
            try (DrainFixture rig = new DrainFixture()) {
                long a = rig.stageSpawn(N.of(1));
                long watched = rig.stageSpawn(N.of(2), U);
                long c = rig.stageSpawn(N.of(3));
                long d = rig.stageSpawn(N.of(4), T);
                rig.drain.drain();
                boolean[] refuse = {true};
                rig.tableOf(watched).addObserver(new dev.jtecs.storage.EntityObserver() {
                    @Override
                    public void onEntitiesRemoved(dev.jtecs.storage.Archetype archetype, int from, int to,
                            dev.jtecs.storage.Archetype other) {
                        if (refuse[0]) {
                            throw new IllegalStateException("observer refused");
                        }
                    }
                });
                if (!lone) {
                    stageDespawn(rig, d, false); // a despawn record published before the failure, with a
                    rig.tx.stageQuietDespawn(a, Entity.slot(a));
                }
                rig.tx.stageQuietDespawn(watched, Entity.slot(watched));
                if (!lone) {
                    rig.tx.stageQuietDespawn(c, Entity.slot(c));
                }
                assertThrows(IllegalStateException.class, rig.drain::drain);
                String when = lone ? "a lone despawn" : "a wave of three";
                assertEquals(lone ? EntityIndex.ALIVE : EntityIndex.FREE, rig.index.stateOf(a),
                        "published before the failure, " + when);
                assertEquals(lone ? EntityIndex.ALIVE : EntityIndex.FREE, rig.index.stateOf(d), when);
                assertTrue(rig.index.isAlive(watched) && rig.index.isAlive(c), when);
                assertFalse(rig.tx.isDoomed(Entity.slot(watched)), "its mark went with the wave, " + when);
                assertFalse(rig.tx.isDoomed(Entity.slot(c)), when);
                assertTrue(rig.tx.isEmpty() && !rig.drain.hasWork(), when);
                refuse[0] = false; // the world goes on
                rig.tx.stageQuietDespawn(watched, Entity.slot(watched));
                rig.tx.stageQuietDespawn(c, Entity.slot(c));
                rig.drain.drain();
                assertEquals(EntityIndex.FREE, rig.index.stateOf(watched), when);
                assertEquals(EntityIndex.FREE, rig.index.stateOf(c), when);
            }
        }
    }

    /** Drains with the {@code k}-th heap allocation failing; returns whether it failed (the fault is disarmed). */
    private static boolean drainFailsAtHeapAllocation(DrainFixture rig, int k) {
        AllocationFaults.failAt(AllocationFaults.Kind.HEAP, k);
        try {
            rig.drain.drain();
            return false;
        } catch (OutOfMemoryError e) {
            return true;
        } finally {
            AllocationFaults.disarm();
        }
    }

    @Test
    void aRunOfQuietDespawnsFailingAtAnyHeapAllocationLeavesEveryEntityWholeOrEveryOneGone() {
        int failures = 0;
        for (int k = 1; ; k++) {
            try (DrainFixture rig = new DrainFixture()) {
                long[] ids = new long[100]; // a run of 80: more than the free stack's first room (64)
                for (int i = 0; i < ids.length; i++) {
                    ids[i] = rig.stageSpawn(N.of(i));
                }
                rig.drain.drain();
                Table table = rig.tableOf(ids[0]);
                for (int i = 0; i < 80; i++) { // a run, not every row
                    rig.tx.stageQuietDespawn(ids[i], Entity.slot(ids[i]));
                }
                boolean failed = drainFailsAtHeapAllocation(rig, k);
                int left = ids.length - 80;
                if (!failed) {
                    assertTrue(failures > 0, "some allocation of the run was failed");
                    assertEquals(left, table.count());
                    assertFalse(rig.tx.anyDoomed());
                    return;
                }
                failures++;
                String when = "heap allocation " + k + " failed";
                assertEquals(ids.length, table.count(), when);
                for (int i = 0; i < ids.length; i++) {
                    assertTrue(rig.index.isAlive(ids[i]), when);
                    assertEquals(ids[i], table.entityAt(rig.index.rowOf(Entity.slot(ids[i]))), when);
                    assertEquals(i, table.readValue(table.position(N.id()), rig.index.rowOf(Entity.slot(ids[i]))));
                }
                assertFalse(rig.tx.anyDoomed(), "no mark is left, " + when);
                assertTrue(rig.tx.isEmpty(), when);
            }
        }
    }

    @Test
    void aRunOfQuietDespawnsReportsEveryOneWhenAReportThrowsAndRethrows() {
        java.util.List<Long> reported = new java.util.ArrayList<>();
        long[] ids = new long[2 * BatchDespawns.MIN_RUN];
        try (DrainFixture rig = new DrainFixture(new DrainHooks() {
            @Override
            public void despawned(long id) {
                reported.add(id);
                if (id == ids[3]) {
                    throw new IllegalStateException("hook refused");
                }
            }
        })) {
            for (int i = 0; i < ids.length; i++) {
                ids[i] = rig.stageSpawn(N.of(i));
            }
            long kept = rig.stageSpawn(N.of(99));
            rig.drain.drain();
            for (long id : ids) {
                rig.tx.stageQuietDespawn(id, Entity.slot(id));
            }
            IllegalStateException thrown = assertThrows(IllegalStateException.class, rig.drain::drain);
            assertEquals("hook refused", thrown.getMessage());
            assertEquals(java.util.Arrays.stream(ids).boxed().toList(), reported, "each reported, in order");
            for (long id : ids) {
                assertEquals(EntityIndex.FREE, rig.index.stateOf(id), "the rows had left: gone either way");
            }
            assertTrue(rig.index.isAlive(kept));
            assertEquals(1, rig.tableOf(kept).count());
            assertFalse(rig.tx.anyDoomed());
        }
    }

    @Test
    void quietDespawnsStagedByACallbackPublishInTheNextWaveAfterTheRecordsBegunBeforeThem() {
        try (DrainFixture rig = new DrainFixture()) {
            long watched = rig.stageSpawn(N.of(1), U);
            long[] n = new long[4];
            for (int i = 0; i < n.length; i++) {
                n[i] = rig.stageSpawn(N.of(10 + i));
            }
            rig.drain.drain();
            long[] spawned = new long[1];
            rig.tableOf(watched).addObserver(new dev.jtecs.storage.EntityObserver() {
                @Override
                public void onEntitiesRemoved(dev.jtecs.storage.Archetype archetype, int from, int to,
                        dev.jtecs.storage.Archetype other) {
                    rig.tx.stageQuietDespawn(n[0], Entity.slot(n[0])); // the next wave: mark 0
                    int record = rig.tx.begin(n[1], Entity.slot(n[1]), TxState.STAGED_DESPAWN);
                    rig.tx.doom(Entity.slot(n[1]));
                    assertEquals(0, record - rig.tx.sealedEnd(), "the next wave's first record");
                    rig.tx.stageQuietDespawn(n[2], Entity.slot(n[2])); // mark 1: after n[1]'s record
                    spawned[0] = rig.stageSpawn(N.of(99));
                }
            });
            rig.tx.stageQuietDespawn(watched, Entity.slot(watched));
            rig.drain.drain();
            for (int i = 0; i < 3; i++) {
                assertEquals(EntityIndex.FREE, rig.index.stateOf(n[i]), "published in the next wave");
            }
            assertTrue(rig.index.isAlive(n[3]) && rig.index.isAlive(spawned[0]));
            // call order n[0], n[1], n[2]: n[3] (the last row) filled n[0]'s row 0, then the spawn came after
            assertEquals(java.util.List.of(n[3], spawned[0]), java.util.List.of(rig.tableOf(n[3]).entityAt(0),
                    rig.tableOf(n[3]).entityAt(1)));
            assertEquals(Entity.slot(n[2]), Entity.slot(rig.index.allocate()), "freed last, reused first");
            assertEquals(Entity.slot(n[1]), Entity.slot(rig.index.allocate()));
            assertEquals(Entity.slot(n[0]), Entity.slot(rig.index.allocate()));
            assertFalse(rig.tx.anyDoomed());
            assertTrue(rig.tx.isEmpty());
        }
    }

    @Test
    void discardingStagedWorkUnmarksItsQuietDespawns() {
        long a = stageSpawn(N.of(1));
        drain.drain();
        tx.stageQuietDespawn(a, Entity.slot(a));
        assertTrue(drain.hasWork());
        drain.discardStaged();
        assertTrue(index.isAlive(a));
        assertFalse(tx.isDoomed(Entity.slot(a)));
        assertTrue(tx.isEmpty());
        assertFalse(drain.hasWork());
    }

    @Test
    void aLoneSpawnGrowsItsTableForItsRowAndRunsTheHooksOfAWholeWave() {
        java.util.List<String> log = new java.util.ArrayList<>();
        CommitDrain drain = drainWith(logging(log));
        long a = stageSpawn(N.of(4), T);
        drain.publish();
        assertEquals(java.util.List.of("segment", "settle", "ended true"), log);
        assertTrue(index.isAlive(a));
        Table table = tableOf(a);
        assertTrue(table.has(T.id()));
        assertEquals(4, table.readValue(table.position(N.id()), index.rowOf(Entity.slot(a))));
        assertEquals(a, table.entityAt(index.rowOf(Entity.slot(a))));
        assertTrue(table.capacityRows() >= 1);
        assertTrue(tx.isEmpty());
    }

    @Test
    void aLoneSpawnWhoseValueThrowsReleasesItsIdAndLeavesNoRow() {
        CommitDrain drain = drainWith(DrainHooks.NONE);
        FACTORY_CALLS.set(0);
        long before = stageSpawn(N.of(1), FRAGILE); // a row of the same table, placed before the failure
        drain.publish();
        Table table = tableOf(before);
        long failed = stageSpawn(N.of(2), FRAGILE); // the factory's second call throws
        assertThrows(IllegalStateException.class, drain::publish);
        assertEquals(EntityIndex.FREE, index.stateOf(failed), "the reserved id went stale");
        assertEquals(1, table.count(), "the failed row was undone");
        assertTrue(tx.isEmpty());
        assertFalse(drain.hasWork());
    }

    @Test
    void aLoneSpawnWhoseTableCannotGrowReleasesItsIdAndChangesNothing() {
        CommitDrain drain = drainWith(DrainHooks.NONE);
        long first = stageSpawn(N.of(1), T);
        drain.publish();
        Table table = tableOf(first);
        for (int i = table.count(); i < table.capacityRows(); i++) {
            stageSpawn(N.of(1), T); // fill it: the next spawn must grow it
        }
        drain.publish();
        int count = table.count();
        assertEquals(table.capacityRows(), count);
        long failed = stageSpawn(N.of(9), T);
        AllocationFaults.failAt(AllocationFaults.Kind.NATIVE, 1);
        try {
            assertThrows(OutOfMemoryError.class, drain::publish);
        } finally {
            AllocationFaults.disarm();
        }
        assertEquals(EntityIndex.FREE, index.stateOf(failed));
        assertEquals(count, table.count());
        assertTrue(tx.isEmpty());
        long again = stageSpawn(N.of(9), T);
        drain.publish();
        assertTrue(index.isAlive(again), "the drain keeps working");
    }

    @Test
    void aLoneTagMoveWhoseDestinationCannotGrowChangesNothingAndTheDrainKeepsWorking() {
        CommitDrain drain = drainWith(DrainHooks.NONE);
        long a = stageSpawn(N.of(1));
        drain.publish();
        Table source = tableOf(a);
        tx.stageTagMove(a, Entity.slot(a), T, true, tableOf(a));
        AllocationFaults.failAt(AllocationFaults.Kind.NATIVE, 1); // the destination's first buffer
        try {
            assertThrows(OutOfMemoryError.class, drain::publish);
        } finally {
            AllocationFaults.disarm();
        }
        assertSame(source, tableOf(a));
        assertEquals(1, source.count());
        assertTrue(tx.isEmpty(), "the failed wave's move was discarded");
        assertFalse(drain.hasWork());
        tx.stageTagMove(a, Entity.slot(a), T, true, tableOf(a));
        drain.publish();
        assertTrue(tableOf(a).has(T.id()), "the drain keeps working");
        assertEquals(1, tableOf(a).readValue(tableOf(a).position(N.id()), index.rowOf(Entity.slot(a))));
    }

    @Test
    void aWaveOfOneTagMoveAndOneRecordPublishesBoth() {
        CommitDrain drain = drainWith(DrainHooks.NONE);
        long a = stageSpawn(N.of(1));
        drain.publish();
        tx.stageTagMove(a, Entity.slot(a), T, true, tableOf(a));
        long b = stageSpawn(N.of(2));
        drain.publish();
        assertTrue(tableOf(a).has(T.id()));
        assertTrue(index.isAlive(b), "the record published beside the move");
        assertEquals(2, tableOf(b).readValue(tableOf(b).position(N.id()), index.rowOf(Entity.slot(b))));
        tx.begin(b, Entity.slot(b), TxState.STAGED_DESPAWN);
        tx.stageTagMove(a, Entity.slot(a), T, false, tableOf(a));
        drain.publish();
        assertFalse(index.isAlive(b));
        assertFalse(tableOf(a).has(T.id()), "the move published beside the despawn");
        assertTrue(tx.isEmpty());
    }

    @Test
    void aWaveOfTwoRecordsPublishesBoth() {
        CommitDrain drain = drainWith(DrainHooks.NONE);
        long a = stageSpawn(N.of(1));
        long b = stageSpawn(N.of(2));
        drain.publish();
        assertTrue(index.isAlive(a) && index.isAlive(b));
        tx.begin(a, Entity.slot(a), TxState.STAGED_DESPAWN);
        tx.begin(b, Entity.slot(b), TxState.STAGED_DESPAWN);
        drain.publish();
        assertFalse(index.isAlive(a));
        assertFalse(index.isAlive(b));
        assertTrue(tx.isEmpty());
    }

    @Test
    void aWaveOfSparseWritesOnlyAppliesThemInOrderAndEndsLikeAWholeWave() {
        java.util.List<String> log = new java.util.ArrayList<>();
        CommitDrain drain = drainWith(new DrainHooks() {
            @Override
            public void applySparse(long entity, byte op, dev.jtecs.component.BaseRelationship<?> relationship,
                    long target, Object payload) {
                if (target == 13) {
                    throw new IllegalStateException("edge store failed");
                }
                log.add(entity + "->" + target);
            }

            @Override
            public void segmentDone() {
                log.add("segment");
            }

            @Override
            public void settleSparse() {
                log.add("settle");
            }

            @Override
            public void publicationEnded(boolean published) {
                log.add("ended " + published);
            }
        });
        long a = stageSpawn(N.of(1));
        long b = stageSpawn(N.of(2));
        drain.publish();
        tx.begin(b, Entity.slot(b), TxState.STAGED_DESPAWN);
        drain.publish();
        log.clear();
        sparse.stage(a, SparseWriteQueue.ADD, FOLLOWS, 11, null, tx.openOps());
        sparse.stage(b, SparseWriteQueue.ADD, FOLLOWS, 12, null, tx.openOps()); // b is dead: skipped
        sparse.stage(a, SparseWriteQueue.ADD, FOLLOWS, 14, null, tx.openOps());
        drain.publish();
        assertEquals(java.util.List.of(a + "->11", a + "->14", "segment", "settle", "ended true"), log);
        assertFalse(drain.hasWork());

        log.clear();
        sparse.stage(a, SparseWriteQueue.ADD, FOLLOWS, 15, null, tx.openOps());
        sparse.stage(a, SparseWriteQueue.ADD, FOLLOWS, 13, null, tx.openOps()); // throws
        sparse.stage(a, SparseWriteQueue.ADD, FOLLOWS, 16, null, tx.openOps());
        assertThrows(IllegalStateException.class, drain::publish);
        assertEquals(java.util.List.of(a + "->15", "ended false"), log, "applied before the failure: stays");
        assertFalse(drain.hasWork(), "the rest was discarded");
        log.clear();
        sparse.stage(a, SparseWriteQueue.ADD, FOLLOWS, 17, null, tx.openOps());
        drain.publish();
        assertEquals(java.util.List.of(a + "->17", "segment", "settle", "ended true"), log, "it keeps working");
    }

    @Test
    void aWaveOfATagMoveAndSparseWritesPublishesBoth() {
        java.util.List<String> log = new java.util.ArrayList<>();
        CommitDrain drain = drainWith(new DrainHooks() {
            @Override
            public void applySparse(long entity, byte op, dev.jtecs.component.BaseRelationship<?> relationship,
                    long target, Object payload) {
                log.add(entity + "->" + target);
            }
        });
        long a = stageSpawn(N.of(1));
        drain.publish();
        tx.stageTagMove(a, Entity.slot(a), T, true, tableOf(a));
        sparse.stage(a, SparseWriteQueue.ADD, FOLLOWS, 21, null, tx.openOps());
        drain.publish();
        assertTrue(tableOf(a).has(T.id()), "the move published beside the writes");
        assertEquals(java.util.List.of(a + "->21"), log);
        assertTrue(tx.isEmpty());
        assertFalse(drain.hasWork());
    }

    @Test
    void failedPublicationKeepsPublishedRowsAndDiscardsTheRest() {
        FACTORY_CALLS.set(0);
        long first = stageSpawn(FRAGILE);
        long second = stageSpawn(FRAGILE);
        long third = stageSpawn(FRAGILE);
        assertThrows(IllegalStateException.class, drain::drain);
        assertTrue(index.isAlive(first), "published before the failure: stays");
        assertFalse(index.isAlive(second));
        assertFalse(index.isAlive(third));
        assertEquals(EntityIndex.FREE, index.stateOf(second), "the reserved id went stale");
        assertEquals(1, tableOf(first).count(), "the failed row was undone");
        assertTrue(tx.isEmpty());
        long again = stageSpawn(FRAGILE);
        drain.drain();
        assertTrue(index.isAlive(again), "the drain keeps working");
    }

    static final Relationship FOLLOWS = Relationships.register("test.drain.Follows", o -> o.sparse());

    @Test
    void aFailedWaveStillGivesEveryPublishedRowItsSparseEdgesWhateverTheSlotOrder() {
        java.util.List<Long> applied = new java.util.ArrayList<>();
        CommitDrain drain = drainWith(new DrainHooks() {
            @Override
            public void applySparse(long entity, byte op, dev.jtecs.component.BaseRelationship<?> relationship,
                    long target, Object payload) {
                applied.add(entity);
            }
        });
        long low = index.allocate();
        long mid = index.allocate();
        long high = index.allocate();
        // published in the order high, mid, low: the published slots come out in descending order
        for (long id : new long[] {high, mid, low}) {
            int r = tx.begin(id, Entity.slot(id), TxState.STAGED_SPAWN);
            tx.put(r, N, N.of((int) id));
            sparse.stage(id, SparseWriteQueue.ADD, FOLLOWS, 99, null, tx.openOps());
        }
        long failing = stageSpawn(FRAGILE);
        FACTORY_CALLS.set(1); // its default factory throws on the next call
        IllegalStateException e = assertThrows(IllegalStateException.class, drain::drain);
        assertEquals("factory failed", e.getMessage());
        assertFalse(index.isAlive(failing));
        for (long id : new long[] {high, mid, low}) {
            assertTrue(index.isAlive(id), "published before the failure");
        }
        applied.sort(null);
        assertEquals(java.util.List.of(low, mid, high), applied, "each published row got its edge, once");
        assertFalse(drain.hasWork(), "the rest was discarded");
    }

    @Test
    void clearAllTellsEveryTableItsRowsLeftThenDropsEverythingStaged() {
        long a = stageSpawn(N.of(1));
        long b = stageSpawn(N.of(2), T);
        drain.drain();
        Table tableA = tableOf(a);
        Table tableB = tableOf(b);
        java.util.List<String> events = new java.util.ArrayList<>();
        for (Table table : new Table[] {tableA, tableB}) {
            String name = table == tableA ? "A" : "B";
            table.addObserver(new dev.jtecs.storage.EntityObserver() {
                @Override
                public void onEntitiesRemoved(dev.jtecs.storage.Archetype archetype, int from, int to,
                        dev.jtecs.storage.Archetype other) {
                    events.add(name + " removed " + from + ".." + to);
                }

                @Override
                public void onDeactivated(dev.jtecs.storage.Archetype archetype) {
                    events.add(name + " deactivated");
                }
            });
        }
        long staged = stageSpawn(N.of(3)); // a spawn whose id is reserved
        sparse.stage(a, SparseWriteQueue.ADD, FOLLOWS, 9, null, tx.openOps());
        BatchOp despawnB = BatchOp.query(BatchOp.Kind.DESPAWN, new Table[] {tableB}, new long[][] {null},
                new long[] {tableB.dirty().structuralCount()}, new int[] {tableB.count()}, null, null, null, tx);
        tx.addOp(despawnB); // a query batch that never runs
        assertTrue(tableB.hasPendingDespawn());
        BatchOp.SpawnPlan plan = drain.planSpawn(new dev.jtecs.component.Input[] {T}, false);
        long batchFirst = index.allocateBatch(2, plan.table().id(), null);
        tx.addOp(BatchOp.spawn(BatchOp.Kind.SPAWN, plan, 2, batchFirst, null, null)); // a spawn batch, reserved
        int doomed = tx.begin(b, Entity.slot(b), TxState.STAGED_DESPAWN);
        assertEquals(1, doomed);

        drain.clearAll();

        assertEquals(java.util.List.of("A removed 0..1", "B removed 0..1", "A deactivated", "B deactivated"),
                events, "every table's rows leave first, then each table deactivates");
        assertEquals(0, tableA.count());
        assertEquals(0, tableB.count());
        assertFalse(drain.hasWork(), "no staged record, op or sparse write is left");
        assertTrue(tx.isEmpty());
        assertTrue(sparse.isEmpty());
        assertFalse(tableB.hasPendingDespawn(), "the batch's capture is withdrawn");
        assertEquals(EntityIndex.FREE, index.stateOf(staged), "the staged spawn's reserved id is released");
        assertEquals(EntityIndex.FREE, index.stateOf(batchFirst), "and the spawn batch's");
        assertEquals(EntityIndex.FREE, index.stateOf(batchFirst + 1));
        assertFalse(tx.isDoomed(Entity.slot(b)), "no selection mark is left");
    }

    /** An entity observer that throws from {@code onEntityMove} and {@code onDeactivated}. */
    private static dev.jtecs.storage.EntityObserver throwingOnRowMoves() {
        return new dev.jtecs.storage.EntityObserver() {
            @Override
            public void onEntityMove(dev.jtecs.storage.Archetype archetype, long entity, int fromRow, int toRow) {
                throw new IllegalStateException("move observer failed");
            }

            @Override
            public void onDeactivated(dev.jtecs.storage.Archetype archetype) {
                throw new IllegalStateException("deactivation observer failed");
            }
        };
    }

    @Test
    void aThrowingMoveObserverDuringADespawnLeavesAZombie() {
        // issue 18, defect 3
        java.util.List<Long> despawned = new java.util.ArrayList<>();
        CommitDrain drain = drainWith(new DrainHooks() {
            @Override
            public void despawned(long id) {
                despawned.add(id);
            }
        });
        long first = stageSpawn(N.of(1));
        long second = stageSpawn(N.of(2));
        drain.drain();
        Table table = tableOf(first);
        table.addObserver(throwingOnRowMoves());
        tx.begin(first, Entity.slot(first), TxState.STAGED_DESPAWN); // row 0: the last row moves into it
        IllegalStateException e = assertThrows(IllegalStateException.class, drain::drain);
        assertEquals("move observer failed", e.getMessage());
        assertFalse(index.isAlive(first), "the despawn happened: the id must not outlive its row");
        assertEquals(EntityIndex.FREE, index.stateOf(first));
        assertEquals(java.util.List.of(first), despawned, "the despawn was reported all the same");
        assertEquals(1, table.count());
        assertEquals(second, table.entityAt(0));
        assertEquals(0, index.rowOf(Entity.slot(second)));
        assertEquals(2, table.readValue(table.position(N.id()), index.rowOf(Entity.slot(second))));
        assertFalse(tx.isDoomed(Entity.slot(first)));

        tx.begin(second, Entity.slot(second), TxState.STAGED_DESPAWN); // the last row: the table deactivates
        e = assertThrows(IllegalStateException.class, drain::drain);
        assertEquals("deactivation observer failed", e.getMessage());
        assertFalse(index.isAlive(second));
        assertEquals(0, table.count());
        assertEquals(java.util.List.of(first, second), despawned);
        long again = stageSpawn(N.of(3));
        drain.drain();
        assertTrue(index.isAlive(again), "the drain keeps working");
    }

    /** An observer of {@code table} that runs {@code onAdded} each time rows arrive. */
    private static dev.jtecs.storage.EntityObserver onRowsAdded(Table table, Runnable onAdded) {
        var observer = new dev.jtecs.storage.EntityObserver() {
            @Override
            public void onEntitiesAdded(dev.jtecs.storage.Archetype archetype, int from, int to,
                    dev.jtecs.storage.Archetype other) {
                onAdded.run();
            }
        };
        table.addObserver(observer);
        return observer;
    }

    @Test
    void theWaveBoundAllowsExactlyThatManyWavesAndMustBeAtLeastOne() {
        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class, () -> new CommitDrain(index,
                registry, tx, sparse, new KeyIndex(id -> null), null, DrainHooks.NONE, 0));
        assertEquals("maxWaves=0 must be at least 1", bad.getMessage());
        long first = stageSpawn(N.of(1));
        drain.drain();
        Table table = tableOf(first);
        for (int bound = 1; bound <= 2; bound++) {
            CommitDrain bounded = new CommitDrain(index, registry, tx, sparse, new KeyIndex(id -> null),
                    new LifecycleEvents(index, registry, new dev.jtecs.event.internal.ObserverRegistry(), null),
                    DrainHooks.NONE, bound);
            java.util.List<Boolean> drainingSeen = new java.util.ArrayList<>();
            long[] cascaded = new long[1];
            AtomicInteger arrivals = new AtomicInteger();
            var observer = onRowsAdded(table, () -> {
                drainingSeen.add(bounded.isDraining());
                if (arrivals.incrementAndGet() == 1) {
                    cascaded[0] = stageSpawn(N.of(3)); // staged by a callback: the next wave publishes it
                }
            });
            long trigger = stageSpawn(N.of(2));
            if (bound == 1) {
                IllegalStateException e = assertThrows(IllegalStateException.class, bounded::drain);
                assertTrue(e.getMessage().startsWith("commit did not reach a fixed point after 1 waves"),
                        e.getMessage());
                assertTrue(index.isAlive(trigger), "the first wave published");
                assertEquals(EntityIndex.FREE, index.stateOf(cascaded[0]), "the wave past the bound was discarded");
            } else {
                bounded.drain(); // two waves: the bound allows them
                assertTrue(index.isAlive(trigger));
                assertTrue(index.isAlive(cascaded[0]), "the callback's spawn published in the second wave");
            }
            assertFalse(bounded.isDraining());
            assertFalse(bounded.hasWork());
            assertTrue(drainingSeen.size() >= 1);
            assertFalse(drainingSeen.contains(false), "callbacks run while the drain is draining");
            table.removeObserver(observer);
        }
    }

    @Test
    void aSpawnCancelledInItsWaveReleasesItsIdOnceAndIsReportedDespawned() {
        java.util.List<Long> despawned = new java.util.ArrayList<>();
        CommitDrain drain = drainWith(new DrainHooks() {
            @Override
            public void despawned(long id) {
                despawned.add(id);
            }
        });
        long kept = stageSpawn(N.of(1));
        long cancelled = stageSpawn(N.of(2)); // spawn(...) then despawn(...) in one scope
        tx.cancelInto(tx.find(Entity.slot(cancelled)), TxState.CANCELLED_SPAWN);
        drain.drain();
        assertTrue(index.isAlive(kept));
        assertEquals(EntityIndex.FREE, index.stateOf(cancelled), "its reserved id went stale");
        assertEquals(java.util.List.of(cancelled), despawned, "edges staged to it are told it died");
        assertEquals(1, tableOf(kept).count());

        // the same in a wave that fails after the cancelled spawn was released: it is not released twice
        FACTORY_CALLS.set(1); // the next default of FRAGILE throws
        long again = stageSpawn(N.of(3));
        tx.cancelInto(tx.find(Entity.slot(again)), TxState.CANCELLED_SPAWN);
        long failing = stageSpawn(FRAGILE);
        assertThrows(IllegalStateException.class, drain::drain);
        assertEquals(EntityIndex.FREE, index.stateOf(again));
        assertEquals(EntityIndex.FREE, index.stateOf(failing));
        java.util.Set<Integer> slots = new java.util.HashSet<>();
        for (int i = 0; i < 4; i++) {
            assertTrue(slots.add(Entity.slot(index.allocate())), "each freed slot is handed out once");
        }
    }

    @Test
    void despawningAnUnplacedMemberOfASpawnBatchFreesItsIdAndClearsItsMark() {
        java.util.List<Long> despawned = new java.util.ArrayList<>();
        CommitDrain drain = drainWith(new DrainHooks() {
            @Override
            public void despawned(long id) {
                despawned.add(id);
            }
        });
        BatchOp.SpawnPlan plan = drain.planSpawn(new dev.jtecs.component.Input[] {N.of(5)}, false);
        long first = index.allocateBatch(3, plan.table().id(), null);
        tx.addOp(BatchOp.spawn(BatchOp.Kind.SPAWN, plan, 3, first, null, null));
        long member = first + 1;
        int slot = Entity.slot(member);
        tx.begin(member, slot, TxState.STAGED_DESPAWN); // as Staging.despawn stages it
        tx.doom(slot);
        tx.noteBatchCancel();
        drain.drain();
        assertEquals(EntityIndex.FREE, index.stateOf(member), "it never got a row; its id went stale");
        assertFalse(tx.isDoomed(slot), "the slot comes back unmarked");
        assertFalse(tx.anyDoomed());
        assertEquals(java.util.List.of(member), despawned);
        assertTrue(index.isAlive(first) && index.isAlive(first + 2));
        assertEquals(2, plan.table().count());
        long reused = index.allocate();
        assertEquals(slot, Entity.slot(reused), "the freed slot is reused");
        assertFalse(tx.isDoomed(Entity.slot(reused)), "and does not carry the old mark");
    }

    @Test
    void aWaveGrowsEachDestinationOnceBeforeAnyCallbackRuns() {
        long first = stageSpawn(N.of(0));
        drain.drain();
        Table table = tableOf(first);
        assertEquals(Table.ROW_PADDING, table.capacityRows());
        java.util.List<Integer> capacities = new java.util.ArrayList<>();
        onRowsAdded(table, () -> capacities.add(table.capacityRows()));
        for (int i = 1; i <= 200; i++) {
            stageSpawn(N.of(i));
        }
        drain.drain();
        assertEquals(201, table.count());
        assertEquals(200, capacities.size(), "one callback per spawn");
        assertEquals(java.util.Set.of(256), java.util.Set.copyOf(capacities),
                "grown once, for all 201 rows, before the first callback: no buffer moves under the callbacks");
    }

    static final TagComponent[] KINDS = new TagComponent[40];

    static {
        for (int i = 0; i < KINDS.length; i++) {
            KINDS[i] = Components.tag("test.drain.Kind" + i);
        }
    }

    @Test
    void oneWaveSpawningIntoManyArchetypesReservesEachOfThem() {
        long[] seeds = new long[KINDS.length];
        for (int i = 0; i < KINDS.length; i++) { // one archetype per kind, created in this order
            seeds[i] = stageSpawn(N.of(i), KINDS[i]);
        }
        drain.drain();
        int highest = tableOf(seeds[KINDS.length - 1]).id();
        assertTrue(highest >= 2 * 16 + 1, "table ids past twice the drain's first tally: " + highest);
        CommitDrain fresh = drainWith(DrainHooks.NONE); // its tallies have never seen a table: they grow now
        long[] ids = new long[KINDS.length * 20];
        for (int i = KINDS.length - 1; i >= 0; i--) { // the highest table id is tallied first
            for (int k = 0; k < 20; k++) {
                ids[i * 20 + k] = stageSpawn(N.of(1000 * i + k), KINDS[i]);
            }
        }
        fresh.drain();
        for (int i = 0; i < KINDS.length; i++) {
            Table table = tableOf(seeds[i]);
            assertEquals(21, table.count());
            for (int k = 0; k < 20; k++) {
                long id = ids[i * 20 + k];
                assertTrue(index.isAlive(id));
                assertEquals(1000 * i + k, table.readValue(table.position(N.id()), index.rowOf(Entity.slot(id))));
            }
        }
    }

    @Test
    void aDespawnFailingAtAnyHeapAllocationLeavesTheEntityWholeOrGone() {
        int failures = 0;
        for (int k = 1; ; k++) {
            try (DrainFixture rig = new DrainFixture()) {
                long[] ids = new long[65];
                for (int i = 0; i < ids.length; i++) {
                    ids[i] = rig.stageSpawn(N.of(i));
                }
                rig.drain.drain();
                Table table = rig.tableOf(ids[0]);
                for (int i = 1; i < ids.length; i++) { // 64 freed slots: the free stack is full
                    rig.tx.begin(ids[i], Entity.slot(ids[i]), TxState.STAGED_DESPAWN);
                }
                rig.drain.drain();
                java.util.List<String> events = new java.util.ArrayList<>();
                table.addObserver(new dev.jtecs.storage.EntityObserver() {
                    @Override
                    public void onEntitiesRemoved(dev.jtecs.storage.Archetype archetype, int from, int to,
                            dev.jtecs.storage.Archetype other) {
                        events.add("removed");
                    }

                    @Override
                    public void onEntitiesAdded(dev.jtecs.storage.Archetype archetype, int from, int to,
                            dev.jtecs.storage.Archetype other) {
                        events.add("added");
                    }
                });
                long last = ids[0];
                rig.tx.begin(last, Entity.slot(last), TxState.STAGED_DESPAWN);
                boolean failed = drainFailsAtHeapAllocation(rig, k);
                if (!failed) {
                    assertTrue(failures > 0, "some allocation of the despawn was failed");
                    assertEquals(EntityIndex.FREE, rig.index.stateOf(last));
                    assertEquals(0, table.count());
                    assertEquals(java.util.List.of("removed"), events);
                    return;
                }
                failures++;
                String when = "heap allocation " + k + " failed";
                assertTrue(rig.index.isAlive(last), "it failed before the row left: the entity stays, " + when);
                assertEquals(1, table.count(), when);
                assertEquals(last, table.entityAt(0), when);
                assertEquals(0, rig.index.rowOf(Entity.slot(last)), when);
                assertEquals(java.util.List.of(), events, "no observer heard of a removal that did not happen, " + when);
                rig.tx.begin(last, Entity.slot(last), TxState.STAGED_DESPAWN); // the world goes on
                rig.drain.drain();
                assertEquals(EntityIndex.FREE, rig.index.stateOf(last), when);
            }
        }
    }

    @Test
    void clearAllLeavesATableThatIsEmptyAlreadyUnannounced() {
        long a = stageSpawn(N.of(1));
        long b = stageSpawn(N.of(2), T);
        drain.drain();
        Table full = tableOf(a);
        Table emptied = tableOf(b);
        tx.begin(b, Entity.slot(b), TxState.STAGED_DESPAWN);
        drain.drain();
        assertEquals(0, emptied.count());
        java.util.List<String> events = new java.util.ArrayList<>();
        for (Table table : new Table[] {full, emptied}) {
            String name = table == full ? "full" : "emptied";
            table.addObserver(new dev.jtecs.storage.EntityObserver() {
                @Override
                public void onEntitiesRemoved(dev.jtecs.storage.Archetype archetype, int from, int to,
                        dev.jtecs.storage.Archetype other) {
                    events.add(name + " removed " + from + ".." + to);
                }

                @Override
                public void onDeactivated(dev.jtecs.storage.Archetype archetype) {
                    events.add(name + " deactivated");
                }
            });
        }
        drain.clearAll();
        assertEquals(java.util.List.of("full removed 0..1", "full deactivated"), events,
                "a table with no rows loses none and was deactivated when its last row left");
        assertEquals(0, full.count());
    }

    @Test
    void aQueryBatchPublishesBetweenTheSparseWritesStagedBeforeAndAfterIt() {
        java.util.List<String> log = new java.util.ArrayList<>();
        CommitDrain drain = drainWith(new DrainHooks() {
            @Override
            public void applySparse(long entity, byte op, dev.jtecs.component.BaseRelationship<?> relationship,
                    long target, Object payload) {
                String what = op == SparseWriteQueue.ADD ? "add " + target
                        : op == SparseWriteQueue.REMOVE_ALL ? "remove all" : "op " + op;
                log.add(what + " of " + (entity == a ? "a" : entity == b ? "b" : Long.toString(entity)));
            }

            @Override
            public void segmentDone() {
                log.add("segment done");
            }

            @Override
            public void settleSparse() {
                log.add("settle");
            }
        });
        a = stageSpawn(N.of(1), FOLLOWS); // both hold the sparse relationship's marker
        b = stageSpawn(N.of(2), FOLLOWS);
        drain.drain();
        log.clear();
        Table table = tableOf(a);
        assertEquals(2, table.count());
        sparse.stage(a, SparseWriteQueue.ADD, FOLLOWS, 7, null, tx.openOps()); // before the batch
        BatchOp remove = BatchOp.query(BatchOp.Kind.REMOVE, new Table[] {table}, new long[][] {null},
                new long[] {table.dirty().structuralCount()}, new int[] {table.count()}, FOLLOWS, null, null, tx)
                .withSparse(BatchOp.SparseEdit.of(SparseWriteQueue.REMOVE_ALL, FOLLOWS, 0, null));
        tx.addOp(remove); // batchRemove(query, FOLLOWS)
        sparse.stage(b, SparseWriteQueue.ADD, FOLLOWS, 8, null, tx.openOps()); // after it
        drain.drain();
        assertEquals(java.util.List.of("add 7 of a", "segment done", "remove all of a", "remove all of b",
                "segment done", "add 8 of b", "segment done", "settle"), log,
                "each write publishes on its side of the batch, the batch edits each member once, and the hooks hear "
                        + "each segment end and the wave's settlement");
        assertFalse(tableOf(a).has(FOLLOWS.id()), "the batch removed the marker");
        assertEquals(tableOf(a), tableOf(b));
    }

    private long a;
    private long b;

    @Test
    void theRecordsAfterARunOfDespawnsFromOneTablePublishToo() {
        long[] many = new long[BatchDespawns.MIN_RUN];
        for (int i = 0; i < many.length; i++) {
            many[i] = stageSpawn(N.of(i));
        }
        long other = stageSpawn(N.of(100), T);
        long kept = stageSpawn(N.of(101), T);
        drain.drain();
        for (long id : many) { // one run of despawns from one unobserved table: despawned as a group
            tx.begin(id, Entity.slot(id), TxState.STAGED_DESPAWN);
        }
        tx.begin(other, Entity.slot(other), TxState.STAGED_DESPAWN); // the record right after the run
        long fresh = stageSpawn(N.of(102), T);
        drain.drain();
        for (long id : many) {
            assertEquals(EntityIndex.FREE, index.stateOf(id));
        }
        assertEquals(EntityIndex.FREE, index.stateOf(other), "the despawn after the run published");
        assertTrue(index.isAlive(kept) && index.isAlive(fresh));
        assertEquals(2, tableOf(kept).count());
    }

    @Test
    void aChangeStagedOnAnUnplacedBatchMemberOfTheRootArchetypeMovesItFromThere() {
        BatchOp.SpawnPlan plan = drain.planSpawn(new dev.jtecs.component.Input[0], false);
        assertEquals(0, plan.table().id(), "a batch of no components goes to the root archetype");
        long first = index.allocateBatch(2, plan.table().id(), null);
        tx.addOp(BatchOp.spawn(BatchOp.Kind.SPAWN, plan, 2, first, null, null));
        int r = tx.begin(first, Entity.slot(first), TxState.STAGED_MUTATE); // set(member, N.of(5)) in its scope
        tx.put(r, N, N.of(5));
        drain.drain();
        assertTrue(index.isAlive(first) && index.isAlive(first + 1));
        Table table = tableOf(first);
        assertTrue(table.has(N.id()), "the member moved on from the root archetype its batch placed it in");
        assertEquals(5, table.readValue(table.position(N.id()), index.rowOf(Entity.slot(first))));
        assertEquals(registry.root(), tableOf(first + 1));
    }

    @Test
    void aDestinationPrunedBetweenTwoDrainsIsNotReused() {
        long a = stageSpawn(N.of(1));
        long b = stageSpawn(N.of(2));
        drain.drain();
        Table source = tableOf(a);
        int r = tx.begin(a, Entity.slot(a), TxState.STAGED_MUTATE); // add(a, T): the graph's edge to N+T
        tx.put(r, T, T);
        drain.drain();
        Table tagged = tableOf(a);
        tx.begin(a, Entity.slot(a), TxState.STAGED_DESPAWN);
        drain.drain();
        registry.prune(tagged); // compaction drops the empty table
        assertTrue(tagged.isPruned());
        r = tx.begin(b, Entity.slot(b), TxState.STAGED_MUTATE); // the same lone change from the same table
        tx.put(r, T, T);
        drain.drain();
        Table now = tableOf(b);
        assertFalse(now.isPruned(), "the entity went to a live table");
        assertTrue(now.has(T.id()) && now.has(N.id()));
        assertEquals(now, registry.get(now.id()));
        assertEquals(2, now.readValue(now.position(N.id()), index.rowOf(Entity.slot(b))));
        assertEquals(0, source.count());
    }

    /** Three entities of N: {@code b} and {@code c} alive in {@code source} ({@code a} moved on and despawned). */
    private record Pruned(Table source, long b, long c) {}

    /**
     * Spawns three entities of N and leaves the drain's cache of the last lone change holding N -> N+T with N+T
     * pruned: the last drain moved the first entity there (caching the change) and a callback despawned it in the
     * same drain, then compaction pruned the empty table.
     */
    private Pruned cacheAPrunedDestination() {
        long a = stageSpawn(N.of(1));
        long b = stageSpawn(N.of(2));
        long c = stageSpawn(N.of(3));
        drain.drain();
        Table source = tableOf(a);
        Table tagged = registry.withAdded(source, T);
        var despawnMoved = onRowsAdded(tagged, () -> {
            if (index.isAlive(a) && !tx.hasStaged(Entity.slot(a))) {
                tx.begin(a, Entity.slot(a), TxState.STAGED_DESPAWN);
            }
        });
        int r = tx.begin(a, Entity.slot(a), TxState.STAGED_MUTATE); // add(a, T): the graph's edge to N+T
        tx.put(r, T, T);
        drain.drain();
        tagged.removeObserver(despawnMoved);
        assertFalse(index.isAlive(a), "moved to N+T, then despawned in the same drain");
        assertEquals(0, tagged.count());
        registry.prune(tagged); // compaction drops the empty table
        assertTrue(tagged.isPruned());
        return new Pruned(source, b, c);
    }

    /** {@code b} went through the same lone change N -> N+T in a wave after the cache went stale: to a live table. */
    private void assertTaggedInALiveTable(long b, int n) {
        Table now = tableOf(b);
        assertFalse(now.isPruned(), "the entity went to a live table");
        assertTrue(now.has(T.id()) && now.has(N.id()));
        assertEquals(now, registry.get(now.id()));
        assertEquals(n, now.readValue(now.position(N.id()), index.rowOf(Entity.slot(b))));
    }

    /** Stages the lone change N -> N+T for {@code b}, unless something is staged for it already. */
    private void stageTag(long b) {
        if (index.isAlive(b) && !tx.hasStaged(Entity.slot(b))) {
            int change = tx.begin(b, Entity.slot(b), TxState.STAGED_MUTATE);
            tx.put(change, T, T);
        }
    }

    @Test
    void anInstantDespawnDoesNotReuseADestinationPrunedSinceTheLastDrain() {
        // a callback of the instant despawn's row removal stages the cached change again: its wave resolves it
        Pruned pruned = cacheAPrunedDestination();
        long b = pruned.b();
        long c = pruned.c();
        pruned.source().addObserver(new dev.jtecs.storage.EntityObserver() {
            @Override
            public void onEntitiesRemoved(dev.jtecs.storage.Archetype archetype, int fromRow, int toRow,
                    dev.jtecs.storage.Archetype other) {
                stageTag(b);
            }
        });
        assertTrue(drain.despawnAtOnce(c));
        assertFalse(index.isAlive(c));
        assertTaggedInALiveTable(b, 2);
    }

    @Test
    void aValueMovedAtOnceDoesNotReuseADestinationPrunedSinceTheLastDrain() {
        // the accessor of the value moved at once stages the cached change again: the move's next wave resolves it
        Pruned pruned = cacheAPrunedDestination();
        long b = pruned.b();
        long c = pruned.c();
        Table source = pruned.source();
        registry.withAdded(source, MutationModelTest.MEDDLER); // the edge a move at once takes
        MutationModelTest.Meddler.meddle = () -> stageTag(b);
        assertTrue(drain.moveValueAtOnce(c, MutationModelTest.MEDDLER.of(new MutationModelTest.Meddler(4)), source));
        assertTrue(tableOf(c).has(MutationModelTest.MEDDLER.id()));
        assertTaggedInALiveTable(b, 2);
    }

    @Test
    void aCancelledSpawnsSlotIsFreeBeforeTheWavesCallbacksRun() {
        long seed = stageSpawn(N.of(0));
        drain.drain();
        Table table = tableOf(seed);
        long[] spawnedByCallback = new long[1];
        var observer = onRowsAdded(table, () -> {
            if (spawnedByCallback[0] == 0) {
                spawnedByCallback[0] = stageSpawn(N.of(9)); // a callback spawns: it takes the last slot freed
            }
        });
        long placed = stageSpawn(N.of(1)); // staged first ...
        long cancelled = stageSpawn(N.of(2)); // ... then spawned and despawned in one scope
        tx.cancelInto(tx.find(Entity.slot(cancelled)), TxState.CANCELLED_SPAWN);
        drain.drain();
        table.removeObserver(observer);
        assertTrue(index.isAlive(placed));
        assertEquals(EntityIndex.FREE, index.stateOf(cancelled));
        assertTrue(index.isAlive(spawnedByCallback[0]));
        assertEquals(Entity.slot(cancelled), Entity.slot(spawnedByCallback[0]),
                "released with the despawns, before the spawn phase's callbacks");
    }

    @Test
    void aFailedWaveForgetsTheObserversOfTheIdsItReleases() {
        try (DrainFixture rig = new DrainFixture()) {
            FACTORY_CALLS.set(1); // the next default of FRAGILE throws
            long failing = rig.stageSpawn(FRAGILE);
            long unpublished = rig.stageSpawn(N.of(1)); // after the failure: never published
            rig.observers.observe(unpublished, dev.jtecs.event.OnDespawn.class, e -> { }, null, false);
            assertTrue(rig.observers.has(unpublished, dev.jtecs.event.OnDespawn.class));
            assertThrows(IllegalStateException.class, rig.drain::drain);
            assertEquals(EntityIndex.FREE, rig.index.stateOf(unpublished));
            assertEquals(EntityIndex.FREE, rig.index.stateOf(failing));
            assertFalse(rig.observers.has(unpublished, dev.jtecs.event.OnDespawn.class),
                    "the released id keeps no observer: its slot's next id starts clean");
        }
    }

    @Test
    void aFailedSegmentGivesItsPublishedRowsOnlyTheirWritesStagedBeforeItsBatch() {
        java.util.List<String> applied = new java.util.ArrayList<>();
        CommitDrain drain = drainWith(new DrainHooks() {
            @Override
            public void applySparse(long entity, byte op, dev.jtecs.component.BaseRelationship<?> relationship,
                    long target, Object payload) {
                applied.add(target + " of " + (entity == a ? "a" : entity == b ? "b" : Long.toString(entity)));
            }
        });
        b = stageSpawn(N.of(1));
        drain.drain();
        Table table = tableOf(b);
        a = stageSpawn(N.of(2)); // published before the failure
        sparse.stage(a, SparseWriteQueue.ADD, FOLLOWS, 7, null, tx.openOps());
        int r = tx.begin(b, Entity.slot(b), TxState.STAGED_MUTATE); // alive, but its move is never published
        tx.put(r, T, T);
        sparse.stage(b, SparseWriteQueue.ADD, FOLLOWS, 5, null, tx.openOps());
        FACTORY_CALLS.set(1); // the next default of FRAGILE throws
        long failing = stageSpawn(FRAGILE);
        tx.addOp(BatchOp.query(BatchOp.Kind.REMOVE, new Table[] {table}, new long[][] {null},
                new long[] {table.dirty().structuralCount()}, new int[] {table.count()}, T, null, null, tx));
        sparse.stage(a, SparseWriteQueue.ADD, FOLLOWS, 8, null, tx.openOps()); // after the batch
        assertThrows(IllegalStateException.class, drain::drain);
        assertEquals(EntityIndex.FREE, index.stateOf(failing));
        assertTrue(index.isAlive(a) && index.isAlive(b));
        assertFalse(tableOf(b).has(T.id()), "b's move was not published");
        assertEquals(java.util.List.of("7 of a"), applied,
                "only the published row's write of the failed segment lands; b's and the one after the batch go");
        assertFalse(drain.hasWork());
        assertFalse(table.hasPendingDespawn());
    }

    @Test
    void aWaveOfTagMovesGrowsItsDestinationOnceBeforeAnyCallbackRuns() {
        long seed = stageSpawn(N.of(0), T);
        long[] ids = new long[100];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = stageSpawn(N.of(i + 1));
        }
        drain.drain();
        Table tagged = tableOf(seed);
        assertEquals(Table.ROW_PADDING, tagged.capacityRows());
        java.util.List<Integer> capacities = new java.util.ArrayList<>();
        var observer = onRowsAdded(tagged, () -> capacities.add(tagged.capacityRows()));
        for (long id : ids) {
            tx.stageTagMove(id, Entity.slot(id), T, true, tableOf(id)); // add(id, T), staged as a tag move
        }
        drain.drain();
        tagged.removeObserver(observer);
        assertEquals(101, tagged.count());
        for (long id : ids) {
            assertEquals(tagged, tableOf(id));
        }
        assertEquals(java.util.Set.of(128), java.util.Set.copyOf(capacities),
                "grown once, for all 101 rows, before the first callback");
    }

    @Test
    void aQueryBatchOverATableChangedSinceTheCallEditsOnlyItsCapturedMembers() {
        java.util.List<String> log = new java.util.ArrayList<>();
        CommitDrain drain = drainWith(new DrainHooks() {
            @Override
            public void applySparse(long entity, byte op, dev.jtecs.component.BaseRelationship<?> relationship,
                    long target, Object payload) {
                log.add((op == SparseWriteQueue.REMOVE_ALL ? "remove all" : "op " + op) + " of "
                        + (entity == a ? "a" : entity == b ? "b" : Long.toString(entity)));
            }
        });
        a = stageSpawn(N.of(1), FOLLOWS);
        b = stageSpawn(N.of(2), FOLLOWS);
        drain.drain();
        Table table = tableOf(a);
        BatchOp remove = BatchOp.query(BatchOp.Kind.REMOVE, new Table[] {table}, new long[][] {null},
                new long[] {table.dirty().structuralCount()}, new int[] {table.count()}, FOLLOWS, null, null, tx)
                .withSparse(BatchOp.SparseEdit.of(SparseWriteQueue.REMOVE_ALL, FOLLOWS, 0, null));
        long later = stageSpawn(N.of(3), FOLLOWS); // joins the table before the batch runs: not a member
        tx.addOp(remove);
        drain.drain();
        assertEquals(java.util.List.of("remove all of a", "remove all of b"), log,
                "the members captured at the call are edited one by one, each once; the newcomer is not");
        assertFalse(tableOf(a).has(FOLLOWS.id()));
        assertEquals(tableOf(a), tableOf(b));
        assertTrue(tableOf(later).has(FOLLOWS.id()), "the entity that joined later keeps the marker");
        assertEquals(3, tableOf(later).readValue(tableOf(later).position(N.id()), index.rowOf(Entity.slot(later))));
    }

    @Test
    void spawnBatchesArePlacedBeforeExplicitIdBatchesWhateverTheCallOrder() {
        BatchOp.SpawnPlan plan = drain.planSpawn(new dev.jtecs.component.Input[] {N.of(6)}, false);
        long first = index.allocateBatch(2, plan.table().id(), null); // the ids of the batchSpawn(2, ...) below
        long restored = Entity.pack(50, 0);
        index.reserveAt(restored, "batchSpawnAt"); // batchSpawnAt([restored], ...) called first
        index.stampBatch(Entity.slot(restored), plan.table().id());
        tx.addOp(BatchOp.spawn(BatchOp.Kind.SPAWN_AT, plan, 1, 0, new long[] {restored}, null));
        // batchSpawn(2, ...) called second
        tx.addOp(BatchOp.spawn(BatchOp.Kind.SPAWN, plan, 2, first, null, null));
        drain.drain();
        Table table = plan.table();
        assertEquals(3, table.count());
        assertEquals(java.util.List.of(first, first + 1, restored),
                java.util.List.of(table.entityAt(0), table.entityAt(1), table.entityAt(2)),
                "batch queues first, then explicit-id batches, in one wave's spawn phase");
    }

    static final TagComponent NEEDS = Components.tag("test.drain.Needs", o -> o.requires(FOLLOWS.to(99)));

    @Test
    void aRequiredSparseEdgeLandsOnceAndOnlyWhereThePlanAddedItInThatWave() {
        java.util.List<String> applied = new java.util.ArrayList<>();
        CommitDrain drain = drainWith(new DrainHooks() {
            @Override
            public void applySparse(long entity, byte op, dev.jtecs.component.BaseRelationship<?> relationship,
                    long target, Object payload) {
                applied.add((op == SparseWriteQueue.ADD ? "add " : "op " + op + " ") + target + " of "
                        + (entity == a ? "a" : entity == b ? "b" : Long.toString(entity)));
            }
        });
        a = stageSpawn(N.of(1), NEEDS); // the requirement adds FOLLOWS -> 99: Staging queues its REQUIRE
        sparse.stage(a, SparseWriteQueue.REQUIRE, FOLLOWS, 99, null, tx.openOps());
        sparse.stage(a, SparseWriteQueue.REQUIRE, FOLLOWS, 99, null, tx.openOps()); // (added twice in one scope)
        b = stageSpawn(N.of(2), FOLLOWS, NEEDS); // given the relationship itself: the requirement adds nothing
        sparse.stage(b, SparseWriteQueue.REQUIRE, FOLLOWS, 99, null, tx.openOps());
        drain.drain();
        assertEquals(java.util.List.of("add 99 of a"), applied, "one required edge per relationship, once");
        assertTrue(tableOf(a).has(FOLLOWS.id()) && tableOf(a).has(NEEDS.id()));

        applied.clear();
        long c = stageSpawn(N.of(3), NEEDS); // planned, but no REQUIRE comes in this wave
        drain.drain();
        int move = tx.begin(c, Entity.slot(c), TxState.STAGED_MUTATE);
        tx.put(move, T, T);
        sparse.stage(c, SparseWriteQueue.REQUIRE, FOLLOWS, 99, null, tx.openOps()); // a later wave's REQUIRE
        drain.drain();
        assertEquals(java.util.List.of(), applied, "a requirement lapses with the wave that planned it");
    }

    @Test
    void aFailureOfTheEdgeCompletionIsKeptWithTheWavesFailure() {
        CommitDrain drain = drainWith(new DrainHooks() {
            @Override
            public void applySparse(long entity, byte op, dev.jtecs.component.BaseRelationship<?> relationship,
                    long target, Object payload) {
                throw new IllegalStateException("edge store failed");
            }
        });
        long published = stageSpawn(N.of(1));
        sparse.stage(published, SparseWriteQueue.ADD, FOLLOWS, 7, null, tx.openOps());
        FACTORY_CALLS.set(1); // the next default of FRAGILE throws
        stageSpawn(FRAGILE);
        IllegalStateException e = assertThrows(IllegalStateException.class, drain::drain);
        assertEquals("factory failed", e.getMessage(), "the wave's own failure propagates");
        assertEquals(1, e.getSuppressed().length);
        assertEquals("edge store failed", e.getSuppressed()[0].getMessage(), "the completion's failure is kept");
        assertTrue(index.isAlive(published));
        assertFalse(drain.hasWork());
    }

    @Test
    void aDespawnReportThatThrowsAfterAThrowingMoveObserverIsKeptWithIt() {
        CommitDrain drain = drainWith(new DrainHooks() {
            @Override
            public void despawned(long id) {
                throw new IllegalStateException("despawn listener failed");
            }
        });
        long first = stageSpawn(N.of(1));
        long second = stageSpawn(N.of(2));
        drain.drain();
        Table table = tableOf(first);
        table.addObserver(throwingOnRowMoves());
        tx.begin(first, Entity.slot(first), TxState.STAGED_DESPAWN); // the last row moves into its row 0
        IllegalStateException e = assertThrows(IllegalStateException.class, drain::drain);
        assertEquals("move observer failed", e.getMessage());
        assertEquals(1, e.getSuppressed().length);
        assertEquals("despawn listener failed", e.getSuppressed()[0].getMessage());
        assertEquals(EntityIndex.FREE, index.stateOf(first), "the despawn happened all the same");
        assertEquals(second, table.entityAt(0));
    }
}
