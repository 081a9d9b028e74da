package dev.jtecs.kernels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.component.Components;
import dev.jtecs.component.FloatField;
import dev.jtecs.component.NativeComponent;
import dev.jtecs.component.ScalarComponent;
import dev.jtecs.kernels.vector.VectorParticleOps;
import dev.jtecs.query.Query;
import dev.jtecs.query.QueryDescriptor;
import dev.jtecs.storage.Archetype;
import dev.jtecs.world.World;
import java.lang.management.ManagementFactory;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The 3D motion kernels through the runner: each marks exactly the components of its written columns on exactly the
 * archetypes it ran on (conditional ones only where a row changed), and computes per axis what the 2D kernels
 * compute. Every kernel runs both as vector and as scalar.
 */
class Motion3DKernelsTest {
    record Position3(float x, float y, float z) {}

    record Velocity3(float dx, float dy, float dz) {}

    record Depth(float z) {}

    static final NativeComponent<Position3> POSITION =
            Components.registerNative(Position3.class, o -> o.name("kernels.test.Position3"));
    static final NativeComponent<Velocity3> VELOCITY =
            Components.registerNative(Velocity3.class, o -> o.name("kernels.test.Velocity3"));
    static final NativeComponent<Depth> DEPTH =
            Components.registerNative(Depth.class, o -> o.name("kernels.test.Depth"));
    static final ScalarComponent.OfDouble MASS = Components.scalar("kernels.test.Mass3", 1.0);
    static final ScalarComponent.OfDouble CHARGE = Components.scalar("kernels.test.Charge3", 1.0);
    static final FloatField X = POSITION.floatField("x");
    static final FloatField Y = POSITION.floatField("y");
    static final FloatField Z = POSITION.floatField("z");
    static final FloatField DX = VELOCITY.floatField("dx");
    static final FloatField DY = VELOCITY.floatField("dy");
    static final FloatField DZ = VELOCITY.floatField("dz");
    static final FloatField DEPTH_Z = DEPTH.floatField("z");
    static final ParticleOps[] BOTH = {VectorParticleOps.INSTANCE, ParticleOps.SCALAR};

    private World world;
    private Query movers;
    private Archetype plain;   // Position3, Velocity3: 100 rows, z = 0 .. 99
    private Archetype heavy;   // Position3, Velocity3, Mass: 37 rows, z = 0 .. 36
    private Archetype emptied; // Position3, Velocity3, Charge: matched, no rows
    private Archetype still;   // Position3 only: not matched

    @BeforeEach
    void world() {
        world = World.create();
        for (int i = 0; i < 100; i++) {
            world.spawn(POSITION.of(new Position3(i, -i, i)), VELOCITY.of(new Velocity3(1, 2, -3)));
        }
        for (int i = 0; i < 37; i++) {
            world.spawn(POSITION.of(new Position3(i, i, i)), VELOCITY.of(new Velocity3(-1, 0.5f, 4)), MASS.of(2.0));
        }
        long gone = world.spawn(POSITION, VELOCITY, CHARGE);
        long alone = world.spawn(POSITION.of(new Position3(500, 500, 500)));
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
        assertEquals(position, archetype.isComponentDirty(POSITION), where + " Position3 on " + archetype);
        assertEquals(velocity, archetype.isComponentDirty(VELOCITY), where + " Velocity3 on " + archetype);
    }

    private void assertUntouched(String where) {
        assertDirty(emptied, false, false, where + " (empty archetype)");
        assertDirty(still, false, false, where + " (unmatched archetype)");
    }

    @Test
    void integrate3dMarksPositionOnlyOnTheArchetypesItRanOn() {
        for (ParticleOps ops : BOTH) {
            clearAll();
            long writesBefore = plain.writeCount(POSITION);
            ColumnKernel kernel = Motion3DKernels.integrate3d(ops, X, Y, Z, DX, DY, DZ);
            assertEquals(2, new KernelRunner().run(movers, kernel, 0.5f), kernel.toString());
            assertDirty(plain, true, false, kernel.toString());
            assertDirty(heavy, true, false, kernel.toString());
            assertUntouched(kernel.toString());
            assertEquals(writesBefore + 1, plain.writeCount(POSITION), "x, y, z are one component: one mark");
        }
        // both runs integrated: p = p0 + 2 * (v * 0.5)
        assertEquals(3f + 1f, plain.get(X).get(3));
        assertEquals(-3f + 2f, plain.get(Y).get(3));
        assertEquals(3f - 3f, plain.get(Z).get(3));
        assertEquals(5f + 4f, heavy.get(Z).get(5));
        assertEquals(500f, still.get(Z).get(0), "the unmatched archetype did not move");
    }

