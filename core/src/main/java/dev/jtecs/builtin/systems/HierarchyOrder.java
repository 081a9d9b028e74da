package dev.jtecs.builtin.systems;

import dev.jtecs.entity.internal.Growth;
import dev.jtecs.component.Component;
import dev.jtecs.component.RelationshipValue;
import dev.jtecs.component.TargetSelector;
import dev.jtecs.query.Query;
import dev.jtecs.query.QueryVisitor;
import dev.jtecs.storage.Archetype;
import dev.jtecs.world.World;
import java.util.Arrays;
import java.util.Objects;
import dev.jtecs.builtin.ChildOf;

/**
 * The parents-first order of the archetypes a hierarchy query matches: a list of steps, one per non-empty
 * matched archetype (a member), each with where its parent lives, such that a member comes after the member
 * holding its parent. It is the one walk behind {@link BuiltinSystems#RELATIVE_TRANSFORMS} and its kernel form.
 *
 * <p>Model. {@link ChildOf} is dense: the parent is part of an archetype's signature, so all rows of a member
 * share one parent, and the members form a forest (a member's parent member is the member holding its rows'
 * parent, when that archetype is a member too). {@link #gather()} reads the world as it is and rebuilds the
 * steps:
 *
 * <pre>
 *   query.forEach ──► members, in query order, with their row counts
 *   each member ──► its parent entity (ChildOf edge, cached per archetype id)
 *              ──► world.archetypeOf / rowOf ──► parent archetype and row, parent member or none
 *   members ──► forest (children of each member listed in member order)
 *   steps  =  pre-order walk from each member whose parent is not a member, in member order,
 *             then from each member not yet walked (those on ChildOf cycles), in member order
 * </pre>
 *
 * <p>Invariants, after every {@code gather}:
 *
 * <ul>
 *   <li>Every member is a step exactly once; {@link #size()} is the number of members.
 *   <li>A step whose {@link #parentIsMember parent is a member} comes after that member's step, unless no root
 *       reaches it: members on a {@code ChildOf} cycle (which nothing forbids) and those below one are walked
 *       after every walk from a root, each walk starting from the first of them in member order not yet walked,
 *       so the step that starts such a walk comes before its parent's.
 *   <li>The walk is deterministic: within one walk, a member's children are visited in member order, each one's
 *       subtree before the next child.
 *   <li>A parent that is not published (no archetype, {@link #parentArchetype} is {@code null}) or lives in an
 *       archetype that is not a member makes its child start a walk.
 * </ul>
 *
 * <p>Serves one world and one query, both fixed at construction, and is not thread-safe. The steps describe the
 * world at the last {@code gather}; a structural change afterwards may leave them stale (rows moved, archetypes
 * emptied), which the caller detects, for instance with {@link World#structureVersion()}.
 *
 * @implNote Nothing is allocated in steady state: the member, forest and step arrays are kept between gathers
 *     and grow (doubling) only when the members outnumber them. The parent of an archetype is looked up once
 *     per archetype object (signatures never change) and cached by archetype id, the cache keeping one
 *     reference to the archetype it was filled for so that a reused id is noticed. A gather costs a visit of
 *     the query, two lookups of the world per member and a linear pass over the forest.
 */
public final class HierarchyOrder {
    private final World world;
    private final Query query;
    private final QueryVisitor collector = this::collect;

    // Per member, by member index (query order), of the last gather.
    private Archetype[] members = new Archetype[16];
    private int[] rowCount = new int[16];
    private Archetype[] parentArchetype = new Archetype[16];
    private int[] parentRow = new int[16];
    private int[] parentMember = new int[16]; // the parent archetype's member index, or -1
    private int[] childStart = new int[17];   // children of member m: childList[childStart[m] .. childStart[m + 1])
    private int[] childList = new int[16];
    private int[] stack = new int[16];
    private boolean[] walked = new boolean[16];
    private int memberCount;
    private int held; // member slots that may still hold archetype references: [0, held)

