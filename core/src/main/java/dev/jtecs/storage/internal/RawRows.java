package dev.jtecs.storage.internal;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Single column elements (one row of one column) read and written by address, with the checks a segment access
 * makes done once per row: the copies of a row moved on its own (a move, a swap-remove), its entity id, the store
 * of one field of one row ({@code World.write}) and the fields of a record written into one row
 * ({@link RecordWriter#writeAt}), each at an address its table keeps.
 *
 * <p>Why. A typed access through a column's own segment checks the segment (not null, not read-only, the offset in
 * bounds, its arena alive and owned) and the layout (alignment) on every access; a row move copies one element per
 * column, a read and a write each, and on an instant {@code remove} of a two-column component those checks were
 * about a fifth of the call (16,384 entities, a pinned harness: 44 to 46 ns per call through the column segments,
 * 35 to 39 with one check of the offset and the arena per element). A table checks the row against its capacity
 * once and reads no segment at all; the access goes through one segment that spans the address space, whose own
 * checks the JIT folds away.
 *
 * <p>Safety. An address comes from a {@link Table}'s own record of its current buffers' addresses, which it takes
 * again whenever a buffer changes (and sets to 0 when it frees them), checking every row against its capacity (a
 * field store against its count): a table's own buffers are alive as long as it holds them, so a stale column never
 * reaches memory it does not own. Columns are never read-only and their arenas are not confined to a thread, so the
 * other checks have nothing to add. The accesses run on the world's thread, or on a worker while the world's thread
 * waits for it, and only the world's thread frees a world's buffers, at no such time: no buffer is freed between
 * the check and the access.
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
}
