package dev.jtecs.storage.internal;

import dev.jtecs.entity.internal.Growth;

import dev.jtecs.component.Component;
import dev.jtecs.component.ComponentValue;
import dev.jtecs.component.Input;
import dev.jtecs.component.NativeComponent;
import dev.jtecs.component.PrimitiveKind;
import dev.jtecs.component.StorageKind;
import dev.jtecs.component.internal.RecordCodec;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;

/**
 * Rows staged for one table before they are placed: one heap array per native column of the table (of the
 * column's element width: floats held as their int bits, doubles as long bits), so a spawn queue writes an entity's values straight into its staged row and the drain
 * places a whole run of rows with one bulk copy per column.
 *
 * <pre>
 *   column c:  [ row 0 | row 1 | ... | row size-1 | room ]   kind(c).byteSize() bytes a row
 *   append() ─► a row holding each column's initial value (the shape's constant, or the default)
 *   copyInto(table, tableRow, stagedRow, n) ─► MemorySegment.copy per column
 * </pre>
 *
 * <p>Invariants: rows {@code [0, size)} are written and every byte past them is zero; {@link #ensureRoom} is the
 * only call that allocates, so a
 * caller that makes room first can append without failing (a default factory aside: a component registered with
 * one has it called per row, and a throwing factory leaves the size unchanged).
 */
public final class StagedRows {
    private final Table table;
    private final PrimitiveKind[] kinds;
    private final int[] sizes;
    private final long[] initialBits; // per column: the bits every new row starts with
    private final int[] nonZeroColumns; // the columns whose initial bits are not zero: written per row
    private final int[] factoryPositions; // positions whose default is a factory, called per row
    // one array per column, by element width: int[] holds int and float bits, long[] long and double bits
    private final byte[][] bytes;
    private final short[][] shorts;
    private final int[][] ints;
    private final long[][] longs;
    private int size;
    private int capacity;

    private StagedRows(Table table, long[] initialBits, int[] factoryPositions) {
        this.table = table;
        int n = table.nativeColumns();
        this.kinds = new PrimitiveKind[n];
        this.sizes = new int[n];
        for (int c = 0; c < n; c++) {
            kinds[c] = table.nativeKind(c);
            sizes[c] = kinds[c].byteSize();
        }
        this.initialBits = initialBits;
        int nonZero = 0;
        int[] columnsToWrite = new int[n];
        for (int c = 0; c < n; c++) {
            if (initialBits[c] != 0) {
                columnsToWrite[nonZero++] = c;
            }
        }
        this.nonZeroColumns = Growth.copyOf(columnsToWrite, nonZero);
        this.factoryPositions = factoryPositions;
        this.bytes = new byte[n][];
        this.shorts = new short[n][];
        this.ints = new int[n][];
        this.longs = new long[n][];
        for (int c = 0; c < n; c++) {
            switch (sizes[c]) {
                case 1 -> bytes[c] = new byte[0];
                case 2 -> shorts[c] = new short[0];
                case 4 -> ints[c] = new int[0];
                default -> longs[c] = new long[0];
            }
        }
    }

    /**
     * Staged rows for {@code table}, whose native columns start as {@code inputs[position]} says: a constructed
     * value's fields, or the component's default (zero bits without a factory, the factory's value per row with
     * one). {@code inputs} is indexed by signature position, as a spawn plan holds them.
     */
    public static StagedRows of(Table table, Input[] inputs) {
        long[] bits = new long[table.nativeColumns()];
        int[] factories = new int[table.componentCount()];
        int factoryCount = 0;
        for (int p = 0; p < table.componentCount(); p++) {
            if (table.nativeCountAt(p) == 0) {
                continue;
            }
            Input input = inputs[p];
            Component<?> component = table.componentAt(p);
            if (input instanceof ComponentValue<?> value) {
                encode(table, p, value.value(), bits);
            } else if (component instanceof NativeComponent<?> nc && nc.hasDefaultFactory()) {
                factories[factoryCount++] = p;
            } else if (component.storage() == StorageKind.SCALAR) {
                encode(table, p, component.newDefault(), bits);
            } // else: a native definition without factory, zero bits
        }
        return new StagedRows(table, bits, Growth.copyOf(factories, factoryCount));
    }

    /**
     * Staged rows for {@code table} whose every native column each row's values write (a compact staged spawn
     * names every component of its table): new rows start at zero bits, and no default factory runs.
     */
    public static StagedRows blank(Table table) {
        return new StagedRows(table, new long[table.nativeColumns()], new int[0]);
    }

    /** Writes the columns of the component at {@code position} holding {@code value} into {@code bits}. */
    private static void encode(Table table, int position, Object value, long[] bits) {
        int start = table.nativeStartAt(position);
        if (table.componentAt(position).storage() == StorageKind.SCALAR) {
            bits[start] = bitsOf(table.nativeKind(start), value);
            return;
        }
        RecordCodec codec = RecordCodec.of(value.getClass());
        for (int f = 0; f < table.nativeCountAt(position); f++) {
            bits[start + f] = fieldBits(codec, value, f);
        }
    }

