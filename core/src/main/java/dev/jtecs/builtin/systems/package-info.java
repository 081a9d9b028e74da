/**
 * The systems every new world carries ({@link dev.jtecs.builtin.systems.BuiltinSystems} registers them when the
 * world is created), and {@link dev.jtecs.builtin.systems.HierarchyOrder}, the parents-first walk of a
 * {@code ChildOf} hierarchy's archetypes that transform composition follows.
 *
 * <pre>
 *   per fixed step:  FIXED_PRE_UPDATE   SnapshotTransforms  Transform2D ──copy──► PreviousTransform2D
 *                    FIXED_POST_UPDATE  TTL                 remaining -= step ──spent──► despawn (staged)
 *   per frame:       POST_UPDATE        RelativeTransform2D parent Transform2D ∘ RelativeTransform2D
 *                                                           ──► child Transform2D, parents first
 * </pre>
 *
 * <p>This package is the top layer of the core, above the world: its bodies receive the {@code World}, and
 * nothing in the core names this package. A new world installs the systems by calling
 * {@code BuiltinSystems.install(World)} through a method handle it looks up by that class's name, so renaming
 * or moving {@code BuiltinSystems} or {@code install} means changing that name in {@code world} as well.
 * Invariants: builtin systems read and write columns a whole archetype at a time and allocate nothing per
 * entity; they mark a component dirty only where its values changed (TTL's {@code remaining} changes every
 * step); structural work (TTL despawns) is staged and published at the phase barrier.
 */
package dev.jtecs.builtin.systems;
