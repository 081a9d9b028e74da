package dev.jtecs.bench.jmh;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.Arrays;
import java.util.function.Consumer;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** Every {@code integrate} implementation moves the same entities to the same positions, bit for bit. */
class IntegrateBenchmarkTest {
    private static final int N = 1000; // not a multiple of any lane count: kernels run into their padding
    private static final int STEPS = 3;

    /** What the workload defines: {@code x += vx * dt} per step, in float, from the shared start values. */
    static long[] expected(int n, int steps, float dt) {
        float[] x = new float[n];
        float[] y = new float[n];
        for (int i = 0; i < n; i++) {
            x[i] = PeerWorlds.x0(i);
            y[i] = PeerWorlds.y0(i);
            for (int s = 0; s < steps; s++) {
                x[i] = x[i] + PeerWorlds.vx0(i) * dt;
                y[i] = y[i] + PeerWorlds.vy0(i) * dt;
            }
        }
        return Positions.of(x, y);
    }

    private static long[] run(String method, Consumer<IntegrateBenchmark> step,
            Function<IntegrateBenchmark, long[]> positions) {
        IntegrateBenchmark bench = new IntegrateBenchmark();
        bench.entities = N;
        bench.setUp(method);
        try {
            for (int s = 0; s < STEPS; s++) {
                step.accept(bench);
            }
            return positions.apply(bench);
        } finally {
            bench.tearDown();
        }
    }

    @Test
    void everyImplementationComputesTheSamePositions() {
        long[] expected = expected(N, STEPS, IntegrateBenchmark.DT);
        assertFalse(Arrays.equals(expected, expected(N, 0, IntegrateBenchmark.DT)), "the steps move entities");
        assertArrayEquals(expected, run("jtecs", IntegrateBenchmark::jtecs, b -> Positions.of(b.world)), "jtecs");
        assertArrayEquals(expected, run("jtecsScalar", IntegrateBenchmark::jtecsScalar,
                b -> Positions.of(b.world)), "jtecsScalar");
        assertArrayEquals(expected, run("plainArray", IntegrateBenchmark::plainArray,
                b -> Positions.of(b.plain.x, b.plain.y)), "plainArray");
        assertArrayEquals(expected, run("plainSegmentVector", IntegrateBenchmark::plainSegmentVector,
                b -> Positions.of(b.plain.sx, b.plain.sy, N)), "plainSegmentVector");
        assertArrayEquals(expected, run("dominion", IntegrateBenchmark::dominion,
                b -> Positions.of(b.peers.dominion)), "dominion");
        assertArrayEquals(expected, run("artemis", IntegrateBenchmark::artemis,
                b -> Positions.of(b.peers.artemis)), "artemis");
        assertArrayEquals(expected, run("ashley", IntegrateBenchmark::ashley,
                b -> Positions.of(b.peers.ashley)), "ashley");
    }

    @Test
    void onlyTheMeasuredImplementationIsBuilt() {
        IntegrateBenchmark bench = new IntegrateBenchmark();
        bench.entities = N;
        bench.setUp("artemis");
        try {
            assertEquals(null, bench.world, "no jtecs world");
            assertEquals(null, bench.plain, "no plain columns");
            assertEquals(null, bench.peers.dominion, "no Dominion");
            assertEquals(null, bench.peers.ashley, "no Ashley");
            assertEquals(N, bench.peers.artemis.getAspectSubscriptionManager()
                    .get(com.artemis.Aspect.all()).getEntities().size(), "Artemis-odb holds the population");
        } finally {
            bench.tearDown();
        }
    }
}
