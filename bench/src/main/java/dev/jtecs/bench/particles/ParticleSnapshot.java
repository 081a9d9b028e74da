package dev.jtecs.bench.particles;

import java.util.Arrays;
import java.util.Comparator;
import java.util.stream.IntStream;

/**
 * Every live particle's state as a multiset, for comparing implementations that store particles in different
 * orders: {@link #add} them in any order, then {@link #sorted()} orders them canonically (by remaining life,
 * then the other fields, comparing bit patterns where values tie).
 */
public final class ParticleSnapshot {
    private float[] x = new float[64];
    private float[] y = new float[64];
    private float[] vx = new float[64];
    private float[] vy = new float[64];
    private double[] startingTime = new double[64];
    private double[] remaining = new double[64];
    private int count;

    /** Adds one particle. */
    public void add(float px, float py, float pvx, float pvy, double start, double left) {
        if (count == x.length) {
            int n = count * 2;
            x = Arrays.copyOf(x, n);
            y = Arrays.copyOf(y, n);
            vx = Arrays.copyOf(vx, n);
            vy = Arrays.copyOf(vy, n);
            startingTime = Arrays.copyOf(startingTime, n);
            remaining = Arrays.copyOf(remaining, n);
        }
        x[count] = px;
        y[count] = py;
        vx[count] = pvx;
        vy[count] = pvy;
        startingTime[count] = start;
        remaining[count] = left;
        count++;
    }

    public int count() {
        return count;
    }

    /** A copy in canonical order. */
    public ParticleSnapshot sorted() {
        Comparator<Integer> order = Comparator.<Integer>comparingDouble(i -> remaining[i])
                .thenComparingDouble(i -> startingTime[i])
                .thenComparing((a, b) -> Float.compare(x[a], x[b]))
                .thenComparing((a, b) -> Float.compare(y[a], y[b]))
                .thenComparing((a, b) -> Float.compare(vx[a], vx[b]))
                .thenComparing((a, b) -> Float.compare(vy[a], vy[b]));
        ParticleSnapshot out = new ParticleSnapshot();
        IntStream.range(0, count).boxed().sorted(order)
                .forEach(i -> out.add(x[i], y[i], vx[i], vy[i], startingTime[i], remaining[i]));
        return out;
    }

    /**
     * The largest difference between this and {@code other}, particle by particle in their current orders,
     * over every field; {@code Double.POSITIVE_INFINITY} when the counts differ.
     */
    public double maxDifference(ParticleSnapshot other) {
        if (other.count != count) {
            return Double.POSITIVE_INFINITY;
        }
        double max = 0;
        for (int i = 0; i < count; i++) {
            max = Math.max(max, Math.abs(x[i] - other.x[i]));
            max = Math.max(max, Math.abs(y[i] - other.y[i]));
            max = Math.max(max, Math.abs(vx[i] - other.vx[i]));
            max = Math.max(max, Math.abs(vy[i] - other.vy[i]));
            max = Math.max(max, Math.abs(startingTime[i] - other.startingTime[i]));
            max = Math.max(max, Math.abs(remaining[i] - other.remaining[i]));
        }
        return max;
    }

    /** Particle {@code i} in the current order, for messages. */
    public String describe(int i) {
        return "(x=" + x[i] + ", y=" + y[i] + ", vx=" + vx[i] + ", vy=" + vy[i] + ", startingTime=" + startingTime[i]
                + ", remaining=" + remaining[i] + ")";
    }

    /** Whether both hold the same particles in the same order, bit for bit. */
    @Override
    public boolean equals(Object o) {
        return o instanceof ParticleSnapshot s && s.count == count
                && Arrays.equals(x, 0, count, s.x, 0, count) && Arrays.equals(y, 0, count, s.y, 0, count)
                && Arrays.equals(vx, 0, count, s.vx, 0, count) && Arrays.equals(vy, 0, count, s.vy, 0, count)
                && Arrays.equals(startingTime, 0, count, s.startingTime, 0, count)
                && Arrays.equals(remaining, 0, count, s.remaining, 0, count);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(Arrays.copyOf(remaining, count));
    }

    @Override
    public String toString() {
        return "ParticleSnapshot[" + count + " particles]";
    }
}
