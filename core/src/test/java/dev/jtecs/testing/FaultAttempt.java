package dev.jtecs.testing;

import dev.jtecs.entity.internal.AllocationFaults;

/**
 * One attempt of an allocation-failure sweep: runs an operation with its {@code k}-th allocation of one kind
 * failing, and says what became of the fault. A sweep over {@code k} ends at {@link Outcome#UNSPENT} only
 * (docs/testing.md, "Allocation-failure sweeps in the unit tests"): ending at the first attempt that does not throw
 * would stop at the first growth whose failure is let go, short of those after it.
 */
public final class FaultAttempt {
    private FaultAttempt() {}

    /** What became of the fault an attempt armed. */
    public enum Outcome {
        /** The operation failed with it. */
        FAILED,
        /**
         * It fired on a growth whose failure is let go (a table's column views, made again when next read), and the
         * operation went through: the sweep goes on, since the growths after it did not fail.
         */
        LET_GO,
        /** The operation made fewer than {@code k} allocations: every one of them has been failed in turn. */
        UNSPENT
    }

    /**
     * Runs {@code operation} with the {@code k}-th allocation of {@code kind} on this thread failing, then disarms.
     * A real exhaustion (not the injected failure) propagates.
     */
    public static Outcome run(AllocationFaults.Kind kind, int k, Runnable operation) {
        AllocationFaults.failAt(kind, k);
        try {
            operation.run();
            return AllocationFaults.armed(kind) ? Outcome.UNSPENT : Outcome.LET_GO; // read before disarm clears it
        } catch (OutOfMemoryError e) {
            if (!AllocationFaults.isInjected(e)) {
                throw e;
            }
            return Outcome.FAILED;
        } finally {
            AllocationFaults.disarm();
        }
    }
}
