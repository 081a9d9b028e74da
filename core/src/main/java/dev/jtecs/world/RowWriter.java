package dev.jtecs.world;

import dev.jtecs.component.BaseRelationship;
import dev.jtecs.component.BooleanField;
import dev.jtecs.component.ByteField;
import dev.jtecs.component.CharField;
import dev.jtecs.component.Component;
import dev.jtecs.component.DoubleField;
import dev.jtecs.component.FieldHandle;
import dev.jtecs.component.FloatField;
import dev.jtecs.component.IntField;
import dev.jtecs.component.LongField;
import dev.jtecs.component.ShortField;
import dev.jtecs.component.TargetSelector;
import dev.jtecs.entity.Entity;
import dev.jtecs.entity.internal.EntityIndex;
import dev.jtecs.storage.BooleanColumn;
import dev.jtecs.storage.ByteColumn;
import dev.jtecs.storage.CharColumn;
import dev.jtecs.storage.Column;
import dev.jtecs.storage.DoubleColumn;
import dev.jtecs.storage.FloatColumn;
import dev.jtecs.storage.IntColumn;
import dev.jtecs.storage.LongColumn;
import dev.jtecs.storage.ShortColumn;
import dev.jtecs.storage.internal.ArchetypeRegistry;
import dev.jtecs.storage.internal.DirtyState;
import dev.jtecs.storage.internal.StructureClock;
import dev.jtecs.storage.internal.Table;

/**
 * A reusable reference to one entity's row of one native component, for changing a few fields of many entities one
 * at a time: {@link #at} finds the entity's row and marks the component's column dirty (as {@link World#getMut}
 * does), then {@code set} and {@code get} write and read its fields in place. Nothing is allocated per call; the
 * writer keeps the column views of the archetype it last found, so a run of entities in one archetype pays the
 * archetype's lookups once.
 *
 * <pre>{@code
 * RowWriter positions = world.rowWriter(POSITION);     // once, beside the system that writes
 * for (long id : moved) {
 *     positions.at(id).set(X, positions.get(X) + 1f).set(Y, 0f);
 * }
 * }</pre>
 *
 * <p>What a write does is what {@link World#write(long, FloatField, float)} does for each field: the value lands in
 * the entity's row at once, inside a {@code defer} scope or not, and work staged for the entity keeps its place.
 *
 * <p>A row found by {@code at} stays the writer's until the next structural change to an archetype holding the
 * component (rows placed, moved or removed, buffers grown or released: {@link World#structureVersion(Component)}) or
 * until the world closes. After that, {@code set} and {@code get} throw {@link IllegalStateException} instead of
 * reaching memory the row no longer owns: call {@code at} again. The check is one counter compare per access. A
 * {@code set} after the dirty marks were cleared (a frame ended while the row stayed current) marks the column
 * again, so no write goes unreported.
 *
 * <p>Owned by the world's thread, as the world is. Not for relationship pairs or sparse payloads: a writer takes a
 * native component, or the {@link TargetSelector} of a dense relationship with a native payload.
 */
public final class RowWriter {
    /** The store of no archetype: what {@link #store} holds while nothing is cached (never an answer of aliveStore). */
    private static final int NOTHING = -2;

    private final World world;
    private final EntityIndex index;
    private final ArchetypeRegistry archetypes;
    private final StructureClock clock;
    private final Component<?> component;
    private final int counter; // the structure counter that covers the component's archetypes
    private final BaseRelationship<?> relationship; // of a selector, else null
    private final long target;

    // the archetype last found, and what was read from it; valid while clock.peek(counter) == version
    private int store = NOTHING;
    private long version = -1;
    private DirtyState dirty;
    private int position;
    private int wildcard = -1;
    private final Column[] columns; // the component's column views in that archetype, by field
    // the row at() found: -1 before the first at() and after a failed one
    private int row = -1;
    private long entity;

    RowWriter(World world, EntityIndex index, ArchetypeRegistry archetypes, Component<?> component) {
        this.world = world;
        this.index = index;
        this.archetypes = archetypes;
        this.clock = archetypes.clock();
        this.component = component;
        if (component instanceof TargetSelector<?> selector) {
            relationship = selector.relationship();
            target = selector.target();
            counter = relationship.id();
        } else {
            relationship = null;
            target = 0;
            counter = component.id();
        }
        this.columns = new Column[component.layout().nativeColumnCount()];
    }

    /** The component whose fields this writer reaches. */
    public Component<?> component() {
        return component;
    }

    /** The entity the last successful {@link #at} found, or 0 before one. */
    public long entity() {
        return row < 0 ? 0 : entity;
    }

