package dev.jtecs.kernels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.builtin.systems.BuiltinSystems;
import dev.jtecs.builtin.ChildOf;
import dev.jtecs.builtin.RelativeTransform2D;
import dev.jtecs.builtin.Transform2D;
import dev.jtecs.kernels.vector.VectorTransformOps;
import dev.jtecs.schedule.Phases;
import dev.jtecs.world.World;
import org.junit.jupiter.api.Test;

/**
 * The kernel composer against the builtin composition system: the same transforms bit for bit and the same dirty
 * marks over random forests that change shape, on both implementations; the plan is rebuilt exactly when the
 * world's structure changed; roots, transformless parents and cycles are handled as the builtin system handles
 * them; a frame allocates nothing once warm.
 */
class HierarchyComposerTest {
    static final TransformOps[] BOTH = {VectorTransformOps.INSTANCE, TransformOps.SCALAR};
    static final RelativeTransform2D ARM = new RelativeTransform2D(10, 0, 1, 0.5f, 2, 1, 0, 0);
    static final RelativeTransform2D HAND = new RelativeTransform2D(3, -2, 0, -0.25f, 0.5f, 0.5f, 0, 0);

    @Test
    void matchesTheBuiltinSystemOnRandomForestsThatChangeShape() {
        for (TransformOps ops : BOTH) {
            for (long seed : new long[] {1, 0x5eedL, 0xfeedbeefL}) {
                System.out.println("HierarchyComposerTest random forests: seed=" + seed + " ops=" + ops.mode());
                try (World builtin = World.create(); World kernel = World.create()) {
                    BuiltinSystems.remove(kernel);
                    TwinScene scene = new TwinScene(seed, false, builtin, kernel);
                    scene.populate(30, 5);
                    HierarchyComposer composer = new HierarchyComposer(ops);
                    for (int frame = 0; frame < 60; frame++) {
                        String where = ops.mode() + " seed=" + seed + " frame=" + frame;
                        builtin.runPhase(Phases.POST_UPDATE, 1 / 60.0);
                        composer.compose(kernel);
                        scene.assertSame(where);
                        assertEquals(dirtyTransforms(builtin), dirtyTransforms(kernel), where + ": dirty marks");
                        builtin.clearDirty();
                        kernel.clearDirty();
                        scene.mutate();
                    }
                }
            }
        }
    }

    /** The archetypes whose Transform2D is dirty, by id. */
    private static java.util.List<Integer> dirtyTransforms(World world) {
        java.util.List<Integer> dirty = new java.util.ArrayList<>();
        world.forEachArchetype(a -> {
            if (a.isComponentDirty(Transform2D.COMPONENT)) {
                dirty.add(a.id());
            }
        });
        return dirty;
    }

    @Test
    void composesParentsFirstAtAnyDepthAndMarksOnlyWhereABitChanged() {
        for (TransformOps ops : BOTH) {
            try (World world = World.create()) {
                BuiltinSystems.remove(world);
                Transform2D rootPose = new Transform2D(5, 6, 0, 2, 0.3f, 2, 2);
                long root = world.spawn(Transform2D.COMPONENT.of(rootPose));
                // made deepest first: archetype creation order is no hint of depth
                long c = world.spawn(RelativeTransform2D.COMPONENT.of(HAND));
                long b = world.spawn(RelativeTransform2D.COMPONENT.of(ARM));
                world.set(c, ChildOf.COMPONENT.to(b));
                world.set(b, ChildOf.COMPONENT.to(root));
                long loose = world.spawn(Transform2D.COMPONENT.of(Transform2D.at(9, 9)),
                        RelativeTransform2D.COMPONENT.of(ARM)); // an offset and no parent: left alone
                world.clearDirty();
                HierarchyComposer composer = new HierarchyComposer(ops);

                assertSame(world.archetypeOf(b), world.archetypeOf(c)); // ChildOf is sparse: one archetype
                assertTrue(world.rowOf(c) < world.rowOf(b), "the child's row comes first");
                assertEquals(1, composer.compose(world), ops.mode().toString());
                Transform2D bPose = rootPose.compose(ARM);
                assertEquals(bPose, world.get(b, Transform2D.COMPONENT));
                assertEquals(bPose.compose(HAND), world.get(c, Transform2D.COMPONENT));
                assertEquals(Transform2D.at(9, 9), world.get(loose, Transform2D.COMPONENT));
                assertFalse(world.archetypeOf(loose).isComponentDirty(Transform2D.COMPONENT), "not composed");
                assertFalse(world.archetypeOf(root).isComponentDirty(Transform2D.COMPONENT), "only read");
                assertFalse(world.archetypeOf(b).isComponentDirty(RelativeTransform2D.COMPONENT), "only read");

                world.clearDirty();
                assertEquals(0, composer.compose(world), "a still hierarchy leaves Transform2D clean");
                assertEquals(java.util.List.of(), world.dirtyArchetypes());

                world.set(root, Transform2D.COMPONENT.of(Transform2D.at(1, 1))); // a value write, not structural
                world.clearDirty();
                long rebuilds = composer.planRebuilds();
                assertEquals(1, composer.compose(world));
                assertEquals(rebuilds, composer.planRebuilds(), "values do not rebuild the plan");
                assertEquals(Transform2D.at(1, 1).compose(ARM).compose(HAND), world.get(c, Transform2D.COMPONENT));
            }
        }
    }

