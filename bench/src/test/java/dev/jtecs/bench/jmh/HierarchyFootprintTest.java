package dev.jtecs.bench.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.world.World;
import dev.jtecs.world.WorldConfig;
import org.junit.jupiter.api.Test;

/**
 * The footprint report counts what it says: column bytes are the rows times the row bytes of the forest's
 * archetypes (roots: id and {@code Transform2D}; children: id, {@code Transform2D} and {@code RelativeTransform2D}),
 * both variants hold the same columns, the buffers cover the columns and the native bytes held cover the buffers,
 * and the world's heap is counted (the
 * edge store makes the {@code ChildOf} variant's heap the larger one, and the hierarchy's order holds less of it after
 * a still frame than after the first).
 */
class HierarchyFootprintTest {
    private static final int N = 4_000; // 100 trees of 40: 100 roots, 3,900 children

    @Test
    void columnBytesAreTheRowsTimesTheirRowBytes() {
        World world = World.create(WorldConfig.defaults().maxEntities(N + 1));
        try {
            world.spawn(dev.jtecs.builtin.Transform2D.COMPONENT.of(dev.jtecs.builtin.Transform2D.IDENTITY));
            world.spawn();
            assertEquals(8 + 28 + 8, HierarchyFootprint.columnBytes(world), "an id each, 7 fields of 4 bytes");
        } finally {
            world.close();
        }
    }

    @Test
    void bothVariantsHoldTheSameColumnsAndTheEdgesCostHeap() {
        HierarchyFootprint.PerEntity withEdges = HierarchyFootprint.measure(N, true);
        HierarchyFootprint.PerEntity without = HierarchyFootprint.measure(N, false);
        double expectedColumns = (100 * (8 + 28) + 3_900 * (8 + 28 + 32)) / (double) N;
        assertEquals(expectedColumns, withEdges.columnBytes(), 1e-9);
        assertEquals(expectedColumns, without.columnBytes(), 1e-9);
        assertTrue(withEdges.nativeBytes() >= withEdges.nativeReserved(), withEdges.toString());
        assertTrue(withEdges.nativeReserved() >= withEdges.columnBytes(), withEdges.toString());
        assertTrue(without.nativeBytes() >= without.columnBytes(), without.toString());
        assertTrue(withEdges.heap() > 0 && without.heap() > 0, withEdges + " / " + without);
        assertTrue(withEdges.heap() > without.heap(), "the edges are on the heap: " + withEdges + " / " + without);
        assertEquals(withEdges.heap() + withEdges.nativeBytes(), withEdges.total(), 1e-9);
        // the first frame's gather keeps about 29 bytes of scratch per child; the still frame gives it back
        assertTrue(withEdges.heapFirstFrame() > withEdges.heap() + 10, withEdges.toString());
    }
}
