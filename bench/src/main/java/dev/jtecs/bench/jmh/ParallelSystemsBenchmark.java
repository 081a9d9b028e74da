package dev.jtecs.bench.jmh;

import dev.jtecs.builtin.systems.BuiltinSystems;
import dev.jtecs.component.Components;
import dev.jtecs.component.ScalarComponent;
import dev.jtecs.query.Query;
import dev.jtecs.query.QueryDescriptor;
import dev.jtecs.schedule.ParallelBody;
import dev.jtecs.schedule.Phases;
import dev.jtecs.schedule.SystemConfig;
import dev.jtecs.storage.Archetype;
import dev.jtecs.storage.DoubleColumn;
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
 * A frame of four independent parallel systems over N entities, on {@code threads} worker threads: one
 * operation = {@code runPhase(UPDATE)}, in which {@code move} (reads {@code Vel}, writes {@code Pos}),
 * {@code cool}, {@code charge} and {@code age} (each writing its own component) form one group. With one thread
 * the four run one after another on the single worker; with two, two at a time. The speedup is the ratio of the
 * two rows; the world's thread only hands the group over and waits.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector",
    "--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow"})
@State(Scope.Thread)
public class ParallelSystemsBenchmark {
    static final double DT = 1 / 60.0;
    static final ScalarComponent.OfDouble POS = Components.scalar("bench.systems.Pos", 0.0);
    static final ScalarComponent.OfDouble VEL = Components.scalar("bench.systems.Vel", 1.0);
    static final ScalarComponent.OfDouble HEAT = Components.scalar("bench.systems.Heat", 100.0);
    static final ScalarComponent.OfDouble ENERGY = Components.scalar("bench.systems.Energy", 0.0);
    static final ScalarComponent.OfDouble AGE = Components.scalar("bench.systems.Age", 0.0);

    @Param({"1048576"})
    public int entities;

    @Param({"1", "2"})
    public int threads;

    World world;

    @Setup(Level.Trial)
    public void setUp() {
        world = World.create(WorldConfig.defaults().maxEntities(entities + 1).systemThreads(threads));
        BuiltinSystems.remove(world);
        world.batchSpawn(entities, List.of(POS, VEL, HEAT, ENERGY, AGE), null);
        world.commit();
        Query all = world.newQuery(QueryDescriptor.builder().include(POS, VEL, HEAT, ENERGY, AGE).build());
        world.addSystem(SystemConfig.named("move").reads(VEL).writes(POS).parallel(all, (dt, archetypes, c) -> {
            for (Archetype a : archetypes) {
                DoubleColumn pos = a.get(POS);
                DoubleColumn vel = a.get(VEL);
                for (int row = 0, n = a.count(); row < n; row++) {
                    pos.set(row, pos.get(row) + vel.get(row) * dt);
                }
            }
        }));
        world.addSystem(SystemConfig.named("cool").writes(HEAT).parallel(all, scale(HEAT, 0.999)));
        world.addSystem(SystemConfig.named("charge").writes(ENERGY).parallel(all, add(ENERGY)));
        world.addSystem(SystemConfig.named("age").writes(AGE).parallel(all, add(AGE)));
    }

    private static ParallelBody scale(ScalarComponent.OfDouble component, double factor) {
        return (dt, archetypes, commands) -> {
            for (Archetype a : archetypes) {
                DoubleColumn column = a.get(component);
                for (int row = 0, n = a.count(); row < n; row++) {
                    column.set(row, column.get(row) * factor);
                }
            }
        };
    }

    private static ParallelBody add(ScalarComponent.OfDouble component) {
        return (dt, archetypes, commands) -> {
            for (Archetype a : archetypes) {
                DoubleColumn column = a.get(component);
                for (int row = 0, n = a.count(); row < n; row++) {
                    column.set(row, column.get(row) + dt);
                }
            }
        };
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        world.close();
    }

    @Benchmark
    public long frame() {
        world.runPhase(Phases.UPDATE, DT);
        return world.structureVersion();
    }
}
