package dev.jtecs.storage;

import dev.jtecs.builtin.EntityKey;
import dev.jtecs.component.BooleanField;
import dev.jtecs.component.ByteField;
import dev.jtecs.component.CharField;
import dev.jtecs.component.Component;
import dev.jtecs.component.ComponentValue;
import dev.jtecs.component.DoubleField;
import dev.jtecs.component.FieldHandle;
import dev.jtecs.component.FloatField;
import dev.jtecs.component.Input;
import dev.jtecs.component.IntField;
import dev.jtecs.component.LongField;
import dev.jtecs.component.ManagedComponent;
import dev.jtecs.component.BaseRelationship;
import dev.jtecs.component.PairComponent;
import dev.jtecs.component.TargetSelector;
import dev.jtecs.component.RelationshipValue;
import dev.jtecs.component.ScalarComponent;
import dev.jtecs.component.ShortField;
import dev.jtecs.storage.internal.DirtyState;
import dev.jtecs.storage.internal.Table;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * An archetype: the table of every entity that has exactly one set of components, seen from user code.
 *
 * <p>Rows are dense, zero-based and half-open ({@code [0, count())}). Columns come as typed views: {@code get}
 * for reading, {@code getMut} when the code will write (it marks that one column dirty). Views stay valid until
 * the next structural change of this archetype (a commit that adds or removes rows may grow the buffers).
 *
 * <p>Dirty state is per component plus one archetype-wide structural flag set by placements, moves in and
 * swap-removes; every dirty reader composes that flag in. Write counts and the structural count survive
 * {@link #clearDirtyComponents()}.
 *
 * <p>Once its world is closed, or {@code compact()} pruned it, an archetype keeps only its identity
 * ({@link #id()}, {@link #signature()}, {@link #components()}, {@link #has}, {@link #positionOf}) and its
 * {@link #storageVersion()} (which moved when the storage went, so cached views know they are stale); every other
 * method throws {@link IllegalStateException} saying which of the two happened.
 */
public final class Archetype {
    private final Table table;

    /** Wraps a storage table; only the world creates archetypes (the engine's own packages reach it). */
    @SuppressWarnings("exports") // Table is internal: the constructor is public for those packages only
    public Archetype(Table table) {
        this.table = Objects.requireNonNull(table, "table");
    }

    /** A stable id, unique within its world: the registry position. */
    public int id() {
        return table.id();
    }

    /** The sorted component ids. */
    public int[] signature() {
        return table.signature();
    }

    /** The components in signature order. */
    public List<Component<?>> components() {
        List<Component<?>> list = new ArrayList<>(table.componentCount());
        for (int p = 0; p < table.componentCount(); p++) {
            list.add(table.componentAt(p));
        }
        return List.copyOf(list);
    }

    /** The number of rows (entities). */
    public int count() {
        checkUsable();
        return table.count();
    }

    /** {@link #count()} without the released check, for the view checks of every element access. */
    int rows() {
        return table.count();
    }

    /** The released check of the other calls, for a view check that failed: the clearer error, if it applies. */
    void requireUsable() {
        checkUsable();
    }

    /** The rows every column can hold before growing; a multiple of 64. */
    public int capacityRows() {
        checkUsable();
        return table.capacityRows();
    }

    /** The entity-id column: row {@code r} belongs to entity {@code entities().get(r)}. */
    public LongColumn entities() {
        checkUsable();
        return table.entities();
    }

    /**
     * Changes whenever this archetype's buffers are replaced: growth, a whole-archetype buffer exchange (either
     * side), compaction or clearing. A column view or row reference taken under one value must not be used once
     * it changes; code that caches views can compare this number instead of reacquiring on every use.
     */
    public long storageVersion() {
        return table.storageVersion();
    }

    /** The entity at {@code row}. */
    public long entity(int row) {
        checkRow(row);
        return table.entityAt(row);
    }

    public boolean has(Component<?> component) {
        if (component instanceof TargetSelector<?> edge) {
            return java.util.Arrays.binarySearch(table.targetsOf(edge.relationship()), edge.target()) >= 0;
        }
        return table.has(component.id());
    }

    /** Whether the signature holds a component id. */
    public boolean hasId(int componentId) {
        return table.has(componentId);
    }

    /**
     * Registers row and lifetime notifications for this archetype. Existing rows are not replayed: observe
     * {@code ArchetypeCreated} to attach before the first row is placed.
     */
    public void addEntityObserver(EntityObserver observer) {
        checkUsable();
        table.addObserver(observer);
    }

    /** Removes one registration of an observer; returns whether it was registered. */
    public boolean removeEntityObserver(EntityObserver observer) {
        checkUsable();
        return table.removeObserver(observer);
    }

    /** The byte column of one native field, read only; {@code null} when the archetype lacks the component. */
    public ByteColumn get(ByteField field) {
        return (ByteColumn) nativeColumn(field, false);
    }

    /** The byte column of one native field, marked dirty for writing; {@code null} when absent. */
    public ByteColumn getMut(ByteField field) {
        return (ByteColumn) nativeColumn(field, true);
    }

    /**
     * The column of one native field of any primitive type, read only (marks nothing); {@code null} when the
     * archetype lacks the component. For code that handles fields generically (kernel runners, extractors); typed
     * code uses the typed {@code get} overloads.
     */
    public Column column(FieldHandle field) {
        return nativeColumn(Objects.requireNonNull(field, "field"), false);
    }

    /** The boolean column of one native field, read only; {@code null} when the archetype lacks the component. */
    public BooleanColumn get(BooleanField field) {
        return (BooleanColumn) nativeColumn(field, false);
    }

    /** The boolean column of one native field, marked dirty for writing; {@code null} when absent. */
    public BooleanColumn getMut(BooleanField field) {
        return (BooleanColumn) nativeColumn(field, true);
    }

    /** The short column of one native field, read only; {@code null} when the archetype lacks the component. */
    public ShortColumn get(ShortField field) {
        return (ShortColumn) nativeColumn(field, false);
    }

    /** The short column of one native field, marked dirty for writing; {@code null} when absent. */
    public ShortColumn getMut(ShortField field) {
        return (ShortColumn) nativeColumn(field, true);
    }

    /** The char column of one native field, read only; {@code null} when the archetype lacks the component. */
    public CharColumn get(CharField field) {
        return (CharColumn) nativeColumn(field, false);
    }

    /** The char column of one native field, marked dirty for writing; {@code null} when absent. */
    public CharColumn getMut(CharField field) {
        return (CharColumn) nativeColumn(field, true);
    }

    /** The int column of one native field, read only; {@code null} when the archetype lacks the component. */
    public IntColumn get(IntField field) {
        return (IntColumn) nativeColumn(field, false);
    }

    /** The int column of one native field, marked dirty for writing; {@code null} when absent. */
    public IntColumn getMut(IntField field) {
        return (IntColumn) nativeColumn(field, true);
    }

    /** The float column of one native field, read only; {@code null} when the archetype lacks the component. */
    public FloatColumn get(FloatField field) {
        return (FloatColumn) nativeColumn(field, false);
    }

    /** The float column of one native field, marked dirty for writing; {@code null} when absent. */
    public FloatColumn getMut(FloatField field) {
        return (FloatColumn) nativeColumn(field, true);
    }

    /** The long column of one native field, read only; {@code null} when the archetype lacks the component. */
    public LongColumn get(LongField field) {
        return (LongColumn) nativeColumn(field, false);
    }

    /** The long column of one native field, marked dirty for writing; {@code null} when absent. */
    public LongColumn getMut(LongField field) {
        return (LongColumn) nativeColumn(field, true);
    }

    /** The double column of one native field, read only; {@code null} when the archetype lacks the component. */
    public DoubleColumn get(DoubleField field) {
        return (DoubleColumn) nativeColumn(field, false);
    }

    /** The double column of one native field, marked dirty for writing; {@code null} when absent. */
    public DoubleColumn getMut(DoubleField field) {
        return (DoubleColumn) nativeColumn(field, true);
    }

    /** The column of a scalar component, read only; {@code null} when absent. */
    public DoubleColumn get(ScalarComponent.OfDouble scalar) {
        return (DoubleColumn) scalarColumn(scalar, false);
    }

    /** The column of a scalar component, marked dirty for writing; {@code null} when absent. */
    public DoubleColumn getMut(ScalarComponent.OfDouble scalar) {
        return (DoubleColumn) scalarColumn(scalar, true);
    }

    /** The column of a scalar component, read only; {@code null} when absent. */
    public LongColumn get(ScalarComponent.OfLong scalar) {
        return (LongColumn) scalarColumn(scalar, false);
    }

    /** The column of a scalar component, marked dirty for writing; {@code null} when absent. */
    public LongColumn getMut(ScalarComponent.OfLong scalar) {
        return (LongColumn) scalarColumn(scalar, true);
    }

    /** The column of a scalar component, read only; {@code null} when absent. */
    public IntColumn get(ScalarComponent.OfInt scalar) {
        return (IntColumn) scalarColumn(scalar, false);
    }

    /** The column of a scalar component, marked dirty for writing; {@code null} when absent. */
    public IntColumn getMut(ScalarComponent.OfInt scalar) {
        return (IntColumn) scalarColumn(scalar, true);
    }

    /** The column of a scalar component, read only; {@code null} when absent. */
    public BooleanColumn get(ScalarComponent.OfBoolean scalar) {
        return (BooleanColumn) scalarColumn(scalar, false);
    }

    /** The column of a scalar component, marked dirty for writing; {@code null} when absent. */
    public BooleanColumn getMut(ScalarComponent.OfBoolean scalar) {
        return (BooleanColumn) scalarColumn(scalar, true);
    }

    /** The heap column of a managed component, read only; {@code null} when absent. */
    public <T> ObjectColumn<T> get(ManagedComponent<T> component) {
        return heapColumn(component, false);
    }

    /** The heap column of a managed component, marked dirty for writing; {@code null} when absent. */
    public <T> ObjectColumn<T> getMut(ManagedComponent<T> component) {
        return heapColumn(component, true);
    }

    /** The heap column of a string scalar, read only; {@code null} when absent. */
    public ObjectColumn<String> get(ScalarComponent.OfString scalar) {
        return heapColumn(scalar, false);
    }

    /**
     * The heap column of a string scalar, marked dirty for writing; {@code null} when absent.
     *
     * @throws IllegalArgumentException for {@code EntityKey}, whose values change only through {@code World.set}
     *     (except inside a {@code batchSpawnAtRaw} initializer, which restores keys before they are registered)
     */
    public ObjectColumn<String> getMut(ScalarComponent.OfString scalar) {
        if (scalar == EntityKey.COMPONENT) {
            ObjectColumn<String> keys = heapColumn(scalar, false);
            if (keys == null || keys.isReadOnly()) {
                throw new IllegalArgumentException("EntityKey columns are read-only: keys change through World.set");
            }
        }
        return heapColumn(scalar, true);
    }

    /**
     * The wildcard column of a relationship: for each row, that entity's first edge (see {@link RelationshipColumn});
     * {@code null} when the archetype's entities hold no edge of it. Read only, dirty marks untouched.
     */
    public <V> RelationshipColumn<V> get(BaseRelationship<V> relationship) {
        checkUsable();
        Objects.requireNonNull(relationship, "relationship");
        return table.position(relationship.id()) < 0 ? null : new RelationshipColumn<>(this, relationship);
    }

    /**
     * {@link #get(BaseRelationship)} for code about to change edge payloads in place (a payload record stored by
     * reference whose fields are mutable objects): marks the relationship dirty, and for a dense relationship
     * also the column of the first edge, which is the edge every row of the archetype reports. {@code null}, and
     * nothing marked, when the archetype holds no edge of it.
     */
    public <V> RelationshipColumn<V> getMut(BaseRelationship<V> relationship) {
        RelationshipColumn<V> column = get(relationship);
        if (column == null) {
            return null;
        }
        table.markDirty(table.position(relationship.id()));
        if (!relationship.isSparse()) {
            long[] targets = table.targetsOf(relationship);
            int pair = targets.length == 0 ? -1 : table.pairPosition(relationship, targets[0]);
            if (pair >= 0) {
                table.markDirty(pair);
            }
        }
        return column;
    }

    /**
     * The first edge of a relationship (ascending target order) of the entity at {@code row}, or {@code null}.
     * For a dense relationship every row of an archetype has the same edges (each one is a pair component of the
     * signature); a sparse relationship's edges are read from the world's edge store.
     */
    public <V> V getFirstRelationship(BaseRelationship<V> relationship, int row) {
        checkRow(row);
        return relationship.valueType().cast(table.firstEdgeValue(relationship, row));
    }

    /**
     * The target of the first edge (ascending target order) of a relationship held by the entity at {@code row},
     * or 0 when it holds none: {@link #getFirstRelationship}'s target without the edge value, so a walk over many
     * rows allocates nothing.
     */
    public long firstTarget(BaseRelationship<?> relationship, int row) {
        checkRow(row);
        Objects.requireNonNull(relationship, "relationship");
        return table.firstTarget(relationship, row);
    }

    /**
     * Visits every edge of a relationship of the entity at {@code row}, in ascending target order: the
     * {@link RelationshipValue} of a target-only edge, the record of a payload edge.
     */
    public <V> void forEachRelationship(BaseRelationship<V> relationship, int row,
            java.util.function.Consumer<? super V> action) {
        checkRow(row);
        table.forEachEdge(relationship, row, (target, payload) -> action.accept(relationship.edgeValue(target,
                payload)));
    }

    /** One row's value of a component (a fresh record for native components); {@code null} when absent. */
    public <T> T getValue(int row, Component<T> component) {
        checkRow(row);
        if (component instanceof BaseRelationship<?> relationship) {
            return component.valueType().cast(getFirstRelationship(relationship, row));
        }
        if (component instanceof TargetSelector<?> selector) {
            if (!has(selector)) {
                return null;
            }
            return component.valueType().cast(selector.relationship().edgeValue(selector.target(),
                    table.edgePayload(selector.relationship(), selector.target(), row)));
        }
        int position = table.position(component.id());
        return position < 0 ? null : component.valueType().cast(table.readValue(position, row));
    }

    /**
     * Writes one existing component of one row without changing membership, and marks its column dirty.
     *
     * @throws IndexOutOfBoundsException when the row is outside {@code [0, count())}
     * @throws IllegalArgumentException when the archetype lacks the component
     */
    public void set(int row, Input input) {
        Objects.requireNonNull(input, "input");
        checkRow(row);
        if (input.component() == EntityKey.COMPONENT) {
            throw new IllegalArgumentException("EntityKey changes through World.set, which keeps the key index; "
                    + "archetype.set cannot change a durable key");
        }
        if (input instanceof RelationshipValue || input.component() instanceof BaseRelationship<?>
                || input.component() instanceof TargetSelector<?> || input.component() instanceof PairComponent) {
            throw new IllegalArgumentException("edges change through World.set, which keeps the signature and the "
                    + "reverse index; archetype.set cannot write " + input.component().name());
        }
        int position = requirePosition(input.component());
        if (input instanceof ComponentValue<?> value) {
            table.writeValue(position, row, value.value());
        } else {
            table.values().writeDefault(position, row);
        }
        table.markDirty(position);
    }

    /**
     * The read-only column of the records of one target's edges, for a dense payload relationship stored by
     * reference ({@code null} when the archetype lacks the edge). Records name their target, so they change only
     * through {@code World.set}; natively stored payloads have per-field handles instead
     * ({@code selector.floatField(...)}).
     *
     * @throws IllegalArgumentException for a target-only relationship or a natively stored payload
     */
    @SuppressWarnings("unchecked")
    public <T> ObjectColumn<T> get(TargetSelector<T> selector) {
        checkUsable();
        if (selector.storage() != dev.jtecs.component.StorageKind.MANAGED) {
            throw new IllegalArgumentException("relationship " + selector.relationship().name() + " has no record "
                    + "column (" + (selector.relationship().payloadType() == null ? "target-only"
                    : "stored natively: use field handles") + ")");
        }
        int position = table.pairPosition(selector.relationship(), selector.target());
        return position < 0 ? null : (ObjectColumn<T>) table.heapColumn(position);
    }

    /** Whether the component's column may have changed since the last clear (structural changes included). */
    public boolean isComponentDirty(Component<?> component) {
        checkUsable();
        int position = table.position(component.id());
        return position >= 0 && table.dirty().isDirty(position);
    }

    /** Whether any column may have changed since the last clear. */
    public boolean anyComponentDirty() {
        checkUsable();
        return table.dirty().anyDirty();
    }

    /** The components whose columns may have changed, in signature order. */
    public List<Component<?>> dirtyComponents() {
        checkUsable();
        List<Component<?>> dirty = new ArrayList<>();
        for (int p = 0; p < table.componentCount(); p++) {
            if (table.dirty().isDirty(p)) {
                dirty.add(table.componentAt(p));
            }
        }
        return dirty;
    }

    /** Declares that code wrote the component's column without going through {@code getMut}. */
    public void markComponentDirty(Component<?> component) {
        checkUsable();
        table.markDirty(requirePosition(component));
    }

    /**
     * Where {@code component} sits in this archetype's signature: the position {@link #markDirtyAt} takes, the
     * same for the archetype's whole life (a signature never changes); -1 when the archetype lacks it.
     */
    public int positionOf(Component<?> component) {
        Objects.requireNonNull(component, "component");
        int position = table.position(component.id());
        return position >= 0 ? position : -1;
    }

    /**
     * {@link #markComponentDirty} for the component at {@code position} (from {@link #positionOf}): for code that
     * marks the same components of the same archetypes pass after pass, such as a kernel runner, and keeps the
     * positions instead of looking each component up again.
     *
     * @throws IndexOutOfBoundsException unless {@code 0 <= position < components().size()}
     */
    public void markDirtyAt(int position) {
        checkUsable();
        table.markDirty(position); // the dirty state checks the position
    }

    public void markAllComponentsDirty() {
        checkUsable();
        table.dirty().markAllDirty();
    }

    /** Clears every dirty bit and the structural flag; counts survive. */
    public void clearDirtyComponents() {
        checkUsable();
        table.dirty().clear();
    }

    /** How many structural changes (placements, moves in, swap-removes) this archetype has seen. */
    public long structuralCount() {
        checkUsable();
        return table.dirty().structuralCount();
    }

    /**
     * Whether the row residue describes every structural change since a consumer's structural count
     * {@code previousCount} (see {@link #structuralAdded()}, {@link #structuralTouched()}); when false the
     * consumer must refresh the whole archetype.
     */
    public boolean structuralDescribed(long previousCount) {
        checkUsable();
        return table.dirty().structuralDescribed(previousCount);
    }

    /** The first row appended since dirty state was last cleared: rows {@code [structuralAdded(), count())}. */
    public int structuralAdded() {
        checkUsable();
        return table.dirty().structuralAdded();
    }

    /** Rows below {@link #structuralAdded()} overwritten by swap-removes since the last clear, ascending. */
    public int[] structuralTouched() {
        checkUsable();
        return table.dirty().structuralTouched();
    }

    /**
     * The most rows {@link #structuralTouched()} lists: when swap-removes overwrite more distinct rows than this
     * between clears, the residue no longer describes the change ({@link #structuralDescribed} turns false).
     */
    public static final int STRUCTURAL_TOUCHED_LIMIT = DirtyState.TOUCHED_LIMIT;

    /**
     * {@link #structuralTouched()} without the fresh array, for consumers that run every frame: writes the rows
     * into {@code rows[0, n)}, ascending, and returns {@code n}. An array of {@link #STRUCTURAL_TOUCHED_LIMIT}
     * rows always fits.
     *
     * @throws IllegalArgumentException when {@code rows} is shorter than the rows listed
     */
    public int structuralTouched(int[] rows) {
        checkUsable();
        return table.dirty().structuralTouched(java.util.Objects.requireNonNull(rows, "rows"));
    }

    /** Counts value writes of one component's column into {@link #valueCount()} from now on. */
    public void trackValueCount(Component<?> component) {
        checkUsable();
        table.dirty().trackValueCount(requirePosition(component));
    }

    /** Value writes (getMut, set, marks; never structural changes) declared on tracked columns. */
    public long valueCount() {
        checkUsable();
        return table.dirty().valueCount();
    }

    /** How many value writes were declared on one column ({@code getMut}, {@code set}, marks). */
    public long writeCount(Component<?> component) {
        checkUsable();
        return table.dirty().writeCount(requirePosition(component));
    }

    private Column nativeColumn(FieldHandle field, boolean mutable) {
        checkUsable();
        int position = table.fieldPosition(field);
        if (position < 0) {
            return null;
        }
        if (mutable) {
            table.markDirty(position);
        }
        return table.nativeColumn(position, field.field());
    }

    private Column scalarColumn(ScalarComponent<?> scalar, boolean mutable) {
        checkUsable();
        int position = table.position(scalar.id());
        if (position < 0) {
            return null;
        }
        if (mutable) {
            table.markDirty(position);
        }
        return table.nativeColumn(position, 0);
    }

    @SuppressWarnings("unchecked")
    private <T> ObjectColumn<T> heapColumn(Component<T> component, boolean mutable) {
        checkUsable();
        int position = table.position(component.id());
        if (position < 0) {
            return null;
        }
        if (mutable) {
            table.markDirty(position);
        }
        return (ObjectColumn<T>) table.heapColumn(position);
    }

    private int requirePosition(Component<?> component) {
        Objects.requireNonNull(component, "component");
        int position = table.position(component.id());
        if (position < 0) {
            throw new IllegalArgumentException("archetype " + table + " has no component " + component.name());
        }
        return position;
    }

    private void checkRow(int row) {
        if (row < 0 || row >= table.count()) {
            checkUsable(); // a released table has no rows: say why rather than which row is missing
            throw new IndexOutOfBoundsException("row=" + row + " count=" + table.count() + " archetype=" + id());
        }
    }

    /**
     * Refuses a call on an archetype whose storage is gone for good: its world closed, or {@code compact()}
     * pruned it. One field read; the column views' element accessors never come here.
     */
    private void checkUsable() {
        if (table.isReleased()) {
            throw table.releasedError();
        }
    }

    @Override
    public String toString() {
        return table.toString();
    }
}
