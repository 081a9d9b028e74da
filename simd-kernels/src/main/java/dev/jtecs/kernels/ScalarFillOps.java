package dev.jtecs.kernels;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * {@link FillOps} by the scalar twins of the fill kernels: the specification the vector twin matches bit for bit,
 * and the head and tail loops of its vector body. Each fill writes rows {@code [fromRow, toRow)} of a native float
 * column and nothing else: the {@link FillOps} method checks its arguments and runs the static loop of the same
 * fill ({@link #constantRows}, {@link #rangeRows}, {@link #uniformRows}), which the vector twin also runs for its
 * head and tail. Never touches {@code jdk.incubator.vector}. {@link FillOps#SCALAR} is its one instance.
 *
 * <p>The random fill is counter-based: a row's value is a fixed function of a 64-bit key and the row number,
 * {@link #bits(long, int)}, so rows can be computed in any order, sixteen at a time or one at a time, in one call or
 * in pieces, and come out the same. A sequential generator such as {@code Xoshiro128} cannot do that: each output
 * depends on the one before, so a vector path would have to run one stream per lane, and which rows a lane sees
 * would depend on where the range starts and how it is cut. The key is where the world's random streams come in:
 * {@link BatchFill} draws it from one ({@code stream.nextLong()}), once per filled column and batch, so the whole
 * fill is reproducible from the world seed.
 *
 * <pre>
 *   x = row * 0x9E3779B9 + (int) key                 a Weyl step: distinct rows, distinct x
 *   x = lowbias32(x) ^ (int) (key &gt;&gt;&gt; 32)
 *   x = lowbias32(x)
 *       lowbias32(x): x ^= x &gt;&gt;&gt; 16; x *= 0x7FEB352D; x ^= x &gt;&gt;&gt; 15; x *= 0x846CA68B; x ^= x &gt;&gt;&gt; 16
 *   u = (x &gt;&gt;&gt; 8) * 0x1p-24f                         24 bits in [0, 1), as Xoshiro128.nextFloat takes them
 *   v = lo + (hi - lo) * u;  if v &gt;= hi: v = Math.nextDown(hi)     rounding can reach hi; [lo, hi) is kept
 * </pre>
 *
 * <p>Each step is a bijection of 32-bit words (lowbias32 is Chris Wellons' integer hash from his hash-prospector
 * search), so for one key the rows of a range of up to 2^32 rows get pairwise distinct words. It is a statistical
 * generator for effects and placement, not a cryptographic one.
 */
public final class ScalarFillOps implements FillOps {
    /** The Weyl increment: 2^32 divided by the golden ratio, odd. */
    public static final int GOLDEN = 0x9E3779B9;
    /** lowbias32's first multiplier. */
    public static final int MIX_1 = 0x7FEB352D;
    /** lowbias32's second multiplier. */
    public static final int MIX_2 = 0x846CA68B;
    private static final ValueLayout.OfFloat FLOAT = ValueLayout.JAVA_FLOAT;

    ScalarFillOps() {}

    @Override
    public KernelMode mode() {
        return KernelMode.SCALAR;
    }

    @Override
    public void constant(MemorySegment column, int fromRow, int toRow, float value) {
        checkRows(column, fromRow, toRow);
        constantRows(column, fromRow, toRow, value);
    }

    @Override
    public void range(MemorySegment column, int fromRow, int toRow, int firstIndex, float start, float step) {
        checkRows(column, fromRow, toRow);
        checkRange(fromRow, toRow, firstIndex, start, step);
        rangeRows(column, fromRow, toRow, firstIndex, start, step);
    }

    @Override
    public void uniform(MemorySegment column, int fromRow, int toRow, long key, float lo, float hi) {
        checkRows(column, fromRow, toRow);
        checkUniform(lo, hi);
        uniformRows(column, fromRow, toRow, key, lo, hi);
    }

    /** Writes {@code value}, bit for bit, to rows {@code [fromRow, toRow)} (no argument checks). */
    public static void constantRows(MemorySegment column, int fromRow, int toRow, float value) {
        for (int row = fromRow; row < toRow; row++) {
            column.setAtIndex(FLOAT, row, value);
        }
    }

    /**
     * Writes {@code start + (float) i * step} to each row of {@code [fromRow, toRow)}, where
     * {@code i = firstIndex + (row - fromRow)} is the row's index in the whole range. The index is converted to float
     * (exact below 2^24) and multiplied, never accumulated, so a value does not depend on where a piece starts. No
     * argument checks.
     */
    public static void rangeRows(MemorySegment column, int fromRow, int toRow, int firstIndex, float start,
            float step) {
        for (int row = fromRow; row < toRow; row++) {
            column.setAtIndex(FLOAT, row, start + (float) (firstIndex + (row - fromRow)) * step);
        }
    }

    /** Writes {@link #uniform(long, int, float, float)} to each row of {@code [fromRow, toRow)}, unchecked. */
    public static void uniformRows(MemorySegment column, int fromRow, int toRow, long key, float lo, float hi) {
        float width = hi - lo;
        float below = Math.nextDown(hi);
        for (int row = fromRow; row < toRow; row++) {
            float value = lo + width * ((bits(key, row) >>> 8) * 0x1.0p-24f);
            column.setAtIndex(FLOAT, row, value >= hi ? below : value);
        }
    }

    /** The value the random fill writes to {@code row} for {@code key}: in {@code [lo, hi)}, see the class comment. */
    public static float uniform(long key, int row, float lo, float hi) {
        float value = lo + (hi - lo) * ((bits(key, row) >>> 8) * 0x1.0p-24f);
        return value >= hi ? Math.nextDown(hi) : value;
    }

    /** The 32 random bits of {@code row} under {@code key}; see the class comment. */
    public static int bits(long key, int row) {
        int x = row * GOLDEN + (int) key;
        x = lowbias32(x) ^ (int) (key >>> 32);
        return lowbias32(x);
    }

    private static int lowbias32(int x) {
        x ^= x >>> 16;
        x *= MIX_1;
        x ^= x >>> 15;
        x *= MIX_2;
        x ^= x >>> 16;
        return x;
    }

    /** Checks a row range of a float column: {@code 0 <= fromRow <= toRow <= rows held}. */
    public static void checkRows(MemorySegment column, int fromRow, int toRow) {
        if (fromRow < 0 || fromRow > toRow || (long) toRow * Float.BYTES > column.byteSize()) {
            throw new IllegalArgumentException("rows [fromRow=" + fromRow + ", toRow=" + toRow + ") outside the "
                    + column.byteSize() / Float.BYTES + " rows of the column (byteSize=" + column.byteSize() + ")");
        }
    }

    /** Checks the arguments of a range fill (the row range itself is {@link #checkRows}'s). */
    public static void checkRange(int fromRow, int toRow, int firstIndex, float start, float step) {
        if (firstIndex < 0 || (long) firstIndex + (toRow - fromRow) > (long) Integer.MAX_VALUE + 1) {
            throw new IllegalArgumentException("firstIndex=" + firstIndex + " must be >= 0 and leave room for "
                    + (toRow - fromRow) + " rows [fromRow=" + fromRow + ", toRow=" + toRow + ") below 2^31");
        }
        if (!Float.isFinite(start) || !Float.isFinite(step)) {
            throw new IllegalArgumentException("range start=" + start + " step=" + step + " must both be finite");
        }
    }

    /** Checks the bounds of a random fill: finite, {@code lo < hi}, and a finite width. */
    public static void checkUniform(float lo, float hi) {
        if (!Float.isFinite(lo) || !Float.isFinite(hi) || !(lo < hi) || !Float.isFinite(hi - lo)) {
            throw new IllegalArgumentException("uniform lo=" + lo + " hi=" + hi + " need both finite, lo < hi and a "
                    + "finite width hi - lo");
        }
    }
}
