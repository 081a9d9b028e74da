package dev.jtecs.storage.internal;

import dev.jtecs.component.Component;
import dev.jtecs.component.ComponentValue;
import dev.jtecs.component.Input;
import dev.jtecs.component.NativeComponent;
import dev.jtecs.component.PrimitiveKind;
import dev.jtecs.component.StorageKind;
import dev.jtecs.component.internal.RecordCodec;
import dev.jtecs.component.internal.RecordShape;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;

/**
 * The value codec of one table: writes a component value (or a definition's default) into a row and reads it
 * back, field by field over the native columns or through the heap column, and writes one input over a whole
 * row range with bulk copies. It shares the table's column arrays, so it always sees the current buffers.
 */
public final class TableValues {
    private final Component<?>[] components;
    private final int[] nativeStart;
    private final int[] nativeCount;
    private final int[] heapIndex;
    private final RecordCodec[] codecs;
    private final PrimitiveKind[] nativeKinds;
    private final MemorySegment[] nativeSegments;
    private final Table table; // whose buffers these are: a store by address checks its row against their capacity
    private final long[] nativeAddresses; // the table's record of its buffers' addresses (RawRows), kept current there
    private final Object[][] heapArrays;
    private final RecordWriter[] writers; // by position: its record type's spun writer, or null (field by field)
    // by position: the spun writer when its record type is also plain (RecordShape: accessors and constructor run no
    // code of their own), so a write through it runs no user code; null otherwise
    private final RecordWriter[] plainWriters;

    /** The fields of the record being written when no writer could be spun, read before any is stored. */
    private long[] scratch = new long[0];

    TableValues(Table table, Component<?>[] components, int[] nativeStart, int[] nativeCount, int[] heapIndex,
            RecordCodec[] codecs, PrimitiveKind[] nativeKinds, MemorySegment[] nativeSegments, long[] nativeAddresses,
            Object[][] heapArrays) {
        this.table = table;
        this.components = components;
        this.nativeStart = nativeStart;
        this.nativeCount = nativeCount;
        this.heapIndex = heapIndex;
        this.codecs = codecs;
        this.nativeKinds = nativeKinds;
        this.nativeSegments = nativeSegments;
        this.nativeAddresses = nativeAddresses;
        this.heapArrays = heapArrays;
        this.writers = new RecordWriter[codecs.length];
        this.plainWriters = new RecordWriter[codecs.length];
        for (int position = 0; position < codecs.length; position++) {
            if (codecs[position] != null) {
                writers[position] = RecordWriters.of(codecs[position]);
                if (RecordShape.isPlain(components[position].valueType())) {
                    plainWriters[position] = writers[position];
                }
            }
        }
    }


    /**
     * Writes records field by field from now on, as when no writer could be spun for their types: the tests of
     * that path call it, since every record type the tests declare gets a spun writer.
     */
    void forgetSpunWriters() {
        Arrays.fill(writers, null);
        Arrays.fill(plainWriters, null);
    }

    /** The spun writer of the plain record type of the component at {@code position}, or null (see below). */
    public RecordWriter plainWriter(int position) {
        return plainWriters[position];
    }

    /** Whether {@link #writePlainBits} writes records of the component at {@code position}. */
    boolean isPlainRecord(int position) {
        return plainWriters[position] != null;
    }

    /**
     * Writes a record whose fields {@link RecordWriter#bits} has read into {@code bits} into one row of the native
     * component at {@code position}, each field's low bytes into its column, and returns true when the record type
     * is plain and has a spun writer: the write runs no user code, so it cannot fail half done or call back into
     * the world. The row is checked as {@link #write} checks it. Returns false, having written nothing, for any
     * other component or record type.
     */
    boolean writePlainBits(int position, int row, long[] bits) {
        RecordWriter writer = plainWriters[position];
        if (writer == null) {
            return false;
        }
        if (RawRows.ENABLED) {
            table.checkStoreRow(row);
            writer.writeBitsAt(bits, nativeAddresses, nativeStart[position], row);
        } else {
            writeBitsChecked(position, row, bits);
        }
        return true;
    }

