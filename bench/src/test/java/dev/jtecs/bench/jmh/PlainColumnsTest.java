package dev.jtecs.bench.jmh;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.jtecs.kernels.vector.VectorParticleOps;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;

/** The two plain baselines hold the shared start values and integrate identically, bit for bit. */
class PlainColumnsTest {
    @Test
    void arraysAndSegmentsStartEqualAndIntegrateIdentically() {
        int n = VectorParticleOps.lanes() * 3 + 5;
        try (PlainColumns plain = new PlainColumns(n)) {
            assertEquals(PeerWorlds.vx0(n - 1), plain.svx.getAtIndex(ValueLayout.JAVA_FLOAT, n - 1));
            assertEquals(0f, plain.sx.getAtIndex(ValueLayout.JAVA_FLOAT, n), "padding starts zeroed");
            for (int step = 0; step < 4; step++) {
                plain.integrateArrays(0.25f);
                plain.integrateSegments(0.25f);
            }
            assertArrayEquals(Positions.of(plain.x, plain.y), Positions.of(plain.sx, plain.sy, n));
            assertEquals(PeerWorlds.x0(7) + PeerWorlds.vx0(7), plain.x[7], "four quarter steps: one velocity");
        }
    }
}
