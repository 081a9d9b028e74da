package dev.jtecs.kernels;

import dev.jtecs.component.FloatField;
import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * The 2D motion kernels as {@link ColumnKernel}s: integrate, gravity, damping, and bounds wrap and clamp. Each
 * factory takes the {@link ParticleOps} to run (tests pass {@link ParticleOps#SCALAR} and the vector ones side by
 * side); the overloads without it use {@link KernelProvider#particles()}.
 *
 * <p>Damping is {@code v *= pow(retainPerSecond, dt)}: {@code retainPerSecond} is the fraction of velocity left
 * after one second, and the result does not depend on how the second is cut into frames (the linear
 * {@code v *= 1 - d * dt} does, and turns negative once {@code d * dt > 1}). The factor is computed once per
 * archetype in double and rounded to float, identically for both twins, so the per-row work is one multiply.
 */
public final class MotionKernels {
    private MotionKernels() {}

    /** {@code x += vx * dt; y += vy * dt}: writes x and y, reads vx and vy. */
    public static ColumnKernel integrate2d(ParticleOps ops, FloatField x, FloatField y, FloatField vx,
            FloatField vy) {
        KernelColumns columns = KernelColumns.of(List.of(x, y), List.of(vx, vy), WritePolicy.ALWAYS);
        return new NamedKernel(columns, "integrate2d", ops.mode()) {
            @Override
            public boolean run(MemorySegment[] s, int count, float dt) {
                ops.integrate2d(s[0], s[1], s[2], s[3], count, dt);
                return true;
            }
        };
    }

    /** {@link #integrate2d(ParticleOps, FloatField, FloatField, FloatField, FloatField)} with the provider's ops. */
    public static ColumnKernel integrate2d(FloatField x, FloatField y, FloatField vx, FloatField vy) {
        return integrate2d(KernelProvider.particles(), x, y, vx, vy);
    }

    /** {@code vy += g * dt} (with {@code g * dt} rounded to float once): writes vy only. */
    public static ColumnKernel gravity(ParticleOps ops, FloatField vy, float g) {
        requireFinite("g", g);
        KernelColumns columns = KernelColumns.of(List.of(vy), List.of(), WritePolicy.ALWAYS);
        return new NamedKernel(columns, "gravity(g=" + g + ")", ops.mode()) {
            @Override
            public boolean run(MemorySegment[] s, int count, float dt) {
                ops.accelerate(s[0], count, g, dt);
                return true;
            }
        };
    }

    /** {@link #gravity(ParticleOps, FloatField, float)} with the provider's ops. */
    public static ColumnKernel gravity(FloatField vy, float g) {
        return gravity(KernelProvider.particles(), vy, g);
    }

    /**
     * {@code vx *= f; vy *= f} with {@code f = dampingFactor(retainPerSecond, dt)}: writes vx and vy.
     *
     * @throws IllegalArgumentException unless {@code 0 <= retainPerSecond <= 1}
     */
    public static ColumnKernel damping(ParticleOps ops, FloatField vx, FloatField vy, float retainPerSecond) {
        if (!(retainPerSecond >= 0f && retainPerSecond <= 1f)) {
            throw new IllegalArgumentException("retainPerSecond=" + retainPerSecond + " outside [0, 1]");
        }
        KernelColumns columns = KernelColumns.of(List.of(vx, vy), List.of(), WritePolicy.ALWAYS);
        return new NamedKernel(columns, "damping(retainPerSecond=" + retainPerSecond + ")", ops.mode()) {
            @Override
            public boolean run(MemorySegment[] s, int count, float dt) {
                float factor = dampingFactor(retainPerSecond, dt);
                ops.scale(s[0], count, factor);
                ops.scale(s[1], count, factor);
                return true;
            }
        };
    }

    /** {@link #damping(ParticleOps, FloatField, FloatField, float)} with the provider's ops. */
    public static ColumnKernel damping(FloatField vx, FloatField vy, float retainPerSecond) {
        return damping(KernelProvider.particles(), vx, vy, retainPerSecond);
    }

    /** The per-frame velocity factor of damping: {@code (float) Math.pow(retainPerSecond, dt)}. */
    public static float dampingFactor(float retainPerSecond, float dt) {
        return (float) Math.pow(retainPerSecond, dt);
    }

    /**
     * Wraps one coordinate once into {@code [min, max)} (see {@link ScalarParticleOps#wrap}); conditional: marks
     * the column only on archetypes where a row changed.
     *
     * @throws IllegalArgumentException unless both bounds are finite and {@code min < max}
     */
    public static ColumnKernel wrap(ParticleOps ops, FloatField c, float min, float max) {
        requireBounds(min, max);
        KernelColumns columns = KernelColumns.of(List.of(c), List.of(), WritePolicy.WHEN_CHANGED);
        return new NamedKernel(columns, "wrap[" + min + ", " + max + ")", ops.mode()) {
            @Override
            public boolean run(MemorySegment[] s, int count, float dt) {
                return ops.wrap(s[0], count, min, max);
            }
        };
    }

    /** {@link #wrap(ParticleOps, FloatField, float, float)} with the provider's ops. */
    public static ColumnKernel wrap(FloatField c, float min, float max) {
        return wrap(KernelProvider.particles(), c, min, max);
    }

    /**
     * Clamps one coordinate into {@code [min, max]} (see {@link ScalarParticleOps#clamp}); conditional: marks the
     * column only on archetypes where a row was out of bounds.
     *
     * @throws IllegalArgumentException unless both bounds are finite and {@code min < max}
     */
    public static ColumnKernel clamp(ParticleOps ops, FloatField c, float min, float max) {
        requireBounds(min, max);
        KernelColumns columns = KernelColumns.of(List.of(c), List.of(), WritePolicy.WHEN_CHANGED);
        return new NamedKernel(columns, "clamp[" + min + ", " + max + "]", ops.mode()) {
            @Override
            public boolean run(MemorySegment[] s, int count, float dt) {
                return ops.clamp(s[0], count, min, max);
            }
        };
    }

    /** {@link #clamp(ParticleOps, FloatField, float, float)} with the provider's ops. */
    public static ColumnKernel clamp(FloatField c, float min, float max) {
        return clamp(KernelProvider.particles(), c, min, max);
    }

    private static void requireFinite(String name, float value) {
        if (!Float.isFinite(value)) {
            throw new IllegalArgumentException(name + "=" + value + " is not finite");
        }
    }

    private static void requireBounds(float min, float max) {
        requireFinite("min", min);
        requireFinite("max", max);
        if (!(min < max) || !Float.isFinite(max - min)) {
            throw new IllegalArgumentException("bounds min=" + min + " max=" + max + " need min < max and a "
                    + "finite width");
        }
    }
}
