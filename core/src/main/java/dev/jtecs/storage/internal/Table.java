package dev.jtecs.storage.internal;

import dev.jtecs.builtin.EntityKey;
import dev.jtecs.entity.internal.AllocationFaults;
import dev.jtecs.entity.internal.Failures;
import dev.jtecs.entity.internal.Growth;
import dev.jtecs.component.Component;
import dev.jtecs.component.FieldHandle;
import dev.jtecs.component.TargetSelector;
import dev.jtecs.component.ComponentLayout;
import dev.jtecs.component.Input;
import dev.jtecs.component.PairComponent;
import dev.jtecs.component.BaseRelationship;
import dev.jtecs.component.NativeComponent;
import dev.jtecs.component.PrimitiveKind;
import dev.jtecs.component.StorageKind;
import dev.jtecs.component.internal.RecordCodec;
import dev.jtecs.storage.EntityObserver;
import dev.jtecs.storage.Archetype;
import dev.jtecs.storage.BooleanColumn;
import dev.jtecs.storage.ByteColumn;
import dev.jtecs.storage.CharColumn;
import dev.jtecs.storage.Column;
import dev.jtecs.storage.DoubleColumn;
import dev.jtecs.storage.FloatColumn;
import dev.jtecs.storage.IntColumn;
import dev.jtecs.storage.LongColumn;
import dev.jtecs.storage.ObjectColumn;
import dev.jtecs.storage.ShortColumn;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * One archetype's storage: the rows of every entity with exactly this signature, as struct-of-arrays columns.
 *
 * <p>Layout: an off-heap {@code long} column of entity ids; one off-heap column per primitive field of each native
 * component and per numeric scalar; one heap {@code Object[]} per managed component and string scalar; nothing
 * for tags. Every off-heap column is 64-byte aligned with {@code capacityRows} a multiple of {@link #ROW_PADDING}.
 *
 * <pre>
 *   signature  [ Position | Velocity | Health | Enemy(tag) ]
 *   native     [ pos.x | pos.y | vel.x | vel.y | health ]     one segment each, rows 0..capacity
 *   entities   [ e0 e1 e2 ... e(count-1) | padding ]
 * </pre>
 *
 * <p>Invariants: rows {@code [0, count)} are dense and each holds a live or publishing entity; a component's
 * position is its index in the sorted signature; heap slots at or above {@code count} hold {@code null}.
 */
public final class Table {
    /** Capacities are multiples of this many rows: a full 64-byte vector of bytes fits past any count. */
    public static final int ROW_PADDING = 64;
    /**
     * From this capacity on, a table grows by a quarter instead of doubling. At 65,536 rows a column of 4-byte
     * fields (and every wider one) is above {@link NativeMemory#LARGE_BYTES}: an arena of its own, sized to the
     * byte, so a capacity that is no power of two wastes nothing in the allocator, and doubling would leave up to
     * half of every column unused (a 100,000-row table held 131,072 rows). Growing by a quarter bounds the unused
     * part to a fifth, for at most four copies of each row over the table's growth instead of one.
     */
    static final int GENTLE_GROWTH_ROWS = 65_536;

    private static final ValueLayout.OfLong ENTITY = ValueLayout.JAVA_LONG;

    private final int id;
    private final int[] signature;
    private final Component<?>[] components;
    private final NativeMemory memory;
    private final int[] nativeStart;
    private final int[] nativeCount;
    private final int[] heapIndex;
    private final RecordCodec[] codecs;
    private final PrimitiveKind[] nativeKinds;
    // each native column's element size in bytes, beside its kind: what a per-row copy switches on
    private final byte[] nativeSizes;
    private final MemorySegment[] nativeSegments;
    private final Column[] nativeViews;
    /** What each native column holds ({@code Component.field}), for the checked mode's messages. */
    private final String[] nativeLabels;
    private final Object[][] heapArrays;
    private final ObjectColumn<?>[] heapViews;
    private final String[] heapLabels;
    private MemorySegment entitySegment = MemorySegment.NULL;
    // Where native access is enabled (RawRows.ENABLED), the addresses of the current buffers of the native columns
    // and of the entity column: a single-row copy reads them instead of the segments, and checks its rows against
    // capacityRows. Refreshed with the views, which every change of a buffer rebuilds, and 0 with no storage: they
    // never name a freed buffer.
    private final long[] nativeAddresses;
    private long entityAddress;
    private LongColumn entityView;
    private int count;
    private int capacityRows;
    private int store;
    private int highWater;
    private boolean keyWritable;

    private final DirtyState dirty;
    private final TableValues values;
    private final StructureClock clock;

    private RowCapture[] captures = NO_CAPTURES;
    private int captureCount;
    private static final RowCapture[] NO_CAPTURES = new RowCapture[0];

    private final IntTableMap addEdges = new IntTableMap();
    private final IntTableMap removeEdges = new IntTableMap();
    // the edge each way taken last, and its component id (NO_EDGE: none): checked before the maps
    private int lastAddId = NO_EDGE;
    private Table lastAdd;
    private int lastRemoveId = NO_EDGE;
    private Table lastRemove;
    private static final int NO_EDGE = Integer.MIN_VALUE;
    private final Map<Table, MovePlan> movePlans = new IdentityHashMap<>();
    private MovePlan lastPlan;
    private final Archetype archetype;
    private EntityObserver[] observers = NO_OBSERVERS;

    private static final EntityObserver[] NO_OBSERVERS = new EntityObserver[0];

    /** A table with a clock of its own (tests, and tables outside a registry). */
    public Table(int id, Component<?>[] sortedComponents, NativeMemory memory) {
        this(id, sortedComponents, memory, new StructureClock());
    }

    /** A table whose structural changes advance {@code clock}, the world's (see {@link StructureClock}). */
    public Table(int id, Component<?>[] sortedComponents, NativeMemory memory, StructureClock clock) {
        this.clock = java.util.Objects.requireNonNull(clock, "clock");
        this.id = id;
        this.store = id;
        this.memory = memory;
        this.components = sortedComponents.clone();
        int n = components.length;
        signature = new int[n];
        nativeStart = new int[n];
        nativeCount = new int[n];
        heapIndex = new int[n];
        codecs = new RecordCodec[n];
        int natives = 0;
        int heaps = 0;
        for (int p = 0; p < n; p++) {
            signature[p] = components[p].id();
            if (p > 0 && signature[p] <= signature[p - 1]) {
                throw new IllegalArgumentException("signature not strictly ascending: " + Arrays.toString(signature));
            }
            ComponentLayout layout = components[p].layout();
            nativeStart[p] = natives;
            nativeCount[p] = layout.nativeColumnCount();
            natives += layout.nativeColumnCount();
            heapIndex[p] = layout.heapColumn() ? heaps++ : -1;
            if (components[p] instanceof NativeComponent<?> nc) {
                codecs[p] = RecordCodec.of(nc.valueType());
            } else if (components[p] instanceof PairComponent pair && pair.storage() == StorageKind.NATIVE) {
                codecs[p] = RecordCodec.of(pair.payloadType()); // a native payload relationship's edge record
            }
        }
        nativeKinds = new PrimitiveKind[natives];
        nativeSizes = new byte[natives];
        nativeLabels = new String[natives];
        heapLabels = new String[heaps];
        for (int p = 0; p < n; p++) {
            ComponentLayout layout = components[p].layout();
            for (int f = 0; f < nativeCount[p]; f++) {
                nativeKinds[nativeStart[p] + f] = layout.fieldKinds().get(f);
                nativeSizes[nativeStart[p] + f] = (byte) layout.fieldKinds().get(f).byteSize();
                nativeLabels[nativeStart[p] + f] = components[p].name() + "." + layout.fieldNames().get(f);
            }
            if (heapIndex[p] >= 0) {
                heapLabels[heapIndex[p]] = components[p].name();
            }
        }
        nativeSegments = new MemorySegment[natives];
        Arrays.fill(nativeSegments, MemorySegment.NULL);
        nativeAddresses = new long[natives];
        nativeViews = new Column[natives];
        heapArrays = new Object[heaps][];
        Arrays.fill(heapArrays, new Object[0]);
        heapViews = new ObjectColumn<?>[heaps];
        archetype = new Archetype(this); // before the views, which name their archetype
        rebuildViews();
        dirty = new DirtyState(this, n);
        values = new TableValues(this, components, nativeStart, nativeCount, heapIndex, codecs, nativeKinds,
                nativeSegments, nativeAddresses, heapArrays);
    }

    // ---------------------------------------------------------------- identity and shape

    public int id() {
        return id;
    }

    public Archetype archetype() {
        return archetype;
    }

    /**
     * The storage block this table's rows live in, as the entity index records it. It starts equal to
     * {@link #id()} and changes hands with the buffers in {@link #exchangeInto}.
     */
    public int store() {
        return store;
    }

    void setStore(int store) {
        this.store = store;
    }

    /** The most rows this table has held since its storage was last built (growth or {@link #rebuild}). */
    public int highWater() {
        return highWater;
    }

    public int count() {
        return count;
    }

    public int capacityRows() {
        return capacityRows;
    }

    public int componentCount() {
        return components.length;
    }

    public Component<?> componentAt(int position) {
        return components[position];
    }

    public int[] signature() {
        return signature.clone();
    }

    int[] signatureUnsafe() {
        return signature;
    }

    /**
     * The position of a component id in the signature, or a negative number when absent (as
     * {@link Arrays#binarySearch(int[], int)} answers).
     *
     * @implNote Short signatures, the common case, are scanned: a few compares that inline at every per-entity
     *     call site, where the library search did not.
     */
    public int position(int componentId) {
        int[] ids = signature;
        if (ids.length > 8) {
            return Arrays.binarySearch(ids, componentId);
        }
        for (int p = 0; p < ids.length; p++) {
            int id = ids[p];
            if (id >= componentId) {
                return id == componentId ? p : -p - 1;
            }
        }
        return -ids.length - 1;
    }

    public boolean has(int componentId) {
        return position(componentId) >= 0;
    }

    int nativeStartAt(int position) {
        return nativeStart[position];
    }

    int nativeCountAt(int position) {
        return nativeCount[position];
    }

    int heapIndexAt(int position) {
        return heapIndex[position];
    }

    /** The number of native columns, every component's together. */
    int nativeColumns() {
        return nativeSegments.length;
    }

    /** The buffer of native column {@code column} (placement only: views are what user code gets). */
    MemorySegment nativeSegment(int column) {
        return nativeSegments[column];
    }

    PrimitiveKind nativeKind(int column) {
        return nativeKinds[column];
    }

    public long nativeBytesReserved() {
        long bytes = entitySegment.byteSize();
        for (MemorySegment segment : nativeSegments) {
            bytes += segment.byteSize();
        }
        return bytes;
    }

    // ---------------------------------------------------------------- column access

    public LongColumn entities() {
        LongColumn view = entityView;
        // null only when the views could not all be made after the last change of the buffers: made now
        return view != null ? view : repairedEntities();
    }

    /** The entity in {@code row}, which must lie within the capacity. */
    public long entityAt(int row) {
        if (RawRows.ENABLED) {
            return RawRows.loadLong(entityAddressOf(row));
        }
        return entitySegment.getAtIndex(ENTITY, row);
    }

    /** Writes the entity id of {@code row}, which must lie within the capacity. */
    private void writeEntity(int row, long entity) {
        if (RawRows.ENABLED) {
            RawRows.storeLongAt(entityAddressOf(row), entity);
        } else {
            entitySegment.setAtIndex(ENTITY, row, entity);
        }
    }

    /** The address of {@code row}'s entity id, the row checked against the capacity (raw access only). */
    private long entityAddressOf(int row) {
        long offset = 8L * java.util.Objects.checkIndex(row, capacityRows);
        checkAddresses();
        return entityAddress + offset;
    }

    /** The view of native column {@code field} of the component at {@code position}. */
    public Column nativeColumn(int position, int field) {
        int c = nativeStart[position] + field;
        Column view = nativeViews[c];
        return view != null ? view : repairedNative(c); // see entities()
    }

    // ---------------------------------------------------------------- one field of one row (World.write)

    /**
     * The native column of field {@code field} of the component at {@code position}, about to take a
     * {@code bytes}-byte element at {@code row}, which is checked against the count; a store then goes by the table's
     * own record of its buffers' addresses ({@link RawRows}), where a write through the column's segment checked the
     * segment again on every element. The field is one of the component's, of that size: a field handle is checked
     * against its component's layout when it is made ({@code FieldHandle.check}), and the table lays the component
     * out by that layout. The assertion (on in the tests) checks it again; checked on every store, it measured 0.85 ns
     * of a 6 ns {@code World.write}.
     */
    private int fieldColumn(int position, int field, int row, int bytes) {
        java.util.Objects.checkIndex(row, count);
        int c = nativeStart[position] + field;
        assert field >= 0 && field < nativeCount[position] && nativeSizes[c] == bytes : noFieldColumn(position, field,
                bytes);
        checkAddresses();
        return c;
    }

    /**
     * Checks a row that a store by this table's record of its buffers' addresses is about to reach ({@link RawRows}):
     * inside the buffers' capacity, as a column segment's own bounds would, and the addresses current.
     *
     * @throws IndexOutOfBoundsException when the row is negative or at or past the capacity
     */
    void checkStoreRow(int row) {
        java.util.Objects.checkIndex(row, capacityRows);
        checkAddresses();
    }

    private String noFieldColumn(int position, int field, int bytes) {
        return "field " + field + " of position " + position + " in " + this + " is no " + bytes + "-byte column";
    }

    /** Stores {@code value} in field {@code field} of the component at {@code position}, at {@code row}. */
    public void writeByte(int position, int field, int row, byte value) {
        int c = fieldColumn(position, field, row, 1);
        if (RawRows.ENABLED) {
            RawRows.storeByteAt(nativeAddresses[c] + row, value);
        } else {
            nativeSegments[c].setAtIndex(ValueLayout.JAVA_BYTE, row, value);
        }
    }

    /** {@link #writeByte} of a boolean field: 1 for true, 0 for false, as a boolean column holds it. */
    public void writeBoolean(int position, int field, int row, boolean value) {
        writeByte(position, field, row, value ? (byte) 1 : (byte) 0);
    }

    /** {@link #writeByte} of a 2-byte field. */
    public void writeShort(int position, int field, int row, short value) {
        int c = fieldColumn(position, field, row, 2);
        if (RawRows.ENABLED) {
            RawRows.storeShortAt(nativeAddresses[c] + 2L * row, value);
        } else {
            nativeSegments[c].setAtIndex(ValueLayout.JAVA_SHORT, row, value);
        }
    }

    /** {@link #writeShort} of a char field (its 16 bits). */
    public void writeChar(int position, int field, int row, char value) {
        writeShort(position, field, row, (short) value);
    }

    /** {@link #writeByte} of a 4-byte field. */
    public void writeInt(int position, int field, int row, int value) {
        int c = fieldColumn(position, field, row, 4);
        if (RawRows.ENABLED) {
            RawRows.storeIntAt(nativeAddresses[c] + 4L * row, value);
        } else {
            nativeSegments[c].setAtIndex(ValueLayout.JAVA_INT, row, value);
        }
    }

    /** {@link #writeInt} of a float field (its bits). */
    public void writeFloat(int position, int field, int row, float value) {
        writeInt(position, field, row, Float.floatToRawIntBits(value));
    }

    /** {@link #writeByte} of an 8-byte field. */
    public void writeLong(int position, int field, int row, long value) {
        int c = fieldColumn(position, field, row, 8);
        if (RawRows.ENABLED) {
            RawRows.storeLongAt(nativeAddresses[c] + 8L * row, value);
        } else {
            nativeSegments[c].setAtIndex(ValueLayout.JAVA_LONG, row, value);
        }
    }

    /** {@link #writeLong} of a double field (its bits). */
    public void writeDouble(int position, int field, int row, double value) {
        writeLong(position, field, row, Double.doubleToRawLongBits(value));
    }

    public ObjectColumn<?> heapColumn(int position) {
        int h = heapIndex[position];
        ObjectColumn<?> view = heapViews[h];
        return view != null ? view : repairedHeap(h); // see entities()
    }

    // The views made again after a failure (rebuildViews). Locked: parallel systems may ask at once, and a repair
    // clears every view before it makes the first; only a repair clears them while systems may run.

    private synchronized LongColumn repairedEntities() {
        if (entityView == null) {
            makeViews();
        }
        return entityView;
    }

    private synchronized Column repairedNative(int c) {
        if (nativeViews[c] == null) {
            makeViews();
        }
        return nativeViews[c];
    }

    private synchronized ObjectColumn<?> repairedHeap(int h) {
        if (heapViews[h] == null) {
            makeViews();
        }
        return heapViews[h];
    }

    // ---------------------------------------------------------------- rows

    /** Appends a row for {@code entity}; every component column of the row must then be written. */
    public int appendRow(long entity) {
        preStructural();
        ensureCapacity(count + 1);
        int row = count++;
        writeEntity(row, entity);
        if (count > highWater) {
            highWater = count;
        }
        markStructural();
        return row;
    }

    /**
     * {@link #appendRows}, counted as {@code n} calls of {@link #appendRow} count: the table's structural count
     * advances by {@code n} (its other marks and the structure clock, which counts a run of changes once, as
     * they would). For a caller that places single spawns as a range.
     */
    public int appendRowsAsSingles(int n) {
        int first = appendRows(n);
        if (n > 1) {
            dirty.markStructural(n - 1);
        }
        return first;
    }

    /**
     * Appends {@code n} rows whose entity ids are written by the caller ({@link #writeEntities}); returns the
     * first new row. Every component column of the new rows must then be written.
     */
    public int appendRows(int n) {
        preStructural();
        ensureCapacity(count + n);
        int first = count;
        count += n;
        if (count > highWater) {
            highWater = count;
        }
        markStructural();
        return first;
    }

    /** Writes consecutive ids {@code firstId, firstId + 1, ...} into rows {@code [from, from + n)}. */
    public void writeConsecutiveEntities(int from, int n, long firstId) {
        long[] chunk = ID_SCRATCH.get(); // one per thread: a placement every frame allocates nothing
        for (int done = 0; done < n; done += chunk.length) {
            int len = Math.min(chunk.length, n - done);
            long base = firstId + done;
            for (int i = 0; i < len; i++) {
                chunk[i] = base + i;
            }
            MemorySegment.copy(chunk, 0, entitySegment, ENTITY, (long) (from + done) * Long.BYTES, len);
        }
    }

    private static final ThreadLocal<long[]> ID_SCRATCH = ThreadLocal.withInitial(() -> new long[1024]);

    /** Writes {@code ids[offset, offset + n)} into rows {@code [from, from + n)}. */
    public void writeEntities(int from, long[] ids, int offset, int n) {
        MemorySegment.copy(ids, offset, entitySegment, ENTITY, (long) from * Long.BYTES, n);
    }

    /** Writes the first {@code n} longs (native byte order) of {@code ids} into rows {@code [from, from + n)}. */
    public void writeEntities(int from, MemorySegment ids, int n) {
        MemorySegment.copy(ids, 0, entitySegment, (long) from * Long.BYTES, (long) n * Long.BYTES);
    }

    /** Copies rows {@code [from, from + n)} of the entity column into {@code out[offset...]}. */
    public void readEntities(int from, int n, long[] out, int offset) {
        MemorySegment.copy(entitySegment, ENTITY, (long) from * Long.BYTES, out, offset, n);
    }

    /**
     * Drops rows {@code [from, count)} (a failed batch placement, or a whole-archetype despawn when
     * {@code from} is 0): one truncation, whatever the number of rows.
     */
    public void truncate(int from) {
        if (from < 0 || from > count) {
            throw new IndexOutOfBoundsException("truncate from=" + from + " count=" + count);
        }
        if (from == count) {
            return;
        }
        preStructural();
        for (Object[] heap : heapArrays) {
            Arrays.fill(heap, from, count, null);
        }
        count = from;
        dirty.shrunk(count);
        markStructural();
    }

    /**
     * Makes what removing one row allocates (the copies pending query batches take of the rows, and the structural
     * residue's record of the row it overwrites), so that
     * the next {@link #swapRemove} allocates nothing: a caller that tells observers of a removal before making it
     * calls this first, so running out of memory cannot strike between the two.
     */
    public void prepareRowRemoval() {
        preStructural(); // pending captures copy the rows now: they may allocate too
        dirty.reserveOverwrite();
    }

    /**
     * Removes a row by moving the last row into it. Returns the entity that now occupies {@code row}, or 0 when
     * {@code row} was the last row.
     */
    public long swapRemove(int row) {
        long moved = swapRemoveUnmarked(row);
        markStructural();
        return moved;
    }

    /**
     * {@link #swapRemove} without its structural mark: for a caller that removes several rows one after another
     * and then calls {@link #markStructural} once (nobody reads the table in between). Every other mark (the
     * overwritten row's residue, the shrunk count) is made row by row, as {@code swapRemove} makes it.
     */
    public long swapRemoveUnmarked(int row) {
        checkRow(row);
        preStructural();
        int last = count - 1;
        long moved = 0;
        if (row != last) {
            dirty.overwrote(row); // may allocate: before the row changes
            moved = copyRowWithin(last, row);
        }
        for (Object[] heap : heapArrays) {
            heap[last] = null;
        }
        count = last;
        dirty.shrunk(count);
        return moved;
    }

    /**
     * Makes what removing {@code n} rows one after another allocates (the copies pending query batches take of the
     * rows, and the structural residue's records of the rows they overwrite), so that {@code n} calls of
     * {@link #swapRemove} or {@link #swapRemoveDeferringValues} allocate nothing.
     */
    public void prepareRowRemovals(int n) {
        preStructural();
        dirty.reserveOverwrites(n);
    }

    /**
     * {@link #swapRemove} with the native columns' copy left to the caller: the entity column, the managed columns,
     * the count and every dirty and structural mark change exactly as {@code swapRemove(row)} changes them, but the
     * values of the native columns at {@code row} are not yet those of the last row. The caller records
     * {@code (last, row)} when the result is not 0 and hands every recorded pair, in order, to
     * {@link #copyNativeRows} before anything reads the table. A batch of removals so runs its bookkeeping row by
     * row and its column copies one column at a time (the drain's batch despawn).
     *
     * @return the entity that now occupies {@code row}, or 0 when {@code row} was the last row (nothing to copy)
     */
    public long swapRemoveDeferringValues(int row) {
        checkRow(row);
        preStructural();
        int last = count - 1;
        long moved = 0;
        if (row != last) {
            dirty.overwrote(row); // may allocate unless prepared: before the row changes
            moved = entityAt(last);
            writeEntity(row, moved);
            for (Object[] heap : heapArrays) {
                heap[row] = heap[last];
            }
        }
        for (Object[] heap : heapArrays) {
            heap[last] = null;
        }
        count = last;
        dirty.shrunk(count);
        markStructural();
        return moved;
    }

    /**
     * Copies, in every native column and in order {@code i = 0 .. n-1}, the element at row {@code from[i]} into row
     * {@code to[i]}: the copies {@link #swapRemoveDeferringValues} left to the caller. One column at a time, so the
     * scattered writes of one column do not wait on each other. Rows are checked against the capacity only: the
     * source rows of deferred removals lie past the count by now.
     */
    public void copyNativeRows(int[] from, int[] to, int n) {
        java.util.Objects.checkFromIndexSize(0, n, from.length);
        java.util.Objects.checkFromIndexSize(0, n, to.length);
        for (int c = 0; c < nativeSegments.length; c++) {
            MemorySegment segment = nativeSegments[c];
            long bytes = nativeKinds[c].byteSize();
            if (bytes == 4) {
                for (int i = 0; i < n; i++) {
                    segment.setAtIndex(ValueLayout.JAVA_INT_UNALIGNED, to[i],
                            segment.getAtIndex(ValueLayout.JAVA_INT_UNALIGNED, from[i]));
                }
            } else if (bytes == 8) {
                for (int i = 0; i < n; i++) {
                    segment.setAtIndex(ValueLayout.JAVA_LONG_UNALIGNED, to[i],
                            segment.getAtIndex(ValueLayout.JAVA_LONG_UNALIGNED, from[i]));
                }
            } else {
                for (int i = 0; i < n; i++) {
                    copyNarrowElement(segment, from[i] * bytes, segment, to[i] * bytes, bytes);
                }
            }
        }
    }

    /**
     * Copies a row into {@code destination}: appends there and copies every shared column; the row stays here for
     * the caller to remove. Components the destination has and this table lacks are left for the caller to write.
     *
     * @return the destination row
     */
    public int moveRowTo(int row, Table destination) {
        checkRow(row);
        MovePlan plan = movePlanTo(destination); // first: made on a first move, before the destination changes
        int dstRow = destination.appendRow(entityAt(row));
        copyShared(row, destination, dstRow, plan);
        return dstRow;
    }

    /**
     * {@link #prepareRowRemoval}, and what moving a row into {@code destination} allocates besides: the copies the
     * destination's pending query batches take of its rows, and the move plan on a first move between the two. A
     * caller that tells observers of the move before making it calls this first; with room in the destination,
     * {@link #moveRowTo} and the {@link #swapRemove} after it then allocate nothing.
     */
    public void prepareMoveTo(Table destination) {
        prepareRowRemoval();
        destination.preStructural();
        movePlanTo(destination);
    }

    /**
     * Copies a row's entity and every column it shares with {@code destination} into {@code destination}'s row
     * {@code dstRow}, one of the rows its {@link #appendRows} just added; the row stays here for the caller to
     * remove. A caller that moves several rows to one destination so appends once (a run of tag moves).
     */
    public void copyRowInto(int row, Table destination, int dstRow) {
        checkRow(row);
        destination.checkRow(dstRow);
        MovePlan plan = movePlanTo(destination);
        destination.writeEntity(dstRow, entityAt(row));
        copyShared(row, destination, dstRow, plan);
    }

    private void copyShared(int row, Table destination, int dstRow, MovePlan plan) {
        int[] sources = plan.nativeSource;
        int[] destinations = plan.nativeDestination;
        MemorySegment[] dstSegments = destination.nativeSegments;
        // two loops rather than one whose copies branch on RawRows.ENABLED inside a helper: that form measured
        // 40% slower on an instant remove (38 to 48 ns against 56 to 61 on the pinned harness); the rows checked
        // once against the capacities, the columns' addresses read from arrays rather than through each segment
        if (RawRows.ENABLED) {
            java.util.Objects.checkIndex(row, capacityRows);
            java.util.Objects.checkIndex(dstRow, destination.capacityRows);
            checkAddresses();
            destination.checkAddresses();
            long[] from = nativeAddresses;
            long[] to = destination.nativeAddresses;
            for (int i = 0; i < sources.length; i++) {
                int c = sources[i];
                int bytes = nativeSizes[c];
                long src = from[c];
                long dst = to[destinations[i]];
                if (bytes == 4) {
                    RawRows.copyInt(src + 4L * row, dst + 4L * dstRow);
                } else if (bytes == 8) {
                    RawRows.copyLong(src + 8L * row, dst + 8L * dstRow);
                } else {
                    copyNarrowElement(nativeSegments[c], (long) row * bytes, dstSegments[destinations[i]],
                            (long) dstRow * bytes, bytes);
                }
            }
            for (int i = 0; i < plan.heapSource.length; i++) {
                destination.heapArrays[plan.heapDestination[i]][dstRow] = heapArrays[plan.heapSource[i]][row];
            }
            return;
        }
        for (int i = 0; i < sources.length; i++) {
            int c = sources[i];
            MemorySegment from = nativeSegments[c];
            MemorySegment to = dstSegments[destinations[i]];
            int bytes = nativeSizes[c];
            if (bytes == 4) {
                to.setAtIndex(ValueLayout.JAVA_INT_UNALIGNED, dstRow,
                        from.getAtIndex(ValueLayout.JAVA_INT_UNALIGNED, row));
            } else if (bytes == 8) {
                to.setAtIndex(ValueLayout.JAVA_LONG_UNALIGNED, dstRow,
                        from.getAtIndex(ValueLayout.JAVA_LONG_UNALIGNED, row));
            } else {
                copyNarrowElement(from, (long) row * bytes, to, (long) dstRow * bytes, bytes);
            }
        }
        for (int i = 0; i < plan.heapSource.length; i++) {
            destination.heapArrays[plan.heapDestination[i]][dstRow] = heapArrays[plan.heapSource[i]][row];
        }
    }

    /** The destination positions a move into {@code destination} leaves unwritten. */
    public int[] missingPositionsFor(Table destination) {
        return movePlanTo(destination).missingPositions;
    }

    private MovePlan movePlanTo(Table destination) {
        MovePlan plan = lastPlan;
        if (plan != null && plan.destination == destination) {
            return plan; // moves come in runs to the same destination
        }
        plan = movePlans.get(destination);
        if (plan == null) {
            AllocationFaults.beforeHeapGrowth(1); // the plan and its entry, failed as the engine's arrays are
            plan = MovePlan.between(this, destination);
            movePlans.put(destination, plan);
        }
        lastPlan = plan;
        return plan;
    }

    /**
     * Copies one element of a narrow column, 1 or 2 bytes: every caller copies its 4- and 8-byte columns, the common
     * ones, with typed accesses of its own.
     */
    private static void copyNarrowElement(MemorySegment from, long fromOffset, MemorySegment to, long toOffset,
            long bytes) {
        if (bytes == 1) {
            to.set(ValueLayout.JAVA_BYTE, toOffset, from.get(ValueLayout.JAVA_BYTE, fromOffset));
        } else {
            MemorySegment.copy(from, fromOffset, to, toOffset, bytes);
        }
    }

    // copyShared and copyRowWithin each switch on the element size in their own loop body: moved into one helper
    // (with the narrow case), the switch measured 20% slower on an instant remove, the helper no longer inlined
    /** Copies row {@code from} over row {@code to}, its entity id included, and returns that id. */
    private long copyRowWithin(int from, int to) {
        MemorySegment[] segments = nativeSegments;
        byte[] sizes = nativeSizes;
        if (RawRows.ENABLED) {
            java.util.Objects.checkIndex(from, capacityRows);
            java.util.Objects.checkIndex(to, capacityRows);
            checkAddresses();
            long[] addresses = nativeAddresses;
            for (int c = 0; c < addresses.length; c++) {
                long base = addresses[c];
                int bytes = sizes[c];
                if (bytes == 4) {
                    RawRows.copyInt(base + 4L * from, base + 4L * to);
                } else if (bytes == 8) {
                    RawRows.copyLong(base + 8L * from, base + 8L * to);
                } else {
                    copyNarrowElement(segments[c], (long) from * bytes, segments[c], (long) to * bytes, bytes);
                }
            }
            // the id copied is the one returned, not read again from the row just written: an instant set of a new
            // value 63.4 to 61.7 ns per entity, an instant remove 44.0 to 42.6 (pinned harness, two pairs each)
            long entity = RawRows.loadLong(entityAddress + 8L * from);
            RawRows.storeLongAt(entityAddress + 8L * to, entity);
            for (Object[] heap : heapArrays) {
                heap[to] = heap[from];
            }
            return entity;
        }
        for (int c = 0; c < segments.length; c++) {
            MemorySegment s = segments[c];
            int bytes = sizes[c];
            if (bytes == 4) {
                s.setAtIndex(ValueLayout.JAVA_INT_UNALIGNED, to, s.getAtIndex(ValueLayout.JAVA_INT_UNALIGNED, from));
            } else if (bytes == 8) {
                s.setAtIndex(ValueLayout.JAVA_LONG_UNALIGNED, to, s.getAtIndex(ValueLayout.JAVA_LONG_UNALIGNED, from));
            } else {
                copyNarrowElement(s, (long) from * bytes, s, (long) to * bytes, bytes);
            }
        }
        long entity = entitySegment.getAtIndex(ENTITY, from);
        entitySegment.setAtIndex(ENTITY, to, entity);
        for (Object[] heap : heapArrays) {
            heap[to] = heap[from];
        }
        return entity;
    }

    private void checkRow(int row) {
        if (row < 0 || row >= count) {
            throw new IndexOutOfBoundsException("row=" + row + " count=" + count + " archetype=" + id);
        }
    }

    /**
     * Moves every row into an <em>empty</em> destination by exchanging buffers: the destination takes this
     * table's entity column and every column the two share, allocates the columns only it has (to be written by
     * the caller, rows {@code [0, count)}), and frees its old buffers; this table is left empty with no storage.
     * When the destination had capacity and either both tables have the same columns, or both have exactly this
     * table's capacity and neither has managed columns, nothing is freed or allocated: this table keeps the
     * destination's old buffers of the shared columns and its entity column, and its own buffers of the columns
     * only it has; the destination keeps its own buffers of the columns only it has. A move back then allocates
     * nothing either. Rows at and past a table's count hold whatever they held: every append writes its row.
     * The two tables also exchange their storage blocks, so the entity index follows without touching any
     * entity. O(columns), whatever the number of rows. Views of both tables are invalid afterwards.
     *
     * @return the destination positions left for the caller to write
     */
    public int[] exchangeInto(Table destination) {
        return exchangeInto(destination, prepareExchange(destination));
    }

    /**
     * The buffers an exchange into {@code destination} needs beyond what this table hands over: the columns only
     * the destination has, allocated now, before either table changes. A failed allocation frees what it took and
     * rethrows; a preparation that is not used must be {@linkplain Exchange#free freed}.
     */
    public Exchange prepareExchange(Table destination) {
        if (destination.count != 0) {
            throw new IllegalStateException("exchangeInto needs an empty destination, found " + destination);
        }
        MovePlan plan = movePlanTo(destination);
        int rows = capacityRows;
        boolean reuse = takesBuffersOf(destination, plan);
        MemorySegment[] taken = new MemorySegment[destination.nativeSegments.length];
        Object[][] takenHeap = new Object[destination.heapArrays.length][];
        boolean[] shared = new boolean[taken.length];
        boolean[] sharedHeap = new boolean[takenHeap.length];
        for (int i = 0; i < plan.nativeSource.length; i++) {
            shared[plan.nativeDestination[i]] = true;
        }
        for (int i = 0; i < plan.heapSource.length; i++) {
            sharedHeap[plan.heapDestination[i]] = true;
        }
        try {
            for (int c = 0; c < taken.length; c++) {
                if (!shared[c]) {
                    taken[c] = rows == 0 ? MemorySegment.NULL
                            : reuse ? destination.nativeSegments[c] // its own, of this capacity: nothing allocated
                            : memory.allocate(destination.nativeKinds[c].byteSize() * rows);
                }
            }
            for (int h = 0; h < takenHeap.length; h++) {
                if (!sharedHeap[h]) {
                    AllocationFaults.beforeHeapGrowth(rows);
                    takenHeap[h] = new Object[rows];
                }
            }
        } catch (RuntimeException | Error e) {
            freeAll(MemorySegment.NULL, taken);
            throw e;
        }
        return new Exchange(this, destination, rows, taken, takenHeap, reuse);
    }

    /**
     * Whether an exchange into {@code destination}, whose columns differ from this table's, keeps both tables'
     * buffers (see {@link #exchangeInto(Table)}): both have the same capacity and no managed columns, so each
     * table's columns keep one capacity, and the destination's own buffers of the columns only it has are taken
     * instead of new ones. (Tables of the same columns keep them whatever their capacities: nothing is taken.)
     */
    private boolean takesBuffersOf(Table destination, MovePlan plan) {
        return destination.capacityRows > 0 && !sameColumns(destination, plan)
                && destination.capacityRows == capacityRows && heapArrays.length == 0
                && destination.heapArrays.length == 0;
    }

    /** Whether this table and {@code destination} have the same columns. */
    private boolean sameColumns(Table destination, MovePlan plan) {
        return plan.nativeSource.length == nativeSegments.length
                && plan.nativeSource.length == destination.nativeSegments.length
                && plan.heapSource.length == heapArrays.length
                && plan.heapSource.length == destination.heapArrays.length;
    }

    /**
     * What {@link #prepareExchange} allocated for one exchange: valid while neither table changes shape or
     * capacity.
     */
    public static final class Exchange {
        private final Table source;
        private final Table destination;
        private final int rows;
        private MemorySegment[] taken;
        private final Object[][] takenHeap;
        private final boolean reused; // taken holds the destination's own buffers: none of them is ours to free

        private Exchange(Table source, Table destination, int rows, MemorySegment[] taken, Object[][] takenHeap,
                boolean reused) {
            this.source = source;
            this.destination = destination;
            this.rows = rows;
            this.taken = taken;
            this.takenHeap = takenHeap;
            this.reused = reused;
        }

        /** Frees the buffers of a preparation that will not be used. Idempotent. */
        public void free() {
            if (taken != null) {
                if (!reused) {
                    source.freeAll(MemorySegment.NULL, taken);
                }
                taken = null;
            }
        }
    }

    /** {@link #exchangeInto(Table)} with buffers already prepared for it; allocates nothing. */
    public int[] exchangeInto(Table destination, Exchange prepared) {
        if (prepared.source != this || prepared.destination != destination || prepared.taken == null
                || prepared.rows != capacityRows || destination.count != 0
                || prepared.reused && destination.capacityRows != prepared.rows) { // (its own buffers were taken)
            throw new IllegalStateException("exchange prepared for " + prepared.source + " -> " + prepared.destination
                    + " does not fit " + this + " -> " + destination);
        }
        preStructural();
        destination.preStructural();
        MovePlan plan = movePlanTo(destination);
        int rows = capacityRows;
        MemorySegment[] taken = prepared.taken;
        Object[][] takenHeap = prepared.takenHeap;
        prepared.taken = null; // consumed
        // nothing below allocates
        // When the destination has capacity and the same columns, or other columns of the same capacity (the
        // preparation then took its own buffers of the columns only it has: takesBuffersOf), this table keeps the
        // destination's old, empty buffers of the shared columns instead of freeing them, and its own of the
        // columns only it has: the move back (the tag or the component removed again) then finds its capacity in
        // place and allocates nothing, where freeing them made every round trip allocate, zero and fault in fresh
        // memory.
        boolean swap = prepared.reused || destination.capacityRows > 0 && sameColumns(destination, plan);
        for (int i = 0; i < plan.nativeSource.length; i++) {
            taken[plan.nativeDestination[i]] = nativeSegments[plan.nativeSource[i]];
            nativeSegments[plan.nativeSource[i]] = swap ? destination.nativeSegments[plan.nativeDestination[i]]
                    : MemorySegment.NULL;
        }
        for (int i = 0; i < plan.heapSource.length; i++) {
            takenHeap[plan.heapDestination[i]] = heapArrays[plan.heapSource[i]];
            heapArrays[plan.heapSource[i]] = swap ? destination.heapArrays[plan.heapDestination[i]] : EMPTY;
        }
        MemorySegment kept = swap ? destination.entitySegment : MemorySegment.NULL;
        int keptRows = swap ? destination.capacityRows : 0;
        if (!swap) {
            destination.releaseBuffers();
        }
        System.arraycopy(taken, 0, destination.nativeSegments, 0, taken.length);
        System.arraycopy(takenHeap, 0, destination.heapArrays, 0, takenHeap.length);
        destination.entitySegment = entitySegment;
        destination.capacityRows = rows;
        destination.count = count;
        destination.highWater = Math.max(count, highWater);
        entitySegment = kept;
        if (swap) {
            capacityRows = keptRows;
        } else {
            releaseBuffers();
        }
        count = 0;
        highWater = 0;
        int exchanged = store;
        store = destination.store;
        destination.store = exchanged;
        dirty.shrunk(0);
        markStructural();
        destination.markStructural();
        rebuildViews();
        destination.rebuildViews();
        return plan.missingPositions;
    }

    /** Frees every buffer (entity column included unless already taken) and leaves no storage. */
    private void releaseBuffers() {
        if (entitySegment.byteSize() > 0) {
            memory.free(entitySegment);
        }
        entitySegment = MemorySegment.NULL;
        for (int c = 0; c < nativeSegments.length; c++) {
            if (nativeSegments[c].byteSize() > 0) {
                memory.free(nativeSegments[c]);
            }
            nativeSegments[c] = MemorySegment.NULL;
        }
        Arrays.fill(heapArrays, EMPTY);
        capacityRows = 0;
    }

    private static final Object[] EMPTY = new Object[0];

    /**
     * Moves every row into a populated destination: one bulk copy per shared column appended after the
     * destination's rows; this table is left empty (storage kept). The caller relocates the entities and
     * writes the destination positions {@link #missingPositionsFor} reports.
     *
     * @return the destination row of this table's row 0
     */
    public int moveAllTo(Table destination) {
        preStructural();
        MovePlan plan = movePlanTo(destination);
        int n = count;
        int at = destination.appendRows(n);
        MemorySegment.copy(entitySegment, 0, destination.entitySegment, (long) at * Long.BYTES,
                (long) n * Long.BYTES);
        for (int i = 0; i < plan.nativeSource.length; i++) {
            long bytes = plan.nativeBytes[i];
            MemorySegment.copy(nativeSegments[plan.nativeSource[i]], 0,
                    destination.nativeSegments[plan.nativeDestination[i]], at * bytes, n * bytes);
        }
        for (int i = 0; i < plan.heapSource.length; i++) {
            System.arraycopy(heapArrays[plan.heapSource[i]], 0, destination.heapArrays[plan.heapDestination[i]],
                    at, n);
        }
        truncate(0);
        return at;
    }

    /**
     * Reallocates every column at the smallest padded capacity that holds the current rows (after a table lost
     * most of its rows) and restarts the high-water mark. Returns whether anything was reallocated.
     */
    public boolean rebuild() {
        int wanted = count == 0 ? 0 : (count + ROW_PADDING - 1) / ROW_PADDING * ROW_PADDING;
        if (wanted >= capacityRows) {
            highWater = count;
            return false;
        }
        if (wanted == 0) {
            releaseBuffers();
        } else {
            replaceStorage(wanted); // throws before anything changes when an allocation fails
        }
        highWater = count; // only once the shrink happened: a failed one is tried again by the next compaction
        rebuildViews();
        return true;
    }

    /**
     * Lets a restoration callback write this table's {@code EntityKey} column (read-only otherwise) until it is
     * switched off again; the world registers the keys afterwards.
     */
    public void setKeyWritable(boolean writable) {
        if (keyWritable != writable) {
            keyWritable = writable;
            rebuildViews();
        }
    }

    /**
     * Grows every column to hold at least {@code rows} rows, with one bulk copy per column: to twice the capacity,
     * or by a quarter from {@link #GENTLE_GROWTH_ROWS} on, or to {@code rows} when that is more, rounded up to
     * {@link #ROW_PADDING}.
     */
    public void ensureCapacity(int rows) {
        if (rows <= capacityRows) {
            return;
        }
        long step = capacityRows < GENTLE_GROWTH_ROWS ? capacityRows : capacityRows / 4;
        long wanted = Math.max((long) rows, Math.max(ROW_PADDING, (long) capacityRows + step));
        long padded = (wanted + ROW_PADDING - 1) / ROW_PADDING * ROW_PADDING;
        if (padded > Integer.MAX_VALUE - ROW_PADDING) {
            throw new IllegalStateException("archetype " + id + " cannot grow to rows=" + rows);
        }
        int newCapacity = (int) padded;
        replaceStorage(newCapacity);
        rebuildViews();
    }

    /**
     * Moves the rows into buffers of {@code newCapacity} rows: every new buffer and heap array is allocated first,
     * and only when all of them exist are the rows copied, the old buffers freed and the new ones installed. An
     * allocation that fails frees what was allocated and rethrows, leaving the table's buffers, views and
     * storage version as they were (no view is left on a freed block). The caller rebuilds the views.
     */
    private void replaceStorage(int newCapacity) {
        MemorySegment[] fresh = new MemorySegment[nativeSegments.length];
        Object[][] freshHeap = new Object[heapArrays.length][];
        MemorySegment freshEntities = MemorySegment.NULL;
        try {
            // the rows' bytes are copied over at once (moveRows): only the room past them needs zeros
            freshEntities = memory.allocate(ENTITY.byteSize() * newCapacity, ENTITY.byteSize() * count);
            for (int c = 0; c < fresh.length; c++) {
                long bytes = nativeKinds[c].byteSize();
                fresh[c] = memory.allocate(bytes * newCapacity, bytes * count);
            }
            for (int h = 0; h < freshHeap.length; h++) {
                freshHeap[h] = Growth.copyOf(heapArrays[h], newCapacity);
            }
        } catch (RuntimeException | Error e) {
            freeAll(freshEntities, fresh);
            throw e;
        }
        // nothing below allocates
        entitySegment = moveRows(entitySegment, freshEntities, ENTITY.byteSize());
        for (int c = 0; c < fresh.length; c++) {
            nativeSegments[c] = moveRows(nativeSegments[c], fresh[c], nativeKinds[c].byteSize());
        }
        System.arraycopy(freshHeap, 0, heapArrays, 0, freshHeap.length);
        capacityRows = newCapacity;
    }

    /** Frees the buffers of a preparation that failed part way ({@code NULL} and {@code null} are skipped). */
    private void freeAll(MemorySegment entities, MemorySegment[] columns) {
        if (entities.byteSize() > 0) {
            memory.free(entities);
        }
        for (MemorySegment segment : columns) {
            if (segment != null && segment.byteSize() > 0) {
                memory.free(segment);
            }
        }
    }

    /** Copies the first {@code count} rows of {@code old} into {@code grown}, frees {@code old}, returns grown. */
    private MemorySegment moveRows(MemorySegment old, MemorySegment grown, long elementBytes) {
        if (count > 0) {
            MemorySegment.copy(old, 0, grown, 0, elementBytes * count);
        }
        if (old.byteSize() > 0) {
            memory.free(old);
        }
        return grown;
    }

    /**
     * Counts buffer replacements (growth, exchange, rebuild, release): column views taken at one value are stale
     * once it changes.
     */
    public long storageVersion() {
        return storageVersion;
    }

    private long storageVersion;

    /**
     * After the buffers changed: a new storage version, and new views. Making them allocates, and it comes after
     * the buffers moved, so a failure part way must neither leave a view of a buffer this table gave up (freed, or
     * handed to another table by an exchange) nor stop the caller half way through its change (an exchange's
     * caller still relocates the rows): {@link #makeViews} clears every view before it makes the first, and a
     * failure is left to the first accessor that finds its view missing, which makes them all again and throws if
     * it cannot.
     */
    private void rebuildViews() {
        refreshAddresses(); // first, and it cannot fail: makeViews may
        storageVersion++;
        clock.tick(signature);
        try {
            makeViews();
        } catch (OutOfMemoryError deferred) {
            // the views stay cleared; the next accessor makes them, at a point where a failure changes nothing
        }
    }

    /**
     * With {@code -Djtecs.checkViews=true} (the tests), makes sure the addresses a raw copy is about to use are
     * those of the buffers the table holds, so that every row move of every test checks that each change of a
     * buffer took them again; otherwise nothing.
     */
    private void checkAddresses() {
        if (!dev.jtecs.storage.ViewChecks.ENABLED) {
            return;
        }
        for (int c = 0; c < nativeSegments.length; c++) {
            if (nativeAddresses[c] != nativeSegments[c].address()) {
                throw new IllegalStateException("stale address of column " + nativeLabels[c] + " in " + this);
            }
        }
        if (entityAddress != entitySegment.address()) {
            throw new IllegalStateException("stale address of the entity column in " + this);
        }
    }

    /** Takes the addresses of the buffers as they are (see {@code nativeAddresses}). */
    private void refreshAddresses() {
        for (int c = 0; c < nativeSegments.length; c++) {
            nativeAddresses[c] = nativeSegments[c].address();
        }
        entityAddress = entitySegment.address();
    }

    /** Makes every view of the buffers as they are: clears them all first, so a failure leaves no stale one. */
    private void makeViews() {
        entityView = null; // none of the old views stays: a failure below leaves nulls, never a stale view
        Arrays.fill(nativeViews, null);
        Arrays.fill(heapViews, null);
        AllocationFaults.beforeHeapGrowth(nativeViews.length + heapViews.length + 1); // the views, as one growth
        entityView = new LongColumn(entitySegment, archetype, true, ENTITY_LABEL); // ids change only via the world
        for (int c = 0; c < nativeSegments.length; c++) {
            nativeViews[c] = view(nativeKinds[c], nativeSegments[c], archetype, nativeLabels[c]);
        }
        for (int p = 0; p < components.length; p++) {
            if (heapIndex[p] >= 0) {
                // the key column feeds the world's key index, a payload pair's records name their target: only
                // World.set may change them
                boolean readOnly = components[p] == EntityKey.COMPONENT ? !keyWritable
                        : components[p] instanceof PairComponent;
                Class<?> type = components[p] instanceof PairComponent pair ? pair.payloadType()
                        : components[p].valueType();
                heapViews[heapIndex[p]] = new ObjectColumn<>(heapArrays[heapIndex[p]], type, readOnly, archetype,
                        heapLabels[heapIndex[p]]);
            }
        }
    }

    private static final String ENTITY_LABEL = "entity ids";

    private static Column view(PrimitiveKind kind, MemorySegment segment, Archetype owner, String label) {
        return switch (kind) {
            case BYTE -> new ByteColumn(segment, owner, label);
            case BOOLEAN -> new BooleanColumn(segment, owner, label);
            case SHORT -> new ShortColumn(segment, owner, label);
            case CHAR -> new CharColumn(segment, owner, label);
            case INT -> new IntColumn(segment, owner, label);
            case FLOAT -> new FloatColumn(segment, owner, label);
            case LONG -> new LongColumn(segment, owner, false, label);
            case DOUBLE -> new DoubleColumn(segment, owner, label);
        };
    }

    /** Frees every column; the table is unusable afterwards. */
    public void release() {
        released = true;
        count = 0; // first: should a free below fail, no row is left to reach the buffers freed before it
        capacityRows = 0;
        entityAddress = 0;
        Arrays.fill(nativeAddresses, 0);
        if (entitySegment.byteSize() > 0) {
            memory.free(entitySegment);
        }
        for (MemorySegment segment : nativeSegments) {
            if (segment.byteSize() > 0) {
                memory.free(segment);
            }
        }
        entitySegment = MemorySegment.NULL;
        Arrays.fill(nativeSegments, MemorySegment.NULL);
        Arrays.fill(heapArrays, new Object[0]);
        rebuildViews();
    }

    // ---------------------------------------------------------------- bulk export and import (snapshots)

    /** The number of native columns of the component at {@code position}. */
    public int nativeColumnCount(int position) {
        return nativeCount[position];
    }

    /** The kind of native column {@code field} of the component at {@code position}. */
    public PrimitiveKind nativeKindAt(int position, int field) {
        return nativeKinds[nativeStart[position] + field];
    }

    /** Whether the component at {@code position} has a heap column. */
    public boolean hasHeapColumn(int position) {
        return heapIndex[position] >= 0;
    }

    /** The little-endian layout of a kind as it lies in portable byte streams (snapshots). */
    public static ValueLayout portableLayout(PrimitiveKind kind) {
        return switch (kind) {
            case BYTE, BOOLEAN -> ValueLayout.JAVA_BYTE;
            case SHORT -> ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(java.nio.ByteOrder.LITTLE_ENDIAN);
            case CHAR -> ValueLayout.JAVA_CHAR_UNALIGNED.withOrder(java.nio.ByteOrder.LITTLE_ENDIAN);
            case INT -> ValueLayout.JAVA_INT_UNALIGNED.withOrder(java.nio.ByteOrder.LITTLE_ENDIAN);
            case FLOAT -> ValueLayout.JAVA_FLOAT_UNALIGNED.withOrder(java.nio.ByteOrder.LITTLE_ENDIAN);
            case LONG -> ValueLayout.JAVA_LONG_UNALIGNED.withOrder(java.nio.ByteOrder.LITTLE_ENDIAN);
            case DOUBLE -> ValueLayout.JAVA_DOUBLE_UNALIGNED.withOrder(java.nio.ByteOrder.LITTLE_ENDIAN);
        };
    }

    private static ValueLayout nativeLayout(PrimitiveKind kind) {
        return switch (kind) {
            case BYTE, BOOLEAN -> ValueLayout.JAVA_BYTE;
            case SHORT -> ValueLayout.JAVA_SHORT_UNALIGNED;
            case CHAR -> ValueLayout.JAVA_CHAR_UNALIGNED;
            case INT -> ValueLayout.JAVA_INT_UNALIGNED;
            case FLOAT -> ValueLayout.JAVA_FLOAT_UNALIGNED;
            case LONG -> ValueLayout.JAVA_LONG_UNALIGNED;
            case DOUBLE -> ValueLayout.JAVA_DOUBLE_UNALIGNED;
        };
    }

    /**
     * Copies rows {@code [from, from + n)} of native column {@code field} of the component at {@code position}
     * into {@code dst} at {@code dstOffset}, little-endian: one bulk copy (a plain memory copy on little-endian
     * machines).
     */
    public void exportColumn(int position, int field, int from, int n, MemorySegment dst, long dstOffset) {
        PrimitiveKind kind = nativeKinds[nativeStart[position] + field];
        MemorySegment.copy(nativeSegments[nativeStart[position] + field], nativeLayout(kind),
                (long) from * kind.byteSize(), dst, portableLayout(kind), dstOffset, n);
    }

    /**
     * Copies {@code n} little-endian elements of {@code src} from {@code srcOffset} into rows
     * {@code [from, from + n)} of native column {@code field} of the component at {@code position}: one bulk copy.
     * Marks nothing: the rows are being placed.
     */
    public void importColumn(int position, int field, int from, int n, MemorySegment src, long srcOffset) {
        PrimitiveKind kind = nativeKinds[nativeStart[position] + field];
        MemorySegment.copy(src, portableLayout(kind), srcOffset, nativeSegments[nativeStart[position] + field],
                nativeLayout(kind), (long) from * kind.byteSize(), n);
    }

    /** Fills rows {@code [from, to)} of one native column with one boxed value (a migrated field's default). */
    public void fillColumn(int position, int field, int from, int to, Object boxed) {
        values.fillColumn(nativeStart[position] + field, from, to, boxed);
    }

    /** Copies rows {@code [from, from + n)} of the entity column into {@code dst} at {@code dstOffset}, LE. */
    public void exportEntities(int from, int n, MemorySegment dst, long dstOffset) {
        MemorySegment.copy(entitySegment, ENTITY, (long) from * Long.BYTES, dst,
                portableLayout(PrimitiveKind.LONG), dstOffset, n);
    }

    /** The heap value of the component at {@code position} in {@code row} (a managed value or a string). */
    public Object heapValue(int position, int row) {
        return heapArrays[heapIndex[position]][row];
    }

    /** Stores a heap value of the component at {@code position} in {@code row}; marks nothing. */
    public void writeHeapValue(int position, int row, Object value) {
        heapArrays[heapIndex[position]][row] = value;
    }

    // ---------------------------------------------------------------- values

    /** Reads and writes of this table's values, one row or a row range at a time. */
    public TableValues values() {
        return values;
    }

    /** Writes an input (a constructed value, or a definition's default) into one row. */
    public void writeInput(int position, int row, Input input) {
        values.writeInput(position, row, input);
    }

    /**
     * The spun writer of the component at {@code position} when its record type is plain (generated accessors:
     * writing runs no user code), else null.
     */
    public RecordWriter plainWriter(int position) {
        return values.plainWriter(position);
    }

    /** Whether the component at {@code position} is native with a plain record type and a spun writer. */
    public boolean isPlainRecord(int position) {
        return values.isPlainRecord(position);
    }

    /**
     * Writes a plain record, given as the bits of its fields ({@link RecordWriter#bits}, one long a field), into one
     * row of the native component at {@code position} and marks the column dirty, as a write-through does,
     * returning true; returns false, changing nothing, when the component's record type is not plain or has no spun
     * writer ({@link TableValues#writePlainBits}).
     */
    public boolean writePlainBits(int position, int row, long[] bits) {
        java.util.Objects.checkIndex(row, count);
        if (!values.writePlainBits(position, row, bits)) {
            return false;
        }
        markDirty(position);
        return true;
    }

    /**
     * Writes bits of a plain record ({@link #writePlainBits}) into the row a move has just made, without the
     * write-through's mark: the move marks what it added.
     */
    public void writeMovedBits(int position, int row, long[] bits) {
        java.util.Objects.checkIndex(row, count);
        if (!values.writePlainBits(position, row, bits)) {
            throw new IllegalStateException("the component at position " + position + " of " + this
                    + " has no plain record type");
        }
    }

    /** Writes a value into one row of the component at {@code position}. */
    public void writeValue(int position, int row, Object value) {
        values.writeValue(position, row, value);
    }

    /** Reads one row's value as the component's value type (a fresh record for native components). */
    public Object readValue(int position, int row) {
        return values.readValue(position, row);
    }

    // ---------------------------------------------------------------- dirty tracking

    /** This table's dirty bits, structural flag, counts and row residue. */
    public DirtyState dirty() {
        return dirty;
    }

    /** Records a structural change (shorthand for {@code dirty().markStructural()}). */
    public void markStructural() {
        clock.tick(signature);
        dirty.markStructural();
    }

    /** Records a value write of one column (shorthand for {@code dirty().markDirty(position)}). */
    public void markDirty(int position) {
        dirty.markDirty(position);
    }

    // ---------------------------------------------------------------- row captures

    /** Registers a staged batch's claim on the current rows (see {@link RowCapture}). */
    public void addCapture(RowCapture capture) {
        if (captureCount == captures.length) {
            captures = Growth.copyOf(captures, Math.max(4, captureCount * 2));
        }
        captures[captureCount++] = capture;
    }

    /** Withdraws a claim (its batch ran or was discarded); returns whether it was registered. */
    public boolean removeCapture(RowCapture capture) {
        for (int i = 0; i < captureCount; i++) {
            if (captures[i] == capture) {
                System.arraycopy(captures, i + 1, captures, i, captureCount - i - 1);
                captures[--captureCount] = null;
                return true;
            }
        }
        return false;
    }

    /** Whether a staged batch despawn has claimed every current row. */
    public boolean hasPendingDespawn() {
        for (int i = 0; i < captureCount; i++) {
            if (captures[i].dooms()) {
                return true;
            }
        }
        return false;
    }

    /** Hands every pending claim its copy of the rows now (before a caller changes them in bulk). */
    public void settleCaptures() {
        preStructural();
    }

    /** Hands pending claims their copy of the rows before the rows change for the first time. */
    private void preStructural() {
        // last first, each dropped once it holds its rows: one that fails (memory) stays registered for the next
        // structural change, and materializing is idempotent; nothing here allocates but the captures themselves
        while (captureCount > 0) {
            captures[captureCount - 1].materialize(this);
            captures[--captureCount] = null;
        }
    }

    // ---------------------------------------------------------------- entity observers

    public void addObserver(EntityObserver observer) {
        EntityObserver[] next = Growth.copyOf(observers, observers.length + 1);
        next[observers.length] = java.util.Objects.requireNonNull(observer, "observer");
        observers = next;
    }

    /** Removes one registration of an observer (by identity); returns whether it was registered. */
    public boolean removeObserver(EntityObserver observer) {
        for (int i = 0; i < observers.length; i++) {
            if (observers[i] == observer) {
                EntityObserver[] next = new EntityObserver[observers.length - 1];
                System.arraycopy(observers, 0, next, 0, i);
                System.arraycopy(observers, i + 1, next, i, observers.length - i - 1);
                observers = next;
                return true;
            }
        }
        return false;
    }

    /** The current registrations; callers iterate this snapshot, so changes during delivery apply later. */
    public EntityObserver[] observers() {
        return observers;
    }

    // ---------------------------------------------------------------- relationship edges

    private Map<BaseRelationship<?>, long[]> edgeTargets;
    private int hasPairs = -1;

    /** Whether the signature holds any relationship pair. */
    public boolean hasPairs() {
        if (hasPairs < 0) {
            hasPairs = components.length > 0 && components[components.length - 1] instanceof PairComponent ? 1 : 0;
        }
        return hasPairs == 1;
    }

    /**
     * The targets of this table's edges of a dense relationship, ascending: every row has the same, as each edge
     * is a pair component of the signature. Empty when the table has none (and for a sparse relationship); the
     * array is shared, do not modify it.
     */
    public long[] targetsOf(BaseRelationship<?> relationship) {
        if (relationship.isSparse() || !has(relationship.id())) {
            return NO_TARGETS;
        }
        if (edgeTargets == null) {
            edgeTargets = new IdentityHashMap<>();
        }
        long[] targets = edgeTargets.get(relationship);
        if (targets == null) {
            int n = 0;
            long[] found = new long[components.length];
            for (Component<?> component : components) {
                if (component instanceof PairComponent pair && pair.relationship() == relationship) {
                    found[n++] = pair.target();
                }
            }
            targets = Growth.copyOf(found, n);
            Arrays.sort(targets);
            edgeTargets.put(relationship, targets);
        }
        return targets;
    }

    private static final long[] NO_TARGETS = new long[0];

    SparseEdges sparse; // the registry's store of sparse edges (null for a table made outside a registry)

    /** Receives one edge: its target and its payload record ({@code null} for a target-only relationship). */
    @FunctionalInterface
    public interface EdgeVisitor {
        void edge(long target, Object payload);
    }

    /** Visits the edges of a relationship held by the entity at {@code row}, in ascending target order. */
    public void forEachEdge(BaseRelationship<?> relationship, int row, EdgeVisitor visitor) {
        if (relationship.isSparse()) {
            if (sparse != null) {
                sparse.forEach(relationship, entityAt(row), visitor);
            }
            return;
        }
        for (long target : targetsOf(relationship)) {
            visitor.edge(target, relationship.payloadType() == null ? null : pairValue(relationship, target, row));
        }
    }

    /**
     * What reads report for the first edge (ascending target) of a relationship held by the entity at
     * {@code row}, or {@code null} when it holds none.
     */
    public Object firstEdgeValue(BaseRelationship<?> relationship, int row) {
        long target = firstTarget(relationship, row);
        return target == 0 ? null : relationship.edgeValue(target, edgePayload(relationship, target, row));
    }

    /**
     * The payload of the edge of a relationship to {@code target} held by the entity at {@code row}: {@code null}
     * for a target-only relationship or when there is no such edge.
     */
    public Object edgePayload(BaseRelationship<?> relationship, long target, int row) {
        if (relationship.payloadType() == null) {
            return null;
        }
        if (relationship.isSparse()) {
            return sparse == null ? null : sparse.payload(relationship, entityAt(row), target);
        }
        return pairValue(relationship, target, row);
    }

    /** The stored record of a dense payload edge, or {@code null} when the signature lacks the pair. */
    private Object pairValue(BaseRelationship<?> relationship, long target, int row) {
        int position = pairPosition(relationship, target);
        return position < 0 ? null : readValue(position, row);
    }

    /**
     * The position of a field handle's component in this signature (for a {@link TargetSelector}, of its pair),
     * or a negative number when this table lacks it.
     */
    public int fieldPosition(FieldHandle field) {
        return field.component() instanceof TargetSelector<?> selector
                ? pairPosition(selector.relationship(), selector.target()) : position(field.component().id());
    }

    /** The position of the pair (relationship, target) in this signature, or -1 (pairs sort last). */
    public int pairPosition(BaseRelationship<?> relationship, long target) {
        for (int p = components.length - 1; p >= 0 && components[p] instanceof PairComponent pair; p--) {
            if (pair.relationship() == relationship && pair.target() == target) {
                return p;
            }
        }
        return -1;
    }

    /** The first target (ascending) of the entity at {@code row}'s edges of a relationship, or 0 when none. */
    public long firstTarget(BaseRelationship<?> relationship, int row) {
        if (!relationship.isSparse()) {
            long[] targets = targetsOf(relationship);
            return targets.length == 0 ? 0 : targets[0];
        }
        return sparse == null ? 0 : sparse.firstTarget(relationship, entityAt(row));
    }

    // ---------------------------------------------------------------- archetype graph

    /** The cached table reached by adding a component, or {@code null}. */
    public Table addEdge(int componentId) {
        if (componentId == lastAddId) {
            return lastAdd; // a run of moves takes one edge again and again
        }
        Table target = addEdges.get(componentId);
        if (target != null) {
            lastAddId = componentId;
            lastAdd = target;
        }
        return target;
    }

    /** The cached table reached by removing a component, or {@code null}. */
    public Table removeEdge(int componentId) {
        if (componentId == lastRemoveId) {
            return lastRemove;
        }
        Table target = removeEdges.get(componentId);
        if (target != null) {
            lastRemoveId = componentId;
            lastRemove = target;
        }
        return target;
    }

    public void cacheAddEdge(int componentId, Table target) {
        addEdges.put(componentId, target);
        if (componentId == lastAddId) {
            lastAdd = target;
        }
    }

    public void cacheRemoveEdge(int componentId, Table target) {
        removeEdges.put(componentId, target);
        if (componentId == lastRemoveId) {
            lastRemove = target;
        }
    }

    /** Adds the tables this one has cached edges to, either way (a pruning detaches them all). */
    void addEdgeNeighbours(java.util.Set<Table> into) {
        addEdges.forEachValue(into::add);
        removeEdges.forEachValue(into::add);
    }

    /** This table's edge maps without the edges to {@code pruned}, built apart: {add, remove}. */
    IntTableMap[] edgesWithout(java.util.Set<Table> pruned) {
        return new IntTableMap[] {addEdges.without(pruned), removeEdges.without(pruned)};
    }

    /** Installs maps {@link #edgesWithout} built: allocates nothing. */
    void takeEdges(IntTableMap[] rebuilt) {
        addEdges.take(rebuilt[0]);
        removeEdges.take(rebuilt[1]);
        lastAddId = NO_EDGE; // the edge taken last may lead to a table pruned now
        lastAdd = null;
        lastRemoveId = NO_EDGE;
        lastRemove = null;
    }

    /** Drops this table's own move plans (it is being pruned): allocates nothing. */
    void forgetOwnPlans() {
        movePlans.clear();
        lastPlan = null;
    }

    /** The tables among {@code pruned} that this table keeps a move plan towards (found apart, before they go). */
    Table[] plansTo(java.util.Set<Table> pruned) {
        if (movePlans.isEmpty()) {
            return NO_TABLES;
        }
        java.util.List<Table> found = new java.util.ArrayList<>();
        for (Table destination : movePlans.keySet()) {
            if (pruned.contains(destination)) {
                found.add(destination);
            }
        }
        return found.isEmpty() ? NO_TABLES : found.toArray(NO_TABLES);
    }

    /** Drops the move plans towards {@code destinations} ({@link #plansTo}'s answer): allocates nothing. */
    void forgetPlansTo(Table[] destinations, java.util.Set<Table> pruned) {
        for (Table destination : destinations) {
            movePlans.remove(destination);
        }
        if (lastPlan != null && pruned.contains(lastPlan.destination)) {
            lastPlan = null;
        }
    }

    private static final Table[] NO_TABLES = new Table[0];

    /** Whether the registry pruned this table (compaction): nothing may place rows in it any more. */
    public boolean isPruned() {
        return pruned;
    }

    /**
     * Whether the table let its storage go for good: its world closed, or compaction pruned it (once its
     * observers had heard it). The archetype then refuses every call that reads or changes rows or marks.
     */
    public boolean isReleased() {
        return released;
    }

    /** The error for a call on a released table: which archetype, and why it has no storage. */
    public IllegalStateException releasedError() {
        return new IllegalStateException(pruned
                ? this + " was pruned by compact() (no entity had it any more) and holds nothing; look an "
                        + "entity's archetype up again with World.archetypeOf"
                : this + " belongs to a closed world; its storage is gone");
    }

    private boolean released;

    private boolean pruned;

    /**
     * Frees this table's buffers, then tells its observers it is gone (and drops them): an observer that throws
     * neither leaks the buffers nor keeps the others from hearing it; the first exception is rethrown after all
     * of them heard it.
     */
    void destroyed() {
        pruned = true;
        EntityObserver[] heard = observers;
        observers = NO_OBSERVERS;
        release();
        Throwable failure = null;
        for (EntityObserver observer : heard) {
            try {
                observer.onArchetypeDestroyed(archetype);
            } catch (RuntimeException | Error e) {
                failure = Failures.fold(failure, e);
            }
        }
        Failures.throwIfAny(failure);
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("Archetype#").append(id).append('[');
        for (int p = 0; p < components.length; p++) {
            sb.append(p == 0 ? "" : ", ").append(components[p].name());
        }
        return sb.append("] count=").append(count).toString();
    }
}
