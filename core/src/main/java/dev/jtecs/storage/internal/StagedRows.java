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
 * Rows staged for one table before they are placed: heap arrays per native column of the table (of the column's
 * element width: floats held as their int bits, doubles as long bits), so a spawn queue writes an entity's values
 * straight into its staged row and the drain places a whole run of rows with a bulk copy per column and chunk.
 *
 * <pre>
 *   chunk 0: rows [0, 64)   chunk 1: rows [64, 128)   chunk 2: rows [128, 256) ...   (each: one array a column)
 *   column c of a chunk:  [ row | row | ... ]   kind(c).byteSize() bytes a row
 *   append() ─► a row holding each column's initial value (the shape's constant, or the default)
 *   copyInto(tableRow, stagedRow, n) ─► MemorySegment.copy per column and chunk
 * </pre>
 *
 * <p>The rows grow by chunks: each new chunk holds as many rows as all before it, so the capacity doubles, but the
 * rows staged so far are not copied into larger arrays, as a doubling array copies them. The chunk the next row
 * goes to is the current one, whose arrays the setters and {@link #arrays} reach as the rows' arrays less its first
 * row ({@link #offset}); after a {@link #reset} the rows start again in the first chunk, and the chunks are kept.
 *
 * <p>Invariants: rows {@code [0, size)} are written and every byte past them is zero; {@link #ensureRoom} and
 * {@link #reserve} are the only calls that allocate, so a caller that makes room first can append without failing
 * (a default factory aside: a component registered with one has it called per row, and a throwing factory leaves
 * the size unchanged).
 */
public final class StagedRows {
    private final Table table;
    private final PrimitiveKind[] kinds;
    private final int[] sizes;
    private final long[] initialBits; // per column: the bits every new row starts with
    private final int[] nonZeroColumns; // the columns whose initial bits are not zero: written per row
    private final int[] factoryPositions; // positions whose default is a factory, called per row
    // the current chunk's array per column, by element width: int[] holds int and float bits, long[] long and
    // double bits (the other widths' entries are null)
    private byte[][] bytes;
    private short[][] shorts;
    private int[][] ints;
    private long[][] longs;
    // every chunk, first to last: the four above hold the current one's arrays
    private Chunk[] chunkList = new Chunk[4];
    private int chunks;
    private int current; // the chunk the next row goes to
    private int base; // its first row
    private int end; // the row past it
    private boolean moved; // the current chunk changed since ensureRoom last said so
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
     * Forgets every staged row (their batch was placed or discarded); the chunks stay for the next rows, which start
     * in the first one again, zeroed in bulk so a column that starts at zero bits needs no write per row.
     */
    public void reset() {
        for (int k = 0; k < chunks && chunkList[k].start < size; k++) {
            Chunk chunk = chunkList[k];
            for (int c = 0; c < sizes.length; c++) {
                clear(chunk, c, 0, Math.min(size, chunk.end()) - chunk.start);
            }
        }
        size = 0;
        if (chunks > 0 && current != 0) {
            enter(0);
        }
    }

    /** Zeroes elements {@code [from, to)} of column {@code c} in {@code chunk}. */
    private void clear(Chunk chunk, int c, int from, int to) {
        switch (sizes[c]) {
            case 1 -> Arrays.fill(chunk.bytes[c], from, to, (byte) 0);
            case 2 -> Arrays.fill(chunk.shorts[c], from, to, (short) 0);
            case 4 -> Arrays.fill(chunk.ints[c], from, to, 0);
            default -> Arrays.fill(chunk.longs[c], from, to, 0L);
        }
    }

    /** Makes chunk {@code k} the current one. */
    private void enter(int k) {
        Chunk chunk = chunkList[k];
        current = k;
        base = chunk.start;
        end = chunk.end();
        bytes = chunk.bytes;
        shorts = chunk.shorts;
        ints = chunk.ints;
        longs = chunk.longs;
        Arrays.fill(heldArrays, null); // they name another chunk's arrays
        moved = true;
    }

    /**
     * Makes room for one more row: with {@link #reserve}, the only calls here that allocate (a chunk as large as
     * all before it, so the capacity doubles; the rows staged are not copied). Returns whether the current chunk
     * changed since it last returned, which replaces the arrays {@link #arrays} hands out and {@link #offset}.
     */
    public boolean ensureRoom() {
        if (size == end) {
            if (current + 1 < chunks) {
                enter(current + 1);
            } else {
                addChunk(Math.max(64, capacity));
            }
        }
        boolean changed = moved;
        moved = false;
        return changed;
    }

    /**
     * Makes room for {@code rows} rows in all (the rows held count), so that appending up to that many grows
     * nothing. A failed growth leaves every row as it was.
     */
    public void reserve(int rows) {
        if (rows > capacity) {
            addChunk(Math.max(64, rows - capacity));
        }
    }

    /**
     * Adds a chunk of {@code rows} rows after the last, and enters it when the current chunk is the last and full;
     * its arrays are all allocated before anything changes, so a failure leaves the rows as they were.
     */
    private void addChunk(int rows) {
        int n = sizes.length;
        byte[][] b = new byte[n][];
        short[][] sh = new short[n][];
        int[][] in = new int[n][];
        long[][] lo = new long[n][];
        for (int c = 0; c < n; c++) {
            switch (sizes[c]) {
                case 1 -> b[c] = Growth.newBytes(rows);
                case 2 -> sh[c] = Growth.newShorts(rows);
                case 4 -> in[c] = Growth.newInts(rows);
                default -> lo[c] = Growth.newLongs(rows);
            }
        }
        Chunk chunk = new Chunk(capacity, rows, b, sh, in, lo);
        if (chunks == chunkList.length) {
            chunkList = Growth.copyOf(chunkList, chunks * 2);
        }
        chunkList[chunks++] = chunk;
        capacity += rows;
        if (chunks == 1 || current == chunks - 2 && size == end) {
            enter(chunks - 1); // the first chunk, or the last one is full: rows go on in the new one
        } // else the current chunk keeps its end, and ensureRoom moves on through the chunks after it in turn
    }

    /**
     * The first row of the current chunk: the arrays {@link #arrays} hands out hold row {@code r} at index
     * {@code r - offset()}, for the rows from {@link #append} on until {@link #ensureRoom} next says the chunk changed.
     */
    public int offset() {
        return base;
    }

    /**
     * The heap arrays of columns {@code [start, start + count)} in the current chunk, as {@link RecordWriter#stage}
     * takes them: one record's fields go straight into a staged row (at its row less {@link #offset}). The array is
     * kept per start column until the chunk changes, so a call allocates nothing while the rows have room.
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

    /**
     * Appends a row holding every column's initial value and returns it; {@link #ensureRoom} must have made room.
     * A default factory that throws leaves the rows as they were.
     */
    public int append() {
        int row = size;
        int at = row - base; // ensureRoom made room: the row is in the current chunk
        for (int c : nonZeroColumns) { // the others are zero already: fresh or reset buffers
            putBits(bytes, shorts, ints, longs, c, at, initialBits[c]);
        }
        for (int position : factoryPositions) {
            Object value = table.componentAt(position).newDefault(); // user code: may throw, nothing appended yet
            long[] bits = new long[sizes.length];
            encode(table, position, value, bits);
            int start = table.nativeStartAt(position);
            for (int f = 0; f < table.nativeCountAt(position); f++) {
                putBits(bytes, shorts, ints, longs, start + f, at, bits[start + f]);
            }
        }
        size = row + 1;
        return row;
    }

    /** Drops the last row (its entity could not be reserved after all). */
    public void dropLast() {
        size--;
        Chunk chunk = chunkList[chunkOf(size)];
        for (int c = 0; c < sizes.length; c++) {
            clear(chunk, c, size - chunk.start, size - chunk.start + 1);
        }
    }

    /** The index of the chunk that holds {@code row} (below the capacity). */
    private int chunkOf(int row) {
        int k = chunks - 1;
        while (chunkList[k].start > row) {
            k--;
        }
        return k;
    }

    /** Element {@code at} of column {@code column}, in the arrays of one chunk (by element width), set to bits. */
    private void putBits(byte[][] b, short[][] sh, int[][] in, long[][] lo, int column, int at, long bits) {
        switch (sizes[column]) {
            case 1 -> b[column][at] = (byte) bits;
            case 2 -> sh[column][at] = (short) bits;
            case 4 -> in[column][at] = (int) bits;
            default -> lo[column][at] = bits;
        }
    }

    /** The value of one staged element, boxed as a record component of {@code kind} takes it. */
    public Object boxed(int column, int row, PrimitiveKind kind) {
        Chunk chunk = chunkList[chunkOf(row)];
        return boxed(kind, chunk.bytes, chunk.shorts, chunk.ints, chunk.longs, column, row - chunk.start);
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
        int at = row - base;
        if (at >= 0) {
            bytes[column][at] = value;
        } else {
            putEarlier(column, row, (long) value);
        }
    }

    public void setBoolean(int column, int row, boolean value) {
        int at = row - base;
        if (at >= 0) {
            bytes[column][at] = (byte) (value ? 1 : 0);
        } else {
            putEarlier(column, row, (byte) (value ? 1 : 0));
        }
    }

    public void setShort(int column, int row, short value) {
        int at = row - base;
        if (at >= 0) {
            shorts[column][at] = value;
        } else {
            putEarlier(column, row, (long) value);
        }
    }

    public void setChar(int column, int row, char value) {
        int at = row - base;
        if (at >= 0) {
            shorts[column][at] = (short) value;
        } else {
            putEarlier(column, row, (long) (short) value);
        }
    }

    public void setInt(int column, int row, int value) {
        int at = row - base;
        if (at >= 0) {
            ints[column][at] = value;
        } else {
            putEarlier(column, row, (long) value);
        }
    }

    public void setFloat(int column, int row, float value) {
        int at = row - base;
        if (at >= 0) {
            ints[column][at] = Float.floatToRawIntBits(value);
        } else {
            putEarlier(column, row, Float.floatToRawIntBits(value));
        }
    }

    public void setLong(int column, int row, long value) {
        int at = row - base;
        if (at >= 0) {
            longs[column][at] = value;
        } else {
            putEarlier(column, row, value);
        }
    }

    public void setDouble(int column, int row, double value) {
        int at = row - base;
        if (at >= 0) {
            longs[column][at] = Double.doubleToRawLongBits(value);
        } else {
            putEarlier(column, row, Double.doubleToRawLongBits(value));
        }
    }

    /** A setter's write into a row of a chunk before the current one (an earlier spawn's row). */
    private void putEarlier(int column, int row, long bits) {
        Chunk chunk = chunkList[chunkOf(row)];
        putBits(chunk.bytes, chunk.shorts, chunk.ints, chunk.longs, column, row - chunk.start, bits);
    }

    /** Reads one staged value back (tests), as raw bits. */
    public long bits(int column, int row) {
        Chunk chunk = chunkList[chunkOf(row)];
        int at = row - chunk.start;
        return switch (sizes[column]) {
            case 1 -> chunk.bytes[column][at];
            case 2 -> chunk.shorts[column][at];
            case 4 -> chunk.ints[column][at];
            default -> chunk.longs[column][at];
        };
    }

    /**
     * Copies staged rows {@code [stagedRow, stagedRow + n)} into table rows from {@code tableRow}: one copy a column
     * and chunk they span.
     */
    public void copyInto(int tableRow, int stagedRow, int n) {
        int row = stagedRow;
        int to = stagedRow + n;
        for (int k = n > 0 ? chunkOf(stagedRow) : chunks; row < to; k++) {
            Chunk chunk = chunkList[k];
            int len = Math.min(to, chunk.end()) - row;
            int at = row - chunk.start;
            for (int c = 0; c < sizes.length; c++) {
                copyColumn(sizes[c], chunk.bytes[c], chunk.shorts[c], chunk.ints[c], chunk.longs[c], at,
                        table.nativeSegment(c), tableRow + (row - stagedRow), len);
            }
            row += len;
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

    /** A chunk: its first row, how many rows it holds, and its array per column by element width (the rest null). */
    private record Chunk(int start, int rows, byte[][] bytes, short[][] shorts, int[][] ints, long[][] longs) {
        int end() {
            return start + rows;
        }
    }
}
