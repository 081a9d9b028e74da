/**
 * How component values cross between records and columns: per record class, the handles that read one field
 * without boxing, build a record from its fields, or copy one shallowly. Each is built once from method handles
 * and cached in a {@link java.lang.ClassValue}, so no hot path reflects.
 *
 * <ul>
 *   <li>{@link dev.jtecs.component.internal.RecordCodec}: for a record whose components are all primitive (a
 *       native component, a native relationship payload), its field names and kinds in declaration order, which
 *       become the component's {@code ComponentLayout} and so its native columns; typed reads of one field
 *       ({@code getFloat(record, field)}, ...), with which the table's value codec and the spawn queue's staged
 *       rows write a record field by field; and {@code construct}, which builds a record back from a row's field
 *       values.
 *   <li>{@link dev.jtecs.component.internal.Getter}: the typed accessor of one record component, one
 *       sub-interface per primitive kind. When the record is fully accessible to the core (always on the class
 *       path; in a named module, when its package is open to {@code dev.jtecs.core}) the codec spins one class
 *       per component with {@code LambdaMetafactory}, so a read is an ordinary interface call; otherwise it wraps
 *       the accessor's method handle ({@code RecordCodec.isSpun()} says which).
 *   <li>{@link dev.jtecs.component.internal.RecordWriter}: all fields of one record into their columns in one
 *       call ({@code RecordCodec.writeAll}), which is how the table's value codec writes a record. The codec spins
 *       one hidden class per record type ({@code RecordWriters}) whose {@code write} loads each field's getter
 *       handle as a constant (class data), so the JIT inlines the accessors and a write pays one interface
 *       dispatch per record instead of one per field (a site shared by every record type has many receivers;
 *       measured on set-existing, 16K entities: 33 to 25 ns per call). Without it, field by field.
 *   <li>{@link dev.jtecs.component.internal.RecordCopier}: a new record of the same class holding the same
 *       component references, for one managed value written to many entities (a batch set or spawn), so that
 *       replacing one entity's record never replaces another's.
 *   <li>{@link dev.jtecs.component.internal.TreeCodec}: the automatic snapshot codec, between a value and a
 *       detached tree of maps, lists and scalars (what a table snapshot holds and {@code snapshotSave} returns),
 *       with the readers that refuse a malformed tree.
 * </ul>
 *
 * <pre>
 *   record Position(float x, float y) ── RecordCodec.of ──► names [x, y], kinds [FLOAT, FLOAT]
 *                                                            ──► ComponentLayout ──► one column per field
 *   write:  the record's RecordWriter ──► each field into its column, at the row  (storage.internal.TableValues)
 *   read:   each column at the row ──► Object[] ──► construct ──► a new Position
 * </pre>
 *
 * <p>Invariants: a class has one codec and one copier for the life of the JVM; a record the core cannot access
 * fails when its codec or copier is first built (a native component's codec: when it is registered) with an
 * {@code IllegalArgumentException} that says to open its package to {@code dev.jtecs.core}; a codec accepts only
 * records whose components are all primitive. Not exported: {@code component} and {@code storage.internal} use it.
 */
package dev.jtecs.component.internal;
