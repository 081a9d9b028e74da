package dev.jtecs.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.builtin.systems.BuiltinSystems;
import dev.jtecs.builtin.ChildOf;
import dev.jtecs.builtin.RelativeTransform2D;
import dev.jtecs.builtin.TTL;
import dev.jtecs.builtin.Transform2D;
import dev.jtecs.component.Components;
import dev.jtecs.component.FloatField;
import dev.jtecs.component.NativeComponent;
import dev.jtecs.component.TagComponent;
import dev.jtecs.kernels.Bounds2D;
import dev.jtecs.kernels.BoundsReducer;
import dev.jtecs.kernels.ColumnKernel;
import dev.jtecs.kernels.HierarchyComposer;
import dev.jtecs.kernels.KernelColumns;
import dev.jtecs.kernels.KernelMode;
import dev.jtecs.kernels.KernelProvider;
import dev.jtecs.kernels.KernelRunner;
import dev.jtecs.kernels.LifetimeCountdown;
import dev.jtecs.kernels.MotionKernels;
import dev.jtecs.kernels.ParticleOps;
import dev.jtecs.kernels.ParticleStep;
import dev.jtecs.kernels.WritePolicy;
import dev.jtecs.kernels.vector.VectorParticleOps;
import dev.jtecs.query.Query;
import dev.jtecs.query.QueryDescriptor;
import dev.jtecs.storage.Archetype;
import dev.jtecs.world.World;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The examples of {@code docs/kernels.md}. */
class KernelsGuideTest {
    record Position(float x, float y) {}

    record Velocity(float dx, float dy) {}

    record Heat(float degrees) {}

    static final NativeComponent<Position> POSITION =
            Components.registerNative(Position.class, o -> o.name("docs.kernels.Position"));
    static final NativeComponent<Velocity> VELOCITY =
            Components.registerNative(Velocity.class, o -> o.name("docs.kernels.Velocity"));
    static final NativeComponent<Heat> HEAT = Components.registerNative(Heat.class, o -> o.name("docs.kernels.Heat"));
    static final TagComponent SPARK = Components.tag("docs.kernels.Spark");
    static final FloatField X = POSITION.floatField("x");
    static final FloatField Y = POSITION.floatField("y");
    static final FloatField DX = VELOCITY.floatField("dx");
    static final FloatField DY = VELOCITY.floatField("dy");
    static final FloatField DEGREES = HEAT.floatField("degrees");

    @Test
    void aKernelDeclaresItsColumns() {
        try (World world = World.create()) {
            long stove = world.spawn(HEAT.of(new Heat(80f)));
            Query hot = world.newQuery(QueryDescriptor.builder().include(HEAT).build());
            // begin-example
            ParticleOps ops = KernelProvider.particles(); // vector or scalar, chosen once per JVM
            ColumnKernel cool = new ColumnKernel() {
                // writes first, then reads; declared once, the same object on every call
                private final KernelColumns columns =
                        KernelColumns.of(List.of(DEGREES), List.of(), WritePolicy.ALWAYS);

                @Override
                public KernelColumns columns() {
                    return columns;
                }

                @Override
                public boolean run(MemorySegment[] segments, int count, float dt) {
                    // loses half its heat per second, however the second is cut into frames
                    ops.scale(segments[0], count, MotionKernels.dampingFactor(0.5f, dt));
                    return true; // ALWAYS kernels may answer anything
                }
            };
            new KernelRunner().run(hot, cool, 1f);
            assertEquals(40f, world.get(stove, HEAT).degrees());
            // end-example
        }
    }

    @Test
    void theRunnerMarksExactlyWhatTheKernelWrote() {
        try (World world = World.create()) {
            // begin-example
            Archetype walkers = world.archetypeOf(world.spawn(POSITION, VELOCITY.of(new Velocity(1, 0))));
            Archetype sparks = world.archetypeOf(world.spawn(POSITION, VELOCITY, SPARK));
            Archetype statues = world.archetypeOf(world.spawn(POSITION));
            Query movers = world.newQuery(QueryDescriptor.builder().include(POSITION, VELOCITY).build());
            world.forEachArchetype(Archetype::clearDirtyComponents);

            int marked = new KernelRunner().run(movers, MotionKernels.integrate2d(X, Y, DX, DY), 0.5f);

            assertEquals(2, marked); // walkers and sparks
            assertEquals(List.of(POSITION), walkers.dirtyComponents()); // Velocity was only read
            assertEquals(List.of(POSITION), sparks.dirtyComponents());
            assertEquals(List.of(), statues.dirtyComponents()); // not matched, not marked
            assertEquals(0.5f, walkers.get(X).get(0));
            // end-example
        }
    }

