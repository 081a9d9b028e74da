package dev.jtecs.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.builtin.TTL;
import dev.jtecs.component.Components;
import dev.jtecs.component.FloatField;
import dev.jtecs.component.NativeComponent;
import dev.jtecs.component.TagComponent;
import dev.jtecs.kernels.ColumnKernel;
import dev.jtecs.kernels.KernelColumns;
import dev.jtecs.kernels.KernelProvider;
import dev.jtecs.kernels.KernelRunner;
import dev.jtecs.kernels.MotionKernels;
import dev.jtecs.kernels.ParticleStep;
import dev.jtecs.kernels.WritePolicy;
import dev.jtecs.kernels.parallel.ChunkCommands;
import dev.jtecs.kernels.parallel.CommandKernel;
import dev.jtecs.kernels.parallel.ParallelKernelRunner;
import dev.jtecs.kernels.parallel.ParallelLifetimeCountdown;
import dev.jtecs.kernels.parallel.ParallelParticleStep;
import dev.jtecs.query.Query;
import dev.jtecs.query.QueryDescriptor;
import dev.jtecs.storage.Archetype;
import dev.jtecs.mutation.PartitionDimension;
import dev.jtecs.schedule.SystemConfig;
import dev.jtecs.storage.FloatColumn;
import dev.jtecs.world.World;
import dev.jtecs.world.WorldConfig;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ForkJoinPool;
import org.junit.jupiter.api.Test;

/** The examples of {@code docs/parallel.md}. */
class ParallelGuideTest {
    record Position(float x, float y) {}

    record Velocity(float dx, float dy) {}

    record Fuel(float liters) {}

    static final NativeComponent<Position> POSITION =
            Components.registerNative(Position.class, o -> o.name("docs.parallel.Position"));
    static final NativeComponent<Velocity> VELOCITY =
            Components.registerNative(Velocity.class, o -> o.name("docs.parallel.Velocity"));
    static final NativeComponent<Fuel> FUEL = Components.registerNative(Fuel.class, o -> o.name("docs.parallel.Fuel"));
    static final TagComponent LOW = Components.tag("docs.parallel.Low");
    static final FloatField X = POSITION.floatField("x");
    static final FloatField Y = POSITION.floatField("y");
    static final FloatField DX = VELOCITY.floatField("dx");
    static final FloatField DY = VELOCITY.floatField("dy");
    static final FloatField LITERS = FUEL.floatField("liters");

    static final TagComponent TIRED = Components.tag("docs.parallel.Tired");

    @Test
    void parallelSystemsRunBesideEachOther() {
        // begin-example
        try (World world = World.create(WorldConfig.defaults().systemThreads(2))) {
            world.declarePartition(PartitionDimension.presence("docs.tired", TIRED));
            spawnMovers(world, 10_000);
            Query movers = world.newQuery(QueryDescriptor.builder().include(POSITION, VELOCITY).build());
            world.addSystem(SystemConfig.named("fish.Drift").reads(VELOCITY).writes(POSITION)
                    .parallel(movers, (dt, archetypes, commands) -> {
                        for (Archetype a : archetypes) {
                            FloatColumn x = a.get(X);
                            FloatColumn dx = a.get(DX);
                            for (int row = 0; row < a.count(); row++) {
                                x.set(row, x.get(row) + dx.get(row) * (float) dt);
                            }
                        }
                    }));
            world.addSystem(SystemConfig.named("fish.Tire").reads(VELOCITY) // only reads: runs beside Drift
                    .parallel(movers, (dt, archetypes, commands) -> {
                        for (Archetype a : archetypes) {
                            FloatColumn dx = a.get(DX);
                            for (int row = 0; row < a.count(); row++) {
                                if (dx.get(row) > 6) {
                                    commands.setTag(a.entity(row), TIRED); // applied later, on this thread
                                }
                            }
                        }
                    }));
            world.update(1 / 60.0);
            assertEquals(1_428, world.findArchetypes(TIRED).get(0).count());
            assertEquals(10_000, movers.count()); // the query holds tired and rested movers alike
        }
        // end-example
    }

    private static void spawnMovers(World world, int count) {
        for (int i = 0; i < count; i++) {
            world.spawn(POSITION.of(new Position(i, -i)), VELOCITY.of(new Velocity(1 + i % 7, 2 - i % 3)));
        }
    }

