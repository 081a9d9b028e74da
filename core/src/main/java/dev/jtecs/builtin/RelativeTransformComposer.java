package dev.jtecs.builtin;

import dev.jtecs.component.RelationshipValue;
import dev.jtecs.query.Query;
import dev.jtecs.query.QueryDescriptor;
import dev.jtecs.query.QueryVisitor;
import dev.jtecs.schedule.SystemBody;
import dev.jtecs.storage.Archetype;
import dev.jtecs.storage.FloatColumn;
import dev.jtecs.storage.IntColumn;
import dev.jtecs.world.World;
import java.util.Arrays;

/**
 * The body of {@link BuiltinSystems#RELATIVE_TRANSFORMS}: for every entity with {@link Transform2D},
 * {@link RelativeTransform2D} and a {@link ChildOf} parent, writes {@code parentTransform.compose(offset)}
 * ({@link Transform2D#compose}) into its {@code Transform2D}, parents before children.
 *
 * <p>Why per archetype. {@code ChildOf} is dense: the parent is part of the archetype's signature, so every
 * row of a matched archetype has the same parent. One pass therefore reads the parent's transform and its
 * cosine and sine once per archetype and then runs a plain columnar loop over the rows.
 *
 * <p>Cost. The flip side of dense storage is one archetype per parent, and with fan-outs of a few children the
 * work per archetype, not per row, dominates: fetching 20 column views (13 of the archetype, 7 of its parent's)
 * walks heap metadata that a forest of tens of thousands of archetypes keeps out of cache (measured: about
 * 65 ns per view at 32,500 archetypes, against a few for the arithmetic).
 *
 * <p>Order. The matched archetypes form a forest: an archetype's parent is the archetype holding its rows'
 * parent, when that one is matched too. Each run links that forest (a counting sort of members by parent) and
 * walks it in pre-order, so an archetype is composed only after the one holding its parent. Archetypes whose
 * parent is not matched (a root, or an entity with no offset or no transform) start the walk. Archetypes on a {@code ChildOf} cycle, which nothing forbids and no root reaches,
 * are walked afterwards from wherever the cycle is first met; their results mean nothing, but the run ends.
 *
 * <p>A parent without {@code Transform2D} (or not yet published) counts as {@link Transform2D#IDENTITY}.
 * {@code Transform2D} is marked dirty only in archetypes where some value changed, bit for bit, so a still
 * hierarchy leaves it clean.
 *
 * @implNote No allocation per entity or per archetype in steady state: the member, forest and order arrays are
 *     kept between runs and grow with the number of matched archetypes. The parent of an archetype is looked up
 *     once per archetype object (signatures never change) and cached by archetype id.
 */
final class RelativeTransformComposer implements SystemBody {
    private static final QueryDescriptor MATCH = QueryDescriptor.builder()
            .include(Transform2D.COMPONENT, RelativeTransform2D.COMPONENT, ChildOf.ANY).build();

    private World world;
    private Query query;
    private final QueryVisitor collector = this::collect;

    // Per matched archetype of this run, by member index.
    private Archetype[] members = new Archetype[16];
    private Archetype[] parentArchetype = new Archetype[16];
    private int[] parentRow = new int[16];
    private int[] parentMember = new int[16]; // the parent archetype's member index, or -1
    private int[] childStart = new int[17];   // children of member m: childList[childStart[m] .. childStart[m + 1])
    private int[] childList = new int[16];
    private int[] stack = new int[16];
    private boolean[] walked = new boolean[16];
    private int memberCount;

    // Per archetype id: this run's member index (valid when stamp == run), the cached parent and its owner.
    private int[] stamp = new int[16];
    private int[] memberIndex = new int[16];
    private Archetype[] parentOwner = new Archetype[16];
    private long[] parentId = new long[16];
    private int run;

