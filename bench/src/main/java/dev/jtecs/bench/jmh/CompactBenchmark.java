package dev.jtecs.bench.jmh;

import dev.jtecs.component.Components;
import dev.jtecs.component.Relationship;
import dev.jtecs.component.Relationships;
import dev.jtecs.component.TagComponent;
import dev.jtecs.query.QueryDescriptor;
import dev.jtecs.world.CompactResult;
import dev.jtecs.world.World;
import dev.jtecs.world.WorldConfig;
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
 * {@code compact}: {@code World.compact()} pruning N empty archetypes, each holding an edge to a target that died
 * (what dense relationships leave behind), in a world with two persistent queries that matched them, one grouped.
 * One operation = one {@code compact()} (which also shrinks the archetype the dead targets emptied); the N archetypes are made again before each operation, untimed
 * ({@code Level.Invocation}, in a new world). The figure to read is how time grows with N: linear work gives about
 * 4x from 10,000 to 40,000 archetypes, a pass per pruned archetype over all of them about 16x (issue 18, defect
 * 9: 100,000 took 122 s when every prune swept every table, query entry and index list).
 *
 * <p>No peer has relationships or archetype compaction, so no peer runs here. Runs under plain JMH only.
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3)
@Measurement(iterations = 8)
@Fork(value = 2, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector",
    "--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow"})
@State(Scope.Thread)
public class CompactBenchmark {
    static final Relationship HOLDS = Relationships.register("bench.compact.Holds", o -> { });
    static final TagComponent MARK = Components.tag("bench.compact.Mark");

    @Param({"10000", "40000"})
    public int archetypes;

    World world;

    /** A new world holding {@code archetypes} empty archetypes with an edge to a dead target each. */
    @Setup(Level.Invocation)
    public void rebuild() {
        if (world != null) {
            world.close();
        }
        world = World.create(WorldConfig.defaults().maxEntities(2 * archetypes + 16));
        world.newQuery(QueryDescriptor.builder().include(MARK).build());
        world.newQuery(QueryDescriptor.builder().include(MARK).groupBy(a -> a.id() % 7).build());
        long[] targets = new long[archetypes];
        long[] holders = new long[archetypes];
        world.defer();
        for (int i = 0; i < archetypes; i++) {
            targets[i] = world.spawn();
            holders[i] = world.spawn(MARK, HOLDS.to(targets[i]));
        }
        world.commit();
        world.defer();
        for (int i = 0; i < archetypes; i++) {
            world.despawn(holders[i]);
            world.despawn(targets[i]);
        }
        world.commit();
    }

    @Benchmark
    public CompactResult jtecs() {
        return world.compact();
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        if (world != null) {
            world.close();
            world = null;
        }
    }
}
