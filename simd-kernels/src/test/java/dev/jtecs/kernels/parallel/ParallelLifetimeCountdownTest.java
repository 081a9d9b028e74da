package dev.jtecs.kernels.parallel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.builtin.systems.BuiltinSystems;
import dev.jtecs.builtin.TTL;
import dev.jtecs.component.TagComponent;
import dev.jtecs.kernels.KernelMode;
import dev.jtecs.kernels.LifetimeCountdown;
import dev.jtecs.kernels.LifetimeOps;
import dev.jtecs.kernels.vector.VectorLifetimeOps;
import dev.jtecs.query.Query;
import dev.jtecs.query.QueryDescriptor;
import dev.jtecs.storage.Archetype;
import dev.jtecs.storage.DoubleColumn;
import dev.jtecs.world.World;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ForkJoinPool;
import org.junit.jupiter.api.Test;

/**
 * The parallel countdown ends the same lifetimes in the same steps as {@link LifetimeCountdown}, lists them in the
 * same order, leaves the same bytes (padding included) and the same dirty marks, for every thread count and
 * schedule; it despawns through the merge in one scope and reports worker failures without marking anything.
 */
class ParallelLifetimeCountdownTest {
    private static final double STEP = 1.0 / 60;
    private static final int[] SIZES = {1, 63, 65, 3_000, 20_000, 9_001};
    private static final LifetimeOps[] BOTH = {VectorLifetimeOps.INSTANCE, LifetimeOps.SCALAR};

    /** {@code ops} after a random pause, so chunks finish in a random order. */
    private static LifetimeOps jittered(LifetimeOps ops) {
        return new LifetimeOps() {
            @Override
            public KernelMode mode() {
                return ops.mode();
            }

            @Override
            public int countdown(MemorySegment remaining, int count, double dt, double spentLimit, int[] rows) {
                ParallelWorlds.jitter();
                return ops.countdown(remaining, count, dt, spentLimit, rows);
            }
        };
    }

    /** Lifetimes up to ~45 steps in one archetype per size: whole steps, random ones, and specials. */
    private static World lifetimes(long seed) {
        World world = World.create();
        BuiltinSystems.remove(world);
        SplittableRandom random = new SplittableRandom(seed);
        double[] specials = {Double.NaN, -0.0, 0.0, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 1e300};
        for (int i = 0; i < SIZES.length; i++) {
            world.batchSpawn(SIZES[i], List.of(TTL.COMPONENT, ParallelWorlds.SHAPES[i]), (archetype, from, to) -> {
                DoubleColumn remaining = archetype.getMut(TTL.REMAINING);
                DoubleColumn starting = archetype.getMut(TTL.STARTING_TIME);
                for (int row = from; row < to; row++) {
                    int kind = random.nextInt(10);
                    double seconds = kind == 0 ? specials[random.nextInt(specials.length)]
                            : kind < 4 ? random.nextInt(46) * STEP : random.nextDouble() * 46 * STEP;
                    remaining.set(row, seconds);
                    starting.set(row, seconds);
                }
            });
            world.commit();
        }
        world.forEachArchetype(Archetype::clearDirtyComponents);
        return world;
    }

    private static Query query(World world) {
        return world.newQuery(QueryDescriptor.builder().include(TTL.COMPONENT).build());
    }

