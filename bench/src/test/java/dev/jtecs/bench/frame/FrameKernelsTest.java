package dev.jtecs.bench.frame;

import static dev.jtecs.bench.particles.Particles.POSITION;
import static dev.jtecs.bench.particles.Particles.VELOCITY;
import static dev.jtecs.bench.particles.Particles.VX;
import static dev.jtecs.bench.particles.Particles.VY;
import static dev.jtecs.bench.particles.Particles.X;
import static dev.jtecs.bench.particles.Particles.Y;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;



import dev.jtecs.builtin.TTL;
import dev.jtecs.component.DoubleField;
import dev.jtecs.component.FieldHandle;
import dev.jtecs.component.FloatField;
import dev.jtecs.component.Input;
import dev.jtecs.kernels.MotionKernels;
import dev.jtecs.query.Query;
import dev.jtecs.query.QueryDescriptor;
import dev.jtecs.storage.Column;
import dev.jtecs.world.World;
import dev.jtecs.world.WorldConfig;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/** One and many threads give the same bytes and the same expiries; bad thread counts are refused. */
class FrameKernelsTest {
    private static final int ROWS = 80_000;

    /** A world of ROWS entities with Pos, Vel and TTL; lifetimes 0.01 .. 0.8 s, so some expire each step. */
    private static World world() {
        World world = World.create(WorldConfig.defaults().maxEntities(ROWS + 1024));
        world.batchSpawn(ROWS, List.<Input>of(POSITION, VELOCITY, TTL.COMPONENT), (archetype, from, to) -> {
            for (int row = from; row < to; row++) { // test set-up, not a hot path
                archetype.getMut(X).set(row, row * 0.5f);
                archetype.getMut(VY).set(row, (row % 17) - 8f);
                double life = 0.01 + (row % 80) * 0.01;
                archetype.getMut(TTL.STARTING_TIME).set(row, life);
                archetype.getMut(TTL.REMAINING).set(row, life);
            }
        });
        return world;
    }

    @Test
    void manyThreadsGiveTheBytesAndExpiriesOfOne() {
        for (KernelChoice choice : KernelChoice.values()) {
            if (!choice.isAvailable()) {
                continue; // the vector choice on a JVM that runs the twins: the scalar pass still runs
            }
            var integrate = MotionKernels.integrate2d(choice.particles(), X, Y, VX, VY);
            QueryDescriptor all = QueryDescriptor.builder().include(POSITION, VELOCITY, TTL.COMPONENT).build();
            try (World w1 = world(); World w3 = world();
                    FrameKernels one = new FrameKernels(choice, 1); FrameKernels three = new FrameKernels(choice, 3)) {
                assertEquals(1, one.threads());
                assertEquals(3, three.threads());
                Query q1 = w1.newQuery(all);
                Query q3 = w3.newQuery(all);
                for (int step = 0; step < 12; step++) {
                    one.run(q1, integrate, 1 / 60f);
                    three.run(q3, integrate, 1 / 60f);
                    assertEquals(one.countDown(q1, 1 / 60.0), three.countDown(q3, 1 / 60.0), choice + " step " + step);
                    int despawned = one.despawnExpired(w1);
                    assertEquals(despawned, three.despawnExpired(w3), choice + " step " + step);
                    assertTrue(step > 0 || despawned > 0, "lifetimes of 0.01 s end on the first step");
                }
                assertEquals(w1.entityCount(), w3.entityCount());
                assertEquals(bytes(q1, X), bytes(q3, X), choice + " x");
                assertEquals(bytes(q1, Y), bytes(q3, Y), choice + " y");
                assertEquals(bytes(q1, TTL.REMAINING), bytes(q3, TTL.REMAINING), choice + " remaining");
            }
        }
    }

    private static List<String> bytes(Query query, FieldHandle field) {
        List<String> out = new ArrayList<>();
        query.forEach((archetype, count) -> {
            Column column = switch (field) {
                case FloatField f -> archetype.get(f);
                case DoubleField d -> archetype.get(d);
                default -> throw new AssertionError(field);
            };
            long bytes = (long) count * (field instanceof FloatField ? Float.BYTES : Double.BYTES);
            MemorySegment live = column.segment().asSlice(0, bytes);
            out.add(HexFormat.of().formatHex(live.toArray(ValueLayout.JAVA_BYTE)));
        });
        return out;
    }

    @Test
    void refusesThreadCountsOutsideTheRange() {
        for (int bad : new int[] {0, -1, FrameKernels.MAX_THREADS + 1}) {
            var e = assertThrows(IllegalArgumentException.class, () -> new FrameKernels(KernelChoice.SCALAR, bad));
            assertEquals("threads=" + bad + " outside 1.." + FrameKernels.MAX_THREADS, e.getMessage());
        }
    }
}
