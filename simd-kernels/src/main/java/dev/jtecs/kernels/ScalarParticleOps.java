package dev.jtecs.kernels;

import java.lang.foreign.MemorySegment;

/** {@link ParticleOps} by the scalar twins; loads without {@code jdk.incubator.vector}. */
final class ScalarParticleOps implements ParticleOps {
    @Override
    public KernelMode mode() {
        return KernelMode.SCALAR;
    }

    @Override
    public void integrate2d(MemorySegment x, MemorySegment y, MemorySegment vx, MemorySegment vy, int count,
            float dt) {
        ScalarParticles.integrate2d(x, y, vx, vy, 0, count, dt);
    }

    @Override
    public void integrate3d(MemorySegment x, MemorySegment y, MemorySegment z, MemorySegment vx, MemorySegment vy,
            MemorySegment vz, int count, float dt) {
        ScalarParticles.integrate3d(x, y, z, vx, vy, vz, 0, count, dt);
    }

    @Override
    public void accelerate(MemorySegment v, int count, float a, float dt) {
        ScalarParticles.accelerate(v, 0, count, a, dt);
    }

    @Override
    public void scale(MemorySegment v, int count, float factor) {
        ScalarParticles.scale(v, 0, count, factor);
    }

    @Override
    public boolean wrap(MemorySegment c, int count, float min, float max) {
        return ScalarParticles.wrap(c, 0, count, min, max);
    }

    @Override
    public boolean clamp(MemorySegment c, int count, float min, float max) {
        return ScalarParticles.clamp(c, 0, count, min, max);
    }
}
