package dev.jtecs.mutation.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.builtin.systems.BuiltinSystems;
import dev.jtecs.builtin.EntityKey;
import dev.jtecs.component.Component;
import dev.jtecs.component.Components;
import dev.jtecs.component.FloatField;
import dev.jtecs.component.Input;
import dev.jtecs.component.ManagedComponent;
import dev.jtecs.component.NativeComponent;
import dev.jtecs.component.ScalarComponent;
import dev.jtecs.component.TagComponent;
import dev.jtecs.entity.Entity;
import dev.jtecs.entity.internal.AllocationFaults;
import dev.jtecs.event.OnDespawn;
import dev.jtecs.event.OnSpawn;
import dev.jtecs.query.Query;
import dev.jtecs.query.QueryDescriptor;
import dev.jtecs.storage.Archetype;
import dev.jtecs.storage.FloatColumn;
import dev.jtecs.storage.ObjectColumn;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import dev.jtecs.mutation.BatchIds;
import dev.jtecs.world.World;
import dev.jtecs.world.WorldConfig;
import dev.jtecs.world.WorldStats;
import dev.jtecs.testing.FaultAttempt;

class BatchesTest {
    record Pos(float x, float y) {}

    record Vel(float x, float y) {}

    record Bag(List<String> items) {}

    static final NativeComponent<Pos> POS = Components.registerNative(Pos.class);
    static final NativeComponent<Vel> VEL = Components.registerNative(Vel.class);
    static final FloatField PX = POS.floatField("x");
    static final FloatField PY = POS.floatField("y");
    static final FloatField VX = VEL.floatField("x");
    static final ManagedComponent<Bag> BAG = Components.registerManaged(Bag.class);
    static final ScalarComponent.OfInt HP = Components.scalar("test.batch.Hp", 7);
    static final TagComponent MARK = Components.tag("test.batch.Mark");
    static final TagComponent MOVER = Components.tag("test.batch.Mover", o -> o.requires(VEL, HP.of(3)));
    static final TagComponent KEYED = Components.tag("test.batch.Keyed", o -> o.requires(EntityKey.COMPONENT));

    private final World world = World.create();

    @AfterEach
    void close() {
        AllocationFaults.disarm();
        world.close();
    }

    private Query query(Component<?>... include) {
        return world.newQuery(QueryDescriptor.builder().include(include).build());
    }

    /** Every live entity with its component values, in id order: compares whole-world state. */
    private String dump() {
        TreeMap<Long, String> rows = new TreeMap<>();
        world.forEachArchetype(archetype -> {
            for (int row = 0; row < archetype.count(); row++) {
                StringBuilder sb = new StringBuilder();
                for (Component<?> c : archetype.components()) {
                    sb.append(c.name()).append('=').append(archetype.getValue(row, c)).append(' ');
                }
                rows.put(archetype.entity(row), sb.toString());
            }
        });
        return rows + " alive=" + world.entityCount() + " archetypes=" + world.archetypeCount();
    }

    // ---------------------------------------------------------------- failed allocations

    @Test
    void aBatchDespawnWhoseAllocationFailsMarksNoMemberAndTheNextOneDespawnsThemAll() {
        int failures = 0;
        for (int k = 1; ; k++) { // fail each allocation of the call in turn, then let it through
            try (World w = World.create()) {
                long[] ids = w.batchSpawn(3000, List.of(POS)).toArray(); // past the 1,024 slots the marks start with
                Query all = w.newQuery(QueryDescriptor.builder().include(POS).build());
                w.defer();
                w.set(ids[0], MARK); // a record open in the scope: the despawn filters its members at the call
                AllocationFaults.failAt(AllocationFaults.Kind.HEAP, k);
                boolean failed = false;
                try {
                    w.batchDespawn(all);
                } catch (OutOfMemoryError expected) {
                    failed = true;
                }
                AllocationFaults.disarm();
                w.commit();
                if (!failed) {
                    assertEquals(0, w.entityCount());
                    break;
                }
                failures++;
                assertEquals(3000, w.entityCount(), "allocation " + k);
                assertTrue(w.has(ids[0], MARK), "allocation " + k + ": the record before it stands");
                w.defer();
                w.set(ids[1], MARK);
                w.batchDespawn(all); // a member marked by the failed call would be skipped as despawning already
                w.commit();
                assertEquals(0, w.entityCount(), "allocation " + k);
            }
        }
        assertEquals(AllocationFaults.ENABLED, failures > 0, "the call's allocations were failed");
    }

    @Test
    void aClearThatCannotMakeRoomLeavesEveryEntity() {
        long[] ids = world.batchSpawn(3000, List.of(POS)).toArray(); // past the free stack's first room
        String before = dump();
        AllocationFaults.failAt(AllocationFaults.Kind.HEAP, 1);
        try {
            assertThrows(OutOfMemoryError.class, world::clearEntities);
        } finally {
            AllocationFaults.disarm();
        }
        assertEquals(3000, world.entityCount());
        assertTrue(before.equals(dump()), "the room is made before the first row leaves: rows and index as before");
        world.clearEntities();
        assertEquals(0, world.entityCount());
        assertFalse(world.isAlive(ids[0]));
    }

    @Test
    void aBatchSpawnWhoseAllocationFailsReservesNoIdForGood() {
        int failures = 0;
        for (int k = 1; ; k++) {
            try (World w = World.create(); World reference = World.create()) {
                for (World each : List.of(w, reference)) {
                    long[] ids = each.batchSpawn(40, List.of(POS)).toArray();
                    for (int i = 0; i < ids.length; i += 3) {
                        each.despawn(ids[i]); // free slots out of order: the batch takes scattered ids
                    }
                }
                w.defer();
                FaultAttempt.Outcome outcome = FaultAttempt.run(AllocationFaults.Kind.HEAP, k,
                        () -> w.batchSpawn(20, List.of(POS, VEL)));
                boolean failed = outcome == FaultAttempt.Outcome.FAILED;
                boolean unspent = outcome == FaultAttempt.Outcome.UNSPENT;
                w.commit();
                if (unspent) {
                    break; // fewer allocations than k: each was failed in turn
                }
                if (!failed) {
                    continue; // the failed growth was let go (a new table's views) and the call went through
                }
                failures++;
                assertEquals(reference.entityCount(), w.entityCount(), "allocation " + k);
                // the same spawns from here get the same ids in both: no slot stayed reserved by the failure
                assertArrayEquals(reference.batchSpawn(30, List.of(VEL)).toArray(),
                        w.batchSpawn(30, List.of(VEL)).toArray(), "allocation " + k);
            }
        }
        assertEquals(AllocationFaults.ENABLED, failures > 0, "the call's allocations were failed");
    }

    // ---------------------------------------------------------------- batchSpawn

    @Test
    void batchSpawnPlacesContiguousIdsInOneRangeAndCallsTheInitializerOnce() {
        List<int[]> calls = new ArrayList<>();
        BatchIds ids = world.batchSpawn(1000, List.of(POS, VEL), (archetype, from, to) -> {
            calls.add(new int[] {from, to});
            FloatColumn x = archetype.getMut(PX);
            for (int row = from; row < to; row++) {
                x.set(row, row * 2f);
            }
        });
        assertTrue(ids.isContiguous());
        assertEquals(1000, ids.count());
        assertEquals(1, calls.size());
        assertArrayEquals(new int[] {0, 1000}, calls.get(0));
        for (int i = 0; i < 1000; i++) {
            long id = ids.first() + i;
            assertEquals(ids.get(i), id);
            assertTrue(world.isAlive(id));
            assertEquals(new Pos(i * 2f, 0f), world.get(id, POS));
            assertEquals(new Vel(0f, 0f), world.get(id, VEL), "definitions start as zero bits");
        }
    }

    @Test
    void batchSpawnIsStagedInsideAScopeAndDeliversNoSpawnEvents() {
        List<Long> spawns = new ArrayList<>();
        world.observe(Entity.WORLD, OnSpawn.class, e -> spawns.add(e.entity()));
        world.defer();
        BatchIds ids = world.batchSpawn(3, List.of(POS));
        assertFalse(world.isAlive(ids.first()), "invisible until publication");
        world.commit();
        assertTrue(world.isAlive(ids.get(2)));
        assertTrue(spawns.isEmpty());
    }

    @Test
    void recycledSlotsGiveAnExplicitIdList() {
        long a = world.spawn(MARK);
        long b = world.spawn(MARK);
        world.despawn(a);
        world.despawn(b);
        BatchIds ids = world.batchSpawn(4, List.of(MARK));
        assertFalse(ids.isContiguous());
        long[] all = ids.toArray();
        assertEquals(4, all.length);
        for (long id : all) {
            assertTrue(world.isAlive(id));
        }
        assertEquals(all[0], ids.first());
    }

    @Test
    void clearedWorldsReuseSlotsInAscendingOrderAndGenerationsBreakContiguity() {
        world.batchSpawn(3, List.of(MARK));
        world.clearEntities();
        BatchIds again = world.batchSpawn(3, List.of(MARK));
        assertTrue(again.isContiguous(), "the used prefix comes back in order, one generation");
        assertEquals(Entity.pack(1, 1), again.first());
        BatchIds mixed = world.batchSpawn(1, List.of(MARK));
        assertTrue(mixed.isContiguous());
        world.clearEntities();
        BatchIds across = world.batchSpawn(6, List.of(MARK));
        assertFalse(across.isContiguous(), "prefix generation 2, fresh suffix generation 0");
        assertEquals(Entity.pack(5, 0), across.get(4));
    }

    @Test
    void requirementsApplyBeforeTheInitializerAndExplicitInputsWin() {
        int[] seenHp = new int[1];
        BatchIds ids = world.batchSpawn(2, List.of(MOVER, HP.of(9)), (archetype, from, to) ->
                seenHp[0] = archetype.get(HP).get(from));
        assertEquals(9, seenHp[0]);
        assertTrue(world.has(ids.first(), VEL));
        assertEquals(9, world.get(ids.first(), HP));
        BatchIds defaults = world.batchSpawn(2, List.of(MOVER));
        assertEquals(3, world.get(defaults.get(1), HP), "the required instance value");
    }

    @Test
    void constantsAreWrittenToEveryRowAndManagedRecordsAreCopiedShallowly() {
        List<String> shared = new ArrayList<>(List.of("a"));
        Bag bag = new Bag(shared);
        BatchIds ids = world.batchSpawn(3, List.of(POS.of(new Pos(1, 2)), BAG.of(bag), HP.of(5)));
        for (int i = 0; i < 3; i++) {
            assertEquals(new Pos(1, 2), world.get(ids.get(i), POS));
            assertEquals(5, world.get(ids.get(i), HP));
            Bag stored = world.get(ids.get(i), BAG);
            assertEquals(bag, stored);
            assertNotSame(bag, stored, "an independent outer record per entity");
            assertSame(shared, stored.items(), "nested references stay shared");
        }
        assertNotSame(world.get(ids.get(0), BAG), world.get(ids.get(1), BAG));
    }

    @Test
    void aManagedDefinitionStartsEmptyUntilTheInitializerWritesIt() {
        BatchIds ids = world.batchSpawn(2, List.of(BAG), (archetype, from, to) -> {
            ObjectColumn<Bag> bags = archetype.getMut(BAG);
            bags.set(from, new Bag(List.of("x")));
        });
        assertEquals(new Bag(List.of("x")), world.get(ids.get(0), BAG));
        assertNull(world.get(ids.get(1), BAG), "no constructor runs for batch definitions");
    }

    @Test
    void laterSetAndRemoveOnReservedIdsApplyAfterInitialization() {
        world.defer();
        BatchIds ids = world.batchSpawn(3, List.of(POS), (archetype, from, to) -> {
            FloatColumn x = archetype.getMut(PX);
            for (int row = from; row < to; row++) {
                x.set(row, 1f);
            }
        });
        world.set(ids.get(1), POS.of(new Pos(9, 9)));
        world.set(ids.get(2), MARK);
        world.remove(ids.get(0), POS);
        world.commit();
        assertFalse(world.has(ids.get(0), POS));
        assertTrue(world.isAlive(ids.get(0)));
        assertEquals(new Pos(9, 9), world.get(ids.get(1), POS));
        assertEquals(new Pos(1, 0), world.get(ids.get(2), POS));
        assertTrue(world.has(ids.get(2), MARK));
    }