    @Test
    void theFusedParticleStepLeavesWhatTheFourPassesLeave() {
        try (World fused = World.create(); World separate = World.create()) {
            long[] ids = new long[1000];
            for (World w : List.of(fused, separate)) {
                BuiltinSystems.remove(w); // no builtin TTL system counting down beside ours
                for (int i = 0; i < ids.length; i++) {
                    double life = 0.01 + i * 0.0001; // the first 67 are spent after one step
                    ids[i] = w.spawn(POSITION.of(new Position(i, 0)), VELOCITY.of(new Velocity(1, i % 7)),
                            TTL.COMPONENT.of(new TTL(life, life)));
                }
            }
            Query separateQuery = separate.newQuery(QueryDescriptor.builder()
                    .include(POSITION, VELOCITY, TTL.COMPONENT).build());
            KernelRunner runner = new KernelRunner();
            LifetimeCountdown countdown = new LifetimeCountdown();
            // begin-example
            Query particles = fused.newQuery(QueryDescriptor.builder()
                    .include(POSITION, VELOCITY, TTL.COMPONENT).build());
            ParticleStep step = new ParticleStep(KernelProvider.particleSteps(), X, Y, DX, DY, -9.81f, 0.5f);
            int spent = step.run(particles, 1.0 / 60); // reads and writes x, y, dx, dy, remaining once each

            // what four passes over the same columns leave, bit for bit:
            runner.run(separateQuery, MotionKernels.gravity(DY, -9.81f), 1f / 60);
            runner.run(separateQuery, MotionKernels.damping(DX, DY, 0.5f), 1f / 60);
            runner.run(separateQuery, MotionKernels.integrate2d(X, Y, DX, DY), 1f / 60);
            assertEquals(countdown.countDown(separateQuery, 1.0 / 60), spent);
            assertEquals(67, spent);
            for (long id : ids) {
                assertEquals(separate.get(id, POSITION), fused.get(id, POSITION));
                assertEquals(separate.get(id, VELOCITY), fused.get(id, VELOCITY));
            }
            Archetype archetype = fused.archetypeOf(ids[0]);
            assertEquals(java.util.Set.of(POSITION, VELOCITY, TTL.COMPONENT),
                    java.util.Set.copyOf(archetype.dirtyComponents())); // what the four passes mark
            assertEquals(ids[0], step.expired(0));            // archetype order, then row order
            assertEquals(spent, step.despawnExpired(fused));  // one scope, published together
            assertEquals(ids.length - spent, fused.entityCount());
            // end-example
        }
    }

    @Test
    void aConditionalKernelMarksOnlyWhenARowChanged() {
        try (World world = World.create()) {
            long inside = world.spawn(POSITION.of(new Position(10, 0)), VELOCITY);
            Archetype archetype = world.archetypeOf(inside);
            Query movers = world.newQuery(QueryDescriptor.builder().include(POSITION, VELOCITY).build());
            world.forEachArchetype(Archetype::clearDirtyComponents);
            // begin-example
            KernelRunner runner = new KernelRunner();
            ColumnKernel fence = MotionKernels.clamp(X, -100f, 100f); // WritePolicy.WHEN_CHANGED

            assertEquals(0, runner.run(movers, fence, 0f)); // every x in bounds: nothing written
            assertFalse(archetype.isComponentDirty(POSITION));

            world.set(inside, POSITION.of(new Position(250, 0)));
            world.forEachArchetype(Archetype::clearDirtyComponents);
            assertEquals(1, runner.run(movers, fence, 0f)); // one row clamped: the column is marked
            assertTrue(archetype.isComponentDirty(POSITION));
            assertEquals(100f, world.get(inside, POSITION).x());
            // end-example
        }
    }

