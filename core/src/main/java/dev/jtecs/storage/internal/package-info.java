/**
 * The storage behind the archetypes: how rows sit in memory, how they move between archetypes, and who owns each
 * buffer. These classes keep bytes and do what they are told; when a change happens is the mutation model's
 * business, and what an edge means is the relation layer's. Not exported: user code sees {@code Archetype} and
 * the column views of {@code dev.jtecs.storage}, which a {@link dev.jtecs.storage.internal.Table} makes.
 *
 * <pre>
 *   ArchetypeRegistry   every table: by id, by signature, by component; the add/remove graph; the dirty queue
 *    ├─ Table           one archetype: entity ids, native columns, heap columns, count, capacity, storage block
 *    │   ├─ TableValues      a component value into a row and back; bulk fills of a row range
 *    │   │    └─ RecordWriter  a record's fields into their columns in one call: a hidden class per record type,
 *    │   │                     spun by RecordWriters with the codec's getters as class-data constants
 *    │   ├─ DirtyState       per-component write bits and counts, the structural flag, the row residue
 *    │   │    └─ TouchedRows the rows swap-removes overwrote since the last clear (bounded)
 *    │   ├─ MovePlan         which column copies where to one destination table (cached per destination)
 *    │   ├─ RowCapture       a staged batch's claim on the current rows, copied just before they first change
 *    │   └─ IntTableMap      the cached add and remove edges: component id → next table
 *    ├─ StructureClock  counters that move when the shape of storage may have changed
 *    ├─ PairRegistry    (relationship, target) → its pair component (a LongMap per relationship); pairs by target
 *    └─ SparseEdges     sparse relationship edges: each source's targets (exclusive: one per slot, inline);
 *        │              each target's sources, ascending, when indexed
 *        └─ TargetLists the reverse index of one relationship: a target's list in the cell of its slot, a
 *                       second id of a taken slot (or a target in a slot too high for the cells) in a LongMap
 *   NativeMemory        every off-heap buffer of one world: slab size classes, one arena per large buffer
 *
 *   for the mutation model:  SignatureBuilder   a row's final signature, assembled before one table lookup
 *                            StagedRows         spawn-queue rows, placed with one bulk copy per column
 *                            SegmentReads       bulk reads of a caller's id segment (batchSpawnAtRaw)
 * </pre>
 *
 * <p>A {@code Table} is the one owner of its column segments: it allocates them from {@code NativeMemory}, grows
 * them by doubling (to a multiple of {@code ROW_PADDING} rows, one bulk copy per column), hands them whole to an
 * empty table in an exchange ({@code exchangeInto}: the two tables also swap storage blocks, so the entity index
 * need not change), shrinks them in {@code rebuild} (compaction) and frees them. Each replacement bumps the table's
 * {@code storageVersion()}, rebuilds its views, and ticks the {@code StructureClock}. A row moves with its
 * {@code MovePlan}; a removal swaps the last row into the hole, so rows {@code [0, count)} stay dense.
 * {@code DirtyState} reports a table's first mark after a clear to the registry's dirty queue. Pair components
 * are ordinary columns of a table; {@code Table} also reads a row's edges from them ({@code targetsOf},
 * {@code forEachEdge}). Sparse edges live beside the tables, in {@code SparseEdges}, so a source's target set
 * never creates an archetype.
 *
 * <p>Invariants: only this package and {@code snapshot} touch {@code java.lang.foreign}, and every segment here
 * comes from and returns to the world's {@code NativeMemory}, which frees everything on {@code close()}; a table's
 * id is its index in the registry, a signature maps to one table, and a table is removed only by
 * {@code ArchetypeRegistry.prune} (empty, never the root), whose id and storage block go to the next table
 * created; a view is valid while its table's {@code storageVersion()} is the one it was taken at; nothing here
 * imports the mutation model, the relation layer or the world.
 */
package dev.jtecs.storage.internal;
