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
 * block are meaningful only for alive slots; nothing is allocated per entity; the index grows every array it
 * keeps before it changes a slot, so a failed growth leaves it as it was.
 *
 * <p>The lowest layer also holds what every layer above needs to stay consistent when something fails:
 * {@link dev.jtecs.entity.internal.Growth}, the one way the engine grows the arrays it keeps state in;
 * {@link dev.jtecs.entity.internal.AllocationFaults}, the test switch ({@code -Djtecs.allocationFaults=true}) that
 * makes the k-th native allocation or heap growth fail, asked by {@code Growth} and the native allocator; and
 * {@link dev.jtecs.entity.internal.Failures}, which keeps the first of several failures and rethrows it once the
 * work that must finish has finished. Internal to the core module; exported only to the stress suite, for the
 * fault switch.
 */
package dev.jtecs.entity.internal;