    @Test
    void rebuildsThePlanExactlyWhenTheStructureChanged() {
        try (World world = World.create()) {
            BuiltinSystems.remove(world);
            long root = world.spawn(Transform2D.COMPONENT.of(Transform2D.at(100, 0)));
            long[] children = new long[70];
            for (int i = 0; i < children.length; i++) {
                children[i] = world.spawn(ChildOf.COMPONENT.to(root), RelativeTransform2D.COMPONENT.of(
                        RelativeTransform2D.offset(i, 0)));
            }
            HierarchyComposer composer = new HierarchyComposer();
            composer.compose(world);
            assertEquals(1, composer.planRebuilds());
            assertEquals(1, composer.plannedArchetypes());
            for (int frame = 0; frame < 5; frame++) {
                world.set(children[3], RelativeTransform2D.COMPONENT.of(RelativeTransform2D.offset(frame, 1)));
                composer.compose(world);
            }
            assertEquals(1, composer.planRebuilds(), "five frames of value writes: the plan stands");

            world.despawn(children[0]); // the last row moves into row 0: a cached row would be stale
            composer.compose(world);
            assertEquals(2, composer.planRebuilds());
            assertEquals(new Transform2D(169, 0, 0, 0, 0, 1, 1), world.get(children[69], Transform2D.COMPONENT));

            world.set(root, TwinScene.MARK); // the parent moves to another archetype and row
            world.set(root, Transform2D.COMPONENT.of(Transform2D.at(-100, 0)));
            composer.compose(world);
            assertEquals(3, composer.planRebuilds());
            assertEquals(-31f, world.get(children[69], Transform2D.COMPONENT).x());

            for (int i = 0; i < 100; i++) { // growth replaces every buffer of the children's archetype
                world.spawn(ChildOf.COMPONENT.to(root), RelativeTransform2D.COMPONENT);
            }
            world.set(children[69], RelativeTransform2D.COMPONENT.of(RelativeTransform2D.offset(1, 0)));
            composer.compose(world);
            assertEquals(4, composer.planRebuilds());
            assertEquals(-99f, world.get(children[69], Transform2D.COMPONENT).x());

            long other = world.spawn(Transform2D.COMPONENT.of(Transform2D.at(500, 0)));
            composer.compose(world);
            assertEquals(4, composer.planRebuilds(), "a root in an archetype the plan does not watch");
            int row = world.rowOf(children[69]);
            world.set(children[69], ChildOf.COMPONENT.to(other)); // only the edge store changes
            assertEquals(row, world.rowOf(children[69]));
            composer.compose(world);
            assertEquals(5, composer.planRebuilds(), "a reparent rebuilds the plan though no row moved");
            assertEquals(501f, world.get(children[69], Transform2D.COMPONENT).x());
        }
    }

    @Test
    void churnOutsideTheHierarchyLeavesThePlanStanding() {
        try (World world = World.create()) {
            BuiltinSystems.remove(world);
            long root = world.spawn(Transform2D.COMPONENT.of(Transform2D.at(5, 0)));
            long child = world.spawn(ChildOf.COMPONENT.to(root), RelativeTransform2D.COMPONENT.of(ARM));
            HierarchyComposer composer = new HierarchyComposer();
            composer.compose(world);
            for (int frame = 0; frame < 10; frame++) {
                // particles come and go every frame: with a transform of their own, and without
                for (int i = 0; i < 30; i++) {
                    world.spawn(Transform2D.COMPONENT.of(Transform2D.at(i, frame)), TwinScene.MARK);
                    world.spawn(TwinScene.BARE);
                }
                world.set(root, Transform2D.COMPONENT.of(Transform2D.at(5 + frame, 0)));
                composer.compose(world);
                assertEquals(Transform2D.at(5 + frame, 0).compose(ARM), world.get(child, Transform2D.COMPONENT));
            }
            assertEquals(1, composer.planRebuilds(), "nothing the plan depends on changed shape");
        }
    }

    @Test
    void aParentsRowMovingInAnArchetypeThatIsNotComposedRebuildsThePlan() {
        try (World world = World.create()) {
            BuiltinSystems.remove(world);
            long first = world.spawn(Transform2D.COMPONENT.of(Transform2D.at(1, 0)));
            long last = world.spawn(Transform2D.COMPONENT.of(Transform2D.at(2, 0)));
            long child = world.spawn(ChildOf.COMPONENT.to(last), RelativeTransform2D.COMPONENT.of(ARM));
            HierarchyComposer composer = new HierarchyComposer();
            composer.compose(world);
            assertEquals(1, world.rowOf(last));
            world.despawn(first); // the roots' archetype swaps its last row, the parent, into row 0
            assertEquals(0, world.rowOf(last));
            world.set(last, Transform2D.COMPONENT.of(Transform2D.at(7, 0)));
            composer.compose(world);
            assertEquals(2, composer.planRebuilds());
            assertEquals(Transform2D.at(7, 0).compose(ARM), world.get(child, Transform2D.COMPONENT));
        }
    }

