package dev.jtecs.kernels;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.component.Components;
import dev.jtecs.component.FloatField;
import dev.jtecs.component.NativeComponent;
import dev.jtecs.kernels.vector.VectorFillOps;
import dev.jtecs.random.Xoshiro128;
import dev.jtecs.storage.Archetype;
import dev.jtecs.world.World;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.management.ManagementFactory;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Batch fills through {@code World.batchSpawn}: they write exactly the declared fields of exactly the new rows, the
 * random ones from keys drawn from the world's streams, so the same seed gives the same bytes whichever
 * implementation runs; refused arguments record, draw and write nothing.
 */
class BatchFillTest {
    record Particle(float x, float vx, float vy, float size) {}

    record Tint(float shade) {}

    static final NativeComponent<Particle> PARTICLE =
            Components.registerNative(Particle.class, o -> o.name("kernels.test.FillParticle"));
    static final NativeComponent<Tint> TINT = Components.registerNative(Tint.class, o -> o.name("kernels.test.Tint"));
    static final FloatField X = PARTICLE.floatField("x");
    static final FloatField VX = PARTICLE.floatField("vx");
    static final FloatField VY = PARTICLE.floatField("vy");
    static final FloatField SIZE = PARTICLE.floatField("size");
    static final FloatField SHADE = TINT.floatField("shade");
    static final FillOps[] BOTH = {VectorFillOps.INSTANCE, FillOps.SCALAR};

    private static BatchFill spray(FillOps ops, World world) {
        Xoshiro128 stream = world.randomStream("test.spray");
        return BatchFill.builder(ops)
                .constant(SIZE, 2f)
                .range(X, -10f, 0.5f)
                .uniform(VX, -1f, 1f, stream)
                .uniform(VY, 0f, 10f, stream)
                .build();
    }

    /** 37 particles spawned one by one (rows 0..36), then a batch of 1000 with {@code fill}. */
    private static Archetype spawnWithBatch(World world, BatchFill fill) {
        for (int i = 0; i < 37; i++) {
            world.spawn(PARTICLE.of(new Particle(i, i, i, i)));
        }
        world.batchSpawn(1000, List.of(PARTICLE), fill);
        return world.archetypeOf(world.spawn(PARTICLE));
    }

    @Test
    void fillsExactlyTheNewRowsWithKeysDrawnFromTheStream() {
        for (FillOps ops : BOTH) {
            try (World world = World.create()) {
                Xoshiro128 replay = world.randomStream("test.spray").copy();
                Archetype archetype = spawnWithBatch(world, spray(ops, world));
                long vxKey = replay.nextLong(); // declaration order: VX's key, then VY's
                long vyKey = replay.nextLong();
                assertArrayEquals(replay.state(), world.randomStream("test.spray").state(),
                        ops.mode() + ": one draw per uniform field");
                for (int row = 0; row < 37; row++) {
                    assertEquals(row, archetype.get(VX).get(row), ops.mode() + ": row " + row + " is not new");
                }
                for (int i = 0; i < 1000; i++) {
                    int row = 37 + i;
                    String where = ops.mode() + " row " + row;
                    assertEquals(2f, archetype.get(SIZE).get(row), where);
                    assertEquals(-10f + (float) i * 0.5f, archetype.get(X).get(row), where);
                    assertEquals(ScalarFillOps.uniform(vxKey, row, -1f, 1f), archetype.get(VX).get(row), where);
                    assertEquals(ScalarFillOps.uniform(vyKey, row, 0f, 10f), archetype.get(VY).get(row), where);
                }
            }
        }
    }

