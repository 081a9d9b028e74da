package dev.jtecs.kernels;

import dev.jtecs.builtin.systems.BuiltinSystems;
import dev.jtecs.builtin.ChildOf;
import dev.jtecs.builtin.systems.HierarchyOrder;
import dev.jtecs.builtin.RelativeTransform2D;
import dev.jtecs.builtin.Transform2D;
import dev.jtecs.component.FloatField;
import dev.jtecs.query.QueryDescriptor;
import dev.jtecs.schedule.SystemBody;
import dev.jtecs.storage.Archetype;
import dev.jtecs.world.World;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.Objects;

/**
 * The kernel form of the builtin {@link BuiltinSystems#RELATIVE_TRANSFORMS} system: for every entity with
 * {@link Transform2D}, {@link RelativeTransform2D} and a {@link ChildOf} parent, writes
 * {@code parentTransform.compose(offset)} into its {@code Transform2D}, parents before children, with the same
 * results, bit for bit, and the same dirty marks as the builtin system.
 *
 * <pre>
 *   compose(world):
 *     order stale?  ──yes──► HierarchyOrder.refresh, then the plan (below)
 *       stale: a structural change to an archetype holding ChildOf (every composed one does) or to ChildOf's
 *              edges, a change to the shape of an archetype holding a parent that is not composed, or some
 *              parent not published yet (see HierarchyOrder)
 *     for each step of the order (a run of rows with one parent), in order:   parents' steps come first
 *         parent pose ◄── 7 cached parent segments at the parent row        (or the identity)
 *         c, s = (float) Math.cos(pr), (float) Math.sin(pr)                  once per step
 *         a whole archetype ──► TransformOps.compose2d(13 cached segments, count, pose, c, s)
 *         a run inside one  ──► ScalarTransformOps.compose2d over rows [from, to)   (the same operations)
 *         changed? ──► mark Transform2D on that archetype, once
 *
 *   plan: for each archetype the order names, its 13 column segments (7 when it only holds parents)
 * </pre>
 *
 * <p>Why a plan. The order and the segments change only with the shape of the archetypes involved and with
 * {@code ChildOf}'s edges, which {@link HierarchyOrder#isStale()} watches. While none of them changes, a frame is
 * one pass over the steps with no lookups at all, however much the rest of the world (particles, say) spawns and
 * despawns.
 *
 * <p>Order and results. The steps are the builtin system's, step for step: both take the steps of a
 * {@link HierarchyOrder} over the same query (parents first, rows on {@code ChildOf} cycles after every root's
 * walk). Every step computes what the builtin system computes for those rows, with the same {@code Math} calls for
 * the parent's sine and cosine and the same float operations per row ({@link TransformOps#compose2d}), so even a
 * cycle's meaningless values agree. The vector kernel runs only over a whole archetype, since it writes up to the
 * padded row count; a run inside an archetype takes the scalar twin, which writes only its rows. A parent that is
 * not published, or has no {@code Transform2D}, counts as {@link Transform2D#IDENTITY}. Entities with a
 * {@code RelativeTransform2D} and no parent are not composed and keep their {@code Transform2D}, as with the
 * builtin system. {@code Transform2D} is marked dirty on exactly the archetypes where a bit changed.
 *
 * <p>Serves the world it first runs in (another world throws) and is not thread-safe.
 *
 * @implNote After warm-up nothing is allocated: not per entity, not per step, not per frame. A rebuild reuses its
 *     arrays (and its {@link HierarchyOrder}'s) and grows them only when the archetypes outnumber them. The plan
 *     holds raw column segments only while the archetypes they belong to are unchanged, which the order's
 *     staleness check establishes before any segment is touched.
 */
public final class HierarchyComposer implements SystemBody {
    private static final QueryDescriptor MATCH = QueryDescriptor.builder()
            .include(Transform2D.COMPONENT, RelativeTransform2D.COMPONENT, ChildOf.ANY).build();
    private static final int COLUMNS = TransformOps.COMPOSE2D_COLUMNS;
    private static final int PARENT_COLUMNS = 7;
    private static final FloatField[] OFFSET = {RelativeTransform2D.X, RelativeTransform2D.Y,
        RelativeTransform2D.Z, RelativeTransform2D.ROTATION, RelativeTransform2D.SCALE_X, RelativeTransform2D.SCALE_Y};
    private static final ValueLayout.OfFloat FLOAT = ValueLayout.JAVA_FLOAT;
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT;

    private final TransformOps ops;
    private World world;
    private HierarchyOrder order;
    private long rebuilds;
    private int composed; // archetypes holding at least one step
    private boolean planCurrent;

    // The plan, by the order's archetype index: 13 segments (the Transform2D ones null when it has none, the
    // offsets null when it only holds parents), the row count, and whether a bit changed this frame.
    private int planned;
    private MemorySegment[] columns = new MemorySegment[4 * COLUMNS];
    private int[] rowCount = new int[4];
    private boolean[] changed = new boolean[4];

    /** A composer running {@code ops} ({@link TransformOps#SCALAR} or the provider's). */
    public HierarchyComposer(TransformOps ops) {
        this.ops = Objects.requireNonNull(ops, "ops");
    }

    /** A composer running {@link KernelProvider#transforms()}. */
    public HierarchyComposer() {
        this(KernelProvider.transforms());
    }

    /** As a system body: {@link #compose(World)}, whatever {@code dt}. */
    @Override
    public void run(double dt, World w) {
        compose(w);
    }