    // The steps: member indexes in walk order.
    private int[] order = new int[16];
    private int steps;

    // Per archetype id: the gather's member index (valid when stamp == gathers), the cached parent and its owner.
    private long[] stamp = new long[16];
    private int[] memberIndex = new int[16];
    private Archetype[] parentOwner = new Archetype[16];
    private long[] parentId = new long[16];
    private long gathers;

    /**
     * An empty order over {@code query}'s archetypes in {@code world}.
     *
     * @throws IllegalArgumentException when {@code query} belongs to another world, or does not include
     *     {@link ChildOf#ANY} (or one {@code ChildOf} target), which guarantees each member a parent
     * @throws IllegalStateException when {@code world} is closed or owned by another thread
     */
    public HierarchyOrder(World world, Query query) {
        Objects.requireNonNull(world, "world");
        Objects.requireNonNull(query, "query");
        world.requireOwnQuery(query);
        if (!includesChildOf(query)) {
            throw new IllegalArgumentException("query " + query.descriptor() + " does not include " + ChildOf.ANY
                    + ": a hierarchy order needs the parent of every archetype it matches (world " + world + ")");
        }
        this.world = world;
        this.query = query;
    }

    private static boolean includesChildOf(Query query) {
        for (Component<?> term : query.descriptor().include()) {
            if (term == ChildOf.ANY
                    || term instanceof TargetSelector<?> edge && edge.relationship() == ChildOf.COMPONENT) {
                return true;
            }
        }
        return false;
    }

    /**
     * Rebuilds the steps from the world as it is now: visits the query (one scope of the world), finds each
     * member's parent and walks the forest. Drops the references of an earlier, larger gather.
     *
     * @return the number of steps, {@link #size()}
     * @throws IllegalStateException when the world is closed or owned by another thread; the steps of the last
     *     gather are kept
     */
    public int gather() {
        world.requireOwnQuery(query); // checks the world before anything here changes
        gathers++;
        memberCount = 0;
        query.forEach(collector);
        int n = memberCount;
        steps = 0;
        if (n > 0) {
            linkForest();
            for (int i = 0; i < n; i++) {
                if (parentMember[i] < 0) {
                    walk(i);
                }
            }
            for (int i = 0; i < n; i++) {
                if (!walked[i]) { // on a cycle: no root reaches it
                    walk(i);
                }
            }
        }
        if (held > n) {
            Arrays.fill(members, n, held, null);
            Arrays.fill(parentArchetype, n, held, null);
        }
        held = n;
        return steps;
    }

    /** The number of steps: the non-empty archetypes the query matched at the last gather (0 after clear). */
    public int size() {
        return steps;
    }

    /** The archetype composed at {@code step}. */
    public Archetype archetype(int step) {
        return members[order[Objects.checkIndex(step, steps)]];
    }

    /** The row count of {@code step}'s archetype when it was gathered (what the query visit reported). */
    public int rowCount(int step) {
        return rowCount[order[Objects.checkIndex(step, steps)]];
    }

    /**
     * The archetype holding the parent of every row of {@code step}'s archetype, or {@code null} when that parent
     * is not published (staged, dead or stale) at the gather.
     */
    public Archetype parentArchetype(int step) {
        return parentArchetype[order[Objects.checkIndex(step, steps)]];
    }

    /** The parent's row in {@link #parentArchetype}, or -1 when there is no parent archetype. */
    public int parentRow(int step) {
        return parentRow[order[Objects.checkIndex(step, steps)]];
    }

    /** Whether {@code step}'s parent archetype is itself a member (a step of this order). */
    public boolean parentIsMember(int step) {
        return parentMember[order[Objects.checkIndex(step, steps)]] >= 0;
    }

    /**
     * Empties the order and drops its references to the gathered archetypes (the parent cache keeps its owners),
     * so that a caller that copied what it needs holds the archetypes alone.
     */
    public void clear() {
        Arrays.fill(members, 0, held, null);
        Arrays.fill(parentArchetype, 0, held, null);
        held = 0;
        memberCount = 0;
        steps = 0;
    }

