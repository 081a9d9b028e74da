package dev.jtecs.mutation.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.component.Relationship;
import dev.jtecs.component.Relationships;
import dev.jtecs.entity.Entity;
import dev.jtecs.entity.internal.EntityIndex;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SparseWriteQueueTest {
    private static final Relationship LIKES = Relationships.register("test.queue.Likes", o -> o.sparse());

    private final EntityIndex index = new EntityIndex(100);
    private final SparseWriteQueue queue = new SparseWriteQueue();
    private final List<String> log = new ArrayList<>();
    private final SparseWriteQueue.Sink sink = (entity, op, relationship, target, payload) ->
            log.add(Entity.slot(entity) + ":" + op + ":" + target);

    private long alive() {
        long id = index.allocate();
        index.publish(Entity.slot(id), 0, 0);
        return id;
    }

    @Test
    void aFlushAppliesTheWavesWritesInCallOrderForLiveEntities() {
        long a = alive();
        long b = alive();
        queue.stage(a, SparseWriteQueue.ADD, LIKES, 7, null, 0);
        queue.stage(b, SparseWriteQueue.REMOVE, LIKES, 8, null, 0);
        queue.stage(a, SparseWriteQueue.REMOVE_ALL, LIKES, 0, null, 0);
        assertEquals(3, queue.size());
        queue.seal();
        queue.flush(Integer.MAX_VALUE, index, sink);
        assertEquals(List.of(Entity.slot(a) + ":0:7", Entity.slot(b) + ":1:8", Entity.slot(a) + ":2:0"), log);
        queue.recycle();
        assertTrue(queue.isEmpty());
    }

    @Test
    void writesFlushOnlyUpToTheQueryBatchTheyPrecede() {
        long a = alive();
        queue.stage(a, SparseWriteQueue.ADD, LIKES, 1, null, 0); // before batch #0
        queue.stage(a, SparseWriteQueue.ADD, LIKES, 2, null, 1); // after batch #0, before batch #1
        queue.stage(a, SparseWriteQueue.ADD, LIKES, 3, null, 2); // after batch #1
        queue.seal();
        queue.flush(0, index, sink);
        assertEquals(1, log.size());
        queue.flush(0, index, sink);
        assertEquals(1, log.size(), "nothing more before batch #0");
        queue.flush(1, index, sink);
        assertEquals(2, log.size());
        queue.flush(Integer.MAX_VALUE, index, sink);
        assertEquals(3, log.size());
    }

    @Test
    void aDespawnCancelsAndARecycledSlotNeverRevivesAWrite() {
        long old = alive();
        queue.stage(old, SparseWriteQueue.ADD, LIKES, 5, null, 0);
        index.free(Entity.slot(old));
        long recycled = alive();
        assertEquals(Entity.slot(old), Entity.slot(recycled));
        queue.seal();
        queue.flush(Integer.MAX_VALUE, index, sink);
        assertEquals(List.of(), log);
    }

    @Test
    void writesStagedWhileAWaveDrainsWaitForTheNextWave() {
        long a = alive();
        queue.stage(a, SparseWriteQueue.ADD, LIKES, 1, null, 0);
        queue.seal();
        queue.stage(a, SparseWriteQueue.ADD, LIKES, 2, null, 0); // staged by a callback during the wave
        queue.flush(Integer.MAX_VALUE, index, sink);
        assertEquals(List.of(Entity.slot(a) + ":0:1"), log);
        queue.recycle();
        assertEquals(1, queue.size());
        queue.seal();
        queue.flush(Integer.MAX_VALUE, index, sink);
        assertEquals(List.of(Entity.slot(a) + ":0:1", Entity.slot(a) + ":0:2"), log);
    }

    @Test
    void aFailingWriteStaysNextAndClearDropsEverything() {
        long a = alive();
        queue.stage(a, SparseWriteQueue.ADD, LIKES, 1, null, 0);
        queue.stage(a, SparseWriteQueue.ADD, LIKES, 2, null, 0);
        queue.seal();
        SparseWriteQueue.Sink failing = (entity, op, relationship, target, payload) -> {
            throw new IllegalStateException("boom " + target);
        };
        assertThrows(IllegalStateException.class, () -> queue.flush(Integer.MAX_VALUE, index, failing));
        queue.flush(Integer.MAX_VALUE, index, sink);
        assertEquals(List.of(Entity.slot(a) + ":0:1", Entity.slot(a) + ":0:2"), log,
                "the failed write is retried first, then the rest");
        queue.clear();
        assertTrue(queue.isEmpty());
        queue.seal();
        queue.flush(Integer.MAX_VALUE, index, sink);
        assertEquals(2, log.size());
    }

    @Test
    void afterAFailureOnlyPublishedSlotsGetTheirWritesAndOneThatFailsAgainDoesNotStopTheRest() {
        long a = alive();
        long b = alive();
        queue.stage(a, SparseWriteQueue.ADD, LIKES, 1, null, 0);
        queue.stage(b, SparseWriteQueue.ADD, LIKES, 2, null, 0);
        queue.stage(a, SparseWriteQueue.ADD, LIKES, 3, null, 0);
        queue.stage(a, SparseWriteQueue.ADD, LIKES, 4, null, 0);
        queue.seal();
        SparseWriteQueue.Sink failsOnThree = (entity, op, relationship, target, payload) -> {
            if (target == 3) {
                throw new IllegalStateException("boom again");
            }
            sink.apply(entity, op, relationship, target, payload);
        };
        IllegalStateException failure = assertThrows(IllegalStateException.class,
                () -> queue.flushPublished(Integer.MAX_VALUE, index, failsOnThree, slot -> slot == Entity.slot(a)));
        assertEquals("boom again", failure.getMessage());
        assertEquals(List.of(Entity.slot(a) + ":0:1", Entity.slot(a) + ":0:4"), log,
                "b was not published; a's write that failed again is dropped, the one after it lands");
        queue.flush(Integer.MAX_VALUE, index, sink);
        assertEquals(2, log.size(), "nothing of the wave is left");
    }

    private static final Relationship KNOWS = Relationships.register("test.writequeue.Knows", o -> o.sparse());

    @Test
    void aWriteStagedWhileAWaveDrainsKeepsEveryFieldWhenItMovesToTheFront() {
        long a = alive();
        long b = alive();
        List<String> full = new ArrayList<>();
        SparseWriteQueue.Sink fullSink = (entity, op, relationship, target, payload) ->
                full.add(Entity.slot(entity) + ":" + op + ":" + relationship.name() + ":" + target + ":" + payload);
        queue.stage(a, SparseWriteQueue.ADD, LIKES, 1, "first", 0);
        queue.stage(a, SparseWriteQueue.ADD, LIKES, 2, "second", 0);
        queue.seal();
        // staged by a callback during the wave: every field differs from the wave's writes
        queue.stage(b, SparseWriteQueue.REMOVE, KNOWS, 9, "next", 1);
        queue.flush(Integer.MAX_VALUE, index, fullSink);
        queue.recycle();
        assertEquals(1, queue.size());
        full.clear();
        queue.seal();
        queue.flush(0, index, fullSink);
        assertEquals(List.of(), full, "it still comes after query batch #0");
        queue.flush(1, index, fullSink);
        assertEquals(List.of(Entity.slot(b) + ":1:" + KNOWS.name() + ":9:next"), full);
    }

    @Test
    void afterAFailureAWriteStagedRightBeforeTheLimitBatchStillLands() {
        long a = alive();
        queue.stage(a, SparseWriteQueue.ADD, LIKES, 1, null, 1); // after batch #0, before batch #1
        queue.stage(a, SparseWriteQueue.ADD, LIKES, 2, null, 2);
        queue.seal();
        queue.flushPublished(1, index, sink, slot -> true);
        assertEquals(List.of(Entity.slot(a) + ":0:1"), log, "the write before batch #1, and not the one after it");
    }

    @Test
    void afterAFailureAWriteOfTheNextWaveWaitsForItsWave() {
        long a = alive();
        long b = alive();
        queue.stage(a, SparseWriteQueue.ADD, LIKES, 1, null, 0);
        queue.seal();
        queue.stage(b, SparseWriteQueue.ADD, LIKES, 2, null, 0); // staged by a callback during the wave
        queue.flushPublished(Integer.MAX_VALUE, index, sink, slot -> true);
        assertEquals(List.of(Entity.slot(a) + ":0:1"), log, "only the failed wave's own write");
        queue.recycle();
        queue.seal();
        queue.flush(Integer.MAX_VALUE, index, sink);
        assertEquals(List.of(Entity.slot(a) + ":0:1", Entity.slot(b) + ":0:2"), log);
    }
}
