package dev.jtecs.kernels.parallel;

import static dev.jtecs.kernels.parallel.ParallelWorlds.DX;
import static dev.jtecs.kernels.parallel.ParallelWorlds.DY;
import static dev.jtecs.kernels.parallel.ParallelWorlds.POSITION;
import static dev.jtecs.kernels.parallel.ParallelWorlds.SIZES;
import static dev.jtecs.kernels.parallel.ParallelWorlds.VELOCITY;
import static dev.jtecs.kernels.parallel.ParallelWorlds.X;
import static dev.jtecs.kernels.parallel.ParallelWorlds.Y;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.component.FloatField;
import dev.jtecs.kernels.ColumnKernel;
import dev.jtecs.kernels.KernelColumns;
import dev.jtecs.kernels.KernelProvider;
import dev.jtecs.kernels.KernelRunner;
import dev.jtecs.kernels.MotionKernels;
import dev.jtecs.kernels.ParticleOps;
import dev.jtecs.kernels.WritePolicy;
import dev.jtecs.kernels.vector.VectorParticleOps;
import dev.jtecs.query.Query;
import dev.jtecs.query.QueryDescriptor;
import dev.jtecs.storage.Archetype;
import dev.jtecs.world.World;
import java.lang.foreign.MemorySegment;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;
import org.junit.jupiter.api.Test;

/**
 * The parallel runner gives the column bytes (padding included), the dirty marks and the return value of the
 * single-threaded {@link KernelRunner} for every thread count, hands workers aligned slices only, reports worker
 * failures by chunk order after marking what the chunks that ran may have written, and allocates nothing per pass
 * once warm.
 */
class ParallelKernelRunnerTest {
    private static final ParticleOps[] BOTH = {VectorParticleOps.INSTANCE, ParticleOps.SCALAR};
    private static final int MAX_THREADS = 8;

    /** A kernel that pauses at random before running {@code inner}, so chunks finish in a random order. */
    private static ColumnKernel jittered(ColumnKernel inner) {
        return new ColumnKernel() {
            @Override
            public KernelColumns columns() {
                return inner.columns();
            }

            @Override
            public boolean run(MemorySegment[] segments, int count, float dt) {
                ParallelWorlds.jitter();
                return inner.run(segments, count, dt);
            }

            @Override
            public String toString() {
                return "jittered " + inner;
            }
        };
    }

    private static List<ColumnKernel> kernels(ParticleOps ops) {
        return List.of(MotionKernels.integrate2d(ops, X, Y, DX, DY), MotionKernels.gravity(ops, DY, -9.81f),
                MotionKernels.damping(ops, DX, DY, 0.8f), MotionKernels.wrap(ops, X, -150f, 150f),
                MotionKernels.clamp(ops, Y, -190f, 190f));
    }

    /** Both worlds' archetypes hold the same bytes in every column, padding included, and the same dirty state. */
    private static void assertSameWorlds(World expected, World actual, String where) {
        List<Archetype> left = new ArrayList<>();
        List<Archetype> right = new ArrayList<>();
        expected.forEachArchetype(left::add);
        actual.forEachArchetype(right::add);
        assertEquals(left.size(), right.size(), where);
        for (int i = 0; i < left.size(); i++) {
            Archetype a = left.get(i);
            Archetype b = right.get(i);
            String at = where + " " + ParallelWorlds.describe(a);
            assertEquals(a.count(), b.count(), at);
            if (a.has(POSITION) && a.has(VELOCITY)) {
                for (FloatField field : List.of(X, Y, DX, DY)) {
                    MemorySegment sa = a.get(field).segment();
                    MemorySegment sb = b.get(field).segment();
                    assertEquals(-1, sa.mismatch(sb), at + " column " + field.name() + ": first differing byte");
                }
                assertEquals(a.writeCount(POSITION), b.writeCount(POSITION), at + " Position marks");
                assertEquals(a.writeCount(VELOCITY), b.writeCount(VELOCITY), at + " Velocity marks");
            }
            assertEquals(a.dirtyComponents(), b.dirtyComponents(), at + " dirty components");
        }
    }

