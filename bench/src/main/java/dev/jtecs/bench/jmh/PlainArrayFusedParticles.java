package dev.jtecs.bench.jmh;

import static dev.jtecs.bench.particles.ParticleRules.DAMPING_FACTOR;
import static dev.jtecs.bench.particles.ParticleRules.DT;
import static dev.jtecs.bench.particles.ParticleRules.FIXED_STEP;
import static dev.jtecs.bench.particles.ParticleRules.GRAVITY_STEP;
import static dev.jtecs.bench.particles.ParticleRules.SPENT_LIMIT;

import dev.jtecs.bench.particles.ParticleEmitter;
import dev.jtecs.bench.particles.ParticleSimulation;
import dev.jtecs.bench.particles.ParticleSnapshot;
import dev.jtecs.random.RandomStreams;

/**
 * {@code plain-array-fused}: the {@code particles} frame as one hand-written loop over plain arrays, the floor an
 * engine's frame is measured against. Struct-of-arrays {@code float[]}/{@code double[]} columns, no ids, no
 * engine; per frame:
 *
 * <pre>
 *   one loop over rows: gravity, damping, integrate, countdown; the row's x, y, startingTime, remaining written
 *                       to the output arrays in the same iteration; spent rows listed
 *   spent rows, highest first: swap-remove (the last row moves into the hole, in the columns and the output)
 *   the burst appended at the end, in the columns and the output
 * </pre>
 *
 * The output mirrors every particle after the frame, as the extractions of jtecs and the peers do: every
 * particle moved, so all of it is copied. Fairness: this is what a program with no engine, no entity ids and no
 * change tracking would write; the extraction costs no extra pass, because the loop that computes a value also
 * stores it. The loop is plain Java, so C2 decides whether it vectorizes (the conditional append of spent rows
 * keeps it scalar in practice).
 *
 * <p>On {@code threads > 1} ({@code plainArrayFusedTwoThreadsFrame}) the same frame split as well as plain arrays
 * allow, the ceiling of any engine's parallel frame on the machine: the loop over rows cut into one 64-row aligned
 * range per thread (each lists its spent rows; the ranges' lists in order are the one-thread list), then the
 * swap-removals and the burst's appends cut by column (each column's removals in the one-thread order), the
 * calling thread taking one share and a pool of {@code threads - 1} the others. The state and output are the
 * one-thread frame's, bit for bit.
 */
final class PlainArrayFusedParticles implements ParticleFrame {
    private final ParticleEmitter emitter;
    private final float[] x;
    private final float[] y;
    private final float[] vx;
    private final float[] vy;
    private final double[] start;
    private final double[] remaining;
    private final float[] outX;
    private final float[] outY;
    private final double[] outStart;
    private final double[] outRemaining;
    private final int[] spent;
    private int count;
    private long expired;
    private long extractedBytes;

    private final int threads;
    private final java.util.concurrent.ExecutorService pool; // threads - 1 workers; null on one thread
    private final int[][] spentOf; // per thread range: its spent rows, ascending
    private final int[] spentCount;

    PlainArrayFusedParticles(int entities, int seed) {
        this(entities, seed, 1);
    }

    /** The frame on {@code threads} threads (the caller and a pool of {@code threads - 1}). */
    PlainArrayFusedParticles(int entities, int seed, int threads) {
        if (threads < 1) {
            throw new IllegalArgumentException("threads=" + threads + " must be at least 1");
        }
        this.threads = threads;
        this.pool = threads == 1 ? null : java.util.concurrent.Executors.newFixedThreadPool(threads - 1, r -> {
            Thread t = new Thread(r, "plain-array-fused");
            t.setDaemon(true);
            return t;
        });
        this.spentOf = new int[threads][];
        this.spentCount = new int[threads];
        emitter = new ParticleEmitter(new RandomStreams(seed).stream(ParticleSimulation.RANDOM_STREAM));
        x = new float[entities];
        y = new float[entities];
        vx = new float[entities];
        vy = new float[entities];
        start = new double[entities];
        remaining = new double[entities];
        outX = new float[entities];
        outY = new float[entities];
        outStart = new double[entities];
        outRemaining = new double[entities];
        spent = new int[entities];
        emitter.initial(entities);
        append(entities);
    }

