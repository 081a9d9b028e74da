package dev.jtecs.world;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import org.junit.jupiter.api.Test;

class CompactResultTest {
    @Test
    void comparesByBothCounts() {
        assertEquals(new CompactResult(1, 2), new CompactResult(1, 2));
        assertNotEquals(new CompactResult(1, 2), new CompactResult(2, 1));
        assertEquals(2, new CompactResult(1, 2).rebuilt());
        assertEquals(1, new CompactResult(1, 2).pruned());
    }
}
