package dev.jtecs.relation.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.entity.internal.AllocationFaults;
import org.junit.jupiter.api.Test;

/** Per-slot marks forgotten by a new round without clearing, until the round counter wraps. */
class SlotStampsTest {

    @Test
    void aSlotIsMarkedOnceARoundAndUnmarkedInTheNext() {
        SlotStamps stamps = new SlotStamps();
        assertTrue(stamps.mark(3), "a slot never marked");
        assertFalse(stamps.mark(3), "marked in this round");
        assertTrue(stamps.mark(4), "its neighbour is not");
        stamps.nextRound();
        assertTrue(stamps.mark(3), "a new round forgets the marks of the last");
        assertFalse(stamps.mark(3));
        assertTrue(stamps.mark(4));
        assertTrue(stamps.mark(5), "a slot never marked counts as unmarked in every round");
    }

    @Test
    void theStampsGrowAtTheirFirstLengthToAnySlotAndKeepTheirMarks() {
        SlotStamps stamps = new SlotStamps();
        assertTrue(stamps.mark(63), "the last of the first 64 stamps");
        assertTrue(stamps.mark(64), "the slot just past them");
        assertFalse(stamps.mark(64));
        assertTrue(stamps.mark(100_000), "far past any doubling");
        assertFalse(stamps.mark(63), "a mark made before the growth is kept");
        assertFalse(stamps.mark(100_000));
        stamps.reserve(200_000);
        assertFalse(stamps.mark(100_000), "reserving keeps the marks too");
        assertTrue(stamps.mark(200_000));
    }

    @Test
    void aFailedGrowthChangesNothing() {
        SlotStamps stamps = new SlotStamps();
        assertTrue(stamps.mark(5));
        AllocationFaults.failAt(AllocationFaults.Kind.HEAP, 1);
        try {
            assertThrows(OutOfMemoryError.class, () -> stamps.reserve(1_000));
        } finally {
            AllocationFaults.disarm();
        }
        AllocationFaults.failAt(AllocationFaults.Kind.HEAP, 1);
        try {
            assertThrows(OutOfMemoryError.class, () -> stamps.mark(1_000));
        } finally {
            AllocationFaults.disarm();
        }
        assertFalse(stamps.mark(5), "the marks of the round are still there");
        assertTrue(stamps.mark(1_000), "the next growth works");
    }

    @Test
    void whenTheRoundCounterWrapsEveryStampIsForgotten() {
        SlotStamps stamps = new SlotStamps();
        assertTrue(stamps.mark(3)); // stamped with round 1
        assertTrue(stamps.mark(70)); // and past the first length
        stamps.round = Integer.MAX_VALUE - 1; // as after 2^31 - 3 rounds
        assertTrue(stamps.mark(4));
        stamps.nextRound(); // wraps to round 1 again
        assertEquals(1, stamps.round);
        assertTrue(stamps.mark(3), "a stamp of the first round 1 does not count in the new one");
        assertTrue(stamps.mark(70));
        assertTrue(stamps.mark(4), "nor one of the round before the wrap");
        assertFalse(stamps.mark(3));
    }
}
