package dev.jtecs.builtin.systems;

import dev.jtecs.query.QueryDescriptor;
import dev.jtecs.schedule.SystemBody;
import dev.jtecs.storage.Archetype;
import dev.jtecs.storage.FloatColumn;
import dev.jtecs.storage.IntColumn;
import dev.jtecs.world.World;
import dev.jtecs.builtin.ChildOf;
import dev.jtecs.builtin.RelativeTransform2D;
import dev.jtecs.builtin.Transform2D;
import dev.jtecs.entity.internal.Growth;
import java.util.Arrays;

/**
 * The body of {@link BuiltinSystems#RELATIVE_TRANSFORMS}: for every entity with {@link Transform2D},
 * {@link RelativeTransform2D} and a {@link ChildOf} parent, writes {@code parentTransform.compose(offset)}
 * ({@link Transform2D#compose}) into its {@code Transform2D}, parents before children.
 *
 * <p>Plan. A {@link HierarchyOrder} over the matched rows gives steps: runs of consecutive rows of one archetype
 * with one parent, parents first. The order is kept between runs and gathered again only when it is stale (a
 * structural change to an archetype holding {@code ChildOf} or a parent, or a change to {@code ChildOf}'s
 * edges); the column views of every archetype it names are fetched once per gather. A frame is then one pass
 * over the steps: per step, the parent's pose and its cosine and sine once, then a plain columnar loop over the
 * step's rows, as a hand-written loop over arrays would do. Consecutive steps whose rows follow each other in
 * one archetype share that loop, up to {@link #RUN_ROWS} rows ({@code composeRun}), so a forest of a few
 * children per parent is not composed in loops of a few rows each.
 *
 * <p>Why it is cheap. {@code ChildOf} is sparse, so a forest of any size sits in a few archetypes, and the steps
 * walk their columns in row order when rows were spawned parents first. A frame touches no per-archetype metadata
 * beyond the cached views.
 *
 * <p>Order. Archetypes and rows whose parent is not matched (a root, or an entity with no offset or no transform)
 * start the walk; rows on a {@code ChildOf} cycle, which nothing forbids and no root reaches, are walked
 * afterwards; their results mean nothing, but the run ends.
 *
 * <p>A parent without {@code Transform2D} (or not yet published) counts as {@link Transform2D#IDENTITY}.
 * {@code Transform2D} is marked dirty only in archetypes where some value changed, bit for bit, so a still
 * hierarchy leaves it clean. The old values are read back to compare only until the first change in the
 * archetype: after it, the archetype's mark is settled, and its later runs write without reading (a moving forest
 * then streams its offsets in and its transforms out).
 *
 * <p>Dirty sampling. Before composing, the body samples what composition reads: the structure counters of
 * {@code Transform2D}, {@code RelativeTransform2D} and {@code ChildOf}, and the write counters of the two
 * components in every archetype of the order. When none moved since the last composition finished, every value it
 * would write is already there, and the frame is skipped: a still hierarchy costs a few counter reads. (This is
 * the reference's relative-transform dirty sampler, folded into the body that uses its sample; see
 * docs/builtins.md.)
 *
 * @implNote No allocation per entity or per frame in steady state: the order keeps its arrays between gathers,
 *     and the views are fetched again only after a gather (one set per archetype, a few archetypes).
 */
final class RelativeTransformComposer implements SystemBody {
    private static final QueryDescriptor MATCH = QueryDescriptor.builder()
            .include(Transform2D.COMPONENT, RelativeTransform2D.COMPONENT, ChildOf.ANY).build();

    private World world;
    private HierarchyOrder order;

    // Views by the order's archetype index, fetched at each gather: Transform2D (null when absent) and offsets.
    private FloatColumn[] x = new FloatColumn[4];
    private FloatColumn[] y = new FloatColumn[4];
    private FloatColumn[] z = new FloatColumn[4];
    private IntColumn[] layers = new IntColumn[4];
    private FloatColumn[] r = new FloatColumn[4];
    private FloatColumn[] sx = new FloatColumn[4];
    private FloatColumn[] sy = new FloatColumn[4];
    private FloatColumn[] rx = new FloatColumn[4];
    private FloatColumn[] ry = new FloatColumn[4];
    private FloatColumn[] rz = new FloatColumn[4];
    private FloatColumn[] rr = new FloatColumn[4];
    private FloatColumn[] rsx = new FloatColumn[4];
    private FloatColumn[] rsy = new FloatColumn[4];
    private boolean[] changed = new boolean[4];
    private int viewed; // archetype indexes holding views: [0, viewed)
    private boolean viewsCurrent;

