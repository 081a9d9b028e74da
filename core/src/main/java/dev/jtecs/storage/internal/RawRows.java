package dev.jtecs.storage.internal;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Single column elements (one row of one column) read and written with the checks a segment access makes done once
 * per element or once per row: the copies of a row moved on its own (a move, a swap-remove), its entity id and the
 * store of one field of one row ({@code World.write}), by the addresses its table keeps, and the stores of a record
 * writer, through {@link #at}.
 *
 * <p>Why. A typed access through a column's own segment checks the segment (not null, not read-only, the offset in
 * bounds, its arena alive and owned) and the layout (alignment) on every access; a row move copies one element per
 * column, a read and a write each, and on an instant {@code remove} of a two-column component those checks were
 * about a fifth of the call (16,384 entities, a pinned harness: 44 to 46 ns per call through the column segments,
 * 35 to 39 through {@link #at}). {@link #at} checks the element's offset against its segment's size and the
 * segment's arena for liveness, once per element; a table's row copies check the row against its capacity once
 * and read no segment at all. Either way the access goes through one segment that spans the address space, whose
 * own checks the JIT folds away.
 *
 * <p>Safety. An address comes from {@link #at}, which throws {@link IndexOutOfBoundsException} for an offset
 * outside the segment and {@link IllegalStateException} for a segment whose arena is closed (a freed buffer, a
 * pooled block handed on), as a segment access does, and refuses a heap segment, whose address is no place in
 * memory (columns are always native): a stale column never reaches memory it does not own. Or it comes from a
 * {@link Table}'s own record of its current buffers' addresses, which it takes again whenever a buffer changes
 * (and sets to 0 when it frees them), checking every row against its capacity: a table's single-row copies and its
 * entity column use it, since a table's own buffers are alive as long as it holds them, and reading each
 * segment's size and arena on every element was most of such a copy. Columns
 * are never read-only and their arenas are not confined to a thread, so those checks have nothing to add. The
 * accesses run on the world's thread, or on a worker while the world's thread waits for it, and only the world's
 * thread frees a world's buffers, at no such time: no buffer is freed between the check and the access.
 *
 * <p>Spanning the address space takes {@code MemorySegment.reinterpret}, a restricted method: {@link #ENABLED}
 * only where native access is enabled for the core, and not with {@code -Djtecs.checkedRows=true} (which the build
 * sets for one run of the table, record writer and world tests, so both ways stay tested). Elsewhere every access
 * goes through the column segments themselves.
 */
final class RawRows {
    /** Whether elements are copied here: native access is enabled and {@code jtecs.checkedRows} is not set. */
    static final boolean ENABLED = RawRows.class.getModule().isNativeAccessEnabled()
            && !Boolean.getBoolean("jtecs.checkedRows");
    // restricted, and called only where native access is enabled (ENABLED): it cannot warn or fail at run time
    @SuppressWarnings("restricted")
    private static final MemorySegment ALL = ENABLED ? MemorySegment.NULL.reinterpret(Long.MAX_VALUE) : null;

    private RawRows() {}

    /**
     * The address of the {@code bytes}-byte element at {@code offset} in {@code segment}.
     *
     * @throws IndexOutOfBoundsException when the element is not inside the segment
     * @throws IllegalStateException when the segment's arena is closed (as a segment access would throw each), or
     *     the segment is not native (a heap segment's address is no place in memory; columns are always native)
     */
    static long at(MemorySegment segment, long offset, int bytes) {
        if (offset < 0 || offset > segment.byteSize() - bytes || !segment.scope().isAlive() || !segment.isNative()) {
            throw outside(segment, offset, bytes); // out of line: the hot path is the tests above
        }
        return segment.address() + offset;
    }

    private static RuntimeException outside(MemorySegment segment, long offset, int bytes) {
        if (!segment.isNative()) {
            return new IllegalStateException("an element of a heap segment, which is no column: " + segment);
        }
        if (!segment.scope().isAlive()) {
            return new IllegalStateException("an element of a freed column: " + segment + " (freed)");
        }
        return new IndexOutOfBoundsException("an element outside its column: " + bytes + " bytes at offset "
                + offset + " of " + segment);
    }

    /** Stores the byte {@code value} at address {@code address}. */
    static void storeByteAt(long address, byte value) {
        ALL.set(ValueLayout.JAVA_BYTE, address, value);
    }

    /** Stores the 2-byte {@code value} at address {@code address}. */
    static void storeShortAt(long address, short value) {
        ALL.set(ValueLayout.JAVA_SHORT_UNALIGNED, address, value);
    }

    /** Stores the 4-byte {@code value} at address {@code address}. */
    static void storeIntAt(long address, int value) {
        ALL.set(ValueLayout.JAVA_INT_UNALIGNED, address, value);
    }

    /** The 8-byte element at address {@code address}. */
    static long loadLong(long address) {
        return ALL.get(ValueLayout.JAVA_LONG_UNALIGNED, address);
    }

    /** Stores the 8-byte {@code value} at address {@code address}. */
    static void storeLongAt(long address, long value) {
        ALL.set(ValueLayout.JAVA_LONG_UNALIGNED, address, value);
    }

    /** Copies the 4-byte element at address {@code from} to address {@code to}. */
    static void copyInt(long from, long to) {
        ALL.set(ValueLayout.JAVA_INT_UNALIGNED, to, ALL.get(ValueLayout.JAVA_INT_UNALIGNED, from));
    }

    /** Copies the 8-byte element at address {@code from} to address {@code to}. */
    static void copyLong(long from, long to) {
        ALL.set(ValueLayout.JAVA_LONG_UNALIGNED, to, ALL.get(ValueLayout.JAVA_LONG_UNALIGNED, from));
    }

    /** Stores {@code value} at index {@code row} of a byte column (a record writer's store). */
    static void storeByte(MemorySegment column, long row, byte value) {
        if (ENABLED) {
            ALL.set(ValueLayout.JAVA_BYTE, at(column, row, 1), value);
        } else {
            column.setAtIndex(ValueLayout.JAVA_BYTE, row, value);
        }
    }

    /** Stores {@code value} at index {@code row} of a boolean column (a record writer's store). */
    static void storeBoolean(MemorySegment column, long row, boolean value) {
        if (ENABLED) {
            ALL.set(ValueLayout.JAVA_BOOLEAN, at(column, row, 1), value);
        } else {
            column.setAtIndex(ValueLayout.JAVA_BOOLEAN, row, value);
        }
    }

    /** Stores {@code value} at index {@code row} of a short column (a record writer's store). */
    static void storeShort(MemorySegment column, long row, short value) {
        if (ENABLED) {
            ALL.set(ValueLayout.JAVA_SHORT_UNALIGNED, at(column, 2 * row, 2), value);
        } else {
            column.setAtIndex(ValueLayout.JAVA_SHORT, row, value);
        }
    }

    /** Stores {@code value} at index {@code row} of a char column (a record writer's store). */
    static void storeChar(MemorySegment column, long row, char value) {
        if (ENABLED) {
            ALL.set(ValueLayout.JAVA_CHAR_UNALIGNED, at(column, 2 * row, 2), value);
        } else {
            column.setAtIndex(ValueLayout.JAVA_CHAR, row, value);
        }
    }

    /** Stores {@code value} at index {@code row} of an int column (a record writer's store). */
    static void storeInt(MemorySegment column, long row, int value) {
        if (ENABLED) {
            ALL.set(ValueLayout.JAVA_INT_UNALIGNED, at(column, 4 * row, 4), value);
        } else {
            column.setAtIndex(ValueLayout.JAVA_INT, row, value);
        }
    }

    /** Stores {@code value} at index {@code row} of a float column (a record writer's store). */
    static void storeFloat(MemorySegment column, long row, float value) {
        if (ENABLED) {
            ALL.set(ValueLayout.JAVA_FLOAT_UNALIGNED, at(column, 4 * row, 4), value);
        } else {
            column.setAtIndex(ValueLayout.JAVA_FLOAT, row, value);
        }
    }

    /** Stores {@code value} at index {@code row} of a long column (a record writer's store). */
    static void storeLong(MemorySegment column, long row, long value) {
        if (ENABLED) {
            ALL.set(ValueLayout.JAVA_LONG_UNALIGNED, at(column, 8 * row, 8), value);
        } else {
            column.setAtIndex(ValueLayout.JAVA_LONG, row, value);
        }
    }

    /** Stores {@code value} at index {@code row} of a double column (a record writer's store). */
    static void storeDouble(MemorySegment column, long row, double value) {
        if (ENABLED) {
            ALL.set(ValueLayout.JAVA_DOUBLE_UNALIGNED, at(column, 8 * row, 8), value);
        } else {
            column.setAtIndex(ValueLayout.JAVA_DOUBLE, row, value);
        }
    }
}
