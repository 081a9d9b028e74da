package dev.jtecs.bench.jmh;

import dev.jtecs.builtin.ChildOf;
import dev.jtecs.component.Relationship;
import dev.jtecs.component.Relationships;
import dev.jtecs.world.World;
import java.util.Arrays;
import java.util.List;

/**
 * A forest of complete trees as plain arrays: node {@code i} has parent {@code parent[i]} ({@code -1} for a
 * root), depth {@code depth[i]} below its root, and children {@code firstChild[i] .. firstChild[i] +
 * childCount[i] - 1}. Nodes are numbered breadth first within each
 * tree and trees follow one another, so every parent comes before its children and the children of one parent
 * are consecutive. This is both the plain-array baseline of the hierarchy benchmarks and the recipe from which
 * they build the same forest in a jtecs world.
 */
final class Forest {
    /**
     * A dense twin of {@code ChildOf} (which is sparse): exclusive, reverse-indexed, cascading, with each
     * (relationship, parent) pair in the signature, so one archetype per parent, as {@code ChildOf} was before
     * issue 21. The hierarchy benchmarks run on both to compare the storages.
     */
    static final Relationship DENSE_CHILD_OF = Relationships.register("bench.DenseChildOf",
            o -> o.exclusive().reverseIndex().cascadeDelete());

    /** Inner-node fan-out of the {@code transforms}-shaped forest. */
    static final int TRANSFORMS_FAN_OUT = 3;
    /** Levels of each tree of the {@code transforms}-shaped forest. */
    static final int TRANSFORMS_LEVELS = 4;
    /** Entities per tree of the {@code transforms}-shaped forest: 1 + 3 + 9 + 27. */
    static final int TRANSFORMS_TREE_SIZE = 40;

    /**
     * The forest of the {@code transforms} workload: {@code entities / 40} complete trees, 4 levels deep with 3
     * children per inner node.
     *
     * @throws IllegalArgumentException when {@code entities} is not a multiple of 40
     */
    static Forest transformsShaped(int entities) {
        if (entities % TRANSFORMS_TREE_SIZE != 0
                || treeSize(TRANSFORMS_FAN_OUT, TRANSFORMS_LEVELS) != TRANSFORMS_TREE_SIZE) {
            throw new IllegalArgumentException("entities=" + entities + " is not a multiple of "
                    + TRANSFORMS_TREE_SIZE);
        }
        return complete(entities / TRANSFORMS_TREE_SIZE, TRANSFORMS_FAN_OUT, TRANSFORMS_LEVELS);
    }

    /** The parent relationship a benchmark's {@code storage} parameter names: {@code dense} or {@code sparse}. */
    static Relationship parentOf(String storage) {
        return switch (storage) {
            case "dense" -> DENSE_CHILD_OF;
            case "sparse" -> ChildOf.COMPONENT;
            default -> throw new IllegalArgumentException("storage must be dense or sparse, was " + storage);
        };
    }

    final int[] parent;
    final int[] firstChild;
    final int[] childCount;
    final int[] depth;

    private Forest(int[] parent) {
        this.parent = parent;
        int nodes = parent.length;
        firstChild = new int[nodes];
        childCount = new int[nodes];
        depth = new int[nodes];
        for (int i = 0; i < nodes; i++) {
            int p = parent[i];
            if (p < 0) {
                continue;
            }
            if (p >= i || (childCount[p] > 0 && firstChild[p] + childCount[p] != i)) {
                throw new IllegalArgumentException("node " + i + ": parent " + p + " must come first and its "
                        + "children must be consecutive");
            }
            if (childCount[p]++ == 0) {
                firstChild[p] = i;
            }
            depth[i] = depth[p] + 1;
        }
    }

    /**
     * {@code trees} complete trees of {@code fanOut} children per inner node and {@code levels} levels (a root
     * and {@code levels - 1} levels below it).
     */
    static Forest complete(int trees, int fanOut, int levels) {
        int treeSize = treeSize(fanOut, levels);
        int[] parent = new int[Math.multiplyExact(trees, treeSize)];
        for (int t = 0; t < trees; t++) {
            int offset = t * treeSize;
            parent[offset] = -1;
            for (int k = 1; k < treeSize; k++) {
                parent[offset + k] = offset + (k - 1) / fanOut;
            }
        }
        return new Forest(parent);
    }

    /**
     * One tree of exactly {@code nodes} nodes: the first {@code nodes} nodes, breadth first, of a complete tree of
     * {@code fanOut} children per node (so only the last level may be partly filled).
     */
    static Forest truncated(int nodes, int fanOut) {
        int[] parent = new int[nodes];
        parent[0] = -1;
        for (int k = 1; k < nodes; k++) {
            parent[k] = (k - 1) / fanOut;
        }
        return new Forest(parent);
    }

    /** The number of nodes of a complete tree: 1 + f + f^2 + ... over {@code levels} levels. */
    static int treeSize(int fanOut, int levels) {
        int size = 0;
        int level = 1;
        for (int l = 0; l < levels; l++) {
            size += level;
            level *= fanOut;
        }
        return size;
    }

    int nodes() {
        return parent.length;
    }

    int[] roots() {
        return indexesWhere(true);
    }

    int[] leaves() {
        return indexesWhere(false);
    }

    /** Roots when {@code roots}, else leaves (nodes with no children), ascending. */
    private int[] indexesWhere(boolean roots) {
        int count = 0;
        int[] out = new int[parent.length];
        for (int i = 0; i < parent.length; i++) {
            if (roots ? parent[i] < 0 : childCount[i] == 0) {
                out[count++] = i;
            }
        }
        return Arrays.copyOf(out, count);
    }

    /**
     * Spawns this forest into {@code world} through public calls at scope depth 0: each root with
     * {@code spawn()}, then the children of each parent with one {@code batchSpawn} holding
     * {@code ChildOf.COMPONENT.to(parent)} (sparse: the children of every parent share one archetype). Returns the
     * id of every node by index.
     */
    long[] spawnInto(World world) {
        return spawnInto(world, ChildOf.COMPONENT);
    }

    /** {@link #spawnInto(World)} with the parent edges of {@code parentOf} (sparse {@code ChildOf} or its dense twin). */
    long[] spawnInto(World world, Relationship parentOf) {
        long[] ids = new long[parent.length];
        for (int i = 0; i < parent.length; i++) {
            if (parent[i] < 0) {
                ids[i] = world.spawn();
            }
        }
        for (int p = 0; p < parent.length; p++) {
            if (childCount[p] > 0) {
                long[] batch = world.batchSpawn(childCount[p], List.of(parentOf.to(ids[p]))).toArray();
                System.arraycopy(batch, 0, ids, firstChild[p], childCount[p]);
            }
        }
        return ids;
    }
}