    @Test
    void theParallelRunnerGivesTheSingleThreadedResult() {
        try (World one = World.create(); World many = World.create()) {
            spawnMovers(one, 100_000);
            spawnMovers(many, 100_000);
            Query q1 = one.newQuery(QueryDescriptor.builder().include(POSITION, VELOCITY).build());
            Query q2 = many.newQuery(QueryDescriptor.builder().include(POSITION, VELOCITY).build());
            // begin-example
            ColumnKernel integrate = MotionKernels.integrate2d(X, Y, DX, DY);
            try (ParallelKernelRunner runner = new ParallelKernelRunner(2)) { // two threads: the caller and a worker
                for (int frame = 0; frame < 10; frame++) {
                    new KernelRunner().run(q1, integrate, 1f / 60f);
                    runner.run(q2, integrate, 1f / 60f);
                }
            }
            Archetype a = q1.archetypes().get(0);
            Archetype b = q2.archetypes().get(0);
            assertEquals(-1, a.get(X).segment().mismatch(b.get(X).segment())); // the same bytes, padding too
            assertEquals(a.dirtyComponents(), b.dirtyComponents());             // the same marks
            // end-example
        }
    }

    @Test
    void smallPassesStayOnTheCallingThread() {
        try (World world = World.create()) {
            spawnMovers(world, 1_000);
            Query movers = world.newQuery(QueryDescriptor.builder().include(POSITION, VELOCITY).build());
            // begin-example
            List<Thread> ranOn = new ArrayList<>();
            ColumnKernel probe = new ColumnKernel() {
                private final KernelColumns columns = KernelColumns.of(List.of(X), List.of(), WritePolicy.ALWAYS);

                @Override
                public KernelColumns columns() {
                    return columns;
                }

                @Override
                public boolean run(MemorySegment[] segments, int count, float dt) {
                    synchronized (ranOn) {
                        ranOn.add(Thread.currentThread());
                    }
                    return true;
                }
            };
            // a borrowed pool: the runner uses it and leaves it running when closed
            ParallelKernelRunner runner = new ParallelKernelRunner(ForkJoinPool.commonPool());
            assertEquals(ParallelKernelRunner.DEFAULT_MIN_CHUNK_ROWS, runner.minChunkRows()); // 16,384
            runner.run(movers, probe, 0f);
            assertEquals(List.of(Thread.currentThread()), ranOn); // 1,000 rows: one chunk, run right here
            // end-example
        }
    }

    @Test
    void workersAskForStructuralChangesThroughTheirChunkBuffer() {
        try (World world = World.create()) {
            List<Long> ids = new ArrayList<>();
            for (int i = 0; i < 50_000; i++) {
                ids.add(world.spawn(FUEL.of(new Fuel(i % 100))));
            }
            Query tanks = world.newQuery(QueryDescriptor.builder().include(FUEL).build());
            // begin-example
            CommandKernel burn = new CommandKernel() {
                private final KernelColumns columns = KernelColumns.of(List.of(LITERS), List.of(), WritePolicy.ALWAYS);

                @Override
                public KernelColumns columns() {
                    return columns;
                }

                @Override
                public boolean run(MemorySegment[] segments, int count, float dt, ChunkCommands commands) {
                    MemorySegment liters = segments[0]; // already sliced to this chunk: row 0 is its first row
                    for (int row = 0; row < count; row++) {
                        float left = liters.getAtIndex(ValueLayout.JAVA_FLOAT, row) - 10 * dt;
                        liters.setAtIndex(ValueLayout.JAVA_FLOAT, row, left);
                        if (left <= 0) {
                            commands.despawn(row);    // recorded, not done: workers never call the world
                        } else if (left < 5) {
                            commands.set(row, LOW);   // add a tag
                        }
                    }
                    return true;
                }
            };
            try (ParallelKernelRunner runner = new ParallelKernelRunner(2, 1_024)) {
                runner.run(world, tanks, burn, 1f); // back on this thread: rows to ids, applied in chunk order
                assertEquals(5_500 + 2_000, runner.appliedCommands()); // 11 in 100 run dry, 4 in 100 run low
            }
            assertFalse(world.isAlive(ids.get(0)));  // had 0 liters: despawned
            assertTrue(world.has(ids.get(12), LOW)); // 12 - 10 = 2 liters left
            assertFalse(world.has(ids.get(50), LOW));
            // end-example
        }
    }

