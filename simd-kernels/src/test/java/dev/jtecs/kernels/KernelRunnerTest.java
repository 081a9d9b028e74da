package dev.jtecs.kernels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.component.Component;
import dev.jtecs.component.Components;
import dev.jtecs.component.FloatField;
import dev.jtecs.component.NativeComponent;
import dev.jtecs.component.ScalarComponent;
import dev.jtecs.kernels.vector.VectorParticleOps;
import dev.jtecs.query.Query;
import dev.jtecs.query.QueryDescriptor;
import dev.jtecs.storage.Archetype;
import dev.jtecs.world.World;
import java.lang.foreign.MemorySegment;
import java.lang.management.ManagementFactory;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The runner marks exactly the written components, on exactly the archetypes a kernel ran on, and a conditional
 * kernel that changes nothing marks nothing. Every kernel runs both as vector and as scalar.
 */
class KernelRunnerTest {
    record Position(float x, float y) {}

    record Velocity(float dx, float dy) {}

    static final NativeComponent<Position> POSITION =
            Components.registerNative(Position.class, o -> o.name("kernels.test.Position"));
    static final NativeComponent<Velocity> VELOCITY =
            Components.registerNative(Velocity.class, o -> o.name("kernels.test.Velocity"));
    static final ScalarComponent.OfDouble MASS = Components.scalar("kernels.test.Mass", 1.0);
    static final ScalarComponent.OfDouble CHARGE = Components.scalar("kernels.test.Charge", 1.0);
    static final FloatField X = POSITION.floatField("x");
    static final FloatField Y = POSITION.floatField("y");
    static final FloatField DX = VELOCITY.floatField("dx");
    static final FloatField DY = VELOCITY.floatField("dy");
    static final ParticleOps[] BOTH = {VectorParticleOps.INSTANCE, ParticleOps.SCALAR};

    private World world;
    private Query movers;
    private Archetype plain;   // Position, Velocity: 100 rows
    private Archetype heavy;   // Position, Velocity, Mass: 37 rows
    private Archetype emptied; // Position, Velocity, Charge: matched, no rows
    private Archetype still;   // Position only: not matched

    @BeforeEach
    void world() {
        world = World.create();
        for (int i = 0; i < 100; i++) {
            world.spawn(POSITION.of(new Position(i, -i)), VELOCITY.of(new Velocity(1, 2)));
        }
        for (int i = 0; i < 37; i++) {
            world.spawn(POSITION.of(new Position(i, i)), VELOCITY.of(new Velocity(-1, 0.5f)), MASS.of(2.0));
        }
        long gone = world.spawn(POSITION, VELOCITY, CHARGE);
        long alone = world.spawn(POSITION.of(new Position(5, 5)));
        plain = world.archetypeOf(world.spawn(POSITION, VELOCITY));
        heavy = world.archetypeOf(world.spawn(POSITION, VELOCITY, MASS));
        emptied = world.archetypeOf(gone);
        still = world.archetypeOf(alone);
        world.despawn(gone);
        movers = world.newQuery(QueryDescriptor.builder().include(POSITION, VELOCITY).build());
        clearAll();
    }

    @AfterEach
    void close() {
        world.close();
    }

    private void clearAll() {
        world.forEachArchetype(Archetype::clearDirtyComponents);
    }

    private void assertDirty(Archetype archetype, boolean position, boolean velocity, String where) {
        assertEquals(position, archetype.isComponentDirty(POSITION), where + " Position on " + archetype);
        assertEquals(velocity, archetype.isComponentDirty(VELOCITY), where + " Velocity on " + archetype);
    }

    private void assertUntouched(String where) {
        assertDirty(emptied, false, false, where + " (empty archetype)");
        assertDirty(still, false, false, where + " (unmatched archetype)");
    }

    @Test
    void integrateMarksPositionOnlyOnTheArchetypesItRanOn() {
        for (ParticleOps ops : BOTH) {
            clearAll();
            long writesBefore = plain.writeCount(POSITION);
            int marked = new KernelRunner().run(movers, MotionKernels.integrate2d(ops, X, Y, DX, DY), 0.5f);
            assertEquals(2, marked, ops.mode().toString());
            assertDirty(plain, true, false, ops.mode().toString());
            assertDirty(heavy, true, false, ops.mode().toString());
            assertUntouched(ops.mode().toString());
            assertEquals(writesBefore + 1, plain.writeCount(POSITION), "x and y are one component: one mark");
        }
        // both runs integrated: x = i + 2 * (1 * 0.5)
        assertEquals(3f + 1f, plain.get(X).get(3));
        assertEquals(-3f + 2f, plain.get(Y).get(3));
    }

