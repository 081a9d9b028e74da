package dev.jtecs.kernels;

import dev.jtecs.builtin.TTL;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * {@link LifetimeLerpOps} by the scalar twin of the lifetime interpolation: the specification the vector twin matches
 * bit for bit. The interface method checks its arguments ({@link #check}, which the vector twin shares) and runs rows
 * {@code [0, count)} with the static {@link #lerp(MemorySegment[], float[], float[], int, int)}. Each row's progress
 * is {@link TTL#percentComplete()}, computed here from the two double columns with that method's exact definition
 * ({@link #percentComplete}), rounded to float once; each output channel is then a float interpolation between two
 * constants. Never touches {@code jdk.incubator.vector}. {@link LifetimeLerpOps#SCALAR} is its one instance.
 *
 * <p>Order of operations, per row and channel {@code c} (no fused multiply-add):
 *
 * <pre>
 *   p    = percentComplete(startingTime, remaining)     double, as TTL defines it
 *   t    = (float) p                                    round to nearest, once per row
 *   keep = 1f - t
 *   out  = keep * from[c] + t * to[c]                   exactly from[c] at t = 0 and to[c] at t = 1
 * </pre>
 *
 * <p>A NaN {@code remaining} (or an infinite one over an infinite start) makes {@code p} NaN and every channel NaN,
 * as {@code percentComplete} itself answers NaN there.
 */
public final class ScalarLifetimeLerpOps implements LifetimeLerpOps {
    private static final ValueLayout.OfFloat FLOAT = ValueLayout.JAVA_FLOAT;
    private static final ValueLayout.OfDouble DOUBLE = ValueLayout.JAVA_DOUBLE;

    ScalarLifetimeLerpOps() {}

    @Override
    public KernelMode mode() {
        return KernelMode.SCALAR;
    }

    @Override
    public void lerp(MemorySegment[] columns, float[] from, float[] to, int count) {
        check(columns, from, to, count, count);
        lerp(columns, from, to, 0, count);
    }

    /**
     * {@link TTL#percentComplete()} of a lifetime given by its two fields, with the same definition: 1 when
     * {@code startingTime} is not positive (NaN included), otherwise {@code 1 - remaining / startingTime} clamped to
     * {@code [0, 1]} by {@code Math.clamp}.
     */
    public static double percentComplete(double startingTime, double remaining) {
        if (!(startingTime > 0)) {
            return 1;
        }
        return Math.clamp(1 - remaining / startingTime, 0.0, 1.0);
    }

    /**
     * For rows {@code [fromRow, toRow)}: writes {@code (1 - t) * from[c] + t * to[c]} into output column {@code c},
     * {@code t = (float) percentComplete(startingTime, remaining)}; columns as {@link LifetimeLerpOps#lerp} takes
     * them.
     */
    public static void lerp(MemorySegment[] columns, float[] from, float[] to, int fromRow, int toRow) {
        int channels = from.length;
        MemorySegment startingTime = columns[channels];
        MemorySegment remaining = columns[channels + 1];
        for (int row = fromRow; row < toRow; row++) {
            float t = (float) percentComplete(startingTime.getAtIndex(DOUBLE, row), remaining.getAtIndex(DOUBLE, row));
            float keep = 1f - t;
            for (int c = 0; c < channels; c++) {
                columns[c].setAtIndex(FLOAT, row, keep * from[c] + t * to[c]);
            }
        }
    }

    /**
     * Checks the arguments of {@link LifetimeLerpOps#lerp}: matching non-empty constants, enough columns, and
     * columns that hold {@code rows} rows ({@code count} itself, or {@code count} rounded up to whole vectors).
     */
    public static void check(MemorySegment[] columns, float[] from, float[] to, int count, int rows) {
        if (from.length == 0 || from.length != to.length || columns.length < from.length + 2) {
            throw new IllegalArgumentException("lerp needs from.length == to.length >= 1 and columns.length >= "
                    + "from.length + 2: from.length=" + from.length + " to.length=" + to.length + " columns.length="
                    + columns.length);
        }
        if (count < 0) {
            throw new IllegalArgumentException("count=" + count + " is negative");
        }
        for (int i = 0; i < from.length + 2; i++) {
            long bytes = (long) rows * (i < from.length ? Float.BYTES : Double.BYTES);
            if (columns[i].byteSize() < bytes) {
                throw new IllegalArgumentException("count=" + count + " needs byteSize>=" + bytes + " (" + rows
                        + " rows) in column " + i + ", which has byteSize=" + columns[i].byteSize());
            }
        }
    }
}
