package dev.jtecs.storage;

import dev.jtecs.component.PrimitiveKind;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * A view of one off-heap {@code short} column: rows {@code [0, capacityRows)} of a 64-byte-aligned segment.
 *
 * <p>A view stays valid until the archetype's next structural change (growth replaces the buffer); take views
 * inside the loop that uses them. Rows at or above the archetype's count are padding: kernels may read and
 * write them, nothing else observes them.
 */
public final class ShortColumn implements Column {
    private static final ValueLayout.OfShort LAYOUT = ValueLayout.JAVA_SHORT;

    private final MemorySegment segment;

    /** A view of {@code segment}; its size must be a multiple of short's size. */
    public ShortColumn(MemorySegment segment) {
        this.segment = Column.checkSegment(segment, LAYOUT.byteSize());
    }

    public short get(int row) {
        return segment.getAtIndex(LAYOUT, row);
    }

    public void set(int row, short value) {
        segment.setAtIndex(LAYOUT, row, value);
    }

    @Override
    public MemorySegment segment() {
        return segment;
    }

    @Override
    public int capacityRows() {
        return (int) (segment.byteSize() / LAYOUT.byteSize());
    }

    @Override
    public PrimitiveKind kind() {
        return PrimitiveKind.SHORT;
    }
}
