package dev.jtecs.kernels.parallel;

import static dev.jtecs.kernels.parallel.ParallelWorlds.DX;
import static dev.jtecs.kernels.parallel.ParallelWorlds.DY;
import static dev.jtecs.kernels.parallel.ParallelWorlds.POSITION;
import static dev.jtecs.kernels.parallel.ParallelWorlds.VELOCITY;
import static dev.jtecs.kernels.parallel.ParallelWorlds.X;
import static dev.jtecs.kernels.parallel.ParallelWorlds.Y;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.builtin.TTL;
import dev.jtecs.builtin.systems.BuiltinSystems;
import dev.jtecs.component.Component;
import dev.jtecs.component.FieldHandle;
import dev.jtecs.component.FloatField;
import dev.jtecs.kernels.ColumnKernel;
import dev.jtecs.kernels.KernelMode;
import dev.jtecs.kernels.KernelRunner;
import dev.jtecs.kernels.LifetimeCountdown;
import dev.jtecs.kernels.LifetimeOps;
import dev.jtecs.kernels.MotionKernels;
import dev.jtecs.kernels.ParticleOps;
import dev.jtecs.kernels.ParticleStep;
import dev.jtecs.kernels.ParticleStepOps;
import dev.jtecs.kernels.vector.VectorLifetimeOps;
import dev.jtecs.kernels.vector.VectorParticleOps;
import dev.jtecs.kernels.vector.VectorParticleStepOps;
import dev.jtecs.query.Query;
import dev.jtecs.query.QueryDescriptor;
import dev.jtecs.storage.Archetype;
import dev.jtecs.world.World;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ForkJoinPool;
import org.junit.jupiter.api.Test;

/**
 * The fused particle step ({@link ParticleStep}, {@link ParallelParticleStep}) against the four separate passes it
 * replaces (gravity, damping, integrate through {@link KernelRunner}, then {@link LifetimeCountdown}): the same
 * bytes in every column (rows {@code [0, count)}; the padding too where both write the same rows), the same dirty marks and write counts on
 * every archetype (an emptied and an unmatched one among them), the same spent list in the same order, frame after
 * frame with despawns in between, for the scalar and vector twins and for 1 to 5 worker threads.
 */
class ParticleStepTest {
    private static final double STEP = 1.0 / 60;
    private static final float G = -9.81f;
    private static final float RETAIN = 0.5f;
    private static final int FRAMES = 40;
    private static final List<Component<?>> WRITTEN = List.of(POSITION, VELOCITY, TTL.COMPONENT);
    private static final List<FieldHandle> COLUMNS = List.of(X, Y, DX, DY, TTL.REMAINING, TTL.STARTING_TIME);

    /** Particles in one archetype per size, an emptied matched archetype and an unmatched one; specials included. */
    private static World particles(long seed) {
        World world = World.create();
        BuiltinSystems.remove(world);
        SplittableRandom random = new SplittableRandom(seed);
        double[] lifeSpecials = {Double.NaN, -0.0, 0.0, Double.POSITIVE_INFINITY, 1e300};
        int[] sizes = ParallelWorlds.SIZES;
        for (int i = 0; i < sizes.length; i++) {
            world.batchSpawn(sizes[i], List.of(POSITION, VELOCITY, TTL.COMPONENT, ParallelWorlds.SHAPES[i]),
                    (archetype, from, to) -> {
                        for (FloatField field : List.of(X, Y, DX, DY)) {
                            var column = archetype.getMut(field);
                            for (int row = from; row < to; row++) {
                                column.set(row, random.nextInt(20) == 0
                                        ? ParallelWorlds.SPECIALS[random.nextInt(ParallelWorlds.SPECIALS.length)]
                                        : (float) (random.nextDouble() * 400 - 200));
                            }
                        }
                        var remaining = archetype.getMut(TTL.REMAINING);
                        for (int row = from; row < to; row++) {
                            int kind = random.nextInt(10);
                            remaining.set(row, kind == 0 ? lifeSpecials[random.nextInt(lifeSpecials.length)]
                                    : kind < 4 ? random.nextInt(FRAMES + 5) * STEP
                                    : random.nextDouble() * (FRAMES + 5) * STEP);
                        }
                    });
            world.commit();
        }
        world.despawn(world.spawn(POSITION, VELOCITY, TTL.COMPONENT, ParallelWorlds.EMPTY));
        world.spawn(POSITION, VELOCITY); // no TTL: not matched, never marked
        world.forEachArchetype(Archetype::clearDirtyComponents);
        return world;
    }

    private static Query query(World world) {
        return world.newQuery(QueryDescriptor.builder().include(POSITION, VELOCITY, TTL.COMPONENT).build());
    }