    /** Field {@code f} of {@code record} as the bits a column of its width holds (floats and doubles raw). */
    static long fieldBits(RecordCodec codec, Object record, int f) {
        return switch (codec.kind(f)) {
            case BYTE -> codec.getByte(record, f);
            case BOOLEAN -> codec.getBoolean(record, f) ? 1 : 0;
            case SHORT -> codec.getShort(record, f);
            case CHAR -> codec.getChar(record, f);
            case INT -> codec.getInt(record, f);
            case FLOAT -> Float.floatToRawIntBits(codec.getFloat(record, f));
            case LONG -> codec.getLong(record, f);
            case DOUBLE -> Double.doubleToRawLongBits(codec.getDouble(record, f));
        };
    }

    private static long bitsOf(PrimitiveKind kind, Object boxed) {
        return switch (kind) {
            case BYTE -> (Byte) boxed;
            case BOOLEAN -> (Boolean) boxed ? 1 : 0;
            case SHORT -> (Short) boxed;
            case CHAR -> (Character) boxed;
            case INT -> (Integer) boxed;
            case FLOAT -> Float.floatToRawIntBits((Float) boxed);
            case LONG -> (Long) boxed;
            case DOUBLE -> Double.doubleToRawLongBits((Double) boxed);
        };
    }

    public Table table() {
        return table;
    }

    /** The rows staged so far. */
    public int size() {
        return size;
    }

    /**
     * Forgets every staged row (their batch was placed or discarded); the buffers stay for the next rows, zeroed
     * in bulk so a column that starts at zero bits needs no write per row.
     */
    public void reset() {
        for (int c = 0; c < sizes.length; c++) {
            clear(c, 0, size);
        }
        size = 0;
    }

    private void clear(int c, int from, int to) {
        switch (sizes[c]) {
            case 1 -> Arrays.fill(bytes[c], from, to, (byte) 0);
            case 2 -> Arrays.fill(shorts[c], from, to, (short) 0);
            case 4 -> Arrays.fill(ints[c], from, to, 0);
            default -> Arrays.fill(longs[c], from, to, 0L);
        }
    }

    /**
     * Makes room for one more row: with {@link #reserve}, the only calls here that allocate (geometric growth).
     * Returns whether the columns grew, which replaces the arrays {@link #arrays} hands out.
     */
    public boolean ensureRoom() {
        if (size < capacity) {
            return false;
        }
        growTo(Math.max(64, capacity * 2));
        return true;
    }

    /**
     * Makes room for {@code rows} rows in all (the rows held count), so that appending up to that many grows
     * nothing. A failed growth leaves every row as it was.
     */
    public void reserve(int rows) {
        if (rows > capacity) {
            growTo(rows);
        }
    }

    /**
     * The heap arrays of columns {@code [start, start + count)}, as {@link RecordWriter#stage} takes them: one
     * record's fields go straight into a staged row. The array is kept per start column until the columns grow,
     * so a call allocates nothing while the rows have room.
     */
    public Object[] arrays(int start, int count) {
        Object[] held = start < heldArrays.length ? heldArrays[start] : null;
        if (held != null && held.length == count) {
            return held;
        }
        Object[] arrays = new Object[count];
        for (int f = 0; f < count; f++) {
            int c = start + f;
            arrays[f] = switch (sizes[c]) {
                case 1 -> bytes[c];
                case 2 -> shorts[c];
                case 4 -> ints[c];
                default -> longs[c];
            };
        }
        if (heldArrays.length < sizes.length) {
            heldArrays = new Object[sizes.length][];
        }
        heldArrays[start] = arrays;
        return arrays;
    }

    private Object[][] heldArrays = new Object[0][];

    // a failure part way leaves some columns longer than capacity, which is harmless: capacity is what counts
    private void growTo(int grown) {
        Arrays.fill(heldArrays, null); // they name the arrays replaced below
        for (int c = 0; c < sizes.length; c++) {
            switch (sizes[c]) {
                case 1 -> bytes[c] = Growth.copyOf(bytes[c], grown);
                case 2 -> shorts[c] = Growth.copyOf(shorts[c], grown);
                case 4 -> ints[c] = Growth.copyOf(ints[c], grown);
                default -> longs[c] = Growth.copyOf(longs[c], grown);
            }
        }
        capacity = grown;
    }

    /**
     * Appends a row holding every column's initial value and returns it; {@link #ensureRoom} must have made room.
     * A default factory that throws leaves the rows as they were.
     */
    public int append() {
        int row = size;
        for (int c : nonZeroColumns) { // the others are zero already: fresh or reset buffers
            putBits(c, row, initialBits[c]);
        }
        for (int position : factoryPositions) {
            Object value = table.componentAt(position).newDefault(); // user code: may throw, nothing appended yet
            long[] bits = new long[sizes.length];
            encode(table, position, value, bits);
            int start = table.nativeStartAt(position);
            for (int f = 0; f < table.nativeCountAt(position); f++) {
                putBits(start + f, row, bits[start + f]);
            }
        }
        size = row + 1;
        return row;
    }

