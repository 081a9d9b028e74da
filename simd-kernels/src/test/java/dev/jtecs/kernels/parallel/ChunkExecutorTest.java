package dev.jtecs.kernels.parallel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.kernels.KernelColumns;
import dev.jtecs.kernels.WritePolicy;
import dev.jtecs.query.Query;
import dev.jtecs.world.World;
import java.io.IOException;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;

/**
 * The executor runs every chunk exactly once across its threads and returns only when all have run; it reports
 * the first failure by chunk order, runs on the caller when there is one unit or the caller is its own worker,
 * keeps the caller's interrupt status, and owns or borrows its pool.
 */
class ChunkExecutorTest {
    private static final KernelColumns X_ONLY =
            KernelColumns.of(List.of(ParallelWorlds.X), List.of(), WritePolicy.ALWAYS);

    /** A plan of 64-row chunks, each a unit of its own (cut as for 16 threads, whatever the executor has). */
    private static ChunkPlan plan(World world) {
        Query movers = ParallelWorlds.movers(world);
        ChunkPlan plan = new ChunkPlan();
        plan.gather(movers, X_ONLY);
        plan.cut(16, 64);
        assertEquals(64, plan.chunkRows());
        assertEquals(plan.chunkCount(), plan.unitCount());
        return plan;
    }

    @Test
    void runsEveryChunkExactlyOnceAndReturnsWhenAllHaveRun() {
        try (World world = ParallelWorlds.movers(1, new int[] {40 * 64 + 40})) {
            for (int threads = 1; threads <= 8; threads++) {
                try (ChunkExecutor executor = new ChunkExecutor(threads)) {
                    ChunkPlan plan = plan(world);
                    assertEquals(41, plan.chunkCount());
                    for (int pass = 0; pass < 20; pass++) {
                        AtomicIntegerArray runs = new AtomicIntegerArray(plan.chunkCount());
                        executor.run(plan, (chunk, worker) -> {
                            ParallelWorlds.jitter();
                            runs.incrementAndGet(indexOf(plan, chunk));
                            return chunk.count == 40;
                        });
                        for (int c = 0; c < plan.chunkCount(); c++) {
                            assertEquals(1, runs.get(c), "threads=" + threads + " pass " + pass + " chunk " + c);
                            assertEquals(c == 40, plan.chunk(c).changed, "changed is the body's answer");
                        }
                    }
                }
            }
        }
    }

    private static int indexOf(ChunkPlan plan, ChunkPlan.Chunk chunk) {
        for (int c = 0; c < plan.chunkCount(); c++) {
            if (plan.chunk(c) == chunk) {
                return c;
            }
        }
        throw new AssertionError("not a chunk of the plan");
    }

    @Test
    void workerSlotsAreDistinctPerThreadAndTheCallerHasTheLast() {
        try (World world = ParallelWorlds.movers(2, new int[] {64 * 64});
                ChunkExecutor executor = new ChunkExecutor(3)) {
            ChunkPlan plan = plan(world);
            assertEquals(4, executor.workerSlots());
            ConcurrentHashMap<Integer, Set<Thread>> threadsBySlot = new ConcurrentHashMap<>();
            for (int pass = 0; pass < 50; pass++) {
                executor.run(plan, (chunk, worker) -> {
                    threadsBySlot.computeIfAbsent(worker, w -> ConcurrentHashMap.newKeySet())
                            .add(Thread.currentThread());
                    ParallelWorlds.jitter();
                    return true;
                });
            }
            threadsBySlot.forEach((slot, threads) -> {
                if (slot == 3) {
                    assertEquals(Set.of(Thread.currentThread()), threads, "the caller's slot is the last");
                } else {
                    assertTrue(slot >= 0 && slot < 2, "a pool of 3 lends 2 workers beside the caller: slot " + slot);
                    assertFalse(threads.contains(Thread.currentThread()));
                }
            });
            ChunkPlan one = new ChunkPlan();
            try (World small = ParallelWorlds.movers(2, new int[] {10})) {
                one.gather(ParallelWorlds.movers(small), X_ONLY);
                one.cut(3, 64);
                int[] slot = {-1};
                executor.run(one, (chunk, worker) -> {
                    slot[0] = worker;
                    return true;
                });
                assertEquals(3, slot[0], "one unit: the caller, in the last slot");
            }
        }
    }

    @Test
    void theCallerDrainsUnitsBesideTheWorkers() throws InterruptedException {
        try (World world = ParallelWorlds.movers(1, new int[] {64 * 64});
                ChunkExecutor executor = new ChunkExecutor(2)) {
            ChunkPlan plan = plan(world);
            Thread caller = Thread.currentThread();
            // each thread's first unit waits for the other's: passes only when both claim units in one pass
            java.util.concurrent.CountDownLatch both = new java.util.concurrent.CountDownLatch(2);
            Set<Thread> threads = ConcurrentHashMap.newKeySet();
            executor.run(plan, (chunk, worker) -> {
                if (threads.add(Thread.currentThread())) {
                    both.countDown();
                    assertTrue(both.await(30, TimeUnit.SECONDS), "one thread ran units alone: " + threads);
                }
                return true;
            });
            assertEquals(2, threads.size(), "the caller and the pool's one other worker: " + threads);
            assertTrue(threads.contains(caller), "the caller runs units itself instead of only waiting");
        }
    }

