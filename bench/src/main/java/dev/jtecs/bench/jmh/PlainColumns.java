package dev.jtecs.bench.jmh;

import dev.jtecs.kernels.vector.VectorParticleOps;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The two plain baselines of the integrate workloads, with no engine around them: the population of
 * {@link PeerWorlds} as four {@code float[]} (struct of arrays) and as four bare 64-byte-aligned native segments
 * padded to whole vectors, as jtecs columns are.
 *
 * <p>{@link #integrateArrays} is the loop anyone would write first (the JIT vectorizes it: element-wise, no
 * reduction); {@link #integrateSegments} runs the jtecs vector kernel itself over the bare segments, so the
 * ratio of jtecs to it is what the query, the archetype visit and dirty marking cost. Both do exactly what the
 * scalar twin does ({@code x += vx * dt}, no fused multiply-add), so all agree bit for bit.
 */
final class PlainColumns implements AutoCloseable {
    final float[] x;
    final float[] y;
    final float[] vx;
    final float[] vy;
    private final Arena arena = Arena.ofShared(); // shared, like every jtecs column (see VectorParticleOps.warmUp)
    final MemorySegment sx;
    final MemorySegment sy;
    final MemorySegment svx;
    final MemorySegment svy;
    private final int count;

    /** Entities {@code 0..count-1} with the {@link PeerWorlds} start values, in both representations. */
    PlainColumns(int count) {
        this.count = count;
        x = new float[count];
        y = new float[count];
        vx = new float[count];
        vy = new float[count];
        for (int i = 0; i < count; i++) {
            x[i] = PeerWorlds.x0(i);
            y[i] = PeerWorlds.y0(i);
            vx[i] = PeerWorlds.vx0(i);
            vy[i] = PeerWorlds.vy0(i);
        }
        sx = segmentOf(x);
        sy = segmentOf(y);
        svx = segmentOf(vx);
        svy = segmentOf(vy);
    }

    private MemorySegment segmentOf(float[] values) {
        long bytes = (long) VectorParticleOps.paddedCount(count) * Float.BYTES;
        MemorySegment segment = arena.allocate(bytes, 64); // zeroed: the padding lanes stay finite
        MemorySegment.copy(values, 0, segment, ValueLayout.JAVA_FLOAT, 0, count);
        return segment;
    }

    /** {@code x += vx * dt; y += vy * dt} over the arrays, one plain loop. */
    void integrateArrays(float dt) {
        float[] px = x;
        float[] py = y;
        float[] dx = vx;
        float[] dy = vy;
        for (int i = 0; i < px.length; i++) {
            px[i] += dx[i] * dt;
            py[i] += dy[i] * dt;
        }
    }

    /** The same over the bare segments, with the jtecs vector kernel. */
    void integrateSegments(float dt) {
        VectorParticleOps.INSTANCE.integrate2d(sx, sy, svx, svy, count, dt);
    }

    @Override
    public void close() {
        arena.close();
    }
}
