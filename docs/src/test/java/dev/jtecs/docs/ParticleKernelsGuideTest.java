package dev.jtecs.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.builtin.TTL;
import dev.jtecs.component.Components;
import dev.jtecs.component.FloatField;
import dev.jtecs.component.NativeComponent;
import dev.jtecs.kernels.BatchFill;
import dev.jtecs.kernels.ColumnKernel;
import dev.jtecs.kernels.KernelRunner;
import dev.jtecs.kernels.Motion3DKernels;
import dev.jtecs.kernels.OverLifetime;
import dev.jtecs.query.Query;
import dev.jtecs.query.QueryDescriptor;
import dev.jtecs.storage.Archetype;
import dev.jtecs.world.World;
import dev.jtecs.world.WorldConfig;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** The particle-effect examples of {@code docs/kernels.md}: 3D motion, values over a lifetime, batch fills. */
class ParticleKernelsGuideTest {
    record Position3(float x, float y, float z) {}

    record Velocity3(float x, float y, float z) {}

    record Glow(float r, float g, float b, float a, float size) {}

    static final NativeComponent<Position3> POSITION =
            Components.registerNative(Position3.class, o -> o.name("docs.kernels.Position3"));
    static final NativeComponent<Velocity3> VELOCITY =
            Components.registerNative(Velocity3.class, o -> o.name("docs.kernels.Velocity3"));
    static final NativeComponent<Glow> GLOW = Components.registerNative(Glow.class, o -> o.name("docs.kernels.Glow"));
    static final FloatField X = POSITION.floatField("x");
    static final FloatField Y = POSITION.floatField("y");
    static final FloatField Z = POSITION.floatField("z");
    static final FloatField VX = VELOCITY.floatField("x");
    static final FloatField VY = VELOCITY.floatField("y");
    static final FloatField VZ = VELOCITY.floatField("z");
    static final FloatField R = GLOW.floatField("r");
    static final FloatField G = GLOW.floatField("g");
    static final FloatField B = GLOW.floatField("b");
    static final FloatField A = GLOW.floatField("a");
    static final FloatField SIZE = GLOW.floatField("size");

    @Test
    void motionIn3dIsTheSameKernelsPerAxis() {
        try (World world = World.create()) {
            // begin-example
            long pebble = world.spawn(POSITION.of(new Position3(0, 10, 0)), VELOCITY.of(new Velocity3(2, 0, -1)));
            Archetype archetype = world.archetypeOf(pebble);
            Query falling = world.newQuery(QueryDescriptor.builder().include(POSITION, VELOCITY).build());
            KernelRunner runner = new KernelRunner();

            runner.run(falling, Motion3DKernels.gravity3d(VX, VY, VZ, 0f, -10f, 0f), 0.5f);
            runner.run(falling, Motion3DKernels.integrate3d(X, Y, Z, VX, VY, VZ), 0.5f);
            assertEquals(new Position3(1, 7.5f, -0.5f), world.get(pebble, POSITION));

            // a box around the scene: WHEN_CHANGED, so an all-inside frame marks nothing
            ColumnKernel box = Motion3DKernels.clamp3d(X, Y, Z, -5f, 0f, -5f, 5f, 20f, 5f);
            world.forEachArchetype(Archetype::clearDirtyComponents);
            assertEquals(0, runner.run(falling, box, 0f));
            assertFalse(archetype.isComponentDirty(POSITION));
            // ...and a frame where the pebble fell through the floor marks Position3
            runner.run(falling, Motion3DKernels.integrate3d(X, Y, Z, VX, VY, VZ), 2f);
            world.forEachArchetype(Archetype::clearDirtyComponents);
            assertEquals(1, runner.run(falling, box, 0f));
            assertTrue(archetype.isComponentDirty(POSITION));
            assertEquals(new Position3(5, 0, -2.5f), world.get(pebble, POSITION));
            // end-example
        }
    }

    @Test
    void colourAndSizeFollowTheLifetime() {
        try (World world = World.create(WorldConfig.defaults().timestep(0.25))) {
            // begin-example
            long ember = world.spawn(GLOW, TTL.COMPONENT.of(new TTL(1.0))); // four fixed steps of 0.25
            Query glowing = world.newQuery(QueryDescriptor.builder().include(GLOW, TTL.COMPONENT).build());
            float[] hot = {1f, 0.8f, 0.2f, 1f};
            float[] cold = {0.6f, 0f, 0f, 0f}; // dark red, transparent
            ColumnKernel fade = OverLifetime.colour(R, G, B, A, hot, cold);
            ColumnKernel shrink = OverLifetime.size(SIZE, 2f, 0.5f);
            KernelRunner runner = new KernelRunner();

            world.update(0.5); // two fixed steps: TTL.percentComplete() is 0.5
            world.forEachArchetype(Archetype::clearDirtyComponents); // forget the countdown's own writes
            runner.run(glowing, fade, 0f);
            runner.run(glowing, shrink, 0f);
            assertEquals(new Glow(0.8f, 0.4f, 0.1f, 0.5f, 1.25f), world.get(ember, GLOW));
            assertEquals(List.of(GLOW), world.archetypeOf(ember).dirtyComponents()); // TTL was only read
            // end-example
        }
    }

    @Test
    void batchFillsSeedNewParticles() {
        try (World world = World.create()) {
            // begin-example
            Function<World, BatchFill> burst = w -> BatchFill.builder()
                    .range(X, -5f, 0.01f)   // the i-th new entity: x = -5 + (float) i * 0.01
                    .constant(Y, 1f)
                    .uniform(VX, -1f, 1f, w.randomStream("game.spray")) // one key drawn per batch
                    .uniform(VY, 2f, 4f, w.randomStream("game.spray"))
                    .build();
            world.seedRandom(7);
            long[] ids = world.batchSpawn(1000, List.of(POSITION, VELOCITY), burst.apply(world)).toArray();

            assertEquals(new Position3(-5f + 999 * 0.01f, 1f, 0f), world.get(ids[999], POSITION));
            Velocity3 v = world.get(ids[999], VELOCITY);
            assertTrue(v.x() >= -1f && v.x() < 1f && v.y() >= 2f && v.y() < 4f && v.z() == 0f);
            try (World replay = World.create()) { // the same seed and calls: the same values, bit for bit
                replay.seedRandom(7);
                long[] again = replay.batchSpawn(1000, List.of(POSITION, VELOCITY), burst.apply(replay)).toArray();
                assertEquals(v, replay.get(again[999], VELOCITY));
            }
            // end-example
        }
    }
}
