package dev.jtecs.kernels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.jtecs.builtin.systems.BuiltinSystems;
import dev.jtecs.builtin.ChildOf;
import dev.jtecs.builtin.RelativeTransform2D;
import dev.jtecs.builtin.Transform2D;
import dev.jtecs.kernels.vector.VectorLifetimeOps;
import dev.jtecs.kernels.vector.VectorTransformOps;
import dev.jtecs.query.Query;
import dev.jtecs.query.QueryDescriptor;
import dev.jtecs.schedule.Phases;
import dev.jtecs.schedule.SystemConfig;
import dev.jtecs.schedule.SystemInfo;
import dev.jtecs.storage.Archetype;
import dev.jtecs.storage.FloatColumn;
import dev.jtecs.world.World;
import dev.jtecs.world.WorldConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A world whose builtin TTL and relative-transform systems run kernel bodies behaves exactly like one with the
 * builtin bodies: the same entities live and die in the same frames, with the same bits in every transform and
 * lifetime and the same dirty components in every frame, over many frames of random forests whose roots move
 * and whose entities expire; the swap keeps every system where it was.
 */
class KernelSystemsTest {
    static final double TIMESTEP = 1.0 / 60;

    @Test
    void aKernelWorldStaysBitForBitTheBuiltinWorldOverManyFrames() {
        LifetimeOps[] lifetimes = {VectorLifetimeOps.INSTANCE, LifetimeOps.SCALAR};
        TransformOps[] transforms = {VectorTransformOps.INSTANCE, TransformOps.SCALAR};
        for (int impl = 0; impl < 2; impl++) {
            for (long seed : new long[] {11, 0xabcdefL, 0x7F4A7C15L}) {
                String run = lifetimes[impl].mode() + " seed=" + seed;
                System.out.println("KernelSystemsTest twin worlds: " + run);
                try (World builtin = world(); World kernel = world()) {
                    assertEquals(2, KernelSystems.install(kernel, lifetimes[impl], transforms[impl]));
                    List<String> builtinDirt = probe(builtin);
                    List<String> kernelDirt = probe(kernel);
                    TwinScene scene = new TwinScene(seed, true, builtin, kernel);
                    scene.populate(25, 4);
                    SplittableRandom frames = new SplittableRandom(seed);
                    for (int frame = 0; frame < 150; frame++) {
                        double dt = frames.nextDouble(0.004, 0.05); // zero to three fixed steps a frame
                        builtin.update(dt);
                        kernel.update(dt);
                        String where = run + " frame=" + frame;
                        scene.assertSame(where);
                        TwinScene.assertSameLists(builtinDirt, kernelDirt, where + ": dirty components seen in LAST");
                        builtinDirt.clear();
                        kernelDirt.clear();
                        if (frame % 3 == 0) {
                            scene.mutate();
                        }
                        if (frame % 10 == 0) {
                            scene.spawnRoot(); // lifetimes keep coming
                        }
                    }
                    assertEquals(builtin.fixedStepCount(), kernel.fixedStepCount());
                    System.out.println("  " + kernel.entityCount() + " entities left of " + scene.ids().size());
                }
            }
        }
    }

    /** A world with a system of ours in UPDATE that moves and turns every root with a transform. */
    private static World world() {
        World world = World.create(WorldConfig.defaults().timestep(TIMESTEP));
        Query roots = world.newQuery(QueryDescriptor.builder().include(Transform2D.COMPONENT)
                .exclude(ChildOf.ANY, RelativeTransform2D.COMPONENT).build());
        world.addSystem(SystemConfig.named("test.MoveRoots").phase(Phases.UPDATE).run((dt, w) ->
                roots.forEach((archetype, count) -> {
                    FloatColumn x = archetype.getMut(Transform2D.X);
                    FloatColumn r = archetype.getMut(Transform2D.ROTATION);
                    for (int row = 0; row < count; row++) {
                        x.set(row, x.get(row) + (float) dt * (row % 7 - 3));
                        r.set(row, r.get(row) + (float) dt * 0.5f);
                    }
                })));
        return world;
    }

    /** Records, in LAST, every archetype's dirty components (after POST_UPDATE composed, before the clear). */
    private static List<String> probe(World world) {
        List<String> log = new ArrayList<>();
        world.addSystem(SystemConfig.named("test.DirtyProbe").phase(Phases.LAST).run((dt, w) ->
                w.forEachArchetype(a -> {
                    if (a.anyComponentDirty()) {
                        log.add(a.id() + ":" + a.dirtyComponents().stream().map(c -> c.name()).toList());
                    }
                })));
        return log;
    }