    @Test
    void aParentGainingATransformRebuildsThePlan() {
        try (World world = World.create()) {
            BuiltinSystems.remove(world);
            long bare = world.spawn(TwinScene.BARE);
            long child = world.spawn(ChildOf.COMPONENT.to(bare), RelativeTransform2D.COMPONENT.of(ARM));
            HierarchyComposer composer = new HierarchyComposer();
            composer.compose(world);
            assertEquals(Transform2D.IDENTITY.compose(ARM), world.get(child, Transform2D.COMPONENT));
            world.set(bare, Transform2D.COMPONENT.of(Transform2D.at(3, 4))); // moves the parent: no offset around
            composer.compose(world);
            assertEquals(2, composer.planRebuilds());
            assertEquals(Transform2D.at(3, 4).compose(ARM), world.get(child, Transform2D.COMPONENT));
        }
    }

    @Test
    void aParentWithoutATransformCountsAsTheIdentity() {
        for (TransformOps ops : BOTH) {
            try (World world = World.create()) {
                BuiltinSystems.remove(world);
                long bare = world.spawn(TwinScene.BARE);
                long child = world.spawn(ChildOf.COMPONENT.to(bare), RelativeTransform2D.COMPONENT.of(ARM));
                new HierarchyComposer(ops).compose(world);
                assertEquals(Transform2D.IDENTITY.compose(ARM), world.get(child, Transform2D.COMPONENT));
            }
        }
    }

    @Test
    void aCycleEndsTheRunAndAgreesWithTheBuiltinSystem() {
        for (TransformOps ops : BOTH) {
            try (World builtin = World.create(); World kernel = World.create()) {
                BuiltinSystems.remove(kernel);
                long[] ids = new long[3];
                for (World w : new World[] {builtin, kernel}) {
                    ids[0] = w.spawn(Transform2D.COMPONENT, RelativeTransform2D.COMPONENT.of(ARM));
                    ids[1] = w.spawn(ChildOf.COMPONENT.to(ids[0]), RelativeTransform2D.COMPONENT.of(HAND));
                    w.set(ids[0], ChildOf.COMPONENT.to(ids[1]));
                    ids[2] = w.spawn(ChildOf.COMPONENT.to(ids[1]), RelativeTransform2D.COMPONENT.of(ARM));
                }
                HierarchyComposer composer = new HierarchyComposer(ops);
                for (int frame = 0; frame < 3; frame++) {
                    builtin.runPhase(Phases.POST_UPDATE, 0);
                    composer.compose(kernel);
                    for (long id : ids) {
                        assertEquals(TwinScene.bits(builtin.get(id, Transform2D.COMPONENT)),
                                TwinScene.bits(kernel.get(id, Transform2D.COMPONENT)), ops.mode() + " frame " + frame);
                    }
                }
                assertEquals(1, composer.plannedArchetypes(), "the three rows share one archetype");
            }
        }
    }

    @Test
    void servesOneWorld() {
        World first = World.create();
        try (World second = World.create()) {
            HierarchyComposer composer = new HierarchyComposer();
            composer.compose(first);
            IllegalStateException refused = assertThrows(IllegalStateException.class, () -> composer.compose(second));
            assertTrue(refused.getMessage().contains("HierarchyComposer/"), refused.getMessage());
            first.close();
            assertThrows(IllegalStateException.class, () -> composer.compose(first), "a closed world refuses");
        } finally {
            first.close(); // (a second close does nothing)
        }
    }

    @Test
    void aFrameAllocatesNothingOnceWarm() {
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        long thread = Thread.currentThread().threadId();
        for (TransformOps ops : BOTH) {
            try (World world = World.create()) {
                BuiltinSystems.remove(world);
                new TwinScene(7, false, world).populate(40, 4);
                HierarchyComposer composer = new HierarchyComposer(ops);
                long best = Long.MAX_VALUE;
                // vector code allocates until C2 compiles it: keep the best round, for up to 20 seconds
                long deadline = System.nanoTime() + 20_000_000_000L;
                for (int round = 0; best > 0 && (round < 20 || System.nanoTime() < deadline); round++) {
                    long before = threads.getThreadAllocatedBytes(thread);
                    for (int i = 0; i < 500; i++) {
                        composer.compose(world);
                    }
                    best = Math.min(best, threads.getThreadAllocatedBytes(thread) - before);
                }
                assertEquals(0, best, ops.mode() + ": bytes allocated by 500 frames in the best round");
                assertEquals(1, composer.planRebuilds());
            }
        }
    }
}
