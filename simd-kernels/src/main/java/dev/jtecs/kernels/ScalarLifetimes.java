package dev.jtecs.kernels;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The scalar twin of the lifetime countdown over a native {@code double} column ({@code TTL.remaining}): the
 * specification {@link LifetimeKernels#countdown} matches bit for bit, and the rule the builtin TTL system
 * follows. Never touches {@code jdk.incubator.vector}.
 */
public final class ScalarLifetimes {
    private static final ValueLayout.OfDouble DOUBLE = ValueLayout.JAVA_DOUBLE;

    private ScalarLifetimes() {}

    /**
     * For rows {@code [from, to)}: {@code remaining -= dt}, and a row whose result is {@code <= spentLimit} is
     * appended to {@code expiredRows} at index {@code expired} onward, in ascending order. NaN never expires.
     *
     * @return {@code expired} plus the number of rows appended
     */
    public static int countdown(MemorySegment remaining, int from, int to, double dt, double spentLimit,
            int[] expiredRows, int expired) {
        for (int row = from; row < to; row++) {
            double left = remaining.getAtIndex(DOUBLE, row) - dt;
            remaining.setAtIndex(DOUBLE, row, left);
            if (left <= spentLimit) {
                expiredRows[expired++] = row;
            }
        }
        return expired;
    }
}
