package dev.jtecs.kernels.parallel;

import static dev.jtecs.kernels.parallel.ParallelWorlds.DX;
import static dev.jtecs.kernels.parallel.ParallelWorlds.DY;
import static dev.jtecs.kernels.parallel.ParallelWorlds.POSITION;
import static dev.jtecs.kernels.parallel.ParallelWorlds.VELOCITY;
import static dev.jtecs.kernels.parallel.ParallelWorlds.X;
import static dev.jtecs.kernels.parallel.ParallelWorlds.Y;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.entity.Entity;
import dev.jtecs.event.OnSpawn;
import dev.jtecs.kernels.KernelColumns;
import dev.jtecs.kernels.WritePolicy;
import dev.jtecs.query.Query;
import dev.jtecs.query.QueryDescriptor;
import dev.jtecs.storage.Archetype;
import dev.jtecs.world.World;
import java.lang.foreign.MemorySegment;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The plan cuts aligned chunks whose last one per archetype reaches the column end, keeps small archetypes whole,
 * batches small chunks into units, reuses its slices while the layout holds, and gathers again when the end of the
 * iteration published work.
 */
class ChunkPlanTest {
    private static final KernelColumns INTEGRATE =
            KernelColumns.of(List.of(X, Y), List.of(DX, DY), WritePolicy.ALWAYS);

    @Test
    void chunkRowsIsTheMinimumOrTheTotalOverFourUnitsPerThreadRoundedUpToAPowerOfTwo() {
        assertEquals(16_384, ChunkPlan.chunkRows(0, 2, 16_384));
        assertEquals(16_384, ChunkPlan.chunkRows(100_000, 2, 16_384)); // 12,500 per unit: the minimum
        assertEquals(524_288, ChunkPlan.chunkRows(4_194_304, 2, 16_384)); // exactly 8 units
        assertEquals(1_048_576, ChunkPlan.chunkRows(4_194_305, 2, 16_384)); // one row more: the next power
        assertEquals(1_048_576, ChunkPlan.chunkRows(4_194_304, 1, 16_384));
        assertEquals(64, ChunkPlan.chunkRows(1_000, 8, 64)); // 32 units of 32 rows: the minimum
        assertEquals(1 << 30, ChunkPlan.chunkRows(Long.MAX_VALUE / 8, 1, 64), "capped");
    }

    @Test
    void cutsAlignedChunksKeepsSmallArchetypesWholeAndBatchesThemIntoUnits() {
        try (World world = ParallelWorlds.movers(1, new int[] {40_000, 90, 3_000, 25_000})) {
            Query movers = ParallelWorlds.movers(world);
            ChunkPlan plan = new ChunkPlan();
            plan.gather(movers, INTEGRATE);
            plan.cut(2, 16_384); // 68,090 rows over 8 units: 8,512, rounded up to 16,384
            assertEquals(16_384, plan.chunkRows());
            assertEquals(4, plan.archetypeCount());
            int[][] expected = { // archetype, first row, count, last
                {0, 0, 16_384, 0}, {0, 16_384, 16_384, 0}, {0, 32_768, 7_232, 1}, {1, 0, 90, 1}, {2, 0, 3_000, 1},
                {3, 0, 16_384, 0}, {3, 16_384, 8_616, 1}};
            assertEquals(expected.length, plan.chunkCount());
            for (int c = 0; c < expected.length; c++) {
                ChunkPlan.Chunk chunk = plan.chunk(c);
                assertEquals(expected[c][0], chunk.archetype, "chunk " + c);
                assertEquals(expected[c][1], chunk.firstRow, "chunk " + c);
                assertEquals(expected[c][2], chunk.count, "chunk " + c);
                assertEquals(expected[c][3] == 1, chunk.last, "chunk " + c);
                assertEquals(expected[c][2], chunk.commands.rowCount(), "chunk " + c);
            }
            // units: A0 | A1 | A2 + B + C (10,322 rows) | D0 | D1
            int[] starts = {0, 1, 2, 5, 6, 7};
            assertEquals(starts.length - 1, plan.unitCount());
            for (int u = 0; u < starts.length; u++) {
                assertEquals(starts[u], plan.unitStart(u), "unit " + u);
            }
        }
    }

