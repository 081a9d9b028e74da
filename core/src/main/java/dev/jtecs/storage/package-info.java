/**
 * Archetype tables and their columns: the only place in the engine that touches {@code MemorySegment}.
 *
 * <p>An archetype holds every entity with one exact signature. Each primitive field of a native component is its
 * own off-heap column (struct of arrays), so a kernel over {@code Position.x} streams one contiguous, 64-byte
 * aligned buffer. Columns grow geometrically with one bulk copy each; a removal moves the last row into the hole
 * so rows stay dense.
 *
 * <pre>
 *            row 0   row 1   row 2          capacityRows (multiple of 64)
 * entities [  e7   |  e2   |  e9   | pad ... ]
 * pos.x    [ 1.0f  | 4.0f  | 0.5f  | pad ... ]   one aligned segment per field
 * pos.y    [ 2.0f  | 0.0f  | 9.0f  | pad ... ]
 * label    [ "a"   | "b"   | "c"   | null  ]   heap column (managed / string scalar)
 * </pre>
 *
 * <p>Invariants: views ({@code FloatColumn} ...) are valid until the archetype's next structural change
 * ({@code Archetype.storageVersion()} for one archetype, {@code World.structureVersion()} for the whole world
 * tell when; with {@code -Djtecs.checkViews=true}, {@link dev.jtecs.storage.ViewChecks}, a stale view or a row
 * at or above the count throws); rows at or above {@code count} are padding that only kernels touch, through
 * segments; the entity column is read-only; every buffer is owned and freed by the world's native allocator, and
 * this package (with its internals) is the only one of the core that touches {@code java.lang.foreign}.
 * {@link dev.jtecs.storage.EntityObserver}s hear what happens to an archetype's rows.
 */
package dev.jtecs.storage;
