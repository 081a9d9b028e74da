package dev.jtecs.storage.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.component.Component;
import dev.jtecs.component.Components;
import dev.jtecs.component.ManagedComponent;
import dev.jtecs.component.NativeComponent;
import dev.jtecs.component.ScalarComponent;
import dev.jtecs.component.TagComponent;
import java.util.Arrays;
import java.util.Comparator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class DirtyStateTest {
    record Blob(String s) {}

    static final NativeComponent<TableTest.Vec> VEC = TableTest.VEC;
    static final ManagedComponent<Blob> BLOB = Components.registerManaged(Blob.class);
    static final ScalarComponent.OfLong COUNT = TableTest.COUNT;
    static final TagComponent FLAG = TableTest.FLAG;

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
    void dirtyBitsStructuralFlagAndCounts() {
        Table table = table(VEC, COUNT);
        assertFalse(table.dirty().anyDirty());
        assertFalse(table.dirty().isStructurallyDirty(), "a new table has changed nothing yet");
        table.appendRow(1);
        assertTrue(table.dirty().isStructurallyDirty());
        assertTrue(table.dirty().isDirty(0) && table.dirty().isDirty(1));
        assertEquals(1, table.dirty().structuralCount());
        table.dirty().clear();
        assertFalse(table.dirty().anyDirty());
        assertFalse(table.dirty().isStructurallyDirty(), "clearing drops the structural flag");
        table.markDirty(1);
        assertFalse(table.dirty().isStructurallyDirty(), "a value write is not a structural change");
        assertFalse(table.dirty().isDirty(0));
        assertTrue(table.dirty().isDirty(1));
        assertEquals(1, table.dirty().writeCount(1));
        table.dirty().markAllDirty();
        assertTrue(table.dirty().isDirty(0));
        assertEquals(2, table.dirty().writeCount(1));
        assertEquals(1, table.dirty().structuralCount());
    }


    @Test
    void manyComponentsUseSeveralDirtyWords() {
        Component<?>[] tags = new Component<?>[70];
        for (int i = 0; i < tags.length; i++) {
            tags[i] = Components.tag("test.table.Wide" + i);
        }
        Table table = new Table(3, TableTest.sortedOf(tags), memory);
        table.markDirty(69);
        assertTrue(table.dirty().isDirty(69));
        assertFalse(table.dirty().isDirty(5));
        assertFalse(table.dirty().isDirty(64));
        assertFalse(table.dirty().isDirty(68));
    }

    /**
     * Bits, write counts and tracked columns share one array: with 70 components (two words each way) every
     * position keeps its own bit, count and tracking, whatever is marked around it.
     */
    @Test
    void bitsCountsAndTrackingStayApartAcrossWords() {
        Component<?>[] tags = new Component<?>[70];
        for (int i = 0; i < tags.length; i++) {
            tags[i] = Components.tag("test.table.Packed" + i);
        }
        Table table = new Table(4, TableTest.sortedOf(tags), memory);
        DirtyState dirty = table.dirty();
        dirty.trackValueCount(0);
        dirty.trackValueCount(69);
        int[] marked = {0, 1, 63, 64, 69, 69};
        for (int position : marked) {
            dirty.markDirty(position);
        }
        for (int p = 0; p < 70; p++) {
            int position = p;
            long expected = Arrays.stream(marked).filter(m -> m == position).count();
            assertEquals(expected, dirty.writeCount(p), "write count of " + p);
            assertEquals(expected > 0, dirty.isDirty(p), "bit of " + p);
        }
        assertEquals(3, dirty.valueCount(), "tracked 0 once and 69 twice; 1, 63 and 64 are not tracked");
        dirty.clear();
        assertFalse(dirty.anyDirty());
        assertEquals(2, dirty.writeCount(69), "counts survive clearing");
        dirty.markDirty(69);
        assertEquals(4, dirty.valueCount(), "tracking survives clearing");
    }

    @Test
    void positionsOutsideTheSignatureAreRefusedAndChangeNothing() {
        Table table = table(VEC, COUNT);
        DirtyState dirty = table.dirty();
        dirty.trackValueCount(1);
        for (int bad : new int[] {-1, 2, 3, 64}) {
            assertThrows(IndexOutOfBoundsException.class, () -> dirty.markDirty(bad), "mark " + bad);
            assertThrows(IndexOutOfBoundsException.class, () -> dirty.trackValueCount(bad), "track " + bad);
            assertThrows(IndexOutOfBoundsException.class, () -> dirty.writeCount(bad), "count " + bad);
            assertThrows(IndexOutOfBoundsException.class, () -> dirty.isDirty(bad), "bit " + bad);
        }
        assertEquals(0, dirty.writeCount(0));
        assertEquals(0, dirty.writeCount(1));
        assertEquals(0, dirty.valueCount());
        dirty.markDirty(0);
        assertEquals(0, dirty.valueCount(), "position 0 was never tracked, whatever the refused calls hit");
    }


    @Test
    void touchedRowsPastTheEndAreDroppedWhenTheTableShrinks() {
        Table table = table(FLAG);
        int first = table.appendRows(10);
        table.writeConsecutiveEntities(first, 10, 1);
        table.dirty().clear();
        table.swapRemove(2);
        table.swapRemove(5);
        assertArrayEquals(new int[] {2, 5}, table.dirty().structuralTouched());
        int[] into = new int[DirtyState.TOUCHED_LIMIT];
        assertEquals(2, table.dirty().structuralTouched(into));
        assertArrayEquals(new int[] {2, 5}, java.util.Arrays.copyOf(into, 2), "the same rows, into the caller's array");
        table.truncate(4);
        assertArrayEquals(new int[] {2}, table.dirty().structuralTouched(), "row 5 no longer exists");
        table.truncate(0);
        assertArrayEquals(new int[0], table.dirty().structuralTouched());
        assertEquals(0, table.dirty().structuralAdded());
    }

    @Test
    void residueOverflowsAfterSixtyFourDistinctRowsAndRepeatsDoNotCount() {
        Table table = table(FLAG);
        int first = table.appendRows(1000);
        table.writeConsecutiveEntities(first, 1000, 1);
        table.dirty().clear();
        long seen = table.dirty().structuralCount();
        for (int i = 0; i < 200; i++) {
            table.swapRemove(5); // the same hole, refilled from the end each time
        }
        assertArrayEquals(new int[] {5}, table.dirty().structuralTouched());
        assertTrue(table.dirty().structuralDescribed(seen), "one row, however often");
        for (int row = 10; row < 10 + 63; row++) {
            table.swapRemove(row);
        }
        assertEquals(64, table.dirty().structuralTouched().length);
        assertTrue(table.dirty().structuralDescribed(seen));
        table.swapRemove(100);
        assertFalse(table.dirty().structuralDescribed(seen), "the 65th distinct row is beyond the bound");
        table.dirty().clear();
        assertTrue(table.dirty().structuralDescribed(table.dirty().structuralCount()));
        assertArrayEquals(new int[0], table.dirty().structuralTouched());
    }

    @Test
    void rowsTruncatedAwayFreeRoomInTheResidue() {
        Table table = table(FLAG);
        int first = table.appendRows(300);
        table.writeConsecutiveEntities(first, 300, 1);
        table.dirty().clear();
        long seen = table.dirty().structuralCount();
        for (int row = 100; row < 164; row++) {
            table.swapRemove(row); // 64 distinct rows: the bound is reached
        }
        table.truncate(100);         // every one of them is gone
        table.swapRemove(7);         // so this one fits
        assertArrayEquals(new int[] {7}, table.dirty().structuralTouched());
        assertTrue(table.dirty().structuralDescribed(seen));
    }

    @Test
    void rowsAppendedAfterAClearStartAtTheCountOfTheClearAndTheirOverwritesAreNotTouches() {
        Table table = table(FLAG);
        int first = table.appendRows(5);
        table.writeConsecutiveEntities(first, 5, 1);
        table.dirty().clear();
        assertEquals(5, table.dirty().structuralAdded());
        table.appendRow(dev.jtecs.entity.Entity.pack(20, 0));
        table.appendRow(dev.jtecs.entity.Entity.pack(21, 0));
        table.appendRow(dev.jtecs.entity.Entity.pack(22, 0));
        assertEquals(5, table.dirty().structuralAdded(), "later appends do not move the start");
        table.swapRemove(5); // the first appended row: new anyway, not a touch
        assertArrayEquals(new int[0], table.dirty().structuralTouched());
        assertEquals(5, table.dirty().structuralAdded());
        table.swapRemove(1);
        assertArrayEquals(new int[] {1}, table.dirty().structuralTouched());
    }

    @Test
    void aPreparedRemovalRecordsItsOverwriteWithoutAllocating() {
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        Table table = table(FLAG);
        int first = table.appendRows(200);
        table.writeConsecutiveEntities(first, 200, 1);
        table.dirty().clear();
        table.prepareRowRemoval();
        long before = threads.getCurrentThreadAllocatedBytes();
        table.swapRemove(3); // the residue's first touched row: its set starts without room
        assertEquals(0, threads.getCurrentThreadAllocatedBytes() - before, "one prepared removal");
        table.prepareRowRemovals(40);
        before = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < 40; i++) {
            table.swapRemoveDeferringValues(10 + 2 * i);
        }
        assertEquals(0, threads.getCurrentThreadAllocatedBytes() - before, "forty prepared removals");
        assertEquals(41, table.dirty().structuralTouched().length);
    }

    /** Marking {@code n} structural changes at once counts as many, as {@code n} single marks would. */
    @Test
    void severalStructuralChangesMarkedAtOnceCountAsMany() {
        Table table = table(VEC, COUNT);
        table.dirty().markStructural(5);
        assertTrue(table.dirty().isStructurallyDirty());
        assertEquals(5, table.dirty().structuralCount());
        table.dirty().markStructural();
        assertEquals(6, table.dirty().structuralCount());
    }

}