    @Test
    void columnsDirtyMarksAndResultEqualKernelRunnerForEveryThreadCount() {
        long seed = ParallelWorlds.seed("columnsDirtyMarksAndResultEqualKernelRunnerForEveryThreadCount");
        List<ParallelKernelRunner> runners = new ArrayList<>();
        try (World single = ParallelWorlds.movers(seed, SIZES); World parallel = ParallelWorlds.movers(seed, SIZES)) {
            for (int threads = 1; threads <= MAX_THREADS; threads++) {
                runners.add(new ParallelKernelRunner(threads, 64));
            }
            Query q1 = ParallelWorlds.movers(single);
            Query q2 = ParallelWorlds.movers(parallel);
            KernelRunner reference = new KernelRunner();
            assertSameWorlds(single, parallel, "seed=" + seed + " before");
            for (int round = 0; round < 2; round++) {
                for (ParticleOps ops : BOTH) {
                    for (ColumnKernel kernel : kernels(ops)) {
                        for (ParallelKernelRunner runner : runners) {
                            String where = "seed=" + seed + " round=" + round + " " + kernel + " threads="
                                    + runner.parallelism();
                            single.forEachArchetype(Archetype::clearDirtyComponents);
                            parallel.forEachArchetype(Archetype::clearDirtyComponents);
                            int expected = reference.run(q1, kernel, 1f / 60f);
                            assertEquals(expected, runner.run(q2, jittered(kernel), 1f / 60f), where);
                            assertSameWorlds(single, parallel, where);
                        }
                    }
                }
            }
        } finally {
            runners.forEach(ParallelKernelRunner::close);
        }
    }

    @Test
    void conditionalKernelMarksAnArchetypeWhenAnyOneOfItsChunksChanged() {
        try (World world = ParallelWorlds.movers(7, new int[] {40_001, 3_000});
                ParallelKernelRunner runner = new ParallelKernelRunner(4, 64)) {
            Query movers = ParallelWorlds.movers(world);
            List<Archetype> matched = new ArrayList<>();
            movers.forEach((archetype, count) -> matched.add(archetype));
            Archetype big = matched.get(0);
            Archetype small = matched.get(1);
            ColumnKernel fence = MotionKernels.clamp(X, -1e35f, 1e35f); // only the specials are out of bounds
            runner.run(movers, fence, 0f);
            world.forEachArchetype(Archetype::clearDirtyComponents);
            assertEquals(0, runner.run(movers, fence, 0f), "nothing left to clamp");
            assertFalse(big.isComponentDirty(POSITION));
            big.get(X).set(20_000, Float.POSITIVE_INFINITY); // one row, in a middle chunk of the big archetype
            assertEquals(1, runner.run(movers, fence, 0f));
            assertTrue(big.isComponentDirty(POSITION));
            assertFalse(small.isComponentDirty(POSITION));
            assertEquals(1e35f, big.get(X).get(20_000));
        }
    }

