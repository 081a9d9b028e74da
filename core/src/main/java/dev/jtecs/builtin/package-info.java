/**
 * What every world understands without registering anything: components with stable persisted names, and the
 * systems that give some of them behaviour.
 *
 * <ul>
 *   <li>Identity: {@link dev.jtecs.builtin.EntityKey} (unique, indexed names), {@link dev.jtecs.builtin.Name}
 *       (free labels).
 *   <li>State tags: {@link dev.jtecs.builtin.Disabled}, {@link dev.jtecs.builtin.Paused}.
 *   <li>Hierarchy: {@link dev.jtecs.builtin.ChildOf}, and {@link dev.jtecs.builtin.systems.HierarchyOrder}, the parents-first
 *       walk of a hierarchy's archetypes that composition follows.
 *   <li>Placement: {@link dev.jtecs.builtin.Transform2D}, {@link dev.jtecs.builtin.RelativeTransform2D},
 *       {@link dev.jtecs.builtin.PreviousTransform2D}, {@link dev.jtecs.builtin.Transform3D} (JOML math).
 *   <li>Lifetime: {@link dev.jtecs.builtin.TTL}.
 * </ul>
 *
 * <p>{@link dev.jtecs.builtin.systems.BuiltinSystems} registers three systems in every new world:
 *
 * <pre>
 *   per fixed step:  FIXED_PRE_UPDATE   SnapshotTransforms  Transform2D ──copy──► PreviousTransform2D
 *                    FIXED_POST_UPDATE  TTL                 remaining -= step ──spent──► despawn (staged)
 *   per frame:       POST_UPDATE        RelativeTransform2D parent Transform2D ∘ RelativeTransform2D
 *                                                           ──► child Transform2D, parents first
 * </pre>
 *
 * <p>Invariants: builtin systems read and write columns a whole archetype at a time and allocate nothing per
 * entity; they mark a component dirty only where its values changed (TTL's {@code remaining} changes every
 * step); structural work (TTL despawns) is staged and published at the phase barrier.
 */
package dev.jtecs.builtin;