    /** {@link #writePlainBits} through the column segments (their checks), out of line. */
    private void writeBitsChecked(int position, int row, long[] bits) {
        int base = nativeStart[position];
        for (int f = 0; f < nativeCount[position]; f++) {
            MemorySegment s = nativeSegments[base + f];
            switch (nativeKinds[base + f].byteSize()) { // the spun write's stores of each width
                case 1 -> RecordWriters.storeByte(s, row, (byte) bits[f]);
                case 2 -> RecordWriters.storeShort(s, row, (short) bits[f]);
                case 4 -> RecordWriters.storeInt(s, row, (int) bits[f]);
                default -> RecordWriters.storeLong(s, row, bits[f]);
            }
        }
    }

    /** Writes an input (a constructed value, or a definition's default) into one row. */
    public void writeInput(int position, int row, Input input) {
        if (input instanceof ComponentValue<?> value) {
            writeValue(position, row, value.value());
        } else {
            writeDefault(position, row);
        }
    }

    /** Writes a value into one row of the component at {@code position}. */
    public void writeValue(int position, int row, Object value) {
        Component<?> component = components[position];
        switch (component.storage()) {
            case NATIVE -> writeRecord(position, row, value);
            case SCALAR -> {
                if (heapIndex[position] >= 0) {
                    heapArrays[heapIndex[position]][row] = value;
                } else {
                    writeBoxed(nativeStart[position], row, value);
                }
            }
            case MANAGED -> heapArrays[heapIndex[position]][row] = value;
            case TAG -> { }
        }
    }

    /** Writes the component's default into one row (zero bits for a native component without a factory). */
    public void writeDefault(int position, int row) {
        Component<?> component = components[position];
        if (component instanceof NativeComponent<?> nc && !nc.hasDefaultFactory()) {
            for (int f = 0; f < nativeCount[position]; f++) {
                writeZero(nativeStart[position] + f, row);
            }
            return;
        }
        if (component.storage() != StorageKind.TAG) {
            writeValue(position, row, component.newDefault());
        }
    }

    /** Reads one row's value as the component's value type (a fresh record for native components). */
    public Object readValue(int position, int row) {
        Component<?> component = components[position];
        return switch (component.storage()) {
            case NATIVE -> readRecord(position, row);
            case SCALAR -> heapIndex[position] >= 0
                    ? heapArrays[heapIndex[position]][row]
                    : readBoxed(nativeStart[position], row);
            case MANAGED -> heapArrays[heapIndex[position]][row];
            case TAG -> Boolean.TRUE;
        };
    }

    /**
     * Writes a record's fields into their columns: through its type's spun writer (one call per record, the
     * accessors inlined), by the table's record of its buffers' addresses where {@link RawRows#ENABLED} (the row
     * checked against their capacity, as a column segment checks it against its size), or field by field when no
     * writer could be spun.
     */
    private void writeRecord(int position, int row, Object record) {
        RecordWriter writer = writers[position];
        if (writer == null) {
            writeFields(position, row, record);
        } else {
            write(writer, position, row, record);
        }
    }

    private void write(RecordWriter writer, int position, int row, Object record) {
        if (RawRows.ENABLED) {
            table.checkStoreRow(row);
            writer.writeAt(record, nativeAddresses, nativeStart[position], row);
        } else {
            writer.write(record, nativeSegments, nativeStart[position], row);
        }
    }