    @Test
    void gravity3dAndDamping3dMarkVelocityOnlyAndActPerAxis() {
        for (ParticleOps ops : BOTH) {
            close();
            world();
            ColumnKernel gravity = Motion3DKernels.gravity3d(ops, DX, DY, DZ, 0f, -9.81f, 2.5f);
            assertEquals(2, new KernelRunner().run(movers, gravity, 0.25f), gravity.toString());
            assertDirty(plain, false, true, gravity.toString());
            assertDirty(heavy, false, true, gravity.toString());
            assertUntouched(gravity.toString());
            assertEquals(1f + 0f * 0.25f, plain.get(DX).get(7), gravity.toString());
            assertEquals(2f + -9.81f * 0.25f, plain.get(DY).get(7), gravity.toString());
            assertEquals(4f + 2.5f * 0.25f, heavy.get(DZ).get(7), gravity.toString());

            clearAll();
            ColumnKernel damping = Motion3DKernels.damping3d(ops, DX, DY, DZ, 0.5f);
            assertEquals(2, new KernelRunner().run(movers, damping, 1f), damping.toString());
            assertDirty(plain, false, true, damping.toString());
            assertDirty(heavy, false, true, damping.toString());
            assertUntouched(damping.toString());
            float factor = MotionKernels.dampingFactor(0.5f, 1f);
            assertEquals((4f + 2.5f * 0.25f) * factor, heavy.get(DZ).get(7), damping.toString());
            assertEquals((1f + 0f * 0.25f) * factor, plain.get(DX).get(7), damping.toString());
        }
    }

    @Test
    void conditional3dKernelsThatChangeNothingMarkNothing() {
        for (ParticleOps ops : BOTH) {
            for (ColumnKernel kernel : List.of(
                    Motion3DKernels.wrap3d(ops, X, Y, Z, -1000f, -1000f, -1000f, 1000f, 1000f, 1000f),
                    Motion3DKernels.clamp3d(ops, X, Y, Z, -1000f, -1000f, -1000f, 1000f, 1000f, 1000f))) {
                clearAll();
                assertEquals(0, new KernelRunner().run(movers, kernel, 1f / 60f), kernel.toString());
                assertDirty(plain, false, false, kernel.toString());
                assertDirty(heavy, false, false, kernel.toString());
                assertUntouched(kernel.toString());
            }
        }
    }

    @Test
    void conditional3dKernelsMarkOnlyWhereARowOfSomeAxisChanged() {
        for (ParticleOps ops : BOTH) {
            close(); // the previous pass moved the rows: start from fresh ones
            world();
            // only z of plain goes past 50 (heavy's z stops at 36); x and y stay inside
            ColumnKernel clamp = Motion3DKernels.clamp3d(ops, X, Y, Z, -1000f, -1000f, -1000f, 1000f, 1000f, 50f);
            assertEquals(1, new KernelRunner().run(movers, clamp, 0f), clamp.toString());
            assertDirty(plain, true, false, clamp.toString());
            assertDirty(heavy, false, false, clamp.toString());
            assertUntouched(clamp.toString());
            assertEquals(50f, plain.get(Z).get(99));
            assertEquals(99f, plain.get(X).get(99), "x was inside its bounds");

            clearAll();
            ColumnKernel wrap = Motion3DKernels.wrap3d(ops, X, Y, Z, 0f, -1000f, -1000f, 37f, 1000f, 1000f);
            assertEquals(1, new KernelRunner().run(movers, wrap, 0f), wrap.toString());
            assertDirty(plain, true, false, wrap.toString());
            assertDirty(heavy, false, false, wrap.toString());
            assertEquals(40f - 37f, plain.get(X).get(40));
            assertEquals(-40f, plain.get(Y).get(40), "y was inside its bounds");
        }
    }

    @Test
    void wrap3dAndClamp3dAgreeWithThe2dKernelsPerAxis() {
        for (ParticleOps ops : BOTH) {
            try (World other = World.create()) {
                close();
                world();
                for (int i = 0; i < 100; i++) {
                    other.spawn(POSITION.of(new Position3(i, -i, i)), VELOCITY.of(new Velocity3(1, 2, -3)));
                }
                Query otherMovers = other.newQuery(QueryDescriptor.builder().include(POSITION, VELOCITY).build());
                KernelRunner runner = new KernelRunner();
                runner.run(movers, Motion3DKernels.wrap3d(ops, X, Y, Z, 10f, -50f, 5f, 30f, -10f, 60f), 0f);
                runner.run(movers, Motion3DKernels.clamp3d(ops, X, Y, Z, 12f, -40f, 6f, 25f, -20f, 50f), 0f);
                runner.run(otherMovers, MotionKernels.wrap(ops, X, 10f, 30f), 0f);
                runner.run(otherMovers, MotionKernels.wrap(ops, Y, -50f, -10f), 0f);
                runner.run(otherMovers, MotionKernels.wrap(ops, Z, 5f, 60f), 0f);
                runner.run(otherMovers, MotionKernels.clamp(ops, X, 12f, 25f), 0f);
                runner.run(otherMovers, MotionKernels.clamp(ops, Y, -40f, -20f), 0f);
                runner.run(otherMovers, MotionKernels.clamp(ops, Z, 6f, 50f), 0f);
                Archetype expected = other.archetypeOf(other.spawn(POSITION, VELOCITY));
                for (int row = 0; row < 100; row++) {
                    for (FloatField axis : List.of(X, Y, Z)) {
                        assertEquals(expected.get(axis).get(row), plain.get(axis).get(row),
                                ops.mode() + " " + axis + " row=" + row);
                    }
                }
            }
        }
    }