    /** The reference: four passes, as the separate frame runs them. */
    private static final class Separate {
        final KernelRunner runner = new KernelRunner();
        final LifetimeCountdown countdown;
        final ColumnKernel gravity;
        final ColumnKernel damping;
        final ColumnKernel integrate;

        Separate(ParticleOps ops, LifetimeOps lifetimes) {
            gravity = MotionKernels.gravity(ops, DY, G);
            damping = MotionKernels.damping(ops, DX, DY, RETAIN);
            integrate = MotionKernels.integrate2d(ops, X, Y, DX, DY);
            countdown = new LifetimeCountdown(lifetimes);
        }

        List<Long> run(Query query, double dt) {
            runner.run(query, gravity, (float) dt);
            runner.run(query, damping, (float) dt);
            runner.run(query, integrate, (float) dt);
            int n = countdown.countDown(query, dt);
            List<Long> ids = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                ids.add(countdown.expired(i));
            }
            return ids;
        }
    }

    /** {@code ops} after a random pause, so chunks finish in a random order. */
    private static ParticleStepOps jittered(ParticleStepOps ops) {
        return new ParticleStepOps() {
            @Override
            public KernelMode mode() {
                return ops.mode();
            }

            @Override
            public int step(MemorySegment x, MemorySegment y, MemorySegment vx, MemorySegment vy,
                    MemorySegment remaining, int count, float dv, float factor, float dt, double step,
                    double spentLimit, int[] expiredRows) {
                ParallelWorlds.jitter();
                return ops.step(x, y, vx, vy, remaining, count, dv, factor, dt, step, spentLimit, expiredRows);
            }
        };
    }

    /**
     * Same archetypes, rows, ids, column bytes ({@code [0, count)}, or whole segments with {@code padding}) and
     * dirty marks; with {@code sameWrites} the same write counts too. The four passes declare Velocity written
     * twice (gravity, damping) where the fused pass declares it once: the dirty state, and whether the count moved
     * (what the extraction reads), are the same, the count itself is not.
     */
    private static void assertSame(World expected, World actual, boolean padding, boolean sameWrites, String where) {
        List<Archetype> left = new ArrayList<>();
        List<Archetype> right = new ArrayList<>();
        expected.forEachArchetype(left::add);
        actual.forEachArchetype(right::add);
        assertEquals(left.size(), right.size(), where);
        for (int i = 0; i < left.size(); i++) {
            Archetype a = left.get(i);
            Archetype b = right.get(i);
            String at = where + " " + ParallelWorlds.describe(a);
            assertEquals(a.count(), b.count(), at);
            for (int row = 0; row < a.count(); row++) {
                assertEquals(a.entity(row), b.entity(row), at + " row " + row);
            }
            for (FieldHandle field : COLUMNS) {
                if (!a.has(field.component())) {
                    continue;
                }
                MemorySegment sa = segment(a, field);
                MemorySegment sb = segment(b, field);
                if (!padding) {
                    long bytes = (long) a.count() * (field == TTL.REMAINING || field == TTL.STARTING_TIME ? 8 : 4);
                    sa = sa.asSlice(0, bytes);
                    sb = sb.asSlice(0, bytes);
                }
                assertEquals(-1, sa.mismatch(sb), at + " bytes of " + field);
            }
            for (Component<?> component : WRITTEN) {
                if (a.has(component)) {
                    assertEquals(a.isComponentDirty(component), b.isComponentDirty(component), at + " " + component);
                    if (sameWrites) {
                        assertEquals(a.writeCount(component), b.writeCount(component), at + " writes of " + component);
                    }
                }
            }
        }
    }

    private static MemorySegment segment(Archetype archetype, FieldHandle field) {
        return switch (field) {
            case FloatField f -> archetype.get(f).segment();
            case dev.jtecs.component.DoubleField d -> archetype.get(d).segment();
            default -> throw new AssertionError(field);
        };
    }

    private static List<Long> ids(int n, java.util.function.IntToLongFunction expired) {
        List<Long> ids = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            ids.add(expired.applyAsLong(i));
        }
        return ids;
    }

    @Test
    void oneThreadFusedEqualsTheFourPassesBitForBitWithTheSameMarksAndSpentList() {
        long seed = ParallelWorlds.seed("oneThreadFusedEqualsTheFourPassesBitForBitWithTheSameMarksAndSpentList");
        ParticleStepOps[] steps = {ParticleStepOps.SCALAR, VectorParticleStepOps.INSTANCE};
        ParticleOps[] motions = {ParticleOps.SCALAR, VectorParticleOps.INSTANCE};
        LifetimeOps[] lifetimes = {LifetimeOps.SCALAR, VectorLifetimeOps.INSTANCE};
        for (int m = 0; m < 2; m++) {
            try (World separate = particles(seed); World fused = particles(seed)) {
                Query sq = query(separate);
                Query fq = query(fused);
                Separate reference = new Separate(motions[m], lifetimes[m]);
                ParticleStep step = new ParticleStep(steps[m], X, Y, DX, DY, G, RETAIN);
                int spent = 0;
                for (int frame = 0; frame < FRAMES; frame++) {
                    String where = steps[m].mode() + " frame " + frame;
                    List<Long> expected = reference.run(sq, STEP);
                    int n = step.run(fq, STEP);
                    assertEquals(expected, ids(n, step::expired), where + ": spent list");
                    // the vector countdown pads to double lanes, the fused step to float lanes: padding differs
                    assertSame(separate, fused, steps[m].mode() == KernelMode.SCALAR, false, where);
                    assertEquals(reference.countdown.despawnExpired(separate), step.despawnExpired(fused), where);
                    assertEquals(0, step.expiredCount(), "the list is cleared by the despawn");
                    separate.forEachArchetype(Archetype::clearDirtyComponents);
                    fused.forEachArchetype(Archetype::clearDirtyComponents);
                    spent += n;
                }
                assertTrue(spent > 10_000, "lifetimes ran out during the test: " + spent);
            }
        }
    }

    @Test
    void vectorStepEqualsScalarStepOnEveryRow() {
        long seed = ParallelWorlds.seed("vectorStepEqualsScalarStepOnEveryRow");
        try (World scalar = particles(seed); World vector = particles(seed)) {
            ParticleStep s = new ParticleStep(ParticleStepOps.SCALAR, X, Y, DX, DY, G, RETAIN);
            ParticleStep v = new ParticleStep(VectorParticleStepOps.INSTANCE, X, Y, DX, DY, G, RETAIN);
            Query sq = query(scalar);
            Query vq = query(vector);
            for (int frame = 0; frame < FRAMES; frame++) {
                int n = s.run(sq, STEP);
                assertEquals(ids(n, s::expired), ids(v.run(vq, STEP), v::expired), "frame " + frame);
                assertSame(scalar, vector, false, true, "frame " + frame);
                s.despawnExpired(scalar);
                v.despawnExpired(vector);
            }
        }
    }

    @Test
    void parallelStepEqualsTheSingleThreadedStepForEveryThreadCount() {
        long seed = ParallelWorlds.seed("parallelStepEqualsTheSingleThreadedStepForEveryThreadCount");
        for (ParticleStepOps ops : new ParticleStepOps[] {ParticleStepOps.SCALAR, VectorParticleStepOps.INSTANCE}) {
            for (int threads = 1; threads <= 5; threads += 2) {
                ForkJoinPool pool = new ForkJoinPool(threads);
                try (World single = particles(seed); World parallel = particles(seed);
                        ParallelParticleStep split = new ParallelParticleStep(jittered(ops), X, Y, DX, DY, G, RETAIN,
                                pool, 64)) {
                    ParticleStep step = new ParticleStep(ops, X, Y, DX, DY, G, RETAIN);
                    Query sq = query(single);
                    Query pq = query(parallel);
                    for (int frame = 0; frame < 12; frame++) {
                        String where = ops.mode() + " on " + threads + " threads, frame " + frame;
                        int n = step.run(sq, STEP);
                        assertEquals(ids(n, step::expired), ids(split.run(pq, STEP), split::expired), where);
                        assertSame(single, parallel, true, true, where);
                        assertEquals(step.despawnExpired(single), split.despawnExpired(parallel), where);
                        single.forEachArchetype(Archetype::clearDirtyComponents);
                        parallel.forEachArchetype(Archetype::clearDirtyComponents);
                    }
                } finally {
                    pool.shutdown();
                }
            }
        }
    }

    @Test
    void refusesAQueryWithoutItsColumnsAndBadParameters() {
        try (World world = particles(1)) {
            ParticleStep step = new ParticleStep(ParticleStepOps.SCALAR, X, Y, DX, DY, G, RETAIN);
            Query noTtl = world.newQuery(QueryDescriptor.builder().include(POSITION, VELOCITY).build());
            assertThrows(IllegalArgumentException.class, () -> step.run(noTtl, STEP));
            assertThrows(IllegalArgumentException.class, () -> step.run(query(world), Double.NaN));
        }
        assertThrows(IllegalArgumentException.class,
                () -> new ParticleStep(ParticleStepOps.SCALAR, X, Y, DX, DY, Float.NaN, RETAIN));
        assertThrows(IllegalArgumentException.class,
                () -> new ParticleStep(ParticleStepOps.SCALAR, X, Y, DX, DY, G, 1.5f));
    }
}
