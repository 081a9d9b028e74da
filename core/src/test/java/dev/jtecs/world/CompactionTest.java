package dev.jtecs.world;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.component.Component;
import dev.jtecs.component.Components;
import dev.jtecs.component.NativeComponent;
import dev.jtecs.mutation.BatchIds;
import dev.jtecs.query.Query;
import dev.jtecs.query.QueryDescriptor;
import dev.jtecs.storage.Archetype;
import dev.jtecs.storage.internal.Table;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The maintenance pass behind {@code World.compact()} ({@link Compaction}). */
class CompactionTest {
    record Pos(float x, float y) {}

    record Vel(float x, float y) {}

    static final NativeComponent<Pos> POS = Components.registerNative(Pos.class);
    static final NativeComponent<Vel> VEL = Components.registerNative(Vel.class);

    private World world = World.create();

    /** Points the helpers at another world; returns the one they used. */
    private World swapWorld(World other) {
        World was = world;
        world = other;
        return was;
    }

    @AfterEach
    void close() {
        world.close();
    }

    private Query query(Component<?>... include) {
        return world.newQuery(QueryDescriptor.builder().include(include).build());
    }

    @Test
    void compactRebuildsStorageThatLostMostRowsAndKeepsValues() {
        BatchIds ids = world.batchSpawn(10_000, List.of(POS.of(new Pos(1, 2))));
        world.batchSpawn(100, List.of(VEL));
        Query positions = query(POS);
        world.batchDespawn(positions);
        long keep = world.spawn(POS.of(new Pos(5, 6)));
        Archetype archetype = world.archetypeOf(keep);
        long reservedBefore = world.nativeBytesReserved();
        CompactResult result = world.compact();
        assertEquals(new CompactResult(0, 1), result);
        assertTrue(world.nativeBytesReserved() < reservedBefore);
        assertEquals(Table.ROW_PADDING, archetype.capacityRows());
        assertEquals(new Pos(5, 6), world.get(keep, POS));
        assertFalse(world.isAlive(ids.first()));
        assertEquals(new CompactResult(0, 0), world.compact(), "nothing left to rebuild");
    }

    @Test
    void compactRebuildsOnlyWhatFellBelowAQuarterOfItsHighWaterMark() {
        long[] ids = world.batchSpawn(1024, List.of(POS.of(new Pos(1, 2)))).toArray();
        Archetype archetype = world.archetypeOf(ids[0]);
        int capacity = archetype.capacityRows();
        world.despawn(ids, 0, 512); // half left: far from a quarter
        assertEquals(new CompactResult(0, 0), world.compact());
        assertEquals(capacity, archetype.capacityRows());
        world.despawn(ids, 512, 768); // exactly a quarter (256 of 1024) left: not below it
        assertEquals(new CompactResult(0, 0), world.compact());
        assertEquals(capacity, archetype.capacityRows(), "a quarter is not under a quarter");
        world.despawn(ids, 768, 769); // 255: below
        assertEquals(new CompactResult(0, 1), world.compact());
        assertEquals(256, archetype.capacityRows(), "255 rows padded to the next multiple of the row padding");
        assertEquals(new Pos(1, 2), world.get(ids[1023], POS));
    }

    @Test
    void compactRefusesPendingWorkScopesAndPublication() {
        world.defer();
        world.spawn(POS);
        assertThrows(IllegalStateException.class, world::compact);
        world.commit();
        world.forEachArchetype(a -> assertThrows(IllegalStateException.class, world::compact));
        world.newQuery(QueryDescriptor.builder().include(POS).onEntitiesAdded((a, f, t) ->
                assertThrows(IllegalStateException.class, world::compact)).build());
        world.spawn(POS);
    }

    static final dev.jtecs.component.Relationship LIKES = dev.jtecs.component.Relationships.register(
            "test.compaction.Likes", o -> { });

    /** {@code n} empty archetypes, each holding an edge to a target that has died: what compaction prunes. */
    private void deadTargetArchetypes(int n) {
        world.defer();
        long[] targets = new long[n];
        long[] holders = new long[n];
        for (int i = 0; i < n; i++) {
            targets[i] = world.spawn(POS);
            holders[i] = world.spawn(VEL, LIKES.to(targets[i]));
        }
        world.commit();
        world.defer();
        for (int i = 0; i < n; i++) {
            world.despawn(holders[i]);
            world.despawn(targets[i]);
        }
        world.commit();
    }

