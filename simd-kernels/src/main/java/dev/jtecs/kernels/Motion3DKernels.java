package dev.jtecs.kernels;

import dev.jtecs.component.FloatField;
import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * The 3D motion kernels as {@link ColumnKernel}s: integrate, gravity, damping, and bounds wrap and clamp over three
 * float columns of position or velocity. Like {@link MotionKernels} they take {@link FloatField} handles, so they
 * run on any component that stores its axes as float fields (a {@code Transform3D}'s {@code x, y, z}, a game's own
 * {@code Velocity3}), and each factory takes the {@link ParticleOps} to run, the overloads without it using
 * {@link KernelProvider#particles()}.
 *
 * <p>Semantics are the 2D kernels', axis by axis: per row, {@code integrate3d} is {@code integrate2d} with a third
 * axis; {@code gravity3d}, {@code damping3d}, {@code wrap3d} and {@code clamp3d} are {@code gravity},
 * {@code damping}, {@code wrap} and {@code clamp} applied to each of the three columns, with the same bits. Gravity
 * along one axis only needs no 3D kernel: {@link MotionKernels#gravity} takes that axis's field.
 *
 * <p>Dirty marking. The unconditional kernels mark the components of their written columns on every archetype with
 * rows. {@code wrap3d} and {@code clamp3d} are {@link WritePolicy#WHEN_CHANGED} and report one change for all three
 * axes, so they require the three columns to be fields of one component: marking is per component, and a change on
 * one axis of a one-component position is a change of that component, exactly. Axes stored in separate components
 * take one {@link MotionKernels#wrap} or {@link MotionKernels#clamp} kernel each.
 */
public final class Motion3DKernels {
    private Motion3DKernels() {}

    /** {@code x += vx * dt; y += vy * dt; z += vz * dt}: writes x, y, z, reads vx, vy, vz. */
    public static ColumnKernel integrate3d(ParticleOps ops, FloatField x, FloatField y, FloatField z, FloatField vx,
            FloatField vy, FloatField vz) {
        KernelColumns columns = KernelColumns.of(List.of(x, y, z), List.of(vx, vy, vz), WritePolicy.ALWAYS);
        return new NamedKernel(columns, "integrate3d", ops.mode()) {
            @Override
            public boolean run(MemorySegment[] s, int count, float dt) {
                ops.integrate3d(s[0], s[1], s[2], s[3], s[4], s[5], count, dt);
                return true;
            }
        };
    }

    /**
     * {@link #integrate3d(ParticleOps, FloatField, FloatField, FloatField, FloatField, FloatField, FloatField)}
     * with the provider's ops.
     */
    public static ColumnKernel integrate3d(FloatField x, FloatField y, FloatField z, FloatField vx, FloatField vy,
            FloatField vz) {
        return integrate3d(KernelProvider.particles(), x, y, z, vx, vy, vz);
    }

    /**
     * {@code v += g * dt} on each axis, with each {@code g * dt} rounded to float once: writes vx, vy, vz (all
     * three, a zero component included, as {@link MotionKernels#gravity} would with {@code g = 0}).
     *
     * @throws IllegalArgumentException when a component of {@code g} is not finite
     */
    public static ColumnKernel gravity3d(ParticleOps ops, FloatField vx, FloatField vy, FloatField vz, float gx,
            float gy, float gz) {
        requireFinite("gx", gx);
        requireFinite("gy", gy);
        requireFinite("gz", gz);
        KernelColumns columns = KernelColumns.of(List.of(vx, vy, vz), List.of(), WritePolicy.ALWAYS);
        return new NamedKernel(columns, "gravity3d(g=" + gx + ", " + gy + ", " + gz + ")", ops.mode()) {
            @Override
            public boolean run(MemorySegment[] s, int count, float dt) {
                ops.accelerate(s[0], count, gx, dt);
                ops.accelerate(s[1], count, gy, dt);
                ops.accelerate(s[2], count, gz, dt);
                return true;
            }
        };
    }

    /**
     * {@link #gravity3d(ParticleOps, FloatField, FloatField, FloatField, float, float, float)}
     * with the provider's ops.
     */
    public static ColumnKernel gravity3d(FloatField vx, FloatField vy, FloatField vz, float gx, float gy, float gz) {
        return gravity3d(KernelProvider.particles(), vx, vy, vz, gx, gy, gz);
    }

    /**
     * {@code v *= f} on each axis with {@code f = MotionKernels.dampingFactor(retainPerSecond, dt)}, computed once
     * per archetype: writes vx, vy, vz.
     *
     * @throws IllegalArgumentException unless {@code 0 <= retainPerSecond <= 1}
     */
    public static ColumnKernel damping3d(ParticleOps ops, FloatField vx, FloatField vy, FloatField vz,
            float retainPerSecond) {
        if (!(retainPerSecond >= 0f && retainPerSecond <= 1f)) {
            throw new IllegalArgumentException("retainPerSecond=" + retainPerSecond + " outside [0, 1]");
        }
        KernelColumns columns = KernelColumns.of(List.of(vx, vy, vz), List.of(), WritePolicy.ALWAYS);
        return new NamedKernel(columns, "damping3d(retainPerSecond=" + retainPerSecond + ")", ops.mode()) {
            @Override
            public boolean run(MemorySegment[] s, int count, float dt) {
                float factor = MotionKernels.dampingFactor(retainPerSecond, dt);
                ops.scale(s[0], count, factor);
                ops.scale(s[1], count, factor);
                ops.scale(s[2], count, factor);
                return true;
            }
        };
    }

    /** {@link #damping3d(ParticleOps, FloatField, FloatField, FloatField, float)} with the provider's ops. */
    public static ColumnKernel damping3d(FloatField vx, FloatField vy, FloatField vz, float retainPerSecond) {
        return damping3d(KernelProvider.particles(), vx, vy, vz, retainPerSecond);
    }

    /**
     * Wraps each axis once into its interval, {@code [minX, maxX)} and so on (see {@link ScalarParticleOps#wrap});
     * conditional: marks the component only on archetypes where a row of some axis changed.
     *
     * @throws IllegalArgumentException unless x, y and z are fields of one component and every axis has finite
     *     bounds with {@code min < max} and a finite width
     */
    public static ColumnKernel wrap3d(ParticleOps ops, FloatField x, FloatField y, FloatField z, float minX,
            float minY, float minZ, float maxX, float maxY, float maxZ) {
        requireBounds("x", minX, maxX);
        requireBounds("y", minY, maxY);
        requireBounds("z", minZ, maxZ);
        KernelColumns columns = conditionalColumns("wrap3d", x, y, z);
        String name = "wrap3d[" + minX + ", " + minY + ", " + minZ + "; " + maxX + ", " + maxY + ", " + maxZ + ")";
        return new NamedKernel(columns, name, ops.mode()) {
            @Override
            public boolean run(MemorySegment[] s, int count, float dt) {
                // | rather than ||: every axis must run whatever an earlier one reported
                return ops.wrap(s[0], count, minX, maxX) | ops.wrap(s[1], count, minY, maxY)
                        | ops.wrap(s[2], count, minZ, maxZ);
            }
        };
    }

    /**
     * {@link #wrap3d(ParticleOps, FloatField, FloatField, FloatField, float, float, float, float, float, float)}
     * with the provider's ops.
     */
    public static ColumnKernel wrap3d(FloatField x, FloatField y, FloatField z, float minX, float minY, float minZ,
            float maxX, float maxY, float maxZ) {
        return wrap3d(KernelProvider.particles(), x, y, z, minX, minY, minZ, maxX, maxY, maxZ);
    }

    /**
     * Clamps each axis into its interval, {@code [minX, maxX]} and so on (see {@link ScalarParticleOps#clamp});
     * conditional: marks the component only on archetypes where a row of some axis was out of bounds.
     *
     * @throws IllegalArgumentException unless x, y and z are fields of one component and every axis has finite
     *     bounds with {@code min < max} and a finite width
     */
    public static ColumnKernel clamp3d(ParticleOps ops, FloatField x, FloatField y, FloatField z, float minX,
            float minY, float minZ, float maxX, float maxY, float maxZ) {
        requireBounds("x", minX, maxX);
        requireBounds("y", minY, maxY);
        requireBounds("z", minZ, maxZ);
        KernelColumns columns = conditionalColumns("clamp3d", x, y, z);
        String name = "clamp3d[" + minX + ", " + minY + ", " + minZ + "; " + maxX + ", " + maxY + ", " + maxZ + "]";
        return new NamedKernel(columns, name, ops.mode()) {
            @Override
            public boolean run(MemorySegment[] s, int count, float dt) {
                return ops.clamp(s[0], count, minX, maxX) | ops.clamp(s[1], count, minY, maxY)
                        | ops.clamp(s[2], count, minZ, maxZ);
            }
        };
    }

    /**
     * {@link #clamp3d(ParticleOps, FloatField, FloatField, FloatField, float, float, float, float, float, float)}
     * with the provider's ops.
     */
    public static ColumnKernel clamp3d(FloatField x, FloatField y, FloatField z, float minX, float minY, float minZ,
            float maxX, float maxY, float maxZ) {
        return clamp3d(KernelProvider.particles(), x, y, z, minX, minY, minZ, maxX, maxY, maxZ);
    }

    /** The written columns of a conditional 3D kernel, which must share one component (see the class comment). */
    private static KernelColumns conditionalColumns(String kernel, FloatField x, FloatField y, FloatField z) {
        if (x.component() != y.component() || x.component() != z.component()) {
            throw new IllegalArgumentException(kernel + " reports one change for three axes, so x, y, z must be "
                    + "fields of one component: x=" + x.name() + " of " + x.component().name() + ", y=" + y.name()
                    + " of " + y.component().name() + ", z=" + z.name() + " of " + z.component().name() + " (use one "
                    + kernel.substring(0, kernel.length() - 2) + " kernel per axis instead)");
        }
        return KernelColumns.of(List.of(x, y, z), List.of(), WritePolicy.WHEN_CHANGED);
    }

    private static void requireFinite(String name, float value) {
        if (!Float.isFinite(value)) {
            throw new IllegalArgumentException(name + "=" + value + " is not finite");
        }
    }

    private static void requireBounds(String axis, float min, float max) {
        if (!Float.isFinite(min) || !Float.isFinite(max) || !(min < max) || !Float.isFinite(max - min)) {
            throw new IllegalArgumentException("bounds on " + axis + ": min=" + min + " max=" + max
                    + " need both finite, min < max and a finite width");
        }
    }
}
