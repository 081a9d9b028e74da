package dev.jtecs.bench.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.function.ToDoubleFunction;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every {@code iterate_read} implementation returns the same sum for 1, 2 and 3 components. The start values are
 * small integers whose sums stay below 2^24, so every summation order gives the exact result.
 */
class IterateReadBenchmarkTest {
    private static final int N = 1000;

    private static double expected(int components) {
        double sum = 0;
        for (int i = 0; i < N; i++) {
            sum += PeerWorlds.x0(i);
            if (components > 1) {
                sum += PeerWorlds.vx0(i);
            }
            if (components > 2) {
                sum += 1; // mass
            }
        }
        return sum;
    }

    private static double run(String method, int components, ToDoubleFunction<IterateReadBenchmark> operation) {
        IterateReadBenchmark bench = new IterateReadBenchmark();
        bench.entities = N;
        bench.components = components;
        bench.setUp(method);
        try {
            operation.applyAsDouble(bench); // twice: an operation must not depend on the one before
            return operation.applyAsDouble(bench);
        } finally {
            bench.tearDown();
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3})
    void everyImplementationReturnsTheSameSum(int components) {
        double expected = expected(components);
        assertEquals(expected, run("jtecs", components, IterateReadBenchmark::jtecs), "jtecs");
        assertEquals(expected, run("jtecsScalar", components, IterateReadBenchmark::jtecsScalar), "jtecsScalar");
        assertEquals(expected, run("plainArray", components, IterateReadBenchmark::plainArray), "plainArray");
        assertEquals(expected, run("dominion", components, IterateReadBenchmark::dominion), "dominion");
        assertEquals(expected, run("artemis", components, IterateReadBenchmark::artemis), "artemis");
        assertEquals(expected, run("ashley", components, IterateReadBenchmark::ashley), "ashley");
    }
}