    @Override
    public void run(double dt, World w) {
        Query q = queryFor(w);
        run++;
        memberCount = 0;
        q.forEach(collector);
        if (memberCount == 0) {
            return;
        }
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

    private Query queryFor(World w) {
        if (world == null) {
            world = w;
            query = w.newQuery(MATCH);
        } else if (world != w) {
            throw new IllegalStateException(BuiltinSystems.RELATIVE_TRANSFORMS + " serves the world it first ran "
                    + "in; register BuiltinSystems.relativeTransforms() afresh for another world");
        }
        return query;
    }

    private void collect(Archetype archetype, int count) {
        if (memberCount == members.length) {
            int n = memberCount * 2;
            members = Arrays.copyOf(members, n);
            parentArchetype = Arrays.copyOf(parentArchetype, n);
            parentRow = Arrays.copyOf(parentRow, n);
            parentMember = Arrays.copyOf(parentMember, n);
            childStart = Arrays.copyOf(childStart, n + 1);
            childList = Arrays.copyOf(childList, n);
            stack = Arrays.copyOf(stack, n);
            walked = Arrays.copyOf(walked, n);
        }
        int id = archetype.id();
        if (id >= stamp.length) {
            int n = Math.max(id + 1, stamp.length * 2);
            stamp = Arrays.copyOf(stamp, n);
            memberIndex = Arrays.copyOf(memberIndex, n);
            parentOwner = Arrays.copyOf(parentOwner, n);
            parentId = Arrays.copyOf(parentId, n);
        }
        stamp[id] = run;
        memberIndex[id] = memberCount;
        walked[memberCount] = false;
        members[memberCount++] = archetype;
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

    /** Composes member {@code start} and every member below it, each parent before its children. */
    private void walk(int start) {
        int top = 0;
        stack[top++] = start;
        walked[start] = true;
        while (top > 0) {
            int i = stack[--top];
            compose(members[i], parentArchetype[i], parentRow[i]);
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
        parentArchetype[i] = owner;
        if (owner == null) {
            return -1;
        }
        parentRow[i] = world.rowOf(parent);
        int id = owner.id();
        return id < stamp.length && stamp[id] == run ? memberIndex[id] : -1;
    }

    /** Writes {@code parent.compose(offset)} into every row of {@code child}; see {@link Transform2D#compose}. */
    private static void compose(Archetype child, Archetype parent, int row) {
        float px = 0;
        float py = 0;
        float pz = 0;
        int layer = 0;
        float pr = 0;
        float psx = 1;
        float psy = 1;
        if (parent != null && parent.has(Transform2D.COMPONENT)) {
            px = parent.get(Transform2D.X).get(row);
            py = parent.get(Transform2D.Y).get(row);
            pz = parent.get(Transform2D.Z).get(row);
            layer = parent.get(Transform2D.LAYER).get(row);
            pr = parent.get(Transform2D.ROTATION).get(row);
            psx = parent.get(Transform2D.SCALE_X).get(row);
            psy = parent.get(Transform2D.SCALE_Y).get(row);
        }
        float c = (float) Math.cos(pr);
        float s = (float) Math.sin(pr);
        boolean changed = composeRows(child, child.count(), px, py, pz, layer, pr, psx, psy, c, s);
        if (changed) {
            child.markComponentDirty(Transform2D.COMPONENT);
        }
    }

    /**
     * The columnar loop: the same float operations, in the same order, as {@link Transform2D#compose}. Writes
     * through read views and reports whether any bit changed, so the caller marks the column dirty only then.
     */
    private static boolean composeRows(Archetype child, int count, float px, float py, float pz, int layer,
            float pr, float psx, float psy, float c, float s) {
        FloatColumn rx = child.get(RelativeTransform2D.X);
        FloatColumn ry = child.get(RelativeTransform2D.Y);
        FloatColumn rz = child.get(RelativeTransform2D.Z);
        FloatColumn rr = child.get(RelativeTransform2D.ROTATION);
        FloatColumn rsx = child.get(RelativeTransform2D.SCALE_X);
        FloatColumn rsy = child.get(RelativeTransform2D.SCALE_Y);
        FloatColumn x = child.get(Transform2D.X);
        FloatColumn y = child.get(Transform2D.Y);
        FloatColumn z = child.get(Transform2D.Z);
        IntColumn layers = child.get(Transform2D.LAYER);
        FloatColumn r = child.get(Transform2D.ROTATION);
        FloatColumn sx = child.get(Transform2D.SCALE_X);
        FloatColumn sy = child.get(Transform2D.SCALE_Y);
        int diff = 0;
        for (int row = 0; row < count; row++) {
            float lx = psx * rx.get(row);
            float ly = psy * ry.get(row);
            float nx = px + (c * lx - s * ly);
            float ny = py + (s * lx + c * ly);
            float nz = pz + rz.get(row);
            float nr = pr + rr.get(row);
            float nsx = psx * rsx.get(row);
            float nsy = psy * rsy.get(row);
            diff |= bits(x.get(row)) ^ bits(nx) | bits(y.get(row)) ^ bits(ny) | bits(z.get(row)) ^ bits(nz)
                    | layers.get(row) ^ layer | bits(r.get(row)) ^ bits(nr) | bits(sx.get(row)) ^ bits(nsx)
                    | bits(sy.get(row)) ^ bits(nsy);
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
