package dev.jtecs.schedule;

import dev.jtecs.world.World;

/**
 * Creates a world's pipeline; set through {@code WorldConfig.pipelineFactory}. Called once, at the end of the
 * world's construction: the world is usable but has no systems yet. When the factory throws, or the pipeline it
 * returns throws while the builtin systems register, {@code World.create} closes the half-made world (returning
 * what it allocated, including anything the factory spawned) and rethrows.
 */
@FunctionalInterface
public interface PipelineFactory {
    /** The default: a {@link Scheduler}. */
    PipelineFactory DEFAULT = Scheduler::new;

    /**
     * @param world the world the pipeline serves (systems receive it)
     * @param scope the world's publication controls for dispatches
     */
    Pipeline create(World world, DispatchScope scope);
}
