package dev.jtecs.bench.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.jtecs.storage.Archetype;
import org.junit.jupiter.api.Test;

/** The frame of four parallel systems does its arithmetic, and the same on one and on two threads. */
class ParallelSystemsBenchmarkTest {
    private static double[] frames(int threads) {
        ParallelSystemsBenchmark bench = new ParallelSystemsBenchmark();
        bench.entities = 1_000;
        bench.threads = threads;
        bench.setUp();
        try {
            for (int i = 0; i < 3; i++) {
                bench.frame();
            }
            Archetype a = bench.world.findArchetypes(ParallelSystemsBenchmark.POS).get(0);
            return new double[] {a.get(ParallelSystemsBenchmark.POS).get(7), a.get(ParallelSystemsBenchmark.HEAT)
                    .get(7), a.get(ParallelSystemsBenchmark.ENERGY).get(7), a.get(ParallelSystemsBenchmark.AGE)
                    .get(999)};
        } finally {
            bench.tearDown();
        }
    }

    @Test
    void fourSystemsAdvanceEveryEntityAlikeOnOneAndTwoThreads() {
        double[] one = frames(1);
        assertEquals(3 * ParallelSystemsBenchmark.DT, one[0], 1e-12); // velocity 1
        assertEquals(100 * Math.pow(0.999, 3), one[1], 1e-9);
        assertEquals(3 * ParallelSystemsBenchmark.DT, one[2], 1e-12);
        assertEquals(3 * ParallelSystemsBenchmark.DT, one[3], 1e-12);
        assertEquals(java.util.Arrays.toString(one), java.util.Arrays.toString(frames(2)));
    }
}