    @Test
    void slicesStartAlignedAndOnlyTheLastReachesTheColumnEnd() {
        try (World world = ParallelWorlds.movers(2, new int[] {5_000, 70})) {
            Query movers = ParallelWorlds.movers(world);
            List<Archetype> archetypes = movers.archetypes().stream().filter(a -> a.count() > 0).toList();
            ChunkPlan plan = new ChunkPlan();
            plan.gather(movers, INTEGRATE);
            plan.cut(4, 64); // 5,070 rows over 16 units: 317, rounded up to 512
            assertEquals(512, plan.chunkRows());
            for (int c = 0; c < plan.chunkCount(); c++) {
                ChunkPlan.Chunk chunk = plan.chunk(c);
                Archetype archetype = archetypes.get(chunk.archetype);
                for (int k = 0; k < INTEGRATE.size(); k++) {
                    MemorySegment column = INTEGRATE.segment(archetype, k);
                    MemorySegment slice = chunk.segments[k];
                    assertEquals(0, slice.address() % 64, "chunk " + c);
                    assertEquals(column.address() + chunk.firstRow * (long) Float.BYTES, slice.address());
                    long end = chunk.last ? column.address() + column.byteSize()
                            : slice.address() + chunk.count * (long) Float.BYTES;
                    assertEquals(end, slice.address() + slice.byteSize(), "chunk " + c + " column " + k);
                }
            }
        }
    }

    @Test
    void reusesItsSlicesWhileTheLayoutHoldsAndCutsNewOnesWhenABufferIsReplaced() {
        try (World world = ParallelWorlds.movers(3, new int[] {2_000, 300})) {
            Query movers = ParallelWorlds.movers(world);
            ChunkPlan plan = new ChunkPlan();
            KernelColumns gravity = KernelColumns.of(List.of(DY), List.of(), WritePolicy.ALWAYS);
            plan.gather(movers, INTEGRATE);
            plan.cut(2, 64);
            MemorySegment first = plan.chunk(0).segments[0];
            plan.gather(movers, gravity); // another kernel in between: other columns
            plan.cut(2, 64);
            plan.gather(movers, INTEGRATE);
            plan.cut(2, 64);
            assertSame(first, plan.chunk(0).segments[0], "the same slice, cut once");
            for (int i = 0; i < 5_000; i++) { // the first archetype grows: its buffers are replaced
                world.spawn(POSITION, VELOCITY, ParallelWorlds.SHAPES[0]);
            }
            plan.gather(movers, INTEGRATE);
            plan.cut(2, 64);
            assertNotSame(first, plan.chunk(0).segments[0]);
            assertEquals(INTEGRATE.segment(movers.archetypes().get(0), INTEGRATE.writes().indexOf(X)).address(),
                    plan.chunk(0).segments[0].address());
        }
    }

    @Test
    void gathersAgainWhenTheEndOfTheIterationPublishedWork() {
        try (World world = ParallelWorlds.movers(4, new int[] {100})) {
            Query movers = ParallelWorlds.movers(world);
            // an OnSpawn observer that fails leaves the spawn staged at depth 0: the next scope to close there (the
            // plan's own iteration) publishes it, and the archetype the plan just gathered gets a row more
            boolean[] fail = {true};
            world.observe(Entity.WORLD, OnSpawn.class, event -> {
                if (fail[0]) {
                    fail[0] = false;
                    throw new IllegalStateException("observer failed");
                }
            });
            assertThrows(IllegalStateException.class,
                    () -> world.spawn(POSITION, VELOCITY, ParallelWorlds.SHAPES[0]));
            assertTrue(world.hasPendingChanges());
            ChunkPlan plan = new ChunkPlan();
            plan.gather(movers, INTEGRATE);
            assertFalse(world.hasPendingChanges(), "published at the end of the first iteration");
            assertTrue(plan.unchanged());
            assertEquals(1, plan.archetypeCount());
            assertEquals(101, plan.count(0), "gathered again, after the publication");
            assertEquals(101, plan.archetype(0).count());
        }
    }

    @Test
    void anArchetypeWithoutAColumnIsRefused() {
        try (World world = ParallelWorlds.movers(5, new int[] {10})) {
            Query positions = world.newQuery(QueryDescriptor.builder().include(POSITION).build());
            ChunkPlan plan = new ChunkPlan();
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> plan.gather(positions, INTEGRATE));
            assertTrue(e.getMessage().contains("dx"), e.getMessage());
        }
    }
}
