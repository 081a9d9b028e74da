package dev.jtecs.testing;

import java.lang.management.ManagementFactory;

/** Measures what this thread allocates while a world runs frames, or while one action runs. */
public final class Allocations {
    private Allocations() {}

    /**
     * The fewest bytes this thread allocated in any of {@code tries} runs of {@code action}: the least of several,
     * so class loading and compilation in the first runs do not count.
     */
    public static long fewestBytes(int tries, Runnable action) {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long thread = Thread.currentThread().threadId();
        long best = Long.MAX_VALUE;
        for (int i = 0; i < tries; i++) {
            long before = threads.getThreadAllocatedBytes(thread);
            action.run();
            best = Math.min(best, threads.getThreadAllocatedBytes(thread) - before);
        }
        return best;
    }

    /**
     * The fewest bytes this thread allocated in any of {@code windows} windows of {@code framesPerWindow} calls
     * of {@code frame}, after {@code warmFrames} unmeasured calls. The best window, not the last one: while C2
     * is still compiling and deoptimizing, an occasional window pays for objects it rematerializes when it
     * falls back to the interpreter (seen here: a few hundred bytes in windows 2 to 5, none with C1 alone), so
     * a steady state is one window that allocates nothing.
     */
    public static long quietestWindow(Runnable frame, int warmFrames, int framesPerWindow, int windows) {
        for (int i = 0; i < warmFrames; i++) {
            frame.run();
        }
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long thread = Thread.currentThread().threadId();
        long best = Long.MAX_VALUE;
        for (int w = 0; w < windows && best > 0; w++) {
            long before = threads.getThreadAllocatedBytes(thread);
            for (int i = 0; i < framesPerWindow; i++) {
                frame.run();
            }
            best = Math.min(best, threads.getThreadAllocatedBytes(thread) - before);
        }
        return best;
    }
}
