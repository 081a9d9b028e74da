package dev.jtecs.world;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.component.Components;
import dev.jtecs.component.ScalarComponent;
import dev.jtecs.component.TagComponent;
import dev.jtecs.event.ArchetypeCreated;
import dev.jtecs.storage.EntityObserver;
import dev.jtecs.event.OnSpawn;
import dev.jtecs.mutation.internal.CommitDrain;
import dev.jtecs.storage.Archetype;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Scopes, the instant path, waves and publication failures (the mutation model's ordering contract). */
class WorldScopeTest {
    static final ScalarComponent.OfInt N = Components.scalar("test.scope.N", 0);
    static final TagComponent A = Components.tag("test.scope.A");
    static final TagComponent B = Components.tag("test.scope.B");
    static final TagComponent CHAIN = Components.tag("test.scope.Chain");
    static final TagComponent BOOM = Components.tag("test.scope.Boom");

    private final World world = World.create();

    @AfterEach
    void tearDown() {
        world.close();
    }

    @Test
    void outsideAnyScopeEveryStructuralCallPublishesBeforeReturning() {
        assertEquals(0, world.scopeDepth());
        long id = world.spawn(N.of(1));
        assertTrue(world.isAlive(id));
        world.set(id, A);
        assertTrue(world.has(id, A));
        world.remove(id, A);
        assertFalse(world.has(id, A));
        world.despawn(id);
        assertFalse(world.isAlive(id));
        assertFalse(world.hasPendingChanges());
    }

    @Test
    void deferHoldsStructureUntilTheMatchingCommit() {
        world.defer();
        assertEquals(1, world.scopeDepth());
        long id = world.spawn(N.of(1));
        assertFalse(world.isAlive(id));
        world.commit();
        assertEquals(0, world.scopeDepth());
        assertTrue(world.isAlive(id));
    }

    @Test
    void nestedScopesPublishWhenTheOutermostCloses() {
        world.defer();
        world.defer();
        long id = world.spawn(A);
        world.commit();
        assertFalse(world.isAlive(id), "the inner commit closes its scope only");
        assertEquals(1, world.scopeDepth());
        world.commit();
        assertTrue(world.isAlive(id));
    }

    @Test
    void commitWithoutAScopePublishesAndExtraCommitsAreHarmless() {
        world.commit();
        world.commit();
        assertEquals(0, world.scopeDepth());
    }

    @Test
    void unwindClosesEveryScopeAndPublishesAndLaterClosesClamp() {
        world.spawn(A);
        world.defer();
        world.defer();
        dev.jtecs.query.QueryCursor cursor = world.newQuery(dev.jtecs.query.QueryDescriptor.builder().include(A)
                .build()).cursor(); // an iteration scope left open by an exception
        assertEquals(3, world.scopeDepth());
        long id = world.spawn(A);
        world.unwind();
        assertEquals(0, world.scopeDepth());
        assertTrue(world.isAlive(id));
        cursor.close(); // the iterator closes late: clamps at zero
        assertEquals(0, world.scopeDepth());
        world.commit();
        assertEquals(0, world.scopeDepth());
    }

    @Test
    void aThrowingCallLeavesItsWorkStagedForUnwind() {
        world.observe(0, OnSpawn.class, event -> {
            throw new IllegalStateException("observer failed");
        });
        assertThrows(IllegalStateException.class, () -> world.spawn(A));
        assertEquals(0, world.scopeDepth(), "the implicit scope is closed");
        assertTrue(world.hasPendingChanges(), "the staged spawn waits");
        world.stopObserving(0, OnSpawn.class, "none");
        world.clearObservers(0);
        world.unwind();
        assertFalse(world.hasPendingChanges());
        assertEquals(1, world.entityCount());
    }

    @Test
    void callbacksStageWorkThatLaterWavesOfTheSameCommitPublish() {
        List<Long> spawnedByCallback = new ArrayList<>();
        world.observe(0, ArchetypeCreated.class, created -> {
            if (created.archetype().has(CHAIN)) {
                created.archetype().addEntityObserver(new EntityObserver() {
                    @Override
                    public void onEntitiesAdded(Archetype archetype, int from, int to, Archetype other) {
                        for (int row = from; row < to; row++) {
                            int depth = archetype.getValue(row, N);
                            if (depth < 5) {
                                spawnedByCallback.add(world.spawn(CHAIN, N.of(depth + 1)));
                            }
                        }
                    }
                });
            }
        });
        world.spawn(CHAIN, N.of(0));
        assertEquals(5, spawnedByCallback.size());
        for (long id : spawnedByCallback) {
            assertTrue(world.isAlive(id), "a finite cascade settles within one commit");
        }
    }

    @Test
    void anEndlessCascadeStopsAfterSixtyFourWavesAndTheWorldStaysUsable() {
        world.observe(0, ArchetypeCreated.class, created -> {
            if (created.archetype().has(CHAIN)) {
                created.archetype().addEntityObserver(new EntityObserver() {
                    @Override
                    public void onEntitiesAdded(Archetype archetype, int from, int to, Archetype other) {
                        world.spawn(CHAIN);
                    }
                });
            }
        });
        IllegalStateException failure = assertThrows(IllegalStateException.class, () -> world.spawn(CHAIN));
        assertTrue(failure.getMessage().contains("observer cascade"), failure.getMessage());
        assertEquals(CommitDrain.MAX_WAVES, world.entityCount(), "published waves stay");
        assertFalse(world.hasPendingChanges(), "the unpublished wave was discarded");
        long plain = world.spawn(A);
        assertTrue(world.isAlive(plain));
    }

    @Test
    void aFailingPublicationCallbackKeepsPublishedRowsAndDiscardsTheRest() {
        world.observe(0, ArchetypeCreated.class, created -> {
            if (created.archetype().has(BOOM)) {
                created.archetype().addEntityObserver(new EntityObserver() {
                    @Override
                    public void onEntitiesAdded(Archetype archetype, int from, int to, Archetype other) {
                        throw new IllegalStateException("callback failed");
                    }
                });
            }
        });
        world.defer();
        long first = world.spawn(A);
        long boom = world.spawn(BOOM);
        long later = world.spawn(B);
        long moved = first;
        assertThrows(IllegalStateException.class, world::commit);
        assertTrue(world.isAlive(first), "published before the failure");
        assertTrue(world.isAlive(boom), "its row was published before the callback ran");
        assertFalse(world.isAlive(later), "never published");
        assertFalse(world.hasPendingChanges());
        assertEquals(0, world.scopeDepth());
        world.set(moved, B);
        assertTrue(world.has(moved, B), "the world keeps working");
    }

    @Test
    void despawnsRunBeforeSpawnsSoAWaveReusesFreedRows() {
        long[] ids = new long[64];
        world.defer();
        for (int i = 0; i < ids.length; i++) {
            ids[i] = world.spawn(N.of(i));
        }
        world.commit();
        Archetype archetype = world.archetypeOf(ids[0]);
        assertEquals(64, archetype.capacityRows());
        world.defer();
        long fresh = world.spawn(N.of(99));
        world.despawn(ids[10]);
        world.commit();
        assertEquals(64, archetype.capacityRows(), "the spawn took the freed row: no growth");
        assertTrue(world.isAlive(fresh));
    }

    @Test
    void destinationCapacityIsReservedBeforeTheWaveRuns() {
        List<MemorySegment> seen = new ArrayList<>();
        world.observe(0, ArchetypeCreated.class, created -> {
            if (created.archetype().has(N) && created.archetype().has(A)) {
                created.archetype().addEntityObserver(new EntityObserver() {
                    @Override
                    public void onEntitiesAdded(Archetype archetype, int from, int to, Archetype other) {
                        seen.add(archetype.entities().segment());
                    }
                });
            }
        });
        world.defer();
        for (int i = 0; i < 500; i++) {
            world.spawn(N.of(i), A);
        }
        world.commit();
        assertEquals(500, seen.size());
        for (MemorySegment segment : seen) {
            assertSame(seen.get(0), segment, "no buffer was reallocated while the wave's callbacks ran");
        }
    }

    @Test
    void anEntityMovesOnceAndRemoveThenAddInOneTransactionStaysInPlace() {
        long id = world.spawn(N.of(1), A);
        Archetype home = world.archetypeOf(id);
        List<String> calls = new ArrayList<>();
        home.addEntityObserver(new EntityObserver() {
            @Override
            public void onEntitiesRemoved(Archetype archetype, int from, int to, Archetype other) {
                calls.add("removed");
            }

            @Override
            public void onEntitiesAdded(Archetype archetype, int from, int to, Archetype other) {
                calls.add("added");
            }
        });
        world.defer();
        world.remove(id, A);
        world.set(id, A);
        world.set(id, N.of(2));
        world.commit();
        assertSame(home, world.archetypeOf(id));
        assertEquals(List.of(), calls, "net signature unchanged: no membership callbacks");
        assertEquals(2, world.get(id, N));
        world.defer();
        world.set(id, B);
        world.remove(id, A);
        world.commit();
        assertEquals(List.of("removed"), calls, "one move for the whole staged shape");
        assertNotEquals(home, world.archetypeOf(id));
    }

    private void onAdded(TagComponent marker, Runnable action) {
        world.observe(0, ArchetypeCreated.class, created -> {
            if (created.archetype().has(marker)) {
                created.archetype().addEntityObserver(new EntityObserver() {
                    @Override
                    public void onEntitiesAdded(Archetype archetype, int from, int to, Archetype other) {
                        action.run();
                    }
                });
            }
        });
    }

    @Test
    void aDeferCommitPairInsideACallbackClosesItsScopeAndJoinsTheDrain() {
        long[] inner = new long[1];
        onAdded(CHAIN, () -> {
            world.defer();
            inner[0] = world.spawn(A);
            world.commit();
        });
        world.spawn(CHAIN);
        assertEquals(0, world.scopeDepth());
        assertTrue(world.isAlive(inner[0]));
        world.defer();
        long held = world.spawn(B);
        assertFalse(world.isAlive(held), "defer still holds work after the callback's scope closed");
        world.commit();
    }

    @Test
    void anUnwindInsideACallbackLeavesTheDepthAtZero() {
        onAdded(CHAIN, world::unwind);
        world.spawn(CHAIN);
        assertEquals(0, world.scopeDepth());
        world.defer();
        long held = world.spawn(B);
        assertFalse(world.isAlive(held));
        world.commit();
        assertTrue(world.isAlive(held));
    }

    @Test
    void forEachArchetypeIsAScopeThatPublishesWhenTheVisitEnds() {
        long id = world.spawn(N.of(1));
        List<Long> spawned = new ArrayList<>();
        world.forEachArchetype(archetype -> {
            if (archetype.has(N)) {
                spawned.add(world.spawn(N.of(2)));
                world.despawn(id);
                assertTrue(world.isAlive(id), "staged while the visit runs");
                assertEquals(1, world.scopeDepth());
            }
        });
        assertFalse(world.isAlive(id));
        assertTrue(world.isAlive(spawned.get(0)));
        assertEquals(0, world.scopeDepth());
    }

    @Test
    void replayedEntriesResolveRequirementsLikeTheInstantPath() {
        TagComponent runner = Components.tag("test.scope.Runner", o -> o.requires(N.of(9)));
        long removeThenAdd = world.spawn(N.of(1));
        long addThenRemove = world.spawn(N.of(1));
        world.defer();
        world.remove(removeThenAdd, N);
        world.set(removeThenAdd, runner);
        world.set(addThenRemove, runner);
        world.remove(addThenRemove, N);
        world.commit();
        assertEquals(9, world.get(removeThenAdd, N), "the requirement re-adds what was removed before");
        assertFalse(world.has(addThenRemove, N), "a removal after the addition sticks");
        long instantA = world.spawn(N.of(1));
        world.remove(instantA, N);
        world.set(instantA, runner);
        long instantB = world.spawn(N.of(1));
        world.set(instantB, runner);
        world.remove(instantB, N);
        assertEquals(world.get(removeThenAdd, N), world.get(instantA, N));
        assertEquals(world.has(addThenRemove, N), world.has(instantB, N));
    }

    @Test
    void closingTheWorldInsideAVisitIsRefusedAndTheVisitGoesOn() {
        world.spawn(A);
        world.forEachArchetype(archetype -> {
            if (archetype.count() > 0) {
                world.spawn(B); // staged ...
                assertThrows(IllegalStateException.class, world::close); // ... and the world stays open
            }
        });
        assertFalse(world.isClosed());
        assertEquals(2, world.entityCount(), "the visit's work was published when it ended");
    }

    @Test
    void instantAndStagedPathsEndInTheSameState() {
        try (World staged = World.create()) {
            long[] a = new long[3];
            long[] b = new long[3];
            staged.defer();
            for (int i = 0; i < 3; i++) {
                a[i] = world.spawn(N.of(i));
                b[i] = staged.spawn(N.of(i));
            }
            world.set(a[0], A);
            staged.set(b[0], A);
            world.remove(a[1], N);
            staged.remove(b[1], N);
            world.despawn(a[2]);
            staged.despawn(b[2]);
            world.set(a[0], N.of(40));
            staged.set(b[0], N.of(40));
            staged.commit();
            for (int i = 0; i < 3; i++) {
                assertEquals(a[i], b[i]);
                assertEquals(world.isAlive(a[i]), staged.isAlive(b[i]));
                assertEquals(world.get(a[i], N), staged.get(b[i], N));
                assertEquals(world.has(a[i], A), staged.has(b[i], A));
            }
        }
    }

    /** A lone tag change is staged compactly; every later call for the entity sees it as staged structure. */
    @Test
    void aStagedTagChangeHoldsLaterValuesBackAndCoalescesWithLaterCallsForTheEntity() {
        long id = world.spawn(N.of(1));
        Archetype home = world.archetypeOf(id);
        List<String> calls = new ArrayList<>();
        home.addEntityObserver(new EntityObserver() {
            @Override
            public void onEntitiesRemoved(Archetype archetype, int from, int to, Archetype other) {
                calls.add("removed");
            }

            @Override
            public void onEntitiesAdded(Archetype archetype, int from, int to, Archetype other) {
                calls.add("added");
            }
        });
        world.defer();
        world.set(id, A);
        world.set(id, N.of(5));
        assertEquals(1, world.get(id, N), "the entity has staged structure: the value waits for the commit");
        assertFalse(world.has(id, A));
        world.remove(id, A);
        world.commit();
        assertSame(home, world.archetypeOf(id), "set then remove: the net signature did not change");
        assertEquals(5, world.get(id, N));
        assertEquals(List.of(), calls);
        world.defer();
        world.set(id, A);
        world.despawn(id);
        world.commit();
        assertFalse(world.isAlive(id));
        assertEquals(List.of("removed"), calls, "a despawn cancels the staged move");
    }

    @Test
    void aBatchDespawnAfterAStagedTagChangeSelectsTheEntityAndPublishesTheChangeFirst() {
        long a = world.spawn(N.of(1));
        long b = world.spawn(N.of(2));
        long c = world.spawn(N.of(3), A);
        world.defer();
        world.set(a, A);
        world.remove(c, A);
        world.batchDespawn(world.newQuery(dev.jtecs.query.QueryDescriptor.builder().include(N).exclude(A).build()));
        world.set(c, B); // after the boundary: not selected (it had A at the call), so it stays
        world.commit();
        assertFalse(world.isAlive(a), "selected at the call");
        assertFalse(world.isAlive(b));
        assertTrue(world.isAlive(c));
        assertFalse(world.has(c, A));
        assertTrue(world.has(c, B));
    }

    @Test
    void clearingTheWorldForgetsStagedTagChanges() {
        long a = world.spawn(N.of(1));
        world.defer();
        world.set(a, A);
        assertTrue(world.hasPendingChanges());
        world.clearEntities();
        assertFalse(world.hasPendingChanges());
        long b = world.spawn(N.of(2)); // may reuse a's slot, with a new generation
        world.commit();
        assertFalse(world.isAlive(a));
        assertTrue(world.isAlive(b));
        assertFalse(world.has(b, A), "the cleared change does not reach the slot's next entity");
        world.set(b, A);
        assertTrue(world.has(b, A));
    }
}
