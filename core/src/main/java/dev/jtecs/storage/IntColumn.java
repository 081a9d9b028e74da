package dev.jtecs.storage;

import dev.jtecs.component.PrimitiveKind;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * A view of one off-heap {@code int} column: rows {@code [0, capacityRows)} of a 64-byte-aligned segment.
 *
 * <p>A view stays valid until the archetype's next structural change (growth replaces the buffer); take views
 * inside the loop that uses them. Rows at or above the archetype's count are padding: kernels may read and
 * write them, nothing else observes them. With {@link ViewChecks#ENABLED} every access of an archetype's view
 * checks both rules and throws instead of touching a recycled buffer.
 */
public final class IntColumn implements Column {
    private static final ValueLayout.OfInt LAYOUT = ValueLayout.JAVA_INT;

    private final MemorySegment segment;
    private final Archetype owner;
    private final long version;
    private final String label;

    /** A detached view of {@code segment} (no archetype, never checked); its size: a multiple of int's. */
    public IntColumn(MemorySegment segment) {
        this(segment, null);
    }

    /** A view of one column of {@code owner} at its current {@link Archetype#storageVersion()}, unlabelled. */
    public IntColumn(MemorySegment segment, Archetype owner) {
        this(segment, owner, null);
    }

    /**
     * A view of the column {@code label} of {@code owner} (the component and field it holds, as
     * {@code Position.x}) at its current {@link Archetype#storageVersion()}; the checked mode names the label.
     */
    public IntColumn(MemorySegment segment, Archetype owner, String label) {
        this.segment = Column.checkSegment(segment, LAYOUT.byteSize());
        this.owner = owner;
        this.version = owner == null ? 0 : owner.storageVersion();
        this.label = label;
    }

    public int get(int row) {
        if (ViewChecks.ENABLED) {
            ViewChecks.row(this, label, owner, version, row);
        }
        return segment.getAtIndex(LAYOUT, row);
    }

    public void set(int row, int value) {
        if (ViewChecks.ENABLED) {
            ViewChecks.row(this, label, owner, version, row);
        }
        segment.setAtIndex(LAYOUT, row, value);
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
        return PrimitiveKind.INT;
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
