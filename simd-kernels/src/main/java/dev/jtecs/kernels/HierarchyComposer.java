package dev.jtecs.kernels;

import dev.jtecs.builtin.BuiltinSystems;
import dev.jtecs.builtin.ChildOf;
import dev.jtecs.builtin.RelativeTransform2D;
import dev.jtecs.builtin.Transform2D;
import dev.jtecs.component.FloatField;
import dev.jtecs.component.RelationshipValue;
import dev.jtecs.query.Query;
import dev.jtecs.query.QueryDescriptor;
import dev.jtecs.query.QueryVisitor;
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
 *   rebuild: query (Transform2D, RelativeTransform2D, ChildOf.ANY) ──► members ──► parent of each (one per
 *            archetype: ChildOf is dense) ──► forest of members ──► pre-order walk ──► steps: archetype,
 *            row count, its 13 column segments, its parent's 7 segments and row
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
 * <p>Order and results. The plan is the builtin system's walk, step for step: the members in query order, each
 * archetype whose parent is not a member starting a pre-order walk of the members below it, then the members on
 * {@code ChildOf} cycles (which no root reaches) walked from wherever a cycle is first met. Every step computes
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
 *     reuses its arrays and grows them only when the matched archetypes outnumber them; the parent of an
 *     archetype is looked up once per archetype object (signatures never change) and cached by archetype id.
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
    private final QueryVisitor collector = this::collect;
    private World world;
    private Query query;
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

    // Linking scratch, per member (query order) of one rebuild.
    private Archetype[] members = new Archetype[16];
    private Archetype[] memberParent = new Archetype[16];
    private int[] memberParentRow = new int[16];
    private int[] parentMember = new int[16]; // the parent archetype's member index, or -1
    private int[] childStart = new int[17];   // children of member m: childList[childStart[m] .. childStart[m + 1])
    private int[] childList = new int[16];
    private int[] stack = new int[16];
    private boolean[] walked = new boolean[16];
    private int memberCount;

    // Per archetype id: this rebuild's member index (valid when stamp == rebuilds), the cached parent and owner.
    private long[] stamp = new long[16];
    private int[] memberIndex = new int[16];
    private Archetype[] parentOwner = new Archetype[16];
    private long[] parentId = new long[16];

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
            world = w;
            query = w.newQuery(MATCH);
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
            memberCount = 0;
            query.forEach(collector); // a scope: if closing it published something, the version tells
        } while (world.structureVersion() != version);
        steps = 0;
        watched = 0;
        alwaysStale = false;
        if (memberCount > 0) {
            linkForest();
            for (int i = 0; i < memberCount; i++) {
                if (parentMember[i] < 0) {
                    walk(i);
                }
            }
            for (int i = 0; i < memberCount; i++) {
                if (!walked[i]) { // on a cycle: no root reaches it
                    walk(i);
                }
            }
        }
        Arrays.fill(stepArchetype, steps, stepArchetype.length, null); // keep nothing of an older, larger plan
        Arrays.fill(stepColumns, steps * COLUMNS, stepColumns.length, null);
        Arrays.fill(parentColumns, steps * PARENT_COLUMNS, parentColumns.length, null);
        Arrays.fill(members, 0, memberCount, null);
        Arrays.fill(memberParent, 0, memberCount, null);
        Arrays.fill(watchArchetype, watched, watchArchetype.length, null);
        planVersion = world.structureVersion(RelativeTransform2D.COMPONENT);
        planned = true;
    }

    private void collect(Archetype archetype, int count) {
        if (memberCount == members.length) {
            growMembers(memberCount * 2);
        }
        int id = archetype.id();
        if (id >= stamp.length) {
            int n = Math.max(id + 1, stamp.length * 2);
            stamp = Arrays.copyOf(stamp, n);
            memberIndex = Arrays.copyOf(memberIndex, n);
            parentOwner = Arrays.copyOf(parentOwner, n);
            parentId = Arrays.copyOf(parentId, n);
        }
        stamp[id] = rebuilds;
        memberIndex[id] = memberCount;
        walked[memberCount] = false;
        members[memberCount++] = archetype;
    }

    private void growMembers(int n) {
        members = Arrays.copyOf(members, n);
        memberParent = Arrays.copyOf(memberParent, n);
        memberParentRow = Arrays.copyOf(memberParentRow, n);
        parentMember = Arrays.copyOf(parentMember, n);
        childStart = Arrays.copyOf(childStart, n + 1);
        childList = Arrays.copyOf(childList, n);
        stack = Arrays.copyOf(stack, n);
        walked = Arrays.copyOf(walked, n);
        stepArchetype = Arrays.copyOf(stepArchetype, n);
        stepCount = Arrays.copyOf(stepCount, n);
        stepColumns = Arrays.copyOf(stepColumns, n * COLUMNS);
        parentColumns = Arrays.copyOf(parentColumns, n * PARENT_COLUMNS);
        parentRow = Arrays.copyOf(parentRow, n);
    }

    /** Finds each member's parent archetype and row, and lists each member's child members (a counting sort). */
    private void linkForest() {
        int n = memberCount;
        Arrays.fill(childStart, 0, n + 1, 0);
        for (int i = 0; i < n; i++) {
            int p = findParent(i);
            parentMember[i] = p;
            if (p >= 0) {
                childStart[p + 1]++;
            }
        }
        for (int m = 0; m < n; m++) {
            childStart[m + 1] += childStart[m]; // now the start of each list
        }
        for (int i = 0; i < n; i++) {
            int p = parentMember[i];
            if (p >= 0) {
                childList[childStart[p]++] = i; // advances each start to its list's end
            }
        }
        System.arraycopy(childStart, 0, childStart, 1, n); // ends back to starts, one slot on
        childStart[0] = 0;
    }

    /** Appends member {@code start} and every member below it to the plan, each parent before its children. */
    private void walk(int start) {
        int top = 0;
        stack[top++] = start;
        walked[start] = true;
        while (top > 0) {
            int i = stack[--top];
            appendStep(i);
            for (int k = childStart[i + 1] - 1; k >= childStart[i]; k--) { // pushed last first: popped in order
                int child = childList[k];
                if (!walked[child]) {
                    walked[child] = true;
                    stack[top++] = child;
                }
            }
        }
    }

    /** The parent every row of a matched archetype has (ChildOf is dense: it is in the signature). */
    private long parentOf(Archetype archetype) {
        int id = archetype.id();
        if (parentOwner[id] != archetype) { // first sight of this archetype (or of a reused id)
            RelationshipValue edge = archetype.getFirstRelationship(ChildOf.COMPONENT, 0);
            parentOwner[id] = archetype;
            parentId[id] = edge.target();
        }
        return parentId[id];
    }

    /**
     * Records where member {@code i}'s parent lives (archetype and row; no archetype when it is not published)
     * and returns the member index of that archetype when it is matched too, else -1.
     */
    private int findParent(int i) {
        long parent = parentOf(members[i]);
        Archetype owner = world.archetypeOf(parent);
        memberParent[i] = owner;
        if (owner == null) {
            return -1;
        }
        memberParentRow[i] = world.rowOf(parent);
        int id = owner.id();
        return id < stamp.length && stamp[id] == rebuilds ? memberIndex[id] : -1;
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

    /** Member {@code i} as the next step: its row count, its 13 segments, its parent's 7 segments and row. */
    private void appendStep(int i) {
        Archetype archetype = members[i];
        int step = steps++;
        stepArchetype[step] = archetype;
        stepCount[step] = archetype.count();
        int base = step * COLUMNS;
        transformColumns(archetype, stepColumns, base);
        for (int k = 0; k < OFFSET.length; k++) {
            stepColumns[base + PARENT_COLUMNS + k] = archetype.get(OFFSET[k]).segment();
        }
        Archetype parent = memberParent[i];
        int p = step * PARENT_COLUMNS;
        if (parent == null) {
            alwaysStale = true; // its publication would change no archetype the plan watches
        } else if (parentMember[i] < 0) {
            watch(parent); // covered by no counter of ours: its rows may move with no RelativeTransform2D around
        }
        if (parent != null && parent.has(Transform2D.COMPONENT)) {
            transformColumns(parent, parentColumns, p);
            parentRow[step] = memberParentRow[i];
        } else {
            Arrays.fill(parentColumns, p, p + PARENT_COLUMNS, null); // the identity
            parentRow[step] = -1;
        }
    }
}