    @Test
    void despawnedReservedIdsGetNoRowAndTheRestStayContiguousInRows() {
        List<Long> despawns = new ArrayList<>();
        world.observe(Entity.WORLD, OnDespawn.class, e -> despawns.add(e.entity()));
        List<int[]> ranges = new ArrayList<>();
        world.defer();
        BatchIds ids = world.batchSpawn(5, List.of(POS), (a, from, to) -> ranges.add(new int[] {from, to}));
        world.despawn(ids.get(1));
        world.despawn(ids.get(3));
        world.commit();
        assertEquals(List.of(ids.get(1), ids.get(3)), despawns, "cancelled spawns still report OnDespawn");
        assertFalse(world.isAlive(ids.get(1)));
        assertFalse(world.isAlive(ids.get(3)));
        assertTrue(world.isAlive(ids.get(4)));
        assertEquals(1, ranges.size());
        assertArrayEquals(new int[] {0, 3}, ranges.get(0));
        assertEquals(3, world.entityCount());
    }

    @Test
    void membershipCallbacksSeeInitializedRowsAfterTheInitializer() {
        List<String> order = new ArrayList<>();
        world.newQuery(QueryDescriptor.builder().include(POS).onEntitiesAdded((archetype, from, to) ->
                order.add("added " + from + ".." + to + " x=" + archetype.get(PX).get(from))).build());
        world.batchSpawn(4, List.of(POS), (archetype, from, to) -> {
            order.add("init");
            archetype.getMut(PX).set(from, 5f);
        });
        assertEquals(List.of("init", "added 0..4 x=5.0"), order);
    }

    @Test
    void batchSpawnRejectsBadInputAndChangesNothing() {
        world.spawn(POS);
        String before = dump();
        assertThrows(IllegalArgumentException.class, () -> world.batchSpawn(0, List.of(POS)));
        assertThrows(IllegalArgumentException.class, () -> world.batchSpawn(-3, List.of(POS)));
        assertThrows(IllegalArgumentException.class, () -> world.batchSpawn(2, List.of(EntityKey.COMPONENT)));
        assertThrows(IllegalArgumentException.class, () -> world.batchSpawn(2, List.of(KEYED)),
                "EntityKey through a requirement");
        assertThrows(NullPointerException.class, () -> world.batchSpawn(2, null));
        List<dev.jtecs.component.Input> withNull = new ArrayList<>();
        withNull.add(null);
        assertThrows(NullPointerException.class, () -> world.batchSpawn(2, withNull));
        assertEquals(before, dump());
        try (World small = World.create(WorldConfig.defaults().maxEntities(10))) {
            small.batchSpawn(8, List.of(MARK));
            assertThrows(IllegalStateException.class, () -> small.batchSpawn(3, List.of(MARK)));
            assertEquals(8, small.entityCount());
            assertEquals(2, small.batchSpawn(2, List.of(MARK)).count(), "nothing was reserved by the failure");
        }
    }

    @Test
    void aThrowingInitializerKeepsEarlierPublishedRowsAndDiscardsTheRest() {
        long before = world.spawn(POS);
        world.defer();
        world.batchSpawn(2, List.of(POS));
        BatchIds failing = world.batchSpawn(3, List.of(POS), (a, from, to) -> {
            throw new IllegalStateException("boom");
        });
        assertThrows(IllegalStateException.class, world::commit);
        assertTrue(world.isAlive(before));
        assertEquals(3, world.entityCount(), "the first batch was published, the failing one was not");
        assertFalse(world.isAlive(failing.first()));
        assertEquals(2, world.newQuery(QueryDescriptor.builder().include(POS).build()).count() - 1);
        world.batchSpawn(2, List.of(POS));
        assertEquals(5, world.entityCount(), "the world keeps working");
    }

    // ---------------------------------------------------------------- batchSpawnAt / raw

    @Test
    void batchSpawnIntoABufferWritesTheSameIdsTheReturningFormGives() {
        try (World other = World.create()) {
            for (World w : new World[] {world, other}) { // recycled slots: the ids do not line up
                long a = w.spawn(MARK);
                long b = w.spawn(MARK);
                w.despawn(b);
                w.despawn(a);
            }
            long[] buffer = new long[8];
            buffer[0] = -1;
            world.batchSpawn(5, List.of(POS, VEL), null, buffer, 2);
            BatchIds expected = other.batchSpawn(5, List.of(POS, VEL), null);
            assertFalse(expected.isContiguous());
            assertEquals(-1, buffer[0], "nothing written before the offset");
            assertArrayEquals(expected.toArray(), java.util.Arrays.copyOfRange(buffer, 2, 7));
            world.batchSpawn(3, List.of(POS, VEL), null, buffer, 0); // fresh slots: consecutive
            BatchIds consecutive = other.batchSpawn(3, List.of(POS, VEL), null);
            assertTrue(consecutive.isContiguous());
            assertArrayEquals(consecutive.toArray(), java.util.Arrays.copyOf(buffer, 3));
            for (long id : java.util.Arrays.copyOf(buffer, 7)) {
                assertTrue(world.isAlive(id));
            }
            assertEquals(8, world.entityCount());
        }
    }

    @Test
    void batchSpawnIntoABufferStagesLikeTheReturningForm() {
        List<String> seen = new ArrayList<>();
        long[] ids = new long[4];
        world.defer();
        world.batchSpawn(4, List.of(POS), (archetype, from, to) -> {
            seen.add("init " + from + ".." + to);
            FloatColumn x = archetype.getMut(PX);
            for (int row = from; row < to; row++) {
                x.set(row, 1f);
            }
        }, ids, 0);
        assertFalse(world.isAlive(ids[0]), "reserved, published at commit");
        world.set(ids[1], POS.of(new Pos(9, 9)));     // the ids are usable at once
        world.despawn(ids[3]);
        world.commit();
        assertEquals(List.of("init 0..3"), seen);
        assertEquals(new Pos(1, 0), world.get(ids[0], POS));
        assertEquals(new Pos(9, 9), world.get(ids[1], POS));
        assertFalse(world.isAlive(ids[3]));
        assertEquals(3, world.entityCount());
    }

    @Test
    void batchSpawnIntoABufferRejectsBadInputAndChangesNothing() {
        world.spawn(POS);
        String before = dump();
        int archetypes = world.archetypeCount();
        long[] ids = new long[4];
        assertThrows(NullPointerException.class, () -> world.batchSpawn(2, List.of(VEL, MARK), null, null, 0));
        IllegalArgumentException small = assertThrows(IllegalArgumentException.class,
                () -> world.batchSpawn(3, List.of(VEL, MARK), null, ids, 2));
        assertEquals("batchSpawn: ids.length=4 from offset=2 cannot hold count=3 ids", small.getMessage());
        assertThrows(IllegalArgumentException.class, () -> world.batchSpawn(1, List.of(VEL, MARK), null, ids, -1));
        assertThrows(IllegalArgumentException.class, () -> world.batchSpawn(1, List.of(VEL, MARK), null, ids, 5));
        assertThrows(IllegalArgumentException.class, () -> world.batchSpawn(0, List.of(VEL, MARK), null, ids, 0));
        assertThrows(IllegalArgumentException.class, () -> world.batchSpawn(2, List.of(KEYED), null, ids, 0));
        assertThrows(NullPointerException.class, () -> world.batchSpawn(2, null, null, ids, 0));
        assertEquals(before, dump());
        assertEquals(archetypes, world.archetypeCount(), "no archetype was created for a refused call");
        assertArrayEquals(new long[4], ids, "nothing written");
        assertFalse(world.hasPendingChanges());
    }

    @Test
    void aReusedInputListFollowsTheActiveStateAndRecheckedEdgeTargets() {
        List<dev.jtecs.component.Input> inputs = List.of(POS);
        long[] ids = new long[1];
        world.batchSpawn(1, inputs, null, ids, 0);
        TagComponent menu = world.createState("test.batch.menu", dev.jtecs.state.StatePolicy.pauseOnBlur());
        world.pushState("test.batch.menu");
        world.batchSpawn(1, inputs, null, ids, 0);
        assertTrue(world.has(ids[0], menu), "the active state's tag joins the signature");
        world.popState();
        world.batchSpawn(1, inputs, null, ids, 0);
        assertFalse(world.has(ids[0], menu));

        long target = world.spawn(MARK);
        List<dev.jtecs.component.Input> edge = List.of(dev.jtecs.builtin.ChildOf.COMPONENT.to(target));
        world.batchSpawn(1, edge, null, ids, 0);
        world.despawn(target);
        assertThrows(IllegalArgumentException.class, () -> world.batchSpawn(1, edge, null, ids, 0),
                "an edge's target is checked at every call");
    }

    @Test
    void aBurstSpawnedIntoABufferAllocatesNothingPerEntity() {
        long small = burstBytesPerCall(1_000);
        long large = burstBytesPerCall(20_000);
        assertTrue(small < 512 && large < 512, "one scattered batchSpawn into a buffer allocated " + small
                + " bytes for 1,000 entities and " + large + " for 20,000 (quietest window, per call)");
    }