    @Test
    void theFirstFailureByChunkOrderIsThrownWithTheOthersSuppressed() {
        try (World world = ParallelWorlds.movers(3, new int[] {40 * 64 + 40});
                ChunkExecutor executor = new ChunkExecutor(4)) {
            ChunkPlan plan = plan(world);
            RuntimeException[] made = new RuntimeException[plan.chunkCount()];
            for (int attempt = 0; attempt < 10; attempt++) {
                executor.run(plan, (chunk, worker) -> true);
                IllegalStateException thrown = assertThrows(IllegalStateException.class,
                        () -> executor.run(plan, (chunk, worker) -> {
                            int index = indexOf(plan, chunk);
                            ParallelWorlds.jitter();
                            if (index % 10 == 7) { // chunks 7, 17, 27, 37
                                throw made[index] = new IllegalStateException("chunk " + index);
                            }
                            return true;
                        }));
                assertSame(made[7], thrown);
                assertEquals(Set.of(made[17], made[27], made[37]), Set.of(thrown.getSuppressed()));
                for (int c = 0; c < plan.chunkCount(); c++) {
                    assertEquals(null, plan.chunk(c).failure, "failures are cleared for the next pass");
                }
            }
        }
    }

    @Test
    void aCheckedExceptionIsWrappedAndAnErrorPassesThrough() {
        try (World world = ParallelWorlds.movers(4, new int[] {64 * 8});
                ChunkExecutor executor = new ChunkExecutor(2)) {
            ChunkPlan plan = plan(world);
            IllegalStateException wrapped = assertThrows(IllegalStateException.class,
                    () -> executor.run(plan, (chunk, worker) -> {
                        throw new IOException("disk");
                    }));
            assertInstanceOf(IOException.class, wrapped.getCause());
            assertThrows(StackOverflowError.class, () -> executor.run(plan, (chunk, worker) -> {
                throw new StackOverflowError("deep");
            }));
        }
    }

    @Test
    void aCallFromAWorkerOfTheSamePoolRunsOnThatWorker() throws Exception {
        ForkJoinPool pool = new ForkJoinPool(1);
        try (World world = ParallelWorlds.movers(5, new int[] {64 * 16});
                ChunkExecutor executor = new ChunkExecutor(pool)) {
            ChunkPlan plan = plan(world);
            assertTrue(plan.unitCount() > 1);
            Set<Thread> ran = ConcurrentHashMap.newKeySet();
            Thread worker = pool.submit(() -> {
                executor.run(plan, (chunk, slot) -> ran.add(Thread.currentThread())); // a single worker: no deadlock
                return Thread.currentThread();
            }).get(30, TimeUnit.SECONDS);
            assertEquals(Set.of(worker), ran);
        } finally {
            pool.shutdown();
        }
    }

    @Test
    void theCallerKeepsItsInterruptStatusAndStillWaitsForEveryChunk() {
        try (World world = ParallelWorlds.movers(6, new int[] {64 * 32});
                ChunkExecutor executor = new ChunkExecutor(2)) {
            ChunkPlan plan = plan(world);
            AtomicIntegerArray runs = new AtomicIntegerArray(plan.chunkCount());
            Thread.currentThread().interrupt();
            executor.run(plan, (chunk, worker) -> {
                java.util.concurrent.locks.LockSupport.parkNanos(200_000);
                runs.incrementAndGet(indexOf(plan, chunk));
                return true;
            });
            assertTrue(Thread.interrupted(), "the interrupt is kept (and cleared here)");
            for (int c = 0; c < plan.chunkCount(); c++) {
                assertEquals(1, runs.get(c), "chunk " + c);
            }
        }
    }

    @Test
    void anOwnedPoolIsShutDownOnCloseABorrowedOneIsNotAndAClosedExecutorRefuses() {
        ForkJoinPool borrowed = new ForkJoinPool(2);
        try (World world = ParallelWorlds.movers(7, new int[] {64 * 8})) {
            ChunkPlan plan = plan(world);
            ChunkExecutor lender = new ChunkExecutor(borrowed);
            lender.close();
            assertFalse(borrowed.isShutdown());
            ChunkExecutor owner = new ChunkExecutor(2);
            ForkJoinPool own = owner.pool();
            owner.close();
            assertTrue(own.isShutdown());
            for (ChunkExecutor closed : List.of(lender, owner)) {
                IllegalStateException e = assertThrows(IllegalStateException.class,
                        () -> closed.run(plan, (chunk, worker) -> true));
                assertTrue(e.getMessage().contains("closed"), e.getMessage());
            }
            ChunkExecutor onShutDown = new ChunkExecutor(borrowed);
            borrowed.shutdown();
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> onShutDown.run(plan, (chunk, worker) -> true));
            assertTrue(e.getMessage().contains("shut down"), e.getMessage());
        } finally {
            borrowed.shutdown();
        }
        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class, () -> new ChunkExecutor(40_000));
        assertTrue(bad.getMessage().contains("threads=40000"), bad.getMessage());
    }
}
