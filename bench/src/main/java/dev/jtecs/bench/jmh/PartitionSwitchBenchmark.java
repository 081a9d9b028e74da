package dev.jtecs.bench.jmh;

import static dev.jtecs.bench.particles.Particles.POSITION;

import dev.jtecs.component.Components;
import dev.jtecs.component.TagComponent;
import dev.jtecs.mutation.PartitionDimension;
import dev.jtecs.world.World;
import dev.jtecs.world.WorldConfig;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The cost of a deferred partition switch per entity, beside a plain tag set and remove. One operation = two
 * passes over N entities, each pass one {@code defer} scope closed by {@code commit}, leaving the world as it
 * started (ns per entity and switch = time / 2N):
 *
 * <ul>
 *   <li>{@code variantSwitch}: {@code setTag(id, B)} on entities in variant {@code A} of a two-variant dimension,
 *       then {@code setTag(id, A)}: each switch removes one tag and adds the other in one move;
 *   <li>{@code presenceSetUnset}: {@code setTag} then {@code unsetTag} of a presence dimension's tag;
 *   <li>{@code plainTagSetRemove}: {@code set} then {@code remove} of a plain tag, the mutation model's compact
 *       tag move, the same work as {@code AddRemoveTagBenchmark.jtecs} (the baseline of {@code presenceSetUnset});
 *   <li>{@code plainTagSwap}: {@code set(id, PlainB)} and {@code remove(id, PlainA)}, then back, with plain tags:
 *       the same move as a variant switch without the partition layer (the baseline of {@code variantSwitch}).
 * </ul>
 *
 * <p>The difference between the first two and the third is what the partition layer adds: the dimension lookup
 * and the per-submission ledger probe (and for the variant switch, a record with two entries instead of the
 * compact one-tag move).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector",
    "--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow"})
@State(Scope.Thread)
public class PartitionSwitchBenchmark {
    static final TagComponent A = Components.tag("bench.partition.A");
    static final TagComponent B = Components.tag("bench.partition.B");
    static final TagComponent ON = Components.tag("bench.partition.On");
    static final TagComponent PLAIN = Components.tag("bench.partition.Plain");
    static final TagComponent PLAIN_A = Components.tag("bench.partition.PlainA");
    static final TagComponent PLAIN_B = Components.tag("bench.partition.PlainB");

    @Param({"16384", "1048576"})
    public int entities;

    World world;
    long[] ids;

    @Setup(Level.Trial)
    public void setUp() {
        world = World.create(WorldConfig.defaults().maxEntities(entities + 1));
        world.declarePartition(PartitionDimension.variants("bench.ab", A, B));
        world.declarePartition(PartitionDimension.presence("bench.on", ON));
        ids = world.batchSpawn(entities, List.of(POSITION, A, PLAIN_A), null).toArray();
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        world.close();
    }

    @Benchmark
    public int variantSwitch() {
        world.defer();
        for (long id : ids) {
            world.setTag(id, B);
        }
        world.commit();
        world.defer();
        for (long id : ids) {
            world.setTag(id, A);
        }
        world.commit();
        return world.archetypeCount();
    }

    @Benchmark
    public int presenceSetUnset() {
        world.defer();
        for (long id : ids) {
            world.setTag(id, ON);
        }
        world.commit();
        world.defer();
        for (long id : ids) {
            world.unsetTag(id, ON);
        }
        world.commit();
        return world.archetypeCount();
    }

    @Benchmark
    public int plainTagSetRemove() {
        world.defer();
        for (long id : ids) {
            world.set(id, PLAIN);
        }
        world.commit();
        world.defer();
        for (long id : ids) {
            world.remove(id, PLAIN);
        }
        world.commit();
        return world.archetypeCount();
    }

    @Benchmark
    public int plainTagSwap() {
        world.defer();
        for (long id : ids) {
            world.set(id, PLAIN_B);
            world.remove(id, PLAIN_A);
        }
        world.commit();
        world.defer();
        for (long id : ids) {
            world.set(id, PLAIN_A);
            world.remove(id, PLAIN_B);
        }
        world.commit();
        return world.archetypeCount();
    }
}
