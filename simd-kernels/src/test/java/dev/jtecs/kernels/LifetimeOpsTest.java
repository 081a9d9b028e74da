package dev.jtecs.kernels;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.jtecs.kernels.vector.VectorLifetimeOps;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The vector countdown against its scalar twin: the same bits, the same expired rows in the same order. */
class LifetimeOpsTest {
    private static final LifetimeOps VECTOR = VectorLifetimeOps.INSTANCE;
    private static final double[] SPECIALS = {Double.NaN, -0.0, 0.0, Double.POSITIVE_INFINITY,
        Double.NEGATIVE_INFINITY, Double.MAX_VALUE, -Double.MAX_VALUE, Double.MIN_VALUE, 1e300, 1.0 / 60};
    private static final double PADDING = -12345.5; // would expire if the padding were listed

    private static int[] sizes() {
        int lanes = VectorLifetimeOps.lanes();
        return new int[] {0, 1, lanes - 1, lanes, lanes + 1, 2 * lanes + 3, 1000, 4099};
    }

    private static MemorySegment column(Arena arena, double[] values) {
        int capacity = Math.max(64, (values.length + 63) / 64 * 64);
        MemorySegment segment = arena.allocate((long) capacity * Double.BYTES, 64);
        for (int row = values.length; row < capacity; row++) {
            segment.setAtIndex(ValueLayout.JAVA_DOUBLE, row, PADDING);
        }
        MemorySegment.copy(values, 0, segment, ValueLayout.JAVA_DOUBLE, 0, values.length);
        return segment;
    }

    @Test
    void countdownMatchesTwinBitForBitAndListsTheSameRows() {
        long seed = 8;
        SplittableRandom random = new SplittableRandom(seed);
        double dt = 1.0 / 60;
        for (int count : sizes()) {
            double[] values = new double[count];
            for (int i = 0; i < count; i++) {
                values[i] = random.nextInt(8) == 0 ? SPECIALS[random.nextInt(SPECIALS.length)]
                        : random.nextDouble() * 0.1 - 0.01; // around the expiry limit
            }
            try (Arena arena = Arena.ofShared()) {
                MemorySegment vector = column(arena, values);
                MemorySegment scalar = column(arena, values);
                int[] vectorRows = new int[count];
                int[] scalarRows = new int[count];
                int nv = VECTOR.countdown(vector, count, dt, dt * 0x1p-10, vectorRows);
                int ns = LifetimeOps.SCALAR.countdown(scalar, count, dt, dt * 0x1p-10, scalarRows);
                String where = "seed=" + seed + " count=" + count;
                assertEquals(ns, nv, where);
                assertArrayEquals(Arrays.copyOf(scalarRows, ns), Arrays.copyOf(vectorRows, nv), where);
                for (int row = 0; row < count; row++) {
                    assertEquals(Double.doubleToLongBits(scalar.getAtIndex(ValueLayout.JAVA_DOUBLE, row)),
                            Double.doubleToLongBits(vector.getAtIndex(ValueLayout.JAVA_DOUBLE, row)),
                            where + " row=" + row);
                }
            }
        }
    }

    @Test
    void specificationOnKnownValues() {
        try (Arena arena = Arena.ofShared()) {
            MemorySegment remaining = column(arena, new double[] {0.5, 0.25, Double.NaN, 0.0, 1.0 + 1e-9});
            int[] rows = new int[5];
            int n = ScalarLifetimeOps.countdown(remaining, 0, 5, 0.25, 0.0, rows, 0);
            assertArrayEquals(new int[] {1, 3}, Arrays.copyOf(rows, n)); // NaN never expires
            assertEquals(0.25, remaining.getAtIndex(ValueLayout.JAVA_DOUBLE, 0));
            assertEquals(-0.25, remaining.getAtIndex(ValueLayout.JAVA_DOUBLE, 3));
        }
    }

    @Test
    void shortSegmentsAndListsAreRefused() {
        try (Arena arena = Arena.ofShared()) {
            MemorySegment tight = arena.allocate(3L * Double.BYTES, 64);
            if (VectorLifetimeOps.lanes() > 3) {
                assertThrows(IllegalArgumentException.class, () -> VECTOR.countdown(tight, 3, 1, 0, new int[3]));
            }
            MemorySegment column = column(arena, new double[4]);
            assertThrows(IllegalArgumentException.class, () -> VECTOR.countdown(column, 4, 1, 0, new int[3]));
            assertThrows(IllegalArgumentException.class,
                    () -> LifetimeOps.SCALAR.countdown(column, 4, 1, 0, new int[3]));
        }
    }
}
