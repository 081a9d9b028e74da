/**
 * What every world understands without registering anything: components with stable persisted names.
 *
 * <ul>
 *   <li>Identity: {@link dev.jtecs.builtin.EntityKey} (unique, indexed names), {@link dev.jtecs.builtin.Name}
 *       (free labels).
 *   <li>State tags: {@link dev.jtecs.builtin.Disabled}, {@link dev.jtecs.builtin.Paused}.
 *   <li>Hierarchy: {@link dev.jtecs.builtin.ChildOf}.
 *   <li>Placement: {@link dev.jtecs.builtin.Transform2D}, {@link dev.jtecs.builtin.RelativeTransform2D},
 *       {@link dev.jtecs.builtin.PreviousTransform2D}, {@link dev.jtecs.builtin.Transform3D} (JOML math).
 *   <li>Lifetime: {@link dev.jtecs.builtin.TTL}.
 * </ul>
 *
 * <p>Invariants: these are components only (names persisted across releases, layouts fixed); the behaviour a
 * world gives some of them lives in {@code dev.jtecs.builtin.systems}, the top layer of the core, so storage,
 * queries and the mutation model may use these types without reaching the world.
 */
package dev.jtecs.builtin;