    // What the inputs of composition looked like right after the last composition (see inputsUnchanged).
    private boolean settled;
    private long settledTransforms;
    private long settledOffsets;
    private long settledEdges;
    private long settledWrites;
    /** Frames composed (a frame skipped because no input changed is not counted); read by tests. */
    long composedFrames;

    @Override
    public void run(double dt, World w) {
        HierarchyOrder steps = orderFor(w);
        boolean regathered = steps.refresh();
        if (regathered || !viewsCurrent) {
            viewsCurrent = false; // until the views of this gather are all in: a failure fetches them again
            fetchViews(steps);
            viewsCurrent = true;
        }
        if (!regathered && inputsUnchanged(steps)) {
            return; // every transform it would write holds that value already
        }
        settled = false; // until this composition is complete: a failure part way composes again next time
        compose(steps);
        composedFrames++;
        settledTransforms = world.structureVersion(Transform2D.COMPONENT);
        settledOffsets = world.structureVersion(RelativeTransform2D.COMPONENT);
        settledEdges = world.structureVersion(ChildOf.COMPONENT);
        settledWrites = writes(steps);
        settled = true;
    }

    /**
     * Whether nothing composition reads changed since the last composition, so composing again would write the
     * values that are there: no structural change to a table holding {@code Transform2D},
     * {@code RelativeTransform2D} or {@code ChildOf} (edge changes included), and no value write declared on
     * {@code Transform2D} or {@code RelativeTransform2D} in any archetype the order names (members and the
     * archetypes of parents), and no {@code ChildOf} cycle, whose rows read what the last composition wrote and so
     * change from one composition to the next. Write counters never reset, so a write made at any time since, in a system, between
     * frames or after the dirty bits were cleared, is seen; this composer's own marks were counted when it settled.
     */
    private boolean inputsUnchanged(HierarchyOrder steps) {
        return settled && !steps.hasCycle() && world.structureVersion(Transform2D.COMPONENT) == settledTransforms
                && world.structureVersion(RelativeTransform2D.COMPONENT) == settledOffsets
                && world.structureVersion(ChildOf.COMPONENT) == settledEdges
                && writes(steps) == settledWrites;
    }

    /** The sum of the write counters of both components over the order's archetypes (counters only grow). */
    private static long writes(HierarchyOrder steps) {
        long sum = 0;
        for (int a = 0, n = steps.archetypeCount(); a < n; a++) {
            Archetype archetype = steps.archetypeAt(a);
            if (archetype.has(Transform2D.COMPONENT)) {
                sum += archetype.writeCount(Transform2D.COMPONENT);
            }
            if (archetype.has(RelativeTransform2D.COMPONENT)) {
                sum += archetype.writeCount(RelativeTransform2D.COMPONENT);
            }
        }
        return sum;
    }

    private void compose(HierarchyOrder steps) {
        int archetypes = steps.archetypeCount();
        Arrays.fill(changed, 0, archetypes, false);
        int n = steps.size();
        int k = 0;
        while (k < n) {
            int child = steps.archetypeIndex(k);
            int from = steps.fromRow(k);
            int end = from + steps.rowCount(k);
            int last = k + 1; // the steps [k, last) compose rows [from, end) together: see composeRun
            while (last < n && steps.archetypeIndex(last) == child
                    && steps.fromRow(last) == end && end - from + steps.rowCount(last) <= RUN_ROWS
                    && !(steps.parentIndex(last) == child && steps.parentRow(last) >= from
                            && steps.parentRow(last) < end)) {
                end += steps.rowCount(last);
                last++;
            }
            boolean compare = !changed[child]; // once a value of the archetype changed, its mark is settled
            boolean diff = last - k == 1
                    ? composeStep(child, from, end - from, steps.parentIndex(k), steps.parentRow(k), compare)
                    : composeRun(steps, k, last, child, from, end, compare);
            if (diff) {
                changed[child] = true;
            }
            k = last;
        }
        for (int a = 0; a < archetypes; a++) {
            if (changed[a]) {
                steps.archetypeAt(a).markComponentDirty(Transform2D.COMPONENT);
            }
        }
    }

