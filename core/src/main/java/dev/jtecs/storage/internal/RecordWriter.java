package dev.jtecs.storage.internal;

import java.lang.foreign.MemorySegment;

/**
 * Writes every field of one record type into native columns in one call: field {@code f} goes to
 * {@code columns[base + f]} at index {@code row}. One class per record type ({@link RecordWriters}), so the call
 * site that writes records of many types pays one dispatch per record, not one per field, and the accessors
 * inline inside it.
 */
public interface RecordWriter {
    void write(Object record, MemorySegment[] columns, int base, long row);

    /**
     * {@link #write} by address: field {@code f} goes to {@code addresses[base + f] + row * size}, where size is
     * the field's width, with no check at all. For a table's own record of its buffers' addresses, with the row
     * checked against their capacity ({@link TableValues}); only where {@link RawRows#ENABLED}. Every accessor runs
     * before the first store.
     */
    void writeAt(Object record, long[] addresses, int base, long row);

    /**
     * Stores every field of {@code record} as its bits into a heap array of the field's width at index {@code at}:
     * {@code arrays[f]} is a {@code byte[]} (byte, boolean), {@code short[]} (short, char), {@code int[]} (int, float
     * as its raw bits) or {@code long[]} (long, double as its raw bits); the same bits {@link #write} stores into a
     * column. Plain array stores, where a segment over each array would check its session, bounds and alignment on
     * every store. Every accessor runs before the first store.
     */
    void stage(Object record, Object[] arrays, int at);

    /**
     * Stores every field of {@code record} as its bits in {@code out[f]}, widened to a long: the bits {@link #write}
     * stores into a column of the field's width (a float or double as its raw bits, a boolean as 0 or 1), which a
     * store of that width takes back from the long's low bytes. Every accessor runs before the first store.
     */
    void bits(Object record, long[] out);

    /**
     * {@link #writeAt} of a record whose fields {@link #bits} has read into {@code bits}: field {@code f}'s low bytes
     * go to {@code addresses[base + f] + row * size}, with no check at all (as {@code writeAt}).
     */
    void writeBitsAt(long[] bits, long[] addresses, int base, long row);

    /**
     * {@link #stage} of a record whose fields {@link #bits} has read into {@code bits}: field {@code f}'s low bytes go
     * into {@code arrays[f]} (of the field's width) at index {@code at}.
     */
    void stageBits(long[] bits, Object[] arrays, int at);
}
