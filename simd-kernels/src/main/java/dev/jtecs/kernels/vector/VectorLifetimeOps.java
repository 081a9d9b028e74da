package dev.jtecs.kernels.vector;

import dev.jtecs.kernels.KernelMode;
import dev.jtecs.kernels.LifetimeOps;
import dev.jtecs.kernels.ScalarLifetimeOps;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * {@link LifetimeOps} by the Vector API: the lifetime countdown over a native {@code double} column (twin:
 * {@link ScalarLifetimeOps}, {@link LifetimeOps#SCALAR}). The subtraction is unconditional, so it runs unmasked to
 * the padded bound (jtecs columns hold a multiple of 64 rows); the expiry compare yields a lane mask, and only lanes
 * below {@code count} are listed, so the padding never shows in the result.
 */
public final class VectorLifetimeOps implements LifetimeOps {
    /** The vector lifetime countdown. */
    public static final VectorLifetimeOps INSTANCE = new VectorLifetimeOps();
    private static final VectorSpecies<Double> D = DoubleVector.SPECIES_PREFERRED;
    private static final ByteOrder ORDER = ByteOrder.nativeOrder();

    private VectorLifetimeOps() {}

    @Override
    public KernelMode mode() {
        return KernelMode.VECTOR;
    }

    /** The double lane count of the preferred species. */
    public static int lanes() {
        return D.length();
    }

    /**
     * {@code remaining -= dt} for rows {@code [0, count)}, listing the rows whose result is {@code <= spentLimit}
     * in {@code expiredRows} (ascending, from index 0).
     *
     * @return how many rows expired
     * @throws IllegalArgumentException when the segment is shorter than {@code count} rounded up to whole
     *     vectors, or {@code expiredRows} shorter than {@code count}
     */
    @Override
    public int countdown(MemorySegment remaining, int count, double dt, double spentLimit,
            int[] expiredRows) {
        check(remaining, count, expiredRows);
        int lanes = D.length();
        int expired = 0;
        for (int row = 0; row < count; row += lanes) {
            long offset = (long) row * Double.BYTES;
            DoubleVector left = DoubleVector.fromMemorySegment(D, remaining, offset, ORDER).sub(dt);
            left.intoMemorySegment(remaining, offset, ORDER);
            long bits = left.compare(VectorOperators.LE, spentLimit).toLong();
            if (bits != 0) {
                expired = list(bits, row, count, expiredRows, expired);
            }
        }
        return expired;
    }

    /** Appends the set lanes of {@code bits} (lane {@code i} is row {@code row + i}) that lie below {@code count}. */
    private static int list(long bits, int row, int count, int[] expiredRows, int expired) {
        while (bits != 0) {
            int lane = Long.numberOfTrailingZeros(bits);
            bits &= bits - 1;
            if (row + lane < count) {
                expiredRows[expired++] = row + lane;
            }
        }
        return expired;
    }

    private static void check(MemorySegment remaining, int count, int[] expiredRows) {
        long padded = (long) (count + D.length() - 1) / D.length() * D.length();
        if (count < 0 || remaining.byteSize() < padded * Double.BYTES || expiredRows.length < count) {
            throw new IllegalArgumentException("count=" + count + " needs byteSize>=" + padded * Double.BYTES
                    + " (padded to " + D.length() + " lanes) and expiredRows.length>=" + count + ": byteSize="
                    + remaining.byteSize() + " expiredRows.length=" + expiredRows.length);
        }
    }
}
