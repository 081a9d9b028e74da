package dev.jtecs.storage;

import dev.jtecs.component.PrimitiveKind;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * A view of one off-heap {@code long} column: rows {@code [0, capacityRows)} of a 64-byte-aligned segment. An
 * archetype's entity-id column is such a view, read-only: entities change rows only through the world.
 *
 * <p>A view stays valid until the archetype's next structural change (growth replaces the buffer); take views
 * inside the loop that uses them. Rows at or above the archetype's count are padding: kernels may read and
 * write them, nothing else observes them. With {@link ViewChecks#ENABLED} every access of an archetype's view
 * checks both rules and throws instead of touching a recycled buffer.
 */
public final class LongColumn implements Column {
    private static final ValueLayout.OfLong LAYOUT = ValueLayout.JAVA_LONG;

    private final MemorySegment segment;
    private final Archetype owner;
    private final long version;
    private final boolean readOnly;
    private final String label;

    /** A detached view of {@code segment} (no archetype, never checked); its size must be a multiple of 8. */
    public LongColumn(MemorySegment segment) {
        this(segment, null, false);
    }

    /**
     * A view of one column of {@code owner} at its current {@link Archetype#storageVersion()}; {@code readOnly}
     * refuses {@link #set} and hands out a read-only {@link #segment()}.
     */
    public LongColumn(MemorySegment segment, Archetype owner, boolean readOnly) {
        this(segment, owner, readOnly, null);
    }

    /**
     * {@link #LongColumn(MemorySegment, Archetype, boolean)} with the column's {@code label} (the component and
     * field it holds, or what else the column is), which the checked mode names.
     */
    public LongColumn(MemorySegment segment, Archetype owner, boolean readOnly, String label) {
        MemorySegment checked = Column.checkSegment(segment, LAYOUT.byteSize());
        this.segment = readOnly ? checked.asReadOnly() : checked;
        this.owner = owner;
        this.version = owner == null ? 0 : owner.storageVersion();
        this.readOnly = readOnly;
        this.label = label;
    }

    public long get(int row) {
        if (ViewChecks.ENABLED) {
            ViewChecks.row(this, label, owner, version, row);
        }
        return segment.getAtIndex(LAYOUT, row);
    }

    /** @throws UnsupportedOperationException on a read-only view (an archetype's entity column) */
    public void set(int row, long value) {
        if (readOnly) {
            throw new UnsupportedOperationException("the entity column of " + owner + " is read-only: entities "
                    + "change rows only through World calls");
        }
        if (ViewChecks.ENABLED) {
            ViewChecks.row(this, label, owner, version, row);
        }
        segment.setAtIndex(LAYOUT, row, value);
    }

    /** Whether {@link #set} and writes through {@link #segment()} are refused. */
    public boolean isReadOnly() {
        return readOnly;
    }

    @Override
    public MemorySegment segment() {
        if (ViewChecks.ENABLED) {
            ViewChecks.current(this, label, owner, version);
        }
        return segment;
    }

    @Override
    public int capacityRows() {
        return (int) (segment.byteSize() / LAYOUT.byteSize());
    }

    @Override
    public PrimitiveKind kind() {
        return PrimitiveKind.LONG;
    }

    @Override
    public Archetype owner() {
        return owner;
    }

    @Override
    public long storageVersion() {
        return version;
    }
}
