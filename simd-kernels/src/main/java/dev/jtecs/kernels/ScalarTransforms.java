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

    /**
     * The {@link Model3D} of rows {@code [from, to)}; {@code columns} as in {@link TransformOps#model3d}. The
     * arithmetic is JOML's {@code Matrix4f.translationRotateScale}, operation for operation, so the result is
     * bit for bit {@code Transform3D.toMatrix}:
     *
     * <pre>
     *   dq = 2q (q + q, exact)   qij = dqi * qj   (q00, q11, q22, q01, q02, q03 = dqx * qw, q12, q13, q23)
     *   m00 = sx - (q11 + q22) * sx   m01 = (q01 + q23) * sx        m02 = (q02 - q13) * sx        m03 = 0
     *   m10 = (q01 - q23) * sy        m11 = sy - (q22 + q00) * sy   m12 = (q12 + q03) * sy        m13 = 0
     *   m20 = (q02 + q13) * sz        m21 = (q12 - q03) * sz        m22 = sz - (q11 + q00) * sz   m23 = 0
     *   m30 = x                       m31 = y                       m32 = z                       m33 = 1
     * </pre>
     */
    public static void model3d(MemorySegment[] columns, int from, int to) {
        for (int row = from; row < to; row++) {
            float qx = columns[19].getAtIndex(FLOAT, row);
            float qy = columns[20].getAtIndex(FLOAT, row);
            float qz = columns[21].getAtIndex(FLOAT, row);
            float qw = columns[22].getAtIndex(FLOAT, row);
            float sx = columns[23].getAtIndex(FLOAT, row);
            float sy = columns[24].getAtIndex(FLOAT, row);
            float sz = columns[25].getAtIndex(FLOAT, row);
            float dqx = qx + qx;
            float dqy = qy + qy;
            float dqz = qz + qz;
            float q00 = dqx * qx;
            float q11 = dqy * qy;
            float q22 = dqz * qz;
            float q01 = dqx * qy;
            float q02 = dqx * qz;
            float q03 = dqx * qw;
            float q12 = dqy * qz;
            float q13 = dqy * qw;
            float q23 = dqz * qw;
            columns[0].setAtIndex(FLOAT, row, sx - (q11 + q22) * sx);
            columns[1].setAtIndex(FLOAT, row, (q01 + q23) * sx);
            columns[2].setAtIndex(FLOAT, row, (q02 - q13) * sx);
            columns[3].setAtIndex(FLOAT, row, 0f);
            columns[4].setAtIndex(FLOAT, row, (q01 - q23) * sy);
            columns[5].setAtIndex(FLOAT, row, sy - (q22 + q00) * sy);
            columns[6].setAtIndex(FLOAT, row, (q12 + q03) * sy);
            columns[7].setAtIndex(FLOAT, row, 0f);
            columns[8].setAtIndex(FLOAT, row, (q02 + q13) * sz);
            columns[9].setAtIndex(FLOAT, row, (q12 - q03) * sz);
            columns[10].setAtIndex(FLOAT, row, sz - (q11 + q00) * sz);
            columns[11].setAtIndex(FLOAT, row, 0f);
            columns[12].setAtIndex(FLOAT, row, columns[16].getAtIndex(FLOAT, row));
            columns[13].setAtIndex(FLOAT, row, columns[17].getAtIndex(FLOAT, row));
            columns[14].setAtIndex(FLOAT, row, columns[18].getAtIndex(FLOAT, row));
            columns[15].setAtIndex(FLOAT, row, 1f);
        }
    }
}