    @Test
    void theScalarTwinIsTheSpecification() {
        // begin-example
        try (Arena arena = Arena.ofShared()) {
            int count = 100;
            MemorySegment fast = arena.allocate(128L * Float.BYTES, 64); // shaped like a column: 64-row padding
            MemorySegment slow = arena.allocate(128L * Float.BYTES, 64);
            for (int row = 0; row < count; row++) {
                fast.setAtIndex(ValueLayout.JAVA_FLOAT, row, row * 0.1f);
                slow.setAtIndex(ValueLayout.JAVA_FLOAT, row, row * 0.1f);
            }
            KernelProvider.particles().accelerate(fast, count, -9.81f, 1f / 60f);
            ParticleOps.SCALAR.accelerate(slow, count, -9.81f, 1f / 60f);
            for (int row = 0; row < count; row++) { // the same bits, whichever implementation ran
                assertEquals(Float.floatToRawIntBits(slow.getAtIndex(ValueLayout.JAVA_FLOAT, row)),
                        Float.floatToRawIntBits(fast.getAtIndex(ValueLayout.JAVA_FLOAT, row)));
            }
        }
        // end-example
    }

    @Test
    void theProviderSaysWhatItChoseAndWhy() {
        // begin-example
        KernelMode mode = KernelProvider.mode(); // decided once, when the class initializes
        String why = KernelProvider.reason();    // e.g. "forced by -Djtecs.kernels=scalar"
        assertEquals(mode, KernelProvider.particles().mode());
        assertFalse(why.isEmpty());
        // pass SCALAR explicitly to compare against the specification in one JVM
        ColumnKernel reference = MotionKernels.gravity(ParticleOps.SCALAR, DY, -9.81f);
        assertTrue(reference.toString().endsWith("/SCALAR"));
        // end-example
    }

    @Test
    void vectorLoopsRunToThePaddedBound() {
        try (World world = World.create()) {
            // begin-example
            for (int i = 0; i < 70; i++) {
                world.spawn(POSITION, VELOCITY);
            }
            Archetype archetype = world.archetypeOf(world.spawn(POSITION, VELOCITY));
            int count = archetype.count();                         // 71
            int bound = VectorParticleOps.paddedCount(count);      // 71 rounded up to whole vectors
            assertEquals(0, bound % VectorParticleOps.lanes());
            assertTrue(bound <= archetype.capacityRows());         // 128: columns hold 64-row multiples
            // end-example
            assertEquals(71, count);
        }
    }

    @Test
    void theComposerRebuildsItsPlanOnlyWhenTheShapeChanges() {
        try (World world = World.create()) {
            BuiltinSystems.remove(world); // this example drives the composer by hand
            // begin-example
            long root = world.spawn(Transform2D.COMPONENT.of(Transform2D.at(10, 0)));
            long arm = world.spawn(ChildOf.COMPONENT.to(root),
                    RelativeTransform2D.COMPONENT.of(RelativeTransform2D.offset(2, 0)));
            HierarchyComposer composer = new HierarchyComposer(); // KernelProvider.transforms()

            assertEquals(1, composer.compose(world));        // archetypes whose Transform2D changed
            assertEquals(12f, world.get(arm, Transform2D.COMPONENT).x());
            assertEquals(1, composer.planRebuilds());

            world.set(root, Transform2D.COMPONENT.of(Transform2D.at(20, 0))); // a value: the plan stands
            composer.compose(world);
            assertEquals(1, composer.planRebuilds());
            assertEquals(22f, world.get(arm, Transform2D.COMPONENT).x());
            assertEquals(0, composer.compose(world));        // nothing moved: nothing marked

            world.spawn(ChildOf.COMPONENT.to(arm), RelativeTransform2D.COMPONENT); // the shape changed
            composer.compose(world);
            assertEquals(2, composer.planRebuilds());
            // end-example
        }
    }

    @Test
    void boundsOverAQueryReadOnly() {
        try (World world = World.create()) {
            // begin-example
            world.spawn(POSITION.of(new Position(10, 4)));
            world.spawn(POSITION.of(new Position(-3, 0)), SPARK);   // another archetype: counted too
            world.spawn(POSITION.of(new Position(Float.NaN, 2)));   // NaN x: skipped on x, y still counts
            Query placed = world.newQuery(QueryDescriptor.builder().include(POSITION).build());
            world.clearDirty();

            BoundsReducer reducer = new BoundsReducer();              // KernelProvider.bounds()
            Bounds2D box = reducer.bounds2d(placed, X, Y);
            assertEquals(new Bounds2D(-3, 0, 10, 4), box);
            assertEquals(List.of(), world.dirtyArchetypes());         // read only: nothing marked

            Query none = world.newQuery(QueryDescriptor.builder().include(POSITION, HEAT).build());
            assertEquals(Bounds2D.EMPTY, reducer.bounds2d(none, X, Y)); // +Infinity..-Infinity
            assertTrue(Bounds2D.EMPTY.isEmpty());
            // end-example
        }
    }
}
