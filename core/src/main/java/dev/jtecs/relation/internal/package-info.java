/**
 * The relationship machinery of one world above the mutation model: {@link dev.jtecs.relation.internal.Relations}
 * answers the world's reads and walks, and is the commit drain's {@code DrainHooks}, so publication tells it what
 * happened to rows and edges and it stages what must follow.
 *
 * <pre>
 *   reads   World ─► Relations ─┬─ ReverseIndex   target ─► sources (dense: rows of the pair's archetypes;
 *                               │                                     sparse: the edge store's reverse index)
 *                               └─ Traversal      traverse (depth first, ascending ids), walkUp (first edges)
 *                                    ├─ PreorderIndex  a sparse exclusive relationship's forest in preorder (a
 *                                    │                 subtree is a run, a parent a position): a cache both walks
 *                                    │                 build once walks on the store paid for it
 *                                    ├─ ChildIndex     any other sparse relationship's children by target slot,
 *                                    │                 flat: the same kind of cache, for traverse
 *                                    └─ BuildTally     when a cache has earned its build: walks on the store since
 *                                                      the last change reached half the slots
 *   drain   despawned(id), placedWithPairs(rows) ─► Settlement: note dead targets
 *           segmentDone() ─► Settlement: cascading sources ─► staged despawns; others ─► staged edge removals
 *           applySparse(...), settleSparse() ─► SparseMarkers: edit the store, keep each marker in step
 *           publicationEnded(false) ─► Settlement: targets whose settlement was discarded are noted again
 * </pre>
 *
 * <p>Invariants: no edge outlives its target across publications, failed ones included; a relationship marker is
 * on an entity exactly while it holds an edge of that relationship; settlements read rows where the segment left
 * them, so a source re-targeted earlier in call order is spared. Internal to the core module.
 */
package dev.jtecs.relation.internal;
