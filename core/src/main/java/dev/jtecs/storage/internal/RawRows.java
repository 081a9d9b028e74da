package dev.jtecs.storage.internal;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Copies of single 4- and 8-byte column elements (one row of one column) for the moves and swap-removes of one row
 * at a time,
 * with the checks a segment access makes done once per element instead of once per read and once per write.
 *
 * <p>Why. A typed access through a column's own segment checks the segment (not null, not read-only, the offset in
 * bounds, its arena alive and owned) and the layout (alignment) on every read and every write; a row move copies
 * one element per column, two accesses each, and on an instant {@code remove} of a two-column component those
 * checks were about a fifth of the call (16,384 entities, a pinned harness: 44 to 46 ns per call through the
 * column segments, 35 to 36 through this class). Here {@link #at} checks the element's offset against its segment's
 * size and the segment's arena for liveness, once per element, and the copy goes through one segment that spans
 * the address space, whose own checks the JIT folds away.
 *
 * <p>Safety. An address comes only from {@link #at}, which throws {@link IllegalStateException} for an offset
 * outside the segment or a segment whose arena is closed (a freed buffer, a pooled block handed on): the same
 * rules a segment access enforces, so a stale column never reads or writes memory it does not own. Columns are
 * never read-only and their arenas are not confined to a thread, so those checks have nothing to add. The copies
 * run on the world's thread, which is also the only one that frees a world's buffers, so no buffer is freed
 * between the check and the copy.
 *
 * <p>Spanning the address space takes {@code MemorySegment.reinterpret}, a restricted method: {@link #ENABLED}
 * only where native access is enabled for the core, and not with {@code -Djtecs.checkedRows=true} (which the build
 * sets for one run of the table tests, so both ways stay tested). Elsewhere the callers copy through the column
 * segments themselves.
 */
final class RawRows {
    /** Whether elements are copied here: native access is enabled and {@code jtecs.checkedRows} is not set. */
    static final boolean ENABLED = RawRows.class.getModule().isNativeAccessEnabled()
            && !Boolean.getBoolean("jtecs.checkedRows");
    private static final MemorySegment ALL = ENABLED ? MemorySegment.NULL.reinterpret(Long.MAX_VALUE) : null;

    private RawRows() {}

    /**
     * The address of the {@code bytes}-byte element at {@code offset} in {@code segment}.
     *
     * @throws IllegalStateException when the element is not inside the segment, or the segment's arena is closed
     */
    static long at(MemorySegment segment, long offset, int bytes) {
        if (offset < 0 || offset > segment.byteSize() - bytes || !segment.scope().isAlive()) {
            throw outside(segment, offset, bytes); // out of line: the hot path is the three tests above
        }
        return segment.address() + offset;
    }

    private static IllegalStateException outside(MemorySegment segment, long offset, int bytes) {
        return new IllegalStateException("a row copy outside its column: " + bytes + " bytes at offset " + offset
                + " of " + segment + (segment.scope().isAlive() ? "" : " (freed)"));
    }

    /** Copies the 4-byte element at address {@code from} to address {@code to}. */
    static void copyInt(long from, long to) {
        ALL.set(ValueLayout.JAVA_INT_UNALIGNED, to, ALL.get(ValueLayout.JAVA_INT_UNALIGNED, from));
    }

    /** Copies the 8-byte element at address {@code from} to address {@code to}. */
    static void copyLong(long from, long to) {
        ALL.set(ValueLayout.JAVA_LONG_UNALIGNED, to, ALL.get(ValueLayout.JAVA_LONG_UNALIGNED, from));
    }
}