    /**
     * Finds the row of {@code id} and marks the component's column of its archetype dirty; returns this writer.
     *
     * @throws IllegalArgumentException when the id is dead, stale or malformed, or the entity lacks the component
     *     (the writer then holds no row)
     * @throws IllegalStateException when the entity's spawn is staged (it has no row until its scope commits), on
     *     another thread than the world's, or once the world is closed
     */
    public RowWriter at(long id) {
        world.checkOpen();
        row = -1;
        int found = index.aliveStore(id);
        if (found != store || clock.peek(counter) != version) {
            locate(id, found);
        }
        markDirty();
        entity = id;
        row = index.rowOf(Entity.slot(id));
        return this;
    }

    /** Reads the archetype of {@code id} (its store {@code found}, or -1) afresh: checks, position, column views. */
    private void locate(long id, int found) {
        if (found < 0) {
            throw world.notWritable(id, component, "rowWriter.at");
        }
        store = NOTHING; // until every column below is the new table's: a failure here leaves nothing to reuse
        long now = clock.version(counter); // a reading: the next change to the component's archetypes ticks it
        Table candidate = archetypes.ofStore(found);
        int at = relationship != null ? candidate.pairPosition(relationship, target)
                : candidate.position(component.id());
        if (at < 0) {
            throw new IllegalArgumentException("rowWriter.at: entity " + Entity.toString(id) + " has no component "
                    + component.name() + "; add it with set first");
        }
        for (int f = 0; f < columns.length; f++) {
            columns[f] = candidate.nativeColumn(at, f);
        }
        dirty = candidate.dirty();
        position = at;
        wildcard = relationship != null ? candidate.position(relationship.id()) : -1;
        store = found;
        version = now;
    }

    /** The column of {@code field} at the row found, after checking that the row is still the writer's. */
    private Column column(FieldHandle field) {
        if (row < 0 || clock.peek(counter) != version || !world.usableHere()) {
            throw expired(field);
        }
        if (field.component() != component && !sameComponent(field.component())) {
            throw new IllegalArgumentException("field " + field.name() + " of " + field.component().name()
                    + " given to a row writer of " + component.name());
        }
        return columns[field.field()];
    }

    /**
     * {@link #column}, for a write: when the column's dirty mark was cleared since {@link #at} made it (a frame
     * ended, or {@code clearDirty}, while the row stayed current), the write marks it again, as {@code at} would.
     */
    private Column writable(FieldHandle field) {
        Column column = column(field);
        if (!dirty.isDirty(position) || wildcard >= 0 && !dirty.isDirty(wildcard)) {
            markDirty();
        }
        return column;
    }

    private void markDirty() {
        dirty.markDirty(position);
        if (wildcard >= 0) {
            dirty.markDirty(wildcard);
        }
    }

    /** Whether {@code other} names this writer's component: itself, or a selector of the same edge. */
    private boolean sameComponent(Component<?> other) {
        return relationship != null && other instanceof TargetSelector<?> selector
                && selector.relationship() == relationship && selector.target() == target;
    }

    private RuntimeException expired(FieldHandle field) {
        world.checkOpen();
        if (row < 0) {
            return new IllegalStateException("rowWriter: no row to reach " + field.name() + " in; call at(id) first"
                    + " (the last at, if any, failed)");
        }
        return new IllegalStateException("rowWriter: the row of entity " + Entity.toString(entity) + " expired: an "
                + "archetype holding " + component.name() + " changed structurally since at(id); call at(id) again");
    }

    public RowWriter set(FloatField field, float value) {
        ((FloatColumn) writable(field)).set(row, value);
        return this;
    }

    public RowWriter set(IntField field, int value) {
        ((IntColumn) writable(field)).set(row, value);
        return this;
    }

    public RowWriter set(LongField field, long value) {
        ((LongColumn) writable(field)).set(row, value);
        return this;
    }

    public RowWriter set(DoubleField field, double value) {
        ((DoubleColumn) writable(field)).set(row, value);
        return this;
    }

    public RowWriter set(ShortField field, short value) {
        ((ShortColumn) writable(field)).set(row, value);
        return this;
    }

    public RowWriter set(CharField field, char value) {
        ((CharColumn) writable(field)).set(row, value);
        return this;
    }

    public RowWriter set(ByteField field, byte value) {
        ((ByteColumn) writable(field)).set(row, value);
        return this;
    }

    public RowWriter set(BooleanField field, boolean value) {
        ((BooleanColumn) writable(field)).set(row, value);
        return this;
    }

    public float get(FloatField field) {
        return ((FloatColumn) column(field)).get(row);
    }

    public int get(IntField field) {
        return ((IntColumn) column(field)).get(row);
    }

    public long get(LongField field) {
        return ((LongColumn) column(field)).get(row);
    }

    public double get(DoubleField field) {
        return ((DoubleColumn) column(field)).get(row);
    }

    public short get(ShortField field) {
        return ((ShortColumn) column(field)).get(row);
    }

    public char get(CharField field) {
        return ((CharColumn) column(field)).get(row);
    }

    public byte get(ByteField field) {
        return ((ByteColumn) column(field)).get(row);
    }

    public boolean get(BooleanField field) {
        return ((BooleanColumn) column(field)).get(row);
    }
}
