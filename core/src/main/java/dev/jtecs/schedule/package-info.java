/**
 * Scheduling: phases, systems and their order, run conditions, commit barriers and the fixed-step loop.
 *
 * <pre>
 *   world.update(dt) ─► Pipeline.update ─► validate schedule ─► unwind ─► hold ─┐
 *     FIRST, PRE_UPDATE ─► fixed steps (FIXED_PRE_UPDATE..FIXED_POST_UPDATE) x n ─► UPDATE .. POST_RENDER
 *     each leaf: for each system in order: [commitBefore] runIf? body [barrier if commitAfter/enqueueCommit]
 *                then the phase barrier (publish what the leaf staged)
 *   ◄─ release (publish) ◄─ world clears dirty bits
 *
 *   parallel systems: consecutive, non-conflicting (read/write sets) ─► one group
 *     runIf of each member (world thread) ─► bodies on worker threads, each into its worker's SystemCommands
 *     ─► world thread: mark declared writes ─► replay requests by system order, then call order
 * </pre>
 *
 * <p>Invariants: a dispatch runs the schedule it captured at its outermost entry; systems added meanwhile wait
 * for the next one, while removals, enable/disable flags and body swaps ({@code replaceSystemBody}, which keeps
 * the system's place) act at once. Within a leaf the order is a
 * topological order of the leaf's {@code before}/{@code after} edges, ties going to the earliest registered; a
 * cycle is reported before anything runs. A disabled system or phase evaluates no run condition. Structural work
 * of systems is published only at barriers (phase ends, {@code commitBefore}, {@code commitAfter},
 * {@code enqueueCommit}, an explicit {@code commit()}), never in the middle of an iteration. Parallel bodies never
 * run on the world's thread and never call the world; what a group leaves behind does not depend on the number of
 * worker threads or on their timing.
 */
package dev.jtecs.schedule;
