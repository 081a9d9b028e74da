package dev.jtecs.kernels;

import java.lang.foreign.MemorySegment;

/** {@link TransformOps} by the scalar twins; loads without {@code jdk.incubator.vector}. */
final class ScalarTransformOps implements TransformOps {
    @Override
    public KernelMode mode() {
        return KernelMode.SCALAR;
    }

    @Override
    public void affine2d(MemorySegment x, MemorySegment y, MemorySegment rotation, MemorySegment scaleX,
            MemorySegment scaleY, MemorySegment m00, MemorySegment m01, MemorySegment m02, MemorySegment m10,
            MemorySegment m11, MemorySegment m12, int count) {
        ScalarTransforms.affine2d(x, y, rotation, scaleX, scaleY, m00, m01, m02, m10, m11, m12, 0, count);
    }

    @Override
    public void model3d(MemorySegment[] columns, int count) {
        ScalarTransforms.model3d(columns, 0, count);
    }

    @Override
    public boolean compose2d(MemorySegment[] columns, int base, int count, float px, float py, float pz,
            int layer, float pr, float psx, float psy, float c, float s) {
        return ScalarTransforms.compose2d(columns, base, 0, count, px, py, pz, layer, pr, psx, psy, c, s);
    }
}