    /** Drops the last row (its entity could not be reserved after all). */
    public void dropLast() {
        size--;
        for (int c = 0; c < sizes.length; c++) {
            clear(c, size, size + 1);
        }
    }

    private void putBits(int column, int row, long bits) {
        switch (sizes[column]) {
            case 1 -> bytes[column][row] = (byte) bits;
            case 2 -> shorts[column][row] = (short) bits;
            case 4 -> ints[column][row] = (int) bits;
            default -> longs[column][row] = bits;
        }
    }

    /** The value of one staged element, boxed as a record component of {@code kind} takes it. */
    public Object boxed(int column, int row, PrimitiveKind kind) {
        return boxed(kind, bytes, shorts, ints, longs, column, row);
    }

    /**
     * Element {@code index} of column {@code c}, boxed as a record component of {@code kind} takes it, from columns
     * kept by element size as here and in {@link StagedValues}: 1-byte kinds in {@code bytes}, 2-byte in
     * {@code shorts}, 4-byte in {@code ints}, 8-byte in {@code longs}.
     */
    static Object boxed(PrimitiveKind kind, byte[][] bytes, short[][] shorts, int[][] ints, long[][] longs, int c,
            int index) {
        return switch (kind) {
            case BYTE -> bytes[c][index];
            case BOOLEAN -> bytes[c][index] != 0;
            case SHORT -> shorts[c][index];
            case CHAR -> (char) shorts[c][index];
            case INT -> ints[c][index];
            case FLOAT -> Float.intBitsToFloat(ints[c][index]);
            case LONG -> longs[c][index];
            case DOUBLE -> Double.longBitsToDouble(longs[c][index]);
        };
    }

    /** The native column of field {@code field} of the component at {@code position}. */
    public int column(int position, int field) {
        return table.nativeStartAt(position) + field;
    }

    /**
     * By component id, for ids below {@code limit}: one more than the column of the first native field of the
     * table's component with that id, and 0 where the table has no native field of that id. The array is as long as
     * the highest such id needs.
     */
    public int[] firstColumnsById(int limit) {
        int length = 0;
        for (int p = 0; p < table.componentCount(); p++) {
            int id = table.componentAt(p).id();
            if (table.nativeCountAt(p) != 0 && id < limit) {
                length = Math.max(length, id + 1);
            }
        }
        int[] first = Growth.newInts(length);
        for (int p = 0; p < table.componentCount(); p++) {
            int id = table.componentAt(p).id();
            if (table.nativeCountAt(p) != 0 && id < limit) {
                first[id] = table.nativeStartAt(p) + 1;
            }
        }
        return first;
    }

    public PrimitiveKind kind(int column) {
        return kinds[column];
    }

    public void setByte(int column, int row, byte value) {
        bytes[column][row] = value;
    }

    public void setBoolean(int column, int row, boolean value) {
        bytes[column][row] = (byte) (value ? 1 : 0);
    }

    public void setShort(int column, int row, short value) {
        shorts[column][row] = value;
    }

    public void setChar(int column, int row, char value) {
        shorts[column][row] = (short) value;
    }

    public void setInt(int column, int row, int value) {
        ints[column][row] = value;
    }

    public void setFloat(int column, int row, float value) {
        ints[column][row] = Float.floatToRawIntBits(value);
    }

    public void setLong(int column, int row, long value) {
        longs[column][row] = value;
    }

    public void setDouble(int column, int row, double value) {
        longs[column][row] = Double.doubleToRawLongBits(value);
    }

    /** Reads one staged value back (tests), as raw bits. */
    public long bits(int column, int row) {
        return switch (sizes[column]) {
            case 1 -> bytes[column][row];
            case 2 -> shorts[column][row];
            case 4 -> ints[column][row];
            default -> longs[column][row];
        };
    }

    /** Copies staged rows {@code [stagedRow, stagedRow + n)} into table rows from {@code tableRow}: one copy a column. */
    public void copyInto(int tableRow, int stagedRow, int n) {
        for (int c = 0; c < sizes.length; c++) {
            copyColumn(sizes[c], bytes[c], shorts[c], ints[c], longs[c], stagedRow, table.nativeSegment(c), tableRow,
                    n);
        }
    }

    /**
     * Copies {@code n} values from {@code from} of a column of {@code size}-byte values, held in whichever of
     * {@code bytes}, {@code shorts}, {@code ints} and {@code longs} that width uses, into rows {@code [row, row + n)}
     * of {@code target}: one bulk copy. What staged rows and staged values ({@link StagedValues}) both publish with.
     */
    static void copyColumn(int size, byte[] bytes, short[] shorts, int[] ints, long[] longs, int from,
            MemorySegment target, int row, int n) {
        long at = (long) row * size;
        switch (size) {
            case 1 -> MemorySegment.copy(bytes, from, target, ValueLayout.JAVA_BYTE, at, n);
            case 2 -> MemorySegment.copy(shorts, from, target, ValueLayout.JAVA_SHORT, at, n);
            case 4 -> MemorySegment.copy(ints, from, target, ValueLayout.JAVA_INT, at, n);
            default -> MemorySegment.copy(longs, from, target, ValueLayout.JAVA_LONG, at, n);
        }
    }
}