    @Override
    public void frame() {
        if (threads > 1) {
            parallelFrame();
            return;
        }
        int n = count;
        int k = step(0, n, spent);
        for (int j = k - 1; j >= 0; j--) { // highest first: the last row is never a spent one still to remove
            int i = spent[j];
            int last = --count;
            x[i] = x[last];
            y[i] = y[last];
            vx[i] = vx[last];
            vy[i] = vy[last];
            start[i] = start[last];
            remaining[i] = remaining[last];
            outX[i] = outX[last];
            outY[i] = outY[last];
            outStart[i] = outStart[last];
            outRemaining[i] = outRemaining[last];
        }
        expired += k;
        if (k > 0) {
            emitter.burst(k);
            append(k);
        }
        extractedBytes = (long) count * (2 * Float.BYTES + 2 * Double.BYTES);
    }

    private void parallelFrame() {
        int n = count;
        int share = (n / threads + 63) & ~63;
        inParallel(t -> {
            int from = Math.min(n, t * share);
            int to = Math.min(n, (t + 1) * share);
            if (spentOf[t] == null || spentOf[t].length < to - from) {
                spentOf[t] = new int[Math.max(64, to - from)];
            }
            spentCount[t] = step(from, to, spentOf[t]);
        });
        int k = 0;
        for (int t = 0; t < threads; t++) {
            k += spentCount[t];
        }
        int spentTotal = k;
        inParallel(t -> {
            for (int c = t; c < 10; c += threads) {
                removeColumn(c, spentTotal, n);
            }
        });
        count = n - k;
        expired += k;
        if (k > 0) {
            emitter.burst(k);
            int at = count;
            inParallel(t -> {
                for (int c = t; c < 10; c += threads) {
                    appendColumn(c, at, spentTotal);
                }
            });
            count += k;
        }
        extractedBytes = (long) count * (2 * Float.BYTES + 2 * Double.BYTES);
    }

    /**
     * The frame's loop over rows {@code [from, to)}: gravity, damping, integrate, countdown, the output written;
     * lists the spent rows in {@code list} (ascending) and returns how many.
     */
    private int step(int from, int to, int[] list) {
        int k = 0;
        for (int i = from; i < to; i++) {
            float pvx = vx[i] * DAMPING_FACTOR;
            float pvy = (vy[i] + GRAVITY_STEP) * DAMPING_FACTOR;
            vx[i] = pvx;
            vy[i] = pvy;
            float px = x[i] + pvx * DT;
            float py = y[i] + pvy * DT;
            x[i] = px;
            y[i] = py;
            double left = remaining[i] - FIXED_STEP;
            remaining[i] = left;
            outX[i] = px;
            outY[i] = py;
            outStart[i] = start[i];
            outRemaining[i] = left;
            if (left <= SPENT_LIMIT) {
                list[k++] = i;
            }
        }
        return k;
    }

    /** Column {@code c}'s swap-removals of the {@code k} spent rows, highest first, from a count of {@code n}. */
    private void removeColumn(int c, int k, int n) {
        float[] floats = switch (c) { // the column chosen once, not per removal
            case 0 -> x;
            case 1 -> y;
            case 2 -> vx;
            case 3 -> vy;
            case 4 -> outX;
            case 5 -> outY;
            default -> null;
        };
        double[] doubles = switch (c) {
            case 6 -> start;
            case 7 -> remaining;
            case 8 -> outStart;
            case 9 -> outRemaining;
            default -> null;
        };
        int last = n;
        for (int t = threads - 1; t >= 0; t--) {
            int[] list = spentOf[t];
            for (int j = spentCount[t] - 1; j >= 0; j--) {
                int i = list[j];
                last--;
                if (floats != null) {
                    floats[i] = floats[last];
                } else {
                    doubles[i] = doubles[last];
                }
            }
        }
    }

    /** Column {@code c}'s part of {@link #append}: the emitter's last {@code n} particles at row {@code at}. */
    private void appendColumn(int c, int at, int n) {
        switch (c) {
            case 0 -> System.arraycopy(emitter.x(), 0, x, at, n);
            case 1 -> System.arraycopy(emitter.y(), 0, y, at, n);
            case 2 -> System.arraycopy(emitter.vx(), 0, vx, at, n);
            case 3 -> System.arraycopy(emitter.vy(), 0, vy, at, n);
            case 4 -> System.arraycopy(emitter.x(), 0, outX, at, n);
            case 5 -> System.arraycopy(emitter.y(), 0, outY, at, n);
            case 6 -> System.arraycopy(emitter.lifetime(), 0, start, at, n);
            case 7 -> System.arraycopy(emitter.lifetime(), 0, remaining, at, n);
            case 8 -> System.arraycopy(emitter.lifetime(), 0, outStart, at, n);
            default -> System.arraycopy(emitter.lifetime(), 0, outRemaining, at, n);
        }
    }

