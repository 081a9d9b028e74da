package dev.jtecs.kernels;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** A 3D box: empty when an axis is, faces inside. */
class Bounds3DTest {
    @Test
    void emptyWhenAnyAxisIsEmpty() {
        assertTrue(Bounds3D.EMPTY.isEmpty());
        assertTrue(new Bounds3D(0, 0, Float.POSITIVE_INFINITY, 1, 1, Float.NEGATIVE_INFINITY).isEmpty(), "z empty");
        assertFalse(new Bounds3D(1, 1, 1, 1, 1, 1).isEmpty(), "a single point");
    }

    @Test
    void facesAreInside() {
        Bounds3D box = new Bounds3D(0, 0, 0, 1, 2, 3);
        assertTrue(box.contains(1, 2, 3));
        assertFalse(box.contains(1, 2, 3.5f));
        assertFalse(Bounds3D.EMPTY.contains(0, 0, 0));
    }
}
