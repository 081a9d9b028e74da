/**
 * What the frame-based jobs share: the workload contract the command line drives ({@code FrameWorkload}), the
 * kernel choice ({@code --kernels scalar|vector}), the dirty-driven extraction step that copies changed columns
 * into an off-heap output buffer, and the state fingerprint that "same seed, same state" is checked with.
 *
 * <pre>
 *   world.update(dt) ─► systems write columns (getMut / kernel runner mark them dirty)
 *                    ─► DirtyExtractor (a late system): dirty archetypes ─► dirty columns ─► bulk copies ─► output
 *                    ─► the world clears what is left dirty at the end of the frame
 *   end of run: StateChecksum.of(world, fields) ─► 64-bit fingerprint, ids ascending
 * </pre>
 *
 * <p>Invariants: extraction copies whole row ranges with {@code MemorySegment.copy}, never element by element;
 * after an extraction the output mirrors every consumed archetype's extracted columns bit for bit; the
 * fingerprint depends only on the entities, the caller's field order and the values.
 */
package dev.jtecs.bench.frame;
