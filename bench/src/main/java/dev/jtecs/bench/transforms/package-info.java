/**
 * The {@code transforms} workload: a forest of {@code ChildOf} trees whose children carry a
 * {@code RelativeTransform2D}, roots moved at random each frame, world transforms composed parent first, and the
 * changed transforms extracted for a renderer. The command line ({@code ./jtecs transforms}) runs it.
 *
 * <pre>
 *   ForestShape (parents by node index) ──► ForestSpawner (scene from a random stream, batchSpawn per parent)
 *   world.update(FIXED_STEP): MoveRoots (random velocities, integrate kernel) ─► composition() ─► DirtyExtractor
 * </pre>
 *
 * <p>Invariants: parents come before their children in node order and one parent's children are consecutive;
 * the same N, seed and kernels give the same state after every frame.
 */
package dev.jtecs.bench.transforms;
