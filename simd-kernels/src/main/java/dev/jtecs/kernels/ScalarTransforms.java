package dev.jtecs.kernels;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The scalar twins of the transform kernels: the specification of {@link TransformKernels}. Never touches
 * {@code jdk.incubator.vector}, so it loads and runs where that module is absent.
 *
 * <p>Sine and cosine are {@code (float) Math.sin(rotation)} and {@code (float) Math.cos(rotation)}, as
 * {@link dev.jtecs.builtin.Transform2D#compose} computes them. The vector twin's lanewise {@code SIN}/{@code COS}
 * may differ by an ulp or so (see {@link TransformKernels}); everything else is the same operations in the same
 * order, no fused multiply-add.
 */
public final class ScalarTransforms {
    private static final ValueLayout.OfFloat FLOAT = ValueLayout.JAVA_FLOAT;

    private ScalarTransforms() {}

    /** The {@link Affine2D} of rows {@code [from, to)}; see {@link TransformOps#affine2d}. */
    public static void affine2d(MemorySegment x, MemorySegment y, MemorySegment rotation, MemorySegment scaleX,
            MemorySegment scaleY, MemorySegment m00, MemorySegment m01, MemorySegment m02, MemorySegment m10,
            MemorySegment m11, MemorySegment m12, int from, int to) {
        for (int row = from; row < to; row++) {
            float angle = rotation.getAtIndex(FLOAT, row);
            float c = (float) Math.cos(angle);
            float s = (float) Math.sin(angle);
            float sx = scaleX.getAtIndex(FLOAT, row);
            float sy = scaleY.getAtIndex(FLOAT, row);
            m00.setAtIndex(FLOAT, row, c * sx);
            m01.setAtIndex(FLOAT, row, -s * sy);
            m02.setAtIndex(FLOAT, row, x.getAtIndex(FLOAT, row));
            m10.setAtIndex(FLOAT, row, s * sx);
            m11.setAtIndex(FLOAT, row, c * sy);
            m12.setAtIndex(FLOAT, row, y.getAtIndex(FLOAT, row));
        }
    }
}
