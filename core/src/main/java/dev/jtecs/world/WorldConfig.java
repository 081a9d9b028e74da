package dev.jtecs.world;

import dev.jtecs.entity.Entity;

/**
 * A world's settings. Immutable: each {@code with}-style method returns a changed copy, as in
 * {@code WorldConfig.defaults().maxEntities(1 << 22).timestep(1 / 60.0)}.
 *
 * @param maxEntities how many entities may be alive or reserved at once, {@code 1..Entity.MAX_ENTITIES}
 * @param timestep seconds per fixed step, positive and finite
 * @param fixedMaxSteps the most fixed steps one frame runs, at least 1
 * @param nominalFrameTime seconds per presentation tick, positive and finite
 */
public record WorldConfig(int maxEntities, double timestep, int fixedMaxSteps, double nominalFrameTime) {
    public static final double DEFAULT_TIMESTEP = 1.0 / 60.0;
    public static final int DEFAULT_FIXED_MAX_STEPS = 8;
    public static final double DEFAULT_NOMINAL_FRAME_TIME = 1.0 / 60.0;

    public WorldConfig {
        if (maxEntities < 1 || maxEntities > Entity.MAX_ENTITIES) {
            throw new IllegalArgumentException("maxEntities=" + maxEntities + " outside 1.." + Entity.MAX_ENTITIES);
        }
        requirePositive("timestep", timestep);
        requirePositive("nominalFrameTime", nominalFrameTime);
        if (fixedMaxSteps < 1) {
            throw new IllegalArgumentException("fixedMaxSteps=" + fixedMaxSteps + " must be at least 1");
        }
    }

    /** {@link Entity#DEFAULT_MAX_ENTITIES}, a 1/60 s fixed step, 8 fixed steps per frame, 1/60 s frames. */
    public static WorldConfig defaults() {
        return new WorldConfig(Entity.DEFAULT_MAX_ENTITIES, DEFAULT_TIMESTEP, DEFAULT_FIXED_MAX_STEPS,
                DEFAULT_NOMINAL_FRAME_TIME);
    }

    public WorldConfig maxEntities(int value) {
        return new WorldConfig(value, timestep, fixedMaxSteps, nominalFrameTime);
    }

    public WorldConfig timestep(double value) {
        return new WorldConfig(maxEntities, value, fixedMaxSteps, nominalFrameTime);
    }

    public WorldConfig fixedMaxSteps(int value) {
        return new WorldConfig(maxEntities, timestep, value, nominalFrameTime);
    }

    public WorldConfig nominalFrameTime(double value) {
        return new WorldConfig(maxEntities, timestep, fixedMaxSteps, value);
    }

    private static void requirePositive(String name, double value) {
        if (!(value > 0) || Double.isInfinite(value)) {
            throw new IllegalArgumentException(name + "=" + value + " must be positive and finite");
        }
    }
}
