package dev.jtecs.kernels;

import java.lang.foreign.MemorySegment;

/**
 * The transform kernels behind one interface: {@link #SCALAR} (the specification, {@link ScalarTransformOps}) or
 * the vector one ({@link dev.jtecs.kernels.vector.VectorTransformOps}) that {@link KernelProvider#transforms()}
 * picks when the Vector API pays. Rows are {@code [0, count)} of jtecs columns (64-byte aligned, capacity padded to
 * 64 rows); the kernels are unconditional and may also write the padding rows of their output columns.
 */
public interface TransformOps {
    /** The scalar twins: the specification, and the implementation where vectors are unavailable or forced off. */
    TransformOps SCALAR = new ScalarTransformOps();

    /** Which implementation this is. */
    KernelMode mode();

    /**
     * The {@link Affine2D} matrix of each row from its Transform2D columns: {@code m00 = c * sx},
     * {@code m01 = -s * sy}, {@code m02 = x}, {@code m10 = s * sx}, {@code m11 = c * sy}, {@code m12 = y} with
     * {@code c}, {@code s} the float cosine and sine of {@code rotation}. See {@link ScalarTransformOps#affine2d}.
     */
    void affine2d(MemorySegment x, MemorySegment y, MemorySegment rotation, MemorySegment scaleX,
            MemorySegment scaleY, MemorySegment m00, MemorySegment m01, MemorySegment m02, MemorySegment m10,
            MemorySegment m11, MemorySegment m12, int count);

    /**
     * The {@link Model3D} matrix of each row from its Transform3D columns, with JOML's
     * {@code translationRotateScale} arithmetic (see {@link ScalarTransformOps#model3d}).
     *
     * @param columns {@code [0, 16)}: the Model3D columns {@code m00 .. m33} in declaration order (written);
     *     {@code [16, 26)}: the Transform3D columns {@code x, y, z, rotationX, rotationY, rotationZ, rotationW,
     *     scaleX, scaleY, scaleZ} (read) — the order {@link TransformKernels#model3d(TransformOps)} declares
     */
    void model3d(MemorySegment[] columns, int count);

    /** Segments per archetype that {@link #compose2d} reads from {@code columns}, starting at {@code base}. */
    int COMPOSE2D_COLUMNS = 13;

    /**
     * Composes rows {@code [0, count)} of one archetype with their parent's world transform, as
     * {@link dev.jtecs.builtin.Transform2D#compose} defines it (see {@link ScalarTransformOps#compose2d}): every
     * row gets {@code parent.compose(offset)}, with the parent's pose and its {@code c = (float) cos(pr)},
     * {@code s = (float) sin(pr)} taken once by the caller (ChildOf is dense: every row has that parent).
     * Padding rows are left exactly as they were.
     *
     * @param columns from {@code base}: the Transform2D columns {@code x, y, z, layer, rotation, scaleX, scaleY}
     *     (written), then the RelativeTransform2D columns {@code x, y, z, rotation, scaleX, scaleY} (read) —
     *     {@link #COMPOSE2D_COLUMNS} segments
     * @return whether any bit of a written row changed (compared as raw bits, so {@code -0.0} replacing
     *     {@code 0.0} is a change and a NaN replaced by the same NaN is not)
     */
    boolean compose2d(MemorySegment[] columns, int base, int count, float px, float py, float pz, int layer,
            float pr, float psx, float psy, float c, float s);
}
