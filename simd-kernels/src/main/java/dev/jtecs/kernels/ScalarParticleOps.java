package dev.jtecs.kernels;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * {@link ParticleOps} by the scalar twins: the specification every vector kernel must match bit for bit, and the
 * tail loop of the vector kernels that may not run into the padding (the conditional ones).
 *
 * <p>Each operation comes twice: the {@link ParticleOps} method over rows {@code [0, count)}, and a static method of
 * the same name over rows {@code [from, to)}, which the interface method runs and the vector twin calls for its
 * tail. Both work one row at a time, with the same operations in the same order as the vector twin and no fused
 * multiply-add. This class never touches {@code jdk.incubator.vector}, so it loads and runs where that module is
 * absent. {@link ParticleOps#SCALAR} is its one instance.
 */
public final class ScalarParticleOps implements ParticleOps {
    private static final ValueLayout.OfFloat FLOAT = ValueLayout.JAVA_FLOAT;

    ScalarParticleOps() {}

    @Override
    public KernelMode mode() {
        return KernelMode.SCALAR;
    }

    @Override
    public void integrate2d(MemorySegment x, MemorySegment y, MemorySegment vx, MemorySegment vy, int count,
            float dt) {
        integrate2d(x, y, vx, vy, 0, count, dt);
    }

    @Override
    public void integrate3d(MemorySegment x, MemorySegment y, MemorySegment z, MemorySegment vx, MemorySegment vy,
            MemorySegment vz, int count, float dt) {
        integrate3d(x, y, z, vx, vy, vz, 0, count, dt);
    }

    @Override
    public void accelerate(MemorySegment v, int count, float a, float dt) {
        accelerate(v, 0, count, a, dt);
    }

    @Override
    public void scale(MemorySegment v, int count, float factor) {
        scale(v, 0, count, factor);
    }

    @Override
    public boolean wrap(MemorySegment c, int count, float min, float max) {
        return wrap(c, 0, count, min, max);
    }

    @Override
    public boolean clamp(MemorySegment c, int count, float min, float max) {
        return clamp(c, 0, count, min, max);
    }

    /** {@code remaining -= dt} for rows {@code [0, count)}, listing the rows that reach zero or below, ascending. */
    @Override
    public int countdown(MemorySegment remaining, int count, float dt, int[] expiredRows) {
        int expired = 0;
        for (int row = 0; row < count; row++) {
            float left = remaining.getAtIndex(FLOAT, row) - dt;
            remaining.setAtIndex(FLOAT, row, left);
            if (left <= 0f) {
                expiredRows[expired++] = row;
            }
        }
        return expired;
    }

    /** {@code x += vx * dt; y += vy * dt} for rows {@code [from, to)}. */
    public static void integrate2d(MemorySegment x, MemorySegment y, MemorySegment vx, MemorySegment vy,
            int from, int to, float dt) {
        for (int row = from; row < to; row++) {
            x.setAtIndex(FLOAT, row, x.getAtIndex(FLOAT, row) + vx.getAtIndex(FLOAT, row) * dt);
            y.setAtIndex(FLOAT, row, y.getAtIndex(FLOAT, row) + vy.getAtIndex(FLOAT, row) * dt);
        }
    }

    /**
     * {@code x += vx * dt; y += vy * dt; z += vz * dt} for rows {@code [from, to)}: {@link #integrate2d} with a
     * third axis, each axis on its own (x, then y, then z, per row).
     */
    public static void integrate3d(MemorySegment x, MemorySegment y, MemorySegment z, MemorySegment vx,
            MemorySegment vy, MemorySegment vz, int from, int to, float dt) {
        for (int row = from; row < to; row++) {
            x.setAtIndex(FLOAT, row, x.getAtIndex(FLOAT, row) + vx.getAtIndex(FLOAT, row) * dt);
            y.setAtIndex(FLOAT, row, y.getAtIndex(FLOAT, row) + vy.getAtIndex(FLOAT, row) * dt);
            z.setAtIndex(FLOAT, row, z.getAtIndex(FLOAT, row) + vz.getAtIndex(FLOAT, row) * dt);
        }
    }

    /** {@code v += a * dt} for rows {@code [from, to)}; {@code a * dt} is rounded to float once, before the loop. */
    public static void accelerate(MemorySegment v, int from, int to, float a, float dt) {
        float dv = a * dt;
        for (int row = from; row < to; row++) {
            v.setAtIndex(FLOAT, row, v.getAtIndex(FLOAT, row) + dv);
        }
    }

    /** {@code v *= factor} for rows {@code [from, to)}. */
    public static void scale(MemorySegment v, int from, int to, float factor) {
        for (int row = from; row < to; row++) {
            v.setAtIndex(FLOAT, row, v.getAtIndex(FLOAT, row) * factor);
        }
    }

    /**
     * Wraps rows {@code [from, to)} once into {@code [min, max)}: {@code c < min} becomes {@code c + (max - min)},
     * {@code c >= max} becomes {@code c - (max - min)}, anything else (NaN included) is left alone. A row is
     * written only when its value changes (an infinity or a value too large to move stays as it is).
     *
     * @return whether any row changed
     */
    public static boolean wrap(MemorySegment c, int from, int to, float min, float max) {
        float width = max - min;
        boolean changed = false;
        for (int row = from; row < to; row++) {
            float value = c.getAtIndex(FLOAT, row);
            float wrapped;
            if (value < min) {
                wrapped = value + width;
            } else if (value >= max) {
                wrapped = value - width;
            } else {
                continue;
            }
            if (wrapped != value) {
                c.setAtIndex(FLOAT, row, wrapped);
                changed = true;
            }
        }
        return changed;
    }

    /**
     * Clamps rows {@code [from, to)} into {@code [min, max]}: {@code c < min} becomes {@code min}, {@code c > max}
     * becomes {@code max}; NaN and {@code -0.0} against a bound of {@code 0.0} are left alone (comparisons, not
     * {@code Math.max}). A row is written only when it is out of bounds.
     *
     * @return whether any row changed
     */
    public static boolean clamp(MemorySegment c, int from, int to, float min, float max) {
        boolean changed = false;
        for (int row = from; row < to; row++) {
            float value = c.getAtIndex(FLOAT, row);
            if (value < min) {
                c.setAtIndex(FLOAT, row, min);
                changed = true;
            } else if (value > max) {
                c.setAtIndex(FLOAT, row, max);
                changed = true;
            }
        }
        return changed;
    }
}
