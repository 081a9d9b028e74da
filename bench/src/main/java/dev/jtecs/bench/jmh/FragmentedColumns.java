package dev.jtecs.bench.jmh;

import dev.jtecs.kernels.vector.VectorParticleOps;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The plain per-archetype baseline of {@code integrate_frag}: the {@link PeerWorlds} population cut into the same
 * groups as the jtecs fixture (entity {@code i} in group {@code i % groups}), each group four bare 64-byte-aligned
 * native segments padded to whole vectors, and one call of the jtecs vector kernel per group.
 *
 * <p>It is what a hand-written engine with no query, no archetype lookup and no dirty marking would do over the
 * same fragments, so the ratio of jtecs to it is the runner's own cost on small archetypes, and its ratio to the
 * unfragmented {@link PlainColumns#integrateSegments} is what fragmentation itself costs (a vector loop restarted
 * per group over four fresh streams).
 */
final class FragmentedColumns implements AutoCloseable {
    private final Arena arena = Arena.ofShared(); // shared, like every jtecs column (see VectorParticleOps.warmUp)
    /** {@code segments[g]} = x, y, vx, vy of group {@code g}. */
    final MemorySegment[][] segments;
    final int[] counts;

    /** Entities {@code 0..count-1} with the {@link PeerWorlds} start values, in {@code groups} groups. */
    FragmentedColumns(int count, int groups) {
        int used = Math.min(groups, count);
        segments = new MemorySegment[used][];
        counts = new int[used];
        for (int g = 0; g < used; g++) {
            float[][] values = Populations.groupStart(count, groups, g); // the jtecs fixture's groups
            int rows = values[0].length;
            segments[g] = new MemorySegment[4];
            for (int c = 0; c < 4; c++) {
                long bytes = (long) VectorParticleOps.paddedCount(rows) * Float.BYTES;
                segments[g][c] = arena.allocate(bytes, 64); // zeroed: the padding lanes stay finite
                MemorySegment.copy(values[c], 0, segments[g][c], ValueLayout.JAVA_FLOAT, 0, rows);
            }
            counts[g] = rows;
        }
    }

    /** {@code x += vx * dt; y += vy * dt}: the jtecs vector kernel once per group. */
    void integrate(float dt) {
        for (int g = 0; g < segments.length; g++) {
            MemorySegment[] s = segments[g];
            VectorParticleOps.INSTANCE.integrate2d(s[0], s[1], s[2], s[3], counts[g], dt);
        }
    }

    @Override
    public void close() {
        arena.close();
    }
}
