package dev.jtecs.kernels;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * {@link BoundsOps} by the scalar twin of the bounds reduction: the specification of the vector twin. The interface
 * method checks its arguments ({@link #check}, which the vector twin shares) and runs rows {@code [0, count)} with the
 * static {@link #minMax(MemorySegment, int, int, float[])}, which the vector twin also calls for its tail. Never
 * touches {@code jdk.incubator.vector}. {@link BoundsOps#SCALAR} is its one instance.
 *
 * <p>NaN policy: skipped. A NaN row is no point on that axis, so a few corrupt or unset coordinates do not turn
 * the whole box into NaN (with which every containment test fails silently); a box whose axis saw only NaN stays
 * empty there, which {@link Bounds2D#isEmpty()} reports. Order: {@link Math#min}/{@link Math#max}, so {@code -0.0}
 * is below {@code 0.0} and the result does not depend on the order rows are visited in.
 */
public final class ScalarBoundsOps implements BoundsOps {
    private static final ValueLayout.OfFloat FLOAT = ValueLayout.JAVA_FLOAT;

    ScalarBoundsOps() {}

    @Override
    public KernelMode mode() {
        return KernelMode.SCALAR;
    }

    @Override
    public void minMax(MemorySegment column, int count, float[] range) {
        check(column, count, range);
        minMax(column, 0, count, range);
    }

    /** Widens {@code range} over rows {@code [from, to)}; see {@link BoundsOps#minMax}. */
    public static void minMax(MemorySegment column, int from, int to, float[] range) {
        float min = range[0];
        float max = range[1];
        for (int row = from; row < to; row++) {
            float v = column.getAtIndex(FLOAT, row);
            if (v == v) { // not NaN
                min = Math.min(min, v);
                max = Math.max(max, v);
            }
        }
        range[0] = min;
        range[1] = max;
    }

    /** The argument checks of {@link BoundsOps#minMax}, which both twins make. */
    public static void check(MemorySegment column, int count, float[] range) {
        if (range.length < 2) {
            throw new IllegalArgumentException("range length=" + range.length + " needs 2 (min, max)");
        }
        if (Float.isNaN(range[0]) || Float.isNaN(range[1])) {
            throw new IllegalArgumentException("range min=" + range[0] + " max=" + range[1] + " holds NaN; start "
                    + "from the empty range {+Infinity, -Infinity}");
        }
        if (count < 0 || (long) count * Float.BYTES > column.byteSize()) {
            throw new IllegalArgumentException("count=" + count + " outside 0.." + column.byteSize() / Float.BYTES
                    + " (segment byteSize=" + column.byteSize() + ")");
        }
    }
}