    @Test
    void conditional3dKernelsNeedTheAxesInOneComponent() {
        IllegalArgumentException wrap = assertThrows(IllegalArgumentException.class,
                () -> Motion3DKernels.wrap3d(X, Y, DEPTH_Z, 0, 0, 0, 1, 1, 1));
        assertTrue(wrap.getMessage().contains("kernels.test.Depth") && wrap.getMessage().contains("wrap"),
                wrap.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Motion3DKernels.clamp3d(X, DEPTH_Z, Z, 0, 0, 0, 1, 1, 1));
        // unconditional kernels mark every written component anyway: axes may live anywhere
        long id = world.spawn(POSITION, VELOCITY, DEPTH);
        Archetype split = world.archetypeOf(id);
        Query query = world.newQuery(QueryDescriptor.builder().include(POSITION, VELOCITY, DEPTH).build());
        clearAll();
        assertEquals(1, new KernelRunner().run(query, Motion3DKernels.integrate3d(X, Y, DEPTH_Z, DX, DY, DZ), 1f));
        assertTrue(split.isComponentDirty(POSITION), "x and y");
        assertTrue(split.isComponentDirty(DEPTH), "z");
        assertFalse(split.isComponentDirty(VELOCITY), "only read");
    }

    @Test
    void badArgumentsAreRefusedWithEveryOperandNamed() {
        IllegalArgumentException g = assertThrows(IllegalArgumentException.class,
                () -> Motion3DKernels.gravity3d(DX, DY, DZ, 0f, Float.NaN, 0f));
        assertTrue(g.getMessage().contains("gy=NaN"), g.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> Motion3DKernels.gravity3d(DX, DY, DZ, Float.POSITIVE_INFINITY, 0f, 0f));
        assertThrows(IllegalArgumentException.class, () -> Motion3DKernels.damping3d(DX, DY, DZ, 1.5f));
        assertThrows(IllegalArgumentException.class, () -> Motion3DKernels.damping3d(DX, DY, DZ, Float.NaN));
        IllegalArgumentException bounds = assertThrows(IllegalArgumentException.class,
                () -> Motion3DKernels.wrap3d(X, Y, Z, 0, 0, 5, 1, 1, 5));
        assertTrue(bounds.getMessage().contains("on z") && bounds.getMessage().contains("min=5.0"),
                bounds.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> Motion3DKernels.clamp3d(X, Y, Z, Float.NaN, 0, 0, 1, 1, 1));
        assertThrows(IllegalArgumentException.class,
                () -> Motion3DKernels.clamp3d(X, Y, Z, -Float.MAX_VALUE, 0, 0, Float.MAX_VALUE, 1, 1));
        assertThrows(IllegalArgumentException.class, () -> Motion3DKernels.integrate3d(X, Y, X, DX, DY, DZ),
                "a column written twice");
    }

    @Test
    void aRunAllocatesNothingOnceWarm() {
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long thread = Thread.currentThread().threadId();
        for (ParticleOps ops : BOTH) {
            KernelRunner runner = new KernelRunner();
            List<ColumnKernel> kernels = List.of(Motion3DKernels.integrate3d(ops, X, Y, Z, DX, DY, DZ),
                    Motion3DKernels.gravity3d(ops, DX, DY, DZ, 0f, -9.81f, 0f),
                    Motion3DKernels.damping3d(ops, DX, DY, DZ, 0.9f),
                    Motion3DKernels.wrap3d(ops, X, Y, Z, -100f, -100f, -100f, 100f, 100f, 100f),
                    Motion3DKernels.clamp3d(ops, X, Y, Z, -100f, -100f, -100f, 100f, 100f, 100f));
            long best = Long.MAX_VALUE;
            // vector code allocates until C2 compiles it: keep the best round, for up to 20 seconds
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
}
