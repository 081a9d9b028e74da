package dev.jtecs.bench.particles;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import org.junit.jupiter.api.Test;

class ParticleSnapshotTest {
    @Test
    void sortedOrderDoesNotDependOnInsertionOrder() {
        ParticleSnapshot a = new ParticleSnapshot();
        ParticleSnapshot b = new ParticleSnapshot();
        for (int i = 0; i < 200; i++) {
            a.add(i, -i, i % 3, 1, 2.0, i % 7);
        }
        for (int i = 199; i >= 0; i--) {
            b.add(i, -i, i % 3, 1, 2.0, i % 7);
        }
        assertNotEquals(a, b);
        assertEquals(a.sorted(), b.sorted());
        assertEquals(0.0, a.sorted().maxDifference(b.sorted()));
        assertEquals(200, a.sorted().count());
    }

    @Test
    void measuresTheLargestDifference() {
        ParticleSnapshot a = new ParticleSnapshot();
        ParticleSnapshot b = new ParticleSnapshot();
        a.add(1, 2, 3, 4, 5, 6);
        b.add(1, 2.5f, 3, 4, 5, 6);
        assertEquals(0.5, a.maxDifference(b));
        b.add(0, 0, 0, 0, 0, 0);
        assertEquals(Double.POSITIVE_INFINITY, a.maxDifference(b));
    }
}
