package dev.jtecs.storage.internal;

import dev.jtecs.component.Component;
import dev.jtecs.component.NativeComponent;
import dev.jtecs.component.internal.RecordCodec;
import dev.jtecs.component.internal.RecordShape;
import dev.jtecs.entity.internal.Growth;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The staged values of one native component, held as their fields' bits rather than as the records: what a
 * transaction keeps for the new values it will publish, so that a scope that stages a million of them keeps no
 * million records alive until its commit. One heap array per field, of the field's width (floats as their int
 * bits, doubles as long bits), as {@link StagedRows} holds a table's rows.
 *
 * <pre>
 *   field f:  [ value 0 | value 1 | ... | value size-1 | room ]   kind(f).byteSize() bytes a value
 *   append(record)                   ─► its fields read into the next value (the record is not kept)
 *   copyInto(table, position, row, value, n) ─► MemorySegment.copy per field
 *   record(value)                    ─► the record built again from the bits (a plain record: an equal one)
 * </pre>
 *
 * <p>Only values of {@linkplain #holds plain records} are staged this way: reading their fields runs no user code,
 * so reading them when the call is made instead of when the change is published is invisible, and so is building
 * the record again from its fields. {@link #append} allocates before it writes anything, so a failed growth leaves
 * the values as they were.
 */
public final class StagedValues {
    private final NativeComponent<?> component;
    private final RecordCodec codec;
    private final int[] sizes;
    private final byte[][] bytes;
    private final short[][] shorts;
    private final int[][] ints;
    private final long[][] longs;
    // the record type's spun writer (null when none could be spun), and each field's array as it stages into them
    private final RecordWriter writer;
    private final Object[] arrays;
    private int size;
    private int capacity;

    /** Empty staged values of {@code component}, whose record type must be {@linkplain #holds plain}. */
    public StagedValues(NativeComponent<?> component) {
        this(component, true);
    }

    /**
     * {@link #StagedValues(NativeComponent)}, reading the fields one getter at a time when {@code spunWriter} is
     * false, as when no writer could be spun for the record type (what the tests of that path ask for).
     */
    StagedValues(NativeComponent<?> component, boolean spunWriter) {
        this.component = component;
        this.codec = RecordCodec.of(component.valueType());
        int n = codec.fieldCount();
        this.sizes = new int[n];
        this.bytes = new byte[n][];
        this.shorts = new short[n][];
        this.ints = new int[n][];
        this.longs = new long[n][];
        this.writer = spunWriter ? RecordWriters.of(codec) : null;
        this.arrays = new Object[n];
        for (int f = 0; f < n; f++) {
            sizes[f] = codec.kind(f).byteSize();
            switch (sizes[f]) {
                case 1 -> bytes[f] = new byte[0];
                case 2 -> shorts[f] = new short[0];
                case 4 -> ints[f] = new int[0];
                default -> longs[f] = new long[0];
            }
        }
    }

    /**
     * Whether the values of {@code of} can be staged as bits: a native component's records, whose fields are read
     * by spun getters and whose type is {@linkplain RecordShape#isPlain plain}.
     */
    public static boolean holds(Component<?> of) {
        if (!(of instanceof NativeComponent<?> component)) {
            return false;
        }
        Class<?> type = component.valueType(); // a value is one (ComponentValue checks it): records are final
        return RecordShape.isPlain(type) && RecordCodec.of(type).isSpun();
    }

    /**
     * The spun writer of {@code component}'s record type when its values can be staged as bits ({@link #holds}) and a
     * writer could be spun for it, else {@code null}: its {@link RecordWriter#bits} reads a value's fields without
     * running user code.
     */
    public static RecordWriter plainWriter(NativeComponent<?> component) {
        Class<?> type = component.valueType();
        if (!RecordShape.isPlain(type)) {
            return null;
        }
        RecordCodec codec = RecordCodec.of(type);
        return codec.isSpun() ? RecordWriters.of(codec) : null;
    }

    public NativeComponent<?> component() {
        return component;
    }

    /** The values staged since the last {@link #reset}. */
    public int size() {
        return size;
    }

    /** Forgets every staged value (their bits stay until overwritten: nothing reads past {@link #size}). */
    public void reset() {
        size = 0;
    }

    /**
     * Stages the fields of {@code record} (of the component's type) as the next value and returns its index.
     * Grows first: a failed allocation leaves the values as they were.
     */
    public int append(Object record) {
        if (size == capacity) {
            grow(Math.max(64, capacity * 2));
        }
        int at = size;
        if (writer != null) { // one call: the accessors, then a plain array store a field
            writer.stage(record, arrays, at);
            size = at + 1;
            return at;
        }
        for (int f = 0; f < sizes.length; f++) {
            long bits = StagedRows.fieldBits(codec, record, f);
            switch (sizes[f]) {
                case 1 -> bytes[f][at] = (byte) bits;
                case 2 -> shorts[f][at] = (short) bits;
                case 4 -> ints[f][at] = (int) bits;
                default -> longs[f][at] = bits;
            }
        }
        size = at + 1;
        return at;
    }

    /**
     * {@link #append} of a value whose fields {@link RecordWriter#bits} has read into {@code bits} (one long a field,
     * the bits in its low bytes). Grows first: a failed allocation leaves the values as they were.
     */
    public int appendBits(long[] bits) {
        if (size == capacity) {
            grow(Math.max(64, capacity * 2));
        }
        int at = size;
        if (writer != null) { // one call: a plain array store a field
            writer.stageBits(bits, arrays, at);
            size = at + 1;
            return at;
        }
        for (int f = 0; f < sizes.length; f++) {
            switch (sizes[f]) {
                case 1 -> bytes[f][at] = (byte) bits[f];
                case 2 -> shorts[f][at] = (short) bits[f];
                case 4 -> ints[f][at] = (int) bits[f];
                default -> longs[f][at] = bits[f];
            }
        }
        size = at + 1;
        return at;
    }

    // all arrays first, then assign: a failure part way leaves every field as it was
    private void grow(int grown) {
        Object[] next = new Object[sizes.length];
        for (int f = 0; f < sizes.length; f++) {
            next[f] = switch (sizes[f]) {
                case 1 -> Growth.copyOf(bytes[f], grown);
                case 2 -> Growth.copyOf(shorts[f], grown);
                case 4 -> Growth.copyOf(ints[f], grown);
                default -> Growth.copyOf(longs[f], grown);
            };
        }
        for (int f = 0; f < sizes.length; f++) {
            switch (sizes[f]) {
                case 1 -> bytes[f] = (byte[]) next[f];
                case 2 -> shorts[f] = (short[]) next[f];
                case 4 -> ints[f] = (int[]) next[f];
                default -> longs[f] = (long[]) next[f];
            }
        }
        System.arraycopy(next, 0, arrays, 0, arrays.length);
        capacity = grown;
    }

    /**
     * Copies staged values {@code [value, value + n)} into rows {@code [row, row + n)} of the component's columns
     * in {@code table}, where it sits at {@code position}: one copy a field.
     */
    public void copyInto(Table table, int position, int row, int value, int n) {
        if (value < 0 || n < 0 || value + n > size) {
            throw new IndexOutOfBoundsException("values " + value + ".." + (value + n) + " of " + size);
        }
        int start = table.nativeStartAt(position);
        if (n == 1) { // one value: a store a field, without the set-up of a bulk copy
            for (int f = 0; f < sizes.length; f++) {
                MemorySegment target = table.nativeSegment(start + f);
                long at = (long) row * sizes[f];
                switch (sizes[f]) {
                    case 1 -> target.set(ValueLayout.JAVA_BYTE, at, bytes[f][value]);
                    case 2 -> target.set(ValueLayout.JAVA_SHORT, at, shorts[f][value]);
                    case 4 -> target.set(ValueLayout.JAVA_INT, at, ints[f][value]);
                    default -> target.set(ValueLayout.JAVA_LONG, at, longs[f][value]);
                }
            }
            return;
        }
        for (int f = 0; f < sizes.length; f++) {
            StagedRows.copyColumn(sizes[f], bytes[f], shorts[f], ints[f], longs[f], value,
                    table.nativeSegment(start + f), row, n);
        }
    }

    /** The staged value {@code value} as a record of the component's type: built again from its fields' bits. */
    public Object record(int value) {
        if (value < 0 || value >= size) {
            throw new IndexOutOfBoundsException("value " + value + " of " + size);
        }
        Object[] fields = new Object[sizes.length];
        for (int f = 0; f < sizes.length; f++) {
            fields[f] = StagedRows.boxed(codec.kind(f), bytes, shorts, ints, longs, f, value);
        }
        return codec.construct(fields);
    }
}
