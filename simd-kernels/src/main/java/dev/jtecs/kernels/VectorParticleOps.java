package dev.jtecs.kernels;

import java.lang.foreign.MemorySegment;

/**
 * {@link ParticleOps} by the Vector API kernels of {@link ParticleKernels}. Only {@link KernelProvider} creates it,
 * and only once it has found {@code jdk.incubator.vector} readable: loading it elsewhere would fail.
 */
final class VectorParticleOps implements ParticleOps {
    @Override
    public KernelMode mode() {
        return KernelMode.VECTOR;
    }

    @Override
    public void integrate2d(MemorySegment x, MemorySegment y, MemorySegment vx, MemorySegment vy, int count,
            float dt) {
        ParticleKernels.integrate2d(x, y, vx, vy, count, dt);
    }

    @Override
    public void integrate3d(MemorySegment x, MemorySegment y, MemorySegment z, MemorySegment vx, MemorySegment vy,
            MemorySegment vz, int count, float dt) {
        ParticleKernels.integrate3d(x, y, z, vx, vy, vz, count, dt);
    }

    @Override
    public void accelerate(MemorySegment v, int count, float a, float dt) {
        ParticleKernels.accelerate(v, count, a, dt);
    }

    @Override
    public void scale(MemorySegment v, int count, float factor) {
        ParticleKernels.scale(v, count, factor);
    }

    @Override
    public boolean wrap(MemorySegment c, int count, float min, float max) {
        return ParticleKernels.wrap(c, count, min, max);
    }

    @Override
    public boolean clamp(MemorySegment c, int count, float min, float max) {
        return ParticleKernels.clamp(c, count, min, max);
    }
}
