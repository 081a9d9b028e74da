package dev.jtecs.kernels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** A 2D box: empty when an axis is, edges inside, sizes. */
class Bounds2DTest {
    @Test
    void emptyWhenAnyAxisIsEmpty() {
        assertTrue(Bounds2D.EMPTY.isEmpty());
        assertTrue(new Bounds2D(0, Float.POSITIVE_INFINITY, 1, Float.NEGATIVE_INFINITY).isEmpty(), "y empty");
        assertFalse(new Bounds2D(3, 3, 3, 3).isEmpty(), "a single point");
        assertTrue(new Bounds2D(Float.NaN, 0, 1, 1).isEmpty(), "NaN bounds hold nothing");
        assertFalse(Bounds2D.EMPTY.contains(0, 0));
    }

    @Test
    void edgesAreInsideAndSizesAreDifferences() {
        Bounds2D box = new Bounds2D(-1, 2, 3, 5);
        assertTrue(box.contains(-1, 5));
        assertFalse(box.contains(3.5f, 3));
        assertFalse(box.contains(Float.NaN, 3));
        assertEquals(4, box.width());
        assertEquals(3, box.height());
        assertEquals(Float.NEGATIVE_INFINITY, Bounds2D.EMPTY.width());
    }
}