    /** Runs {@code part} for every thread index, 0 on the caller, and returns when all have run. */
    private void inParallel(java.util.function.IntConsumer part) {
        java.util.concurrent.Future<?>[] others = new java.util.concurrent.Future<?>[threads - 1];
        for (int t = 1; t < threads; t++) {
            int index = t;
            others[t - 1] = pool.submit(() -> part.accept(index));
        }
        part.accept(0);
        for (java.util.concurrent.Future<?> other : others) {
            try {
                other.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while a plain frame's part ran", e);
            } catch (java.util.concurrent.ExecutionException e) {
                throw new IllegalStateException("a plain frame's part failed", e.getCause());
            }
        }
    }

    /** Appends the emitter's last {@code n} particles, in the columns and the output. */
    private void append(int n) {
        int at = count;
        System.arraycopy(emitter.x(), 0, x, at, n);
        System.arraycopy(emitter.y(), 0, y, at, n);
        System.arraycopy(emitter.vx(), 0, vx, at, n);
        System.arraycopy(emitter.vy(), 0, vy, at, n);
        System.arraycopy(emitter.lifetime(), 0, start, at, n);
        System.arraycopy(emitter.lifetime(), 0, remaining, at, n);
        System.arraycopy(emitter.x(), 0, outX, at, n);
        System.arraycopy(emitter.y(), 0, outY, at, n);
        System.arraycopy(emitter.lifetime(), 0, outStart, at, n);
        System.arraycopy(emitter.lifetime(), 0, outRemaining, at, n);
        count += n;
    }

    @Override
    public int liveCount() {
        return count;
    }

    @Override
    public long expired() {
        return expired;
    }

    @Override
    public long extractedBytes() {
        return extractedBytes;
    }

    /** Whether every column and output array holds {@code other}'s values in the same rows, bit for bit. */
    boolean sameRowsAs(PlainArrayFusedParticles other) {
        int n = count;
        return n == other.count
                && java.util.Arrays.equals(x, 0, n, other.x, 0, n) && java.util.Arrays.equals(y, 0, n, other.y, 0, n)
                && java.util.Arrays.equals(vx, 0, n, other.vx, 0, n)
                && java.util.Arrays.equals(vy, 0, n, other.vy, 0, n)
                && java.util.Arrays.equals(start, 0, n, other.start, 0, n)
                && java.util.Arrays.equals(remaining, 0, n, other.remaining, 0, n)
                && java.util.Arrays.equals(outX, 0, n, other.outX, 0, n)
                && java.util.Arrays.equals(outY, 0, n, other.outY, 0, n)
                && java.util.Arrays.equals(outStart, 0, n, other.outStart, 0, n)
                && java.util.Arrays.equals(outRemaining, 0, n, other.outRemaining, 0, n);
    }

    /** Whether the output mirrors every particle's x, y, startingTime and remaining (for the test). */
    boolean outputMirrorsState() {
        for (int i = 0; i < count; i++) {
            if (Float.floatToRawIntBits(outX[i]) != Float.floatToRawIntBits(x[i])
                    || Float.floatToRawIntBits(outY[i]) != Float.floatToRawIntBits(y[i])
                    || Double.doubleToRawLongBits(outStart[i]) != Double.doubleToRawLongBits(start[i])
                    || Double.doubleToRawLongBits(outRemaining[i]) != Double.doubleToRawLongBits(remaining[i])) {
                return false;
            }
        }
        return true;
    }

    @Override
    public ParticleSnapshot snapshot() {
        ParticleSnapshot snapshot = new ParticleSnapshot();
        for (int i = 0; i < count; i++) {
            snapshot.add(x[i], y[i], vx[i], vy[i], start[i], remaining[i]);
        }
        return snapshot.sorted();
    }

    @Override
    public void close() {
        if (pool != null) {
            pool.shutdownNow();
        }
    }
}
