package dev.jtecs.bench.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The plain frame split over threads is the one-thread frame, row for row: the same columns and output in the
 * same rows after every frame, for every thread count, with particles expiring and respawning.
 */
class PlainArrayFusedParticlesTest {
    @Test
    void everyThreadCountKeepsTheOneThreadRowsFrameAfterFrame() {
        int entities = 3000; // not a multiple of 64: the last range is short, and with 7 threads some are empty
        try (PlainArrayFusedParticles one = new PlainArrayFusedParticles(entities, 7);
                PlainArrayFusedParticles two = new PlainArrayFusedParticles(entities, 7, 2);
                PlainArrayFusedParticles seven = new PlainArrayFusedParticles(entities, 7, 7)) {
            for (int frame = 1; frame <= 160; frame++) {
                one.frame();
                two.frame();
                seven.frame();
                assertTrue(two.sameRowsAs(one), "two threads, frame " + frame);
                assertTrue(seven.sameRowsAs(one), "seven threads, frame " + frame);
                assertEquals(one.expired(), two.expired());
                assertEquals(one.extractedBytes(), seven.extractedBytes());
            }
            assertTrue(one.expired() > entities, "more than one generation expired: " + one.expired());
            assertTrue(two.outputMirrorsState());
        }
    }

    @Test
    void aThreadCountBelowOneIsRefused() {
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> new PlainArrayFusedParticles(10, 1, 0));
        assertEquals("threads=0 must be at least 1", e.getMessage());
    }
}
