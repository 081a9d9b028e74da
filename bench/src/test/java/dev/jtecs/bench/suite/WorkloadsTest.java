package dev.jtecs.bench.suite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.bench.results.Impls;
import java.util.List;
import org.junit.jupiter.api.Test;

class WorkloadsTest {
    @Test
    void holdsTheWorkloadsOfTheTableInItsOrder() {
        assertEquals(List.of("integrate", "integrate_frag", "integrate_parallel", "iterate_read", "spawn_batch",
                "spawn_single", "add_remove_tag", "add_remove_tag_part", "move_whole_archetype", "despawn_batch",
                "particles", "transforms", "sparse_delta", "set_existing", "set_new", "remove", "despawn_single", "reparent",
                "snapshot_save", "snapshot_load"),
                Workloads.names());
    }

    @Test
    void everyWorkloadHasAJtecsRowAndKernelWorkloadsTheirScalarTwinAndBaselines() {
        for (Workload w : Workloads.ALL) {
            assertTrue(w.impls().containsValue(Impls.JTECS), w.name());
        }
        for (String kernelWorkload : List.of("integrate", "integrate_frag", "iterate_read")) {
            Workload w = Workloads.find(kernelWorkload).orElseThrow();
            assertTrue(w.impls().values().containsAll(List.of(Impls.JTECS_SCALAR, Impls.PLAIN_ARRAY, Impls.DOMINION,
                    Impls.ARTEMIS, Impls.ASHLEY)), w.name() + " " + w.impls());
        }
        assertTrue(Workloads.find("integrate").orElseThrow().impls().containsValue(Impls.PLAIN_SEGMENT_VECTOR));
    }

    @Test
    void everyPerEntityWorkloadMeasuresBothJtecsPaths() {
        for (String name : List.of("spawn_single", "add_remove_tag", "add_remove_tag_part", "set_existing",
                "set_new", "remove", "despawn_single", "reparent")) {
            Workload w = Workloads.find(name).orElseThrow();
            assertEquals(Impls.JTECS, w.impls().get("jtecs"), name);
            assertEquals(Impls.JTECS_INSTANT, w.impls().get("jtecsInstant"), name);
        }
        for (String name : List.of("spawn_single", "add_remove_tag", "add_remove_tag_part", "set_existing",
                "set_new", "remove", "despawn_single")) {
            assertTrue(Workloads.find(name).orElseThrow().impls().values().containsAll(List.of(Impls.DOMINION,
                    Impls.ARTEMIS, Impls.ASHLEY)), name);
        }
        assertEquals(List.of(Impls.JTECS, Impls.JTECS_INSTANT, "jtecs-target", "jtecs-target-instant",
                Impls.PLAIN_ARRAY), List.copyOf(Workloads.find("reparent").orElseThrow().impls().values()),
                "no peer has relationships");
    }

    @Test
    void selectsFromAnotherRegistry() {
        assertEquals(List.of(FailingBenchmark.WORKLOAD),
                Workloads.select(List.of(FailingBenchmark.WORKLOAD), List.of("failing_probe")));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Workloads.select(List.of(FailingBenchmark.WORKLOAD), List.of("integrate")));
        assertEquals("unknown workload integrate; known: failing_probe", e.getMessage());
    }

    @Test
    void perFrameWorkloadsAreMarked() {
        assertEquals(List.of("particles", "transforms", "sparse_delta"),
                Workloads.ALL.stream().filter(Workload::perFrame).map(Workload::name).toList());
    }

    @Test
    void selectsInRegistryOrderAndAllWhenNoneNamed() {
        assertEquals(Workloads.ALL, Workloads.select(List.of()));
        assertEquals(List.of("integrate", "sparse_delta"), Workloads.select(List.of("sparse_delta", "integrate",
                "sparse_delta")).stream().map(Workload::name).toList());
    }

    @Test
    void refusesUnknownNamesNamingEachAndTheKnownOnes() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Workloads.select(List.of("integrate", "intergrate", "bogus")));
        assertTrue(e.getMessage().startsWith("unknown workloads intergrate, bogus; known: integrate, "),
                e.getMessage());
    }

    @Test
    void quickKeepsBothDefaultSizesEverywhere() {
        for (Workload w : Workloads.ALL) {
            List<String> sizes = w.effectiveParams(true, java.util.Map.of()).get("entities");
            assertTrue(sizes.size() >= 1, w.name());
            if (w.defaultValues("entities").containsAll(List.of("16384", "1048576"))) {
                assertTrue(sizes.containsAll(List.of("16384", "1048576")), w.name() + " " + sizes);
            }
        }
    }
}
