package dev.jtecs.kernels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.builtin.TTL;
import dev.jtecs.component.Components;
import dev.jtecs.component.FloatField;
import dev.jtecs.component.NativeComponent;
import dev.jtecs.component.TagComponent;
import dev.jtecs.kernels.vector.VectorLifetimeLerpOps;
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
 * The over-lifetime kernels through the runner: each marks exactly its targets' components (never TTL, which it
 * only reads) on exactly the archetypes it ran on, and writes each entity's interpolation of its own
 * {@code percentComplete}. Both implementations.
 */
class OverLifetimeTest {
    record Colour(float r, float g, float b, float a) {}

    record Sprite(float size) {}

    static final NativeComponent<Colour> COLOUR =
            Components.registerNative(Colour.class, o -> o.name("kernels.test.Colour"));
    static final NativeComponent<Sprite> SPRITE =
            Components.registerNative(Sprite.class, o -> o.name("kernels.test.Sprite"));
    static final TagComponent SMOKE = Components.tag("kernels.test.Smoke");
    static final TagComponent ASH = Components.tag("kernels.test.Ash");
    static final FloatField R = COLOUR.floatField("r");
    static final FloatField G = COLOUR.floatField("g");
    static final FloatField B = COLOUR.floatField("b");
    static final FloatField A = COLOUR.floatField("a");
    static final FloatField SIZE = SPRITE.floatField("size");
    static final LifetimeLerpOps[] BOTH = {VectorLifetimeLerpOps.INSTANCE, LifetimeLerpOps.SCALAR};
    static final float[] WHITE = {1f, 1f, 1f, 1f};
    static final float[] CLEAR_RED = {1f, 0f, 0f, 0f};

    private World world;
    private Query effects;
    private Archetype sparks;  // Colour, Sprite, TTL: 100 rows, lifetimes at every stage
    private Archetype smoke;   // Colour, Sprite, TTL, Smoke: 37 rows
    private Archetype emptied; // Colour, Sprite, TTL, Ash: matched, no rows
    private Archetype timers;  // TTL only: not matched
    private Archetype painted; // Colour, Sprite: no TTL, not matched

    @BeforeEach
    void world() {
        world = World.create();
        for (int i = 0; i < 100; i++) {
            world.spawn(COLOUR.of(new Colour(0, 0, 0, 0)), SPRITE, TTL.COMPONENT.of(new TTL(2.0, 2.0 - i * 0.021)));
        }
        for (int i = 0; i < 37; i++) {
            world.spawn(COLOUR, SPRITE, SMOKE, TTL.COMPONENT.of(new TTL(i * 0.1, 1.7)));
        }
        long gone = world.spawn(COLOUR, SPRITE, ASH, TTL.COMPONENT.of(new TTL(1.0)));
        timers = world.archetypeOf(world.spawn(TTL.COMPONENT.of(new TTL(1.0, 0.5))));
        painted = world.archetypeOf(world.spawn(COLOUR.of(new Colour(0.5f, 0.5f, 0.5f, 0.5f)), SPRITE));
        sparks = world.archetypeOf(world.spawn(COLOUR, SPRITE, TTL.COMPONENT.of(new TTL(1.0))));
        smoke = world.archetypeOf(world.spawn(COLOUR, SPRITE, SMOKE, TTL.COMPONENT.of(new TTL(1.0))));
        emptied = world.archetypeOf(gone);
        world.despawn(gone);
        effects = world.newQuery(QueryDescriptor.builder().include(COLOUR, SPRITE, TTL.COMPONENT).build());
        world.forEachArchetype(Archetype::clearDirtyComponents);
    }

    @AfterEach
    void close() {
        world.close();
    }

    private void assertDirty(Archetype archetype, boolean colour, boolean sprite, String where) {
        assertEquals(colour, archetype.isComponentDirty(COLOUR), where + " Colour on " + archetype);
        assertEquals(sprite, archetype.isComponentDirty(SPRITE), where + " Sprite on " + archetype);
        assertFalse(archetype.isComponentDirty(TTL.COMPONENT), where + " TTL is only read, on " + archetype);
    }

    private void assertUntouched(String where) {
        assertDirty(emptied, false, false, where + " (empty archetype)");
        assertDirty(timers, false, false, where + " (unmatched archetype)");
        assertDirty(painted, false, false, where + " (unmatched archetype)");
    }

    @Test
    void colourMarksColourOnlyOnTheArchetypesItRanOn() {
        for (LifetimeLerpOps ops : BOTH) {
            world.forEachArchetype(Archetype::clearDirtyComponents);
            long writesBefore = sparks.writeCount(COLOUR);
            ColumnKernel kernel = OverLifetime.colour(ops, R, G, B, A, WHITE, CLEAR_RED);
            assertEquals(2, new KernelRunner().run(effects, kernel, 1f / 60f), kernel.toString());
            assertDirty(sparks, true, false, kernel.toString());
            assertDirty(smoke, true, false, kernel.toString());
            assertUntouched(kernel.toString());
            assertEquals(writesBefore + 1, sparks.writeCount(COLOUR), "four channels, one component: one mark");
        }
    }

