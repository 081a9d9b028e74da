/**
 * The world's entity table ({@link dev.jtecs.entity.internal.EntityIndex}): per slot its generation, lifecycle
 * state and, while alive, its storage block and row.
 *
 * <pre>
 *   allocate ─► RESERVED ─publish─► ALIVE ─free─► FREE ─allocate─► ...     (generation + 1 on every free)
 *   a slot whose generation would overflow ─► RETIRED, never handed out again
 * </pre>
 *
 * <p>Invariants: a slot is in exactly one state; only free slots are on the free stack, each once; the row and
 * block are meaningful only for alive slots; nothing is allocated per entity. Internal to the core module.
 */
package dev.jtecs.entity.internal;