    @Test
    void gravityAndDampingMarkVelocityOnly() {
        for (ParticleOps ops : BOTH) {
            for (ColumnKernel kernel : List.of(MotionKernels.gravity(ops, DY, -9.81f),
                    MotionKernels.damping(ops, DX, DY, 0.5f))) {
                clearAll();
                assertEquals(2, new KernelRunner().run(movers, kernel, 1f / 60f), kernel.toString());
                assertDirty(plain, false, true, kernel.toString());
                assertDirty(heavy, false, true, kernel.toString());
                assertUntouched(kernel.toString());
            }
        }
    }

    @Test
    void conditionalKernelThatChangesNothingMarksNothing() {
        for (ParticleOps ops : BOTH) {
            for (ColumnKernel kernel : List.of(MotionKernels.wrap(ops, X, -1000f, 1000f),
                    MotionKernels.clamp(ops, Y, -1000f, 1000f))) {
                clearAll();
                assertEquals(0, new KernelRunner().run(movers, kernel, 1f / 60f), kernel.toString());
                assertDirty(plain, false, false, kernel.toString());
                assertDirty(heavy, false, false, kernel.toString());
                assertUntouched(kernel.toString());
            }
        }
    }

    @Test
    void conditionalKernelMarksOnlyTheArchetypesWhereARowChanged() {
        for (ParticleOps ops : BOTH) {
            close(); // the previous pass clamped the rows: start from fresh ones
            world();
            // plain holds x up to 99, heavy up to 36: only plain has rows past 50
            ColumnKernel clamp = MotionKernels.clamp(ops, X, -1000f, 50f);
            assertEquals(1, new KernelRunner().run(movers, clamp, 0f), ops.mode().toString());
            assertDirty(plain, true, false, ops.mode().toString());
            assertDirty(heavy, false, false, ops.mode().toString());
            assertUntouched(ops.mode().toString());
            assertEquals(50f, plain.get(X).get(99));
            clearAll();
            ColumnKernel wrap = MotionKernels.wrap(ops, X, 0f, 37f);
            assertEquals(1, new KernelRunner().run(movers, wrap, 0f), ops.mode().toString());
            assertDirty(plain, true, false, ops.mode().toString());
            assertDirty(heavy, false, false, ops.mode().toString());
        }
    }

    @Test
    void runOnOneArchetypeMarksItWhenItHasRows() {
        KernelRunner runner = new KernelRunner();
        assertTrue(runner.run(heavy, MotionKernels.gravity(DY, -1f), 1f));
        assertDirty(heavy, false, true, "single");
        assertDirty(plain, false, false, "single");
        assertFalse(runner.run(emptied, MotionKernels.gravity(DY, -1f), 1f));
        assertDirty(emptied, false, false, "single on empty");
        assertThrows(IllegalArgumentException.class, () -> runner.run(still, MotionKernels.gravity(DY, -1f), 1f));
    }

