package dev.jtecs.snapshot.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class LoadScratchTest {
    @Test
    void cellsAreZeroOverWhatIsAskedAfterAnEarlierLoadWroteThem() {
        LoadScratch scratch = new LoadScratch();
        int[] first = scratch.cells(100);
        assertEquals(100, first.length);
        Arrays.fill(first, 7); // what a load recorded
        int[] same = scratch.cells(100);
        assertSame(first, same, "an ask of the array's own length reuses it: a repeated load allocates nothing");
        for (int i = 0; i < 100; i++) {
            assertEquals(0, same[i], "cell " + i);
        }
        Arrays.fill(first, 7); // what the repeated load recorded
        int[] smaller = scratch.cells(40);
        assertSame(first, smaller, "a smaller ask reuses the array");
        for (int i = 0; i < 100; i++) {
            assertEquals(0, smaller[i], "cell " + i + ": the last load's cells are cleared, not only the asked ones");
        }
        Arrays.fill(smaller, 0, 40, 3);
        smaller[70] = 9; // past the ask: the caller promised not to write there, so nothing clears it
        int[] again = scratch.cells(60);
        assertSame(first, again);
        for (int i = 0; i < 60; i++) {
            assertEquals(0, again[i], "cell " + i);
        }
        int[] larger = scratch.cells(250);
        assertNotSame(first, larger, "a larger ask allocates");
        assertEquals(250, larger.length);
        assertTrue(Arrays.stream(larger).allMatch(c -> c == 0));
    }

    @Test
    void theLayoutArraysAreReusedWhileLargeEnoughAndGrowWhenNot() {
        LoadScratch scratch = new LoadScratch();
        int[] slots = scratch.slots(10);
        int[] generations = scratch.generations(10);
        int[] positions = scratch.positions(10);
        int[] frameSlots = scratch.frameSlots(10);
        int[] frameRows = scratch.frameRows(10);
        assertSame(slots, scratch.slots(4));
        assertSame(generations, scratch.generations(10));
        assertSame(positions, scratch.positions(1));
        assertSame(frameSlots, scratch.frameSlots(9));
        assertSame(frameRows, scratch.frameRows(0));
        assertEquals(5 * 10 * 4, scratch.bytes());
        assertTrue(scratch.slots(11).length >= 11);
        assertTrue(scratch.generations(12).length >= 12);
        assertTrue(scratch.positions(13).length >= 13);
        assertTrue(scratch.frameSlots(14).length >= 14);
        assertTrue(scratch.frameRows(15).length >= 15);
        assertEquals(4 * (11 + 12 + 13 + 14 + 15), scratch.bytes());
    }

    @Test
    void releasingGivesEveryArrayBackAndTheNextAskStartsFromZero() {
        LoadScratch scratch = new LoadScratch();
        Arrays.fill(scratch.cells(64), 5);
        scratch.slots(8);
        scratch.frameRows(8);
        assertEquals(4 * (64 + 8 + 8), scratch.bytes());
        scratch.release();
        assertEquals(0, scratch.bytes());
        int[] cells = scratch.cells(32);
        assertEquals(32, cells.length);
        assertTrue(Arrays.stream(cells).allMatch(c -> c == 0));
    }
}