    @Test
    void installSwapsTheBodiesInPlace() {
        try (World world = World.create()) {
            world.addSystem(SystemConfig.named("game.Early").phase(Phases.POST_UPDATE).run((dt, w) -> { }));
            world.addSystem(SystemConfig.named("game.Late").phase(Phases.POST_UPDATE)
                    .after(BuiltinSystems.RELATIVE_TRANSFORMS).run((dt, w) -> { }));
            world.setSystemEnabled(BuiltinSystems.TTL, false);
            List<SystemInfo> before = world.listSystems();
            assertEquals(2, KernelSystems.install(world));
            assertEquals(before, world.listSystems(), "names, phases, order and enabled state unchanged");
        }
    }

    @Test
    void aRemovedSystemStaysRemoved() {
        try (World world = World.create()) {
            world.removeSystem(BuiltinSystems.TTL);
            assertEquals(1, KernelSystems.install(world));
            assertEquals(List.of(BuiltinSystems.SNAPSHOT_TRANSFORMS, BuiltinSystems.RELATIVE_TRANSFORMS),
                    world.listSystems().stream().map(SystemInfo::name).toList());
            world.addSystem(KernelSystems.ttl());
            assertEquals(BuiltinSystems.NAMES, world.listSystems().stream().map(SystemInfo::name).toList());
            assertEquals(Phases.FIXED_POST_UPDATE, world.listSystems().get(1).phase());
        }
    }

    @Test
    void theFactoriesGiveTheBuiltinNamesAndPhasesWithKernelBodies() {
        SystemConfig ttl = KernelSystems.ttl();
        SystemConfig transforms = KernelSystems.relativeTransforms();
        assertEquals(BuiltinSystems.ttl().name(), ttl.name());
        assertEquals(BuiltinSystems.ttl().phase(), ttl.phase());
        assertInstanceOf(LifetimeSystem.class, ttl.body());
        assertEquals(BuiltinSystems.relativeTransforms().name(), transforms.name());
        assertEquals(BuiltinSystems.relativeTransforms().phase(), transforms.phase());
        assertInstanceOf(HierarchyComposer.class, transforms.body());
    }

    @Test
    void aPipelineThatCannotSwapBodiesRefusesAndChangesNothing() {
        try (World world = World.create(WorldConfig.defaults().pipelineFactory(ForwardingPipeline::new))) {
            long root = world.spawn(Transform2D.COMPONENT.of(Transform2D.at(1, 2)));
            long child = world.spawn(ChildOf.COMPONENT.to(root), RelativeTransform2D.COMPONENT);
            assertThrows(UnsupportedOperationException.class, () -> KernelSystems.install(world));
            assertThrows(NullPointerException.class, () -> KernelSystems.install(null));
            world.update(0);
            assertEquals(Transform2D.at(1, 2), world.get(child, Transform2D.COMPONENT), "the builtin bodies still run");
            Archetype archetype = world.archetypeOf(child);
            assertEquals(1, archetype.count());
        }
    }

    /** A custom pipeline written before replaceSystemBody existed: it forwards everything else. */
    static final class ForwardingPipeline implements dev.jtecs.schedule.Pipeline {
        private final dev.jtecs.schedule.Scheduler inner;

        ForwardingPipeline(World world, dev.jtecs.schedule.DispatchScope scope) {
            inner = new dev.jtecs.schedule.Scheduler(world, scope);
        }

        @Override public void update(double dt) { inner.update(dt); }
        @Override public void run(dev.jtecs.schedule.PhaseSelection s, double dt) { inner.run(s, dt); }
        @Override public String addSystem(SystemConfig c) { return inner.addSystem(c); }
        @Override public boolean removeSystem(String name) { return inner.removeSystem(name); }
        @Override public boolean setSystemEnabled(String n, boolean e) { return inner.setSystemEnabled(n, e); }
        @Override public List<SystemInfo> listSystems() { return inner.listSystems(); }
        @Override public int systemCount() { return inner.systemCount(); }
        @Override public void registerPhase(dev.jtecs.schedule.PhaseDefinition d) { inner.registerPhase(d); }
        @Override public void enablePhase(dev.jtecs.schedule.PhaseSelection s) { inner.enablePhase(s); }
        @Override public void disablePhase(dev.jtecs.schedule.PhaseSelection s) { inner.disablePhase(s); }
        @Override public boolean isPhaseEnabled(dev.jtecs.schedule.Phase p) { return inner.isPhaseEnabled(p); }
        @Override public void enqueueCommit() { inner.enqueueCommit(); }
        @Override public dev.jtecs.schedule.FixedTiming fixedTiming() { return inner.fixedTiming(); }
        @Override public long fixedStepCount() { return inner.fixedStepCount(); }
        @Override public double fixedTimeDropped() { return inner.fixedTimeDropped(); }
        @Override public long fixedStepsDropped() { return inner.fixedStepsDropped(); }
    }
}
