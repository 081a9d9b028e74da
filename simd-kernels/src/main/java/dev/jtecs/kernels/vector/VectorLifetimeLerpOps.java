package dev.jtecs.kernels.vector;

import dev.jtecs.kernels.KernelMode;
import dev.jtecs.kernels.LifetimeLerpOps;
import dev.jtecs.kernels.ScalarLifetimeLerpOps;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * {@link LifetimeLerpOps} by the Vector API: the lifetime interpolation over native columns (twin:
 * {@link ScalarLifetimeLerpOps}, {@link LifetimeLerpOps#SCALAR}); reads {@code TTL}'s two double columns, writes
 * float output channels.
 *
 * <p>Mixed widths. A step covers one float vector of rows ({@code F}, the preferred species), which is two double
 * vectors ({@code D}, the preferred species, half as many lanes). The progress of each half is computed in double
 * lanes and converted to float ({@code D2F}, round to nearest, as the twin's {@code (float)} cast): the lower half
 * as conversion part 0, which fills float lanes {@code [0, D)}, the upper half as part -1, which fills lanes
 * {@code [D, F)}; a blend joins them. Only the two preferred species appear: a second float species anywhere in the
 * JVM (a 256-bit one, say, to hold one double vector's conversion) makes the Vector API's shared call sites
 * polymorphic, and then every float kernel, not only this one, boxes its vectors and allocates.
 *
 * <p>{@code Math.clamp(v, 0, 1)} becomes two compare-and-blends: they keep NaN as NaN, as {@code Math.clamp} does,
 * and {@code v} is never {@code -0.0} ({@code 1 - q} rounds to nearest, so an exact zero is {@code +0.0}), which is
 * where a blend and {@code Math.max} could differ. The kernel is unconditional: it runs unmasked to {@code count}
 * rounded up to the float lane count (jtecs columns hold a multiple of 64 rows), reading TTL padding and writing
 * output padding, neither of which any entity observes.
 */
public final class VectorLifetimeLerpOps implements LifetimeLerpOps {
    /** The vector lifetime interpolation. */
    public static final VectorLifetimeLerpOps INSTANCE = new VectorLifetimeLerpOps();
    private static final VectorSpecies<Double> D = DoubleVector.SPECIES_PREFERRED;
    private static final VectorSpecies<Float> F = FloatVector.SPECIES_PREFERRED;
    private static final ByteOrder ORDER = ByteOrder.nativeOrder();
    private static boolean warm;

    private VectorLifetimeLerpOps() {}

    @Override
    public KernelMode mode() {
        return KernelMode.VECTOR;
    }

    /** The rows of one step: the float lane count of the preferred species (two double vectors). */
    public static int lanes() {
        return F.length();
    }

    /** The interpolation of rows {@code [0, count)}, columns as {@link LifetimeLerpOps#lerp} takes them (vector). */
    @Override
    public void lerp(MemorySegment[] columns, float[] from, float[] to, int count) {
        int lanes = F.length();
        int bound = count < 0 ? count : (count + lanes - 1) / lanes * lanes;
        ScalarLifetimeLerpOps.check(columns, from, to, count, bound);
        int channels = from.length;
        MemorySegment startingTime = columns[channels];
        MemorySegment remaining = columns[channels + 1];
        int half = D.length();
        VectorMask<Float> upper = FloatVector.zero(F).addIndex(1).compare(VectorOperators.GE, half);
        FloatVector one = FloatVector.broadcast(F, 1f);
        for (int row = 0; row < bound; row += lanes) {
            FloatVector t = progress(startingTime, remaining, row, 0)
                    .blend(progress(startingTime, remaining, row + half, -1), upper);
            FloatVector keep = one.sub(t);
            long offset = (long) row * Float.BYTES;
            for (int c = 0; c < channels; c++) {
                keep.mul(from[c]).add(t.mul(to[c])).intoMemorySegment(columns[c], offset, ORDER);
            }
        }
    }

    /**
     * {@code (float) percentComplete} of the {@code D.length()} rows from {@code row}, in float lanes
     * {@code [0, D)} ({@code part = 0}) or {@code [D, F)} ({@code part = -1}); the other lanes are zero.
     */
    private static FloatVector progress(MemorySegment startingTime, MemorySegment remaining, int row, int part) {
        long offset = (long) row * Double.BYTES;
        DoubleVector start = DoubleVector.fromMemorySegment(D, startingTime, offset, ORDER);
        DoubleVector left = DoubleVector.fromMemorySegment(D, remaining, offset, ORDER);
        DoubleVector p = DoubleVector.broadcast(D, 1.0).sub(left.div(start));
        p = p.blend(0.0, p.compare(VectorOperators.LT, 0.0)).blend(1.0, p.compare(VectorOperators.GT, 1.0));
        VectorMask<Double> unstarted = start.compare(VectorOperators.GT, 0.0).not(); // NaN start included
        return (FloatVector) p.blend(1.0, unstarted).convertShape(VectorOperators.D2F, F, part);
    }

    /**
     * Runs the kernel on small scratch columns until the JIT has compiled it, so the first real frames do not run
     * the much slower interpreted vector code. Idempotent and cheap after the first call.
     */
    public static synchronized void warmUp() {
        if (warm) {
            return;
        }
        // a shared arena, like every jtecs column: a kernel that also sees confined segments keeps deoptimizing
        try (java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofShared()) {
            int rows = 256;
            MemorySegment[] columns = new MemorySegment[6];
            for (int i = 0; i < columns.length; i++) {
                columns[i] = arena.allocate((long) rows * (i < 4 ? Float.BYTES : Double.BYTES), 64);
            }
            MemorySegment[] single = {columns[0], columns[4], columns[5]};
            float[] four = {1f, 1f, 1f, 1f};
            float[] one = {1f};
            for (int i = 0; i < 20_000; i++) {
                INSTANCE.lerp(columns, four, four, rows);
                INSTANCE.lerp(single, one, one, rows);
            }
        }
        warm = true;
    }
}
