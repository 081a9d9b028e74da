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
 *       path; in a named module that requires {@code dev.jtecs.core}, through the lookup it handed over or a
 *       package open to the core) the codec spins one class per component with {@code LambdaMetafactory}, so a
 *       read is an ordinary interface call; otherwise it wraps the accessor's method handle
 *       ({@code RecordCodec.isSpun()} says which). The spun classes live in the record's module, so the codec
 *       exports this package to that module at run time: they implement {@code Getter}.
 *   <li>{@link dev.jtecs.component.internal.TypeAccess}: how all of these reach a class's accessors and
 *       constructors: through a lookup its module handed over at registration
 *       ({@code Components.register(MethodHandles.lookup(), ...)}, kept one per module), else by deep reflection.
 *       {@code getterHandle(field)} hands the getters to the storage layer as method handles, from which it spins
 *       one writer class per record type ({@code storage.internal.RecordWriter}).
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
 *   write:  the record type's spun RecordWriter ──► each field into its column    (storage.internal.TableValues)
 *   read:   each column at the row ──► Object[] ──► construct ──► a new Position
 * </pre>
 *
 * <p>Invariants: a class has one codec and one copier for the life of the JVM; a record the core cannot access
 * fails when its codec or copier is first built (a native component's codec: when it is registered) with an
 * {@code IllegalArgumentException} that says to register it with its module's lookup or open its package to
 * {@code dev.jtecs.core}; a codec accepts only records whose components are all primitive. Not exported:
 * {@code component}, {@code storage.internal} and {@code snapshot.internal} use it.
 */
package dev.jtecs.component.internal;
