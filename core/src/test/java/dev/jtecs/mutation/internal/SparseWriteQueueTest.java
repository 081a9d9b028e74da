package dev.jtecs.mutation.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.builtin.ChildOf;
import dev.jtecs.component.Relationship;
import dev.jtecs.component.Relationships;
import dev.jtecs.entity.Entity;
import dev.jtecs.entity.internal.EntityIndex;
import java.util.ArrayList;
import java.util.List;
import dev.jtecs.world.World;
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

    /** {@code n} live entities, in ascending id order. */
    private long[] alive(int n) {
        long[] ids = new long[n];
        for (int i = 0; i < n; i++) {
            ids[i] = alive();
        }
        return ids;
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

    /** A sink that logs whole runs as "run:first slot-last slot:target" and single writes as the others do. */
    private class RunSink implements SparseWriteQueue.Sink {
        final boolean takesRuns;
        final List<String> entries = new ArrayList<>();

        RunSink(boolean takesRuns) {
            this.takesRuns = takesRuns;
        }

        @Override
        public void apply(long entity, byte op, dev.jtecs.component.BaseRelationship<?> relationship, long target,
                Object payload) {
            entries.add(Entity.slot(entity) + ":" + op + ":" + target);
        }

        @Override
        public boolean applyAddRun(long[] entities, int from, int to,
                dev.jtecs.component.BaseRelationship<?> relationship, long target, Object[] payloads) {
            if (!takesRuns) {
                return false;
            }
            entries.add("run:" + Entity.slot(entities[from]) + "-" + Entity.slot(entities[to - 1]) + ":" + target
                    + ":" + payloads[from]);
            return true;
        }
    }

    @Test
    void consecutiveAddsOfOneTargetForAscendingLiveEntitiesReachTheSinkAsOneRun() {
        long[] ids = alive(9);
        for (int i = 0; i < 6; i++) {
            queue.stage(ids[i], SparseWriteQueue.ADD, LIKES, 7, "p" + i, 0); // a run of six
        }
        queue.stage(ids[6], SparseWriteQueue.ADD, LIKES, 8, null, 0); // another target: one write
        queue.stage(ids[7], SparseWriteQueue.ADD, LIKES, 7, null, 0);
        queue.stage(ids[8], SparseWriteQueue.ADD, LIKES, 7, null, 0); // a run of two: under the minimum
        queue.seal();
        RunSink runs = new RunSink(true);
        queue.flush(Integer.MAX_VALUE, index, runs);
        int first = Entity.slot(ids[0]);
        assertEquals(List.of("run:" + first + "-" + (first + 5) + ":7:p0", (first + 6) + ":0:8", (first + 7) + ":0:7",
                (first + 8) + ":0:7"), runs.entries);
    }

    @Test
    void aRunEndsAtADeadEntityADescendingIdAnotherOpAndTheLimitBatch() {
        long[] ids = alive(12);
        for (int i = 0; i < 5; i++) {
            queue.stage(ids[i], SparseWriteQueue.ADD, LIKES, 7, null, 0);
        }
        queue.stage(ids[5], SparseWriteQueue.ADD, LIKES, 7, null, 0); // dies below: ends the first run
        for (int i = 6; i < 10; i++) {
            queue.stage(ids[i], SparseWriteQueue.ADD, LIKES, 7, null, 0);
        }
        queue.stage(ids[2], SparseWriteQueue.ADD, LIKES, 7, null, 0); // a lower id: not part of the run before it
        queue.stage(ids[3], SparseWriteQueue.REMOVE, LIKES, 7, null, 0);
        queue.stage(ids[10], SparseWriteQueue.ADD, LIKES, 7, null, 0);
        queue.stage(ids[11], SparseWriteQueue.ADD, LIKES, 7, null, 1); // after batch #0
        index.free(Entity.slot(ids[5]));
        queue.seal();
        RunSink runs = new RunSink(true);
        queue.flush(0, index, runs);
        int first = Entity.slot(ids[0]);
        assertEquals(List.of("run:" + first + "-" + (first + 4) + ":7:null", "run:" + (first + 6) + "-" + (first + 9)
                + ":7:null", (first + 2) + ":0:7", (first + 3) + ":1:7", (first + 10) + ":0:7"), runs.entries,
                "the dead entity's write is dropped; the write after batch #0 waits");
        queue.flush(Integer.MAX_VALUE, index, runs);
        assertEquals((first + 11) + ":0:7", runs.entries.get(runs.entries.size() - 1));
    }

    /** {@code n} live entities, each with an {@code ADD} write to target 3 staged and sealed; their ids. */
    private long[] sealedAddsToThree(int n) {
        long[] ids = alive(n);
        for (long id : ids) {
            queue.stage(id, SparseWriteQueue.ADD, LIKES, 3, null, 0);
        }
        queue.seal();
        return ids;
    }

    /** What a logging sink records for {@link #sealedAddsToThree}'s writes applied one by one. */
    private static List<String> oneByOne(long[] ids) {
        List<String> entries = new ArrayList<>();
        for (long id : ids) {
            entries.add(Entity.slot(id) + ":0:3");
        }
        return entries;
    }

    /** A sink that keeps no runs of its own (the default {@code applyAddRun}) gets every write of one alone. */
    @Test
    void aSinkWithoutRunsGetsEveryWriteAlone() {
        long[] ids = sealedAddsToThree(6);
        queue.flush(Integer.MAX_VALUE, index, sink);
        assertEquals(oneByOne(ids), log);
    }

    /**
     * A run holds each entity once and only the sealed wave's writes: the same entity written twice ends it, and a
     * write staged after the seal waits for the next wave even when it would extend the run.
     */
    @Test
    void aRunHoldsEachEntityOnceAndOnlyTheSealedWave() {
        long[] ids = alive(6);
        for (int i = 0; i < 4; i++) {
            queue.stage(ids[i], SparseWriteQueue.ADD, LIKES, 3, null, 0);
        }
        queue.stage(ids[3], SparseWriteQueue.ADD, LIKES, 3, null, 0); // the last entity again
        queue.seal();
        queue.stage(ids[4], SparseWriteQueue.ADD, LIKES, 3, null, 0); // the next wave's, though ascending
        List<Integer> runLengths = new ArrayList<>();
        RunSink runs = new RunSink(true) {
            @Override
            public boolean applyAddRun(long[] entities, int from, int to,
                    dev.jtecs.component.BaseRelationship<?> relationship, long target, Object[] payloads) {
                runLengths.add(to - from);
                return super.applyAddRun(entities, from, to, relationship, target, payloads);
            }
        };
        queue.flush(Integer.MAX_VALUE, index, runs);
        int first = Entity.slot(ids[0]);
        assertEquals(List.of(4), runLengths);
        assertEquals(List.of("run:" + first + "-" + (first + 3) + ":3:null", (first + 3) + ":0:3"), runs.entries);
        queue.recycle();
        queue.seal();
        queue.flush(Integer.MAX_VALUE, index, runs);
        assertEquals((first + 4) + ":0:3", runs.entries.get(runs.entries.size() - 1), "the next wave's write, alone");
        assertEquals(3, runs.entries.size());
    }

    @Test
    void aRunTheSinkDeclinesIsAppliedWriteByWriteInCallOrder() {
        long[] ids = sealedAddsToThree(5);
        RunSink declining = new RunSink(false);
        queue.flush(Integer.MAX_VALUE, index, declining);
        assertEquals(oneByOne(ids), declining.entries);
    }

    @Test
    void aRunThatFailsStaysNextWholeAndIsRetriedOneByOneAfterTheFailure() {
        long[] ids = sealedAddsToThree(4);
        SparseWriteQueue.Sink failing = new RunSink(true) {
            @Override
            public boolean applyAddRun(long[] entities, int from, int to,
                    dev.jtecs.component.BaseRelationship<?> relationship, long target, Object[] payloads) {
                throw new OutOfMemoryError("injected");
            }
        };
        assertThrows(OutOfMemoryError.class, () -> queue.flush(Integer.MAX_VALUE, index, failing));
        queue.flushPublished(Integer.MAX_VALUE, index, sink, slot -> true);
        assertEquals(oneByOne(ids), log, "no write of the failed run was lost or applied twice");
    }

    private static final Relationship OWNS = Relationships.register("test.queue.Owns", o -> o.sparse().exclusive()
            .reverseIndex());
    private static final Relationship CARRIES = Relationships.register("test.queue.Carries", o -> o.sparse()
            .exclusive().reverseIndex().cascadeDelete());

    /**
     * Reparentings staged back to back in one scope, to one parent, in ascending id order, land together (the
     * flush hands them to {@code applyAddRun}, the edge store moves them in one step); the world they leave is the
     * one a twin leaves whose flushes apply the same writes one by one ({@link SparseWriteQueue#offersRuns} off
     * for its commits), whatever the children held before (one parent, mixed parents, none), with a child
     * despawned in the scope among them now and then. The exclusive relationships with a reverse index:
     * {@code ChildOf}, a cascading one, a plain one. Fixed seeds, named.
     */
    @Test
    void reparentingsThatLandAsOneRunLeaveTheWorldThatTheSameWritesOneByOneLeave() {
        Relationship[] relationships = {ChildOf.COMPONENT, CARRIES, OWNS};
        int landed = 0;
        for (long seed = 1; seed <= 6; seed++) {
            java.util.Random random = new java.util.Random(seed);
            try (World runs = World.create(); World single = World.create()) {
                List<Long> parents = new ArrayList<>();
                List<Long> children = new ArrayList<>();
                for (int i = 0; i < 68; i++) {
                    long id = runs.spawn();
                    assertEquals(id, single.spawn());
                    (i < 8 ? parents : children).add(id);
                }
                for (int step = 0; step < 200; step++) {
                    String where = "seed " + seed + " step " + step;
                    Relationship relationship = relationships[random.nextInt(relationships.length)];
                    long parent = parents.get(random.nextInt(parents.size()));
                    List<Long> picked = new ArrayList<>();
                    // half the time children of one parent (one old target), otherwise of any (mixed, or none)
                    long[] family = random.nextBoolean()
                            ? runs.relationshipSources(relationship, parents.get(random.nextInt(parents.size())))
                            : children.stream().mapToLong(Long::longValue).toArray();
                    for (long child : family) { // ascending
                        if (random.nextInt(4) != 0) {
                            picked.add(child);
                        }
                    }
                    long dying = random.nextInt(10) == 0 && !picked.isEmpty()
                            ? picked.get(random.nextInt(picked.size())) : 0;
                    long runsBefore = runs.structureVersion(relationship);
                    long singleBefore = single.structureVersion(relationship);
                    for (World world : List.of(runs, single)) {
                        world.defer();
                        for (long child : picked) {
                            world.set(child, relationship.to(parent));
                            if (child == dying) {
                                world.despawn(child);
                            }
                        }
                        SparseWriteQueue.offersRuns = world == runs;
                        try {
                            world.commit();
                        } finally {
                            SparseWriteQueue.offersRuns = true;
                        }
                    }
                    if (runs.structureVersion(relationship) - runsBefore
                            < single.structureVersion(relationship) - singleBefore) {
                        landed++; // a run moved the relationship's counter once for several edges
                    }
                    children.removeIf(child -> !runs.isAlive(child));
                    if (children.size() < 20) {
                        for (int i = 0; i < 10; i++) {
                            long id = runs.spawn();
                            assertEquals(id, single.spawn(), where);
                            children.add(id);
                        }
                        children.sort(null);
                    }
                    // all but the structure counters: one write at a time moves them per write, a run once
                    assertEquals(withoutCounters(single), withoutCounters(runs), where);
                    for (long p : parents) {
                        assertArrayEquals(single.relationshipSources(relationship, p),
                                runs.relationshipSources(relationship, p), where);
                    }
                }
            }
        }
        assertTrue(landed > 100, "steps in which a run landed: " + landed);
    }

    /** A world's whole state, but for its structure counter. */
    private static String withoutCounters(World world) {
        String state = dev.jtecs.testing.WorldState.of(world).toString();
        assertTrue(state.contains(" structure="), "the dump names the counter it leaves out");
        return state.replaceAll(" structure=\\d+ ", " structure=_ ");
    }
}
