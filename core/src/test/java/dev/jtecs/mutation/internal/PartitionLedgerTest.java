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
import dev.jtecs.entity.internal.AllocationFaults;
import dev.jtecs.event.ArchetypeCreated;
import dev.jtecs.mutation.PartitionConflictException;
import dev.jtecs.mutation.PartitionConflicts;
import dev.jtecs.mutation.PartitionDimension;
import dev.jtecs.storage.Archetype;
import dev.jtecs.storage.EntityObserver;
import dev.jtecs.world.World;
import dev.jtecs.world.WorldConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The rules of partition transitions, one test per rule of the structural-changes page, named after it. */
class PartitionLedgerTest {
    static final ScalarComponent.OfInt HP = Components.scalar("test.partition.Hp", 0);
    static final TagComponent IDLE = Components.tag("test.partition.Idle");
    static final TagComponent WALKING = Components.tag("test.partition.Walking");
    static final TagComponent RUNNING = Components.tag("test.partition.Running");
    static final TagComponent HUNGRY = Components.tag("test.partition.Hungry");
    static final TagComponent VISIBLE = Components.tag("test.partition.Visible");
    static final TagComponent PLAIN = Components.tag("test.partition.Plain");
    static final PartitionDimension MOVE = PartitionDimension.variants("move", IDLE, WALKING, RUNNING);
    static final PartitionDimension FRENZY = PartitionDimension.presence("frenzy", HUNGRY);
    static final PartitionDimension SIGHT = PartitionDimension.presence("sight", VISIBLE);

    private World world = world(PartitionConflicts.RAISE);
    private final List<String> moves = new ArrayList<>();

    private World world(PartitionConflicts conflicts) {
        World w = World.create(WorldConfig.defaults().partitionConflicts(conflicts));
        w.declarePartition(MOVE);
        w.declarePartition(FRENZY);
        w.declarePartition(SIGHT);
        w.observe(0, ArchetypeCreated.class, created -> created.archetype().addEntityObserver(new EntityObserver() {
            @Override
            public void onEntitiesAdded(Archetype archetype, int fromRow, int toRow, Archetype other) {
                if (other != null) {
                    moves.add((toRow - fromRow) + " moved");
                }
            }
        }));
        return w;
    }

    @AfterEach
    void tearDown() {
        AllocationFaults.disarm();
        world.close();
    }

    @Test
    void setTagOnAPresenceDimensionTurnsTheTagOn() {
        long id = world.spawn(HP.of(7), IDLE);
        world.setTag(id, HUNGRY);
        assertTrue(world.has(id, HUNGRY));
        assertSame(HUNGRY, world.partitionOf(id, FRENZY));
        world.unsetTag(id, HUNGRY);
        assertFalse(world.has(id, HUNGRY));
        assertNull(world.partitionOf(id, FRENZY));
    }

    @Test
    void aTagChangeWhoseAllocationFailsCanBeMadeAgainOnASlotPastTheLedgersFirstRoom() {
        long[] ids = world.batchSpawn(3000, List.of(HP.of(1), IDLE)).toArray();
        long high = ids[2500]; // a slot past the 1,024 the ledger starts with: the first note grows it
        int failures = 0;
        for (int k = 1; ; k++) { // fail each allocation of the call in turn, then let it through
            AllocationFaults.failAt(AllocationFaults.Kind.HEAP, k);
            try {
                world.defer();
                try {
                    world.setTag(high, HUNGRY);
                } finally {
                    AllocationFaults.disarm();
                    world.commit();
                }
            } catch (OutOfMemoryError expected) {
                failures++;
                continue;
            }
            break;
        }
        assertEquals(AllocationFaults.ENABLED, failures > 0, "the growths of the ledger were failed");
        assertTrue(world.has(high, HUNGRY));
        for (long id : ids) {
            assertEquals(id == high, world.has(id, HUNGRY));
        }
        world.setTag(ids[2999], HUNGRY); // the ledger still notes the slots past its first room
        world.unsetTag(high, HUNGRY);
        assertTrue(world.has(ids[2999], HUNGRY));
        assertFalse(world.has(high, HUNGRY));
    }

    @Test
    void setTagOnAMultiVariantDimensionSwitchesTheVariantAndPreservesOtherDimensions() {
        long id = world.spawn(HP.of(7), IDLE, VISIBLE);
        world.setTag(id, HUNGRY);
        world.setTag(id, RUNNING);
        assertSame(RUNNING, world.partitionOf(id, MOVE));
        assertFalse(world.has(id, IDLE));
        assertTrue(world.has(id, HUNGRY), "the frenzy dimension is preserved");
        assertTrue(world.has(id, VISIBLE), "the sight dimension is preserved");
        assertEquals(7, world.get(id, HP), "component values are copied across unchanged");
    }

