package dev.jtecs.bench.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.component.Relationship;
import dev.jtecs.world.World;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Both {@code cascade_delete} variants delete the whole N-entity tree from its root, and the untimed rebuild
 * gives each its tree back, so repeated operations do the same work.
 */
class CascadeDeleteBenchmarkTest {
    private static final int N = 300;

    @ParameterizedTest
    @CsvSource({"4, dense", "32, dense", "4, sparse", "32, sparse"})
    void bothVariantsDeleteTheWholeTreeAndAreRebuilt(int fanOut, String storage) {
        CascadeDeleteBenchmark bench = new CascadeDeleteBenchmark();
        bench.entities = N;
        bench.fanOut = fanOut;
        bench.storage = storage;
        Relationship parentOf = Forest.parentOf(storage);
        bench.setUp(EngineUnderTest.ALL);
        try {
            for (int round = 0; round < 3; round++) {
                bench.rebuild();
                World world = bench.world;
                assertEquals(N, world.entityCount(), "jtecs before operation " + round);
                assertEquals(N, bench.plainAliveCount, "plain before operation " + round);
                assertEquals(fanOut, world.relationshipSources(parentOf, bench.root).length);
                long[] deepest = world.relationshipSources(parentOf,
                        world.relationshipSources(parentOf, bench.root)[0]);
                assertTrue(deepest.length > 0, "the tree is more than two levels deep");

                bench.jtecs();
                assertEquals(0, world.entityCount(), "jtecs after operation " + round);
                assertFalse(world.isAlive(bench.root));
                assertFalse(world.isAlive(deepest[0]), "the cascade reached the third level");

                assertEquals(0, bench.plainRecursive(), "plain after operation " + round);
                for (int node = 0; node < N; node++) {
                    assertFalse(bench.plainAlive(node), "plain node " + node);
                }
            }
        } finally {
            bench.tearDown();
        }
    }
}
