package dev.jtecs.bench.jmh;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.Arrays;
import java.util.function.Consumer;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** Every {@code integrate_frag} implementation moves the same entities to the same positions, bit for bit. */
class IntegrateFragBenchmarkTest {
    private static final int N = 1000; // not a multiple of any lane count: kernels run into their padding
    private static final int STEPS = 3;

    private static long[] run(String method, Consumer<IntegrateFragBenchmark> step,
            Function<IntegrateFragBenchmark, long[]> positions) {
        IntegrateFragBenchmark bench = new IntegrateFragBenchmark();
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
        long[] expected = IntegrateBenchmarkTest.expected(N, STEPS, IntegrateFragBenchmark.DT);
        long[] start = IntegrateBenchmarkTest.expected(N, 0, IntegrateFragBenchmark.DT);
        assertFalse(Arrays.equals(expected, start), "the steps move entities");
        assertArrayEquals(expected, run("jtecs", IntegrateFragBenchmark::jtecs, b -> Positions.of(b.world)),
                "jtecs");
        assertArrayEquals(expected, run("jtecsScalar", IntegrateFragBenchmark::jtecsScalar,
                b -> Positions.of(b.world)), "jtecsScalar");
        assertArrayEquals(expected, run("plainArray", IntegrateFragBenchmark::plainArray,
                b -> Positions.of(b.plain.x, b.plain.y)), "plainArray");
        assertArrayEquals(expected, run("plainSegmentVector", IntegrateFragBenchmark::plainSegmentVector,
                b -> Positions.of(b.plain.sx, b.plain.sy, N)), "plainSegmentVector");
        assertArrayEquals(expected, run("plainSegmentVectorPerArchetype",
                IntegrateFragBenchmark::plainSegmentVectorPerArchetype, b -> Positions.of(b.fragments)),
                "plainSegmentVectorPerArchetype");
        assertArrayEquals(expected, run("dominion", IntegrateFragBenchmark::dominion,
                b -> Positions.of(b.peers.dominion)), "dominion");
        assertArrayEquals(expected, run("artemis", IntegrateFragBenchmark::artemis,
                b -> Positions.of(b.peers.artemis)), "artemis");
        assertArrayEquals(expected, run("ashley", IntegrateFragBenchmark::ashley,
                b -> Positions.of(b.peers.ashley)), "ashley");
    }

    @Test
    void theJtecsPopulationSpansTwentySixArchetypes() {
        IntegrateFragBenchmark bench = new IntegrateFragBenchmark();
        bench.entities = N;
        bench.setUp("jtecs");
        try {
            assertEquals(IntegrateFragBenchmark.TAGS.length,
                    bench.world.findArchetypes(dev.jtecs.bench.particles.Particles.POSITION).size());
        } finally {
            bench.tearDown();
        }
    }

    @Test
    void thePerArchetypeBaselineKeepsTheJtecsGroups() {
        IntegrateFragBenchmark bench = new IntegrateFragBenchmark();
        bench.entities = N;
        bench.setUp("plainSegmentVectorPerArchetype");
        try {
            assertEquals(null, bench.plain, "only the fragments are built");
            assertEquals(IntegrateFragBenchmark.TAGS.length, bench.fragments.segments.length);
            int total = 0;
            for (int g = 0; g < bench.fragments.counts.length; g++) {
                assertEquals((N - g + 25) / 26, bench.fragments.counts[g], "group " + g + " holds i % 26 == g");
                total += bench.fragments.counts[g];
            }
            assertEquals(N, total);
        } finally {
            bench.tearDown();
        }
    }

    @Test
    void onlyTheMeasuredImplementationIsBuilt() {
        IntegrateFragBenchmark bench = new IntegrateFragBenchmark();
        bench.entities = N;
        bench.setUp("artemis");
        try {
            assertEquals(null, bench.world, "no jtecs world");
            assertEquals(null, bench.plain, "no plain columns");
            assertEquals(null, bench.fragments, "no fragmented plain columns");
            assertEquals(null, bench.peers.dominion, "no Dominion");
            assertEquals(null, bench.peers.ashley, "no Ashley");
            assertEquals(N, bench.peers.artemis.getAspectSubscriptionManager()
                    .get(com.artemis.Aspect.all()).getEntities().size(), "Artemis-odb holds the population");
        } finally {
            bench.tearDown();
        }
    }
}