    @Test
    void unsetTagIsValidOnlyOnPresenceDimensionsAndThrowsOnAMultiVariantOne() {
        long id = world.spawn(IDLE);
        long version = world.structureVersion();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> world.unsetTag(id, IDLE));
        assertTrue(e.getMessage().contains("no absent state"), e.getMessage());
        assertTrue(world.has(id, IDLE), "nothing changed");
        assertEquals(version, world.structureVersion());
    }

    @Test
    void setTagIsANoOpWhenTheEntityAlreadyHasTheTag() {
        long id = world.spawn(IDLE, HUNGRY);
        long version = world.structureVersion();
        world.defer();
        world.setTag(id, IDLE);
        world.setTag(id, HUNGRY);
        assertFalse(world.hasPendingChanges(), "coalesced away before anything was staged");
        world.setTag(id, WALKING); // not a conflict: the no-op above left no operation on the dimension
        world.commit();
        assertSame(WALKING, world.partitionOf(id, MOVE));
        assertTrue(world.structureVersion() > version);
        world.unsetTag(world.spawn(IDLE), HUNGRY); // off already: nothing to do either
    }

    @Test
    void sameFrameCoalescingMakesSeveralChangesOfOneEntityOneMove() {
        long id = world.spawn(HP.of(3), IDLE);
        moves.clear();
        world.defer();
        world.setTag(id, RUNNING); // dimension move: switch the variant
        world.setTag(id, HUNGRY);  // dimension frenzy: turn on
        world.commit();
        assertEquals(List.of("1 moved"), moves, "one structural move for both changes");
        assertTrue(world.has(id, RUNNING) && world.has(id, HUNGRY) && !world.has(id, IDLE));
    }

    @Test
    void distinctPartitionDimensionsStackFreelyIntoASingleMove() {
        long id = world.spawn(IDLE, VISIBLE);
        moves.clear();
        int archetypes = world.archetypeCount();
        world.defer();
        world.setTag(id, WALKING);   // change variant in A
        world.setTag(id, HUNGRY);    // turn B on
        world.unsetTag(id, VISIBLE); // turn C off
        world.commit();
        assertEquals(List.of("1 moved"), moves);
        assertEquals(archetypes + 1, world.archetypeCount(), "no intermediate archetype was created");
        assertTrue(world.has(id, WALKING) && world.has(id, HUNGRY) && !world.has(id, VISIBLE));
    }

    @Test
    void removeAlwaysWinsAndLaterTagOperationsAreSilentlyDropped() {
        long id = world.spawn(IDLE);
        world.defer();
        world.setTag(id, WALKING);
        world.despawn(id);
        world.setTag(id, RUNNING); // would conflict with WALKING in RAISE mode, but the entity is going
        world.setTag(id, HUNGRY);
        world.unsetTag(id, HUNGRY);
        world.commit();
        assertFalse(world.isAlive(id));
    }

    @Test
    void removeWinsOverACancelledSpawnThatIsTheScopesFirstRecord() {
        world.defer();
        long id = world.spawn(IDLE); // record 0 of the scope
        world.despawn(id); // its placement is cancelled (no slot mark: the record says it)
        world.setTag(id, WALKING);
        world.setTag(id, RUNNING); // would conflict with WALKING in RAISE mode, but the entity is going
        world.commit();
        assertFalse(world.isAlive(id));
    }

    @Test
    void removeWinsOverABatchDespawnToo() {
        long id = world.spawn(IDLE, PLAIN);
        world.defer();
        world.batchDespawn(world.newQuery(dev.jtecs.query.QueryDescriptor.builder().include(PLAIN).build()));
        world.setTag(id, RUNNING);
        world.commit();
        assertFalse(world.isAlive(id));
    }

    @Test
    void sameDimensionCollisionsRaiseInTheCheckedModeAndChangeNothing() {
        long id = world.spawn(IDLE);
        world.defer();
        world.setTag(id, WALKING);
        PartitionConflictException e = assertThrows(PartitionConflictException.class,
                () -> world.setTag(id, RUNNING));
        assertEquals(id, e.entity());
        assertSame(MOVE, e.dimension());
        assertTrue(e.getMessage().contains("setTag(test.partition.Running) after setTag(test.partition.Walking)"),
                e.getMessage());
        world.setTag(id, WALKING); // repeating the same operation is no conflict
        world.commit();
        assertSame(WALKING, world.partitionOf(id, MOVE), "the first operation stayed");
    }

    @Test
    void sameDimensionCollisionsOnAPresenceDimensionRaiseToo() {
        long id = world.spawn(IDLE);
        world.defer();
        world.setTag(id, HUNGRY);
        assertThrows(PartitionConflictException.class, () -> world.unsetTag(id, HUNGRY));
        world.commit();
        assertTrue(world.has(id, HUNGRY));
    }

    @Test
    void sameDimensionCollisionsOtherwiseKeepTheHighestTagValueAndLogAnError() {
        world.close();
        world = world(PartitionConflicts.HIGHEST_WINS);
        List<LogRecord> logged = new ArrayList<>();
        Logger jul = Logger.getLogger("dev.jtecs.mutation.Partitions");
        Handler handler = new Handler() {
            @Override
            public void publish(LogRecord record) {
                logged.add(record);
            }

            @Override
            public void flush() {}

            @Override
            public void close() {}
        };
        jul.addHandler(handler);
        try {
            long a = world.spawn(IDLE);
            long b = world.spawn(IDLE);
            world.defer();
            world.setTag(a, RUNNING); // value 3
            world.setTag(a, WALKING); // value 2: dropped
            world.setTag(b, WALKING); // value 2
            world.setTag(b, RUNNING); // value 3: replaces it
            world.unsetTag(b, HUNGRY); // off already: nothing
            world.setTag(b, HUNGRY);
            world.unsetTag(b, HUNGRY); // presence: on (1) beats off (0)
            world.commit();
            assertSame(RUNNING, world.partitionOf(a, MOVE));
            assertSame(RUNNING, world.partitionOf(b, MOVE));
            assertFalse(world.has(b, WALKING) || world.has(b, IDLE));
            assertTrue(world.has(b, HUNGRY));
            assertEquals(3, logged.size());
            assertEquals(3, world.getStats(null).partitionConflictsResolved(), "one per logged conflict");
            assertEquals(java.util.logging.Level.SEVERE, logged.get(0).getLevel());
            assertTrue(logged.get(0).getMessage().contains("kept setTag(test.partition.Running)"),
                    logged.get(0).getMessage());
        } finally {
            jul.removeHandler(handler);
        }
    }

    @Test
    void aConflictIsJudgedPerSubmissionSoTheNextSubmissionStartsClean() {
        long id = world.spawn(IDLE);
        world.setTag(id, WALKING); // outside a scope: its own submission
        world.setTag(id, RUNNING); // another submission: no conflict
        assertSame(RUNNING, world.partitionOf(id, MOVE));
    }

    @Test
    void removeIsIdempotent() {
        long id = world.spawn(IDLE);
        List<Long> despawned = new ArrayList<>();
        world.observe(id, dev.jtecs.event.OnDespawn.class, event -> despawned.add(id));
        world.defer();
        world.despawn(id);
        world.despawn(id);
        world.commit();
        assertFalse(world.isAlive(id));
        assertEquals(List.of(id), despawned, "queued twice, removed once");
    }

    @Test
    void cascadingSubmissionsRunFurtherWavesUntilTheQueuesDrain() {
        // an observer that reacts to Hungry by switching the entity to Running in the next wave
        world.observe(0, ArchetypeCreated.class, created -> {
            if (created.archetype().has(HUNGRY) && !created.archetype().has(RUNNING)) {
                created.archetype().addEntityObserver(new EntityObserver() {
                    @Override
                    public void onEntitiesAdded(Archetype archetype, int fromRow, int toRow, Archetype other) {
                        for (int row = fromRow; row < toRow; row++) {
                            world.setTag(archetype.entity(row), RUNNING);
                        }
                    }
                });
            }
        });
        long id = world.spawn(IDLE);
        world.defer();
        world.setTag(id, WALKING);
        world.setTag(id, HUNGRY);
        world.commit(); // wave 1: Walking + Hungry; wave 2: Running (a new submission, so no conflict)
        assertSame(RUNNING, world.partitionOf(id, MOVE));
        assertTrue(world.has(id, HUNGRY));
    }

    @Test
    void cascadingSubmissionsAreBoundedWithAnErrorNamingTheCascade() {
        world.close();
        world = World.create(WorldConfig.defaults().maxSubmissionWaves(5));
        world.declarePartition(FRENZY);
        world.observe(0, ArchetypeCreated.class, created -> created.archetype().addEntityObserver(
                new EntityObserver() {
                    @Override
                    public void onEntitiesAdded(Archetype archetype, int fromRow, int toRow, Archetype other) {
                        for (int row = fromRow; other != null && row < toRow; row++) { // moves only
                            long e = archetype.entity(row);
                            if (archetype.has(HUNGRY)) {
                                world.unsetTag(e, HUNGRY); // flips forever
                            } else {
                                world.setTag(e, HUNGRY);
                            }
                        }
                    }
                }));
        long id = world.spawn(HP.of(1));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> world.setTag(id, HUNGRY));
        assertTrue(e.getMessage().contains("after 5 waves"), e.getMessage());
        assertTrue(e.getMessage().contains("observer cascade"), e.getMessage());
        assertTrue(e.getMessage().contains("1 tag moves") || e.getMessage().contains("1 moves"), e.getMessage());
        assertTrue(e.getMessage().contains("maxSubmissionWaves"), e.getMessage());
        assertFalse(world.hasPendingChanges(), "the unpublished wave was discarded");
        assertTrue(world.isAlive(id), "the world stays usable");
    }

    @Test
    void plainCallsOnPartitionTagsAreRefusedAndChangeNothing() {
        long id = world.spawn(IDLE);
        long version = world.structureVersion();
        assertThrows(IllegalArgumentException.class, () -> world.set(id, RUNNING));
        assertThrows(IllegalArgumentException.class, () -> world.remove(id, IDLE));
        assertThrows(IllegalArgumentException.class, () -> world.set(id, HUNGRY));
        assertEquals(version, world.structureVersion());
        assertTrue(world.has(id, IDLE));
    }

    @Test
    void badInputGetsAClearExceptionAndChangesNothing() {
        long id = world.spawn(IDLE);
        IllegalArgumentException undeclared = assertThrows(IllegalArgumentException.class,
                () -> world.setTag(id, PLAIN));
        assertTrue(undeclared.getMessage().contains("declarePartition"), undeclared.getMessage());
        assertThrows(NullPointerException.class, () -> world.setTag(id, null));
        world.despawn(id);
        assertThrows(IllegalArgumentException.class, () -> world.setTag(id, RUNNING));
        IllegalArgumentException shared = assertThrows(IllegalArgumentException.class,
                () -> world.declarePartition(PartitionDimension.presence("other", IDLE)));
        assertTrue(shared.getMessage().contains("already belongs to"), shared.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> world.declarePartition(PartitionDimension.presence("move", PLAIN)));
        world.declarePartition(MOVE); // the same dimension again: nothing
        assertEquals(List.of(MOVE, FRENZY, SIGHT), world.partitionDimensions());
    }

    @Test
    void aStagedSpawnTakesItsPartitionChangesIntoItsShape() {
        world.defer();
        long id = world.spawn(IDLE);
        world.setTag(id, RUNNING);
        world.setTag(id, HUNGRY);
        world.commit();
        assertSame(RUNNING, world.partitionOf(id, MOVE));
        assertFalse(world.has(id, IDLE));
        assertTrue(world.has(id, HUNGRY));
    }

    @Test
    void aSpawnWithTwoVariantsIsRepairedByTheNextSwitch() {
        long id = world.spawn(IDLE, WALKING); // spawns are not checked against dimensions
        world.setTag(id, RUNNING);
        assertTrue(world.has(id, RUNNING) && !world.has(id, IDLE) && !world.has(id, WALKING));
    }

    @Test
    void switchingToALowerVariantDropsEveryOtherVariant() {
        long id = world.spawn(RUNNING); // the third variant
        world.setTag(id, IDLE);         // the first
        assertSame(IDLE, world.partitionOf(id, MOVE));
        assertFalse(world.has(id, RUNNING) || world.has(id, WALKING));
    }

    @Test
    void unsetThenSetOfAPresenceTagTheEntityHasIsAConflict() {
        long id = world.spawn(IDLE, HUNGRY);
        world.defer();
        world.unsetTag(id, HUNGRY);
        assertThrows(PartitionConflictException.class, () -> world.setTag(id, HUNGRY),
                "the unset of this submission decides, not what the published entity has");
        world.commit();
        assertFalse(world.has(id, HUNGRY), "the first request stood");
    }

    @Test
    void twoEntitiesRequestsInOneSubmissionKeepTheirOwnValues() {
        long a = world.spawn(IDLE);
        long b = world.spawn(IDLE);
        world.defer();
        world.setTag(a, WALKING);
        world.setTag(b, RUNNING);
        world.setTag(a, WALKING); // a's own request again: no conflict
        world.commit();
        assertSame(WALKING, world.partitionOf(a, MOVE));
        assertSame(RUNNING, world.partitionOf(b, MOVE));
    }

    @Test
    void anEntityWhoseSlotIsPastTheLedgersFirstTableIsTracked() {
        long[] ids = new long[1024]; // slots 1 to 1024: the last one is the first past the ledger's 1,024 slots
        world.batchSpawn(ids.length, List.of(IDLE), null, ids, 0);
        long last = ids[ids.length - 1];
        assertEquals(1024, dev.jtecs.entity.Entity.slot(last));
        world.defer();
        world.setTag(last, WALKING);
        assertThrows(PartitionConflictException.class, () -> world.setTag(last, RUNNING));
        world.commit();
        assertSame(WALKING, world.partitionOf(last, MOVE));
    }

    @Test
    void anEntityWhoseSlotIsPastTwiceTheLedgersFirstTableIsTracked() {
        long[] ids = new long[3000]; // the ledger's first growth must reach slot 3,000 itself, past 2 x 1,024
        world.batchSpawn(ids.length, List.of(IDLE), null, ids, 0);
        long last = ids[ids.length - 1];
        world.defer();
        world.setTag(last, RUNNING);
        world.setTag(last, RUNNING); // its own request again, found in the grown table: no conflict
        world.commit();
        assertSame(RUNNING, world.partitionOf(last, MOVE));
    }

    @Test
    void aDimensionWhoseTagHasAHighIdIsDeclared() {
        TagComponent high = Components.tag("test.partition.High0");
        for (int i = 1; high.id() < 200; i++) { // past twice the ledger's first 64 component slots
            high = Components.tag("test.partition.High" + i);
        }
        PartitionDimension dimension = PartitionDimension.presence("high", high);
        try (World fresh = World.create()) { // a ledger whose first growth this declaration is
            fresh.declarePartition(dimension);
            long id = fresh.spawn(HP.of(1));
            fresh.setTag(id, high);
            assertTrue(fresh.has(id, high));
            assertSame(high, fresh.partitionOf(id, dimension));
        }
    }

    @Test
    void aRefusedPlainCallSaysHowToChangeTheTag() {
        long id = world.spawn(IDLE);
        String variant = assertThrows(IllegalArgumentException.class, () -> world.set(id, RUNNING)).getMessage();
        assertTrue(variant.contains("change it with setTag (switching the variant)"), variant);
        String presence = assertThrows(IllegalArgumentException.class, () -> world.set(id, HUNGRY)).getMessage();
        assertTrue(presence.contains("change it with setTag/unsetTag"), presence);
    }

    /**
     * A partition operation allocates nothing per entity once warm: {@code setTag} used to describe itself
     * ("setTag(Hungry)") on every call for messages it only needs when it refuses, a string per call (72 bytes a
     * round trip). What a commit allocates is per commit, not per entity.
     */
    @Test
    void partitionOperationsAllocateNothingPerEntityOnceWarm() {
        World w = World.create(WorldConfig.defaults());
        try {
            w.declarePartition(MOVE);
            w.declarePartition(FRENZY);
            long[] ids = new long[1_000];
            for (int i = 0; i < ids.length; i++) {
                ids[i] = w.spawn(IDLE);
            }
            var threads = (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
            long least = Long.MAX_VALUE;
            for (int round = 0; round < 50; round++) {
                long before = threads.getCurrentThreadAllocatedBytes();
                w.defer();
                for (long id : ids) {
                    w.setTag(id, HUNGRY);
                    w.setTag(id, RUNNING);
                }
                w.commit();
                w.defer();
                for (long id : ids) {
                    w.unsetTag(id, HUNGRY);
                    w.setTag(id, IDLE);
                }
                w.commit();
                least = Math.min(least, threads.getCurrentThreadAllocatedBytes() - before);
            }
            assertTrue(w.has(ids[ids.length - 1], IDLE) && !w.has(ids[0], HUNGRY), "the rounds ran");
            assertTrue(least < ids.length, "a warm round of " + 4 * ids.length + " partition operations allocated "
                    + least + " bytes");
        } finally {
            w.close();
        }
    }
}