    /**
     * Composes every matched row of {@code w}, parents first, rebuilding the plan first when the world's
     * structure changed since the last call.
     *
     * @return on how many archetypes {@code Transform2D} was marked dirty (some bit changed)
     * @throws IllegalStateException when called with another world than the first one
     */
    public int compose(World w) {
        bind(w);
        if (order.refresh() || !planCurrent) {
            planCurrent = false; // until the plan of this gather is whole: a failure rebuilds it next time
            rebuild();
            planCurrent = true;
        }
        Arrays.fill(changed, 0, planned, false);
        int n = order.size();
        for (int k = 0; k < n; k++) {
            int a = order.archetypeIndex(k);
            if (composeStep(a, order.fromRow(k), order.rowCount(k), order.parentIndex(k), order.parentRow(k))) {
                changed[a] = true;
            }
        }
        int marked = 0;
        for (int a = 0; a < planned; a++) {
            if (changed[a]) {
                order.archetypeAt(a).markComponentDirty(Transform2D.COMPONENT);
                marked++;
            }
        }
        return marked;
    }

    /**
     * How many times the plan was built: once at the first call, then once per change seen to the shape of the
     * archetypes it depends on or to {@code ChildOf}'s edges.
     */
    public long planRebuilds() {
        return rebuilds;
    }

    /** How many archetypes the current plan composes (matched archetypes with rows at its last rebuild). */
    public int plannedArchetypes() {
        return composed;
    }

    @Override
    public String toString() {
        return "HierarchyComposer/" + ops.mode();
    }

    private void bind(World w) {
        Objects.requireNonNull(w, "world");
        if (world == null) {
            order = new HierarchyOrder(w, w.newQuery(MATCH));
            world = w;
        } else if (world != w) {
            throw new IllegalStateException(this + " serves the world it first ran in; make another for a "
                    + "second world");
        }
    }

    /** One step: the parent's pose from the cached segments, then the kernel over the step's rows. */
    private boolean composeStep(int a, int from, int count, int p, int parentRow) {
        float px = 0;
        float py = 0;
        float pz = 0;
        int layer = 0;
        float pr = 0;
        float psx = 1;
        float psy = 1;
        MemorySegment parentX = p < 0 ? null : columns[p * COLUMNS];
        if (parentX != null) {
            long row = parentRow;
            int base = p * COLUMNS;
            px = parentX.getAtIndex(FLOAT, row);
            py = columns[base + 1].getAtIndex(FLOAT, row);
            pz = columns[base + 2].getAtIndex(FLOAT, row);
            layer = columns[base + 3].getAtIndex(INT, row);
            pr = columns[base + 4].getAtIndex(FLOAT, row);
            psx = columns[base + 5].getAtIndex(FLOAT, row);
            psy = columns[base + 6].getAtIndex(FLOAT, row);
        }
        float c = (float) Math.cos(pr); // what Transform2D.compose and the builtin system compute
        float s = (float) Math.sin(pr);
        if (from == 0 && count == rowCount[a]) { // the whole archetype: the kernel may run to the padded count
            return ops.compose2d(columns, a * COLUMNS, count, px, py, pz, layer, pr, psx, psy, c, s);
        }
        return ScalarTransformOps.compose2d(columns, a * COLUMNS, from, from + count, px, py, pz, layer, pr, psx,
                psy, c, s);
    }

    // ---------------------------------------------------------------- the plan

    /** The segments of every archetype the freshly gathered order names. */
    private void rebuild() {
        rebuilds++;
        int n = order.archetypeCount();
        if (n > rowCount.length) {
            int size = Math.max(n, rowCount.length * 2);
            MemorySegment[] grownColumns = Arrays.copyOf(columns, size * COLUMNS); // all first, then assign
            int[] grownRowCount = Arrays.copyOf(rowCount, size);
            boolean[] grownChanged = Arrays.copyOf(changed, size);
            columns = grownColumns;
            rowCount = grownRowCount;
            changed = grownChanged;
        }
        for (int a = 0; a < n; a++) {
            Archetype archetype = order.archetypeAt(a);
            int base = a * COLUMNS;
            rowCount[a] = archetype.count();
            if (archetype.has(Transform2D.COMPONENT)) {
                transformColumns(archetype, columns, base);
            } else {
                Arrays.fill(columns, base, base + PARENT_COLUMNS, null); // the identity, as a parent
            }
            boolean offsets = archetype.has(RelativeTransform2D.COMPONENT);
            for (int c = 0; c < OFFSET.length; c++) {
                columns[base + PARENT_COLUMNS + c] = offsets ? archetype.get(OFFSET[c]).segment() : null;
            }
        }
        Arrays.fill(columns, n * COLUMNS, Math.max(n, planned) * COLUMNS, null); // nothing of an older plan
        planned = n;
        composed = 0;
        Arrays.fill(changed, 0, n, false);
        for (int k = 0; k < order.size(); k++) { // counts each composed archetype once
            int a = order.archetypeIndex(k);
            if (!changed[a]) {
                changed[a] = true;
                composed++;
            }
        }
    }

    /** The seven Transform2D segments of {@code archetype} into {@code into[at ..]}, in compose2d's order. */
    private static void transformColumns(Archetype archetype, MemorySegment[] into, int at) {
        into[at] = archetype.get(Transform2D.X).segment();
        into[at + 1] = archetype.get(Transform2D.Y).segment();
        into[at + 2] = archetype.get(Transform2D.Z).segment();
        into[at + 3] = archetype.get(Transform2D.LAYER).segment();
        into[at + 4] = archetype.get(Transform2D.ROTATION).segment();
        into[at + 5] = archetype.get(Transform2D.SCALE_X).segment();
        into[at + 6] = archetype.get(Transform2D.SCALE_Y).segment();
    }
}
