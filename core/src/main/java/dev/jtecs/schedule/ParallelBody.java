package dev.jtecs.schedule;

import dev.jtecs.storage.Archetype;
import java.util.List;

/**
 * The work of a parallel system (see {@link SystemConfig#parallel}): runs on a worker thread, beside the other
 * parallel systems of its phase whose component sets do not conflict with its own. It never calls the world
 * (the world refuses calls from other threads); it reads and writes the columns of the archetypes it is given
 * through {@code archetype.get(...)} views, and asks for structural changes through {@code commands}, which the
 * world's thread applies after the group, in an order no thread count changes.
 *
 * <p>Contract: a body touches only the components its system declared (reads and writes), does not mark columns
 * dirty itself (the scheduler marks every declared write on every archetype given, on the world's thread), and
 * computes the same result from the same data on any thread (no shared mutable state between systems).
 */
@FunctionalInterface
public interface ParallelBody {
    /**
     * @param dt seconds this dispatch covers, as for {@link SystemBody}
     * @param archetypes the archetypes of the system's query that hold rows, taken on the world's thread just
     *     before the group started, in the query's order
     * @param commands this system's part of its worker's command buffer
     */
    void run(double dt, List<Archetype> archetypes, SystemCommands commands);
}