    @Test
    void workersGetAlignedSlicesAndTheLastChunkReachesTheColumnEnd() {
        record Call(long address, long xBytes, long dxBytes, int count, Thread thread) {}
        ConcurrentLinkedQueue<Call> calls = new ConcurrentLinkedQueue<>();
        ColumnKernel probe = new ColumnKernel() {
            private final KernelColumns columns = KernelColumns.of(List.of(X), List.of(DX), WritePolicy.ALWAYS);

            @Override
            public KernelColumns columns() {
                return columns;
            }

            @Override
            public boolean run(MemorySegment[] segments, int count, float dt) {
                calls.add(new Call(segments[0].address(), segments[0].byteSize(), segments[1].byteSize(), count,
                        Thread.currentThread()));
                return true;
            }
        };
        try (World world = ParallelWorlds.movers(3, SIZES); ParallelKernelRunner runner = new ParallelKernelRunner(3, 64)) {
            Query movers = ParallelWorlds.movers(world);
            runner.run(movers, probe, 0f);
            int rows = 0;
            for (Call call : calls) {
                rows += call.count();
                assertEquals(0, call.address() % 64, call.toString());
                assertEquals(call.xBytes(), call.dxBytes(), "float columns sliced alike: " + call);
            }
            assertEquals(java.util.Arrays.stream(SIZES).sum(), rows, "every row once");
            List<Archetype> matched = new ArrayList<>();
            movers.forEach((archetype, count) -> matched.add(archetype));
            for (Archetype archetype : matched) {
                long base = archetype.get(X).segment().address();
                long end = base + archetype.get(X).segment().byteSize();
                int covered = 0;
                for (Call call : calls) {
                    if (call.address() >= base && call.address() < end) {
                        covered += call.count();
                        long firstRow = (call.address() - base) / Float.BYTES;
                        assertEquals(0, firstRow % 64, "first row " + firstRow);
                        boolean last = firstRow + call.count() == archetype.count();
                        assertEquals(last ? end : call.address() + (long) call.count() * Float.BYTES,
                                call.address() + call.xBytes(), "slice end of " + call + " last=" + last);
                    }
                }
                assertEquals(archetype.count(), covered, ParallelWorlds.describe(archetype));
            }
        }
    }

    @Test
    void aPassOfOneUnitRunsOnTheCallerAndALargerOneOnTheCallerAndAWorker() {
        Set<Thread> threads = java.util.concurrent.ConcurrentHashMap.newKeySet();
        Thread caller = Thread.currentThread();
        boolean[] inLargePass = {false};
        // in the large pass each thread's first chunk waits for the other's: both must claim units in that pass
        java.util.concurrent.CountDownLatch both = new java.util.concurrent.CountDownLatch(2);
        ColumnKernel probe = new ColumnKernel() {
            private final KernelColumns columns = KernelColumns.of(List.of(X), List.of(), WritePolicy.ALWAYS);

            @Override
            public KernelColumns columns() {
                return columns;
            }

            @Override
            public boolean run(MemorySegment[] segments, int count, float dt) {
                if (threads.add(Thread.currentThread()) && inLargePass[0]) {
                    both.countDown();
                    try {
                        assertTrue(both.await(30, java.util.concurrent.TimeUnit.SECONDS), "one thread ran alone");
                    } catch (InterruptedException e) {
                        throw new AssertionError(e);
                    }
                }
                return true;
            }
        };
        try (World small = ParallelWorlds.movers(1, new int[] {100, 200, 300});
                World large = ParallelWorlds.movers(1, new int[] {70_000});
                ParallelKernelRunner runner = new ParallelKernelRunner(2)) {
            runner.run(ParallelWorlds.movers(small), probe, 0f);
            assertEquals(Set.of(Thread.currentThread()), threads, "three small archetypes: one unit");
            threads.clear();
            inLargePass[0] = true;
            runner.run(ParallelWorlds.movers(large), probe, 0f);
            assertEquals(2, threads.size(), "two threads for a runner of two: " + threads);
            assertTrue(threads.contains(caller), "the caller drains units beside the worker: " + threads);
            assertTrue(threads.stream().filter(t -> t != caller)
                    .allMatch(t -> t.getName().startsWith("jtecs-kernels-")), threads.toString());
        }
    }

    /** A kernel that throws on the chunks holding rows whose x is {@code marker}. */
    private static ColumnKernel failingWhere(float marker, List<RuntimeException> thrown) {
        return new ColumnKernel() {
            private final KernelColumns columns = KernelColumns.of(List.of(DX), List.of(X), WritePolicy.ALWAYS);

            @Override
            public KernelColumns columns() {
                return columns;
            }

            @Override
            public boolean run(MemorySegment[] segments, int count, float dt) {
                ParallelWorlds.jitter();
                for (int row = 0; row < count; row++) {
                    if (segments[1].getAtIndex(java.lang.foreign.ValueLayout.JAVA_FLOAT, row) == marker) {
                        RuntimeException e = new IllegalStateException("row " + row + " of " + count);
                        thrown.add(e);
                        throw e;
                    }
                }
                return true;
            }
        };
    }

