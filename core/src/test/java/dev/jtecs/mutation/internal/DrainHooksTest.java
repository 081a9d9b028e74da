package dev.jtecs.mutation.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.jtecs.component.BaseRelationship;
import dev.jtecs.component.Components;
import dev.jtecs.component.ManagedComponent;
import dev.jtecs.component.PairComponent;
import dev.jtecs.component.Relationship;
import dev.jtecs.component.Relationships;
import dev.jtecs.component.TagComponent;
import dev.jtecs.entity.Entity;
import dev.jtecs.storage.internal.Table;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The order in which the drain calls its hooks, as {@link DrainHooks} documents it. */
class DrainHooksTest {
    static final TagComponent T = Components.tag("test.hooks.T");
    static final Relationship DENSE = Relationships.register("test.hooks.Dense");
    static final Relationship SPARSE = Relationships.register("test.hooks.Sparse", o -> o.sparse());

    static final class Cursed {
        Cursed() {
            throw new IllegalStateException("constructor failed");
        }
    }

    static final ManagedComponent<Cursed> CURSED = Components.registerManaged(Cursed.class,
            o -> o.name("test.hooks.Cursed").defaults(Cursed::new));

    /** Hooks that log every call. */
    private static final class Recording implements DrainHooks {
        final List<String> log = new ArrayList<>();

        @Override
        public void despawned(long id) {
            log.add("despawned");
        }

        @Override
        public void placedWithPairs(Table table, int fromRow, int toRow) {
            log.add("placedWithPairs " + (toRow - fromRow));
        }

        @Override
        public void applySparse(long entity, byte op, BaseRelationship<?> relationship, long target,
                Object payload) {
            log.add("applySparse");
        }

        @Override
        public void settleSparse() {
            log.add("settleSparse");
        }

        @Override
        public void segmentDone() {
            log.add("segmentDone");
        }

        @Override
        public void publicationEnded(boolean published) {
            log.add("publicationEnded " + published);
        }
    }

    @Test
    void oneSegmentReportsDespawnsPlacementsSparseWritesItsEndAndTheWaveSettlesMarkersOnce() {
        Recording hooks = new Recording();
        try (DrainFixture fixture = new DrainFixture(hooks)) {
            long doomed = fixture.stageSpawn(T);
            long target = fixture.stageSpawn(T);
            fixture.drain.publish();
            hooks.log.clear();
            fixture.tx.begin(doomed, Entity.slot(doomed), TxState.STAGED_DESPAWN);
            PairComponent pair = fixture.registry.pairs().pair(DENSE, target);
            long source = fixture.stageSpawn(pair, DENSE);
            fixture.sparse.stage(source, SparseWriteQueue.ADD, SPARSE, target, null, fixture.tx.openOps());
            fixture.drain.publish();
            assertEquals(List.of("despawned", "placedWithPairs 1", "applySparse", "segmentDone", "settleSparse",
                    "publicationEnded true"), hooks.log);
        }
    }

    @Test
    void aFailedPublicationEndsWithPublishedFalse() {
        Recording hooks = new Recording();
        try (DrainFixture fixture = new DrainFixture(hooks)) {
            fixture.stageSpawn(CURSED);
            assertThrows(IllegalStateException.class, fixture.drain::publish);
            assertEquals("publicationEnded false", hooks.log.getLast());
        }
    }

    @Test
    void theDefaultHooksRefuseSparseWritesAndSettleNothing() {
        assertThrows(IllegalStateException.class,
                () -> DrainHooks.NONE.applySparse(1, SparseWriteQueue.ADD, SPARSE, 2, null));
        assertEquals(false, DrainHooks.NONE.pendingSettlement());
        assertEquals(true, DrainHooks.NONE.hearsDespawns(), "unless a hook promises otherwise, every despawn is told");
        assertEquals(true, DrainHooks.NONE.hearsDespawnOf(1, null), "each despawn too");
        DrainHooks deaf = new DrainHooks() {
            @Override
            public boolean hearsDespawns() {
                return false;
            }
        };
        assertEquals(false, deaf.hearsDespawnOf(1, null), "a hook that hears no despawn hears none of them");
        assertEquals(false, DrainHooks.NONE.addSparseAtOnce(1, SPARSE, 2, null), "no store: the write is staged");
    }

    /**
     * Unless a hook tells a run in its own way, a run of despawns is told one entity at a time, in order and every
     * one even when some throw: the first failure comes out with the later ones suppressed.
     */
    @Test
    void theDefaultRunReportTellsEachInOrderAndFoldsTheFailures() {
        List<Long> told = new ArrayList<>();
        DrainHooks hooks = new DrainHooks() {
            @Override
            public void despawned(long id) {
                told.add(id);
                if (id % 2 == 0) {
                    throw new IllegalStateException("observer of " + id);
                }
            }
        };
        long[] ids = {9, 1, 2, 3, 4, 5, 8};
        IllegalStateException thrown = assertThrows(IllegalStateException.class, () -> hooks.despawnedRun(ids, 1, 6));
        assertEquals(List.of(1L, 2L, 3L, 4L, 5L), told, "[from, to) in order, past the failures");
        assertEquals("observer of 2", thrown.getMessage());
        assertEquals(1, thrown.getSuppressed().length);
        assertEquals("observer of 4", thrown.getSuppressed()[0].getMessage());
        told.clear();
        hooks.despawnedRun(ids, 3, 4);
        assertEquals(List.of(3L), told);
    }
}
