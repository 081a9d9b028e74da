/**
 * How snapshots are written and read: {@code SnapshotEngine} orchestrates (checks, handlers, events, the
 * restoration through the mutation model's batches), {@code SaveModel} selects what a save writes,
 * {@code SnapshotWriter} writes it (table trees, or the {@code Binary} framing with {@code Tagged} metadata),
 * {@code SnapshotReader} decodes and validates a snapshot into a {@code LoadModel} before anything changes,
 * {@code Codecs} and {@code Trees} are the automatic codecs and the strict readers of detached trees.
 *
 * <pre>
 *   World ─► SnapshotEngine ─ save ─► SaveModel ─► SnapshotWriter ─► tree | bytes (Binary, Tagged)
 *                           └ load ─► SnapshotReader ─► LoadModel ─► MutationModel.restore ─► batch initializers
 *                                                                      (Table.importColumn, SparseEdges.add)
 * </pre>
 *
 * <p>Invariants: columns are read and written through storage ({@code Table.exportColumn}/{@code importColumn},
 * one bulk copy per column run); the reader checks every count and length against the bytes that remain
 * before it allocates; nothing here imports the world layer ({@code SnapshotHost} is what the world gives).
 */
package dev.jtecs.snapshot.internal;
