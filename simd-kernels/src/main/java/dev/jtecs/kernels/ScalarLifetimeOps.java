package dev.jtecs.kernels;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * {@link LifetimeOps} by the scalar twin of the lifetime countdown over a native {@code double} column
 * ({@code TTL.remaining}): the specification the vector twin matches bit for bit, and the rule the builtin TTL
 * system follows. The interface method checks its arguments and runs rows {@code [0, count)} with the static
 * {@link #countdown(MemorySegment, int, int, double, double, int[], int)}. Never touches
 * {@code jdk.incubator.vector}. {@link LifetimeOps#SCALAR} is its one instance.
 */
public final class ScalarLifetimeOps implements LifetimeOps {
    private static final ValueLayout.OfDouble DOUBLE = ValueLayout.JAVA_DOUBLE;

    ScalarLifetimeOps() {}

    @Override
    public KernelMode mode() {
        return KernelMode.SCALAR;
    }

    @Override
    public int countdown(MemorySegment remaining, int count, double dt, double spentLimit, int[] expiredRows) {
        if (count < 0 || (long) count * Double.BYTES > remaining.byteSize() || expiredRows.length < count) {
            throw new IllegalArgumentException("count=" + count + " byteSize=" + remaining.byteSize()
                    + " expiredRows.length=" + expiredRows.length);
        }
        return countdown(remaining, 0, count, dt, spentLimit, expiredRows, 0);
    }

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
