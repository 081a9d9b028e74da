package dev.jtecs.entity.internal;

/**
 * Fault injection for the engine's own allocations: tests make the k-th native buffer allocation, or the k-th
 * growth of one of the engine's heap arrays, throw {@link OutOfMemoryError} as a real exhaustion would, and then
 * check that the world is as before the operation (or in its documented state) and keeps working.
 *
 * <p>Off unless the JVM runs with {@code -Djtecs.allocationFaults=true} (every test run sets it): {@link #ENABLED}
 * is a {@code static final}, so with the property off the JIT folds every check away and the engine pays
 * nothing. With it on, each check is one thread-local read. Arming is per thread, so tests that run side by side
 * on other threads never see each other's faults; work a world hands to worker threads allocates nothing.
 *
 * <p>Where the checks sit: {@code NativeMemory.allocate} before it changes anything ({@link #beforeNative}), and
 * {@link Growth}, the one place the engine grows its heap arrays ({@link #beforeHeapGrowth}). Every place that
 * can throw there must leave its structure as it was: the allocation comes before any state changes.
 */
public final class AllocationFaults {
    /** Whether the checks are compiled in: {@code -Djtecs.allocationFaults=true}. */
    public static final boolean ENABLED = Boolean.getBoolean("jtecs.allocationFaults");

    /** What can be made to fail. */
    public enum Kind {
        /** A native buffer (a column, an entity column, a snapshot buffer). */
        NATIVE,
        /** The growth of one of the engine's heap arrays (indexes, queues, staged rows, heap columns). */
        HEAP
    }

    /** The failure this class injects: an {@link OutOfMemoryError} like a real one, told apart by its class. */
    private static final class Injected extends OutOfMemoryError {
        private static final long serialVersionUID = 1L;

        Injected(String message) {
            super(message);
        }
    }

    private static final ThreadLocal<Counters> COUNTERS = ThreadLocal.withInitial(Counters::new);

    private static final class Counters {
        final long[] seen = new long[2];
        final long[] failAt = {-1, -1};
        final long[] injected = new long[2];
    }

    private AllocationFaults() {}

    /** Called before a native allocation of {@code bytes}; throws when this one is armed. */
    public static void beforeNative(long bytes) {
        if (ENABLED) {
            check(Kind.NATIVE, bytes);
        }
    }

    /** Called before the engine grows a heap array to {@code length} elements; throws when this one is armed. */
    public static void beforeHeapGrowth(int length) {
        if (ENABLED) {
            check(Kind.HEAP, length);
        }
    }

    private static void check(Kind kind, long size) {
        Counters c = COUNTERS.get();
        int k = kind.ordinal();
        long n = ++c.seen[k];
        if (n == c.failAt[k]) {
            c.failAt[k] = -1;
            c.injected[k]++;
            throw new Injected("injected " + kind.name().toLowerCase(java.util.Locale.ROOT)
                    + " allocation #" + n + " (" + size + (kind == Kind.NATIVE ? " bytes)" : " elements)"));
        }
    }

    /**
     * Makes the {@code k}-th allocation of {@code kind} on this thread from now on (1 = the next one) throw
     * {@link OutOfMemoryError}, once; resets this thread's count of that kind.
     *
     * @throws IllegalStateException when the checks are not compiled in (the property is off)
     */
    public static void failAt(Kind kind, long k) {
        requireEnabled();
        if (k < 1) {
            throw new IllegalArgumentException("k=" + k + " must be at least 1");
        }
        Counters c = COUNTERS.get();
        c.seen[kind.ordinal()] = 0;
        c.failAt[kind.ordinal()] = k;
    }

    /** Disarms both kinds on this thread and restarts their counts (what was injected stays counted). */
    public static void disarm() {
        requireEnabled();
        Counters c = COUNTERS.get();
        c.seen[0] = c.seen[1] = 0;
        c.failAt[0] = c.failAt[1] = -1;
    }

    /** Allocations of {@code kind} this thread made since it was last armed or disarmed. */
    public static long seen(Kind kind) {
        requireEnabled();
        return COUNTERS.get().seen[kind.ordinal()];
    }

    /** Faults of {@code kind} injected on this thread so far. */
    public static long injected(Kind kind) {
        requireEnabled();
        return COUNTERS.get().injected[kind.ordinal()];
    }

    /** Whether a fault of {@code kind} is armed on this thread and has not fired yet. */
    public static boolean armed(Kind kind) {
        requireEnabled();
        return COUNTERS.get().failAt[kind.ordinal()] >= 0;
    }

    /**
     * Whether {@code failure} is one this class injected (an {@link OutOfMemoryError} it threw), not a real
     * exhaustion: what lets the fault runs and the test harness tell an injected failure from a real one.
     */
    public static boolean isInjected(Throwable failure) {
        return failure instanceof Injected;
    }

    private static void requireEnabled() {
        if (!ENABLED) {
            throw new IllegalStateException("allocation faults are off: run with -Djtecs.allocationFaults=true");
        }
    }
}