    /**
     * A pruning and the queries' part in it make everything first: failing each heap growth of a compaction in
     * turn prunes nothing half way, and every query keeps iterating archetypes that exist.
     */
    @Test
    void aCompactionThatCannotAllocatePrunesAllOrNothingAndQueriesStayInStep() {
        int failures = 0;
        for (int k = 1; ; k++) {
            World fresh = World.create();
            World was = swapWorld(fresh);
            was.close();
            Query velocities = query(VEL); // persistent: it matched the archetypes about to be pruned
            Query positions = query(POS);
            deadTargetArchetypes(30);
            long kept = world.spawn(VEL, POS);
            int archetypes = world.archetypeCount();
            dev.jtecs.entity.internal.AllocationFaults.failAt(dev.jtecs.entity.internal.AllocationFaults.Kind.HEAP,
                    k);
            CompactResult result = null;
            try {
                result = world.compact();
            } catch (OutOfMemoryError expected) {
                failures++;
            } finally {
                dev.jtecs.entity.internal.AllocationFaults.disarm();
            }
            int pruned = archetypes - world.archetypeCount();
            assertTrue(pruned == 0 || pruned == 30, "allocation " + k + ": all or nothing, pruned " + pruned);
            for (Query query : List.of(velocities, positions)) {
                int rows = 0;
                for (Archetype archetype : query.archetypes()) {
                    rows += archetype.count(); // a pruned archetype would refuse to count
                }
                assertEquals(1, rows, "allocation " + k);
                assertEquals(1, query.count(), "allocation " + k);
            }
            assertTrue(world.isAlive(kept));
            if (result != null) {
                assertEquals(30, result.pruned());
                break;
            }
            assertEquals(30, world.compact().pruned(), "allocation " + k + ": the next pass prunes them");
        }
        assertEquals(dev.jtecs.entity.internal.AllocationFaults.ENABLED, failures > 0, "the compaction's growths");
    }

    @Test
    void aThrowingOnArchetypeDestroyedNeitherStopsCompactionNorLeaksBuffers() { // issue 18, defect 15
        deadTargetArchetypes(5);
        List<Archetype> doomed = new java.util.ArrayList<>();
        world.forEachArchetype(a -> {
            if (a.has(VEL) && a.count() == 0 && a.capacityRows() > 0) {
                doomed.add(a);
            }
        });
        assertEquals(5, doomed.size());
        List<Archetype> heard = new java.util.ArrayList<>();
        for (Archetype archetype : doomed) {
            archetype.addEntityObserver(new dev.jtecs.storage.EntityObserver() {
                @Override
                public void onArchetypeDestroyed(Archetype destroyed) {
                    heard.add(destroyed);
                    if (destroyed == doomed.get(1) || destroyed == doomed.get(3)) {
                        throw new IllegalStateException("observer of " + destroyed);
                    }
                }
            });
        }
        int archetypes = world.getStats(null).archetypes();
        long expectedReserved;
        try (World control = World.create()) { // the same world whose observers do not throw
            World kept = swapWorld(control);
            deadTargetArchetypes(5);
            control.compact();
            expectedReserved = control.nativeBytesReserved();
            swapWorld(kept);
        }
        IllegalStateException thrown = assertThrows(IllegalStateException.class, world::compact);
        assertEquals(1, thrown.getSuppressed().length, "the second observer's failure rides along");
        assertEquals(5, heard.size(), "every observer heard it");
        assertEquals(archetypes - 5, world.getStats(null).archetypes(), "all five were pruned");
        assertEquals(expectedReserved, world.nativeBytesReserved(), "and their buffers freed");
        assertEquals(new CompactResult(0, 0), world.compact(), "nothing is left for the next pass");
        long id = world.spawn(VEL); // the world goes on
        assertTrue(world.isAlive(id));
    }

    @Test
    void compactPrunesManyArchetypesInOnePassAndQueriesStayConsistent() { // issue 18, defect 9
        // the work was quadratic (100,000 pruned archetypes took 122 s): one sweep now serves them all, and
        // CompactBenchmark (bench module) measures how its time grows with their number; here, what it leaves
        Query tracked = world.newQuery(QueryDescriptor.builder().include(VEL).groupBy(a -> a.id() % 7).build());
        Query plain = query(VEL);
        long kept = world.spawn(VEL);
        deadTargetArchetypes(20_000);
        assertEquals(20_000, world.compact().pruned()); // (and the targets' archetype shrinks)
        assertEquals(1, tracked.count());
        assertEquals(1, tracked.archetypes().size(), "only the live archetype is left in the grouped query");
        assertEquals(1, plain.archetypes().size());
        long survivor = world.spawn(VEL, LIKES.to(world.spawn(POS)));
        assertEquals(2, tracked.count(), "the query still finds new archetypes, reusing the pruned ids");
        assertEquals(2, plain.count());
        assertTrue(world.isAlive(survivor) && world.isAlive(kept));
    }
}