    @Test
    void aWorkerFailureReachesTheCallerAndMarksWhatRan() {
        try (World world = World.create()) {
            spawnMovers(world, 70_000);
            Query movers = world.newQuery(QueryDescriptor.builder().include(POSITION, VELOCITY).build());
            world.forEachArchetype(Archetype::clearDirtyComponents);
            // begin-example
            ColumnKernel picky = new ColumnKernel() {
                private final KernelColumns columns = KernelColumns.of(List.of(X), List.of(), WritePolicy.ALWAYS);

                @Override
                public KernelColumns columns() {
                    return columns;
                }

                @Override
                public boolean run(MemorySegment[] segments, int count, float dt) {
                    if (count < 16_384) { // only the archetype's last chunk is short
                        throw new IllegalStateException("short chunk of " + count + " rows");
                    }
                    return true;
                }
            };
            try (ParallelKernelRunner runner = new ParallelKernelRunner(2)) {
                IllegalStateException e = assertThrows(IllegalStateException.class,
                        () -> runner.run(movers, picky, 0f));
                assertEquals("short chunk of 4464 rows", e.getMessage()); // 70,000 - 4 * 16,384
                assertEquals(List.of(POSITION), movers.archetypes().get(0).dirtyComponents()); // chunks ran: marked
                assertEquals(1, runner.run(movers, MotionKernels.gravity(DY, -9.81f), 0.1f)); // still usable
            }
            // end-example
        }
    }

    @Test
    void theTtlCountdownRunsInParallelToo() {
        try (World world = World.create()) {
            List<Long> ids = new ArrayList<>();
            for (int i = 0; i < 40_000; i++) {
                ids.add(world.spawn(TTL.COMPONENT.of(new TTL(i % 4 == 0 ? 0.01 : 10))));
            }
            Query lifetimes = world.newQuery(QueryDescriptor.builder().include(TTL.COMPONENT).logic().build());
            // begin-example
            try (ParallelLifetimeCountdown countdown = new ParallelLifetimeCountdown(2)) {
                int spent = countdown.countDown(lifetimes, 1.0 / 60); // TTL marked on every archetype with rows
                assertEquals(10_000, spent);
                assertEquals(ids.get(0), countdown.expired(0));       // archetype order, then row order
                assertEquals(ids.get(4), countdown.expired(1));
                assertEquals(10_000, countdown.despawnExpired(world)); // one scope, published together
            }
            assertEquals(30_000, world.entityCount());
            // end-example
        }
    }

    @Test
    void theFusedParticleStepSplitsItsRowsAcrossWorkers() {
        try (World one = World.create(); World two = World.create()) {
            List<Long> ids = new ArrayList<>();
            for (World w : List.of(one, two)) {
                dev.jtecs.builtin.systems.BuiltinSystems.remove(w);
                for (int i = 0; i < 40_000; i++) {
                    long id = w.spawn(POSITION.of(new Position(i, 0)), VELOCITY.of(new Velocity(1, 2)),
                            TTL.COMPONENT.of(new TTL(i % 4 == 0 ? 0.01 : 10)));
                    if (w == one) {
                        ids.add(id);
                    }
                }
            }
            Query particles = one.newQuery(QueryDescriptor.builder().include(POSITION, VELOCITY, TTL.COMPONENT)
                    .build());
            Query sameInTwo = two.newQuery(QueryDescriptor.builder().include(POSITION, VELOCITY, TTL.COMPONENT)
                    .build());
            ParticleStep single = new ParticleStep(KernelProvider.particleSteps(), X, Y, DX, DY, -9.81f, 0.5f);
            ForkJoinPool pool = new ForkJoinPool(2);
            // begin-example
            try (ParallelParticleStep step = new ParallelParticleStep(KernelProvider.particleSteps(), X, Y, DX, DY,
                    -9.81f, 0.5f, pool)) {
                int spent = step.run(sameInTwo, 1.0 / 60);      // chunks of rows on the caller and a worker
                assertEquals(single.run(particles, 1.0 / 60), spent);
                assertEquals(10_000, spent);
                assertEquals(ids.get(4), step.expired(1));       // the single-threaded list, entry for entry
                assertEquals(one.get(ids.get(7), POSITION), two.get(ids.get(7), POSITION)); // the same bits
                assertEquals(10_000, step.despawnExpired(two));  // one scope, published together
            }
            assertEquals(30_000, two.entityCount());
            // end-example
            pool.shutdown();
        }
    }
}
