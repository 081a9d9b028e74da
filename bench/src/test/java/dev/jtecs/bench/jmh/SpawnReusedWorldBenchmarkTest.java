package dev.jtecs.bench.jmh;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.jtecs.bench.jmh.SpawnBatchBenchmarkTest.Census;
import org.junit.jupiter.api.Test;

/**
 * Both engines of {@link SpawnReusedWorldBenchmark} create the same N entities in every operation, into a world
 * that each emptying leaves with nothing in it.
 */
class SpawnReusedWorldBenchmarkTest {
    private static final int N = 700;

    /**
     * Both worlds hold exactly the entities one spawn_single operation of {@code n} makes: Position (i, -i) and
     * Velocity (1, 2) each.
     */
    static void assertSpawned(int n, dev.jtecs.world.World jtecs, com.artemis.World artemis, String label) {
        float[] x = new float[n];
        float[] y = new float[n];
        for (int i = 0; i < n; i++) {
            x[i] = i;
            y[i] = -i;
        }
        long[] positions = Positions.of(x, y);
        Census census = new Census(n, n * 3.0);
        assertArrayEquals(positions, Positions.of(jtecs), "jtecs positions, " + label);
        assertEquals(census, SpawnBatchBenchmarkTest.census(jtecs), "jtecs, " + label);
        assertArrayEquals(positions, Positions.of(artemis), "artemis positions, " + label);
        assertEquals(census, SpawnBatchBenchmarkTest.census(artemis), "artemis, " + label);
    }

    @Test
    void everyOperationFindsAnEmptyWorldAndLeavesTheSameEntities() {
        SpawnReusedWorldBenchmark bench = new SpawnReusedWorldBenchmark();
        bench.entities = N;
        bench.createWorlds(EngineUnderTest.ALL);
        try {
            for (int operation = 0; operation < 3; operation++) {
                bench.empty();
                assertEquals(0, bench.world.entityCount(), "jtecs empty before operation " + operation);
                assertEquals(0, SpawnBatchBenchmarkTest.census(bench.artemis).count(),
                        "artemis empty before operation " + operation);
                bench.jtecsTyped();
                bench.artemis();
                assertSpawned(N, bench.world, bench.artemis, "operation " + operation);
            }
        } finally {
            bench.closeWorlds();
        }
    }

    @Test
    void aTrialBuildsOnlyTheMeasuredEnginesWorld() {
        SpawnReusedWorldBenchmark bench = new SpawnReusedWorldBenchmark();
        bench.entities = N;
        bench.createWorlds("jtecsTyped");
        try {
            assertNull(bench.artemis, "no Artemis-odb world beside jtecs");
            bench.empty();
            bench.jtecsTyped();
            assertEquals(N, bench.world.entityCount());
        } finally {
            bench.closeWorlds();
        }
        bench.createWorlds("artemis");
        try {
            assertNull(bench.world, "no jtecs world beside Artemis-odb");
            bench.empty();
            bench.artemis();
            assertEquals(N, SpawnBatchBenchmarkTest.census(bench.artemis).count());
        } finally {
            bench.closeWorlds();
        }
    }
}