    @Test
    void sizeMarksSpriteOnlyAndLerpMarksEveryTargetComponent() {
        for (LifetimeLerpOps ops : BOTH) {
            world.forEachArchetype(Archetype::clearDirtyComponents);
            ColumnKernel size = OverLifetime.size(ops, SIZE, 3f, 0f);
            assertEquals(2, new KernelRunner().run(effects, size, 0f), size.toString());
            assertDirty(sparks, false, true, size.toString());
            assertDirty(smoke, false, true, size.toString());
            assertUntouched(size.toString());

            world.forEachArchetype(Archetype::clearDirtyComponents);
            ColumnKernel both = OverLifetime.lerp(ops, List.of(A, SIZE), new float[] {1f, 1f}, new float[] {0f, 4f});
            assertEquals(2, new KernelRunner().run(effects, both, 0f), both.toString());
            assertDirty(sparks, true, true, both.toString());
            assertDirty(smoke, true, true, both.toString());
            assertUntouched(both.toString());
        }
    }

    @Test
    void eachEntityGetsTheInterpolationOfItsOwnProgress() {
        for (LifetimeLerpOps ops : BOTH) {
            KernelRunner runner = new KernelRunner();
            runner.run(effects, OverLifetime.colour(ops, R, G, B, A, WHITE, CLEAR_RED), 0f);
            runner.run(effects, OverLifetime.size(ops, SIZE, 3f, 0.5f), 0f);
            for (Archetype archetype : List.of(sparks, smoke)) {
                for (int row = 0; row < archetype.count(); row++) {
                    TTL ttl = new TTL(archetype.get(TTL.STARTING_TIME).get(row), archetype.get(TTL.REMAINING).get(row));
                    float t = (float) ttl.percentComplete();
                    String where = ops.mode() + " " + ttl + " row=" + row;
                    assertEquals((1 - t) * 1f + t * 1f, archetype.get(R).get(row), where);
                    assertEquals((1 - t) * 1f + t * 0f, archetype.get(G).get(row), where);
                    assertEquals((1 - t) * 1f + t * 0f, archetype.get(A).get(row), where);
                    assertEquals((1 - t) * 3f + t * 0.5f, archetype.get(SIZE).get(row), where);
                }
            }
            assertEquals(1f, sparks.get(A).get(0), "fresh: the start colour exactly");
            assertEquals(0f, smoke.get(A).get(0), "a lifetime that started at zero counts as spent");
            assertEquals(0.5f, painted.get(A).get(0), "no TTL: not matched, not written");
        }
    }

    @Test
    void badArgumentsAreRefusedWithEveryOperandNamed() {
        IllegalArgumentException nan = assertThrows(IllegalArgumentException.class,
                () -> OverLifetime.size(SIZE, Float.NaN, 1f));
        assertTrue(nan.getMessage().contains("from=NaN") && nan.getMessage().contains("size"), nan.getMessage());
        assertThrows(IllegalArgumentException.class, () -> OverLifetime.size(SIZE, 1f, Float.POSITIVE_INFINITY));
        IllegalArgumentException rgb = assertThrows(IllegalArgumentException.class,
                () -> OverLifetime.colour(R, G, B, A, new float[] {1f, 1f, 1f}, CLEAR_RED));
        assertTrue(rgb.getMessage().contains("fromRgba.length=3"), rgb.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> OverLifetime.lerp(List.of(A, SIZE), new float[] {1f}, new float[] {0f, 1f}));
        assertThrows(IllegalArgumentException.class, () -> OverLifetime.lerp(List.of(), new float[0], new float[0]));
        assertThrows(IllegalArgumentException.class, () -> OverLifetime.colour(R, G, R, A, WHITE, CLEAR_RED),
                "a channel written twice");
        NullPointerException missing = assertThrows(NullPointerException.class,
                () -> OverLifetime.colour(R, null, B, A, WHITE, CLEAR_RED));
        assertTrue(missing.getMessage().contains("g"), missing.getMessage());
        Query noTtl = world.newQuery(QueryDescriptor.builder().include(COLOUR, SPRITE).build());
        assertThrows(IllegalArgumentException.class,
                () -> new KernelRunner().run(noTtl, OverLifetime.size(SIZE, 1f, 0f), 0f), "the query must hold TTL");
        assertEquals(0f, sparks.get(SIZE).get(0), "nothing ran");
    }

    @Test
    void theKernelKeepsItsOwnCopyOfTheColours() {
        float[] start = WHITE.clone();
        ColumnKernel kernel = OverLifetime.colour(R, G, B, A, start, CLEAR_RED);
        start[3] = 0.25f; // a caller changing its array later changes nothing
        new KernelRunner().run(effects, kernel, 0f);
        assertEquals(1f, sparks.get(A).get(0));
    }

    @Test
    void aRunAllocatesNothingOnceWarm() {
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long thread = Thread.currentThread().threadId();
        for (LifetimeLerpOps ops : BOTH) {
            KernelRunner runner = new KernelRunner();
            ColumnKernel colour = OverLifetime.colour(ops, R, G, B, A, WHITE, CLEAR_RED);
            ColumnKernel size = OverLifetime.size(ops, SIZE, 3f, 0f);
            long best = Long.MAX_VALUE;
            // vector code allocates until C2 compiles it: keep the best round, for up to 20 seconds
            long deadline = System.nanoTime() + 20_000_000_000L;
            for (int round = 0; best > 0 && (round < 40 || System.nanoTime() < deadline); round++) {
                long before = threads.getThreadAllocatedBytes(thread);
                for (int i = 0; i < 2_000; i++) {
                    runner.run(effects, colour, 0f);
                    runner.run(effects, size, 0f);
                }
                best = Math.min(best, threads.getThreadAllocatedBytes(thread) - before);
            }
            assertEquals(0, best, ops.mode() + ": bytes allocated by 2000 runs of each in the best round");
        }
    }
}
