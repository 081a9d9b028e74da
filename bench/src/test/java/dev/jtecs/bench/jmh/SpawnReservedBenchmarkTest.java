package dev.jtecs.bench.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** Both engines of {@link SpawnReservedBenchmark} create the same N entities in a new, reserved world each time. */
class SpawnReservedBenchmarkTest {
    private static final int N = 700;

    @Test
    void everyOperationSpawnsTheSameEntitiesIntoANewReservedWorld() {
        SpawnReservedBenchmark bench = new SpawnReservedBenchmark();
        bench.entities = N;
        for (int operation = 0; operation < 3; operation++) {
            bench.createWorlds(EngineUnderTest.ALL);
            try {
                assertEquals(0, bench.world.entityCount(), "jtecs empty before operation " + operation);
                bench.jtecsTyped();
                bench.artemis();
                SpawnReusedWorldBenchmarkTest.assertSpawned(N, bench.world, bench.artemis, "operation " + operation);
            } finally {
                bench.closeWorlds();
            }
        }
    }

    @Test
    void anOperationBuildsOnlyTheMeasuredEnginesWorld() {
        SpawnReservedBenchmark bench = new SpawnReservedBenchmark();
        bench.entities = N;
        bench.createWorlds("jtecsTyped");
        try {
            assertNull(bench.artemis, "no Artemis-odb world beside jtecs");
            bench.jtecsTyped();
            assertEquals(N, bench.world.entityCount());
        } finally {
            bench.closeWorlds();
        }
        bench.createWorlds("artemis");
        try {
            assertNull(bench.world, "no jtecs world beside Artemis-odb");
            bench.artemis();
            assertEquals(N, SpawnBatchBenchmarkTest.census(bench.artemis).count());
        } finally {
            bench.closeWorlds();
        }
    }
}
