package dev.jtecs.bench.transforms;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ForestShapeTest {
    @Test
    void completeTreesOfFourLevelsHoldFortyNodes() {
        assertEquals(40, ForestShape.treeSize(3, 4));
        ForestShape forest = ForestShape.of(120, 3, 4);
        assertArrayEquals(new int[] {0, 40, 80}, forest.roots());
        assertEquals(-1, forest.parent(40));
        assertEquals(40, forest.parent(41));
        assertEquals(40, forest.parent(43));
        assertEquals(41, forest.parent(44));
        assertEquals(44, forest.firstChild(41));
        assertEquals(3, forest.childCount(41));
        assertEquals(0, forest.childCount(79), "a leaf");
    }

    @Test
    void parentsComeFirstAndChildrenAreConsecutive() {
        ForestShape forest = ForestShape.of(1013, 3, 4);
        int[] depth = new int[forest.nodes()];
        for (int i = 0; i < forest.nodes(); i++) {
            int p = forest.parent(i);
            assertTrue(p < i, "node " + i);
            if (p >= 0) {
                depth[i] = depth[p] + 1;
                assertTrue(i >= forest.firstChild(p) && i < forest.firstChild(p) + forest.childCount(p));
            }
            assertTrue(depth[i] < 4, "node " + i + " depth " + depth[i]);
        }
        assertEquals(26, forest.rootCount(), "25 complete trees and one of 13 nodes");
        assertEquals(1000, forest.roots()[25]);
        assertEquals(3, forest.childCount(1003), "the truncated tree's nodes 1010..1012");
        assertEquals(1010, forest.firstChild(1003));
        assertEquals(0, forest.childCount(1004), "its fourth level is cut off");
    }

    @Test
    void rejectsEmptyShapes() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ForestShape.of(0, 3, 4));
        assertEquals("nodes=0 fanOut=3 levels=4 must all be at least 1", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ForestShape.of(10, 0, 4));
        assertThrows(IllegalArgumentException.class, () -> ForestShape.of(10, 3, 0));
    }
}