    @Test
    void aWorkerFailureReachesTheCallerFirstByChunkOrderAndWhatRanIsMarked() {
        try (World world = ParallelWorlds.movers(11, new int[] {64 * 64, 500});
                ParallelKernelRunner runner = new ParallelKernelRunner(4, 64)) {
            Query movers = ParallelWorlds.movers(world);
            List<Archetype> matched = new ArrayList<>();
            movers.forEach((archetype, count) -> matched.add(archetype));
            Archetype big = matched.get(0);
            float marker = 12345.5f;
            int chunkRows = ChunkPlan.chunkRows(64 * 64 + 500, 4, 64); // 512: the big archetype is 8 chunks
            assertEquals(512, chunkRows);
            // mark chunks 1, 4 and 6 of the big archetype; each is a unit of its own
            for (int row : new int[] {chunkRows + 7, 4 * chunkRows, 6 * chunkRows + chunkRows - 1}) {
                big.get(X).set(row, marker);
            }
            for (int attempt = 0; attempt < 5; attempt++) {
                List<RuntimeException> thrown = new CopyOnWriteArrayList<>();
                world.forEachArchetype(Archetype::clearDirtyComponents);
                IllegalStateException e = assertThrows(IllegalStateException.class,
                        () -> runner.run(movers, failingWhere(marker, thrown), 0f));
                assertEquals("row 7 of 512", e.getMessage(), "the first failing chunk, whoever finished first");
                assertEquals(3, thrown.size());
                assertEquals(2, e.getSuppressed().length);
                assertTrue(thrown.containsAll(List.of(e.getSuppressed())));
                for (Archetype archetype : matched) { // every chunk started: a failure stops only its own unit
                    assertEquals(List.of(VELOCITY), archetype.dirtyComponents(), "may have been written: " + archetype);
                }
            }
            assertEquals(2, runner.run(movers, MotionKernels.gravity(DY, 1f), 1f), "the runner is still usable");
            assertTrue(big.isComponentDirty(VELOCITY));
        }
    }

    /**
     * A kernel that sets {@code DX} of every row of its chunk to {@code written}, then throws when one of the chunk's
     * rows has x {@code marker}: the rows are written before the failure.
     */
    private static ColumnKernel writingThenFailingWhere(float marker, float written, WritePolicy policy) {
        return new ColumnKernel() {
            private final KernelColumns columns = KernelColumns.of(List.of(DX), List.of(X), policy);

            @Override
            public KernelColumns columns() {
                return columns;
            }

            @Override
            public boolean run(MemorySegment[] segments, int count, float dt) {
                ParallelWorlds.jitter();
                boolean fail = false;
                for (int row = 0; row < count; row++) {
                    segments[0].setAtIndex(java.lang.foreign.ValueLayout.JAVA_FLOAT, row, written);
                    fail |= segments[1].getAtIndex(java.lang.foreign.ValueLayout.JAVA_FLOAT, row) == marker;
                }
                if (fail) {
                    throw new IllegalStateException("wrote " + count + " rows, then failed");
                }
                return true;
            }
        };
    }