    /**
     * The most rows one run composes: the parent poses of that many rows (nine arrays of {@value} elements, 18
     * KiB) stay in the first-level cache while the rows are composed.
     */
    static final int RUN_ROWS = 512;

    // The parent pose of each row of a run, by row - from: what composeStep hoists out of its loop, per row.
    private final float[] runX = new float[RUN_ROWS];
    private final float[] runY = new float[RUN_ROWS];
    private final float[] runZ = new float[RUN_ROWS];
    private final int[] runLayer = new int[RUN_ROWS];
    private final float[] runR = new float[RUN_ROWS];
    private final float[] runSx = new float[RUN_ROWS];
    private final float[] runSy = new float[RUN_ROWS];
    private final float[] runCos = new float[RUN_ROWS];
    private final float[] runSin = new float[RUN_ROWS];

    /**
     * Composes steps {@code [first, last)}, which hold the consecutive rows {@code [from, end)} of archetype
     * {@code c}, none of whose parents is among those rows: first each row's parent pose (read, with its cosine
     * and sine, once per step), then one loop over all the rows. A forest of a few children per parent makes
     * steps of a few rows; their loops are too short for the compiler to take the column reads' checks out of
     * them, where one loop over hundreds of rows gets them checked once. Same operations, same results as
     * {@link #composeStep} per step.
     */
    private boolean composeRun(HierarchyOrder steps, int first, int last, int c, int from, int end,
            boolean compare) {
        for (int k = first; k < last; k++) {
            readParent(steps.parentIndex(k), steps.parentRow(k));
            float px = parentX;
            float py = parentY;
            float pz = parentZ;
            int layer = parentLayer;
            float pr = parentR;
            float psx = parentSx;
            float psy = parentSy;
            float cos = parentCos;
            float sin = parentSin;
            int to = steps.fromRow(k) - from;
            for (int i = to, stop = to + steps.rowCount(k); i < stop; i++) {
                runX[i] = px;
                runY[i] = py;
                runZ[i] = pz;
                runLayer[i] = layer;
                runR[i] = pr;
                runSx[i] = psx;
                runSy[i] = psy;
                runCos[i] = cos;
                runSin[i] = sin;
            }
        }
        return composeRunRows(c, from, end, compare);
    }

    /**
     * {@link #composeRows} with the parent pose read per row from the run's arrays. Without {@code compare} (the
     * archetype already changed this frame) the old values are not read back and the answer is {@code false}: the
     * caller's mark is settled already.
     */
    private boolean composeRunRows(int a, int from, int to, boolean compare) {
        FloatColumn rx = this.rx[a];
        FloatColumn ry = this.ry[a];
        FloatColumn rz = this.rz[a];
        FloatColumn rr = this.rr[a];
        FloatColumn rsx = this.rsx[a];
        FloatColumn rsy = this.rsy[a];
        FloatColumn x = this.x[a];
        FloatColumn y = this.y[a];
        FloatColumn z = this.z[a];
        IntColumn layers = this.layers[a];
        FloatColumn r = this.r[a];
        FloatColumn sx = this.sx[a];
        FloatColumn sy = this.sy[a];
        float[] runX = this.runX;
        float[] runY = this.runY;
        float[] runZ = this.runZ;
        int[] runLayer = this.runLayer;
        float[] runR = this.runR;
        float[] runSx = this.runSx;
        float[] runSy = this.runSy;
        float[] runCos = this.runCos;
        float[] runSin = this.runSin;
        int diff = 0;
        for (int row = from; row < to; row++) {
            int i = row - from;
            float psx = runSx[i];
            float psy = runSy[i];
            float c = runCos[i];
            float s = runSin[i];
            int layer = runLayer[i];
            float lx = psx * rx.get(row);
            float ly = psy * ry.get(row);
            float nx = runX[i] + (c * lx - s * ly);
            float ny = runY[i] + (s * lx + c * ly);
            float nz = runZ[i] + rz.get(row);
            float nr = runR[i] + rr.get(row);
            float nsx = psx * rsx.get(row);
            float nsy = psy * rsy.get(row);
            if (compare) { // loop-invariant: the compiler makes two loops of this one
                diff |= bits(x.get(row)) ^ bits(nx) | bits(y.get(row)) ^ bits(ny) | bits(z.get(row)) ^ bits(nz)
                        | layers.get(row) ^ layer | bits(r.get(row)) ^ bits(nr) | bits(sx.get(row)) ^ bits(nsx)
                        | bits(sy.get(row)) ^ bits(nsy);
            }
            x.set(row, nx);
            y.set(row, ny);
            z.set(row, nz);
            layers.set(row, layer);
            r.set(row, nr);
            sx.set(row, nsx);
            sy.set(row, nsy);
        }
        return diff != 0;
    }