    /** Heap bytes one batchSpawn of {@code n} recycled (scattered) ids into a buffer allocates, once warm. */
    private static long burstBytesPerCall(int n) {
        try (World world = World.create()) {
            List<dev.jtecs.component.Input> inputs = List.of(POS, VEL);
            Query all = world.newQuery(QueryDescriptor.builder().include(POS).build());
            long[] ids = new long[n];
            world.batchSpawn(n, inputs, null, ids, 0);
            com.sun.management.ThreadMXBean threads =
                    (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
            long best = Long.MAX_VALUE;
            for (int round = 0; round < 40; round++) {
                world.defer();
                for (int i = n - 1; i >= 0; i -= 2) {
                    world.despawn(ids[i]); // every other slot: the free list does not form one run
                }
                world.commit();
                world.batchDespawn(all);
                long before = threads.getCurrentThreadAllocatedBytes();
                world.batchSpawn(n, inputs, null, ids, 0);
                best = Math.min(best, threads.getCurrentThreadAllocatedBytes() - before);
                assertEquals(n, world.entityCount());
            }
            return best;
        }
    }

    @Test
    void batchSpawnAtRestoresExactIds() {
        long[] ids = {Entity.pack(5, 3), Entity.pack(2, 0), Entity.pack(9, 7)};
        world.batchSpawnAt(ids, List.of(POS.of(new Pos(1, 1))), null);
        for (long id : ids) {
            assertTrue(world.isAlive(id));
            assertEquals(new Pos(1, 1), world.get(id, POS));
        }
        long fresh = world.spawn();
        assertFalse(fresh == ids[0] || fresh == ids[1] || fresh == ids[2]);
    }

    @Test
    void batchSpawnAtValidatesEveryIdBeforeReservingAny() {
        long live = world.spawn(MARK);
        String before = dump();
        long[] duplicate = {Entity.pack(20, 0), Entity.pack(20, 1)};
        assertThrows(IllegalArgumentException.class, () -> world.batchSpawnAt(duplicate, List.of(MARK), null));
        long[] occupied = {Entity.pack(21, 0), live};
        assertThrows(IllegalArgumentException.class, () -> world.batchSpawnAt(occupied, List.of(MARK), null));
        long[] malformed = {Entity.pack(22, 0), 0L};
        assertThrows(IllegalArgumentException.class, () -> world.batchSpawnAt(malformed, List.of(MARK), null));
        long[] beyond = {Entity.pack(WorldConfig.defaults().maxEntities() + 1, 0)};
        assertThrows(IllegalArgumentException.class, () -> world.batchSpawnAt(beyond, List.of(MARK), null));
        assertThrows(IllegalArgumentException.class,
                () -> world.batchSpawnAt(new long[] {Entity.pack(23, 0)}, List.of(EntityKey.COMPONENT), null));
        assertEquals(before, dump());
        world.batchSpawnAt(new long[] {Entity.pack(20, 0), Entity.pack(21, 0)}, List.of(MARK), null);
        assertEquals(3, world.entityCount(), "the rejected ids were never reserved");
        world.batchSpawnAt(new long[0], List.of(MARK), null);
        assertEquals(3, world.entityCount());
    }

    @Test
    void batchSpawnAtRawReadsANativeArrayAndMayInitializeKeys() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment ids = arena.allocate(ValueLayout.JAVA_LONG, 3);
            ids.setAtIndex(ValueLayout.JAVA_LONG, 0, Entity.pack(4, 1));
            ids.setAtIndex(ValueLayout.JAVA_LONG, 1, Entity.pack(6, 0));
            ids.setAtIndex(ValueLayout.JAVA_LONG, 2, Entity.pack(8, 2));
            world.batchSpawnAtRaw(ids, 2, List.of(POS, EntityKey.COMPONENT), (archetype, from, to) -> {
                ObjectColumn<String> keyColumn = archetype.getMut(EntityKey.COMPONENT);
                for (int row = from; row < to; row++) {
                    keyColumn.set(row, "k" + row);
                }
            });
            assertTrue(world.isAlive(Entity.pack(4, 1)));
            assertTrue(world.isAlive(Entity.pack(6, 0)));
            assertFalse(world.isAlive(Entity.pack(8, 2)), "only the prefix of count ids");
            assertEquals(Entity.pack(4, 1), world.byKey("k0"));
            assertEquals(Entity.pack(6, 0), world.byKey("k1"));
            assertTrue(world.archetypeOf(Entity.pack(4, 1)).get(EntityKey.COMPONENT).isReadOnly(),
                    "the key column is read-only again after the initializer");
        }
    }

    @Test
    void batchSpawnAtRawRejectsDuplicateOrMissingKeysAtPublication() {
        world.spawn(EntityKey.COMPONENT.of("taken"));
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment ids = arena.allocate(ValueLayout.JAVA_LONG, 2);
            ids.setAtIndex(ValueLayout.JAVA_LONG, 0, Entity.pack(30, 0));
            ids.setAtIndex(ValueLayout.JAVA_LONG, 1, Entity.pack(31, 0));
            assertThrows(IllegalArgumentException.class, () -> world.batchSpawnAtRaw(ids, 2,
                    List.of(EntityKey.COMPONENT), (a, from, to) -> {
                        a.getMut(EntityKey.COMPONENT).set(from, "taken");
                        a.getMut(EntityKey.COMPONENT).set(from + 1, "free");
                    }));
            assertFalse(world.isAlive(Entity.pack(30, 0)));
            assertFalse(world.isAlive(Entity.pack(31, 0)));
            assertEquals(0, world.byKey("free"));
            assertThrows(IllegalArgumentException.class, () -> world.batchSpawnAtRaw(ids, 2,
                    List.of(EntityKey.COMPONENT), null), "no initializer: empty keys");
            assertThrows(IllegalArgumentException.class, () -> world.batchSpawnAtRaw(ids, 2,
                    List.of(EntityKey.COMPONENT.of("same")), null), "one constant key for two entities");
            assertThrows(IllegalArgumentException.class, () -> world.batchSpawnAtRaw(ids, 3, List.of(MARK), null),
                    "an array shorter than count");
            assertThrows(IllegalArgumentException.class, () -> world.batchSpawnAtRaw(ids, -1, List.of(MARK), null));
            assertEquals(1, world.entityCount());
            assertThrows(IllegalArgumentException.class, () -> world.batchSpawnAtRaw(ids, 2, List.of(MARK), null),
                    "the failed publication released its ids: they are stale now");
            ids.setAtIndex(ValueLayout.JAVA_LONG, 0, Entity.pack(30, 1));
            ids.setAtIndex(ValueLayout.JAVA_LONG, 1, Entity.pack(31, 1));
            world.batchSpawnAtRaw(ids, 2, List.of(MARK), null);
            assertEquals(3, world.entityCount(), "the failed publications released their ids");
        }
    }

    // ---------------------------------------------------------------- batchSet / batchRemove

    // ---------------------------------------------------------------- despawn(ids, from, to)

    /**
     * Random worlds (three archetypes, ChildOf trees, observers at address 0 and at some entities, one of which
     * despawns another entity) where a range of ids is despawned in one call, beside a twin that despawns the same
     * ids one by one in one scope: the same state (every id, row and value), the same events in the same order,
     * the same membership callbacks and dirty residue. Replay a seed with {@code -Djtecs.seed=...}.
     */
    @Test
    void despawningARangeEqualsDespawningEachIdInOneScope() {
        Long replay = Long.getLong("jtecs.seed");
        int observerDespawns = 0;
        int cascades = 0;
        for (long seed : replay != null ? new long[] {replay} : new long[] {1, 2, 3, 4, 5, System.nanoTime()}) {
            System.out.println("BatchesTest.despawningARangeEqualsDespawningEachIdInOneScope seed=" + seed);
            try (World bulk = World.create(); World single = World.create()) {
                List<String> bulkLog = new ArrayList<>();
                List<String> singleLog = new ArrayList<>();
                long[] bulkIds = despawnScene(bulk, seed, bulkLog);
                long[] singleIds = despawnScene(single, seed, singleLog);
                assertArrayEquals(bulkIds, singleIds, "seed=" + seed);
                java.util.SplittableRandom random = new java.util.SplittableRandom(seed ^ 0x5DEECE66DL);
                long[] chosen = chooseDespawns(bulk, bulkIds, random);
                int from = 1;
                int to = chosen.length - 1;
                for (int i = from; i < to; i++) {
                    cascades += bulk.relationshipSources(dev.jtecs.builtin.ChildOf.COMPONENT, chosen[i]).length;
                }

                bulk.defer();
                bulk.despawn(chosen[0]);        // already being despawned when the range comes
                int began = bulk.despawn(chosen, from, to);
                bulk.commit();

                single.defer();
                single.despawn(chosen[0]);
                int singleBegan = 0;
                for (int i = from; i < to; i++) {
                    boolean already = isDespawning(chosen[i], singleLog);
                    single.despawn(chosen[i]);
                    singleBegan += already ? 0 : 1;
                }
                single.commit();

                assertEquals(singleLog, bulkLog, "seed=" + seed);
                assertEquals(dumpOf(single), dumpOf(bulk), "seed=" + seed);
                assertEquals(residueOf(single), residueOf(bulk), "seed=" + seed);
                for (long id : bulkIds) {
                    assertEquals(single.rowOf(id), bulk.rowOf(id), "seed=" + seed + " id=" + Entity.toString(id));
                }
                assertEquals(singleBegan, began, "seed=" + seed);
                observerDespawns += bulkLog.stream().anyMatch(line -> line.startsWith("entity OnDespawn")) ? 1 : 0;
            }
        }
        assertTrue(replay != null || observerDespawns > 0 && cascades > 0, "the scenes must exercise observers "
                + "that despawn (" + observerDespawns + ") and parents whose children cascade (" + cascades + ")");
    }

    /** Whether the log shows an OnDespawn of {@code id} already (the single-call twin's way to count). */
    private static boolean isDespawning(long id, List<String> log) {
        String prefix = "world OnDespawn " + Entity.toString(id) + " ";
        return log.stream().anyMatch(line -> line.startsWith(prefix));
    }

    /** Builds the same random scene in any world: ids spawned, observers and membership callbacks logging. */
    private static long[] despawnScene(World world, long seed, List<String> log) {
        java.util.SplittableRandom random = new java.util.SplittableRandom(seed);
        int n = 60 + random.nextInt(60);
        long[] ids = new long[n];
        for (int i = 0; i < n; i++) {
            int shape = random.nextInt(4);
            if (shape == 3 && i > 0) { // a child of an earlier entity: despawned with it (cascade)
                ids[i] = world.spawn(POS.of(new Pos(i, -i)), dev.jtecs.builtin.ChildOf.COMPONENT.to(ids[random.nextInt(i)]));
            } else {
                ids[i] = shape == 0 ? world.spawn(POS.of(new Pos(i, i)))
                        : shape == 1 ? world.spawn(POS.of(new Pos(i, 0)), VEL.of(new Vel(0, i)))
                        : world.spawn(MARK, HP.of(i));
            }
        }
        world.observe(Entity.WORLD, OnDespawn.class, e -> log.add("world OnDespawn " + Entity.toString(e.entity())
                + " row=" + e.row()));
        for (int k = 0; k < 5; k++) {
            long watched = ids[random.nextInt(n)];
            long other = ids[random.nextInt(n)];
            world.observe(watched, OnDespawn.class, e -> {
                log.add("entity OnDespawn " + Entity.toString(e.entity()));
                if (world.isAlive(other)) {
                    world.despawn(other); // a despawn requested by an observer
                }
            });
        }
        world.newQuery(QueryDescriptor.builder().include(POS).onEntitiesRemoved((archetype, fromRow, toRow) ->
                log.add("removed " + archetype.id() + " " + fromRow + ".." + toRow)).build());
        world.clearDirty();
        return ids;
    }

    /** A random subset of the scene's ids in random order (duplicate-free). */
    private static long[] chooseDespawns(World world, long[] ids, java.util.SplittableRandom random) {
        java.util.Set<Long> chosen = new java.util.LinkedHashSet<>();
        for (long id : ids) {
            if (random.nextInt(3) == 0) {
                chosen.add(id);
            }
        }
        for (int i = 0; chosen.size() < 3; i++) {
            chosen.add(ids[i]);
        }
        List<Long> pool = new ArrayList<>(chosen);
        java.util.Collections.shuffle(pool, new java.util.Random(random.nextLong()));
        return pool.stream().mapToLong(Long::longValue).toArray();
    }

    /** Every live entity's archetype, row and values, by id. */
    private static String dumpOf(World world) {
        TreeMap<Long, String> rows = new TreeMap<>();
        world.forEachArchetype(archetype -> {
            for (int row = 0; row < archetype.count(); row++) {
                StringBuilder sb = new StringBuilder().append(archetype.id()).append('@').append(row).append(' ');
                for (Component<?> c : archetype.components()) {
                    sb.append(c.name()).append('=').append(archetype.getValue(row, c)).append(' ');
                }
                rows.put(archetype.entity(row), sb.toString());
            }
        });
        return rows + " alive=" + world.entityCount();
    }

    /** The dirty archetypes with their row residue. */
    private static String residueOf(World world) {
        StringBuilder sb = new StringBuilder();
        for (Archetype archetype : world.dirtyArchetypes()) {
            sb.append(archetype.id()).append(" added=").append(archetype.structuralAdded()).append(" touched=")
                    .append(java.util.Arrays.toString(archetype.structuralTouched())).append(" count=")
                    .append(archetype.structuralCount()).append('\n');
        }
        return sb.toString();
    }

    @Test
    void despawningARangeRejectsBadIdsAndChangesNothing() {
        BatchIds ids = world.batchSpawn(5, List.of(POS));
        long dead = world.spawn(MARK);
        world.despawn(dead);
        List<Long> events = new ArrayList<>();
        world.observe(Entity.WORLD, OnDespawn.class, e -> events.add(e.entity()));
        String before = dump();
        long[] withDead = {ids.get(0), ids.get(1), dead, ids.get(2)};
        IllegalArgumentException stale = assertThrows(IllegalArgumentException.class,
                () -> world.despawn(withDead, 0, 4));
        assertTrue(stale.getMessage().startsWith("despawn ids[2]: entity " + Entity.toString(dead)
                + " is dead or stale"), stale.getMessage());
        long[] twice = {ids.get(3), ids.get(1), ids.get(3)};
        IllegalArgumentException duplicate = assertThrows(IllegalArgumentException.class,
                () -> world.despawn(twice, 0, 3));
        assertEquals("despawn ids[2]: entity " + Entity.toString(ids.get(3)) + " is listed twice in ids[0, 3)",
                duplicate.getMessage());
        assertThrows(IllegalArgumentException.class, () -> world.despawn(new long[] {ids.get(0), -5}, 0, 2));
        assertThrows(IllegalArgumentException.class, () -> world.despawn(new long[] {Entity.WORLD}, 0, 1));
        assertThrows(NullPointerException.class, () -> world.despawn(null, 0, 0));
        IndexOutOfBoundsException range = assertThrows(IndexOutOfBoundsException.class,
                () -> world.despawn(new long[3], 2, 4));
        assertEquals("despawn: from=2 to=4 outside ids.length=3", range.getMessage());
        assertThrows(IndexOutOfBoundsException.class, () -> world.despawn(new long[3], -1, 1));
        assertThrows(IndexOutOfBoundsException.class, () -> world.despawn(new long[3], 2, 1));
        assertEquals(before, dump());
        assertEquals(List.of(), events, "nothing delivered");
        assertFalse(world.hasPendingChanges());
        assertEquals(2, world.despawn(twice, 0, 2), "the refused calls left no mark: a valid range still works");
        assertEquals(3, world.entityCount());
    }

    @Test
    void despawningARangeSkipsOnlyWhatIsOutsideTheRangeOrAlreadyBeingDespawned() {
        long[] ids = new long[6];
        world.batchSpawn(6, List.of(POS), null, ids, 0);
        assertEquals(0, world.despawn(ids, 3, 3), "an empty range");
        world.defer();
        world.despawn(ids[2]);
        long staged = world.spawn(MARK);        // reserved: a range may cancel staged spawns too
        long[] list = {ids[1], ids[2], staged, ids[4]};
        assertEquals(3, world.despawn(list, 0, 4), "ids[2] was being despawned already");
        world.commit();
        assertTrue(world.isAlive(ids[0]) && world.isAlive(ids[3]) && world.isAlive(ids[5]));
        assertFalse(world.isAlive(staged));
        assertEquals(3, world.entityCount());
    }

    @Test
    void despawningARangeAllocatesNothingPerEntity() {
        long small = rangeDespawnBytes(1_000);
        long large = rangeDespawnBytes(20_000);
        assertTrue(small < 256 && large < 256, "despawn(ids, 0, n) allocated " + small + " bytes for 1,000 ids and "
                + large + " for 20,000 (quietest window)");
    }

    /** Heap bytes one despawn of {@code n} listed ids allocates (publication included), once warm. */
    private static long rangeDespawnBytes(int n) {
        try (World world = World.create()) {
            List<dev.jtecs.component.Input> inputs = List.of(POS, VEL);
            world.newQuery(QueryDescriptor.builder().include(POS).build());
            long[] ids = new long[2 * n];
            long[] odd = new long[n];
            world.batchSpawn(2 * n, inputs, null, ids, 0);
            com.sun.management.ThreadMXBean threads =
                    (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
            long best = Long.MAX_VALUE;
            for (int round = 0; round < 40; round++) {
                for (int i = 0; i < n; i++) {
                    odd[i] = ids[2 * i + 1];
                }
                long before = threads.getCurrentThreadAllocatedBytes();
                world.despawn(odd, 0, n);
                best = Math.min(best, threads.getCurrentThreadAllocatedBytes() - before);
                assertEquals(n, world.entityCount());
                world.batchSpawn(n, inputs, null, odd, 0); // refill the freed slots
                for (int i = 0; i < n; i++) {
                    ids[2 * i + 1] = odd[i];
                }
            }
            return best;
        }
    }

    @Test
    void batchSetAddsAComponentToAWholeArchetypeByExchangingBuffers() {
        BatchIds ids = world.batchSpawn(100, List.of(POS), (a, from, to) -> {
            for (int row = from; row < to; row++) {
                a.getMut(PX).set(row, row);
            }
        });
        Archetype source = world.archetypeOf(ids.first());
        java.lang.foreign.MemorySegment buffer = source.get(PX).segment();
        world.batchSet(query(POS), MARK);
        Archetype target = world.archetypeOf(ids.first());
        assertTrue(target.has(MARK));
        assertEquals(0, source.count());
        assertEquals(100, target.count());
        assertEquals(buffer.address(), target.get(PX).segment().address(), "the column buffer changed hands");
        for (int i = 0; i < 100; i++) {
            assertEquals(new Pos(i, 0), world.get(ids.get(i), POS));
            assertEquals(i, world.rowOf(ids.get(i)));
        }
    }

    @Test
    void batchSetIntoAPopulatedArchetypeCopiesInBulkAndRelocatesEveryEntity() {
        long resident = world.spawn(POS.of(new Pos(-1, -1)), MARK);
        BatchIds ids = world.batchSpawn(50, List.of(POS.of(new Pos(3, 4))));
        world.batchSet(query(POS), MARK);
        Archetype target = world.archetypeOf(resident);
        assertEquals(51, target.count());
        for (int i = 0; i < 50; i++) {
            assertSame(target, world.archetypeOf(ids.get(i)));
            assertEquals(ids.get(i), target.entity(world.rowOf(ids.get(i))));
            assertEquals(new Pos(3, 4), world.get(ids.get(i), POS));
        }
        assertEquals(new Pos(-1, -1), world.get(resident, POS));
    }

    @Test
    void batchSetWritesAValueInPlaceAndAddsWithRequirements() {
        BatchIds a = world.batchSpawn(3, List.of(POS));
        BatchIds b = world.batchSpawn(2, List.of(POS, VEL));
        world.clearDirty();
        world.batchSet(query(POS), VEL.of(new Vel(7, 8)));
        for (int i = 0; i < 3; i++) {
            assertEquals(new Vel(7, 8), world.get(a.get(i), VEL));
        }
        assertEquals(new Vel(7, 8), world.get(b.get(1), VEL));
        assertTrue(world.archetypeOf(b.first()).isComponentDirty(VEL));
        world.batchSet(query(POS), MOVER);
        assertEquals(3, world.get(a.first(), HP), "requirements expand in bulk");
        assertEquals(new Vel(7, 8), world.get(a.first(), VEL), "present components keep their values");
    }

    @Test
    void batchSetWriterRunsPerRangeSeesEarlierStagedWritesAndPrecedesLaterOnes() {
        BatchIds ids = world.batchSpawn(4, List.of(POS));
        world.defer();
        world.set(ids.get(0), POS.of(new Pos(10, 0)));
        List<int[]> ranges = new ArrayList<>();
        world.batchSet(query(POS), POS, (archetype, from, to) -> {
            ranges.add(new int[] {from, to});
            FloatColumn x = archetype.getMut(PX);
            for (int row = from; row < to; row++) {
                x.set(row, x.get(row) + 1);
            }
        });
        world.set(ids.get(1), POS.of(new Pos(50, 0)));
        assertEquals(new Pos(0, 0), world.get(ids.get(1), POS), "no write-through past a staged batch");
        world.commit();
        assertEquals(new Pos(11, 0), world.get(ids.get(0), POS), "the writer saw the earlier staged value");
        assertEquals(new Pos(50, 0), world.get(ids.get(1), POS), "the later value wins");
        assertEquals(new Pos(1, 0), world.get(ids.get(2), POS));
        assertEquals(1, ranges.size());
    }

    @Test
    void batchSetWriterAddsTheComponentBeforeMembershipCallbacksSeeIt() {
        world.batchSpawn(3, List.of(POS));
        List<Float> seen = new ArrayList<>();
        world.newQuery(QueryDescriptor.builder().include(VEL).onEntitiesAdded((archetype, from, to) -> {
            for (int row = from; row < to; row++) {
                seen.add(archetype.get(VX).get(row));
            }
        }).build());
        world.batchSet(query(POS), VEL, (archetype, from, to) -> {
            for (int row = from; row < to; row++) {
                archetype.getMut(VX).set(row, 4f);
            }
        });
        assertEquals(List.of(4f, 4f, 4f), seen);
    }

    @Test
    void membershipIsCapturedAtTheCall() {
        BatchIds first = world.batchSpawn(2, List.of(POS));
        world.defer();
        Query positions = query(POS);
        long late = world.spawn(POS);
        world.batchSet(positions, MARK);
        long later = world.spawn(POS);
        world.commit();
        assertTrue(world.has(first.get(0), MARK));
        assertTrue(world.has(first.get(1), MARK));
        assertFalse(world.has(late, MARK), "staged before the call but not a committed member");
        assertFalse(world.has(later, MARK));
    }

    @Test
    void capturedMembersThatMovedOrDiedAreHandledOneByOne() {
        BatchIds ids = world.batchSpawn(4, List.of(POS));
        world.defer();
        world.batchSet(query(POS), MARK);
        world.commit();
        world.defer();
        Query marked = query(MARK);
        world.batchRemove(marked, MARK);
        world.commit();
        for (int i = 0; i < 4; i++) {
            assertFalse(world.has(ids.get(i), MARK));
        }
        world.defer();
        world.despawn(ids.get(0));
        world.set(ids.get(1), VEL);
        world.batchSet(query(POS), HP.of(1));
        world.commit();
        assertFalse(world.isAlive(ids.get(0)));
        assertEquals(1, world.get(ids.get(1), HP));
        assertTrue(world.has(ids.get(1), VEL));
        assertEquals(1, world.get(ids.get(3), HP));
    }

    @Test
    void structureChangedAfterTheCallFallsBackToPerEntityWork() {
        BatchIds ids = world.batchSpawn(5, List.of(POS));
        world.defer();
        world.batchSet(query(POS), MARK);
        world.batchRemove(query(POS), POS); // captured before the first batch ran: still the same members
        world.commit();
        for (int i = 0; i < 5; i++) {
            assertTrue(world.has(ids.get(i), MARK));
            assertFalse(world.has(ids.get(i), POS));
        }
    }

    @Test
    void batchRemoveMovesWholeArchetypesAndIgnoresAbsentComponents() {
        BatchIds ids = world.batchSpawn(10, List.of(POS, MARK));
        long other = world.spawn(VEL, MARK);
        world.batchRemove(query(MARK), POS);
        for (int i = 0; i < 10; i++) {
            assertFalse(world.has(ids.get(i), POS));
            assertTrue(world.has(ids.get(i), MARK));
        }
        assertTrue(world.has(other, VEL));
    }

    @Test
    void queryBatchesRejectForeignQueriesAndKeysAndChangeNothing() {
        world.batchSpawn(3, List.of(POS));
        String before = dump();
        try (World other = World.create()) {
            Query foreign = other.newQuery(QueryDescriptor.builder().include(POS).build());
            assertThrows(IllegalArgumentException.class, () -> world.batchSet(foreign, MARK));
            assertThrows(IllegalArgumentException.class, () -> world.batchRemove(foreign, POS));
            assertThrows(IllegalArgumentException.class, () -> world.batchDespawn(foreign));
            assertThrows(IllegalArgumentException.class, () -> world.batchSet(foreign, POS, (a, f, t) -> { }));
        }
        assertThrows(IllegalArgumentException.class, () -> world.batchSet(query(POS), EntityKey.COMPONENT.of("x")));
        assertThrows(IllegalArgumentException.class,
                () -> world.batchSet(query(POS), EntityKey.COMPONENT, (a, f, t) -> { }));
        assertThrows(IllegalArgumentException.class, () -> world.batchSet(query(POS), KEYED),
                "EntityKey through a requirement would give every member the same key");
        assertThrows(NullPointerException.class, () -> world.batchSet(query(POS), POS, null));
        assertEquals(before, dump());
        assertFalse(world.hasPendingChanges());
    }

    @Test
    void stateFiltersApply() {
        BatchIds ids = world.batchSpawn(2, List.of(POS));
        world.set(ids.get(0), dev.jtecs.builtin.Disabled.COMPONENT);
        world.batchSet(query(POS), MARK);
        assertFalse(world.has(ids.get(0), MARK), "Disabled is excluded unless included");
        assertTrue(world.has(ids.get(1), MARK));
    }

    // ---------------------------------------------------------------- batchDespawn

    @Test
    void batchDespawnDeliversEventsAtTheCallAndTruncatesWholeArchetypes() {
        BatchIds ids = world.batchSpawn(6, List.of(POS));
        long watched = ids.get(2);
        List<String> events = new ArrayList<>();
        world.observe(watched, OnDespawn.class, e -> events.add("entity " + world.isAlive(e.entity())));
        world.observe(Entity.WORLD, OnDespawn.class, e -> events.add("world"));
        List<int[]> removed = new ArrayList<>();
        world.newQuery(QueryDescriptor.builder().include(POS).onEntitiesRemoved((a, from, to) ->
                removed.add(new int[] {from, to})).build());
        world.defer();
        world.batchDespawn(query(POS));
        assertEquals(7, events.size(), "at the call: six at address 0 and one at the entity");
        assertEquals("entity true", events.get(2), "still alive and readable during dispatch");
        assertTrue(world.isAlive(watched));
        world.commit();
        assertEquals(0, world.entityCount());
        assertEquals(1, removed.size());
        assertArrayEquals(new int[] {0, 6}, removed.get(0));
        assertFalse(world.hasObservers(Entity.pack(Entity.slot(watched), Entity.generation(watched) + 1),
                OnDespawn.class));
        long reuse = world.spawn();
        assertFalse(world.hasObservers(reuse, OnDespawn.class), "entity-address observers never survive reuse");
    }

    @Test
    void entitiesSelectedByABatchDespawnIgnoreLaterCallsAndAreNotDespawnedTwice() {
        BatchIds ids = world.batchSpawn(3, List.of(POS));
        List<Long> events = new ArrayList<>();
        world.observe(Entity.WORLD, OnDespawn.class, e -> events.add(e.entity()));
        world.defer();
        world.despawn(ids.get(0));
        world.batchDespawn(query(POS));
        world.despawn(ids.get(1));
        world.set(ids.get(2), MARK);
        world.batchDespawn(query(POS));
        world.commit();
        assertEquals(List.of(ids.get(0), ids.get(1), ids.get(2)), events);
        assertEquals(0, world.entityCount());
    }

    @Test
    void aBatchDespawnTakesMembersWhoseOtherChangesAreStagedInTheSameScope() {
        BatchIds ids = world.batchSpawn(3, List.of(POS));
        List<Long> events = new ArrayList<>();
        world.observe(Entity.WORLD, OnDespawn.class, e -> events.add(e.entity()));
        world.defer();
        world.despawn(ids.get(0)); // a staged despawn: the batch must leave this one out
        world.set(ids.get(1), HP.of(5)); // a staged change that is no despawn: this one stays a member
        world.batchDespawn(query(POS));
        world.commit();
        assertEquals(List.of(ids.get(0), ids.get(1), ids.get(2)), events, "each despawned once");
        assertEquals(0, world.entityCount());
    }

    @Test
    void aFailedCommitReleasesBatchSelections() {
        BatchIds ids = world.batchSpawn(2, List.of(POS));
        world.defer();
        world.batchDespawn(query(POS));
        world.batchSpawn(1, List.of(VEL), (a, f, t) -> {
            throw new IllegalStateException("boom");
        });
        assertThrows(IllegalStateException.class, world::commit);
        assertEquals(0, world.entityCount(), "the despawn ran, in call order, before the failing batch");
        assertFalse(world.isAlive(ids.get(0)));
    }

    @Test
    void aDiscardedBatchDespawnLeavesItsEntitiesUsable() {
        BatchIds ids = world.batchSpawn(2, List.of(POS));
        world.defer();
        world.batchSpawn(1, List.of(VEL), (a, f, t) -> {
            throw new IllegalStateException("boom");
        });
        world.batchDespawn(query(POS));
        assertThrows(IllegalStateException.class, world::commit);
        assertTrue(world.isAlive(ids.get(0)), "the batch despawn came after the failure and was discarded");
        world.set(ids.get(0), MARK);
        assertTrue(world.has(ids.get(0), MARK), "no stale selection mark blocks later calls");
        world.despawn(ids.get(1));
        assertFalse(world.isAlive(ids.get(1)));
    }

    // ---------------------------------------------------------------- maintenance

    @Test
    void clearEntitiesKeepsQueriesAndWorldObserversAndInvalidatesIds() {
        BatchIds ids = world.batchSpawn(5, List.of(POS));
        long keyed = world.spawn(EntityKey.COMPONENT.of("boss"));
        Query positions = query(POS);
        List<int[]> removed = new ArrayList<>();
        world.newQuery(QueryDescriptor.builder().include(POS).onEntitiesRemoved((a, from, to) ->
                removed.add(new int[] {from, to})).build());
        List<Long> spawns = new ArrayList<>();
        world.observe(Entity.WORLD, OnSpawn.class, e -> spawns.add(e.entity()));
        world.observe(keyed, OnDespawn.class, e -> { });
        world.defer();
        long staged = world.spawn(POS);
        world.clearEntities();
        world.commit();
        assertEquals(0, world.entityCount());
        assertFalse(world.isAlive(ids.first()));
        assertFalse(world.isAlive(staged));
        assertEquals(0, world.byKey("boss"));
        assertEquals(1, removed.size());
        assertThrows(IllegalArgumentException.class, () -> world.set(ids.first(), MARK), "old ids are stale");
        long fresh = world.spawn(POS);
        assertEquals(1, positions.count(), "queries survive");
        assertEquals(List.of(staged, fresh), spawns, "world observers survive");
        assertEquals(1, Entity.slot(fresh), "slots are reused from the lowest");
        world.spawn(EntityKey.COMPONENT.of("boss"));
    }

    @Test
    void getStatsFillsTheCallersRecord() {
        world.batchSpawn(3, List.of(POS, VEL));
        world.spawn(MARK);
        WorldStats stats = new WorldStats();
        assertSame(stats, world.getStats(stats));
        assertEquals(4, stats.entities());
        assertEquals(world.archetypeCount(), stats.archetypes());
        assertEquals(3, stats.components());
        assertEquals(BuiltinSystems.NAMES.size(), stats.systems()); // only the builtin systems
        assertEquals(world.nativeBytesReserved(), stats.nativeBytes());
        assertEquals(4, world.getStats(null).entities());
    }

    // issue 18, defect 12
    @Test
    void batchSpawnAtReadsItsIdsOnceAndReservesNoneWhenACallbackTakesOne() {
        TagComponent fresh = Components.tag("test.batch.Defect12Array");
        long live = world.spawn(MARK);
        long[] ids = {Entity.pack(30, 0), Entity.pack(31, 0), Entity.pack(32, 0)};
        long[] asCalled = ids.clone();
        // creating the batch's archetype runs this observer: it overwrites the caller's array with a live id
        world.observe(0, dev.jtecs.event.ArchetypeCreated.class, created -> {
            if (created.archetype().has(fresh)) {
                ids[1] = live;
            }
        });
        world.batchSpawnAt(ids, List.of(fresh), null);
        for (long id : asCalled) {
            assertTrue(world.isAlive(id) && world.has(id, fresh), "the ids as passed: " + Entity.toString(id));
        }
        assertFalse(world.has(live, fresh));

        // a callback that spawns into one of the batch's free slots: the batch is refused and reserves nothing
        TagComponent taken = Components.tag("test.batch.Defect12Taken");
        long doomed = world.spawn();
        world.despawn(doomed);
        long reused = Entity.pack(Entity.slot(doomed), Entity.generation(doomed) + 1); // what spawn() hands out next
        world.observe(0, dev.jtecs.event.ArchetypeCreated.class, created -> {
            if (created.archetype().has(taken)) {
                assertEquals(reused, world.spawn());
            }
        });
        long[] clash = {Entity.pack(40, 0), reused, Entity.pack(41, 0)};
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> world.batchSpawnAt(clash, List.of(taken), null));
        assertTrue(e.getMessage().startsWith("batchSpawnAt: slot=" + Entity.slot(reused) + " is alive"),
                e.getMessage());
        assertTrue(world.isAlive(reused));
        assertFalse(world.isAlive(clash[0]));
        world.spawnAt(clash[0], MARK); // not left reserved by the refused batch
        world.spawnAt(clash[2], MARK);
        assertTrue(world.isAlive(clash[0]) && world.isAlive(clash[2]));

        // the raw form: the segment is changed by the callback, the batch spawns the ids it was given
        TagComponent raw = Components.tag("test.batch.Defect12Raw");
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment segment = arena.allocate(ValueLayout.JAVA_LONG, 2);
            segment.setAtIndex(ValueLayout.JAVA_LONG, 0, Entity.pack(50, 0));
            segment.setAtIndex(ValueLayout.JAVA_LONG, 1, Entity.pack(51, 0));
            world.observe(0, dev.jtecs.event.ArchetypeCreated.class, created -> {
                if (created.archetype().has(raw)) {
                    segment.setAtIndex(ValueLayout.JAVA_LONG, 0, live);
                }
            });
            world.batchSpawnAtRaw(segment, 2, List.of(raw), null);
        }
        assertTrue(world.has(Entity.pack(50, 0), raw));
        assertTrue(world.has(Entity.pack(51, 0), raw));
        assertFalse(world.has(live, raw));

        TagComponent rawTaken = Components.tag("test.batch.Defect12RawTaken");
        long gone = world.spawn();
        world.despawn(gone);
        long next = Entity.pack(Entity.slot(gone), Entity.generation(gone) + 1);
        world.observe(0, dev.jtecs.event.ArchetypeCreated.class, created -> {
            if (created.archetype().has(rawTaken)) {
                world.spawn();
            }
        });
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment segment = arena.allocate(ValueLayout.JAVA_LONG, 2);
            segment.setAtIndex(ValueLayout.JAVA_LONG, 0, Entity.pack(60, 0));
            segment.setAtIndex(ValueLayout.JAVA_LONG, 1, next);
            IllegalArgumentException rawError = assertThrows(IllegalArgumentException.class,
                    () -> world.batchSpawnAtRaw(segment, 2, List.of(rawTaken), null));
            assertTrue(rawError.getMessage().startsWith("batchSpawnAtRaw: "), rawError.getMessage());
        }
        assertTrue(world.isAlive(next));
        world.spawnAt(Entity.pack(60, 0), MARK); // not left reserved
        assertTrue(world.isAlive(Entity.pack(60, 0)));
    }

    private static long next(long id) {
        return Entity.pack(Entity.slot(id), Entity.generation(id) + 1);
    }

    // issue 18, smaller item: a misaligned restore array gave a raw FFM message
    @Test
    void aMisalignedRawIdArrayIsReadLikeAnAlignedOne() {
        long[] ids = {Entity.pack(70, 0), Entity.pack(71, 2), Entity.pack(73, 1)};
        try (Arena arena = Arena.ofConfined()) {
            // a native block one byte past an 8-byte boundary, and a byte[] (heap segments of bytes align to 1)
            MemorySegment offHeap = arena.allocate(8L * ids.length + 1, 8).asSlice(1);
            MemorySegment onHeap = MemorySegment.ofArray(new byte[8 * ids.length + 3]).asSlice(3);
            for (MemorySegment segment : List.of(offHeap, onHeap)) {
                assertThrows(IllegalArgumentException.class, () -> segment.get(ValueLayout.JAVA_LONG, 0),
                        "an aligned read of it fails in FFM: " + segment);
                for (int i = 0; i < ids.length; i++) {
                    segment.set(ValueLayout.JAVA_LONG_UNALIGNED, 8L * i, ids[i]);
                }
            }
            world.batchSpawnAtRaw(offHeap, ids.length, List.of(POS.of(new Pos(1, 2))), null);
            for (long id : ids) {
                assertEquals(new Pos(1, 2), world.get(id, POS));
            }
            world.despawn(ids, 0, ids.length);
            for (int i = 0; i < ids.length; i++) { // the slots' next generations, read from a byte[]
                onHeap.set(ValueLayout.JAVA_LONG_UNALIGNED, 8L * i, next(ids[i]));
            }
            world.batchSpawnAtRaw(onHeap, ids.length, List.of(MARK), null);
            for (long id : ids) {
                assertTrue(world.has(next(id), MARK));
            }
            // a bad id in a misaligned array is refused by the world's own check, not by FFM
            onHeap.set(ValueLayout.JAVA_LONG_UNALIGNED, 0, 0L);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> world.batchSpawnAtRaw(onHeap, 1, List.of(MARK), null));
            assertTrue(e.getMessage().startsWith("batchSpawnAtRaw: id=0 is not an entity id"), e.getMessage());
        }
    }

    @Test
    void theRawIdArrayIsReadAtTheCallSoItMayBeFreedOrChangedAfterwards() {
        long live = world.spawn(MARK);
        world.defer();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment ids = arena.allocate(ValueLayout.JAVA_LONG, 2);
            ids.setAtIndex(ValueLayout.JAVA_LONG, 0, Entity.pack(40, 0));
            ids.setAtIndex(ValueLayout.JAVA_LONG, 1, Entity.pack(41, 0));
            world.batchSpawnAtRaw(ids, 2, List.of(POS), null);
            ids.setAtIndex(ValueLayout.JAVA_LONG, 0, live); // changing it now affects nothing
        }
        world.commit(); // the arena is closed: nothing reads it
        assertTrue(world.isAlive(Entity.pack(40, 0)));
        assertTrue(world.isAlive(Entity.pack(41, 0)));
        assertFalse(world.has(live, POS));
        world.spawn(POS);
        assertEquals(4, world.entityCount());
    }

    @Test
    void aThrowingWriterLeavesMovedRowsPublishedAndReported() {
        BatchIds ids = world.batchSpawn(3, List.of(POS));
        List<String> events = new ArrayList<>();
        world.newQuery(QueryDescriptor.builder().include(VEL).onEntitiesAdded((a, from, to) ->
                events.add("added " + from + ".." + to)).build());
        world.newQuery(QueryDescriptor.builder().include(POS).exclude(VEL).onEntitiesRemoved((a, from, to) ->
                events.add("removed " + from + ".." + to)).build());
        Query plain = world.newQuery(QueryDescriptor.builder().include(POS).exclude(VEL).build());
        assertThrows(IllegalStateException.class, () -> world.batchSet(plain, VEL, (a, from, to) -> {
            throw new IllegalStateException("writer failed");
        }));
        assertEquals(List.of("removed 0..3", "added 0..3"), events, "membership stays in step with storage");
        assertTrue(world.has(ids.get(0), VEL), "a failed callback does not roll published rows back");
        world.set(ids.get(0), MARK);
        assertTrue(world.has(ids.get(0), MARK), "and the world keeps working");
    }

    @Test
    void aThrowingWriterOnOneEntityUndoesItsMoveAndItsRemovalReport() {
        BatchIds ids = world.batchSpawn(2, List.of(POS));
        List<String> events = new ArrayList<>();
        world.newQuery(QueryDescriptor.builder().include(POS).exclude(VEL)
                .onEntitiesRemoved((a, from, to) -> events.add("removed " + a.entity(from)))
                .onEntitiesAdded((a, from, to) -> events.add("added " + a.entity(from))).build());
        events.clear();
        Query plain = world.newQuery(QueryDescriptor.builder().include(POS).exclude(VEL).build());
        world.defer();
        world.despawn(ids.get(1)); // changes the archetype before the batch runs: members go one by one
        world.batchSet(plain, VEL, (a, from, to) -> {
            throw new IllegalStateException("writer failed");
        });
        events.clear();
        assertThrows(IllegalStateException.class, world::commit);
        assertEquals(List.of("removed " + ids.get(1), "removed " + ids.get(0), "added " + ids.get(0)), events);
        assertFalse(world.has(ids.get(0), VEL), "the failed move was taken back");
        assertTrue(world.isAlive(ids.get(0)));
    }

    @Test
    void aRemoveAfterAPendingBatchSetAppliesAfterIt() {
        long e = world.spawn(MARK);
        world.defer();
        world.batchSet(query(MARK), HP.of(3));
        world.remove(e, HP); // not there yet, but the batch adds it first
        world.commit();
        assertFalse(world.has(e, HP));
    }

    @Test
    void anEntityWithEarlierStagedWorkIsReportedOnceWhenABatchDespawnSelectsIt() {
        long e = world.spawn(MARK);
        List<Long> events = new ArrayList<>();
        world.observe(Entity.WORLD, OnDespawn.class, ev -> events.add(ev.entity()));
        world.defer();
        world.set(e, HP.of(1)); // staged before the batch
        world.batchDespawn(query(MARK));
        world.set(e, HP.of(2));
        world.remove(e, MARK);
        world.despawn(e);
        world.commit();
        assertEquals(List.of(e), events);
        assertFalse(world.isAlive(e));
    }

    @Test
    void bulkPathsAllocateNothingPerEntityOnTheHeap() {
        long small = bulkCycleBytes(100_000);
        long large = bulkCycleBytes(400_000);
        assertTrue(large - small < 16 * 1024, "spawn, two moves and a despawn of 100k entities allocated " + small
                + " heap bytes, of 400k " + large + ": the difference must not grow with the count");
    }

    /** Heap bytes one bulk cycle (spawn, move there and back, despawn) allocates, measured after warm-up. */
    private static long bulkCycleBytes(int n) {
        try (World world = World.create()) {
            List<dev.jtecs.component.Input> inputs = List.of(POS.of(new Pos(1, 2)), VEL);
            Query moving = world.newQuery(QueryDescriptor.builder().include(POS).build());
            Query marked = world.newQuery(QueryDescriptor.builder().include(MARK).build());
            com.sun.management.ThreadMXBean threads =
                    (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
            long bytes = 0;
            for (int round = 0; round < 4; round++) { // the first rounds grow every buffer to its size
                long before = threads.getCurrentThreadAllocatedBytes();
                BatchIds ids = world.batchSpawn(n, inputs);
                world.batchSet(moving, MARK);
                world.batchRemove(marked, MARK);
                world.batchDespawn(moving);
                bytes = threads.getCurrentThreadAllocatedBytes() - before;
                assertTrue(round == 0 || ids.isContiguous(), "freed ranges come back consecutive");
                assertEquals(0, world.entityCount());
            }
            return bytes;
        }
    }

    @Test
    void aBatchDespawnedRangeComesBackAsConsecutiveIds() {
        BatchIds first = world.batchSpawn(10_000, List.of(POS));
        world.batchDespawn(query(POS));
        BatchIds again = world.batchSpawn(10_000, List.of(POS));
        assertTrue(again.isContiguous(), "the freed slots pop in their original order, one generation");
        assertEquals(Entity.slot(first.first()), Entity.slot(again.first()));
        assertEquals(Entity.generation(first.first()) + 1, Entity.generation(again.first()));
    }

    @Test
    void aSelectionMarkNeverOutlivesItsEntity() {
        BatchIds a = world.batchSpawn(3, List.of(POS));
        long z = world.spawn(VEL);
        Query positioned = query(POS);
        boolean[] once = {false};
        world.newQuery(QueryDescriptor.builder().include(VEL).onEntitiesRemoved((arch, from, to) -> {
            if (!once[0]) {
                once[0] = true;
                world.batchDespawn(positioned); // staged during the drain, captured without a copy
            }
        }).build());
        world.defer();
        world.despawn(z);
        world.despawn(a.get(0)); // changes the captured archetype (the copy marks every row), then frees it
        world.commit();
        assertEquals(0, world.entityCount());
        for (int i = 0; i < 4; i++) { // every freed slot comes back, a.get(0)'s among them
            long reused = world.spawn(POS);
            world.set(reused, MARK);
            assertTrue(world.has(reused, MARK), "a new entity in slot " + Entity.slot(reused)
                    + " is not taken for a selected one");
        }
        assertEquals(4, world.entityCount());
    }

    @Test
    void aConstantKeyOfARawRestorationIsClaimedAtTheCall() {
        long other = world.spawn(POS);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment ids = arena.allocate(ValueLayout.JAVA_LONG, 1);
            ids.setAtIndex(ValueLayout.JAVA_LONG, 0, Entity.pack(5, 0));
            world.defer();
            world.batchSpawnAtRaw(ids, 1, List.of(POS, EntityKey.COMPONENT.of("boss")), null);
        }
        assertThrows(IllegalArgumentException.class, () -> world.set(other, EntityKey.COMPONENT.of("boss")),
                "a duplicate is rejected at the call, not at publication");
        world.commit();
        assertEquals(Entity.pack(5, 0), world.byKey("boss"));
    }

    @Test
    void idsReleasedByAFailedPublicationKeepNoObservers() {
        long id = Entity.pack(12, 3);
        world.defer();
        world.batchSpawnAt(new long[] {id}, List.of(MARK), (a, from, to) -> {
            throw new IllegalStateException("boom");
        });
        List<Long> events = new ArrayList<>();
        world.observe(id, OnDespawn.class, e -> events.add(e.entity()));
        assertThrows(IllegalStateException.class, world::commit);
        assertFalse(world.hasObservers(id, OnDespawn.class));
        assertThrows(IllegalArgumentException.class, () -> world.spawnAt(id, MARK), "released: the id is stale");
        long next = Entity.pack(12, 4);
        world.spawnAt(next, MARK);
        world.despawn(next);
        assertTrue(events.isEmpty(), "the slot's next id starts without the old observer");
    }

    // ---------------------------------------------------------------- scopes of batch calls inside a visit

    @Test
    void batchCallsInsideAVisitPublishWhenTheVisitReturns() {
        long doomed = world.spawn(POS);
        long moving = world.spawn(VEL);
        long[] buffer = new long[2];
        List<Long> seenInside = new ArrayList<>();
        int[] visits = {0};
        world.forEachArchetype(archetype -> {
            if (visits[0]++ > 0) {
                return;
            }
            BatchIds returned = world.batchSpawn(2, List.of(MARK));
            world.batchSpawn(2, List.of(MARK), null, buffer, 0);
            assertEquals(1, world.despawn(new long[] {doomed}, 0, 1));
            world.batchSet(query(VEL), HP.of(8)); // a query batch's scope
            assertFalse(world.has(moving, HP), "the batch set waits for the visit too");
            for (long id : new long[] {returned.get(0), returned.get(1), buffer[0], buffer[1]}) {
                seenInside.add(id);
                assertFalse(world.isAlive(id), "a visit's rows stay put: nothing publishes while it runs");
            }
            assertTrue(world.isAlive(doomed), "its despawn waits for the visit too");
        });
        assertEquals(4, seenInside.size());
        for (long id : seenInside) {
            assertTrue(world.isAlive(id), "published when the visit returned");
        }
        assertFalse(world.isAlive(doomed));
        assertEquals(8, world.get(moving, HP), "the batch set published with them");
    }

    @Test
    void aReusedSpawnPlanStillChecksTheCount() {
        List<Input> inputs = List.of(POS, MARK);
        world.batchSpawn(2, inputs); // planned here, reused by the calls below
        String before = dump();
        IllegalArgumentException zero = assertThrows(IllegalArgumentException.class,
                () -> world.batchSpawn(0, inputs));
        assertEquals("batchSpawn: count must be at least 1, was 0", zero.getMessage());
        assertThrows(IllegalStateException.class, () -> world.batchSpawn(1_000_000_000, inputs), "world is full");
        assertEquals(before, dump(), "a refused call changes nothing");
        assertEquals(3, world.batchSpawn(3, inputs).count(), "and the plan still serves");
    }

    @Test
    void aBufferOffsetAtItsEndIsRefusedForTheCountNotTheBuffer() {
        long[] ids = new long[4];
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> world.batchSpawn(0, List.of(MARK), null, ids, ids.length));
        assertEquals("batchSpawn: count must be at least 1, was 0", e.getMessage(),
                "an offset at the end leaves room for zero ids, which is what was asked");
        e = assertThrows(IllegalArgumentException.class, () -> world.batchSpawn(1, List.of(MARK), null, ids, 4));
        assertTrue(e.getMessage().startsWith("batchSpawn: ids.length=4 from offset=4 cannot hold count=1"),
                e.getMessage());
        assertEquals(0, world.entityCount());
    }

    @Test
    void aRawRestorationOfNoIdsDoesNothingAndDuplicatesAreRefusedBeforeAnyIsReserved() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment ids = arena.allocate(ValueLayout.JAVA_LONG, 3);
            ids.setAtIndex(ValueLayout.JAVA_LONG, 0, Entity.pack(7, 0));
            ids.setAtIndex(ValueLayout.JAVA_LONG, 1, Entity.pack(9, 0));
            ids.setAtIndex(ValueLayout.JAVA_LONG, 2, Entity.pack(7, 1)); // slot 7 again
            int archetypes = world.archetypeCount();
            world.batchSpawnAtRaw(ids, 0, List.of(POS, VEL, MARK), null);
            assertEquals(0, world.entityCount(), "count 0: nothing to restore");
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> world.batchSpawnAtRaw(ids, 3, List.of(POS, VEL, MARK), null));
            assertEquals("batchSpawnAtRaw: slot 7 appears twice (id " + Entity.toString(Entity.pack(7, 1)) + ")",
                    e.getMessage());
            assertEquals(archetypes, world.archetypeCount(), "refused before its archetype was created");
            long alive = world.spawn(MARK);
            ids.setAtIndex(ValueLayout.JAVA_LONG, 0, alive);
            assertThrows(IllegalArgumentException.class,
                    () -> world.batchSpawnAtRaw(ids, 2, List.of(POS, VEL, MARK), null), "an id that is alive");
            assertFalse(world.isAlive(Entity.pack(9, 0)), "nothing reserved, nothing spawned");
            world.spawnAt(Entity.pack(9, 0), MARK); // the id is still free
            assertEquals(archetypes + 1, world.archetypeCount(), "only MARK's archetype was created");
        }
    }

    @Test
    void aTakenConstantKeyRefusesARawRestorationAtTheCall() {
        world.spawn(EntityKey.COMPONENT.of("boss"));
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment ids = arena.allocate(ValueLayout.JAVA_LONG, 1);
            ids.setAtIndex(ValueLayout.JAVA_LONG, 0, Entity.pack(5, 0));
            world.defer();
            assertThrows(IllegalArgumentException.class,
                    () -> world.batchSpawnAtRaw(ids, 1, List.of(POS, EntityKey.COMPONENT.of("boss")), null));
            world.commit();
        }
        assertFalse(world.isAlive(Entity.pack(5, 0)), "refused at the call: nothing was staged");
        assertEquals(1, world.entityCount());
        world.spawnAt(Entity.pack(5, 0), POS); // its id was never reserved
    }

    @Test
    void batchSpawnAtRefusesALiveIdBeforeCreatingItsArchetype() {
        long alive = world.spawn(MARK);
        int archetypes = world.archetypeCount();
        assertThrows(IllegalArgumentException.class,
                () -> world.batchSpawnAt(new long[] {Entity.pack(40, 0), alive}, List.of(POS, VEL, MARK), null));
        assertEquals(archetypes, world.archetypeCount(), "a refused call creates no archetype");
        assertFalse(world.isAlive(Entity.pack(40, 0)));
    }

    @Test
    void aChangeStagedOnARestoredIdBeforeItsBatchPublishesAppliesAfterIt() {
        long[] ids = {Entity.pack(20, 0), Entity.pack(21, 0)};
        world.defer();
        world.batchSpawnAt(ids, List.of(POS), null);
        world.set(ids[0], HP.of(42)); // staged on a reserved id of the batch
        world.remove(ids[1], POS);
        world.commit();
        assertEquals(42, world.get(ids[0], HP));
        assertTrue(world.has(ids[0], POS));
        assertFalse(world.has(ids[1], POS), "the removal applied after the batch placed it");
        assertTrue(world.isAlive(ids[1]));
    }

    @Test
    void batchSetRefusesARelationshipThatIsNotAnEdge() {
        dev.jtecs.component.Relationship likes = dev.jtecs.component.Relationships.register("test.batch.Likes");
        long target = world.spawn(MARK);
        long member = world.spawn(POS);
        Query positions = query(POS);
        String before = dump();
        assertThrows(IllegalArgumentException.class, () -> world.batchSet(positions, likes));
        assertThrows(IllegalArgumentException.class, () -> world.batchSet(positions, likes.targeting(target)),
                "a selector is no edge either");
        IllegalArgumentException writer = assertThrows(IllegalArgumentException.class,
                () -> world.batchSet(positions, likes, (a, from, to) -> { }));
        assertTrue(writer.getMessage().startsWith("batchSet: a writer cannot set relationship"), writer.getMessage());
        assertEquals(before, dump(), "nothing changed");
        world.batchSet(positions, likes.to(target)); // an edge is what batchSet takes
        assertEquals(target, world.getFirstRelationship(member, likes).target());
    }

    @Test
    void clearEntitiesForgetsKeysEntityObserversAndSparseEdges() {
        dev.jtecs.component.Relationship watches = WATCHES;
        long keyed = world.spawn(EntityKey.COMPONENT.of("boss"));
        long watcher = world.spawn(POS);
        world.set(watcher, watches.to(keyed));
        List<Long> heard = new ArrayList<>();
        world.observe(keyed, OnDespawn.class, e -> heard.add(e.entity()));
        world.defer();
        world.spawn(EntityKey.COMPONENT.of("pending")); // a claim staged, never published
        world.clearEntities();
        world.commit();
        assertEquals(0, world.byKey("boss"));
        assertFalse(world.hasObservers(keyed, OnDespawn.class), "observers at entity addresses go");
        long first = world.spawn(EntityKey.COMPONENT.of("pending")); // the staged claim was dropped
        long second = world.spawn(EntityKey.COMPONENT.of("boss"));
        assertEquals(first, world.byKey("pending"));
        assertEquals(second, world.byKey("boss"));
        assertEquals(Entity.slot(watcher), Entity.slot(second), "the watcher's slot is reused");
        assertEquals(null, world.getFirstRelationship(second, watches), "and comes without the old edge");
        world.despawn(first);
        world.despawn(second);
        assertEquals(List.of(), heard, "the old observer heard nothing");
    }

    static final dev.jtecs.component.Relationship OWNER = dev.jtecs.component.Relationships.register(
            "test.batch.Owner", o -> o.sparse().exclusive());
    static final dev.jtecs.component.Relationship GUARDS = dev.jtecs.component.Relationships.register(
            "test.batch.Guards", o -> o.sparse());
    static final dev.jtecs.component.Relationship WATCHES = dev.jtecs.component.Relationships.register(
            "test.batch.Watches", o -> o.sparse());
    /** Requires a sparse edge to the first entity of a fresh world. */
    static final TagComponent GUARDED = Components.tag("test.batch.Guarded",
            o -> o.requires(GUARDS.to(Entity.pack(1, 0))));

    /** Requires two sparse edges: to the first and to the second entity of a fresh world. */
    static final TagComponent PATROLLED = Components.tag("test.batch.Patrolled",
            o -> o.requires(GUARDS.to(Entity.pack(1, 0)), OWNER.to(Entity.pack(2, 0))));

    private List<Long> targetsOf(long id, dev.jtecs.component.BaseRelationship<?> relationship) {
        List<Long> targets = new ArrayList<>();
        world.forEachRelationship(id, relationship, v -> targets.add(((dev.jtecs.component.RelationshipValue) v).target()));
        return targets;
    }

    @Test
    void aSpawnBatchGivenTwoEdgesOfAnExclusiveSparseRelationshipKeepsTheLast() {
        long first = world.spawn(MARK);
        long second = world.spawn(MARK);
        BatchIds ids = world.batchSpawn(2, List.of(POS, OWNER.to(first), OWNER.to(second)));
        for (int i = 0; i < ids.count(); i++) {
            assertEquals(List.of(second), targetsOf(ids.get(i), OWNER), "only the last edge given counts");
            assertTrue(world.has(ids.get(i), OWNER), "with its marker");
        }
        BatchIds both = world.batchSpawn(2, List.of(POS, WATCHES.to(first), WATCHES.to(second)));
        for (int i = 0; i < both.count(); i++) {
            assertEquals(List.of(first, second), targetsOf(both.get(i), WATCHES),
                    "a relationship that is not exclusive keeps every edge given");
        }
    }

    @Test
    void aSpawnBatchGetsItsExplicitSparseEdgesAndThoseItsRequirementsBring() {
        long guard = world.spawn(MARK);
        assertEquals(Entity.pack(1, 0), guard, "the target GUARDED requires");
        long watched = world.spawn(MARK);
        BatchIds ids = world.batchSpawn(3, List.of(POS, WATCHES.to(watched), GUARDED));
        for (int i = 0; i < ids.count(); i++) {
            long id = ids.get(i);
            assertEquals(List.of(watched), targetsOf(id, WATCHES), "the explicit edge");
            assertEquals(List.of(guard), targetsOf(id, GUARDS), "the required edge, appended after it");
            assertTrue(world.has(id, GUARDED) && world.has(id, WATCHES) && world.has(id, GUARDS));
        }
        BatchIds patrolled = world.batchSpawn(2, List.of(POS, WATCHES.to(guard), PATROLLED));
        for (int i = 0; i < patrolled.count(); i++) {
            long id = patrolled.get(i);
            assertEquals(List.of(guard), targetsOf(id, WATCHES), "the explicit edge, kept first");
            assertEquals(List.of(guard), targetsOf(id, GUARDS), "each required edge appended after it");
            assertEquals(List.of(watched), targetsOf(id, OWNER));
        }
        BatchIds alone = world.batchSpawn(1, List.of(GUARDED)); // requirements alone
        assertEquals(List.of(guard), targetsOf(alone.get(0), GUARDS));
        assertEquals(List.of(), targetsOf(alone.get(0), WATCHES));
    }

    @Test
    void loadingASnapshotReplacesAPopulatedWorld() {
        try (World source = World.create()) {
            source.batchSpawn(3, List.of(POS));
            source.spawn(EntityKey.COMPONENT.of("saved"), HP.of(5));
            byte[] saved = source.saveSnapshot(dev.jtecs.snapshot.SnapshotOptions.binary()).toByteArray();
            for (int i = 0; i < 10; i++) {
                world.spawn(VEL, HP.of(i));
            }
            long old = world.spawn(EntityKey.COMPONENT.of("old"), MARK);
            world.observe(old, OnDespawn.class, e -> { });
            world.loadSnapshot(saved);
            assertEquals(4, world.entityCount(), "only the snapshot's entities: the old ones were cleared");
            assertEquals(0, query(VEL).count());
            assertEquals(0, world.byKey("old"));
            assertFalse(world.hasObservers(old, OnDespawn.class), "observers at the old entities went too");
            assertEquals(5, world.get(world.byKey("saved"), HP));
            assertEquals(3, query(POS).count());
        }
    }

    /** Transient, so a snapshot never holds it: a load brings it only through {@link #NEEDS_SPARE}'s requirement. */
    static final ScalarComponent.OfInt SPARE = Components.scalar("test.batch.Spare", 5, o -> o.transient_(true));
    static final ScalarComponent.OfInt SPARE_ZERO = Components.scalar("test.batch.SpareZero", 0,
            o -> o.transient_(true));
    static final TagComponent NEEDS_SPARE = Components.tag("test.batch.NeedsSpare",
            o -> o.requires(SPARE, SPARE_ZERO));

    /**
     * A load leaves the zero or default fill of a saved column to its initializer, which copies the saved values
     * over it; a column only a requirement brings is not in the snapshot, so it keeps its fill, even in rows whose
     * memory the cleared entities of the same archetype left holding other values.
     */
    @Test
    void aLoadFillsTheColumnsOnlyARequirementBringsOverRowsTheClearedEntitiesLeft() {
        try (World source = World.create()) {
            long saved = source.spawn(NEEDS_SPARE, HP.of(11));
            source.set(saved, SPARE.of(77));
            source.set(saved, SPARE_ZERO.of(78));
            for (boolean binary : new boolean[] {true, false}) {
                dev.jtecs.snapshot.Snapshot snapshot = binary
                        ? source.saveSnapshot(dev.jtecs.snapshot.SnapshotOptions.binary()) : source.saveSnapshot();
                for (int i = 0; i < 4; i++) {
                    world.spawn(NEEDS_SPARE, HP.of(i), SPARE.of(66), SPARE_ZERO.of(67));
                }
                world.loadSnapshot(snapshot);
                assertEquals(1, world.entityCount());
                assertEquals(11, world.get(saved, HP), "the saved value");
                assertEquals(5, world.get(saved, SPARE), "the default, not what a cleared row held");
                assertEquals(0, world.get(saved, SPARE_ZERO), "zero, not what a cleared row held");
            }
        }
    }

    /**
     * A single-archetype load stamps its reserved slots with the table before it publishes, so a value an
     * {@code ArchetypeCreated} observer sets on a restored entity while the load plans reaches it once placed.
     */
    @Test
    void aValueSetWhileASingleArchetypeLoadPlansReachesTheEntityOnceItIsPlaced() {
        try (World source = World.create()) {
            long a = source.spawn(HP.of(1));
            long b = source.spawn(HP.of(2));
            for (boolean binary : new boolean[] {true, false}) {
                dev.jtecs.snapshot.Snapshot snapshot = binary
                        ? source.saveSnapshot(dev.jtecs.snapshot.SnapshotOptions.binary()) : source.saveSnapshot();
                try (World destination = World.create()) {
                    boolean[] armed = {true};
                    destination.observe(0, dev.jtecs.event.ArchetypeCreated.class, created -> {
                        if (armed[0]) {
                            armed[0] = false;
                            destination.set(b, MARK);
                        }
                    });
                    destination.loadSnapshot(snapshot);
                    assertFalse(armed[0], "the load created the archetype");
                    assertTrue(destination.has(b, MARK), binary ? "binary" : "table");
                    assertEquals(2, destination.get(b, HP));
                    assertFalse(destination.has(a, MARK));
                    assertEquals(2, destination.entityCount());
                }
            }
        }
    }

    /**
     * A membership callback that hears the first restored archetype arrive despawns an entity of another one:
     * the load leaves that entity out (placed later, it is skipped; placed already, it goes in the next wave) and
     * places every other entity with its values.
     */
    @Test
    void aRestoredEntityDespawnedByACallbackOfTheLoadIsLeftOutAndTheRestArrive() {
        try (World source = World.create()) {
            long[] plain = new long[3];
            long[] moving = new long[3];
            for (int i = 0; i < 3; i++) {
                plain[i] = source.spawn(HP.of(i));
                moving[i] = source.spawn(HP.of(10 + i), VEL.of(new Vel(i, 0)));
            }
            for (boolean binary : new boolean[] {true, false}) {
                dev.jtecs.snapshot.Snapshot snapshot = binary
                        ? source.saveSnapshot(dev.jtecs.snapshot.SnapshotOptions.binary()) : source.saveSnapshot();
                try (World destination = World.create()) {
                    long[] victim = {0};
                    destination.newQuery(QueryDescriptor.builder().include(HP).onEntitiesAdded((archetype, from, to) -> {
                        if (victim[0] == 0) {
                            victim[0] = archetype.has(VEL) ? plain[1] : moving[1];
                            destination.despawn(victim[0]);
                        }
                    }).build());
                    destination.loadSnapshot(snapshot);
                    String form = binary ? "binary" : "table";
                    assertTrue(victim[0] != 0, form);
                    assertFalse(destination.isAlive(victim[0]), form);
                    assertEquals(5, destination.entityCount(), form);
                    for (int i = 0; i < 3; i++) {
                        if (plain[i] != victim[0]) {
                            assertEquals(i, destination.get(plain[i], HP), form);
                        }
                        if (moving[i] != victim[0]) {
                            assertEquals(10 + i, destination.get(moving[i], HP), form);
                            assertEquals(new Vel(i, 0), destination.get(moving[i], VEL), form);
                        }
                    }
                }
            }
        }
    }

    // ---------------------------------------------------------------- edges among a spawn batch's inputs

    static final dev.jtecs.component.Relationship OWNED_BY = dev.jtecs.component.Relationships.register(
            "test.batch.OwnedBy", o -> o.exclusive().reverseIndex());
    static final dev.jtecs.component.Relationship SEES = dev.jtecs.component.Relationships.register(
            "test.batch.Sees", o -> o.reverseIndex());

    record Debt(long target, int amount) {}

    static final dev.jtecs.component.RelationshipDefinition<Debt> OWES = dev.jtecs.component.Relationships.register(
            Debt.class, o -> o.name("test.batch.Owes").sparse());

    @Test
    void anExclusiveRelationshipKeepsOnlyTheLastEdgeABatchIsGivenAndOtherEdgesAllOfThem() {
        long a = world.spawn();
        long b = world.spawn();
        BatchIds owned = world.batchSpawn(2, List.of(OWNED_BY.to(a), HP.of(1), OWNED_BY.to(b)));
        BatchIds seeing = world.batchSpawn(2, List.of(SEES.to(a), HP.of(1), SEES.to(b)));
        BatchIds kept = world.batchSpawn(2, List.of(OWNED_BY.to(a), SEES.to(b), HP.of(2)));
        for (int i = 0; i < 2; i++) {
            long o = owned.get(i);
            assertFalse(world.has(o, OWNED_BY.targeting(a)), "the earlier edge of an exclusive relationship");
            assertTrue(world.has(o, OWNED_BY.targeting(b)));
            long s = seeing.get(i);
            assertTrue(world.has(s, SEES.targeting(a)) && world.has(s, SEES.targeting(b)), "both edges");
            long k = kept.get(i);
            assertTrue(world.has(k, OWNED_BY.targeting(a)), "a later edge of another relationship is no later edge");
            assertTrue(world.has(k, SEES.targeting(b)));
            assertEquals(2, world.get(k, HP));
        }
    }

    @Test
    void aSpawnBatchRefusesWhatIsNotAnEdgeBeforeReservingAnything() {
        long target = world.spawn();
        int count = world.entityCount();
        for (Input input : List.<Input>of(SEES, SEES.targeting(target))) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> world.batchSpawn(2, List.of(HP.of(1), input)));
            assertTrue(e.getMessage().contains("is not an edge"), e.getMessage());
            assertEquals(count, world.entityCount());
        }
    }

    @Test
    void aSpawnBatchsSparseEdgesCarryTheirPayloads() {
        long creditor = world.spawn();
        long other = world.spawn();
        BatchIds ids = world.batchSpawn(3, List.of(OWES.of(new Debt(creditor, 40)), OWES.of(new Debt(other, 2)),
                HP.of(1)));
        for (int i = 0; i < ids.count(); i++) {
            List<Debt> debts = new ArrayList<>();
            world.forEachRelationship(ids.get(i), OWES, debts::add);
            assertEquals(List.of(new Debt(creditor, 40), new Debt(other, 2)), debts, "each edge with its payload");
        }
    }

    /** A loaded entity with sparse edges is placed with the relationship's marker, as {@code spawnAt} places it. */
    @Test
    void aLoadedEntityWithSparseEdgesHasItsRelationshipsMarker() {
        try (World source = World.create()) {
            long guard = source.spawn(HP.of(1));
            long guarded = source.spawn(HP.of(2), GUARDS.to(guard));
            for (boolean binary : new boolean[] {true, false}) {
                dev.jtecs.snapshot.Snapshot snapshot = binary
                        ? source.saveSnapshot(dev.jtecs.snapshot.SnapshotOptions.binary()) : source.saveSnapshot();
                try (World destination = World.create()) {
                    destination.loadSnapshot(snapshot);
                    assertTrue(destination.has(guarded, GUARDS), binary ? "binary" : "table");
                    assertTrue(destination.archetypeOf(guarded).has(GUARDS));
                    assertFalse(destination.has(guard, GUARDS));
                    assertEquals(2, destination.archetypeCount() - 1, "the root archetype and the two saved ones");
                }
            }
        }
    }

    record Loan(long target, int amount) {}

    static final dev.jtecs.component.RelationshipDefinition<Loan> LENDS = dev.jtecs.component.Relationships.register(
            Loan.class, o -> o.name("test.batch.Lends").sparse());
    /** Requires two sparse edges: to the first entity of a fresh world, and with a payload to the second. */
    static final TagComponent INDEBTED = Components.tag("test.batch.Indebted",
            o -> o.requires(GUARDS.to(Entity.pack(1, 0)), LENDS.of(new Loan(Entity.pack(2, 0), 31))));

    @Test
    void theSparseEdgesRequirementsBringKeepTheirPayloadsAfterTheExplicitOnes() {
        long bank = world.spawn(MARK);
        long friend = world.spawn(MARK);
        assertEquals(Entity.pack(2, 0), friend, "the targets INDEBTED requires");
        long shop = world.spawn(MARK);
        BatchIds ids = world.batchSpawn(2, List.of(OWES.of(new Debt(shop, 9)), INDEBTED));
        for (int i = 0; i < ids.count(); i++) {
            List<Object> debts = new ArrayList<>();
            world.forEachRelationship(ids.get(i), OWES, debts::add);
            assertEquals(List.of(new Debt(shop, 9)), debts, "the explicit edge keeps its payload");
            assertEquals(List.of(bank), targetsOf(ids.get(i), GUARDS), "the first required edge");
            List<Object> loans = new ArrayList<>();
            world.forEachRelationship(ids.get(i), LENDS, loans::add);
            assertEquals(List.of(new Loan(friend, 31)), loans, "the second required edge, with its own payload");
        }
    }

    static final dev.jtecs.component.Relationship FENCED_BY = dev.jtecs.component.Relationships.register(
            "test.batch.FencedBy");
    /** Requires a dense edge to the first entity of a fresh world: a table with a pair, though no input is an edge. */
    static final TagComponent FENCED = Components.tag("test.batch.Fenced",
            o -> o.requires(FENCED_BY.to(Entity.pack(1, 0))));

    @Test
    void aKeptSpawnPlanWhoseTableCompactionPrunedIsPlannedAgain() {
        long fence = world.spawn(MARK);
        assertEquals(Entity.pack(1, 0), fence, "the target FENCED requires");
        List<Input> inputs = List.of(FENCED, HP.of(2));
        BatchIds first = world.batchSpawn(2, inputs);
        dev.jtecs.storage.Archetype fenced = world.archetypeOf(first.get(0));
        assertTrue(world.has(first.get(0), FENCED_BY.targeting(fence)));
        world.despawn(first.get(0));
        world.despawn(first.get(1));
        world.despawn(fence);
        assertEquals(1, world.compact().pruned(), "the emptied table with the dead target's pair");
        assertThrows(IllegalStateException.class, fenced::count, "released");
        BatchIds again = world.batchSpawn(2, inputs); // the kept plan names the released table: planned afresh
        dev.jtecs.storage.Archetype placed = world.archetypeOf(again.get(0));
        assertEquals(2, placed.count(), "a live table holds both");
        for (int i = 0; i < again.count(); i++) {
            assertTrue(world.isAlive(again.get(i)));
            assertTrue(world.has(again.get(i), FENCED));
            assertEquals(2, world.get(again.get(i), HP));
        }
        assertEquals(2, world.entityCount());
    }
}
