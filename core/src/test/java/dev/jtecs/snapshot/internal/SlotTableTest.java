package dev.jtecs.snapshot.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The reader's slot bookkeeping: its size follows the slots named, its answers do not depend on its form. */
class SlotTableTest {
    @Test
    void aWholeWorldIsHeldDirectlyAndAFewSlotsOfAHugeOneAreHashed() {
        SlotTable whole = new SlotTable(100_001, 100_000);
        assertTrue(whole.isDirect());
        SlotTable few = new SlotTable(4_000_000, 3);
        assertFalse(few.isDirect());
        assertEquals(8, few.cells(), "twice the named slots, rounded up to a power of two");
        SlotTable none = new SlotTable(Integer.MAX_VALUE, 0);
        assertTrue(none.cells() <= 4, "nothing named, nothing held: " + none.cells());
        assertTrue(new SlotTable(900, 0).isDirect(), "a small world is one small array");
    }

    @Test
    void bothFormsAnswerAlike() {
        for (SlotTable table : new SlotTable[] {new SlotTable(64, 40), new SlotTable(1 << 24, 40)}) {
            for (int i = 0; i < 40; i++) {
                int slot = table.isDirect() ? 63 - i : (i * 409_891) % ((1 << 24) - 1) + 1;
                assertTrue(table.add(slot, i), "slot " + slot);
                assertFalse(table.add(slot, 99), "a slot is recorded once");
                assertEquals(i, table.generation(slot));
            }
            assertEquals(40, table.size());
            assertEquals(SlotTable.ABSENT, table.generation(table.isDirect() ? 1 : 2));
            assertFalse(table.contains(0));
            assertFalse(table.contains(-5));
            assertFalse(table.contains(Integer.MAX_VALUE));
            int[] slots = table.slots();
            assertEquals(40, slots.length);
            int[] sorted = slots.clone();
            java.util.Arrays.sort(sorted);
            assertArrayEquals(sorted, slots, "ascending");
            for (int slot : slots) {
                assertTrue(table.contains(slot));
            }
        }
    }

    @Test
    void slotsOutsideTheRangeOrPastTheSizingAreRefused() {
        SlotTable hashed = new SlotTable(1 << 24, 2);
        assertThrows(IllegalStateException.class, () -> hashed.add(0, 0));
        assertThrows(IllegalStateException.class, () -> hashed.add(1 << 24, 0));
        hashed.add(5, 0);
        hashed.add(6, 0);
        assertThrows(IllegalStateException.class, () -> hashed.add(7, 0), "sized for two");
        assertThrows(IllegalArgumentException.class, () -> new SlotTable(10, -1));
    }
}