    private static List<Long> list(int count, java.util.function.IntToLongFunction expired) {
        List<Long> ids = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            ids.add(expired.applyAsLong(i));
        }
        return ids;
    }

    private static void assertSameLifetimes(World expected, World actual, String where) {
        List<Archetype> left = new ArrayList<>();
        List<Archetype> right = new ArrayList<>();
        expected.forEachArchetype(left::add);
        actual.forEachArchetype(right::add);
        assertEquals(left.size(), right.size(), where);
        for (int i = 0; i < left.size(); i++) {
            Archetype a = left.get(i);
            Archetype b = right.get(i);
            assertEquals(a.count(), b.count(), where);
            for (int row = 0; row < a.count(); row++) {
                assertEquals(a.entity(row), b.entity(row), where + " row " + row);
            }
            if (a.has(TTL.COMPONENT)) {
                MemorySegment sa = a.get(TTL.REMAINING).segment();
                assertEquals(-1, sa.mismatch(b.get(TTL.REMAINING).segment()), where + " TTL bytes of " + a);
                assertEquals(a.isComponentDirty(TTL.COMPONENT), b.isComponentDirty(TTL.COMPONENT), where);
                assertEquals(a.writeCount(TTL.COMPONENT), b.writeCount(TTL.COMPONENT), where);
            }
        }
    }

    @Test
    void sameExpiredListBytesAndMarksAsTheSingleThreadedCountdownForEveryThreadCount() {
        long seed = ParallelWorlds.seed("sameExpiredListBytesAndMarksAsTheSingleThreadedCountdownForEveryThreadCount");
        for (LifetimeOps ops : BOTH) {
            List<ParallelLifetimeCountdown> countdowns = new ArrayList<>();
            try (World single = lifetimes(seed); World parallel = lifetimes(seed)) {
                for (int threads = 1; threads <= 8; threads++) {
                    countdowns.add(new ParallelLifetimeCountdown(jittered(ops), threads, 64));
                }
                LifetimeCountdown reference = new LifetimeCountdown(ops);
                Query q1 = query(single);
                Query q2 = query(parallel);
                int ended = 0;
                for (int step = 0; step < 48; step++) {
                    ParallelLifetimeCountdown countdown = countdowns.get(step % countdowns.size());
                    String where = "seed=" + seed + " " + ops.mode() + " step=" + step + " threads=" + (step % 8 + 1);
                    int n = reference.countDown(q1, STEP);
                    assertEquals(n, countdown.countDown(q2, STEP), where);
                    assertEquals(list(n, reference::expired), list(n, countdown::expired), where);
                    assertSameLifetimes(single, parallel, where);
                    ended += n;
                    assertEquals(reference.despawnExpired(single), countdown.despawnExpired(parallel), where);
                    assertEquals(0, countdown.expiredCount());
                    assertSameLifetimes(single, parallel, where + " after despawning");
                    single.forEachArchetype(Archetype::clearDirtyComponents);
                    parallel.forEachArchetype(Archetype::clearDirtyComponents);
                }
                assertTrue(ended > 20_000, "most lifetimes ended: " + ended);
            } finally {
                countdowns.forEach(ParallelLifetimeCountdown::close);
            }
        }
    }

    @Test
    void despawnsTheExpiredInOneScopeSkippingOnesAlreadyGone() {
        try (World world = World.create(); ParallelLifetimeCountdown countdown = new ParallelLifetimeCountdown(2)) {
            List<Long> soon = new ArrayList<>();
            for (int i = 0; i < 40_000; i++) {
                long id = world.spawn(TTL.COMPONENT.of(new TTL(i % 2 == 0 ? 0.01 : 5)));
                if (i % 2 == 0) {
                    soon.add(id);
                }
            }
            Query query = query(world);
            assertEquals(20_000, countdown.countDown(query, STEP));
            assertEquals(soon, list(countdown.expiredCount(), countdown::expired));
            world.despawn(soon.get(123));
            world.defer();
            assertEquals(19_999, countdown.despawnExpired(world));
            assertTrue(world.isAlive(soon.get(0)), "held back by the enclosing scope");
            world.commit();
            assertTrue(soon.stream().noneMatch(world::isAlive));
            assertEquals(20_000, world.entityCount());
            assertEquals(0, countdown.despawnExpired(world), "the list was cleared");
        }
    }

    @Test
    void aWorkerFailureReachesTheCallerMarksWhatThePassMayHaveWrittenAndLeavesTheListEmpty() {
        double marker = 777.25;
        LifetimeOps failing = new LifetimeOps() {
            @Override
            public KernelMode mode() {
                return KernelMode.SCALAR;
            }

            @Override
            public int countdown(MemorySegment remaining, int count, double dt, double spentLimit, int[] rows) {
                for (int row = 0; row < count; row++) {
                    if (remaining.getAtIndex(ValueLayout.JAVA_DOUBLE, row) == marker) {
                        throw new IllegalStateException("marker at row " + row);
                    }
                }
                return LifetimeOps.SCALAR.countdown(remaining, count, dt, spentLimit, rows);
            }
        };
        ForkJoinPool pool = new ForkJoinPool(2);
        try (World world = lifetimes(3); ParallelLifetimeCountdown countdown =
                new ParallelLifetimeCountdown(failing, pool, 64)) {
            Query query = query(world);
            assertTrue(countdown.countDown(query, STEP * 40) > 0);
            world.forEachArchetype(Archetype::clearDirtyComponents);
            Archetype big = query.archetypes().get(4); // 20,000 rows
            double before = big.get(TTL.REMAINING).get(7_000);
            big.get(TTL.REMAINING).set(7_000, marker);
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> countdown.countDown(query, STEP));
            assertEquals("marker at row " + (7_000 % ChunkPlan.chunkRows(query.count(), 2, 64)), e.getMessage());
            assertEquals(0, countdown.expiredCount());
            assertEquals(0, countdown.despawnExpired(world));
            // the other chunks may have counted down: TTL is marked wherever the pass ran (issue 18, like defect 10)
            world.forEachArchetype(a -> assertEquals(query.archetypes().contains(a) && a.count() > 0,
                    a.isComponentDirty(TTL.COMPONENT), "marked after the failed pass: " + a));
            big.get(TTL.REMAINING).set(7_000, before);
            countdown.countDown(query, STEP);
            assertTrue(big.isComponentDirty(TTL.COMPONENT), "usable again");
        } finally {
            pool.shutdown();
        }
    }

    @Test
    void refusesAQueryWithoutTtlAnInfiniteStepAndRunsAfterClose() {
        TagComponent ember = ParallelWorlds.HOT;
        try (World world = World.create()) {
            ParallelLifetimeCountdown countdown = new ParallelLifetimeCountdown(1);
            Query embers = world.newQuery(QueryDescriptor.builder().include(ember).build());
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> countdown.countDown(embers, STEP));
            assertTrue(e.getMessage().contains("TTL"), e.getMessage());
            IllegalArgumentException dt = assertThrows(IllegalArgumentException.class,
                    () -> countdown.countDown(query(world), Double.NaN));
            assertTrue(dt.getMessage().contains("dt=NaN"), dt.getMessage());
            countdown.close();
            assertThrows(IllegalStateException.class, () -> countdown.countDown(query(world), STEP));
            assertThrows(IllegalArgumentException.class,
                    () -> new ParallelLifetimeCountdown(LifetimeOps.SCALAR, 2, 100));
        }
    }
}
