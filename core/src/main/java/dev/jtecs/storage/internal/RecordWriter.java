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
}
