package dev.jtecs.world;

import dev.jtecs.entity.Entity;
import dev.jtecs.schedule.FixedOverload;
import dev.jtecs.schedule.PipelineFactory;
import java.util.Objects;

/**
 * A world's settings. Immutable: each {@code with}-style method returns a changed copy, as in
 * {@code WorldConfig.defaults().maxEntities(1 << 22).timestep(1 / 60.0)}.
 *
 * @param maxEntities how many entities may be alive or reserved at once, {@code 1..Entity.MAX_ENTITIES}
 * @param timestep seconds per fixed step, positive and finite
 * @param fixedMaxSteps the most fixed steps one frame runs, at least 1
 * @param nominalFrameTime seconds per presentation tick, positive and finite
 * @param fixedOverload what the fixed-step loop does with time beyond {@code fixedMaxSteps} steps
 * @param pipelineFactory creates the world's scheduler; {@link PipelineFactory#DEFAULT} for the built-in one
 */
public record WorldConfig(int maxEntities, double timestep, int fixedMaxSteps, double nominalFrameTime,
        FixedOverload fixedOverload, PipelineFactory pipelineFactory) {
    public static final double DEFAULT_TIMESTEP = 1.0 / 60.0;
    public static final int DEFAULT_FIXED_MAX_STEPS = 8;
    public static final double DEFAULT_NOMINAL_FRAME_TIME = 1.0 / 60.0;
    public static final FixedOverload DEFAULT_FIXED_OVERLOAD = FixedOverload.DROP;

    public WorldConfig {
        if (maxEntities < 1 || maxEntities > Entity.MAX_ENTITIES) {
            throw new IllegalArgumentException("maxEntities=" + maxEntities + " outside 1.." + Entity.MAX_ENTITIES);
        }
        requirePositive("timestep", timestep);
        requirePositive("nominalFrameTime", nominalFrameTime);
        if (fixedMaxSteps < 1) {
            throw new IllegalArgumentException("fixedMaxSteps=" + fixedMaxSteps + " must be at least 1");
        }
        Objects.requireNonNull(fixedOverload, "fixedOverload");
        Objects.requireNonNull(pipelineFactory, "pipelineFactory");
    }

    /**
     * {@link Entity#DEFAULT_MAX_ENTITIES}, a 1/60 s fixed step, 8 fixed steps per frame, excess steps dropped,
     * 1/60 s frames, the default scheduler.
     */
    public static WorldConfig defaults() {
        return new WorldConfig(Entity.DEFAULT_MAX_ENTITIES, DEFAULT_TIMESTEP, DEFAULT_FIXED_MAX_STEPS,
                DEFAULT_NOMINAL_FRAME_TIME, DEFAULT_FIXED_OVERLOAD, PipelineFactory.DEFAULT);
    }

    public WorldConfig maxEntities(int value) {
        return new WorldConfig(value, timestep, fixedMaxSteps, nominalFrameTime, fixedOverload, pipelineFactory);
    }

    public WorldConfig timestep(double value) {
        return new WorldConfig(maxEntities, value, fixedMaxSteps, nominalFrameTime, fixedOverload,
                pipelineFactory);
    }

    public WorldConfig fixedMaxSteps(int value) {
        return new WorldConfig(maxEntities, timestep, value, nominalFrameTime, fixedOverload,
                pipelineFactory);
    }

    public WorldConfig nominalFrameTime(double value) {
        return new WorldConfig(maxEntities, timestep, fixedMaxSteps, value, fixedOverload,
                pipelineFactory);
    }

    public WorldConfig fixedOverload(FixedOverload value) {
        return new WorldConfig(maxEntities, timestep, fixedMaxSteps, nominalFrameTime, value, pipelineFactory);
    }

    /** Replaces the scheduler: the world calls the factory once, when it is created. */
    public WorldConfig pipelineFactory(PipelineFactory value) {
        return new WorldConfig(maxEntities, timestep, fixedMaxSteps, nominalFrameTime, fixedOverload, value);
    }

    private static void requirePositive(String name, double value) {
        if (!(value > 0) || Double.isInfinite(value)) {
            throw new IllegalArgumentException(name + "=" + value + " must be positive and finite");
        }
    }
}