    @Test
    void theSameSeedGivesTheSameBytesWhicheverImplementationRuns() {
        byte[][] columns = new byte[3][];
        int[] seeds = {42, 42, 43};
        FillOps[] ops = {BOTH[0], BOTH[1], BOTH[0]};
        for (int w = 0; w < 3; w++) {
            try (World world = World.create()) {
                world.seedRandom(seeds[w]);
                BatchFill fill = spray(ops[w], world);
                Archetype archetype = spawnWithBatch(world, fill);
                world.batchSpawn(517, List.of(PARTICLE), fill); // a second batch, starting off the lanes
                int rows = archetype.count();
                MemorySegment vx = archetype.get(VX).segment().asSlice(0, (long) rows * Float.BYTES);
                MemorySegment vy = archetype.get(VY).segment().asSlice(0, (long) rows * Float.BYTES);
                columns[w] = new byte[2 * (int) vx.byteSize()];
                MemorySegment.copy(vx, ValueLayout.JAVA_BYTE, 0, columns[w], 0, (int) vx.byteSize());
                MemorySegment.copy(vy, ValueLayout.JAVA_BYTE, 0, columns[w], (int) vx.byteSize(), (int) vy.byteSize());
            }
        }
        assertArrayEquals(columns[0], columns[1], "seed 42, vector and scalar");
        assertFalse(java.util.Arrays.equals(columns[0], columns[2]), "another seed, other values");
    }

    @Test
    void aLaterBatchOnTheSameRowsDrawsFreshValues() {
        try (World world = World.create()) {
            BatchFill fill = BatchFill.builder().uniform(VX, 0f, 1f, world.randomStream("test.again")).build();
            world.batchSpawn(100, List.of(PARTICLE), fill);
            Archetype archetype = world.archetypeOf(world.spawn(PARTICLE));
            float[] first = new float[100];
            for (int row = 0; row < 100; row++) {
                first[row] = archetype.get(VX).get(row);
            }
            world.clearEntities();
            world.batchSpawn(100, List.of(PARTICLE), fill); // the same rows 0..99 again
            int same = 0;
            for (int row = 0; row < 100; row++) {
                same += archetype.get(VX).get(row) == first[row] ? 1 : 0;
            }
            assertTrue(same < 3, same + " of 100 rows repeated the first batch's value");
        }
    }

    @Test
    void marksOnlyTheFilledComponentsAndWritesOnlyTheGivenRows() {
        try (World world = World.create()) {
            for (int i = 0; i < 50; i++) {
                world.spawn(PARTICLE.of(new Particle(1, 1, 1, 1)), TINT.of(new Tint(0.5f)));
            }
            Archetype archetype = world.archetypeOf(world.spawn(PARTICLE, TINT));
            world.forEachArchetype(Archetype::clearDirtyComponents);
            BatchFill.builder().constant(SHADE, 0.25f).build().rows(archetype, 10, 20);
            assertEquals(List.of(TINT), archetype.dirtyComponents());
            assertEquals(0.5f, archetype.get(SHADE).get(9));
            assertEquals(0.25f, archetype.get(SHADE).get(10));
            assertEquals(0.25f, archetype.get(SHADE).get(19));
            assertEquals(0.5f, archetype.get(SHADE).get(20));
        }
    }

