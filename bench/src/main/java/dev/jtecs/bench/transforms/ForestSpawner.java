package dev.jtecs.bench.transforms;

import dev.jtecs.builtin.ChildOf;
import dev.jtecs.builtin.RelativeTransform2D;
import dev.jtecs.builtin.Transform2D;
import dev.jtecs.component.FloatField;
import dev.jtecs.component.IntField;
import dev.jtecs.component.NativeComponent;
import dev.jtecs.random.Xoshiro128;
import dev.jtecs.storage.Archetype;
import dev.jtecs.mutation.BatchIds;
import dev.jtecs.world.World;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;

/**
 * Draws a forest's scene and spawns it: the roots' poses and every child's offset, drawn in node order from one
 * random stream, then written by {@code batchSpawn} initializers with one bulk copy per column.
 *
 * <p>Draws per root: x, y in {@code [-1000, 1000)}, z in {@code [-1, 1)}, layer in {@code [0, 4)}, rotation in
 * {@code [-pi, pi)}, one scale in {@code [0.5, 1.5)} for both axes. Per child: x, y in {@code [-20, 20)}, z in
 * {@code [-0.1, 0.1)}, rotation in {@code [-1.5, 1.5)}, scaleX and scaleY in {@code [0.8, 1.2)}; origin
 * {@code (0.5, 0.5)}.
 */
final class ForestSpawner {
    private static final ValueLayout.OfFloat FLOAT = ValueLayout.JAVA_FLOAT;
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT;

    private final ForestShape forest;
    // Roots, by root order.
    private final float[][] rootPose;  // x, y, z, rotation, scaleX, scaleY
    private final int[] rootLayer;
    // Children, by node index (root entries unused).
    private final float[][] offset;    // x, y, z, rotation, scaleX, scaleY, originX, originY

    private static final FloatField[] ROOT_FIELDS = {Transform2D.X, Transform2D.Y, Transform2D.Z,
        Transform2D.ROTATION, Transform2D.SCALE_X, Transform2D.SCALE_Y};
    private static final FloatField[] OFFSET_FIELDS = {RelativeTransform2D.X, RelativeTransform2D.Y,
        RelativeTransform2D.Z, RelativeTransform2D.ROTATION, RelativeTransform2D.SCALE_X, RelativeTransform2D.SCALE_Y,
        RelativeTransform2D.ORIGIN_X, RelativeTransform2D.ORIGIN_Y};

    ForestSpawner(ForestShape forest, Xoshiro128 random) {
        this.forest = forest;
        int n = forest.nodes();
        rootPose = new float[ROOT_FIELDS.length][forest.rootCount()];
        rootLayer = new int[forest.rootCount()];
        offset = new float[OFFSET_FIELDS.length][n];
        int root = 0;
        for (int i = 0; i < n; i++) {
            if (forest.parent(i) < 0) {
                rootPose[0][root] = uniform(random, -1000, 1000);
                rootPose[1][root] = uniform(random, -1000, 1000);
                rootPose[2][root] = uniform(random, -1, 1);
                rootLayer[root] = random.nextInt(4);
                rootPose[3][root] = uniform(random, (float) -Math.PI, (float) Math.PI);
                float scale = uniform(random, 0.5f, 1.5f);
                rootPose[4][root] = scale;
                rootPose[5][root] = scale;
                root++;
            } else {
                offset[0][i] = uniform(random, -20, 20);
                offset[1][i] = uniform(random, -20, 20);
                offset[2][i] = uniform(random, -0.1f, 0.1f);
                offset[3][i] = uniform(random, -1.5f, 1.5f);
                offset[4][i] = uniform(random, 0.8f, 1.2f);
                offset[5][i] = uniform(random, 0.8f, 1.2f);
                offset[6][i] = 0.5f;
                offset[7][i] = 0.5f;
            }
        }
    }

    private static float uniform(Xoshiro128 random, float min, float max) {
        return min + random.nextFloat() * (max - min);
    }

    /**
     * Spawns the forest in one scope: the roots (Transform2D and {@code motion}) by one batch in root order, then
     * each parent's children by one batch with {@code ChildOf.to(parent)} and their offsets. Returns the id of
     * every node by index.
     */
    long[] spawn(World world, NativeComponent<?> motion) {
        long[] ids = new long[forest.nodes()];
        int[] roots = forest.roots();
        world.defer();
        try {
            BatchIds rootIds = world.batchSpawn(roots.length, List.of(Transform2D.COMPONENT, motion), this::fillRoots);
            for (int k = 0; k < roots.length; k++) {
                ids[roots[k]] = rootIds.get(k);
            }
            for (int p = 0; p < forest.nodes(); p++) {
                int count = forest.childCount(p);
                if (count == 0) {
                    continue;
                }
                int first = forest.firstChild(p);
                BatchIds children = world.batchSpawn(count,
                        List.of(ChildOf.COMPONENT.to(ids[p]), RelativeTransform2D.COMPONENT),
                        (archetype, fromRow, toRow) -> fillOffsets(archetype, fromRow, toRow, first));
                for (int k = 0; k < count; k++) {
                    ids[first + k] = children.get(k);
                }
            }
        } finally {
            world.commit();
        }
        return ids;
    }

    private void fillRoots(Archetype archetype, int fromRow, int toRow) {
        int n = toRow - fromRow;
        for (int f = 0; f < ROOT_FIELDS.length; f++) {
            MemorySegment.copy(rootPose[f], 0, archetype.getMut(ROOT_FIELDS[f]).segment(), FLOAT,
                    (long) fromRow * Float.BYTES, n);
        }
        IntField layer = Transform2D.LAYER;
        MemorySegment.copy(rootLayer, 0, archetype.getMut(layer).segment(), INT, (long) fromRow * Integer.BYTES, n);
    }

    private void fillOffsets(Archetype archetype, int fromRow, int toRow, int firstNode) {
        int n = toRow - fromRow;
        for (int f = 0; f < OFFSET_FIELDS.length; f++) {
            MemorySegment.copy(offset[f], firstNode, archetype.getMut(OFFSET_FIELDS[f]).segment(), FLOAT,
                    (long) fromRow * Float.BYTES, n);
        }
    }
}
