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
 *     plan stale?  ──yes──► rebuild the plan (below)
 *       stale: world.structureVersion(RelativeTransform2D) moved (a composed archetype changed shape), or an
 *              archetype holding a parent that is not composed itself changed shape (structuralCount,
 *              storageVersion), or some parent was not published yet
 *     for each step of the plan, in order:             parents' steps come before their children's
 *         parent pose ◄── 7 cached parent segments at the cached parent row   (or the identity)
 *         c, s = (float) Math.cos(pr), (float) Math.sin(pr)                  once per archetype
 *         TransformOps.compose2d(13 cached segments, count, pose, c, s)  ──changed?──► mark Transform2D
 *
 *   rebuild: HierarchyOrder.gather over the query (Transform2D, RelativeTransform2D, ChildOf.ANY), repeated
 *            until world.structureVersion() holds still ──► for each of its steps: archetype, row count, its
 *            13 column segments, its parent's 7 segments and row
 * </pre>
 *
 * <p>Why a plan. {@code ChildOf} is dense, so a hierarchy has one archetype per parent, a few rows each, and
 * the builtin system's cost is per archetype: finding the parent, linking the forest and fetching 20 column
 * views, every frame. Those answers change only with the shape of the archetypes involved: the composed ones
 * (all hold {@code RelativeTransform2D}, so {@link World#structureVersion(dev.jtecs.component.Component)} of it
 * covers them, new ones included) and the few that hold parents without being composed (usually the roots'
 * archetypes), watched one by one. While none of them changes, a frame is one pass over a flat array of steps
 * with no lookups at all, however much the rest of the world (particles, say) spawns and despawns.
 *
 * <p>Order and results. The plan is the builtin system's walk, step for step: both take the steps of a
 * {@link HierarchyOrder} over the same query (parents first, members on {@code ChildOf} cycles after every
 * root's walk). Every step computes
 * what the builtin system computes for that archetype, with the same {@code Math} calls for the parent's sine
 * and cosine and the same float operations per row ({@link TransformOps#compose2d}), so even a cycle's
 * meaningless values agree. A parent that is not published, or has no {@code Transform2D}, counts as
 * {@link Transform2D#IDENTITY}. Entities with a {@code RelativeTransform2D} and no parent are not composed and
 * keep their {@code Transform2D}, as with the builtin system. {@code Transform2D} is marked dirty on exactly the
 * archetypes where a bit changed.
 *
 * <p>Serves the world it first runs in (another world throws) and is not thread-safe.
 *
 * @implNote After warm-up nothing is allocated: not per entity, not per archetype, not per frame. A rebuild
 *     reuses its arrays (and its {@link HierarchyOrder}'s) and grows them only when the matched archetypes
 *     outnumber them; the order looks the parent of an archetype up once per archetype object and caches it by
 *     archetype id, and is cleared after each rebuild, so that apart from that cache only the plan holds the
 *     archetypes it composes.
 *     The plan holds raw column segments only while the archetypes they belong to are unchanged, which the
 *     counters above establish before any segment is touched.
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
    private long planVersion;     // structureVersion(RelativeTransform2D) the plan was built under
    private boolean planned;
    private boolean alwaysStale;  // some parent was not published: nothing watched would tell when it is
    private long rebuilds;

    // The archetypes that hold parents without being composed, and their shape when the plan was built.
    private int watched;
    private Archetype[] watchArchetype = new Archetype[4];
    private long[] watchStructural = new long[4];
    private long[] watchStorage = new long[4];
    private long[] watchStamp = new long[16]; // by archetype id: the rebuild that last watched it

    // The plan: one step per non-empty matched archetype, in composition order.
    private int steps;
    private Archetype[] stepArchetype = new Archetype[16];
    private int[] stepCount = new int[16];
    private MemorySegment[] stepColumns = new MemorySegment[16 * COLUMNS];
    private MemorySegment[] parentColumns = new MemorySegment[16 * PARENT_COLUMNS]; // null: identity parent
    private int[] parentRow = new int[16];

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
     * Composes every matched archetype of {@code w}, parents first, rebuilding the plan first when the world's
     * structure changed since the last call.
     *
     * @return on how many archetypes {@code Transform2D} was marked dirty (some bit changed)
     * @throws IllegalStateException when called with another world than the first one
     */
    public int compose(World w) {
        bind(w);
        if (isStale()) {
            rebuild();
        }
        int marked = 0;
        for (int i = 0; i < steps; i++) {
            if (composeStep(i)) {
                stepArchetype[i].markComponentDirty(Transform2D.COMPONENT);
                marked++;
            }
        }
        return marked;
    }

    /** Whether the plan may no longer describe the world (see the class comment). */
    private boolean isStale() {
        if (!planned || alwaysStale || world.structureVersion(RelativeTransform2D.COMPONENT) != planVersion) {
            return true;
        }
        for (int i = 0; i < watched; i++) {
            Archetype archetype = watchArchetype[i];
            if (archetype.structuralCount() != watchStructural[i] || archetype.storageVersion() != watchStorage[i]) {
                return true;
            }
        }
        return false;
    }

    /**
     * How many times the plan was built: once at the first call, then once per change seen to the shape of the
     * archetypes it depends on.
     */
    public long planRebuilds() {
        return rebuilds;
    }

    /** How many archetypes the current plan composes (non-empty matched archetypes at its last rebuild). */
    public int plannedArchetypes() {
        return steps;
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

    /** One archetype: the parent's pose from the cached segments, then the kernel over the archetype's rows. */
    private boolean composeStep(int i) {
        int p = i * PARENT_COLUMNS;
        MemorySegment parentX = parentColumns[p];
        float px = 0;
        float py = 0;
        float pz = 0;
        int layer = 0;
        float pr = 0;
        float psx = 1;
        float psy = 1;
        if (parentX != null) {
            long row = parentRow[i];
            px = parentX.getAtIndex(FLOAT, row);
            py = parentColumns[p + 1].getAtIndex(FLOAT, row);
            pz = parentColumns[p + 2].getAtIndex(FLOAT, row);
            layer = parentColumns[p + 3].getAtIndex(INT, row);
            pr = parentColumns[p + 4].getAtIndex(FLOAT, row);
            psx = parentColumns[p + 5].getAtIndex(FLOAT, row);
            psy = parentColumns[p + 6].getAtIndex(FLOAT, row);
        }
        float c = (float) Math.cos(pr); // what Transform2D.compose and the builtin system compute
        float s = (float) Math.sin(pr);
        return ops.compose2d(stepColumns, i * COLUMNS, stepCount[i], px, py, pz, layer, pr, psx, psy, c, s);
    }

    // ---------------------------------------------------------------- the plan

    /** Builds the plan from the world as it is; repeats if the structure changed meanwhile. */
    private void rebuild() {
        long version;
        do {
            version = world.structureVersion();
            rebuilds++;
            order.gather(); // a scope: if closing it published something, the version tells
        } while (world.structureVersion() != version);
        int n = order.size();
        if (n > stepArchetype.length) {
            growSteps(Math.max(n, stepArchetype.length * 2));
        }
        steps = 0;
        watched = 0;
        alwaysStale = false;
        for (int k = 0; k < n; k++) {
            appendStep(k);
        }
        order.clear(); // the plan holds what it needs
        Arrays.fill(stepArchetype, steps, stepArchetype.length, null); // keep nothing of an older, larger plan
        Arrays.fill(stepColumns, steps * COLUMNS, stepColumns.length, null);
        Arrays.fill(parentColumns, steps * PARENT_COLUMNS, parentColumns.length, null);
        Arrays.fill(watchArchetype, watched, watchArchetype.length, null);
        planVersion = world.structureVersion(RelativeTransform2D.COMPONENT);
        planned = true;
    }

    private void growSteps(int n) {
        stepArchetype = Arrays.copyOf(stepArchetype, n);
        stepCount = Arrays.copyOf(stepCount, n);
        stepColumns = Arrays.copyOf(stepColumns, n * COLUMNS);
        parentColumns = Arrays.copyOf(parentColumns, n * PARENT_COLUMNS);
        parentRow = Arrays.copyOf(parentRow, n);
    }

    /** Adds {@code archetype} to the watched ones, once per rebuild, with its shape now. */
    private void watch(Archetype archetype) {
        int id = archetype.id();
        if (id >= watchStamp.length) {
            watchStamp = Arrays.copyOf(watchStamp, Math.max(id + 1, watchStamp.length * 2));
        }
        if (watchStamp[id] == rebuilds) {
            return; // already watched in this plan
        }
        watchStamp[id] = rebuilds;
        if (watched == watchArchetype.length) {
            watchArchetype = Arrays.copyOf(watchArchetype, watched * 2);
            watchStructural = Arrays.copyOf(watchStructural, watched * 2);
            watchStorage = Arrays.copyOf(watchStorage, watched * 2);
        }
        watchArchetype[watched] = archetype;
        watchStructural[watched] = archetype.structuralCount();
        watchStorage[watched] = archetype.storageVersion();
        watched++;
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

    /** The order's step {@code k} as the plan's next step: its row count, 13 segments, parent's 7 and row. */
    private void appendStep(int k) {
        Archetype archetype = order.archetype(k);
        int step = steps++;
        stepArchetype[step] = archetype;
        stepCount[step] = order.rowCount(k);
        int base = step * COLUMNS;
        transformColumns(archetype, stepColumns, base);
        for (int c = 0; c < OFFSET.length; c++) {
            stepColumns[base + PARENT_COLUMNS + c] = archetype.get(OFFSET[c]).segment();
        }
        Archetype parent = order.parentArchetype(k);
        int p = step * PARENT_COLUMNS;
        if (parent == null) {
            alwaysStale = true; // its publication would change no archetype the plan watches
        } else if (!order.parentIsMember(k)) {
            watch(parent); // covered by no counter of ours: its rows may move with no RelativeTransform2D around
        }
        if (parent != null && parent.has(Transform2D.COMPONENT)) {
            transformColumns(parent, parentColumns, p);
            parentRow[step] = order.parentRow(k);
        } else {
            Arrays.fill(parentColumns, p, p + PARENT_COLUMNS, null); // the identity
            parentRow[step] = -1;
        }
    }
}