    @Test
    void queryMustIncludeEveryComponentTheKernelTouches() {
        Query positionsOnly = world.newQuery(QueryDescriptor.builder().include(POSITION).build());
        KernelRunner runner = new KernelRunner();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> runner.run(positionsOnly, MotionKernels.integrate2d(X, Y, DX, DY), 1f));
        assertTrue(e.getMessage().contains("kernels.test.Velocity"), e.getMessage());
        for (Archetype archetype : List.of(plain, heavy, still)) {
            assertDirty(archetype, false, false, "nothing ran");
        }
        assertEquals(0f, plain.get(X).get(0));
    }

    @Test
    void runnerIsNotReentrant() {
        KernelRunner runner = new KernelRunner();
        ColumnKernel inner = MotionKernels.gravity(DY, 1f);
        ColumnKernel outer = new ColumnKernel() {
            private final KernelColumns columns = KernelColumns.of(List.of(DX), List.of(), WritePolicy.ALWAYS);

            @Override
            public KernelColumns columns() {
                return columns;
            }

            @Override
            public boolean run(MemorySegment[] segments, int count, float dt) {
                runner.run(movers, inner, dt);
                return true;
            }
        };
        assertThrows(IllegalStateException.class, () -> runner.run(movers, outer, 1f));
        assertEquals(2, runner.run(movers, inner, 1f), "the runner is usable after the failed run");
    }

    @Test
    void aRunAllocatesNothingOnceWarm() {
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long thread = Thread.currentThread().threadId();
        for (ParticleOps ops : BOTH) {
            KernelRunner runner = new KernelRunner();
            List<ColumnKernel> kernels = List.of(MotionKernels.integrate2d(ops, X, Y, DX, DY),
                    MotionKernels.gravity(ops, DY, -9.81f), MotionKernels.damping(ops, DX, DY, 0.9f),
                    MotionKernels.wrap(ops, X, -100f, 100f), MotionKernels.clamp(ops, Y, -100f, 100f));
            long best = Long.MAX_VALUE;
            // vector code allocates until C2 compiles it, which on a busy machine (two cores, a build beside
            // us) can take seconds of background compilation: keep the best round, for up to 20 seconds
            long deadline = System.nanoTime() + 20_000_000_000L;
            for (int round = 0; best > 0 && (round < 40 || System.nanoTime() < deadline); round++) {
                long before = threads.getThreadAllocatedBytes(thread);
                for (int i = 0; i < 2_000; i++) {
                    runner.run(movers, kernels.get(i % kernels.size()), 1f / 60f);
                }
                best = Math.min(best, threads.getThreadAllocatedBytes(thread) - before);
            }
            assertEquals(0, best, ops.mode() + ": bytes allocated by 2000 runs in the best round");
        }
    }

    /**
     * A runner kept across structural changes (growth, shrinking, whole-archetype exchanges, new and emptied
     * archetypes, more kernels than it remembers) computes and marks exactly what a fresh runner does: two worlds
     * see the same seeded operations, one with a kept runner, the other with a new runner for every run.
     */
    @Test
    void aKeptRunnerMatchesAFreshOneAcrossStructuralChanges() {
        long seed = Long.getLong("jtecs.test.seed", System.nanoTime());
        System.out.println("KernelRunnerTest.aKeptRunnerMatchesAFreshOneAcrossStructuralChanges seed=" + seed
                + " (replay: -Djtecs.test.seed=" + seed + ")");
        ScalarComponent.OfDouble[] tags = {MASS, CHARGE};
        try (World kept = World.create(); World fresh = World.create()) {
            World[] worlds = {kept, fresh};
            Query[] queries = new Query[2];
            Query[] heavyQueries = new Query[2];
            for (int w = 0; w < 2; w++) {
                queries[w] = worlds[w].newQuery(QueryDescriptor.builder().include(POSITION, VELOCITY).build());
                heavyQueries[w] = worlds[w].newQuery(QueryDescriptor.builder().include(POSITION, VELOCITY, MASS)
                        .build());
            }
            KernelRunner runner = new KernelRunner();
            List<ColumnKernel> kernels = new java.util.ArrayList<>();
            for (int k = 0; k < KernelRunner.REMEMBERED_KERNELS + 2; k++) { // more than it remembers
                kernels.add(k % 2 == 0 ? MotionKernels.integrate2d(X, Y, DX, DY)
                        : MotionKernels.clamp(X, -50f - k, 50f + k));
            }
            java.util.Random random = new java.util.Random(seed);
            for (int step = 0; step < 300; step++) {
                int op = random.nextInt(6);
                int amount = 1 + random.nextInt(random.nextBoolean() ? 8 : 300);
                float value = random.nextInt(200) - 100;
                int tag = random.nextInt(3);
                int which = random.nextInt(2);
                for (int w = 0; w < 2; w++) {
                    World world = worlds[w];
                    switch (op) {
                        case 0, 1 -> { // spawn: growth, and new archetypes
                            for (int i = 0; i < amount; i++) {
                                if (tag == 2) {
                                    world.spawn(POSITION.of(new Position(value + i, -value)),
                                            VELOCITY.of(new Velocity(i % 7, 1)));
                                } else {
                                    world.spawn(POSITION.of(new Position(value + i, -value)),
                                            VELOCITY.of(new Velocity(i % 7, 1)), tags[tag].of(1.0));
                                }
                            }
                        }
                        case 2 -> { // despawn the first rows of some archetype
                            List<Archetype> found = world.findArchetypes(POSITION);
                            if (!found.isEmpty()) {
                                Archetype victim = found.get(Math.floorMod((int) value, found.size()));
                                int rows = Math.min(amount, victim.count());
                                long[] ids = new long[rows];
                                for (int r = 0; r < rows; r++) {
                                    ids[r] = victim.entity(r);
                                }
                                for (long id : ids) {
                                    world.despawn(id);
                                }
                            }
                        }
                        case 3 -> world.compact(); // shrinks buffers, prunes empty archetypes
                        case 4 -> { // a whole archetype changes its signature: buffers exchanged or bulk-copied
                            if (which == 0) {
                                world.batchSet(heavyQueries[w], CHARGE.of(2.0));
                            } else {
                                world.batchRemove(heavyQueries[w], MASS);
                            }
                        }
                        default -> world.batchDespawn(heavyQueries[w]);
                    }
                }
                int k = random.nextInt(kernels.size());
                float dt = 0.25f;
                int keptMarked = runner.run(queries[0], kernels.get(k), dt);
                int freshMarked = new KernelRunner().run(queries[1], kernels.get(k), dt);
                assertEquals(freshMarked, keptMarked, "seed=" + seed + " step=" + step + ": archetypes marked");
                assertEquals(state(fresh), state(kept), "seed=" + seed + " step=" + step + ": values and marks");
            }
        }
    }

    /** Every entity's archetype signature, position and Position dirty flag, in id order. */
    private static String state(World world) {
        java.util.TreeMap<Long, String> rows = new java.util.TreeMap<>();
        world.forEachArchetype((java.util.function.Consumer<Archetype>) archetype -> {
            if (!archetype.has(POSITION)) {
                return;
            }
            for (int row = 0; row < archetype.count(); row++) {
                rows.put(archetype.entity(row), java.util.Arrays.toString(archetype.signature()) + " "
                        + Float.floatToRawIntBits(archetype.get(X).get(row)) + " "
                        + Float.floatToRawIntBits(archetype.get(Y).get(row)) + " "
                        + archetype.isComponentDirty(POSITION));
            }
            archetype.clearDirtyComponents();
        });
        return rows.toString();
    }

    @Test
    void aKernelThatFailsLeavesTheRunnerUsable() {
        KernelRunner runner = new KernelRunner();
        ColumnKernel integrate = MotionKernels.integrate2d(X, Y, DX, DY);
        assertEquals(2, runner.run(movers, integrate, 1f));
        int[] calls = {0};
        ColumnKernel failing = new ColumnKernel() {
            @Override
            public KernelColumns columns() {
                return integrate.columns(); // shares the bindings of integrate
            }

            @Override
            public boolean run(MemorySegment[] segments, int count, float dt) {
                if (++calls[0] == 2) {
                    throw new IllegalStateException("boom");
                }
                return true;
            }
        };
        clearAll();
        assertThrows(IllegalStateException.class, () -> runner.run(movers, failing, 1f));
        // ALWAYS kernels are marked as they start on an archetype: the one the failing call began is marked too
        assertDirty(plain, true, false, "the first archetype, which the kernel completed");
        assertDirty(heavy, true, false, "the second, on which it threw (it may have written part of it)");
        assertUntouched("the failed run");
        for (int i = 0; i < 500; i++) { // plain grows: its buffers are replaced
            world.spawn(POSITION.of(new Position(1000, 1000)), VELOCITY.of(new Velocity(1, 1)));
        }
        clearAll();
        assertEquals(2, runner.run(movers, integrate, 1f));
        assertEquals(1001f, plain.get(X).get(plain.count() - 1), "the grown archetype's new rows moved");
        assertEquals(3f + 2f, plain.get(X).get(3), "the first run and this one (the failed run moved nothing)");
        assertDirty(plain, true, false, "after the failure");
    }

    @Test
    void readColumnsAreNeverMarkedEvenWhenTheyShareNoComponentWithWrites() {
        ColumnKernel kernel = MotionKernels.integrate2d(X, Y, DX, DY);
        List<Component<?>> before = plain.dirtyComponents();
        assertEquals(List.of(), before);
        new KernelRunner().run(movers, kernel, 1f);
        assertEquals(List.of(POSITION), plain.dirtyComponents());
        assertEquals(List.of(POSITION), heavy.dirtyComponents());
    }

    @Test
    void aConditionalKernelThatThrowsMarksTheArchetypeItMayHaveWritten() { // issue 18, like defect 10
        ColumnKernel integrate = MotionKernels.integrate2d(X, Y, DX, DY);
        KernelColumns conditional = KernelColumns.of(List.of(X, Y), List.of(DX, DY), WritePolicy.WHEN_CHANGED);
        int[] calls = {0};
        ColumnKernel failing = new ColumnKernel() {
            @Override
            public KernelColumns columns() {
                return conditional;
            }

            @Override
            public boolean run(MemorySegment[] segments, int count, float dt) {
                if (++calls[0] == 2) {
                    integrate.run(segments, count, dt); // wrote its rows, then failed
                    throw new IllegalStateException("boom after writing");
                }
                return false; // the first archetype: nothing changed
            }
        };
        clearAll();
        assertThrows(IllegalStateException.class, () -> new KernelRunner().run(movers, failing, 1f));
        assertDirty(plain, false, false, "reported no change");
        assertDirty(heavy, true, false, "threw after writing: marked");
    }
}