    private HierarchyOrder orderFor(World w) {
        if (world == null) {
            order = new HierarchyOrder(w, w.newQuery(MATCH));
            world = w;
        } else if (world != w) {
            throw new IllegalStateException(BuiltinSystems.RELATIVE_TRANSFORMS + " serves the world it first ran "
                    + "in; register BuiltinSystems.relativeTransforms() afresh for another world");
        }
        return order;
    }

    /** The views of every archetype the order names, by index; an older, larger set is dropped. */
    private void fetchViews(HierarchyOrder steps) {
        int n = steps.archetypeCount();
        if (n > x.length) {
            growViews(Math.max(n, x.length * 2));
        }
        for (int a = 0; a < n; a++) {
            Archetype archetype = steps.archetypeAt(a);
            boolean transform = archetype.has(Transform2D.COMPONENT);
            x[a] = transform ? archetype.get(Transform2D.X) : null;
            y[a] = transform ? archetype.get(Transform2D.Y) : null;
            z[a] = transform ? archetype.get(Transform2D.Z) : null;
            layers[a] = transform ? archetype.get(Transform2D.LAYER) : null;
            r[a] = transform ? archetype.get(Transform2D.ROTATION) : null;
            sx[a] = transform ? archetype.get(Transform2D.SCALE_X) : null;
            sy[a] = transform ? archetype.get(Transform2D.SCALE_Y) : null;
            boolean offset = archetype.has(RelativeTransform2D.COMPONENT);
            rx[a] = offset ? archetype.get(RelativeTransform2D.X) : null;
            ry[a] = offset ? archetype.get(RelativeTransform2D.Y) : null;
            rz[a] = offset ? archetype.get(RelativeTransform2D.Z) : null;
            rr[a] = offset ? archetype.get(RelativeTransform2D.ROTATION) : null;
            rsx[a] = offset ? archetype.get(RelativeTransform2D.SCALE_X) : null;
            rsy[a] = offset ? archetype.get(RelativeTransform2D.SCALE_Y) : null;
        }
        if (viewed > n) { // keep no view of an older, larger gather
            dropViews(n, viewed);
        }
        viewed = n;
    }

    /** Every per-archetype view array, as they stand (growViews replaces them, so take them afresh). */
    private Object[][] viewArrays() {
        return new Object[][] {x, y, z, layers, r, sx, sy, rx, ry, rz, rr, rsx, rsy};
    }

    /** The column views this body holds, over all its arrays (tests: a smaller gather drops the rest). */
    int heldViews() {
        int held = 0;
        for (Object[] views : viewArrays()) {
            for (Object view : views) {
                held += view != null ? 1 : 0;
            }
        }
        return held;
    }

    private void dropViews(int from, int to) {
        for (Object[] views : viewArrays()) {
            Arrays.fill(views, from, to, null);
        }
    }

    private void growViews(int n) {
        // every array first, then assign: a failed growth leaves them all as they were, in step
        FloatColumn[][] floats = {x, y, z, r, sx, sy, rx, ry, rz, rr, rsx, rsy};
        FloatColumn[][] grown = new FloatColumn[floats.length][];
        for (int i = 0; i < floats.length; i++) {
            grown[i] = Growth.copyOf(floats[i], n);
        }
        IntColumn[] grownLayers = Growth.copyOf(layers, n);
        boolean[] grownChanged = Growth.copyOf(changed, n);
        x = grown[0];
        y = grown[1];
        z = grown[2];
        r = grown[3];
        sx = grown[4];
        sy = grown[5];
        rx = grown[6];
        ry = grown[7];
        rz = grown[8];
        rr = grown[9];
        rsx = grown[10];
        rsy = grown[11];
        layers = grownLayers;
        changed = grownChanged;
    }

