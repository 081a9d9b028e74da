package dev.jtecs.world;

import dev.jtecs.entity.Entity;
import dev.jtecs.mutation.PartitionConflicts;
import dev.jtecs.schedule.FixedOverload;
import dev.jtecs.schedule.PipelineFactory;
import dev.jtecs.storage.ViewChecks;
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
 * @param maxSubmissionWaves the most waves one publication runs before it reports a cascade, {@code 1..65536}
 * @param partitionConflicts what two operations on one partition dimension of one entity in one submission do
 * @param systemThreads how many threads run parallel systems, {@code 1..256}; 1 runs them on the world's thread
 */
public record WorldConfig(int maxEntities, double timestep, int fixedMaxSteps, double nominalFrameTime,
        FixedOverload fixedOverload, PipelineFactory pipelineFactory, int maxSubmissionWaves,
        PartitionConflicts partitionConflicts, int systemThreads) {
    public static final double DEFAULT_TIMESTEP = 1.0 / 60.0;
    public static final int DEFAULT_FIXED_MAX_STEPS = 8;
    public static final double DEFAULT_NOMINAL_FRAME_TIME = 1.0 / 60.0;
    public static final FixedOverload DEFAULT_FIXED_OVERLOAD = FixedOverload.DROP;
    /** The mutation model's historic bound: 64 waves per publication. */
    public static final int DEFAULT_MAX_SUBMISSION_WAVES = 64;
    public static final int MAX_SUBMISSION_WAVES_LIMIT = 1 << 16;
    public static final int MAX_SYSTEM_THREADS = 256;
    /**
     * The checked mode raises on a same-dimension conflict; otherwise the highest tag value wins. The checked mode
     * is the one of {@link ViewChecks} ({@code -Djtecs.checkViews=true}), the switch debug builds and tests turn on.
     */
    public static final PartitionConflicts DEFAULT_PARTITION_CONFLICTS =
            ViewChecks.ENABLED ? PartitionConflicts.RAISE : PartitionConflicts.HIGHEST_WINS;

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
        if (maxSubmissionWaves < 1 || maxSubmissionWaves > MAX_SUBMISSION_WAVES_LIMIT) {
            throw new IllegalArgumentException("maxSubmissionWaves=" + maxSubmissionWaves + " outside 1.."
                    + MAX_SUBMISSION_WAVES_LIMIT);
        }
        Objects.requireNonNull(partitionConflicts, "partitionConflicts");
        if (systemThreads < 1 || systemThreads > MAX_SYSTEM_THREADS) {
            throw new IllegalArgumentException("systemThreads=" + systemThreads + " outside 1.." + MAX_SYSTEM_THREADS);
        }
    }

    /** The first six settings; the later ones take their defaults. */
    public WorldConfig(int maxEntities, double timestep, int fixedMaxSteps, double nominalFrameTime,
            FixedOverload fixedOverload, PipelineFactory pipelineFactory) {
        this(maxEntities, timestep, fixedMaxSteps, nominalFrameTime, fixedOverload, pipelineFactory,
                DEFAULT_MAX_SUBMISSION_WAVES, DEFAULT_PARTITION_CONFLICTS, 1);
    }

    /**
     * {@link Entity#DEFAULT_MAX_ENTITIES}, a 1/60 s fixed step, 8 fixed steps per frame, excess steps dropped,
     * 1/60 s frames, the default scheduler, 64 waves per publication, partition conflicts as the checked mode says,
     * parallel systems on the world's thread.
     */
    public static WorldConfig defaults() {
        return new WorldConfig(Entity.DEFAULT_MAX_ENTITIES, DEFAULT_TIMESTEP, DEFAULT_FIXED_MAX_STEPS,
                DEFAULT_NOMINAL_FRAME_TIME, DEFAULT_FIXED_OVERLOAD, PipelineFactory.DEFAULT);
    }

    public WorldConfig maxEntities(int value) {
        return new WorldConfig(value, timestep, fixedMaxSteps, nominalFrameTime, fixedOverload, pipelineFactory,
                maxSubmissionWaves, partitionConflicts, systemThreads);
    }

    public WorldConfig timestep(double value) {
        return new WorldConfig(maxEntities, value, fixedMaxSteps, nominalFrameTime, fixedOverload, pipelineFactory,
                maxSubmissionWaves, partitionConflicts, systemThreads);
    }

    public WorldConfig fixedMaxSteps(int value) {
        return new WorldConfig(maxEntities, timestep, value, nominalFrameTime, fixedOverload, pipelineFactory,
                maxSubmissionWaves, partitionConflicts, systemThreads);
    }

    public WorldConfig nominalFrameTime(double value) {
        return new WorldConfig(maxEntities, timestep, fixedMaxSteps, value, fixedOverload, pipelineFactory,
                maxSubmissionWaves, partitionConflicts, systemThreads);
    }

    public WorldConfig fixedOverload(FixedOverload value) {
        return new WorldConfig(maxEntities, timestep, fixedMaxSteps, nominalFrameTime, value, pipelineFactory,
                maxSubmissionWaves, partitionConflicts, systemThreads);
    }

    /** Replaces the scheduler: the world calls the factory once, when it is created. */
    public WorldConfig pipelineFactory(PipelineFactory value) {
        return new WorldConfig(maxEntities, timestep, fixedMaxSteps, nominalFrameTime, fixedOverload, value,
                maxSubmissionWaves, partitionConflicts, systemThreads);
    }

    /** The most waves (submission iterations) one publication runs; more is reported as a cascade. */
    public WorldConfig maxSubmissionWaves(int value) {
        return new WorldConfig(maxEntities, timestep, fixedMaxSteps, nominalFrameTime, fixedOverload,
                pipelineFactory, value, partitionConflicts, systemThreads);
    }

    public WorldConfig partitionConflicts(PartitionConflicts value) {
        return new WorldConfig(maxEntities, timestep, fixedMaxSteps, nominalFrameTime, fixedOverload,
                pipelineFactory, maxSubmissionWaves, value, systemThreads);
    }

    /** How many threads run the parallel systems of a phase (see {@code SystemConfig.parallel}). */
    public WorldConfig systemThreads(int value) {
        return new WorldConfig(maxEntities, timestep, fixedMaxSteps, nominalFrameTime, fixedOverload,
                pipelineFactory, maxSubmissionWaves, partitionConflicts, value);
    }

    private static void requirePositive(String name, double value) {
        if (!(value > 0) || Double.isInfinite(value)) {
            throw new IllegalArgumentException(name + "=" + value + " must be positive and finite");
        }
    }
}
