package dev.jtecs.bench.jmh;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.jtecs.builtin.ChildOf;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * Every {@code reparent} implementation moves child i from its home parent h = i / 16 to (h + 1) mod P, and the
 * next operation moves it back, so repeated operations do the same work; jtecs keeps its positions and its
 * reverse index on both paths.
 */
class ReparentBenchmarkTest {
    private static final int N = 16 * 20 + 5; // 21 parents, the last with 5 children

    @Test
    void everyJtecsFormMovesEveryChildToTheNextParentAndBack() {
        check("jtecs", ReparentBenchmark::jtecs);
        check("jtecsInstant", ReparentBenchmark::jtecsInstant);
        check("jtecsTarget", ReparentBenchmark::jtecsTarget);
        check("jtecsTargetInstant", ReparentBenchmark::jtecsTargetInstant);
    }

    @Test
    void thePlainArrayWritesTheSameParentIndices() {
        ReparentBenchmark bench = new ReparentBenchmark();
        bench.entities = N;
        bench.setUp("plainArray");
        assertNull(bench.world, "the baseline builds no world");
        assertArrayEquals(expected(bench.parents, 0), bench.parentOf);
        for (int round = 0; round < 2; round++) {
            bench.plainArray();
            assertArrayEquals(expected(bench.parents, 1), bench.parentOf, "round " + round);
            bench.plainArray();
            assertArrayEquals(expected(bench.parents, 0), bench.parentOf, "round " + round);
        }
    }

    @Test
    void refusesTooFewChildrenForTwoParents() {
        ReparentBenchmark bench = new ReparentBenchmark();
        bench.entities = 16;
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> bench.setUp("jtecs"));
        assertEquals("reparent needs at least 17 children (two parents), got entities=16", e.getMessage());
    }

    private static void check(String method, Consumer<ReparentBenchmark> operation) {
        ReparentBenchmark bench = new ReparentBenchmark();
        bench.entities = N;
        bench.setUp(method);
        try {
            assertEquals(21, bench.parents);
            assertNull(bench.parentOf, "only the measured engine");
            long[] positions = Positions.of(bench.world);
            assertEquals(N + bench.parents, positions.length);
            assertParents(bench, 0, method + " at the start");
            for (int round = 0; round < 2; round++) {
                operation.accept(bench);
                assertParents(bench, 1, method + " after the first, round " + round);
                assertArrayEquals(positions, Positions.of(bench.world), method + " positions");
                operation.accept(bench);
                assertParents(bench, 0, method + " after the second, round " + round);
            }
            assertEquals(0, bench.world.scopeDepth(), method);
        } finally {
            bench.tearDown();
        }
    }

    /** Every child's parent, and every parent's children through the reverse index, for shift {@code s}. */
    private static void assertParents(ReparentBenchmark bench, int s, String when) {
        int[] expected = expected(bench.parents, s);
        int[] children = new int[bench.parents];
        for (int i = 0; i < N; i++) {
            assertEquals(bench.parentIds[expected[i]],
                    bench.world.get(bench.children[i], ChildOf.COMPONENT).target(), when + ": child " + i);
            children[expected[i]]++;
        }
        for (int p = 0; p < bench.parents; p++) {
            assertEquals(children[p], bench.world.relationshipSources(ChildOf.COMPONENT, bench.parentIds[p]).length,
                    when + ": children of parent " + p);
        }
    }

    /** Child i's parent index with shift {@code s}: (i / 16 + s) mod P. */
    private static int[] expected(int parents, int s) {
        int[] parentOf = new int[N];
        for (int i = 0; i < N; i++) {
            parentOf[i] = (i / ReparentBenchmark.CHILDREN_PER_PARENT + s) % parents;
        }
        return parentOf;
    }
}
