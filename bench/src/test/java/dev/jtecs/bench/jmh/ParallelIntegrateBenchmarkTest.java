package dev.jtecs.bench.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.jtecs.bench.particles.Particles;
import dev.jtecs.component.FloatField;
import dev.jtecs.storage.Archetype;
import java.lang.foreign.MemorySegment;
import java.util.function.ToIntFunction;
import org.junit.jupiter.api.Test;

/**
 * The parallel pass ({@code threads} 2 and 3) computes what the single-threaded one ({@code threads = 1})
 * computes: after the same number of passes, both worlds hold the same position bytes (padding included), with the
 * entity count split into several chunks.
 */
class ParallelIntegrateBenchmarkTest {
    private static final int N = 200_003; // 200,003 rows: several chunks and a tail

    private static ParallelIntegrateBenchmark bench(int threads) {
        ParallelIntegrateBenchmark bench = new ParallelIntegrateBenchmark();
        bench.entities = N;
        bench.threads = threads;
        bench.setUp();
        return bench;
    }

    private static Archetype movers(ParallelIntegrateBenchmark bench) {
        return bench.movers.archetypes().get(0);
    }

    @Test
    void theParallelPassLeavesTheBytesOfTheSingleThreadedOne() {
        for (int threads = 2; threads <= 3; threads++) {
            ParallelIntegrateBenchmark reference = bench(1);
            ParallelIntegrateBenchmark parallel = bench(threads);
            try {
                assertEquals(N, movers(parallel).count());
                run(reference, ParallelIntegrateBenchmark::jtecs);
                run(parallel, ParallelIntegrateBenchmark::jtecs);
                for (FloatField field : new FloatField[] {Particles.X, Particles.Y}) {
                    MemorySegment expected = movers(reference).get(field).segment();
                    MemorySegment actual = movers(parallel).get(field).segment();
                    assertEquals(-1, expected.mismatch(actual), "threads=" + threads + " " + field.name());
                }
                // x = i + 3 * (1 + (i & 7)) * dt for the last row, as the setup wrote it
                int last = N - 1;
                float x = last;
                for (int pass = 0; pass < 3; pass++) {
                    x += (1 + (last & 7)) * ParallelIntegrateBenchmark.DT;
                }
                assertEquals(x, movers(parallel).get(Particles.X).get(last));
            } finally {
                reference.tearDown();
                parallel.tearDown();
            }
        }
    }

    private static void run(ParallelIntegrateBenchmark bench, ToIntFunction<ParallelIntegrateBenchmark> pass) {
        for (int i = 0; i < 3; i++) {
            assertEquals(1, pass.applyAsInt(bench), "one archetype marked");
        }
    }
}
