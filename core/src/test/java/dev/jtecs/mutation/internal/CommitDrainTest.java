package dev.jtecs.mutation.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.component.Components;
import dev.jtecs.component.ManagedComponent;
import dev.jtecs.component.Relationship;
import dev.jtecs.component.Relationships;
import dev.jtecs.component.ScalarComponent;
import dev.jtecs.component.TagComponent;
import dev.jtecs.entity.Entity;
import dev.jtecs.entity.internal.EntityIndex;
import dev.jtecs.storage.internal.ArchetypeRegistry;
import dev.jtecs.storage.internal.NativeMemory;
import dev.jtecs.storage.internal.Table;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class CommitDrainTest {
    static final ScalarComponent.OfInt N = Components.scalar("test.drain.N", 0);
    static final TagComponent T = Components.tag("test.drain.T");
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
}