    @Test
    void aFieldTheArchetypeLacksIsRefusedBeforeAnythingIsDrawnOrWritten() {
        try (World world = World.create()) {
            for (int i = 0; i < 20; i++) {
                world.spawn(PARTICLE.of(new Particle(1, 1, 1, 1)));
            }
            Archetype archetype = world.archetypeOf(world.spawn(PARTICLE));
            world.forEachArchetype(Archetype::clearDirtyComponents);
            Xoshiro128 stream = world.randomStream("test.refused");
            int[] state = stream.state();
            BatchFill fill = BatchFill.builder().uniform(VX, 0f, 1f, stream).constant(SHADE, 1f).build();
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> fill.rows(archetype, 0, 20));
            assertTrue(e.getMessage().contains("shade") && e.getMessage().contains("kernels.test.Tint"),
                    e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> fill.rows(archetype, 10, 5));
            assertThrows(IllegalArgumentException.class,
                    () -> BatchFill.builder().uniform(VX, 0f, 1f, stream).build().rows(archetype, 0, 1000));
            assertArrayEquals(state, stream.state(), "no key was drawn");
            assertEquals(1f, archetype.get(VX).get(0), "nothing was written");
            assertEquals(List.of(), archetype.dirtyComponents(), "nothing was marked");
        }
    }

    @Test
    void badDeclarationsAreRefusedAndRecordNothing() {
        try (World world = World.create()) {
            Xoshiro128 stream = world.randomStream("test.bad");
            int[] state = stream.state();
            BatchFill.Builder builder = BatchFill.builder(FillOps.SCALAR).constant(SIZE, 3f);
            IllegalArgumentException equal = assertThrows(IllegalArgumentException.class,
                    () -> builder.uniform(VX, 1f, 1f, stream));
            assertTrue(equal.getMessage().contains("vx") && equal.getMessage().contains("lo=1.0")
                    && equal.getMessage().contains("hi=1.0"), equal.getMessage());
            assertThrows(IllegalArgumentException.class, () -> builder.uniform(VX, 2f, 1f, stream));
            assertThrows(IllegalArgumentException.class, () -> builder.uniform(VX, Float.NaN, 1f, stream));
            assertThrows(IllegalArgumentException.class, () -> builder.uniform(VX, 0f, Float.NaN, stream));
            assertThrows(IllegalArgumentException.class,
                    () -> builder.uniform(VX, Float.NEGATIVE_INFINITY, 1f, stream));
            assertThrows(IllegalArgumentException.class,
                    () -> builder.uniform(VX, -Float.MAX_VALUE, Float.MAX_VALUE, stream));
            assertThrows(NullPointerException.class, () -> builder.uniform(VX, 0f, 1f, null));
            assertThrows(NullPointerException.class, () -> builder.uniform(null, 0f, 1f, stream));
            assertThrows(IllegalArgumentException.class, () -> builder.range(X, 0f, Float.NaN));
            assertThrows(IllegalArgumentException.class, () -> builder.range(X, Float.POSITIVE_INFINITY, 1f));
            assertThrows(NullPointerException.class, () -> builder.constant(null, 1f));
            IllegalArgumentException twice = assertThrows(IllegalArgumentException.class,
                    () -> builder.constant(SIZE, 4f));
            assertTrue(twice.getMessage().contains("size"), twice.getMessage());
            assertThrows(IllegalArgumentException.class, () -> BatchFill.builder().build());
            assertThrows(NullPointerException.class, () -> BatchFill.builder(null));
            assertArrayEquals(state, stream.state(), "no key was drawn");

            BatchFill fill = builder.build(); // only the one good declaration
            assertEquals("BatchFill/SCALAR[size=3.0]", fill.toString());
            world.batchSpawn(10, List.of(PARTICLE), fill);
            Archetype archetype = world.archetypeOf(world.spawn(PARTICLE));
            assertEquals(3f, archetype.get(SIZE).get(9));
            assertEquals(0f, archetype.get(VX).get(9));
            assertArrayEquals(state, stream.state());
        }
    }

    @Test
    void aCallAllocatesNothingPerEntity() {
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long thread = Thread.currentThread().threadId();
        try (World world = World.create()) {
            world.batchSpawn(4096, List.of(PARTICLE));
            Archetype archetype = world.archetypeOf(world.spawn(PARTICLE));
            for (FillOps ops : BOTH) {
                BatchFill fill = spray(ops, world);
                long[] best = {Long.MAX_VALUE, Long.MAX_VALUE};
                int[] rows = {64, 4096};
                long deadline = System.nanoTime() + 20_000_000_000L;
                // per call a fill may allocate a little (column views); per entity nothing: a call over 4096 rows
                // must allocate no more than one over 64, once C2 has compiled the vector code
                for (int round = 0; (best[1] > best[0] || round < 40) && System.nanoTime() < deadline; round++) {
                    for (int size = 0; size < 2; size++) {
                        long before = threads.getThreadAllocatedBytes(thread);
                        for (int i = 0; i < 200; i++) {
                            fill.rows(archetype, 0, rows[size]);
                        }
                        best[size] = Math.min(best[size], threads.getThreadAllocatedBytes(thread) - before);
                    }
                }
                assertTrue(best[1] <= best[0], ops.mode() + ": 200 calls over 4096 rows allocated " + best[1]
                        + " bytes, over 64 rows " + best[0]);
                assertNotEquals(Long.MAX_VALUE, best[0]);
            }
        }
    }
}
