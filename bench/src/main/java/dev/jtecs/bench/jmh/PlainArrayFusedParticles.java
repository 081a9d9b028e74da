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

    PlainArrayFusedParticles(int entities, int seed) {
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
        int n = count;
        int k = 0;
        for (int i = 0; i < n; i++) {
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
                spent[k++] = i;
            }
        }
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
    public void close() {}
}