    @Override
    public String toString() {
        return "HierarchyOrder of " + steps + " steps over " + query.descriptor();
    }

    private void collect(Archetype archetype, int count) {
        if (memberCount == members.length) {
            growMembers(memberCount * 2);
        }
        int id = archetype.id();
        if (id >= stamp.length) {
            int n = Math.max(id + 1, stamp.length * 2);
            // every array first, then assign: a failed growth leaves them all as they were, in step
            var grownStamp = Growth.copyOf(stamp, n);
            var grownMemberIndex = Growth.copyOf(memberIndex, n);
            var grownParentOwner = Growth.copyOf(parentOwner, n);
            var grownParentId = Growth.copyOf(parentId, n);
            stamp = grownStamp;
            memberIndex = grownMemberIndex;
            parentOwner = grownParentOwner;
            parentId = grownParentId;
        }
        stamp[id] = gathers;
        memberIndex[id] = memberCount;
        walked[memberCount] = false;
        rowCount[memberCount] = count;
        members[memberCount++] = archetype;
        held = Math.max(held, memberCount);
    }

    private void growMembers(int n) {
        // every array first, then assign: a failed growth leaves them all as they were, in step
        var grownMembers = Growth.copyOf(members, n);
        var grownRowCount = Growth.copyOf(rowCount, n);
        var grownParentArchetype = Growth.copyOf(parentArchetype, n);
        var grownParentRow = Growth.copyOf(parentRow, n);
        var grownParentMember = Growth.copyOf(parentMember, n);
        var grownChildStart = Growth.copyOf(childStart, n + 1);
        var grownChildList = Growth.copyOf(childList, n);
        var grownStack = Growth.copyOf(stack, n);
        var grownWalked = Growth.copyOf(walked, n);
        var grownOrder = Growth.copyOf(order, n);
        members = grownMembers;
        rowCount = grownRowCount;
        parentArchetype = grownParentArchetype;
        parentRow = grownParentRow;
        parentMember = grownParentMember;
        childStart = grownChildStart;
        childList = grownChildList;
        stack = grownStack;
        walked = grownWalked;
        order = grownOrder;
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

    /** Appends member {@code start} and every member below it to the steps, each parent before its children. */
    private void walk(int start) {
        int top = 0;
        stack[top++] = start;
        walked[start] = true;
        while (top > 0) {
            int i = stack[--top];
            order[steps++] = i;
            for (int k = childStart[i + 1] - 1; k >= childStart[i]; k--) { // pushed last first: popped in order
                int child = childList[k];
                if (!walked[child]) {
                    walked[child] = true;
                    stack[top++] = child;
                }
            }
        }
    }

    /** The parent every row of a member has (ChildOf is dense: it is in the signature). */
    private long parentOf(Archetype archetype) {
        int id = archetype.id();
        if (parentOwner[id] != archetype) { // first sight of this archetype (or of a reused id)
            RelationshipValue edge = archetype.getFirstRelationship(ChildOf.COMPONENT, 0);
            if (edge == null) { // the constructor's check of the query rules this out
                throw new IllegalStateException("archetype " + archetype + " matched by " + query.descriptor()
                        + " holds no " + ChildOf.COMPONENT + " edge");
            }
            parentOwner[id] = archetype;
            parentId[id] = edge.target();
        }
        return parentId[id];
    }

    /**
     * Records where member {@code i}'s parent lives (archetype and row; no archetype and row -1 when it is not
     * published) and returns the member index of that archetype when it is a member too, else -1.
     */
    private int findParent(int i) {
        long parent = parentOf(members[i]);
        Archetype owner = world.archetypeOf(parent);
        parentArchetype[i] = owner;
        if (owner == null) {
            parentRow[i] = -1;
            return -1;
        }
        parentRow[i] = world.rowOf(parent);
        int id = owner.id();
        return id < stamp.length && stamp[id] == gathers ? memberIndex[id] : -1;
    }
}
