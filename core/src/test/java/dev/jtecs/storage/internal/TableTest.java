package dev.jtecs.storage.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.component.Component;
import dev.jtecs.component.Components;
import dev.jtecs.component.ManagedComponent;
import dev.jtecs.component.NativeComponent;
import dev.jtecs.component.ScalarComponent;
import dev.jtecs.component.TagComponent;
import dev.jtecs.entity.internal.AllocationFaults;
import dev.jtecs.storage.FloatColumn;
import dev.jtecs.storage.ObjectColumn;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class TableTest {
    record Vec(float x, float y) {}

    record Blob(String s) {}

    record Kinds(byte b, boolean z, short s, char c, int i, float f, long l, double d) {}

    static final NativeComponent<Vec> VEC = Components.registerNative(Vec.class);
    static final ManagedComponent<Blob> BLOB = Components.registerManaged(Blob.class);
    static final ScalarComponent.OfLong COUNT = Components.scalar("test.table.Count", 3L);
    static final TagComponent FLAG = Components.tag("test.table.Flag");
    static final NativeComponent<Kinds> KINDS = Components.registerNative(Kinds.class);

    private final NativeMemory memory = new NativeMemory();

    @AfterEach
    void tearDown() {
        memory.close();
    }

    private Table table(Component<?>... components) {
        Component<?>[] sorted = components.clone();
        Arrays.sort(sorted, Comparator.comparingInt(Component::id));
        return new Table(1, sorted, memory);
    }

    @Test
    void startsEmptyWithoutNativeMemory() {
        Table table = table(VEC, BLOB, COUNT, FLAG);
        assertEquals(0, table.count());
        assertEquals(0, table.capacityRows());
        assertEquals(0, memory.reservedBytes());
        assertEquals(0, table.nativeBytesReserved());
        assertEquals(4, table.componentCount());
        assertTrue(table.position(FLAG.id()) >= 0);
        assertTrue(table.position(Integer.MAX_VALUE) < 0);
    }

    @Test
    void rejectsUnsortedSignatures() {
        Component<?>[] unsorted = {COUNT, VEC};
        if (COUNT.id() < VEC.id()) {
            unsorted = new Component<?>[] {VEC, COUNT};
        }
        Component<?>[] bad = unsorted;
        assertThrows(IllegalArgumentException.class, () -> new Table(0, bad, memory));
        assertThrows(IllegalArgumentException.class, () -> new Table(0, new Component<?>[] {VEC, VEC}, memory));
    }

    @Test
    void appendGrowsGeometricallyInWholePaddedBlocks() {
        Table table = table(VEC, COUNT);
        int vec = table.position(VEC.id());
        table.appendRow(11);
        assertEquals(Table.ROW_PADDING, table.capacityRows());
        for (int i = 1; i < 1000; i++) {
            int row = table.appendRow(11 + i);
            table.writeValue(vec, row, new Vec(i, -i));
        }
        assertEquals(1000, table.count());
        assertEquals(1024, table.capacityRows());
        assertEquals(0, table.capacityRows() % Table.ROW_PADDING);
        assertEquals(new Vec(999, -999), table.readValue(vec, 999));
        assertEquals(11 + 500, table.entityAt(500));
        long bytes = 1024L * (Long.BYTES + 2 * Float.BYTES + Long.BYTES);
        assertEquals(bytes, table.nativeBytesReserved());
        assertEquals(bytes, memory.reservedBytes(), "old buffers are freed on growth");
        MemorySegment segment = ((FloatColumn) table.nativeColumn(vec, 0)).segment();
        assertEquals(0, segment.address() % 64);
    }

    @Test
    void largeTablesGrowByAQuarterAndKeepTheirRows() {
        Table table = table(VEC, COUNT);
        int vec = table.position(VEC.id());
        int rows = Table.GENTLE_GROWTH_ROWS;
        for (int i = 0; i < rows; i++) {
            int row = table.appendRow(1 + i);
            table.writeValue(vec, row, new Vec(i, -i));
        }
        assertEquals(rows, table.capacityRows(), "doubling up to the threshold");
        table.appendRow(1 + rows);
        assertEquals(rows + rows / 4, table.capacityRows(), "past it, a quarter more");
        table.ensureCapacity(rows + rows / 4 + 1);
        assertEquals(102_400, table.capacityRows(), "81,920 and a quarter");
        table.ensureCapacity(300_001);
        assertEquals(300_032, table.capacityRows(), "what was asked, when more, in whole padded blocks");
        assertEquals(new Vec(rows - 1, -(rows - 1)), table.readValue(vec, rows - 1));
        assertEquals(1 + rows, table.entityAt(rows));
        assertEquals(300_032L * (Long.BYTES + 2 * Float.BYTES + Long.BYTES), memory.reservedBytes(),
                "old buffers are freed on growth");
    }

    @Test
    void growthOverReusedMemoryKeepsTheRowsAndLeavesZerosPastThem() {
        Table table = table(VEC, COUNT);
        int vec = table.position(VEC.id());
        for (int i = 0; i < Table.ROW_PADDING; i++) {
            table.writeValue(vec, table.appendRow(1 + i), new Vec(i, -i));
        }
        // the buffers 128 rows take (the ids and counts 1 KiB each, the two float columns 512 B each), dirtied and
        // freed: the growth below takes them again, whose copy overwrites only the rows' bytes
        MemorySegment[] dirty = {memory.allocate(1024), memory.allocate(1024), memory.allocate(512),
            memory.allocate(512)};
        for (MemorySegment buffer : dirty) {
            buffer.fill((byte) 0x5A);
        }
        for (MemorySegment buffer : dirty) {
            memory.free(buffer);
        }
        long allocations = memory.totalAllocations();
        long footprint = memory.footprintBytes();
        table.appendRow(1 + Table.ROW_PADDING);
        assertEquals(2 * Table.ROW_PADDING, table.capacityRows());
        assertEquals(allocations + 4, memory.totalAllocations());
        assertEquals(footprint, memory.footprintBytes(), "the freed blocks were reused, no new slab carved");
        for (int i = 0; i < Table.ROW_PADDING; i++) {
            assertEquals(new Vec(i, -i), table.readValue(vec, i));
            assertEquals(1 + i, table.entityAt(i));
        }
        assertEquals(1 + Table.ROW_PADDING, table.entityAt(Table.ROW_PADDING));
        MemorySegment ids = table.entities().segment();
        for (int row = Table.ROW_PADDING + 1; row < table.capacityRows(); row++) {
            assertEquals(0L, ids.getAtIndex(java.lang.foreign.ValueLayout.JAVA_LONG, row), "id past the rows");
            for (int field = 0; field < 2; field++) {
                MemorySegment column = ((FloatColumn) table.nativeColumn(vec, field)).segment();
                assertEquals(0, column.getAtIndex(java.lang.foreign.ValueLayout.JAVA_INT, row), "Vec past the rows");
            }
            MemorySegment counts = ((dev.jtecs.storage.LongColumn) table.nativeColumn(table.position(COUNT.id()), 0))
                    .segment();
            assertEquals(0L, counts.getAtIndex(java.lang.foreign.ValueLayout.JAVA_LONG, row), "count past the rows");
        }
    }

    /**
     * The stores of one field of one row ({@code World.write}'s) write each kind of field in its row and no other: the
     * float's and double's bits as they are (a NaN's payload kept), a boolean as 1. A row past the count is refused,
     * and a field past the component's or of another size fails the table's assertion (a field handle cannot name
     * one: it is checked when it is made); nothing changes.
     */
    @Test
    void aFieldStoreWritesEachKindInItsRowAndRefusesWhatIsNoSuchColumn() {
        Table table = table(KINDS, COUNT);
        int p = table.position(KINDS.id());
        Kinds zero = new Kinds((byte) 0, false, (short) 0, (char) 0, 0, 0f, 0L, 0d);
        for (int row = 0; row < 3; row++) {
            table.appendRow(100 + row);
            table.writeValue(p, row, zero);
        }
        float payload = Float.intBitsToFloat(0x7fc0_0001);
        double wide = Double.longBitsToDouble(0x7ff8_0000_0000_0003L);
        table.writeByte(p, KINDS.byteField("b").field(), 1, (byte) -7);
        table.writeBoolean(p, KINDS.booleanField("z").field(), 1, true);
        table.writeShort(p, KINDS.shortField("s").field(), 1, (short) 300);
        table.writeChar(p, KINDS.charField("c").field(), 1, 'q');
        table.writeInt(p, KINDS.intField("i").field(), 1, -40);
        table.writeFloat(p, KINDS.floatField("f").field(), 1, payload);
        table.writeLong(p, KINDS.longField("l").field(), 1, Long.MIN_VALUE);
        table.writeDouble(p, KINDS.doubleField("d").field(), 1, wide);
        assertEquals(new Kinds((byte) -7, true, (short) 300, 'q', -40, payload, Long.MIN_VALUE, wide),
                table.readValue(p, 1));
        assertEquals(0x7fc0_0001, Float.floatToRawIntBits(
                ((dev.jtecs.storage.FloatColumn) table.nativeColumn(p, KINDS.floatField("f").field())).get(1)));
        assertEquals(0x7ff8_0000_0000_0003L, Double.doubleToRawLongBits(
                ((dev.jtecs.storage.DoubleColumn) table.nativeColumn(p, KINDS.doubleField("d").field())).get(1)));
        assertEquals(1, table.nativeColumn(p, KINDS.booleanField("z").field()).segment()
                .get(java.lang.foreign.ValueLayout.JAVA_BYTE, 1), "true is stored as 1");
        assertEquals(zero, table.readValue(p, 0));
        assertEquals(zero, table.readValue(p, 2));

        int i = KINDS.intField("i").field();
        assertThrows(IndexOutOfBoundsException.class, () -> table.writeInt(p, i, 3, 1), "a row past the count");
        assertThrows(IndexOutOfBoundsException.class, () -> table.writeInt(p, i, -1, 1));
        // a field handle is checked against its component when it is made; the table asserts it again
        assertThrows(AssertionError.class, () -> table.writeInt(p, KINDS.byteField("b").field(), 0, 1),
                "a field of another size");
        assertThrows(AssertionError.class, () -> table.writeLong(p, 8, 0, 1L), "a field past the component's");
        assertThrows(AssertionError.class, () -> table.writeLong(p, -1, 0, 1L));
        assertEquals(zero, table.readValue(p, 0));
        assertEquals(3, table.count());
    }

    @Test
    void swapRemoveMovesLastRowIntoHole() {
        Table table = table(VEC, BLOB);
        int vec = table.position(VEC.id());
        int blob = table.position(BLOB.id());
        for (int i = 0; i < 3; i++) {
            table.appendRow(100 + i);
            table.writeValue(vec, i, new Vec(i, i));
            table.writeValue(blob, i, new Blob("b" + i));
        }
        assertEquals(102, table.swapRemove(0));
        assertEquals(2, table.count());
        assertEquals(102, table.entityAt(0));
        assertEquals(new Vec(2, 2), table.readValue(vec, 0));
        assertEquals(new Blob("b2"), table.readValue(blob, 0));
        assertNull(table.readValue(blob, 2), "vacated heap slot is cleared (read past the count: not through a view)");
        assertEquals(0, table.swapRemove(1), "removing the last row moves nothing");
        assertEquals(1, table.count());
        assertThrows(IndexOutOfBoundsException.class, () -> table.swapRemove(1));
    }

    @Test
    void copyRowIntoFillsAnAppendedRowAndSwapRemoveUnmarkedLeavesTheStructuralMarkToTheCaller() {
        Table source = tableWithId(1, VEC, BLOB, COUNT);
        Table destination = tableWithId(2, VEC, BLOB, FLAG); // shares VEC and BLOB
        fill(source, 3);
        int at = destination.appendRows(2);
        source.copyRowInto(2, destination, at);
        source.copyRowInto(0, destination, at + 1);
        assertEquals(List.of(102L, 100L), List.of(destination.entityAt(0), destination.entityAt(1)));
        assertEquals(new Vec(2, -2), destination.readValue(destination.position(VEC.id()), 0));
        assertEquals(new Blob("b0"), destination.readValue(destination.position(BLOB.id()), 1));
        assertEquals(3, source.count(), "the rows stay in the source");
        assertThrows(IndexOutOfBoundsException.class, () -> source.copyRowInto(3, destination, 0), "past the count");
        assertThrows(IndexOutOfBoundsException.class, () -> source.copyRowInto(0, destination, 2),
                "a destination row not appended");

        long changes = source.dirty().structuralCount();
        assertEquals(102, source.swapRemoveUnmarked(0));
        assertEquals(changes, source.dirty().structuralCount(), "no structural mark: the caller makes one");
        assertEquals(2, source.count());
        assertEquals(new Vec(2, -2), source.readValue(source.position(VEC.id()), 0));
        assertEquals(2L, source.readValue(source.position(COUNT.id()), 0));
        assertEquals(0, source.swapRemove(1));
        assertEquals(changes + 1, source.dirty().structuralCount(), "swapRemove marks");
    }

    @Test
    void deferredSwapRemovesEndAsSwapRemovesOnceTheirCopiesAreApplied() {
        Table direct = table(VEC, BLOB, COUNT);
        Table deferred = table(VEC, BLOB, COUNT);
        for (Table table : new Table[] {direct, deferred}) {
            for (int i = 0; i < 40; i++) {
                table.appendRow(100 + i);
                table.writeValue(table.position(VEC.id()), i, new Vec(i, -i));
                table.writeValue(table.position(BLOB.id()), i, new Blob("b" + i));
                table.writeValue(table.position(COUNT.id()), i, 1000L + i);
            }
        }
        long[] doomed = {103, 139, 110, 137, 100, 120, 133, 138}; // tail entities among them: moved, then removed
        int[] from = new int[doomed.length];
        int[] to = new int[doomed.length];
        int moves = 0;
        deferred.prepareRowRemovals(doomed.length);
        for (long entity : doomed) {
            int row = rowOf(deferred, entity); // the entity column moves at once: both tables agree on it
            assertEquals(rowOf(direct, entity), row);
            int last = deferred.count() - 1;
            long moved = deferred.swapRemoveDeferringValues(row);
            assertEquals(direct.swapRemove(row), moved, "the same entity fills the hole");
            assertEquals(direct.count(), deferred.count());
            if (moved != 0) {
                from[moves] = last;
                to[moves++] = row;
            }
        }
        deferred.copyNativeRows(from, to, moves);
        for (int row = 0; row < direct.count(); row++) {
            assertEquals(direct.entityAt(row), deferred.entityAt(row));
            for (Component<?> c : new Component<?>[] {VEC, BLOB, COUNT}) {
                assertEquals(direct.readValue(direct.position(c.id()), row),
                        deferred.readValue(deferred.position(c.id()), row), c + " row " + row);
            }
        }
        assertNull(deferred.readValue(deferred.position(BLOB.id()), direct.count()), "vacated heap slot cleared");
        assertThrows(IndexOutOfBoundsException.class, () -> deferred.swapRemoveDeferringValues(deferred.count()));
        assertThrows(IndexOutOfBoundsException.class, () -> deferred.copyNativeRows(new int[1], new int[2], 2));
    }

    private static int rowOf(Table table, long entity) {
        for (int row = 0; row < table.count(); row++) {
            if (table.entityAt(row) == entity) {
                return row;
            }
        }
        throw new AssertionError(entity + " has no row");
    }

    @Test
    void moveRowCopiesSharedColumnsAndReportsMissing() {
        Table from = table(VEC, BLOB);
        Table to = new Table(2, sortedOf(VEC, COUNT, FLAG), memory);
        from.appendRow(5);
        from.writeValue(from.position(VEC.id()), 0, new Vec(3, 4));
        from.writeValue(from.position(BLOB.id()), 0, new Blob("x"));
        int row = from.moveRowTo(0, to);
        assertEquals(0, row);
        assertEquals(5, to.entityAt(0));
        assertEquals(new Vec(3, 4), to.readValue(to.position(VEC.id()), 0));
        int[] missing = from.missingPositionsFor(to);
        assertEquals(2, missing.length);
        assertSame(missing, from.missingPositionsFor(to), "move plans are cached");
        assertEquals(1, from.count(), "the source row is left for the caller to swap-remove");
    }

    @Test
    void singleRowCopiesReadTheBuffersTheTableHoldsAfterEachChangeOfThem() {
        // each change of a table's buffers frees the old ones, and the buffers allocated right after take that
        // memory and fill it with a pattern: a copy that went by an old buffer would find the pattern
        Table source = table(VEC, COUNT);
        Table destination = table(VEC, COUNT, FLAG);
        int vec = source.position(VEC.id());
        int rows = Table.ROW_PADDING + 1; // one past the first capacity: the table grows once
        for (int i = 0; i < rows; i++) {
            source.writeValue(vec, source.appendRow(100 + i), new Vec(i, -i));
        }
        dirtyFreed(512, 512, 256, 256); // the 64-row buffers: ids, counts and the two float columns

        int moved = source.moveRowTo(0, destination);
        assertEquals(new Vec(0, 0), destination.readValue(destination.position(VEC.id()), moved));
        assertEquals(100, destination.entityAt(moved));
        assertEquals(100 + rows - 1, source.swapRemove(0), "the last row fills the hole");
        assertEquals(new Vec(rows - 1, -(rows - 1)), source.readValue(vec, 0));

        while (source.count() > 3) {
            source.swapRemove(source.count() - 1);
        }
        assertTrue(source.rebuild(), "shrunk to one padded block");
        dirtyFreed(1024, 1024, 512, 512); // the 128-row buffers
        assertEquals(100 + 2, source.swapRemove(0));
        assertEquals(new Vec(2, -2), source.readValue(vec, 0));
        assertEquals(100 + 2, source.entityAt(0));

        Table taker = table(VEC, COUNT);
        source.exchangeInto(taker); // the taker holds the buffers now, the source none
        assertEquals(2, taker.count());
        assertEquals(0, source.capacityRows());
        assertThrows(IndexOutOfBoundsException.class, () -> source.entityAt(0), "no storage, no row");
        assertEquals(100 + 1, taker.swapRemove(0));
        assertEquals(new Vec(1, -1), taker.readValue(vec, 0));
        assertEquals(new Vec(1, -1), destination.readValue(destination.position(VEC.id()),
                taker.moveRowTo(0, destination)));
        assertEquals(100 + 1, destination.entityAt(1));

        taker.release();
        assertThrows(IndexOutOfBoundsException.class, () -> taker.entityAt(0), "a released table reaches nothing");
        assertThrows(IndexOutOfBoundsException.class, () -> destination.entityAt(destination.capacityRows()),
                "a row past the capacity");
    }

    /** Allocates buffers of these sizes, taking the blocks freed last, and fills them with a pattern. */
    private void dirtyFreed(long... sizes) {
        for (long size : sizes) {
            memory.allocate(size).fill((byte) 0x5A);
        }
    }

    @Test
    void releaseFreesAllColumns() {
        Table table = table(VEC);
        table.appendRow(1);
        table.release();
        assertEquals(0, memory.reservedBytes());
        assertEquals(0, table.count());
    }

    @Test
    void graphEdgesAreCached() {
        Table a = table(VEC);
        Table b = table(VEC, COUNT);
        assertNull(a.addEdge(COUNT.id()));
        a.cacheAddEdge(COUNT.id(), b);
        b.cacheRemoveEdge(COUNT.id(), a);
        assertSame(b, a.addEdge(COUNT.id()));
        assertSame(a, b.removeEdge(COUNT.id()));
        assertTrue(a.toString().contains(VEC.name()));
        Table other = table(VEC, COUNT, FLAG);
        a.cacheAddEdge(COUNT.id(), other); // the edge taken last, cached anew: the new target wins
        b.cacheRemoveEdge(COUNT.id(), other);
        assertSame(other, a.addEdge(COUNT.id()));
        assertSame(other, b.removeEdge(COUNT.id()));
        assertNull(a.addEdge(FLAG.id()), "another component's edge is not the one taken last");
        assertNull(b.removeEdge(FLAG.id()));
    }

    static Component<?>[] sortedOf(Component<?>... components) {
        Component<?>[] sorted = components.clone();
        Arrays.sort(sorted, Comparator.comparingInt(Component::id));
        return sorted;
    }

    // ---------------------------------------------------------------- bulk paths

    private Table tableWithId(int id, Component<?>... components) {
        Component<?>[] sorted = components.clone();
        Arrays.sort(sorted, Comparator.comparingInt(Component::id));
        return new Table(id, sorted, memory);
    }

    /** Fills rows with consecutive ids from 100 and x = row, y = -row, blob "b"+row, count = row. */
    private static void fill(Table table, int n) {
        int from = table.appendRows(n);
        table.writeConsecutiveEntities(from, n, 100);
        for (int row = from; row < from + n; row++) {
            table.writeValue(table.position(VEC.id()), row, new Vec(row, -row));
            if (table.has(BLOB.id())) {
                table.writeValue(table.position(BLOB.id()), row, new Blob("b" + row));
            }
            if (table.has(COUNT.id())) {
                table.writeValue(table.position(COUNT.id()), row, (long) row);
            }
        }
    }

    @Test
    void appendRowsGrowsOnceAndWritesConsecutiveOrExplicitIds() {
        Table table = table(VEC);
        assertEquals(0, table.appendRows(5000));
        assertEquals(5000, table.count());
        assertEquals(5000, table.highWater());
        table.writeConsecutiveEntities(0, 5000, 7);
        assertEquals(7, table.entityAt(0));
        assertEquals(7 + 4999, table.entityAt(4999));
        table.writeEntities(10, new long[] {1, 2, 3}, 1, 2);
        assertEquals(2, table.entityAt(10));
        assertEquals(3, table.entityAt(11));
        long[] out = new long[3];
        table.readEntities(9, 3, out, 0);
        assertEquals(16, out[0]);
        assertEquals(2, out[1]);
        assertTrue(table.dirty().isStructurallyDirty());
        assertEquals(0, table.dirty().structuralAdded());
    }

    /** A range placed for single spawns counts each row as the structural change its own append would be. */
    @Test
    void appendRowsAsSinglesCountsEachRow() {
        Table table = table(VEC);
        table.appendRow(1);
        assertEquals(1, table.dirty().structuralCount());
        assertEquals(1, table.appendRowsAsSingles(3));
        assertEquals(4, table.count());
        assertEquals(4, table.dirty().structuralCount(), "as four appendRow calls");
        assertEquals(4, table.appendRowsAsSingles(1));
        assertEquals(5, table.dirty().structuralCount());
    }

    /** A plain record type's spun writer is the table's to hand out; a managed component has none. */
    @Test
    void aPlainRecordsWriterStoresItsFields() {
        Table table = table(VEC, BLOB);
        RecordWriter writer = table.plainWriter(table.position(VEC.id()));
        assertEquals(null, table.plainWriter(table.position(BLOB.id())));
        int[][] arrays = {new int[2], new int[2]};
        writer.stage(new Vec(1.5f, -2f), arrays, 1);
        assertEquals(Float.floatToRawIntBits(1.5f), arrays[0][1]);
        assertEquals(Float.floatToRawIntBits(-2f), arrays[1][1]);
    }

    @Test
    void exchangeIntoAnEmptyTableHandsOverBuffersAndStores() {
        Table source = tableWithId(1, VEC, BLOB);
        Table destination = tableWithId(2, VEC, BLOB, COUNT, FLAG);
        fill(destination, 3);
        destination.truncate(0); // empty, but with storage of its own
        int destinationBuffers = memory.liveBuffers();
        fill(source, 100);
        int allBuffers = memory.liveBuffers();
        MemorySegment xBuffer = ((FloatColumn) source.nativeColumn(source.position(VEC.id()), 0)).segment();
        int[] missing = source.exchangeInto(destination);
        assertEquals(2, missing.length, "COUNT and FLAG are new to the rows");
        assertEquals(100, destination.count());
        assertEquals(0, source.count());
        assertEquals(0, source.capacityRows(), "the source keeps no storage");
        assertEquals(0, source.nativeBytesReserved());
        assertEquals(allBuffers - destinationBuffers + 1, memory.liveBuffers(),
                "the destination's own buffers are freed; COUNT's column, new to the rows, is the one added");
        assertEquals(xBuffer.address(),
                ((FloatColumn) destination.nativeColumn(destination.position(VEC.id()), 0)).segment().address());
        assertEquals(2, source.store());
        assertEquals(1, destination.store());
        for (int row = 0; row < 100; row++) {
            assertEquals(new Vec(row, -row), destination.readValue(destination.position(VEC.id()), row));
            assertEquals(new Blob("b" + row), destination.readValue(destination.position(BLOB.id()), row));
            assertEquals(100 + row, destination.entityAt(row));
        }
        assertTrue(destination.capacityRows() >= 100);
        assertTrue(destination.dirty().isStructurallyDirty());
        assertTrue(source.dirty().isStructurallyDirty());
        assertEquals(0, destination.dirty().structuralAdded(), "every row is new to the destination");
        fill(source, 2);
        assertEquals(2, source.count(), "the emptied source grows again on demand");
        assertThrows(IllegalStateException.class, () -> destination.exchangeInto(source),
                "only into an empty table");
    }

    @Test
    void anExchangeBetweenTablesOfTheSameColumnsLeavesTheDestinationsBuffersToTheSource() {
        Table source = tableWithId(1, VEC, BLOB, COUNT);
        Table destination = tableWithId(2, VEC, BLOB, COUNT, FLAG); // a tag more: the same columns
        fill(destination, 300);
        destination.truncate(0); // empty, with capacity of its own (what a commit's reservation leaves)
        int kept = destination.capacityRows();
        MemorySegment keptX = ((FloatColumn) destination.nativeColumn(destination.position(VEC.id()), 0)).segment();
        fill(source, 100);
        long reserved = memory.reservedBytes();
        assertEquals(1, source.exchangeInto(destination).length, "only the tag is new to the rows");
        assertEquals(reserved, memory.reservedBytes(), "nothing freed, nothing allocated");
        assertEquals(kept, source.capacityRows(), "the source keeps the destination's old capacity");
        assertEquals(keptX.address(), ((FloatColumn) source.nativeColumn(source.position(VEC.id()), 0)).segment()
                .address());
        assertEquals(0, source.count());
        for (int row = 0; row < 100; row++) {
            assertEquals(new Vec(row, -row), destination.readValue(destination.position(VEC.id()), row));
            assertEquals(new Blob("b" + row), destination.readValue(destination.position(BLOB.id()), row));
            assertEquals((long) row, destination.readValue(destination.position(COUNT.id()), row));
            assertEquals(100 + row, destination.entityAt(row));
        }
        // and back: the source's kept buffers take the rows without an allocation, and the two stay apart
        long before = memory.reservedBytes();
        assertEquals(0, destination.exchangeInto(source).length);
        assertEquals(before, memory.reservedBytes());
        assertEquals(100, source.count());
        source.writeValue(source.position(VEC.id()), 0, new Vec(-7, -7));
        assertEquals(new Vec(-7, -7), source.readValue(source.position(VEC.id()), 0));
        fill(destination, 5);
        assertEquals(new Vec(-7, -7), source.readValue(source.position(VEC.id()), 0), "no buffer is shared");
        assertEquals(new Vec(1, -1), source.readValue(source.position(VEC.id()), 1));
    }

    @Test
    void anExchangeBetweenTablesOfOtherColumnsButOneCapacityFreesAndAllocatesNothingEitherWay() {
        Table wide = tableWithId(1, VEC, COUNT);
        Table narrow = tableWithId(2, VEC); // COUNT removed: other columns, none of them managed
        fill(narrow, 100);
        narrow.truncate(0); // empty, with capacity of its own (what a commit's reservation leaves)
        fill(wide, 100);
        assertEquals(wide.capacityRows(), narrow.capacityRows(), "the case under test: one capacity");
        MemorySegment narrowX = ((FloatColumn) narrow.nativeColumn(narrow.position(VEC.id()), 0)).segment();
        MemorySegment wideCount = wide.nativeColumn(wide.position(COUNT.id()), 0).segment();
        long reserved = memory.reservedBytes();
        int buffers = memory.liveBuffers();
        assertEquals(0, wide.exchangeInto(narrow).length, "nothing is new to the rows");
        assertEquals(reserved, memory.reservedBytes(), "nothing freed, nothing allocated");
        assertEquals(buffers, memory.liveBuffers());
        assertEquals(narrowX.address(), ((FloatColumn) wide.nativeColumn(wide.position(VEC.id()), 0)).segment()
                .address(), "the source keeps the destination's old buffer of the shared column");
        assertEquals(wideCount.address(), wide.nativeColumn(wide.position(COUNT.id()), 0).segment().address(),
                "and its own of the column only it has");
        assertEquals(0, wide.count());
        for (int row = 0; row < 100; row++) {
            assertEquals(new Vec(row, -row), narrow.readValue(narrow.position(VEC.id()), row));
            assertEquals(100 + row, narrow.entityAt(row));
        }
        // and back, as a component added again: COUNT's rows are the caller's to write, in the kept buffer
        int[] missing = narrow.exchangeInto(wide);
        assertArrayEquals(new int[] {wide.position(COUNT.id())}, missing);
        assertEquals(reserved, memory.reservedBytes(), "the move back allocates nothing either");
        assertEquals(buffers, memory.liveBuffers());
        assertEquals(100, wide.count());
        for (int row = 0; row < 100; row++) {
            wide.writeValue(wide.position(COUNT.id()), row, (long) -row);
        }
        fill(narrow, 3); // the narrow table writes its kept buffers: nothing of wide's changes
        for (int row = 0; row < 100; row++) {
            assertEquals(new Vec(row, -row), wide.readValue(wide.position(VEC.id()), row));
            assertEquals((long) -row, wide.readValue(wide.position(COUNT.id()), row));
            assertEquals(100 + row, wide.entityAt(row));
        }
        assertEquals(new Vec(2, -2), narrow.readValue(narrow.position(VEC.id()), 2));
    }

    @Test
    void aPreparationThatTookTheDestinationsOwnBuffersFreesNoneOfThemAndGoesStaleWhenTheDestinationGrows() {
        Table narrow = tableWithId(1, VEC);
        Table wide = tableWithId(2, VEC, COUNT); // COUNT added: wide's own empty COUNT buffer is taken
        fill(wide, 100);
        wide.truncate(0);
        fill(narrow, 100);
        assertEquals(narrow.capacityRows(), wide.capacityRows());
        long reserved = memory.reservedBytes();
        Table.Exchange unused = narrow.prepareExchange(wide);
        assertEquals(reserved, memory.reservedBytes(), "nothing allocated: the destination's buffer is reused");
        unused.free();
        assertEquals(reserved, memory.reservedBytes(), "and nothing of the destination's is freed");
        fill(wide, 2); // the destination's buffers are intact and its own
        assertEquals(1L, wide.readValue(wide.position(COUNT.id()), 1));
        wide.truncate(0);
        Table.Exchange stale = narrow.prepareExchange(wide);
        wide.ensureCapacity(wide.capacityRows() + 1); // its buffers are replaced: the preparation must not be used
        assertThrows(IllegalStateException.class, () -> narrow.exchangeInto(wide, stale));
        stale.free();
        assertEquals(100, narrow.count(), "the refused exchange changed nothing");
        assertEquals(new Vec(99, -99), narrow.readValue(narrow.position(VEC.id()), 99));
        assertEquals(1, narrow.exchangeInto(wide).length, "a fresh preparation moves everything");
        assertEquals(100, wide.count());
    }

    @Test
    void moveAllToAPopulatedTableCopiesEachColumnOnce() {
        Table source = tableWithId(1, VEC, BLOB, COUNT);
        Table destination = tableWithId(2, VEC, COUNT);
        fill(destination, 2);
        destination.dirty().clear();
        fill(source, 70);
        int[] missing = source.missingPositionsFor(destination);
        assertEquals(0, missing.length);
        int at = source.moveAllTo(destination);
        assertEquals(2, at);
        assertEquals(72, destination.count());
        assertEquals(0, source.count());
        assertNull(source.readValue(source.position(BLOB.id()), 0),
                "heap slots past the count are cleared");
        assertEquals(new Vec(69, -69), destination.readValue(destination.position(VEC.id()), 71));
        assertEquals(69L, destination.readValue(destination.position(COUNT.id()), 71));
        assertEquals(100 + 69, destination.entityAt(71));
        assertEquals(2, destination.dirty().structuralAdded());
    }

    @Test
    void truncateDropsRowsOnceAndChecksBounds() {
        Table table = table(VEC, BLOB);
        fill(table, 10);
        table.dirty().clear();
        table.truncate(4);
        assertEquals(4, table.count());
        assertTrue(table.dirty().isStructurallyDirty());
        assertNull(table.readValue(table.position(BLOB.id()), 4));
        long before = table.dirty().structuralCount();
        table.truncate(4);
        assertEquals(before, table.dirty().structuralCount(), "nothing to drop, nothing recorded");
        assertThrows(IndexOutOfBoundsException.class, () -> table.truncate(5));
        assertThrows(IndexOutOfBoundsException.class, () -> table.truncate(-1));
    }

    @Test
    void rebuildShrinksToTheRowsLeftAndKeepsValues() {
        Table table = table(VEC, BLOB);
        fill(table, 1000);
        table.truncate(3);
        long reserved = memory.reservedBytes();
        assertTrue(table.rebuild());
        assertEquals(Table.ROW_PADDING, table.capacityRows());
        assertEquals(3, table.highWater());
        assertTrue(memory.reservedBytes() < reserved);
        assertEquals(new Vec(2, -2), table.readValue(table.position(VEC.id()), 2));
        assertEquals(new Blob("b2"), table.readValue(table.position(BLOB.id()), 2));
        assertEquals(102, table.entityAt(2));
        assertFalse(table.rebuild(), "already as small as it can be");
        table.truncate(0);
        assertTrue(table.rebuild());
        assertEquals(0, table.capacityRows());
        assertEquals(0, table.nativeBytesReserved());
        assertEquals(0, memory.liveBuffers(), "every column and the entity column are freed");
        assertEquals(0, memory.reservedBytes());
    }

    @Test
    void theKeyColumnIsWritableOnlyWhileARestorationInitializerRuns() {
        Table table = table(dev.jtecs.builtin.EntityKey.COMPONENT);
        table.appendRows(1);
        int key = table.position(dev.jtecs.builtin.EntityKey.COMPONENT.id());
        assertTrue(table.heapColumn(key).isReadOnly());
        table.setKeyWritable(true);
        @SuppressWarnings("unchecked")
        ObjectColumn<String> keys = (ObjectColumn<String>) table.heapColumn(key);
        keys.set(0, "k");
        table.setKeyWritable(false);
        assertTrue(table.heapColumn(key).isReadOnly());
        assertEquals("k", table.readValue(key, 0));
    }

    @Test
    void positionAnswersAsABinarySearchForShortAndLongSignatures() {
        dev.jtecs.component.Component<?>[] tags = new dev.jtecs.component.Component<?>[12];
        for (int i = 0; i < tags.length; i++) {
            tags[i] = dev.jtecs.component.Components.tag("test.table.Position" + i);
        }
        for (int size : new int[] {0, 1, 2, 5, 8, 9, 12}) {
            dev.jtecs.component.Component<?>[] sorted = java.util.Arrays.copyOf(tags, size);
            java.util.Arrays.sort(sorted, java.util.Comparator.comparingInt(dev.jtecs.component.Component::id));
            Table table = new Table(99, sorted, memory);
            int[] signature = table.signature();
            int lowest = size == 0 ? 1 : signature[0] - 2;
            int highest = size == 0 ? 3 : signature[size - 1] + 2;
            for (int id = lowest; id <= highest; id++) {
                assertEquals(java.util.Arrays.binarySearch(signature, id), table.position(id), "size " + size + " id " + id);
            }
            table.release();
        }
    }

    // ---------------------------------------------------------------- allocation failures (issue 18)

    /** A table of VEC (two float columns) and BLOB (a heap column) holding {@code n} rows, entity ids 1000+i. */
    private Table filled(int n) {
        Table table = table(VEC, BLOB);
        for (int i = 0; i < n; i++) {
            int row = table.appendRow(1000 + i);
            table.writeValue(table.position(VEC.id()), row, new Vec(i, -i));
            table.writeValue(table.position(BLOB.id()), row, new Blob("b" + i));
        }
        return table;
    }

    private static void assertRows(Table table, int n) {
        assertEquals(n, table.count());
        for (int i = 0; i < n; i++) {
            assertEquals(1000 + i, table.entityAt(i));
            assertEquals(new Vec(i, -i), table.readValue(table.position(VEC.id()), i));
            assertEquals(new Blob("b" + i), table.readValue(table.position(BLOB.id()), i));
        }
    }

    @Test
    void nativeOomPartWayThroughEnsureCapacityLeavesTheViewsOnLiveBuffers() { // issue 18, defect 1
        // the growth allocates the entity column, then x, then y: fail each in turn, and the heap column's growth
        for (int k = 1; k <= 4; k++) {
            Table table = filled(Table.ROW_PADDING); // full: the next row grows every column
            int vec = table.position(VEC.id());
            FloatColumn x = (FloatColumn) table.nativeColumn(vec, 0);
            long version = table.storageVersion();
            int capacity = table.capacityRows();
            long reserved = memory.reservedBytes();
            int buffers = memory.liveBuffers();
            if (k <= 3) {
                AllocationFaults.failAt(AllocationFaults.Kind.NATIVE, k);
            } else {
                AllocationFaults.failAt(AllocationFaults.Kind.HEAP, 1);
            }
            try {
                assertThrows(OutOfMemoryError.class, () -> table.appendRow(5), "fault " + k);
            } finally {
                AllocationFaults.disarm();
            }
            assertEquals(version, table.storageVersion(), "fault " + k + ": the buffers were not replaced");
            assertEquals(capacity, table.capacityRows());
            assertEquals(reserved, memory.reservedBytes(), "fault " + k + ": what was allocated was freed");
            assertEquals(buffers, memory.liveBuffers());
            assertRows(table, Table.ROW_PADDING);
            // the view kept from before still writes the table's own column, not a block someone else now holds
            MemorySegment other = memory.allocate(x.segment().byteSize()); // the size class a freed column had
            other.fill((byte) 0x7f);
            x.set(3, 42f);
            assertEquals(new Vec(42, -3), table.readValue(vec, 3));
            assertEquals(0x7f7f7f7f, other.get(java.lang.foreign.ValueLayout.JAVA_INT, 12), "fault " + k);
            memory.free(other);
            x.set(3, 3f);
            table.appendRow(5); // and the retry grows
            assertTrue(table.capacityRows() > capacity);
            assertEquals(Table.ROW_PADDING + 1, table.count());
            table.swapRemove(Table.ROW_PADDING);
            assertRows(table, Table.ROW_PADDING);
            table.release();
        }
    }

    @Test
    void viewsThatCannotBeMadeOnceTheBuffersMovedAreMadeByTheNextAccessAndNeverLeftStale() {
        Table table = filled(Table.ROW_PADDING); // full: the next row grows every column
        int vec = table.position(VEC.id());
        FloatColumn before = (FloatColumn) table.nativeColumn(vec, 0);
        long version = table.storageVersion();
        long injected = AllocationFaults.injected(AllocationFaults.Kind.HEAP);
        // the growth's heap allocations: the heap column's array, then the views (made after the rows moved)
        AllocationFaults.failAt(AllocationFaults.Kind.HEAP, 2);
        try {
            table.appendRow(5); // not thrown here: the rows moved, and the caller's change goes on
        } finally {
            AllocationFaults.disarm();
        }
        assertEquals(injected + 1, AllocationFaults.injected(AllocationFaults.Kind.HEAP), "the views were failed");
        assertEquals(version + 1, table.storageVersion());
        assertEquals(Table.ROW_PADDING + 1, table.count());
        AllocationFaults.failAt(AllocationFaults.Kind.HEAP, 1);
        try {
            assertThrows(OutOfMemoryError.class, () -> table.nativeColumn(vec, 0), "the access makes them, or throws");
        } finally {
            AllocationFaults.disarm();
        }
        FloatColumn after = (FloatColumn) table.nativeColumn(vec, 0); // never the view of the freed buffer
        assertNotSame(before, after);
        assertEquals((long) table.capacityRows() * Float.BYTES, after.segment().byteSize());
        after.set(3, 42f);
        assertEquals(new Vec(42, -3), table.readValue(vec, 3));
        assertEquals(table.capacityRows(), table.entities().segment().byteSize() / Long.BYTES);
        table.swapRemove(Table.ROW_PADDING);
        after.set(3, 3f);
        assertRows(table, Table.ROW_PADDING);
        table.release();
    }

    @Test
    void nativeOomDuringAWholeArchetypeExchangeLeavesTheSourceIntact() { // issue 18, defect 6
        Table source = filled(100);
        Table destination = new Table(2, sortedOf(VEC, BLOB, COUNT), memory); // COUNT's column is allocated
        long sourceVersion = source.storageVersion();
        long reserved = memory.reservedBytes();
        AllocationFaults.failAt(AllocationFaults.Kind.NATIVE, 1);
        try {
            assertThrows(OutOfMemoryError.class, () -> source.exchangeInto(destination));
        } finally {
            AllocationFaults.disarm();
        }
        assertEquals(sourceVersion, source.storageVersion());
        assertEquals(reserved, memory.reservedBytes(), "nothing leaked, nothing freed");
        assertEquals(0, destination.count());
        assertRows(source, 100);
        int[] missing = source.exchangeInto(destination); // the retry moves everything
        assertEquals(1, missing.length);
        assertEquals(0, source.count());
        assertEquals(100, destination.count());
        for (int i = 0; i < 100; i++) {
            assertEquals(new Vec(i, -i), destination.readValue(destination.position(VEC.id()), i));
            assertEquals(new Blob("b" + i), destination.readValue(destination.position(BLOB.id()), i));
        }
    }

    @Test
    void aPreparedExchangeThatIsNotUsedIsFreedAndAStaleOneIsRefused() {
        Table source = filled(10);
        Table destination = new Table(2, sortedOf(VEC, BLOB, COUNT), memory);
        long reserved = memory.reservedBytes();
        Table.Exchange prepared = source.prepareExchange(destination);
        assertTrue(memory.reservedBytes() > reserved, "COUNT's column is allocated up front");
        prepared.free();
        prepared.free();
        assertEquals(reserved, memory.reservedBytes());
        assertThrows(IllegalStateException.class, () -> source.exchangeInto(destination, prepared));
        Table.Exchange early = source.prepareExchange(destination);
        for (int i = 10; i < Table.ROW_PADDING + 1; i++) { // the source grows: the preparation no longer fits
            source.appendRow(1000 + i);
        }
        assertThrows(IllegalStateException.class, () -> source.exchangeInto(destination, early));
        early.free();
        assertEquals(Table.ROW_PADDING + 1, source.count());
    }

    @Test
    void aFailedShrinkKeepsItsHighWaterSoTheNextCompactionTriesAgain() { // issue 18: compact() forgot the shrink
        Table table = filled(1000);
        table.truncate(10);
        int capacity = table.capacityRows();
        AllocationFaults.failAt(AllocationFaults.Kind.NATIVE, 2);
        try {
            assertThrows(OutOfMemoryError.class, table::rebuild);
        } finally {
            AllocationFaults.disarm();
        }
        assertEquals(1000, table.highWater(), "the shrink did not happen: it is still owed");
        assertEquals(capacity, table.capacityRows());
        assertRows(table, 10);
        assertTrue(table.rebuild());
        assertEquals(Table.ROW_PADDING, table.capacityRows());
        assertEquals(10, table.highWater());
        assertRows(table, 10);
    }

    @Test
    void aCaptureThatFailsToCopyItsRowsStaysRegisteredAndTheRemovalAllocatesNothingOncePrepared() { // issue 18
        Table table = filled(10);
        int[] calls = {0};
        RowCapture capture = new RowCapture() {
            @Override
            public void materialize(Table t) {
                if (++calls[0] == 1) {
                    throw new OutOfMemoryError("injected: the capture's copy");
                }
            }

            @Override
            public boolean dooms() {
                return false;
            }
        };
        table.addCapture(capture);
        assertThrows(OutOfMemoryError.class, table::prepareRowRemoval);
        assertRows(table, 10); // nothing changed
        table.prepareRowRemoval(); // the retry copies the rows
        assertEquals(2, calls[0]);
        assertFalse(table.removeCapture(capture), "materialized: no longer registered");
        AllocationFaults.failAt(AllocationFaults.Kind.HEAP, 1);
        try {
            table.swapRemove(3); // prepared: allocates nothing, so the armed fault does not fire
            assertTrue(AllocationFaults.armed(AllocationFaults.Kind.HEAP));
        } finally {
            AllocationFaults.disarm();
        }
        assertEquals(9, table.count());
    }

    @Test
    void fieldPositionIsTheFieldsComponentsPositionOrNegative() {
        Table table = table(VEC, COUNT);
        assertEquals(table.position(VEC.id()), table.fieldPosition(VEC.floatField("y")));
        assertTrue(table(COUNT).fieldPosition(VEC.floatField("x")) < 0, "a table without the component");
    }

    record Owes(long target, int amount) {}

    record Tip(long target, int size) {}

    static final dev.jtecs.component.Relationship LIKES = dev.jtecs.component.Relationships.register(
            "test.table.Likes");
    static final dev.jtecs.component.RelationshipDefinition<Owes> OWES = dev.jtecs.component.Relationships.register(
            Owes.class, o -> o.name("test.table.Owes"));
    static final dev.jtecs.component.RelationshipDefinition<Tip> TIPS = dev.jtecs.component.Relationships.register(
            Tip.class, o -> o.name("test.table.Tips").sparse());
    static final dev.jtecs.component.Relationship UNHELD = dev.jtecs.component.Relationships.register(
            "test.table.Unheld");

    @Test
    void theEdgesOfDenseRelationshipsAreThePairsOfTheSignature() {
        try (ArchetypeRegistry registry = new ArchetypeRegistry(memory)) {
            long t1 = dev.jtecs.entity.Entity.pack(30, 0);
            long t2 = dev.jtecs.entity.Entity.pack(31, 0);
            dev.jtecs.component.PairComponent likesT2 = registry.pairs().pair(LIKES, t2); // the lower pair id
            dev.jtecs.component.PairComponent likesT1 = registry.pairs().pair(LIKES, t1);
            dev.jtecs.component.PairComponent owesT1 = registry.pairs().pair(OWES, t1);
            Component<?>[] signature = {LIKES, OWES, VEC, likesT2, likesT1, owesT1};
            Arrays.sort(signature, Comparator.comparingInt(Component::id));
            Table table = registry.findOrCreate(signature);
            assertTrue(table.hasPairs());
            assertFalse(registry.root().hasPairs());
            assertFalse(registry.withAdded(registry.root(), VEC).hasPairs());
            assertArrayEquals(new long[] {t1, t2}, table.targetsOf(LIKES), "ascending by target");
            assertArrayEquals(new long[] {t1}, table.targetsOf(OWES));
            assertArrayEquals(new long[0], table.targetsOf(UNHELD));
            assertArrayEquals(new long[0], table.targetsOf(TIPS), "sparse edges are not in the signature");
            assertEquals(table.position(likesT2.id()), table.pairPosition(LIKES, t2));
            assertEquals(table.position(owesT1.id()), table.pairPosition(OWES, t1));
            assertEquals(-1, table.pairPosition(OWES, t2));
            assertEquals(-1, table.pairPosition(UNHELD, t1));
            int row = table.appendRow(dev.jtecs.entity.Entity.pack(1, 0));
            table.writeValue(table.position(VEC.id()), row, new Vec(1, 2));
            table.writeValue(table.pairPosition(OWES, t1), row, new Owes(t1, 5));
            StringBuilder seen = new StringBuilder();
            table.forEachEdge(LIKES, row, (target, payload) -> seen.append(target).append('=').append(payload)
                    .append(' '));
            table.forEachEdge(OWES, row, (target, payload) -> seen.append(target).append('=').append(payload));
            assertEquals(t1 + "=null " + t2 + "=null " + t1 + "=" + new Owes(t1, 5), seen.toString());
            assertEquals(new Owes(t1, 5), table.edgePayload(OWES, t1, row));
            assertNull(table.edgePayload(OWES, t2, row), "no such edge");
            assertNull(table.edgePayload(LIKES, t1, row), "a target-only relationship");
            assertEquals(t1, table.firstTarget(LIKES, row));
            assertEquals(0, table.firstTarget(UNHELD, row));
            assertEquals(OWES.edgeValue(t1, new Owes(t1, 5)), table.firstEdgeValue(OWES, row));
            assertEquals(LIKES.edgeValue(t1, null), table.firstEdgeValue(LIKES, row));
            assertNull(table.firstEdgeValue(UNHELD, row));
        }
    }

    @Test
    void theEdgesOfSparseRelationshipsComeFromTheRegistrysStore() {
        try (ArchetypeRegistry registry = new ArchetypeRegistry(memory)) {
            Table table = registry.withAdded(registry.withAdded(registry.root(), TIPS), VEC);
            long source = dev.jtecs.entity.Entity.pack(2, 0);
            long target = dev.jtecs.entity.Entity.pack(40, 0);
            int row = table.appendRow(source);
            registry.sparseEdges().add(TIPS, source, target, new Tip(target, 3));
            StringBuilder seen = new StringBuilder();
            table.forEachEdge(TIPS, row, (t, payload) -> seen.append(t).append('=').append(payload));
            assertEquals(target + "=" + new Tip(target, 3), seen.toString());
            assertEquals(new Tip(target, 3), table.edgePayload(TIPS, target, row));
            assertEquals(target, table.firstTarget(TIPS, row));
            assertEquals(TIPS.edgeValue(target, new Tip(target, 3)), table.firstEdgeValue(TIPS, row));
            Table outside = table(TIPS, VEC); // made outside a registry: no store to read
            int other = outside.appendRow(source);
            outside.forEachEdge(TIPS, other, (t, payload) -> seen.append("unexpected"));
            assertEquals(target + "=" + new Tip(target, 3), seen.toString());
            assertNull(outside.edgePayload(TIPS, target, other));
            assertEquals(0, outside.firstTarget(TIPS, other));
        }
    }

    @Test
    void observersAreAddedInOrderAndRemovedOneByOne() {
        Table table = table(VEC);
        dev.jtecs.storage.EntityObserver a = new dev.jtecs.storage.EntityObserver() { };
        dev.jtecs.storage.EntityObserver b = new dev.jtecs.storage.EntityObserver() { };
        dev.jtecs.storage.EntityObserver c = new dev.jtecs.storage.EntityObserver() { };
        assertEquals(0, table.observers().length);
        table.addObserver(a);
        table.addObserver(b);
        table.addObserver(c);
        assertArrayEquals(new Object[] {a, b, c}, table.observers());
        assertTrue(table.removeObserver(b));
        assertArrayEquals(new Object[] {a, c}, table.observers());
        assertFalse(table.removeObserver(b), "gone already");
        assertTrue(table.removeObserver(a));
        assertArrayEquals(new Object[] {c}, table.observers());
        assertTrue(table.removeObserver(c));
        assertEquals(0, table.observers().length);
        assertThrows(NullPointerException.class, () -> table.addObserver(null));
    }

    @Test
    void columnsExportAndImportInThePortableLayoutAndDescribeThemselves() {
        Table table = table(VEC, BLOB, COUNT, FLAG);
        fill(table, 5);
        int vec = table.position(VEC.id());
        assertEquals(2, table.nativeColumnCount(vec));
        assertEquals(dev.jtecs.component.PrimitiveKind.FLOAT, table.nativeKindAt(vec, 1));
        assertEquals(dev.jtecs.component.PrimitiveKind.LONG, table.nativeKindAt(table.position(COUNT.id()), 0));
        assertFalse(table.hasHeapColumn(vec));
        assertTrue(table.hasHeapColumn(table.position(BLOB.id())));
        assertEquals(new Blob("b3"), table.heapValue(table.position(BLOB.id()), 3));
        try (java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofConfined()) {
            MemorySegment ys = arena.allocate(3 * 4L);
            table.exportColumn(vec, 1, 1, 3, ys, 0); // y of rows 1..3
            assertEquals(-1f, ys.get(java.lang.foreign.ValueLayout.JAVA_FLOAT_UNALIGNED.withOrder(
                    java.nio.ByteOrder.LITTLE_ENDIAN), 0));
            assertEquals(-3f, ys.get(java.lang.foreign.ValueLayout.JAVA_FLOAT_UNALIGNED.withOrder(
                    java.nio.ByteOrder.LITTLE_ENDIAN), 8));
            table.importColumn(vec, 0, 2, 3, ys, 0); // x of rows 2..4 := those ys
            assertEquals(new Vec(-1, -2), table.readValue(vec, 2));
            assertEquals(new Vec(-3, -4), table.readValue(vec, 4));
            assertEquals(new Vec(1, -1), table.readValue(vec, 1));
            MemorySegment ids = arena.allocate(2 * 8L);
            table.exportEntities(3, 2, ids, 0);
            long[] exported = ids.toArray(java.lang.foreign.ValueLayout.JAVA_LONG.withOrder(
                    java.nio.ByteOrder.LITTLE_ENDIAN));
            assertArrayEquals(new long[] {table.entityAt(3), table.entityAt(4)}, exported);
            MemorySegment replacement = arena.allocate(2 * 8L);
            replacement.setAtIndex(java.lang.foreign.ValueLayout.JAVA_LONG, 0, 901L);
            replacement.setAtIndex(java.lang.foreign.ValueLayout.JAVA_LONG, 1, 902L);
            table.writeEntities(1, replacement, 2);
            assertEquals(901L, table.entityAt(1));
            assertEquals(902L, table.entityAt(2));
            assertEquals(103L, table.entityAt(3));
        }
        table.fillColumn(vec, 1, 0, 2, 8f);
        assertEquals(new Vec(0, 8), table.readValue(vec, 0));
        assertEquals(new Vec(1, 8), table.readValue(vec, 1));
        assertEquals(new Vec(-1, -2), table.readValue(vec, 2));
    }

    @Test
    void theStorageVersionMovesWhenTheBuffersAreReplaced() {
        Table table = table(VEC);
        long start = table.storageVersion();
        fill(table, 1);
        long grown = table.storageVersion();
        assertTrue(grown > start, "the first buffers");
        fill(table, 2);
        assertEquals(grown, table.storageVersion(), "rows within the capacity keep the buffers");
        fill(table, table.capacityRows());
        assertTrue(table.storageVersion() > grown);
    }

    /** A capture that copies the entity ids it claimed when asked, as a staged batch does. */
    private static final class Claim implements RowCapture {
        final boolean dooms;
        long[] ids;
        int calls;

        Claim(boolean dooms) {
            this.dooms = dooms;
        }

        @Override
        public void materialize(Table table) {
            calls++;
            ids = new long[table.count()];
            table.readEntities(0, table.count(), ids, 0);
        }

        @Override
        public boolean dooms() {
            return dooms;
        }
    }

    /** Every change to a table's rows first hands each pending capture the rows as they were. */
    @Test
    void everyStructuralChangeHandsPendingCapturesTheRowsBeforeIt() {
        java.util.List<java.util.function.Consumer<Table>> changes = java.util.List.of(
                t -> t.appendRow(5000),
                t -> t.appendRows(2),
                t -> t.truncate(2),
                t -> t.swapRemove(0),
                t -> t.prepareRowRemovals(3),
                t -> t.swapRemoveDeferringValues(1),
                Table::settleCaptures,
                t -> t.moveAllTo(table(VEC)),
                t -> t.exchangeInto(table(VEC, FLAG)));
        for (int k = 0; k < changes.size(); k++) {
            Table table = filled(4);
            Claim claim = new Claim(false);
            table.addCapture(claim);
            changes.get(k).accept(table);
            assertEquals(1, claim.calls, "change " + k);
            assertArrayEquals(new long[] {1000, 1001, 1002, 1003}, claim.ids, "change " + k + ": the rows before");
            assertFalse(table.removeCapture(claim), "change " + k + ": handed its rows, no longer pending");
        }
    }

    @Test
    void capturesAreWithdrawnOneByOneAndADoomingOneMarksAPendingDespawn() {
        Table table = filled(3);
        Claim first = new Claim(false);
        Claim doomed = new Claim(true);
        Claim last = new Claim(false);
        assertFalse(table.hasPendingDespawn());
        table.addCapture(first);
        assertFalse(table.hasPendingDespawn());
        table.addCapture(doomed);
        table.addCapture(last);
        for (int i = 0; i < 3; i++) { // past the first room of four
            table.addCapture(new Claim(false));
        }
        assertTrue(table.hasPendingDespawn());
        assertTrue(table.removeCapture(doomed));
        assertFalse(table.hasPendingDespawn(), "the despawn's batch ran");
        assertFalse(table.removeCapture(doomed));
        assertTrue(table.removeCapture(first));
        table.settleCaptures(); // the others copy their rows now, last first
        assertEquals(0, first.calls, "withdrawn: never asked");
        assertEquals(0, doomed.calls);
        assertEquals(1, last.calls);
        assertFalse(table.removeCapture(last));
    }

    static final NativeComponent<TableValuesTest.Narrow> NARROW = TableValuesTest.NARROW;

    private static TableValuesTest.Narrow narrow(int i) {
        return new TableValuesTest.Narrow((byte) (i - 100), i % 2 == 0, (short) (i * 1000), (char) ('A' + i),
                i * 100_003, i * 1.25f, (long) i << 40 | i, -i * 1e100);
    }

    @Test
    void rowCopiesTakeTheWayThisTestRunChose() {
        // the default execution copies single rows through RawRows; the checked-rows one (-Djtecs.checkedRows=true)
        // through the column segments: every row test of this class runs both ways
        assertEquals(!Boolean.getBoolean("jtecs.checkedRows"), RawRows.ENABLED);
    }

    @Test
    void rowsOfEveryElementWidthMoveWholeWhereverTheyGo() {
        Table table = table(NARROW, VEC);
        int narrow = table.position(NARROW.id());
        for (int i = 0; i < 6; i++) {
            int row = table.appendRow(2000 + i);
            table.writeValue(narrow, row, narrow(i));
            table.writeValue(table.position(VEC.id()), row, new Vec(i, i));
        }
        table.swapRemove(1); // row 5 into row 1: copied within the table
        assertEquals(narrow(5), table.readValue(narrow, 1));
        long moved = table.swapRemoveDeferringValues(2); // row 4 into row 2, the values left to copyNativeRows
        assertEquals(2004, moved);
        table.swapRemoveDeferringValues(0); // row 3 into row 0
        table.copyNativeRows(new int[] {4, 3}, new int[] {2, 0}, 2);
        assertEquals(narrow(4), table.readValue(narrow, 2));
        assertEquals(narrow(3), table.readValue(narrow, 0));
        assertEquals(new Vec(3, 3), table.readValue(table.position(VEC.id()), 0));
        Table destination = table(NARROW, FLAG);
        destination.appendRow(9999);
        destination.writeValue(destination.position(NARROW.id()), 0, narrow(9));
        assertEquals(1, table.moveRowTo(2, destination), "the destination row");
        assertEquals(narrow(4), destination.readValue(destination.position(NARROW.id()), 1));
        assertEquals(narrow(9), destination.readValue(destination.position(NARROW.id()), 0));
        assertEquals(3, table.count(), "the source row is left for the caller to remove");
        assertThrows(IndexOutOfBoundsException.class, () -> table.moveRowTo(3, destination), "past the count");
        assertThrows(IndexOutOfBoundsException.class, () -> table.moveRowTo(-1, destination));
        assertEquals(2, destination.count(), "a refused move appends nothing");
    }

    @Test
    void aRemovalOrAnExchangeMarksTheTablesItChangesStructurallyDirty() {
        Table table = filled(4);
        table.dirty().clear();
        table.swapRemoveDeferringValues(3);
        assertTrue(table.dirty().isStructurallyDirty());
        assertEquals(3, table.dirty().structuralAdded(), "the residue's appended rows start at the count");
        table.dirty().clear();
        table.swapRemove(2);
        assertEquals(2, table.dirty().structuralAdded());
        Table empty = table(VEC, BLOB, FLAG);
        table.dirty().clear();
        empty.dirty().clear();
        table.exchangeInto(empty);
        assertTrue(table.dirty().isStructurallyDirty(), "the source emptied");
        assertTrue(empty.dirty().isStructurallyDirty(), "the destination filled");
        assertEquals(0, table.dirty().structuralAdded());
    }

    @Test
    void rebuildRoundsTheRowsLeftUpToWholePaddedBlocksOnly() {
        Table table = table(VEC);
        fill(table, 1000);
        table.truncate(2 * Table.ROW_PADDING); // exactly two blocks
        assertTrue(table.rebuild());
        assertEquals(2 * Table.ROW_PADDING, table.capacityRows());
        table.truncate(Table.ROW_PADDING - 1); // one row short of a block
        assertTrue(table.rebuild());
        assertEquals(Table.ROW_PADDING, table.capacityRows());
    }

    @Test
    void movesToOneDestinationAndThenAnotherEachFollowTheirOwnPlan() {
        Table source = filled(3);
        Table narrow = table(VEC);
        Table wide = table(VEC, BLOB, FLAG);
        source.moveRowTo(0, narrow);
        assertEquals(1, source.missingPositionsFor(wide).length, "FLAG only");
        int row = source.moveRowTo(1, wide);
        assertEquals(new Blob("b1"), wide.readValue(wide.position(BLOB.id()), row), "wide takes the blob along");
        assertEquals(new Vec(1, -1), wide.readValue(wide.position(VEC.id()), row));
        assertEquals(0, source.missingPositionsFor(narrow).length);
    }

    @Test
    void nativeColumnViewsAndImportsReachTheFieldAskedFor() {
        Table table = table(BLOB, VEC, COUNT);
        fill(table, 4);
        int vec = table.position(VEC.id());
        FloatColumn y = (FloatColumn) table.nativeColumn(vec, 1);
        assertEquals(-3f, y.get(3));
        try (java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofConfined()) {
            MemorySegment ys = arena.allocate(2 * 4L);
            ys.set(java.lang.foreign.ValueLayout.JAVA_FLOAT_UNALIGNED.withOrder(java.nio.ByteOrder.LITTLE_ENDIAN), 0,
                    40f);
            ys.set(java.lang.foreign.ValueLayout.JAVA_FLOAT_UNALIGNED.withOrder(java.nio.ByteOrder.LITTLE_ENDIAN), 4,
                    41f);
            table.importColumn(vec, 1, 1, 2, ys, 0); // y of rows 1 and 2
        }
        assertEquals(new Vec(1, 40), table.readValue(vec, 1));
        assertEquals(new Vec(2, 41), table.readValue(vec, 2));
        assertEquals(3L, table.readValue(table.position(COUNT.id()), 3), "the next component's column stays");
    }

    @Test
    void aCaptureThatFailsBeforeAWholeTableMoveLeavesBothTablesAsTheyWere() {
        Table source = filled(3);
        Table destination = table(VEC);
        source.addCapture(new RowCapture() {
            @Override
            public void materialize(Table t) {
                throw new OutOfMemoryError("injected: the capture's copy");
            }

            @Override
            public boolean dooms() {
                return false;
            }
        });
        assertThrows(OutOfMemoryError.class, () -> source.moveAllTo(destination));
        assertRows(source, 3);
        assertEquals(0, destination.count(), "nothing moved before the capture had its rows");
    }

    // ---------------------------------------------------------------- issue 27, fifth round

    @Test
    void theEntityViewReadsTheIdsAndTheHeapViewNamesItsComponent() {
        Table table = filled(2);
        assertEquals(1001L, table.entities().get(1));
        ObjectColumn<?> blobs = table.heapColumn(table.position(BLOB.id()));
        assertEquals(new Blob("b1"), blobs.get(1));
        IndexOutOfBoundsException outside = assertThrows(IndexOutOfBoundsException.class, () -> blobs.get(2));
        assertTrue(outside.getMessage().contains("view of " + BLOB.name() + " in "), outside.getMessage());
    }

    @Test
    void aWholeTableMovesItsManagedValuesIntoAPopulatedTable() {
        Table source = filled(3);
        Table destination = new Table(2, sortedOf(VEC, BLOB), memory);
        destination.appendRow(7);
        destination.writeValue(destination.position(BLOB.id()), 0, new Blob("kept"));
        int at = source.moveAllTo(destination);
        assertEquals(1, at);
        int blob = destination.position(BLOB.id());
        assertEquals(new Blob("kept"), destination.readValue(blob, 0));
        for (int i = 0; i < 3; i++) {
            assertEquals(new Blob("b" + i), destination.readValue(blob, 1 + i));
        }
    }

    @Test
    void anExchangeIntoATableWithAManagedColumnOfItsOwnGivesThatColumnAnArrayAndAFailedOneLeaksNothing() {
        Table source = new Table(1, sortedOf(VEC), memory);
        for (int i = 0; i < 5; i++) {
            source.writeValue(source.position(VEC.id()), source.appendRow(100 + i), new Vec(i, i));
        }
        Table destination = new Table(2, sortedOf(VEC, BLOB, COUNT), memory); // BLOB and COUNT only there
        source.prepareExchange(destination).free(); // the move plan is built once, outside the failure below
        long reserved = memory.reservedBytes();
        AllocationFaults.failAt(AllocationFaults.Kind.HEAP, 1); // BLOB's array, after COUNT's native column
        try {
            assertThrows(OutOfMemoryError.class, () -> source.prepareExchange(destination));
        } finally {
            AllocationFaults.disarm();
        }
        assertEquals(reserved, memory.reservedBytes(), "COUNT's column, allocated before the failure, was freed");
        source.exchangeInto(destination, source.prepareExchange(destination));
        int blob = destination.position(BLOB.id());
        destination.writeValue(blob, 4, new Blob("new"));
        assertEquals(new Blob("new"), destination.readValue(blob, 4));
        assertEquals(new Vec(4, 4), destination.readValue(destination.position(VEC.id()), 4));
        assertEquals(104L, destination.entityAt(4));
    }

    @Test
    void anUnusedPreparationOfATableWithoutStorageFreesNothing() {
        Table source = new Table(1, sortedOf(VEC), memory); // never grown: no buffers
        Table destination = new Table(2, sortedOf(VEC, COUNT), memory);
        long reserved = memory.reservedBytes();
        Table.Exchange prepared = source.prepareExchange(destination);
        prepared.free(); // its buffers of COUNT are NULL: nothing to free
        assertEquals(reserved, memory.reservedBytes());
        source.exchangeInto(destination, source.prepareExchange(destination));
        assertEquals(0, destination.count());
        assertEquals(0, destination.capacityRows());
    }

    @Test
    void anExchangeHandsAPendingCaptureOfTheEmptyDestinationItsRowsFirst() {
        Table source = filled(3);
        Table destination = new Table(2, sortedOf(VEC, BLOB, FLAG), memory);
        Claim claim = new Claim(false);
        destination.addCapture(claim);
        source.exchangeInto(destination);
        assertEquals(1, claim.calls);
        assertArrayEquals(new long[0], claim.ids, "the destination held no row before the exchange");
        assertFalse(destination.removeCapture(claim));
        assertEquals(3, destination.count());
    }

    @Test
    void anExchangeLeavesTheSourceNoManagedArrayOfItsOwnColumns() {
        Table source = filled(3);
        Table destination = new Table(2, sortedOf(VEC), memory); // BLOB only in the source; no capacity here
        source.exchangeInto(destination);
        int blob = source.position(BLOB.id());
        assertEquals(0, source.capacityRows());
        assertEquals(0, source.heapColumn(blob).capacityRows(), "the array of the rows that left is let go");
        source.appendRow(500);
        assertNull(source.readValue(blob, 0), "a new row does not find the value of the row that left");
    }

    @Test
    void aFullListOfCapturesWithdrawsAMiddleOneAndRefusesAnUnknownOne() {
        Table table = filled(2);
        Claim[] claims = {new Claim(false), new Claim(false), new Claim(false), new Claim(false)};
        for (Claim claim : claims) {
            table.addCapture(claim); // four: the first room, full
        }
        assertFalse(table.removeCapture(new Claim(false)), "never registered");
        assertTrue(table.removeCapture(claims[1]));
        assertFalse(table.removeCapture(claims[1]));
        table.settleCaptures();
        assertEquals(1, claims[0].calls);
        assertEquals(0, claims[1].calls);
        assertEquals(1, claims[2].calls);
        assertEquals(1, claims[3].calls);
    }

    @Test
    void aReleasedTableHoldsNoBufferInItsArraysOrViewsAndSaysWhy() {
        Table table = filled(10);
        long version = table.storageVersion();
        assertFalse(table.isReleased());
        table.release();
        assertTrue(table.isReleased());
        assertEquals(0, table.nativeBytesReserved(), "no freed segment is kept");
        assertTrue(version != table.storageVersion(), "the views were rebuilt");
        assertEquals(0, table.entities().capacityRows());
        assertEquals(0, table.heapColumn(table.position(BLOB.id())).capacityRows());
        assertTrue(table.releasedError().getMessage().contains("closed world"), table.releasedError().getMessage());

        Table pruned = filled(1);
        pruned.destroyed();
        assertTrue(pruned.isReleased());
        assertTrue(pruned.releasedError().getMessage().contains("was pruned by compact()"),
                pruned.releasedError().getMessage());
    }

    @Test
    void toStringNamesTheComponentsInSignatureOrderAndTheCount() {
        Table table = filled(2);
        Component<?>[] sorted = sortedOf(VEC, BLOB);
        assertEquals("Archetype#1[" + sorted[0].name() + ", " + sorted[1].name() + "] count=2", table.toString());
    }

    /** The bits of a plain record's fields, as {@code World.set} reads them ({@code RecordWriter.bits}). */
    static long[] bitsOf(NativeComponent<?> component, Object record) {
        long[] bits = new long[8];
        StagedValues.plainWriter(component).bits(record, bits);
        return bits;
    }

    /**
     * {@code writePlainBits} is a write-through: a plain record's bits land in the row and mark its column dirty, as
     * {@code writeInput} of the record then {@code markDirty} do; a refused one (not native) writes and marks
     * nothing. Every kind of field keeps its bits (a NaN's payload), the rows beside it keep theirs, and a row past
     * the count is refused with nothing written or marked: by the table's addresses in the default execution,
     * through the column segments in the checked-rows one.
     */
    @Test
    void aPlainRecordWrittenThroughMarksItsColumnDirtyAndARefusedOneMarksNothing() {
        Table table = table(VEC, COUNT, NARROW);
        table.appendRow(1);
        table.appendRow(2);
        table.appendRow(3);
        int vec = table.position(VEC.id());
        int count = table.position(COUNT.id());
        int narrow = table.position(NARROW.id());
        for (int row = 0; row < 3; row++) {
            table.writeValue(vec, row, new Vec(row, -row));
            table.writeValue(narrow, row, narrow(row));
        }
        table.dirty().clear();
        assertFalse(table.writePlainBits(count, 0, new long[] {4}));
        assertFalse(table.dirty().anyDirty(), "refused: nothing marked");
        assertTrue(table.writePlainBits(vec, 1, bitsOf(VEC, new Vec(2, 3))));
        assertEquals(new Vec(2, 3), table.readValue(vec, 1));
        assertTrue(table.dirty().isDirty(vec));
        assertFalse(table.dirty().isDirty(count));

        TableValuesTest.Narrow every = new TableValuesTest.Narrow((byte) -3, true, (short) -4, '\uffff', -5,
                Float.intBitsToFloat(0x7fc00001), Long.MIN_VALUE + 6, Double.longBitsToDouble(0x7ff8000000000002L));
        assertTrue(table.writePlainBits(narrow, 1, bitsOf(NARROW, every)));
        TableValuesTest.Narrow read = (TableValuesTest.Narrow) table.readValue(narrow, 1);
        assertEquals(every, read);
        assertEquals(0x7fc00001, Float.floatToRawIntBits(read.f()), "NaN payload kept");
        assertEquals(0x7ff8000000000002L, Double.doubleToRawLongBits(read.d()), "NaN payload kept");
        for (int row : new int[] {0, 2}) {
            assertEquals(narrow(row), table.readValue(narrow, row), "row " + row + " untouched");
            assertEquals(new Vec(row, -row), table.readValue(vec, row), "row " + row + " untouched");
        }

        table.dirty().clear();
        assertThrows(IndexOutOfBoundsException.class, () -> table.writePlainBits(vec, 3, bitsOf(VEC, new Vec(9, 9))));
        assertThrows(IndexOutOfBoundsException.class, () -> table.writePlainBits(vec, -1, bitsOf(VEC, new Vec(9, 9))));
        assertFalse(table.dirty().anyDirty(), "refused rows: nothing marked");
        table.swapRemove(2);
        assertThrows(IndexOutOfBoundsException.class, () -> table.writePlainBits(narrow, 2, bitsOf(NARROW, every)),
                "a row past the count, inside the capacity");
        assertEquals(new Vec(0, 0), table.readValue(vec, 0));
        assertEquals(new Vec(2, 3), table.readValue(vec, 1));

        // the value of a row a move has just made: written, marked by the move rather than here
        table.dirty().clear();
        table.writeMovedBits(vec, 0, bitsOf(VEC, new Vec(5, 6)));
        assertEquals(new Vec(5, 6), table.readValue(vec, 0));
        assertFalse(table.dirty().anyDirty(), "no mark: the move marks what it added");
        assertThrows(IllegalStateException.class, () -> table.writeMovedBits(count, 0, new long[] {4}),
                "no plain record type there");
        assertThrows(IndexOutOfBoundsException.class, () -> table.writeMovedBits(vec, 2, bitsOf(VEC, new Vec(1, 1))));
        assertEquals(new Vec(5, 6), table.readValue(vec, 0));
    }

}
