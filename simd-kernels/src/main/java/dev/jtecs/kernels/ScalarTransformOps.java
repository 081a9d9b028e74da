package dev.jtecs.kernels;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * {@link TransformOps} by the scalar twins of the transform kernels: the specification of the vector twin. Each
 * operation comes as the {@link TransformOps} method over rows {@code [0, count)} and as a static method of the same
 * name over rows {@code [from, to)}, which the interface method runs. Never touches {@code jdk.incubator.vector}, so
 * it loads and runs where that module is absent. {@link TransformOps#SCALAR} is its one instance.
 *
 * <p>Sine and cosine are {@code (float) Math.sin(rotation)} and {@code (float) Math.cos(rotation)}, as
 * {@link dev.jtecs.builtin.Transform2D#compose} computes them. The vector twin's lanewise {@code SIN}/{@code COS}
 * may differ by an ulp or so (see {@link dev.jtecs.kernels.vector.VectorTransformOps}); everything else is the same
 * operations in the same order, no fused multiply-add.
 */
public final class ScalarTransformOps implements TransformOps {
    private static final ValueLayout.OfFloat FLOAT = ValueLayout.JAVA_FLOAT;
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT;

    ScalarTransformOps() {}

    @Override
    public KernelMode mode() {
        return KernelMode.SCALAR;
    }

    @Override
    public void affine2d(MemorySegment x, MemorySegment y, MemorySegment rotation, MemorySegment scaleX,
            MemorySegment scaleY, MemorySegment m00, MemorySegment m01, MemorySegment m02, MemorySegment m10,
            MemorySegment m11, MemorySegment m12, int count) {
        affine2d(x, y, rotation, scaleX, scaleY, m00, m01, m02, m10, m11, m12, 0, count);
    }

    @Override
    public void model3d(MemorySegment[] columns, int count) {
        model3d(columns, 0, count);
    }

    @Override
    public boolean compose2d(MemorySegment[] columns, int base, int count, float px, float py, float pz,
            int layer, float pr, float psx, float psy, float c, float s) {
        return compose2d(columns, base, 0, count, px, py, pz, layer, pr, psx, psy, c, s);
    }

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
     * Composes rows {@code [from, to)} with their parent's pose: the loop of the builtin composition system,
     * operation for operation, so the result is bit for bit {@code parent.compose(offset)}:
     *
     * <pre>
     *   lx = psx * rx               ly = psy * ry
     *   x  = px + (c * lx - s * ly) y  = py + (s * lx + c * ly)
     *   z  = pz + rz                layer = layer               rotation = pr + rr
     *   scaleX = psx * rsx          scaleY = psy * rsy
     * </pre>
     *
     * Every row is written; the answer says whether any written bit differs from what was there.
     * {@code columns} from {@code base} as in {@link TransformOps#compose2d}.
     */
    public static boolean compose2d(MemorySegment[] columns, int base, int from, int to, float px, float py,
            float pz, int layer, float pr, float psx, float psy, float c, float s) {
        MemorySegment x = columns[base];
        MemorySegment y = columns[base + 1];
        MemorySegment z = columns[base + 2];
        MemorySegment layers = columns[base + 3];
        MemorySegment r = columns[base + 4];
        MemorySegment sx = columns[base + 5];
        MemorySegment sy = columns[base + 6];
        MemorySegment rx = columns[base + 7];
        MemorySegment ry = columns[base + 8];
        MemorySegment rz = columns[base + 9];
        MemorySegment rr = columns[base + 10];
        MemorySegment rsx = columns[base + 11];
        MemorySegment rsy = columns[base + 12];
        int diff = 0;
        for (int row = from; row < to; row++) {
            float lx = psx * rx.getAtIndex(FLOAT, row);
            float ly = psy * ry.getAtIndex(FLOAT, row);
            float nx = px + (c * lx - s * ly);
            float ny = py + (s * lx + c * ly);
            float nz = pz + rz.getAtIndex(FLOAT, row);
            float nr = pr + rr.getAtIndex(FLOAT, row);
            float nsx = psx * rsx.getAtIndex(FLOAT, row);
            float nsy = psy * rsy.getAtIndex(FLOAT, row);
            diff |= exchange(x, row, nx) | exchange(y, row, ny) | exchange(z, row, nz)
                    | layers.getAtIndex(INT, row) ^ layer | exchange(r, row, nr) | exchange(sx, row, nsx)
                    | exchange(sy, row, nsy);
            layers.setAtIndex(INT, row, layer);
        }
        return diff != 0;
    }

    /** Writes {@code value} at {@code row}; returns the raw bits that changed. */
    private static int exchange(MemorySegment column, int row, float value) {
        int changed = Float.floatToRawIntBits(column.getAtIndex(FLOAT, row)) ^ Float.floatToRawIntBits(value);
        column.setAtIndex(FLOAT, row, value);
        return changed;
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
