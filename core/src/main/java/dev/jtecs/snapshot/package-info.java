/**
 * Snapshots: saving a world and loading it back, as a detached table (maps, lists and values that a JSON library
 * writes as they are) or as framed, checksummed bytes whose native columns move with one bulk copy each.
 *
 * <p>A snapshot holds the committed entities (exact ids and generations, every saved component value, dense
 * and sparse relationship edges with their payloads, {@code EntityKey} claims), the entity index's free slots
 * and next id, the random streams (under {@link dev.jtecs.snapshot.Snapshot#RANDOM_KEY}), the state stack, the
 * pipeline's fixed-step remainder and phase flags, and named custom data. Components are named by their
 * persisted names in a component table with their native field layouts, never by process-local ids.
 *
 * <pre>
 *   save:  publish ─► customData ─► handlers ─► OnSnapshotSave ─► random ─► frames ─► table | binary (+ file)
 *   load:  validate everything ─► StartSnapshotLoad ─► clear + restore (membership callbacks) ─► states,
 *          pipeline ─► random ─► handler.load + onData per key ─► handlers' finish ─► FinishSnapshotLoad
 * </pre>
 *
 * <p>Invariants: a load that throws {@link dev.jtecs.snapshot.InvalidSnapshotException} has changed nothing; no
 * length in the input can make the loader allocate or map more than the input holds; a save never changes the
 * world; two identical worlds save identical bytes. This package and its internals are the one place outside
 * storage that touches {@code MemorySegment}: the binary codec frames its bytes in one.
 */
package dev.jtecs.snapshot;
