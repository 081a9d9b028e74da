package dev.jtecs.bench.frame;

import static dev.jtecs.bench.particles.Particles.POSITION;
import static dev.jtecs.bench.particles.Particles.VELOCITY;
import static dev.jtecs.bench.particles.Particles.VX;
import static dev.jtecs.bench.particles.Particles.X;
import static dev.jtecs.bench.particles.Particles.Y;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.bench.particles.Particles.Position;
import dev.jtecs.bench.particles.Particles.Velocity;
import dev.jtecs.component.Components;
import dev.jtecs.component.FieldHandle;
import dev.jtecs.component.TagComponent;
import dev.jtecs.storage.Archetype;
import dev.jtecs.storage.FloatColumn;
import dev.jtecs.world.World;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class DirtyExtractorTest {
    private static final TagComponent SPLIT = Components.tag("bench.test.ExtractorSplit");
    private static final List<FieldHandle> FIELDS = List.of(X, Y, VX);

    /** Region rows [0, count) equal the column rows in every extracted field of every archetype holding them. */
    private static void assertMirrors(World world, DirtyExtractor extractor, String when) {
        world.forEachArchetype(archetype -> {
            if (!archetype.has(POSITION) || !archetype.has(VELOCITY) || archetype.count() == 0) {
                return;
            }
            for (FieldHandle field : FIELDS) {
                int count = archetype.count();
                MemorySegment column = Columns.segment(archetype, field).asSlice(0, (long) count * Float.BYTES);
                long mismatch = extractor.region(archetype, field, count).mismatch(column);
                assertEquals(-1, mismatch, field + " of " + archetype + " " + when);
            }
        });
    }

    private static long spawn(World world, SplittableRandom random) {
        float v = (float) random.nextDouble();
        return random.nextBoolean()
                ? world.spawn(POSITION.of(new Position(v, -v)), VELOCITY.of(new Velocity(v, v)))
                : world.spawn(POSITION.of(new Position(v, -v)), VELOCITY.of(new Velocity(v, v)), SPLIT);
    }

    @Test
    void mirrorsEveryArchetypeAfterRandomSpawnsDespawnsAndWrites() {
        long seed = new SplittableRandom().nextLong();
        System.out.println("DirtyExtractorTest seed=" + seed);
        SplittableRandom random = new SplittableRandom(seed);
        try (World world = World.create(); DirtyExtractor extractor = new DirtyExtractor(FIELDS)) {
            List<Long> live = new ArrayList<>();
            for (int round = 0; round < 60; round++) {
                int spawns = random.nextInt(round % 7 == 0 ? 300 : 8);
                for (int i = 0; i < spawns; i++) {
                    live.add(spawn(world, random));
                }
                int despawns = random.nextInt(Math.min(live.size(), 10) + 1);
                for (int i = 0; i < despawns; i++) {
                    world.despawn(live.remove(random.nextInt(live.size())));
                }
                if (random.nextInt(3) == 0 && !live.isEmpty()) { // one write through the tracked path
                    float v = (float) random.nextDouble();
                    world.set(live.get(random.nextInt(live.size())), VELOCITY.of(new Velocity(v, 2 * v)));
                }
                if (random.nextInt(4) == 0) { // a whole-column write through getMut
                    world.forEachArchetype(archetype -> {
                        if (archetype.has(POSITION) && archetype.count() > 0) {
                            FloatColumn x = archetype.getMut(X);
                            float[] values = new float[archetype.count()];
                            java.util.Arrays.fill(values, (float) random.nextDouble());
                            MemorySegment.copy(values, 0, x.segment(), java.lang.foreign.ValueLayout.JAVA_FLOAT, 0,
                                    values.length);
                        }
                    });
                }
                extractor.extract(world);
                assertMirrors(world, extractor, "after round " + round + " (seed " + seed + ")");
            }
        }
    }

    /**
     * With a pool, the whole-column copies run on its workers at the end of the extraction: the regions hold the
     * same bytes as an extractor copying on the calling thread, also when a later archetype's new region grows the
     * buffer while earlier archetypes' copies are still queued (the first extraction of two large archetypes). Two
     * worlds get the same operations, one extractor each (an extraction consumes its world's dirty bits).
     */
    @Test
    void aPoolCopiesWhatTheCallingThreadWouldCopy() {
        java.util.concurrent.ForkJoinPool pool = new java.util.concurrent.ForkJoinPool(2);
        try (World serialWorld = World.create(); World pooledWorld = World.create();
                DirtyExtractor serial = new DirtyExtractor(FIELDS);
                DirtyExtractor pooled = new DirtyExtractor(FIELDS, pool)) {
            int large = (int) (3 * ParallelCopies.MIN_PIECE_BYTES / Float.BYTES);
            List<List<Long>> live = List.of(new ArrayList<>(), new ArrayList<>());
            List<World> worlds = List.of(serialWorld, pooledWorld);
            for (int w = 0; w < 2; w++) {
                SplittableRandom random = new SplittableRandom(7);
                for (int i = 0; i < 2 * large; i++) {
                    live.get(w).add(spawn(worlds.get(w), random));
                }
            }
            for (int frame = 0; frame < 6; frame++) {
                for (int w = 0; w < 2; w++) {
                    int f = frame;
                    worlds.get(w).forEachArchetype(archetype -> {
                        if (archetype.has(POSITION) && archetype.count() > 0) {
                            FloatColumn x = archetype.getMut(X);
                            for (int row = 0; row < archetype.count(); row += 97) {
                                x.set(row, f * 1000 + row);
                            }
                        }
                    });
                    SplittableRandom random = new SplittableRandom(frame);
                    for (int i = 0; i < 50; i++) {
                        worlds.get(w).despawn(live.get(w).remove(random.nextInt(live.get(w).size())));
                    }
                }
                int columns = serial.extract(serialWorld);
                assertTrue(columns > 0, "frame " + frame + " copies something");
                assertEquals(columns, pooled.extract(pooledWorld), "frame " + frame);
                assertEquals(serial.lastBytes(), pooled.lastBytes(), "frame " + frame);
                assertMirrors(pooledWorld, pooled, "frame " + frame + " with a pool");
                assertMirrors(serialWorld, serial, "frame " + frame + " on the calling thread");
            }
        } finally {
            pool.shutdown();
        }
    }

    @Test
    void copiesNothingWhenNothingChanged() {
        try (World world = World.create(); DirtyExtractor extractor = new DirtyExtractor(FIELDS)) {
            for (int i = 0; i < 100; i++) {
                world.spawn(POSITION.of(new Position(i, i)), VELOCITY.of(new Velocity(1, 1)));
            }
            assertEquals(3, extractor.extract(world));
            assertEquals(100L * 3 * Float.BYTES, extractor.lastBytes());
            assertEquals(0, extractor.extract(world));
            assertEquals(0, extractor.lastBytes());
            assertEquals(0, extractor.lastArchetypes());
            assertEquals(100L * 3 * Float.BYTES, extractor.totalBytes());
        }
    }

    @Test
    void copiesOnlyTheColumnsOfTheWrittenComponent() {
        try (World world = World.create(); DirtyExtractor extractor = new DirtyExtractor(FIELDS)) {
            for (int i = 0; i < 100; i++) {
                world.spawn(POSITION.of(new Position(i, i)), VELOCITY.of(new Velocity(1, 1)));
            }
            extractor.extract(world);
            world.forEachArchetype(archetype -> {
                if (archetype.has(VELOCITY)) {
                    archetype.getMut(VX).set(5, 42f);
                }
            });
            assertEquals(1, extractor.extract(world), "VX only: Position is clean");
            assertEquals(100L * Float.BYTES, extractor.lastBytes());
            assertMirrors(world, extractor, "after a velocity write");
        }
    }

    @Test
    void copiesOnlyAppendedAndOverwrittenRowsAfterAFewStructuralChanges() {
        try (World world = World.create(); DirtyExtractor extractor = new DirtyExtractor(FIELDS)) {
            List<Long> ids = new ArrayList<>();
            for (int i = 0; i < 1000; i++) {
                ids.add(world.spawn(POSITION.of(new Position(i, -i)), VELOCITY.of(new Velocity(i, i))));
            }
            extractor.extract(world);
            world.despawn(ids.get(10)); // each swap-remove overwrites one row with the last
            world.despawn(ids.get(500));
            world.despawn(ids.get(700));
            world.spawn(POSITION.of(new Position(-1, -1)), VELOCITY.of(new Velocity(-1, -1)));
            world.spawn(POSITION.of(new Position(-2, -2)), VELOCITY.of(new Velocity(-2, -2)));
            Archetype archetype = world.archetypeOf(ids.get(0));
            assertEquals(3, archetype.structuralTouched().length);
            assertEquals(997, archetype.structuralAdded());
            assertEquals(3, extractor.extract(world));
            assertEquals((3 + 2) * 3L * Float.BYTES, extractor.lastBytes(), "3 overwritten + 2 appended rows, 3 fields");
            assertMirrors(world, extractor, "after despawns and spawns");
        }
    }

    @Test
    void copiesWholeColumnsOnceTheRowResidueOverflows() {
        try (World world = World.create(); DirtyExtractor extractor = new DirtyExtractor(FIELDS)) {
            List<Long> ids = new ArrayList<>();
            for (int i = 0; i < 1000; i++) {
                ids.add(world.spawn(POSITION.of(new Position(i, -i)), VELOCITY.of(new Velocity(i, i))));
            }
            extractor.extract(world);
            for (int i = 0; i < 200; i++) {
                world.despawn(ids.get(2 * i));
            }
            extractor.extract(world);
            assertEquals(800L * 3 * Float.BYTES, extractor.lastBytes());
            assertMirrors(world, extractor, "after 200 despawns");
        }
    }

    @Test
    void followsAnArchetypeThatOutgrowsItsRegion() {
        try (World world = World.create(); DirtyExtractor extractor = new DirtyExtractor(FIELDS)) {
            for (int round = 1; round <= 6; round++) {
                for (int i = 0; i < round * round * 50; i++) {
                    world.spawn(POSITION.of(new Position(round, i)), VELOCITY.of(new Velocity(i, round)));
                }
                extractor.extract(world);
                assertMirrors(world, extractor, "after growth round " + round);
            }
            assertTrue(extractor.bytesReserved() >= 4550L * 3 * Float.BYTES, "" + extractor.bytesReserved());
        }
    }

    @Test
    void rereadsColumnsWhoseStorageGrewWithinTheRegion() {
        try (World world = World.create(); DirtyExtractor extractor = new DirtyExtractor(FIELDS)) {
            long first = 0;
            for (int i = 0; i < 1000; i++) {
                first = world.spawn(POSITION.of(new Position(i, i)), VELOCITY.of(new Velocity(i, i)));
            }
            extractor.extract(world);
            Archetype archetype = world.archetypeOf(first);
            long version = archetype.storageVersion();
            for (int i = 0; i < 100; i++) { // 1,100 rows: past the 1,024-row buffers, inside the 1,250-row region
                world.spawn(POSITION.of(new Position(-i, -i)), VELOCITY.of(new Velocity(-i, -i)));
            }
            assertTrue(archetype.storageVersion() != version, "the buffers were replaced");
            extractor.extract(world);
            assertEquals((100L) * 3 * Float.BYTES, extractor.lastBytes(), "only the appended rows");
            assertMirrors(world, extractor, "after the storage grew");
        }
    }

    @Test
    void leavesArchetypesWithoutTheComponentsDirtyForOtherConsumers() {
        try (World world = World.create(); DirtyExtractor extractor = new DirtyExtractor(FIELDS)) {
            long onlyPosition = world.spawn(POSITION.of(new Position(1, 1)));
            world.spawn(POSITION.of(new Position(1, 1)), VELOCITY.of(new Velocity(1, 1)));
            extractor.extract(world);
            assertEquals(1, extractor.lastArchetypes());
            assertTrue(world.archetypeOf(onlyPosition).anyComponentDirty());
            assertEquals(List.of(world.archetypeOf(onlyPosition)), world.dirtyArchetypes());
        }
    }

    @Test
    void rejectsEmptyAndRepeatedFieldLists() {
        IllegalArgumentException empty = assertThrows(IllegalArgumentException.class,
                () -> new DirtyExtractor(List.of()));
        assertTrue(empty.getMessage().contains("at least one field"), empty.getMessage());
        IllegalArgumentException twice = assertThrows(IllegalArgumentException.class,
                () -> new DirtyExtractor(List.of(X, Y, X)));
        assertTrue(twice.getMessage().contains("listed twice"), twice.getMessage());
    }

    @Test
    void groupsFieldsByComponent() {
        try (DirtyExtractor extractor = new DirtyExtractor(List.of(X, VX, Y))) {
            assertEquals(List.of(X, Y, VX), extractor.fields());
        }
    }

    @Test
    void refusesRegionsItDoesNotHaveAndWorkAfterClose() {
        try (World world = World.create()) {
            DirtyExtractor extractor = new DirtyExtractor(FIELDS);
            long id = world.spawn(POSITION.of(new Position(1, 1)), VELOCITY.of(new Velocity(1, 1)));
            Archetype archetype = world.archetypeOf(id);
            IllegalArgumentException none = assertThrows(IllegalArgumentException.class,
                    () -> extractor.region(archetype, X, 1));
            assertTrue(none.getMessage().contains("has no region"), none.getMessage());
            extractor.extract(world);
            IllegalArgumentException notOurs = assertThrows(IllegalArgumentException.class,
                    () -> extractor.region(archetype, dev.jtecs.bench.particles.Particles.VY, 1));
            assertTrue(notOurs.getMessage().contains("is not extracted"), notOurs.getMessage());
            IllegalArgumentException tooMany = assertThrows(IllegalArgumentException.class,
                    () -> extractor.region(archetype, X, 1000));
            assertTrue(tooMany.getMessage().contains("rows=1000"), tooMany.getMessage());
            extractor.close();
            assertThrows(IllegalStateException.class, () -> extractor.extract(world));
            assertFalse(world.isClosed());
        }
    }
}
