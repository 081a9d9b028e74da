package dev.jtecs.kernels.parallel;

import dev.jtecs.component.Component;
import dev.jtecs.component.Components;
import dev.jtecs.component.FloatField;
import dev.jtecs.component.NativeComponent;
import dev.jtecs.component.ScalarComponent;
import dev.jtecs.component.TagComponent;
import dev.jtecs.query.Query;
import dev.jtecs.query.QueryDescriptor;
import dev.jtecs.storage.Archetype;
import dev.jtecs.storage.FloatColumn;
import dev.jtecs.world.World;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;

/**
 * Test worlds for the parallel passes: for one seed, the same archetypes (sizes around chunk and lane boundaries)
 * holding the same values, so a world run in parallel can be compared with one run on one thread. Also the
 * scheduling jitter that the determinism tests put into workers.
 */
final class ParallelWorlds {
    record Position(float x, float y) {}

    record Velocity(float dx, float dy) {}

    static final NativeComponent<Position> POSITION =
            Components.registerNative(Position.class, o -> o.name("kernels.test.par.Position"));
    static final NativeComponent<Velocity> VELOCITY =
            Components.registerNative(Velocity.class, o -> o.name("kernels.test.par.Velocity"));
    static final FloatField X = POSITION.floatField("x");
    static final FloatField Y = POSITION.floatField("y");
    static final FloatField DX = VELOCITY.floatField("dx");
    static final FloatField DY = VELOCITY.floatField("dy");
    static final ScalarComponent.OfDouble CHARGE = Components.scalar("kernels.test.par.Charge", 0.0);
    static final ScalarComponent.OfLong TICKS = Components.scalar("kernels.test.par.Ticks", 0L);
    static final ScalarComponent.OfInt LEVEL = Components.scalar("kernels.test.par.Level", 0);
    static final TagComponent HOT = Components.tag("kernels.test.par.Hot");
    static final TagComponent COLD = Components.tag("kernels.test.par.Cold");
    static final TagComponent EMPTY = Components.tag("kernels.test.par.Empty");
    static final TagComponent[] SHAPES = new TagComponent[8];

    static {
        for (int i = 0; i < SHAPES.length; i++) {
            SHAPES[i] = Components.tag("kernels.test.par.Shape" + i);
        }
    }

    /** Rows per matched archetype: each side of one vector, of 64 rows, of common chunk sizes. */
    static final int[] SIZES = {1, 63, 64, 65, 1000, 4099, 20_000, 40_001};
    static final float[] SPECIALS = {Float.NaN, -0.0f, 0.0f, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY,
        Float.MAX_VALUE, -Float.MAX_VALUE, Float.MIN_VALUE, 1e30f, -1e-30f};

    private ParallelWorlds() {}

    /** The seed of a randomized test: {@code -Djtecs.test.seed=...} replays one. */
    static long seed(String test) {
        long seed = Long.getLong("jtecs.test.seed", 0x5eed_2026L);
        System.out.println(test + ": seed=" + seed + " (replay with -Djtecs.test.seed=" + seed + ")");
        return seed;
    }

    /**
     * A world with one Position+Velocity archetype per entry of {@code sizes} (tagged with a shape), an emptied
     * matched archetype, and an unmatched one; values drawn from {@code seed}, specials included.
     */
    static World movers(long seed, int[] sizes) {
        World world = World.create();
        SplittableRandom random = new SplittableRandom(seed);
        for (int i = 0; i < sizes.length; i++) {
            world.batchSpawn(sizes[i], List.of(POSITION, VELOCITY, SHAPES[i]), (archetype, from, to) -> {
                fill(random, archetype.getMut(X), from, to);
                fill(random, archetype.getMut(Y), from, to);
                fill(random, archetype.getMut(DX), from, to);
                fill(random, archetype.getMut(DY), from, to);
            });
            world.commit();
        }
        world.despawn(world.spawn(POSITION, VELOCITY, EMPTY));
        world.spawn(POSITION.of(new Position(1, 2)));
        world.forEachArchetype(Archetype::clearDirtyComponents);
        return world;
    }

    private static void fill(SplittableRandom random, FloatColumn column, int from, int to) {
        for (int row = from; row < to; row++) {
            column.set(row, random.nextInt(20) == 0 ? SPECIALS[random.nextInt(SPECIALS.length)]
                    : (float) (random.nextDouble() * 400 - 200));
        }
    }

    static Query movers(World world) {
        return world.newQuery(QueryDescriptor.builder().include(POSITION, VELOCITY).build());
    }

    /** A pause of random kind and length, so that workers finish in a different order on every run. */
    static void jitter() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        switch (random.nextInt(4)) {
            case 0 -> Thread.yield();
            case 1 -> LockSupport.parkNanos(random.nextInt(1, 300_000));
            case 2 -> Thread.onSpinWait();
            default -> { }
        }
    }

    /** Every archetype's components, in signature order, for messages. */
    static String describe(Archetype archetype) {
        StringBuilder out = new StringBuilder("#" + archetype.id() + "[");
        for (Component<?> component : archetype.components()) {
            out.append(component.name()).append(' ');
        }
        return out.append(']').toString();
    }
}
