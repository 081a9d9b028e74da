/**
 * Component declarations: the process-wide registry, the four storage kinds and the layouts derived from records.
 *
 * <p>A component is declared once per process and then used by every world. The kind follows from the type:
 *
 * <pre>
 *   record Velocity(float x, float y)      -> NativeComponent   one off-heap column per field (SoA)
 *   record Inventory(List&lt;Item&gt; items)     -> ManagedComponent  one Object[] column
 *   Components.tag("game.Enemy")           -> TagComponent      no column
 *   Components.scalar("game.Health", 1.0)  -> ScalarComponent   one raw column (double/long/int/boolean/String)
 * </pre>
 *
 * <p>Invariants: ids are dense from 1 and never reused; a name maps to exactly one definition; ids at or above
 * {@link dev.jtecs.component.Components#FIRST_PAIR_ID} are never registered (they belong to relationship pairs).
 */
package dev.jtecs.component;