    /**
     * Writes {@code parent.compose(offset)} into rows {@code [from, from + count)} of archetype {@code c}; see
     * {@link Transform2D#compose}. Returns whether any bit changed.
     */
    private boolean composeStep(int c, int from, int count, int p, int row, boolean compare) {
        readParent(p, row);
        return composeRows(c, from, from + count, parentX, parentY, parentZ, parentLayer, parentR, parentSx,
                parentSy, parentCos, parentSin, compare);
    }

    // the parent pose readParent read last (the identity for a parent without a transform), with its rotation's
    // cosine and sine: read once per step, by the step and the run alike
    private float parentX;
    private float parentY;
    private float parentZ;
    private int parentLayer;
    private float parentR;
    private float parentSx;
    private float parentSy;
    private float parentCos;
    private float parentSin;

    /** Reads the pose of row {@code row} of archetype {@code p} (none for {@code p < 0}) into the parent fields. */
    private void readParent(int p, int row) {
        float px = 0;
        float py = 0;
        float pz = 0;
        int layer = 0;
        float pr = 0;
        float psx = 1;
        float psy = 1;
        if (p >= 0 && x[p] != null) {
            px = x[p].get(row);
            py = y[p].get(row);
            pz = z[p].get(row);
            layer = layers[p].get(row);
            pr = r[p].get(row);
            psx = sx[p].get(row);
            psy = sy[p].get(row);
        }
        float cos = (float) Math.cos(pr);
        float sin = (float) Math.sin(pr);
        parentX = px;
        parentY = py;
        parentZ = pz;
        parentLayer = layer;
        parentR = pr;
        parentSx = psx;
        parentSy = psy;
        parentCos = cos;
        parentSin = sin;
    }

    /**
     * The columnar loop: the same float operations, in the same order, as {@link Transform2D#compose}. Writes
     * through read views and reports whether any bit changed, so the caller marks the column dirty only then;
     * without {@code compare} it reads nothing back and answers {@code false}, as {@link #composeRunRows} does.
     */
    private boolean composeRows(int a, int from, int to, float px, float py, float pz, int layer, float pr,
            float psx, float psy, float c, float s, boolean compare) {
        FloatColumn rx = this.rx[a];
        FloatColumn ry = this.ry[a];
        FloatColumn rz = this.rz[a];
        FloatColumn rr = this.rr[a];
        FloatColumn rsx = this.rsx[a];
        FloatColumn rsy = this.rsy[a];
        FloatColumn x = this.x[a];
        FloatColumn y = this.y[a];
        FloatColumn z = this.z[a];
        IntColumn layers = this.layers[a];
        FloatColumn r = this.r[a];
        FloatColumn sx = this.sx[a];
        FloatColumn sy = this.sy[a];
        int diff = 0;
        for (int row = from; row < to; row++) {
            float lx = psx * rx.get(row);
            float ly = psy * ry.get(row);
            float nx = px + (c * lx - s * ly);
            float ny = py + (s * lx + c * ly);
            float nz = pz + rz.get(row);
            float nr = pr + rr.get(row);
            float nsx = psx * rsx.get(row);
            float nsy = psy * rsy.get(row);
            if (compare) { // loop-invariant, as in composeRunRows
                diff |= bits(x.get(row)) ^ bits(nx) | bits(y.get(row)) ^ bits(ny) | bits(z.get(row)) ^ bits(nz)
                        | layers.get(row) ^ layer | bits(r.get(row)) ^ bits(nr) | bits(sx.get(row)) ^ bits(nsx)
                        | bits(sy.get(row)) ^ bits(nsy);
            }
            x.set(row, nx);
            y.set(row, ny);
            z.set(row, nz);
            layers.set(row, layer);
            r.set(row, nr);
            sx.set(row, nsx);
            sy.set(row, nsy);
        }
        return diff != 0;
    }

    private static int bits(float value) {
        return Float.floatToRawIntBits(value);
    }
}
