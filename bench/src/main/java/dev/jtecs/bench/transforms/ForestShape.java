package dev.jtecs.bench.transforms;

import java.util.Arrays;

/**
 * The shape of a forest as plain arrays: node {@code i} has parent {@code parent(i)} ({@code -1} for a root) and
 * children {@code firstChild(i) .. firstChild(i) + childCount(i) - 1}. Nodes are numbered breadth first within
 * each tree and trees follow one another, so a parent always comes before its children and one parent's
 * children are consecutive.
 */
public final class ForestShape {
    private final int[] parent;
    private final int[] firstChild;
    private final int[] childCount;
    private final int[] roots;

    private ForestShape(int[] parent) {
        this.parent = parent;
        int n = parent.length;
        firstChild = new int[n];
        childCount = new int[n];
        int[] rootList = new int[n];
        int rootCount = 0;
        for (int i = 0; i < n; i++) {
            int p = parent[i];
            if (p < 0) {
                rootList[rootCount++] = i;
            } else if (childCount[p]++ == 0) {
                firstChild[p] = i;
            }
        }
        roots = Arrays.copyOf(rootList, rootCount);
    }

    /**
     * {@code nodes} nodes in complete trees of {@code fanOut} children per inner node and {@code levels} levels;
     * when {@code nodes} is not a multiple of the tree size, the last tree holds the first nodes of one, breadth
     * first.
     *
     * @throws IllegalArgumentException unless {@code nodes >= 1}, {@code fanOut >= 1} and {@code levels >= 1}
     */
    public static ForestShape of(int nodes, int fanOut, int levels) {
        if (nodes < 1 || fanOut < 1 || levels < 1) {
            throw new IllegalArgumentException("nodes=" + nodes + " fanOut=" + fanOut + " levels=" + levels
                    + " must all be at least 1");
        }
        int treeSize = treeSize(fanOut, levels);
        int[] parent = new int[nodes];
        for (int i = 0; i < nodes; i++) {
            int k = i % treeSize; // position within its tree, breadth first
            parent[i] = k == 0 ? -1 : i - k + (k - 1) / fanOut;
        }
        return new ForestShape(parent);
    }

    /** Nodes in one complete tree: {@code 1 + f + f^2 + ...} over {@code levels} levels. */
    public static int treeSize(int fanOut, int levels) {
        long size = 0;
        long level = 1;
        for (int l = 0; l < levels; l++) {
            size += level;
            level *= fanOut;
        }
        return Math.toIntExact(size);
    }

    public int nodes() {
        return parent.length;
    }

    /** The parent of {@code node}, or -1 for a root. */
    public int parent(int node) {
        return parent[node];
    }

    public int firstChild(int node) {
        return firstChild[node];
    }

    public int childCount(int node) {
        return childCount[node];
    }

    /** The roots, ascending. */
    public int[] roots() {
        return roots.clone();
    }

    public int rootCount() {
        return roots.length;
    }
}