    // issue 18, defect 10
    @Test
    void aThrowingChunkMarksWhatTheKernelMayHaveWritten() {
        float marker = 12345.5f;
        float written = 777f;
        for (WritePolicy policy : WritePolicy.values()) {
            // several units on the workers: the failing chunk is the small archetype's, the others all complete
            try (World world = ParallelWorlds.movers(13, new int[] {64 * 64, 500, 700});
                    ParallelKernelRunner runner = new ParallelKernelRunner(4, 64)) {
                Query movers = ParallelWorlds.movers(world);
                List<Archetype> matched = new ArrayList<>();
                movers.forEach((archetype, count) -> matched.add(archetype));
                matched.get(1).get(X).set(123, marker);
                List<MemorySegment> before = new ArrayList<>();
                for (Archetype archetype : matched) {
                    before.add(MemorySegment.ofArray(archetype.get(DX).segment().toArray(
                            java.lang.foreign.ValueLayout.JAVA_BYTE)));
                }
                assertThrows(IllegalStateException.class,
                        () -> runner.run(movers, writingThenFailingWhere(marker, written, policy), 0f));
                for (int i = 0; i < matched.size(); i++) {
                    Archetype archetype = matched.get(i);
                    boolean changed = before.get(i).mismatch(archetype.get(DX).segment()) != -1;
                    assertTrue(changed, policy + ": every chunk started and wrote: " + archetype);
                    assertTrue(archetype.isComponentDirty(VELOCITY), policy + ": written, so dirty: " + archetype);
                    assertFalse(archetype.isComponentDirty(POSITION), policy + ": only read: " + archetype);
                }
                assertEquals(written, matched.get(1).get(DX).get(0), "the failing chunk wrote before it threw");
            }
            // one unit on the calling thread: the failure in the first chunk stops the two after it from starting
            try (World world = ParallelWorlds.movers(17, new int[] {100, 100, 100});
                    ParallelKernelRunner runner = new ParallelKernelRunner(4, 1_024)) {
                Query movers = ParallelWorlds.movers(world);
                List<Archetype> matched = new ArrayList<>();
                movers.forEach((archetype, count) -> matched.add(archetype));
                matched.get(0).get(X).set(99, marker);
                assertThrows(IllegalStateException.class,
                        () -> runner.run(movers, writingThenFailingWhere(marker, written, policy), 0f));
                assertEquals(written, matched.get(0).get(DX).get(0));
                assertTrue(matched.get(0).isComponentDirty(VELOCITY), policy + ": the failing chunk wrote");
                for (Archetype never : matched.subList(1, 3)) {
                    assertTrue(never.get(DX).get(0) != written, policy + ": never started");
                    assertEquals(List.of(), never.dirtyComponents(), policy + ": never started, never marked");
                }
                assertEquals(3, runner.run(movers, MotionKernels.gravity(DY, 1f), 1f), "still usable");
            }
        }
    }

