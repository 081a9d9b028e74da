package dev.jtecs.kernels.vector;

import dev.jtecs.kernels.FillOps;
import dev.jtecs.kernels.KernelMode;
import dev.jtecs.kernels.ScalarFillOps;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * {@link FillOps} by the Vector API: the fill kernels over a row range of a native float column (twins:
 * {@link ScalarFillOps}, {@link FillOps#SCALAR}).
 *
 * <p>A fill's range is arbitrary (the new rows of a batch start wherever the archetype ended) and the rows around
 * it belong to entities, so unlike the per-archetype kernels these may not run into padding: the scalar twin
 * writes the rows up to the first lane-aligned row (the head), whole vectors follow, and the twin writes the rest
 * (the tail). No masked loads or stores. Row numbers and indices are int lanes of the species with the float
 * species' shape (so the same lane count); {@code I2F} converts them exactly as the twin's {@code (float)} cast
 * does. Every lane's value depends on its row alone, so the head/body/tail split leaves no trace in the result.
 */
public final class VectorFillOps implements FillOps {
    /** The vector fills. */
    public static final VectorFillOps INSTANCE = new VectorFillOps();
    private static final VectorSpecies<Float> F = FloatVector.SPECIES_PREFERRED;
    private static final VectorSpecies<Integer> I = F.withLanes(int.class);
    private static final ByteOrder ORDER = ByteOrder.nativeOrder();
    private static boolean warm;

    private VectorFillOps() {}

    @Override
    public KernelMode mode() {
        return KernelMode.VECTOR;
    }

    /** The lane count: floats of the preferred species, and as many ints. */
    public static int lanes() {
        return F.length();
    }

    /** {@link ScalarFillOps#constantRows}, checked (vector body; twin head and tail). */
    @Override
    public void constant(MemorySegment column, int fromRow, int toRow, float value) {
        ScalarFillOps.checkRows(column, fromRow, toRow);
        int body = bodyStart(fromRow, toRow);
        int end = bodyEnd(body, toRow);
        ScalarFillOps.constantRows(column, fromRow, body, value);
        FloatVector broadcast = FloatVector.broadcast(F, value);
        for (int row = body; row < end; row += F.length()) {
            broadcast.intoMemorySegment(column, (long) row * Float.BYTES, ORDER);
        }
        ScalarFillOps.constantRows(column, end, toRow, value);
    }

    /** {@link ScalarFillOps#rangeRows}, checked (vector body; twin head and tail). */
    @Override
    public void range(MemorySegment column, int fromRow, int toRow, int firstIndex, float start, float step) {
        ScalarFillOps.checkRows(column, fromRow, toRow);
        ScalarFillOps.checkRange(fromRow, toRow, firstIndex, start, step);
        int body = bodyStart(fromRow, toRow);
        int end = bodyEnd(body, toRow);
        ScalarFillOps.rangeRows(column, fromRow, body, firstIndex, start, step);
        IntVector iota = IntVector.zero(I).addIndex(1);
        int shift = firstIndex - fromRow; // index of a row = row + shift; no overflow, checked above
        for (int row = body; row < end; row += F.length()) {
            FloatVector index = (FloatVector) iota.add(row + shift).convert(VectorOperators.I2F, 0);
            index.mul(step).add(start).intoMemorySegment(column, (long) row * Float.BYTES, ORDER);
        }
        ScalarFillOps.rangeRows(column, end, toRow, firstIndex + (end - fromRow), start, step);
    }

    /** {@link ScalarFillOps#uniformRows}, checked (vector body; twin head and tail). */
    @Override
    public void uniform(MemorySegment column, int fromRow, int toRow, long key, float lo, float hi) {
        ScalarFillOps.checkRows(column, fromRow, toRow);
        ScalarFillOps.checkUniform(lo, hi);
        int body = bodyStart(fromRow, toRow);
        int end = bodyEnd(body, toRow);
        ScalarFillOps.uniformRows(column, fromRow, body, key, lo, hi);
        float width = hi - lo;
        float below = Math.nextDown(hi);
        int low = (int) key;
        int high = (int) (key >>> 32);
        IntVector iota = IntVector.zero(I).addIndex(1);
        for (int row = body; row < end; row += F.length()) {
            IntVector x = iota.add(row).mul(ScalarFillOps.GOLDEN).add(low);
            x = lowbias32(lowbias32(x).lanewise(VectorOperators.XOR, high));
            FloatVector u = ((FloatVector) x.lanewise(VectorOperators.LSHR, 8).convert(VectorOperators.I2F, 0))
                    .mul(0x1.0p-24f);
            FloatVector value = u.mul(width).add(lo);
            value.blend(below, value.compare(VectorOperators.GE, hi))
                    .intoMemorySegment(column, (long) row * Float.BYTES, ORDER);
        }
        ScalarFillOps.uniformRows(column, end, toRow, key, lo, hi);
    }

    /**
     * Runs every fill on a small scratch column, over ranges that start and end off the lanes, until the JIT has
     * compiled them, so the first batches do not run the much slower interpreted vector code. Idempotent and cheap
     * after the first call.
     */
    public static synchronized void warmUp() {
        if (warm) {
            return;
        }
        // a shared arena, like every jtecs column: a kernel that also sees confined segments keeps deoptimizing
        try (java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofShared()) {
            int rows = 256;
            MemorySegment column = arena.allocate((long) rows * Float.BYTES, 64);
            for (int i = 0; i < 20_000; i++) {
                int from = i % 7;
                INSTANCE.constant(column, from, rows - from, 1f);
                INSTANCE.range(column, from, rows - from, i, 0f, 1f);
                INSTANCE.uniform(column, from, rows - from, i, 0f, 1f);
            }
        }
        warm = true;
    }

    private static IntVector lowbias32(IntVector x) {
        x = x.lanewise(VectorOperators.XOR, x.lanewise(VectorOperators.LSHR, 16)).mul(ScalarFillOps.MIX_1);
        x = x.lanewise(VectorOperators.XOR, x.lanewise(VectorOperators.LSHR, 15)).mul(ScalarFillOps.MIX_2);
        return x.lanewise(VectorOperators.XOR, x.lanewise(VectorOperators.LSHR, 16));
    }

    /** The first lane-aligned row at or after {@code fromRow}, but not past {@code toRow}. */
    private static int bodyStart(int fromRow, int toRow) {
        int lanes = F.length();
        return (int) Math.min(toRow, ((long) fromRow + lanes - 1) / lanes * lanes);
    }

    /** The end of the whole vectors from {@code bodyStart}: {@code toRow} rounded down to the lanes, or the start. */
    private static int bodyEnd(int bodyStart, int toRow) {
        return Math.max(bodyStart, toRow - toRow % F.length());
    }
}
