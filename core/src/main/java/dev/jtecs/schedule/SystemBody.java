package dev.jtecs.schedule;

import dev.jtecs.world.World;

/** The work of a system: called once per dispatch of its phase with the phase's delta time and the world. */
@FunctionalInterface
public interface SystemBody {
    /**
     * @param dt seconds this dispatch covers: the frame's dt, the fixed timestep in fixed phases, 0 at startup
     *     and shutdown
     * @param world the world whose systems are running
     */
    void run(double dt, World world);
}
