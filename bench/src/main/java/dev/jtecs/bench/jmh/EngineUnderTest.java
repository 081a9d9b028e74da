package dev.jtecs.bench.jmh;

import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * Which engine a benchmark method measures, so that fixtures build only that engine's world: a million
 * entities held by an idle peer would burden the measured engine's garbage collections. By convention a
 * method's name starts with its engine's name ({@code jtecs...}, {@code dominion}, {@code artemis},
 * {@code ashley}); other methods (plain baselines) need no world.
 */
final class EngineUnderTest {
    /** Selects every engine (tests that compare them in one process). */
    static final String ALL = "all";

    private EngineUnderTest() {}

    /** The name of the running benchmark method, such as {@code jtecsBatchConstants}. */
    static String of(BenchmarkParams params) {
        String benchmark = params.getBenchmark();
        return benchmark.substring(benchmark.lastIndexOf('.') + 1);
    }

    /** Whether a fixture run for {@code selected} (a method name or {@link #ALL}) must build {@code engine}. */
    static boolean needs(String selected, String engine) {
        return selected.equals(ALL) || selected.startsWith(engine);
    }
}
