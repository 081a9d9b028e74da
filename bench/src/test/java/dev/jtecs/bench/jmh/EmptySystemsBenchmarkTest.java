package dev.jtecs.bench.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.function.ToIntFunction;
import org.junit.jupiter.api.Test;

/** Every {@code empty_systems} variant runs each of the systems exactly once per invocation. */
class EmptySystemsBenchmarkTest {
    @Test
    void everyVariantRunsEverySystemOnce() {
        EmptySystemsBenchmark bench = new EmptySystemsBenchmark();
        bench.setUp();
        try {
            check(bench, EmptySystemsBenchmark::frame);
            check(bench, EmptySystemsBenchmark::phase);
            check(bench, EmptySystemsBenchmark::phaseWithRunIf);
            check(bench, EmptySystemsBenchmark::directCalls);
            assertEquals(EmptySystemsBenchmark.SYSTEMS, bench.plain.listSystems().size());
        } finally {
            bench.tearDown();
        }
    }

    private static void check(EmptySystemsBenchmark bench, ToIntFunction<EmptySystemsBenchmark> variant) {
        int before = bench.runs;
        assertEquals(before + EmptySystemsBenchmark.SYSTEMS, variant.applyAsInt(bench));
    }
}
