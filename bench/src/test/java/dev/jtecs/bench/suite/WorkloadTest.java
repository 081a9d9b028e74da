package dev.jtecs.bench.suite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.bench.jmh.MoveWholeArchetypeBenchmark;
import dev.jtecs.bench.jmh.SparseDeltaBenchmark;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class WorkloadTest {
    private static final Map<String, String> MOVE_IMPLS =
            Map.of("jtecs", "jtecs", "dominion", "dominion", "artemis", "artemis", "ashley", "ashley");

    @Test
    void labelsNameEveryDimensionButTheEntityCount() {
        Workload move = Workload.of("move_whole_archetype", MoveWholeArchetypeBenchmark.class, MOVE_IMPLS);
        assertEquals("move_whole_archetype[destination=empty]",
                move.label(Map.of("entities", "1024", "destination", "empty")));
        assertEquals("move_whole_archetype", move.label(Map.of("entities", "1024")));
        assertEquals(List.of("destination", "entities"), move.paramNames());
    }

    @Test
    void theThreadsParameterIsNotPartOfTheLabel() {
        Workload parallel = Workload.of("integrate_parallel", dev.jtecs.bench.jmh.ParallelIntegrateBenchmark.class,
                Map.of("jtecs", "jtecs"));
        assertEquals("integrate_parallel", parallel.label(Map.of("entities", "4194304", "threads", "2")));
    }

    @Test
    void overridesBeatQuickValuesWhichBeatDeclaredOnes() {
        Workload move = Workload.of("move_whole_archetype", MoveWholeArchetypeBenchmark.class, MOVE_IMPLS)
                .quick("entities", "1024");
        assertEquals(Map.of("destination", List.of("empty", "populated"), "entities", List.of("1024", "1048576")),
                move.effectiveParams(false, Map.of()));
        assertEquals(Map.of("destination", List.of("empty", "populated"), "entities", List.of("1024")),
                move.effectiveParams(true, Map.of()));
        Map<String, List<String>> params = move.effectiveParams(true, Map.of("destination", List.of("empty"),
                "components", List.of("2")));
        assertEquals(Map.of("destination", List.of("empty"), "entities", List.of("1024")), params);
        assertEquals(4, move.benchmarkCount(params), "4 engines x 1 x 1");
        assertEquals(16, move.benchmarkCount(move.effectiveParams(false, Map.of())), "4 engines x 2 x 2");
    }

    @Test
    void theEstimateChargesEachSizeItsOwnForkCost() {
        Workload move = Workload.of("move_whole_archetype", MoveWholeArchetypeBenchmark.class, MOVE_IMPLS);
        Map<String, List<String>> params = move.effectiveParams(false, Map.of()); // 2 destinations x 2 sizes
        java.time.Duration expected = Profile.QUICK.estimate(8, 1024, 2).plus(Profile.QUICK.estimate(8, 1048576, 2));
        assertEquals(expected, move.estimate(Profile.QUICK, params, 2));
        assertTrue(Profile.QUICK.estimate(8, 1048576, 2).compareTo(Profile.QUICK.estimate(8, 1024, 2)) > 0);
    }

    @Test
    void theIncludePatternSelectsOnlyItsOwnClass() {
        Workload move = Workload.of("move_whole_archetype", MoveWholeArchetypeBenchmark.class, MOVE_IMPLS);
        Pattern include = Pattern.compile(move.includePattern());
        assertTrue(include.matcher(MoveWholeArchetypeBenchmark.class.getName() + ".jtecs").find());
        assertFalse(include.matcher(MoveWholeArchetypeBenchmark.class.getName() + "Extra.jtecs").find());
        assertFalse(include.matcher("x" + MoveWholeArchetypeBenchmark.class.getName() + ".jtecs").find());
    }

    @Test
    void refusesAMappingThatMissesOrInventsAMethod() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Workload.of("sparse_delta",
                SparseDeltaBenchmark.class, Map.of("jtecs", "jtecs")));
        assertTrue(e.getMessage().contains("[jtecs, jtecsFullRescan] but impls maps [jtecs]"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Workload.of("sparse_delta", SparseDeltaBenchmark.class,
                Map.of("jtecs", "jtecs", "jtecsFullRescan", "jtecs-full-rescan", "other", "jtecs-other")));
        assertTrue(e.getMessage().contains("impls maps [jtecs, jtecsFullRescan, other]"), e.getMessage());
    }

    @Test
    void refusesSharedOrInvalidImplsBadNamesAndUnknownParameters() {
        assertRefused(() -> Workload.of("sparse_delta", SparseDeltaBenchmark.class,
                Map.of("jtecs", "jtecs", "jtecsFullRescan", "jtecs")), "two methods share an impl");
        assertRefused(() -> Workload.of("sparse_delta", SparseDeltaBenchmark.class,
                Map.of("jtecs", "jtecs", "jtecsFullRescan", "rescan")), "impl='rescan'");
        assertRefused(() -> Workload.of("Sparse-Delta", SparseDeltaBenchmark.class,
                Map.of("jtecs", "jtecs", "jtecsFullRescan", "jtecs-full-rescan")), "name='Sparse-Delta'");
        Map<String, String> impls = Map.of("jtecs", "jtecs", "jtecsFullRescan", "jtecs-full-rescan");
        assertRefused(() -> new Workload("sparse_delta", SparseDeltaBenchmark.class, impls, "dirtyArchetypez", false,
                Map.of()), "no int or long @Param named dirtyArchetypez");
        assertRefused(() -> Workload.of("sparse_delta", SparseDeltaBenchmark.class, impls).quick("frames", "1"),
                "quick parameter frames=[1]");
    }

    private static void assertRefused(org.junit.jupiter.api.function.Executable make, String message) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, make);
        assertTrue(e.getMessage().contains(message), e.getMessage());
    }
}
