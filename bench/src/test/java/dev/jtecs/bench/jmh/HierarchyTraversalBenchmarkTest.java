package dev.jtecs.bench.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.function.ToLongFunction;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The jtecs and plain-array variants of {@code hierarchy_traverse} visit every entity once with the same depths,
 * and those of {@code hierarchy_walk_up} report the same ancestors, operation after operation; the world holds
 * the forest the plain arrays describe.
 */
class HierarchyTraversalBenchmarkTest {
    private static final int N = 400; // 10 trees of 40
    private static final int TREES = N / HierarchyTraversalBenchmark.TREE_SIZE;

    @ParameterizedTest
    @ValueSource(strings = {"dense", "sparse"})
    void traverseVariantsVisitEveryEntityOnceAtTheSameDepths(String storage) {
        HierarchyTraversalBenchmark bench = setUp(storage);
        try {
            long depthSum = TREES * (3L * 1 + 9 * 2 + 27 * 3);
            check(bench, HierarchyTraversalBenchmark::jtecsTraverse, N, depthSum);
            check(bench, HierarchyTraversalBenchmark::plainTraverse, N, depthSum);
        } finally {
            bench.tearDown();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"dense", "sparse"})
    void walkUpVariantsReportTheSameAncestors(String storage) {
        HierarchyTraversalBenchmark bench = setUp(storage);
        try {
            long leaves = TREES * 27L;
            check(bench, HierarchyTraversalBenchmark::jtecsWalkUp, leaves * 3, leaves * (1 + 2 + 3));
            check(bench, HierarchyTraversalBenchmark::plainWalkUp, leaves * 3, leaves * (1 + 2 + 3));
        } finally {
            bench.tearDown();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"dense", "sparse"})
    void theWorldHoldsTheForestOfThePlainArrays(String storage) {
        HierarchyTraversalBenchmark bench = setUp(storage);
        try {
            assertEquals(N, bench.world.entityCount());
            Forest forest = bench.forest;
            long[] ids = new long[N];
            // Recover each node's id breadth first from the roots through the reverse index.
            int[] roots = forest.roots();
            long[] worldRoots = rootsOf(bench);
            assertEquals(java.util.Arrays.toString(bench.roots), java.util.Arrays.toString(worldRoots));
            for (int r = 0; r < roots.length; r++) {
                ids[roots[r]] = worldRoots[r];
            }
            for (int node = 0; node < N; node++) {
                long[] children = bench.world.relationshipSources(bench.parentOf, ids[node]);
                assertEquals(forest.childCount[node], children.length, "children of node " + node);
                for (int c = 0; c < children.length; c++) {
                    ids[forest.firstChild[node] + c] = children[c];
                    assertEquals(ids[node], bench.world.get(children[c], bench.parentOf).target());
                }
            }
        } finally {
            bench.tearDown();
        }
    }

    private static long[] rootsOf(HierarchyTraversalBenchmark bench) {
        long[] roots = new long[TREES];
        int[] n = {0};
        bench.world.forEachArchetype(archetype -> {
            if (!archetype.has(bench.parentOf)) {
                for (int row = 0; row < archetype.count(); row++) {
                    roots[n[0]++] = archetype.entity(row);
                }
            }
        });
        assertEquals(TREES, n[0], "entities without a parent");
        java.util.Arrays.sort(roots);
        return roots;
    }

    private static HierarchyTraversalBenchmark setUp(String storage) {
        HierarchyTraversalBenchmark bench = new HierarchyTraversalBenchmark();
        bench.entities = N;
        bench.storage = storage;
        bench.setUp(EngineUnderTest.ALL);
        return bench;
    }

    private static void check(HierarchyTraversalBenchmark bench, ToLongFunction<HierarchyTraversalBenchmark> op,
            long visits, long depthSum) {
        for (int round = 0; round < 3; round++) {
            assertEquals(depthSum, op.applyAsLong(bench), "depth sum, operation " + round);
            assertEquals(visits, bench.visits, "visits, operation " + round);
        }
    }
}