    @Test
    void aKernelThatCallsItsRunnerFailsAndLeavesItUsable() {
        try (World world = ParallelWorlds.movers(2, new int[] {30_000, 10});
                ParallelKernelRunner runner = new ParallelKernelRunner(2, 64)) {
            Query movers = ParallelWorlds.movers(world);
            ColumnKernel inner = MotionKernels.gravity(DY, 1f);
            ColumnKernel outer = new ColumnKernel() {
                private final KernelColumns columns = KernelColumns.of(List.of(DX), List.of(), WritePolicy.ALWAYS);

                @Override
                public KernelColumns columns() {
                    return columns;
                }

                @Override
                public boolean run(MemorySegment[] segments, int count, float dt) {
                    runner.run(movers, inner, dt);
                    return true;
                }
            };
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> runner.run(movers, outer, 1f));
            assertTrue(e.getMessage().contains("already running"), e.getMessage());
            assertEquals(2, runner.run(movers, inner, 1f));
        }
    }

    @Test
    void theQueryMustIncludeEveryColumnAndBelongToTheWorld() {
        try (World world = ParallelWorlds.movers(5, new int[] {100}); World other = World.create();
                ParallelKernelRunner runner = new ParallelKernelRunner(ForkJoinPool.commonPool())) {
            Query positions = world.newQuery(QueryDescriptor.builder().include(POSITION).build());
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> runner.run(positions, MotionKernels.integrate2d(X, Y, DX, DY), 1f));
            assertTrue(e.getMessage().contains("kernels.test.par.Velocity"), e.getMessage());
            world.forEachArchetype(a -> assertEquals(List.of(), a.dirtyComponents(), "nothing ran"));
            CommandKernel noop = new CommandKernel() {
                private final KernelColumns columns = KernelColumns.of(List.of(X), List.of(), WritePolicy.WHEN_CHANGED);

                @Override
                public KernelColumns columns() {
                    return columns;
                }

                @Override
                public boolean run(MemorySegment[] segments, int count, float dt, ChunkCommands commands) {
                    return false;
                }
            };
            assertThrows(IllegalArgumentException.class, () -> runner.run(other, ParallelWorlds.movers(world), noop, 1f));
        }
    }

    @Test
    void refusesBadThreadCountsAndChunkSizes() {
        IllegalArgumentException threads = assertThrows(IllegalArgumentException.class,
                () -> new ParallelKernelRunner(0));
        assertTrue(threads.getMessage().contains("threads=0"), threads.getMessage());
        for (int rows : new int[] {0, -64, 63, 100}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> new ParallelKernelRunner(ForkJoinPool.commonPool(), rows));
            assertTrue(e.getMessage().contains("minChunkRows=" + rows), e.getMessage());
        }
        assertThrows(NullPointerException.class, () -> new ParallelKernelRunner(null));
    }

    @Test
    void closeShutsDownItsOwnPoolOnlyAndLaterRunsAreRefused() {
        List<ForkJoinWorkerThread> made = new CopyOnWriteArrayList<>();
        ForkJoinPool borrowed = new ForkJoinPool(2, pool -> {
            ForkJoinWorkerThread thread = ForkJoinPool.defaultForkJoinWorkerThreadFactory.newThread(pool);
            made.add(thread);
            return thread;
        }, null, false);
        try (World world = ParallelWorlds.movers(4, new int[] {100})) {
            Query movers = ParallelWorlds.movers(world);
            ParallelKernelRunner lender = new ParallelKernelRunner(borrowed);
            lender.close();
            lender.close();
            assertFalse(borrowed.isShutdown(), "a borrowed pool keeps running");
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> lender.run(movers, MotionKernels.gravity(DY, 1f), 1f));
            assertTrue(e.getMessage().contains("closed"), e.getMessage());
            ParallelKernelRunner owner = new ParallelKernelRunner(2);
            assertEquals(1, owner.run(movers, MotionKernels.gravity(DY, 1f), 1f));
            owner.close();
            assertThrows(IllegalStateException.class, () -> owner.run(movers, MotionKernels.gravity(DY, 1f), 1f));
        } finally {
            borrowed.shutdown();
        }
    }

    @Test
    void aPassAllocatesNothingOnceWarm() throws Exception {
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        List<Thread> workers = new CopyOnWriteArrayList<>();
        workers.add(Thread.currentThread());
        ForkJoinPool pool = new ForkJoinPool(2, p -> {
            ForkJoinWorkerThread thread = ForkJoinPool.defaultForkJoinWorkerThreadFactory.newThread(p);
            workers.add(thread);
            return thread;
        }, null, false);
        try (World world = ParallelWorlds.movers(9, new int[] {20_000, 3_000, 64, 700, 9_000})) {
            Query movers = ParallelWorlds.movers(world);
            ParallelKernelRunner runner = new ParallelKernelRunner(pool, 1024);
            List<ColumnKernel> kernels = kernels(KernelProvider.particles());
            long best = Long.MAX_VALUE;
            long deadline = System.nanoTime() + 20_000_000_000L; // vector code allocates until C2 compiles it
            for (int round = 0; best > 0 && (round < 40 || System.nanoTime() < deadline); round++) {
                long before = allocated(threads, workers);
                for (int i = 0; i < 500; i++) {
                    runner.run(movers, kernels.get(i % kernels.size()), 1f / 60f);
                }
                best = Math.min(best, allocated(threads, workers) - before);
            }
            assertEquals(0, best, "bytes allocated by 500 passes (caller and workers) in the best round");
        } finally {
            pool.shutdown();
        }
    }

    private static long allocated(com.sun.management.ThreadMXBean bean, List<Thread> threads) {
        long total = 0;
        for (int i = 0; i < threads.size(); i++) { // indexed: an iterator would be counted as the pass's
            total += Math.max(0, bean.getThreadAllocatedBytes(threads.get(i).threadId()));
        }
        return total;
    }

    record Mixed(double d, int i, byte b) {}

    static final dev.jtecs.component.NativeComponent<Mixed> MIXED = dev.jtecs.component.Components.registerNative(
            Mixed.class, o -> o.name("kernels.test.par.Mixed"));

    @Test
    void eachColumnIsSlicedByItsOwnElementSize() {
        record Call(MemorySegment d, MemorySegment i, MemorySegment b, int count) {}
        ConcurrentLinkedQueue<Call> calls = new ConcurrentLinkedQueue<>();
        ColumnKernel probe = new ColumnKernel() {
            private final KernelColumns columns = KernelColumns.of(List.of(MIXED.doubleField("d"),
                    MIXED.intField("i")), List.of(MIXED.byteField("b")), WritePolicy.ALWAYS);

            @Override
            public KernelColumns columns() {
                return columns;
            }

            @Override
            public boolean run(MemorySegment[] segments, int count, float dt) {
                calls.add(new Call(segments[0], segments[1], segments[2], count));
                for (int row = 0; row < count; row++) { // d and i count their rows, from b's value
                    byte b = segments[2].get(java.lang.foreign.ValueLayout.JAVA_BYTE, row);
                    segments[0].setAtIndex(java.lang.foreign.ValueLayout.JAVA_DOUBLE, row, b);
                    segments[1].setAtIndex(java.lang.foreign.ValueLayout.JAVA_INT, row, b * 2);
                }
                return true;
            }
        };
        try (World world = World.create(); ParallelKernelRunner runner = new ParallelKernelRunner(2, 64)) {
            int rows = 5_000;
            for (int n = 0; n < rows; n++) {
                world.spawn(MIXED.of(new Mixed(0, 0, (byte) n)));
            }
            Query mixed = world.newQuery(QueryDescriptor.builder().include(MIXED).build());
            runner.run(mixed, probe, 0f);
            assertTrue(calls.size() > 1, "split: " + calls.size() + " chunks");
            Archetype archetype = mixed.archetypes().get(0);
            MemorySegment d = archetype.get(MIXED.doubleField("d")).segment();
            MemorySegment i = archetype.get(MIXED.intField("i")).segment();
            MemorySegment b = archetype.get(MIXED.byteField("b")).segment();
            for (Call call : calls) {
                long firstRow = call.b().address() - b.address();
                assertEquals(0, firstRow % 64, call.toString());
                assertEquals(d.address() + firstRow * Double.BYTES, call.d().address(), call.toString());
                assertEquals(i.address() + firstRow * Integer.BYTES, call.i().address(), call.toString());
                boolean last = firstRow + call.count() == rows;
                assertEquals(last ? d.byteSize() - firstRow * Double.BYTES : call.count() * (long) Double.BYTES,
                        call.d().byteSize(), call.toString());
                assertEquals(last ? i.byteSize() - firstRow * Integer.BYTES : call.count() * (long) Integer.BYTES,
                        call.i().byteSize(), call.toString());
                assertEquals(last ? b.byteSize() - firstRow : call.count(), call.b().byteSize(), call.toString());
            }
            for (int row = 0; row < rows; row++) {
                Mixed value = archetype.getValue(row, MIXED);
                assertEquals(value.b(), value.d(), "row " + row);
                assertEquals(value.b() * 2, value.i(), "row " + row);
            }
        }
    }
}
