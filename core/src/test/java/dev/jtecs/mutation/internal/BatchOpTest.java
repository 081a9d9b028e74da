package dev.jtecs.mutation.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.component.Components;
import dev.jtecs.component.TagComponent;
import dev.jtecs.storage.internal.NativeMemory;
import dev.jtecs.storage.internal.Table;
import org.junit.jupiter.api.Test;

class BatchOpTest {
    static final TagComponent T = Components.tag("test.batchop.T");

    private static BatchOp.SpawnPlan plan() {
        return new BatchOp.SpawnPlan(new Table(0, new dev.jtecs.component.Component<?>[0], new NativeMemory()),
                new int[0], new dev.jtecs.component.Input[0], new byte[0], false, new dev.jtecs.component.RelationshipValue[0]);
    }

    @Test
    void spawnBatchesReadConsecutiveOrExplicitIds() {
        BatchOp consecutive = BatchOp.spawn(BatchOp.Kind.SPAWN, plan(), 3, 10, null, null);
        assertEquals(12, consecutive.idAt(2));
        assertFalse(consecutive.isBoundary());
        BatchOp explicit = BatchOp.spawn(BatchOp.Kind.SPAWN_AT, plan(), 2, 0, new long[] {7, 3}, null);
        assertEquals(3, explicit.idAt(1));
        assertEquals(BatchOp.Kind.SPAWN_AT, explicit.kind());
    }

    @Test
    void aSpawnBatchReadsItsIdsFromARangeOfASharedArray() {
        long[] pool = {1, 2, 7, 3, 9};
        BatchOp op = BatchOp.spawn(BatchOp.Kind.SPAWN, plan(), 2, 0, pool, 2, null);
        assertFalse(op.hasConsecutiveIds());
        assertEquals(7, op.firstId());
        assertEquals(3, op.idAt(1));
        long[] out = new long[4];
        op.copyIds(out, 1);
        assertEquals(java.util.List.of(0L, 7L, 3L, 0L), java.util.Arrays.stream(out).boxed().toList());
        BatchOp consecutive = BatchOp.spawn(BatchOp.Kind.SPAWN, plan(), 3, 10, null, null);
        assertTrue(consecutive.hasConsecutiveIds());
        assertEquals(10, consecutive.firstId());
        assertEquals(java.util.List.of(10L, 11L, 12L),
                java.util.Arrays.stream(consecutive.copyIds(new long[3], 0)).boxed().toList());
    }

    @Test
    void queryBatchesAreBoundaries() {
        for (BatchOp.Kind kind : new BatchOp.Kind[] {BatchOp.Kind.SET, BatchOp.Kind.REMOVE, BatchOp.Kind.DESPAWN}) {
            BatchOp op = BatchOp.query(kind, new Table[0], new long[0][], new long[0], new int[0], T, null, null,
                    new Transaction());
            assertTrue(op.isBoundary());
            assertEquals(0, op.membersView().length);
        }
        assertThrows(NullPointerException.class, () -> new BatchOp.SpawnPlan(null, new int[0],
                new dev.jtecs.component.Input[0], new byte[0], false, new dev.jtecs.component.RelationshipValue[0]));
    }

    @Test
    void aRecyclableSpawnBatchComesBackEmptyAndIsRefilledForTheNextBurst() {
        Transaction tx = new Transaction();
        dev.jtecs.mutation.BatchCallback fill = (archetype, from, to) -> { };
        long[] pool = {4, 9};
        BatchOp first = BatchOp.recyclableSpawn(tx.takeSpareSpawn(), plan(), 2, 0, pool, 0, fill);
        tx.addOp(first);
        BatchOp other = BatchOp.spawn(BatchOp.Kind.SPAWN, plan(), 1, 20, null, null);
        tx.addOp(other); // not recyclable (a spawn queue's, a restoration's): never kept
        tx.seal();
        tx.recycle(); // both dropped, as a publication drops them
        assertEquals(null, first.callback, "a kept batch pins nothing of the caller's");
        assertEquals(null, first.ids);
        assertEquals(0, first.count);
        BatchOp.SpawnPlan next = plan();
        BatchOp second = BatchOp.recyclableSpawn(tx.takeSpareSpawn(), next, 3, 30, null, 0, null);
        assertTrue(second == first, "the dropped batch is refilled, not allocated again");
        assertEquals(null, tx.takeSpareSpawn(), "and taken: two bursts in one wave never share it");
        assertTrue(second.hasConsecutiveIds());
        assertEquals(32, second.idAt(2));
        assertEquals(next.table(), second.table);
        assertFalse(second.done);
        BatchOp fresh = BatchOp.recyclableSpawn(null, plan(), 1, 5, null, 0, null);
        assertTrue(fresh != first && fresh.recyclable);
    }
}
