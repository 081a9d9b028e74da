package dev.jtecs.mutation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.entity.Entity;
import dev.jtecs.entity.internal.EntityIndex;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SparseWriteQueueTest {
    private final EntityIndex index = new EntityIndex(100);
    private final SparseWriteQueue queue = new SparseWriteQueue();
    private final List<String> log = new ArrayList<>();

    private long alive() {
        long id = index.allocate();
        index.publish(Entity.slot(id), 0, 0);
        return id;
    }

    @Test
    void flushRunsWritesInCallOrderForLiveEntities() {
        long a = alive();
        long b = alive();
        queue.stage(a, () -> log.add("a1"));
        queue.stage(b, () -> log.add("b"));
        queue.stage(a, () -> log.add("a2"));
        assertEquals(3, queue.size());
        queue.flush(index);
        assertEquals(List.of("a1", "b", "a2"), log);
        assertTrue(queue.isEmpty());
    }

    @Test
    void aDespawnCancelsAndARecycledSlotNeverRevivesAWrite() {
        long old = alive();
        queue.stage(old, () -> log.add("old"));
        index.free(Entity.slot(old));
        long recycled = alive();
        assertEquals(Entity.slot(old), Entity.slot(recycled));
        queue.flush(index);
        assertEquals(List.of(), log);
    }

    @Test
    void writesStagedDuringAFlushWaitForTheNextOne() {
        long a = alive();
        queue.stage(a, () -> queue.stage(a, () -> log.add("next")));
        queue.flush(index);
        assertEquals(List.of(), log);
        assertEquals(1, queue.size());
        queue.flush(index);
        assertEquals(List.of("next"), log);
    }

    @Test
    void clearDropsEverythingAndNullWritesAreRejected() {
        long a = alive();
        queue.stage(a, () -> log.add("x"));
        queue.clear();
        queue.flush(index);
        assertEquals(List.of(), log);
        assertThrows(NullPointerException.class, () -> queue.stage(a, null));
    }
}
