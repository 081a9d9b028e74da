package dev.jtecs.bench.suite;

import static dev.jtecs.bench.results.Impls.ARTEMIS;
import static dev.jtecs.bench.results.Impls.ASHLEY;
import static dev.jtecs.bench.results.Impls.DOMINION;
import static dev.jtecs.bench.results.Impls.JTECS;
import static dev.jtecs.bench.results.Impls.JTECS_INSTANT;
import static dev.jtecs.bench.results.Impls.JTECS_SCALAR;
import static dev.jtecs.bench.results.Impls.PLAIN_ARRAY;
import static dev.jtecs.bench.results.Impls.PLAIN_SEGMENT_VECTOR;

import dev.jtecs.bench.jmh.AddRemoveTagBenchmark;
import dev.jtecs.bench.jmh.AddRemoveTagPartBenchmark;
import dev.jtecs.bench.jmh.DespawnBatchBenchmark;
import dev.jtecs.bench.jmh.DespawnSingleBenchmark;
import dev.jtecs.bench.jmh.IntegrateBenchmark;
import dev.jtecs.bench.jmh.IntegrateFragBenchmark;
import dev.jtecs.bench.jmh.IterateReadBenchmark;
import dev.jtecs.bench.jmh.MoveWholeArchetypeBenchmark;
import dev.jtecs.bench.jmh.ParallelIntegrateBenchmark;
import dev.jtecs.bench.jmh.ParticlesBenchmark;
import dev.jtecs.bench.jmh.RemoveBenchmark;
import dev.jtecs.bench.jmh.ReparentBenchmark;
import dev.jtecs.bench.jmh.SetExistingBenchmark;
import dev.jtecs.bench.jmh.SetNewBenchmark;
import dev.jtecs.bench.jmh.SnapshotBenchmark;
import dev.jtecs.bench.jmh.SparseDeltaBenchmark;
import dev.jtecs.bench.jmh.SpawnBatchBenchmark;
import dev.jtecs.bench.jmh.SpawnSingleBenchmark;
import dev.jtecs.bench.jmh.TransformsBenchmark;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The workloads {@code jtecs bench} runs, in the order of WORKLOADS.md, each with the mapping from its benchmark
 * methods to the results' implementation names.
 *
 * <p>Implementation names beyond the standard eight ({@link dev.jtecs.bench.results.Impls#STANDARD}):
 * <ul>
 *   <li>{@code spawn_batch}: {@code jtecs} is the idiomatic {@code batchSpawn} with constant inputs;
 *       {@code jtecs-batch-initializer} spawns from definitions and fills columns in an initializer;
 *       {@code jtecs-spawn-per-entity} is per-entity {@code spawn} in one scope; {@code jtecs-reused-world} is
 *       the constants batch into a world emptied by {@code clearEntities} (nothing grows);
 *       {@code plain-array} fills four existing {@code float[]}s; {@code plain-array-allocate} allocates and
 *       fills them.
 *   <li>{@code integrate_frag}: {@code plain-segment-vector-per-archetype} runs the plain vector loop once per
 *       group over 26 bare segment groups, the fragmented floor; {@code plain-segment-vector} stays the
 *       unfragmented one.
 *   <li>{@code transforms}: {@code jtecs} composes with the kernels ({@code KernelSystems}, the
 *       {@code HierarchyComposer}); {@code jtecs-builtin-system} with the builtin system's scalar body.
 *   <li>{@code sparse_delta}: {@code jtecs} re-uploads what is dirty; {@code jtecs-full-rescan}, the baseline,
 *       re-uploads everything.
 *   <li>the per-entity workloads ({@code spawn_single}, {@code add_remove_tag}, {@code add_remove_tag_part},
 *       {@code set_existing},
 *       {@code set_new}, {@code remove}, {@code despawn_single}, {@code reparent}): {@code jtecs} is the staged
 *       path (the calls inside one {@code defer} scope, published by {@code commit}); {@code jtecs-instant} the
 *       instant path (the same calls outside any scope, each published before it returns).
 *   <li>{@code particles}: {@code jtecs} runs the fused step (the default frame); {@code jtecs-separate} one pass
 *       per kernel; {@code jtecs-2-threads} the fused step on two threads; {@code plain-array-fused} is the frame
 *       as one hand-written loop over plain arrays, the floor, and {@code plain-array-fused-2-threads} that loop
 *       split over two threads, the two-thread frame's ceiling on the machine.
 *   <li>{@code reparent}: {@code plain-array} writes an {@code int[]} of parent indices; no peer has
 *       relationships.
 * </ul>
 *
 * <p>Entities: every workload divides an operation's time by its {@code entities} parameter. The quick profile
 * narrows {@code spawn_batch} and {@code despawn_batch} to the two default sizes (16,384 and 1,048,576) and
 * {@code iterate_read} to 1 and 3 components (the ends of its range), and keeps every other size and dimension.
 *
 * <p>{@code add_remove_tag_part} is not a WORKLOADS.md row: {@code add_remove_tag} on every 16th entity of
 * an archetype (see its benchmark), the per-entity path's usual case, placed after the row it varies.
 *
 * <p>{@code integrate_parallel} (not a WORKLOADS.md row: the kernels issue asks for the parallel speedup) is
 * {@code integrate} at 4,194,304 entities with {@code threads} 1 (the single-threaded runner) and 2 (the parallel
 * runner); its {@code threads} parameter becomes the results' {@code threads}. The quick profile runs
 * {@code particles} at 10,000 particles only: Ashley's removal is a linear search, so its 1,000,000-particle frame
 * takes tens of seconds.
 *
 * <p>A new workload joins with one entry in {@link #ALL}.
 */
public final class Workloads {
    /** The seven standard implementations, for workloads that run all of them. */
    private static final Map<String, String> KERNEL_AND_PEERS = impls("jtecs", JTECS, "jtecsScalar", JTECS_SCALAR,
            "plainArray", PLAIN_ARRAY, "plainSegmentVector", PLAIN_SEGMENT_VECTOR, "dominion", DOMINION,
            "artemis", ARTEMIS, "ashley", ASHLEY);
    /** jtecs and the three peers. */
    private static final Map<String, String> PEERS =
            impls("jtecs", JTECS, "dominion", DOMINION, "artemis", ARTEMIS, "ashley", ASHLEY);
    /** jtecs on its staged and its instant path, and the three peers: the per-entity workloads. */
    private static final Map<String, String> BOTH_PATHS_AND_PEERS = impls("jtecs", JTECS, "jtecsInstant",
            JTECS_INSTANT, "dominion", DOMINION, "artemis", ARTEMIS, "ashley", ASHLEY);
    private static final String[] DEFAULT_SIZES = {"16384", "1048576"};
    /**
     * A snapshot workload's forms: binary into a buffer, binary through a file, the bare copy, the copy with the
     * checksum of its bytes, the table.
     */
    private static final Map<String, String> SNAPSHOT_FORMS = impls("jtecsBinaryBuffer", JTECS, "jtecsBinaryFile",
            "jtecs-file", "plainSegmentCopy", "plain-segment-copy", "plainCheckedCopy", "plain-checked-copy",
            "jtecsTable", "jtecs-table");

    /** Every workload, in the order of WORKLOADS.md. */
    public static final List<Workload> ALL = List.of(
            Workload.of("integrate", IntegrateBenchmark.class, KERNEL_AND_PEERS),
            Workload.of("integrate_frag", IntegrateFragBenchmark.class, withPerArchetypeFloor()),
            Workload.of("integrate_parallel", ParallelIntegrateBenchmark.class, impls("jtecs", JTECS)),
            Workload.of("iterate_read", IterateReadBenchmark.class, impls("jtecs", JTECS, "jtecsScalar", JTECS_SCALAR,
                    "plainArray", PLAIN_ARRAY, "dominion", DOMINION, "artemis", ARTEMIS, "ashley", ASHLEY))
                    .quick("components", "1", "3"),
            Workload.of("spawn_batch", SpawnBatchBenchmark.class, impls("jtecsBatchConstants", JTECS,
                    "jtecsBatchInitializer", "jtecs-batch-initializer", "jtecsSpawnPerEntity",
                    "jtecs-spawn-per-entity", "jtecsReusedWorld", "jtecs-reused-world", "plainArrayFill", PLAIN_ARRAY,
                    "plainArrayAllocateAndFill", "plain-array-allocate", "dominion", DOMINION, "artemis", ARTEMIS,
                    "ashley", ASHLEY)).quick("entities", DEFAULT_SIZES),
            Workload.of("spawn_single", SpawnSingleBenchmark.class, impls("jtecs", JTECS, "jtecsTyped", "jtecs-typed",
                    "jtecsInstant", JTECS_INSTANT, "dominion", DOMINION, "artemis", ARTEMIS, "ashley", ASHLEY)),
            Workload.of("add_remove_tag", AddRemoveTagBenchmark.class, BOTH_PATHS_AND_PEERS),
            Workload.of("add_remove_tag_part", AddRemoveTagPartBenchmark.class, BOTH_PATHS_AND_PEERS),
            Workload.of("move_whole_archetype", MoveWholeArchetypeBenchmark.class, PEERS),
            Workload.of("despawn_batch", DespawnBatchBenchmark.class, PEERS).quick("entities", DEFAULT_SIZES),
            Workload.of("particles", ParticlesBenchmark.class, impls("jtecsFrame", JTECS, "jtecsScalarFrame",
                    JTECS_SCALAR, "jtecsSeparateFrame", "jtecs-separate", "jtecsTwoThreadsFrame", "jtecs-2-threads",
                    "plainArrayFusedFrame", dev.jtecs.bench.results.Impls.PLAIN_ARRAY_FUSED, "plainArrayFusedTwoThreadsFrame",
                    "plain-array-fused-2-threads", "dominionFrame", DOMINION, "artemisFrame", ARTEMIS, "ashleyFrame",
                    ASHLEY))
                    .framed().quick("entities", "10000"),
            Workload.of("transforms", TransformsBenchmark.class,
                    impls("jtecsKernelFrame", JTECS, "jtecsFrame", "jtecs-builtin-system",
                    "plainFrame", PLAIN_ARRAY)).framed(),
            Workload.of("sparse_delta", SparseDeltaBenchmark.class,
                    impls("jtecs", JTECS, "jtecsFullRescan", "jtecs-full-rescan")).framed(),
            Workload.of("set_existing", SetExistingBenchmark.class, impls("jtecs", JTECS, "jtecsInstant",
                    JTECS_INSTANT, "jtecsField", "jtecs-field", "jtecsRow", "jtecs-row", "dominion", DOMINION,
                    "artemis", ARTEMIS, "ashley", ASHLEY)),
            Workload.of("set_new", SetNewBenchmark.class, BOTH_PATHS_AND_PEERS),
            Workload.of("remove", RemoveBenchmark.class, BOTH_PATHS_AND_PEERS),
            Workload.of("despawn_single", DespawnSingleBenchmark.class, BOTH_PATHS_AND_PEERS),
            Workload.of("reparent", ReparentBenchmark.class,
                    impls("jtecs", JTECS, "jtecsInstant", JTECS_INSTANT, "jtecsTarget", "jtecs-target",
                    "jtecsTargetInstant", "jtecs-target-instant", "plainArray", PLAIN_ARRAY)),
            Workload.of("snapshot_save", SnapshotBenchmark.Save.class, SNAPSHOT_FORMS),
            Workload.of("snapshot_load", SnapshotBenchmark.Load.class, SNAPSHOT_FORMS));

    private Workloads() {}

    /** The workload called {@code name}, if any. */
    public static Optional<Workload> find(String name) {
        return ALL.stream().filter(w -> w.name().equals(name)).findFirst();
    }

    /** The names of {@link #ALL}, in order. */
    public static List<String> names() {
        return ALL.stream().map(Workload::name).toList();
    }

    /**
     * The workloads named in {@code names}, in the order of {@link #ALL}, each once; every workload when
     * {@code names} is empty.
     *
     * @throws IllegalArgumentException naming every unknown name and the known ones
     */
    public static List<Workload> select(List<String> names) {
        return select(ALL, names);
    }

    /**
     * {@link #select(List)} from another registry than {@link #ALL} (tests run the real command over workloads of
     * their own, such as one that fails on purpose).
     */
    public static List<Workload> select(List<Workload> registry, List<String> names) {
        if (names.isEmpty()) {
            return registry;
        }
        List<String> known = registry.stream().map(Workload::name).toList();
        List<String> unknown = new ArrayList<>();
        for (String n : names) {
            if (!known.contains(n)) {
                unknown.add(n);
            }
        }
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException("unknown workload" + (unknown.size() == 1 ? " " : "s ")
                    + String.join(", ", unknown) + "; known: " + String.join(", ", known));
        }
        return registry.stream().filter(w -> names.contains(w.name())).toList();
    }

    /** The seven, and {@code plain-segment-vector-per-archetype}: the plain loop over the same 26 groups. */
    private static Map<String, String> withPerArchetypeFloor() {
        Map<String, String> map = new LinkedHashMap<>(KERNEL_AND_PEERS);
        map.put("plainSegmentVectorPerArchetype", "plain-segment-vector-per-archetype");
        return map;
    }

    /** A method-to-impl map in the order given: method, impl, method, impl, ... */
    static Map<String, String> impls(String... methodThenImpl) {
        if (methodThenImpl.length % 2 != 0) {
            throw new IllegalArgumentException("method and impl come in pairs, got " + methodThenImpl.length);
        }
        Map<String, String> map = new LinkedHashMap<>();
        for (int i = 0; i < methodThenImpl.length; i += 2) {
            map.put(methodThenImpl[i], methodThenImpl[i + 1]);
        }
        return map;
    }
}