    /**
     * {@link #writeRecord} for a record type no writer could be spun for. Its own method so that the spun path
     * stays small (44 bytes) and the JIT inlines it into its callers; with this loop inside, it did not.
     */
    private void writeFields(int position, int row, Object record) {
        RecordCodec codec = codecs[position];
        int base = nativeStart[position];
        int count = nativeCount[position];
        if (scratch.length < count) {
            scratch = new long[count];
        }
        long[] bits = scratch; // every accessor runs before the first store: one that throws leaves the row as it was
        for (int f = 0; f < count; f++) {
            bits[f] = StagedRows.fieldBits(codec, record, f); // the codec's kinds are the columns' (one layout)
        }
        for (int f = 0; f < count; f++) {
            MemorySegment s = nativeSegments[base + f];
            long v = bits[f];
            switch (nativeKinds[base + f]) {
                case BYTE -> s.setAtIndex(ValueLayout.JAVA_BYTE, row, (byte) v);
                case BOOLEAN -> s.setAtIndex(ValueLayout.JAVA_BOOLEAN, row, v != 0);
                case SHORT -> s.setAtIndex(ValueLayout.JAVA_SHORT, row, (short) v);
                case CHAR -> s.setAtIndex(ValueLayout.JAVA_CHAR, row, (char) v);
                case INT -> s.setAtIndex(ValueLayout.JAVA_INT, row, (int) v);
                case FLOAT -> s.setAtIndex(ValueLayout.JAVA_FLOAT, row, Float.intBitsToFloat((int) v));
                case LONG -> s.setAtIndex(ValueLayout.JAVA_LONG, row, v);
                case DOUBLE -> s.setAtIndex(ValueLayout.JAVA_DOUBLE, row, Double.longBitsToDouble(v));
            }
        }
    }

    private Object readRecord(int position, int row) {
        Object[] fields = new Object[nativeCount[position]];
        for (int f = 0; f < fields.length; f++) {
            fields[f] = readBoxed(nativeStart[position] + f, row);
        }
        return codecs[position].construct(fields);
    }

    private void writeBoxed(int column, int row, Object value) {
        MemorySegment s = nativeSegments[column];
        switch (nativeKinds[column]) {
            case BYTE -> s.setAtIndex(ValueLayout.JAVA_BYTE, row, (Byte) value);
            case BOOLEAN -> s.setAtIndex(ValueLayout.JAVA_BOOLEAN, row, (Boolean) value);
            case SHORT -> s.setAtIndex(ValueLayout.JAVA_SHORT, row, (Short) value);
            case CHAR -> s.setAtIndex(ValueLayout.JAVA_CHAR, row, (Character) value);
            case INT -> s.setAtIndex(ValueLayout.JAVA_INT, row, (Integer) value);
            case FLOAT -> s.setAtIndex(ValueLayout.JAVA_FLOAT, row, (Float) value);
            case LONG -> s.setAtIndex(ValueLayout.JAVA_LONG, row, (Long) value);
            case DOUBLE -> s.setAtIndex(ValueLayout.JAVA_DOUBLE, row, (Double) value);
        }
    }

    private void writeZero(int column, int row) {
        MemorySegment s = nativeSegments[column];
        switch (nativeKinds[column]) {
            case BYTE, BOOLEAN -> s.setAtIndex(ValueLayout.JAVA_BYTE, row, (byte) 0);
            case SHORT, CHAR -> s.setAtIndex(ValueLayout.JAVA_SHORT, row, (short) 0);
            case INT, FLOAT -> s.setAtIndex(ValueLayout.JAVA_INT, row, 0);
            case LONG, DOUBLE -> s.setAtIndex(ValueLayout.JAVA_LONG, row, 0L);
        }
    }

    private Object readBoxed(int column, int row) {
        MemorySegment s = nativeSegments[column];
        return switch (nativeKinds[column]) {
            case BYTE -> s.getAtIndex(ValueLayout.JAVA_BYTE, row);
            case BOOLEAN -> s.getAtIndex(ValueLayout.JAVA_BOOLEAN, row);
            case SHORT -> s.getAtIndex(ValueLayout.JAVA_SHORT, row);
            case CHAR -> s.getAtIndex(ValueLayout.JAVA_CHAR, row);
            case INT -> s.getAtIndex(ValueLayout.JAVA_INT, row);
            case FLOAT -> s.getAtIndex(ValueLayout.JAVA_FLOAT, row);
            case LONG -> s.getAtIndex(ValueLayout.JAVA_LONG, row);
            case DOUBLE -> s.getAtIndex(ValueLayout.JAVA_DOUBLE, row);
        };
    }

