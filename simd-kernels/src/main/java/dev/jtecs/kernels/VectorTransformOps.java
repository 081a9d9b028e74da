package dev.jtecs.kernels;

import java.lang.foreign.MemorySegment;

/**
 * {@link TransformOps} by the Vector API kernels of {@link TransformKernels}. Only {@link KernelProvider} creates
 * it, and only once it has found {@code jdk.incubator.vector} readable: loading it elsewhere would fail.
 */
final class VectorTransformOps implements TransformOps {
    @Override
    public KernelMode mode() {
        return KernelMode.VECTOR;
    }

    @Override
    public void affine2d(MemorySegment x, MemorySegment y, MemorySegment rotation, MemorySegment scaleX,
            MemorySegment scaleY, MemorySegment m00, MemorySegment m01, MemorySegment m02, MemorySegment m10,
            MemorySegment m11, MemorySegment m12, int count) {
        TransformKernels.affine2d(x, y, rotation, scaleX, scaleY, m00, m01, m02, m10, m11, m12, count);
    }

    @Override
    public void model3d(MemorySegment[] columns, int count) {
        TransformKernels.model3d(columns, count);
    }

    @Override
    public boolean compose2d(MemorySegment[] columns, int base, int count, float px, float py, float pz,
            int layer, float pr, float psx, float psy, float c, float s) {
        return TransformKernels.compose2d(columns, base, count, px, py, pz, layer, pr, psx, psy, c, s);
    }
}
