package dev.jtecs.bench.frame;

import java.lang.management.ManagementFactory;
import java.util.function.IntConsumer;

/**
 * Test support: the heap a workload's warm frame allocates. Runs {@value #WARM_UP} frames, then windows of
 * {@value #PER_WINDOW} frames, and answers the quietest window's bytes per frame: a JIT deoptimization can allocate
 * now and then, so one window is not evidence. It stops at the first window that allocated nothing, after at most
 * {@value #WINDOWS}; while every window so far allocated, it goes on for up to {@value #SETTLE_NANOS} ns more. On a
 * loaded two-core machine, late in a test JVM, the compiler's queue can hold a vector kernel back for longer than the
 * first windows take, and a kernel that is not compiled yet allocates its vectors (one CI run saw 6,720 bytes a frame
 * in every one of the 20 windows of the transforms frame, which passed in every run alone and in the module since).
 * A per-frame object shows as a few bytes a frame; per-entity garbage as kilobytes; neither goes away with time.
 */
public final class WarmFrameAllocation {
    static final int WARM_UP = 300;
    static final int PER_WINDOW = 50;
    static final int WINDOWS = 20;
    static final long SETTLE_NANOS = 10_000_000_000L;

    private WarmFrameAllocation() {}

    /**
     * The quietest window's bytes per frame of {@code frame}, counted on the calling thread, or on every thread of
     * the JVM when {@code allThreads} (a frame that hands work to pool workers).
     */
    public static double quietest(Runnable frame, boolean allThreads) {
        return quietest(frame, allThreads, () -> { }, frames -> { });
    }

    /**
     * {@link #quietest(Runnable, boolean)}, with {@code beforeWindow} run before each window and {@code afterWindow}
     * after it (given the window's frame count), both outside the count: for checks that the window did its work.
     */
    public static double quietest(Runnable frame, boolean allThreads, Runnable beforeWindow, IntConsumer afterWindow) {
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        for (int i = 0; i < WARM_UP; i++) {
            frame.run();
        }
        double best = Double.MAX_VALUE;
        long settleBy = Long.MAX_VALUE; // set once the first WINDOWS windows have all allocated
        for (int window = 0; best > 0 && (window < WINDOWS || System.nanoTime() < settleBy); window++) {
            if (window == WINDOWS) {
                settleBy = System.nanoTime() + SETTLE_NANOS;
            }
            beforeWindow.run();
            long before = allThreads ? threads.getTotalThreadAllocatedBytes() : threads.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < PER_WINDOW; i++) {
                frame.run();
            }
            long after = allThreads ? threads.getTotalThreadAllocatedBytes() : threads.getCurrentThreadAllocatedBytes();
            best = Math.min(best, (after - before) / (double) PER_WINDOW);
            afterWindow.accept(PER_WINDOW);
        }
        return best;
    }
}