    /**
     * Writes one input into rows {@code [from, to)} of a column: native values are written once and then
     * replicated by doubling bulk copies (no per-row loop); heap columns are filled with the same reference.
     */
    public void fillInput(int position, int from, int to, Input input) {
        if (from >= to) {
            return;
        }
        Component<?> component = components[position];
        if (component.storage() == StorageKind.TAG) {
            return;
        }
        if (heapIndex[position] >= 0) {
            Object value = input instanceof ComponentValue<?> v ? v.value() : component.newDefault();
            Arrays.fill(heapArrays[heapIndex[position]], from, to, value);
            return;
        }
        writeInput(position, from, input);
        for (int f = 0; f < nativeCount[position]; f++) {
            replicate(nativeSegments[nativeStart[position] + f], nativeKinds[nativeStart[position] + f].byteSize(),
                    from, to);
        }
    }

    /**
     * Copies the element at row {@code from} over rows {@code (from, to)}, in the column itself: the written run is
     * doubled in place until it is a tile long, then the tile is copied on in large copies, so every copy reads
     * bytes just written and still in the cache. Allocates nothing (a heap tile per call was 16 KiB per column of
     * every batch that spawned or set a constant value: 4 bytes an entity in a batch of 16,384 with four fields).
     */
    private static void replicate(MemorySegment column, long bytes, int from, int to) {
        long start = from * bytes;
        long end = to * bytes;
        long tile = Math.min(end - start, TILE_BYTES);
        for (long filled = bytes; filled < tile; ) {
            long n = Math.min(filled, tile - filled);
            MemorySegment.copy(column, start, column, start + filled, n);
            filled += n;
        }
        for (long offset = start + tile; offset < end; ) {
            long chunk = Math.min(tile, end - offset);
            MemorySegment.copy(column, start, column, offset, chunk);
            offset += chunk;
        }
    }

    /** Bytes of the tile {@link #replicate} copies on: a multiple of every element size. */
    private static final int TILE_BYTES = 16 * 1024;

    /** Sets rows {@code [from, to)} of a component's native columns to zero bits (one fill per column). */
    public void zeroRows(int position, int from, int to) {
        for (int f = 0; f < nativeCount[position]; f++) {
            long bytes = nativeKinds[nativeStart[position] + f].byteSize();
            zero(nativeSegments[nativeStart[position] + f], from * bytes, (to - from) * bytes);
        }
    }

    /** Zeros, copied from: a slice per call to fill would allocate a segment object on every spawn batch. */
    private static final MemorySegment ZEROS = java.lang.foreign.Arena.global().allocate(16 * 1024, 64);

    /** Zeros {@code length} bytes of {@code segment} from {@code offset}, by bulk copies; allocates nothing. */
    private static void zero(MemorySegment segment, long offset, long length) {
        for (long done = 0; done < length; ) {
            long n = Math.min(length - done, ZEROS.byteSize());
            MemorySegment.copy(ZEROS, 0, segment, offset + done, n);
            done += n;
        }
    }

    /** Fills rows {@code [from, to)} of one native column with one boxed value (written once, then replicated). */
    void fillColumn(int column, int from, int to, Object boxed) {
        if (from >= to) {
            return;
        }
        writeBoxed(column, from, boxed);
        replicate(nativeSegments[column], nativeKinds[column].byteSize(), from, to);
    }

    /** Stores one value per row into a heap column (per-entity copies of a managed constant, for example). */
    public void writeHeap(int position, int row, Object value) {
        heapArrays[heapIndex[position]][row] = value;
    }

}
