package dev.jtecs.builtin.systems;

import dev.jtecs.builtin.ChildOf;
import dev.jtecs.component.Component;
import dev.jtecs.entity.internal.Growth;
import dev.jtecs.query.Query;
import dev.jtecs.query.QueryVisitor;
import dev.jtecs.storage.Archetype;
import dev.jtecs.world.World;
import java.util.Arrays;
import java.util.Objects;

/**
 * The parents-first order of the rows a hierarchy query matches: a list of steps, each a run of consecutive rows
 * of one matched archetype (a member) that share one parent, such that a row comes after the step holding its
 * parent. It is the one walk behind {@link BuiltinSystems#RELATIVE_TRANSFORMS} and its kernel form.
 *
 * <p>Model. Each row of a member is a node; its parent is the target of its {@link ChildOf} edge (sparse: read
 * row by row from the edge store, so rows of one archetype may have different parents). {@link #gather()} reads the
 * world as it is and rebuilds the steps:
 *
 * <pre>
 *   query.forEach ──► members, in query order, with their row counts; nodes numbered member by member
 *   each node ──► its parent (firstTarget, looked up once per run of rows with the same parent)
 *             ──► world.archetypeOf / rowOf ──► parent archetype and row, parent node or none
 *   starts  =  nodes whose parent is no node; consecutive starts with the same parent form a group
 *   order   =  for each group, in node order: the group, then breadth first below it, each node's children
 *              together in node order; then from each node not yet reached (on a ChildOf cycle), in node order
 *   steps   =  the order cut into runs: same member, consecutive rows, same parent
 * </pre>
 *
 * Breadth first within a group keeps a parent's children together, and when rows were spawned parents first with
 * siblings side by side (as batch spawns place them), the steps follow the rows in storage order.
 *
 * <p>Invariants, after every {@code gather}:
 *
 * <ul>
 *   <li>Every row of every non-empty member is in exactly one step; the steps' row counts add up to the rows the
 *       query reported.
 *   <li>A step whose {@link #parentIsMember parent is a member} comes after the step holding that parent's row,
 *       unless no start reaches it: rows on a {@code ChildOf} cycle (which nothing forbids) and those below one
 *       are ordered after every group, each walk starting from the first of them in node order not yet reached.
 *   <li>The order is deterministic: it depends on the query order of the members and on their rows only.
 *   <li>A parent that is not published (no archetype, {@link #parentArchetype} is {@code null}), or a row whose
 *       edge is not in the store yet, makes its row a start with no parent.
 * </ul>
 *
 * <p>Currency. {@link #isStale()} tells whether the steps may no longer describe the world: the members all hold
 * {@code ChildOf}, so {@code world.structureVersion(ChildOf.COMPONENT)}, which also advances at every change to
 * {@code ChildOf}'s edges, covers them; archetypes holding parents without being members are watched one by one
 * (their structural count and storage version); an unpublished parent keeps the order stale, since its
 * publication may change nothing watched. {@link #refresh()} gathers only then.
 *
 * <p>Serves one world and one query, both fixed at construction, and is not thread-safe.
 *
 * @implNote Nothing is allocated in steady state: the step and archetype arrays are kept between gathers and
 *     grow (doubling) only when the steps (the archetypes) outnumber them; the node arrays, a gather's scratch,
 *     are kept from one gather to the next and given back by a {@link #refresh()} that finds the order current,
 *     so a gather allocates them (sized to the rows) only when the hierarchy changes after holding still. A
 *     gather costs a visit of the query, one edge read per row, two lookups of the world per run of rows with
 *     the same parent, and linear passes over the nodes.
 */
public final class HierarchyOrder {
    private final World world;
    private final Query query;
    private final QueryVisitor collector = this::collect;

    // The archetypes the steps name: members [0, memberCount) in query order, then parents' archetypes that are
    // not members [memberCount, archetypeCount).
    private Archetype[] archetypes = new Archetype[16];
    private int[] rowCount = new int[16];     // members: rows reported by the query
    private int[] firstNode = new int[17];    // members: node of row 0; firstNode[memberCount] = nodes
    private long[] watchStructural = new long[16];
    private long[] watchStorage = new long[16];
    private int memberCount;
    private int archetypeCount;
    private int held; // archetype slots that may still hold references: [0, held)

    // Per archetype id: stamp == gathers when the archetype is in archetypes[], at index slotOf.
    private long[] stamp = new long[16];
    private int[] slotOf = new int[16];
    private long gathers;

    // Per node: the parent's archetype index (-1: none) and row, the parent node (-1: none), member, order. The
    // scratch of a gather, sized by the nodes; given back when a refresh finds the order current (see refresh).
    private static final int[] NO_INTS = new int[0];
    private static final boolean[] NO_FLAGS = new boolean[0];
    private int[] parentSlot = NO_INTS;
    private int[] parentRow = NO_INTS;
    private int[] parentNode = NO_INTS;
    private int[] nodeMember = NO_INTS;
    private int[] childStart = NO_INTS;
    private int[] childList = NO_INTS;
    private boolean[] reached = NO_FLAGS;
    private int[] order = NO_INTS;
    private int nodes;
    private boolean cyclic;

    // The steps.
    private int[] stepSlot = new int[16];
    private int[] stepFrom = new int[16];
    private int[] stepCount = new int[16];
    private int[] stepParentSlot = new int[16];
    private int[] stepParentRow = new int[16];
    private int steps;

    // Currency.
    private boolean gathered;
    private boolean parentUnpublished;
    private long childOfVersion;

    /**
     * An empty order over {@code query}'s archetypes in {@code world}.
     *
     * @throws IllegalArgumentException when {@code query} belongs to another world, or does not include
     *     {@link ChildOf#ANY}, which guarantees each member row a parent
     * @throws IllegalStateException when {@code world} is closed or owned by another thread
     */
    public HierarchyOrder(World world, Query query) {
        Objects.requireNonNull(world, "world");
        Objects.requireNonNull(query, "query");
        world.requireOwnQuery(query);
        if (!includesChildOf(query)) {
            throw new IllegalArgumentException("query " + query.descriptor() + " does not include " + ChildOf.ANY
                    + ": a hierarchy order needs the parent of every row it matches (world " + world + ")");
        }
        this.world = world;
        this.query = query;
    }

    private static boolean includesChildOf(Query query) {
        for (Component<?> term : query.descriptor().include()) {
            if (term == ChildOf.ANY) {
                return true;
            }
        }
        return false;
    }

    /**
     * Rebuilds the steps from the world as it is now: visits the query (one scope of the world), reads each row's
     * parent and orders the rows. Drops the references of an earlier, larger gather.
     *
     * @return the number of steps, {@link #size()}
     * @throws IllegalStateException when the world is closed or owned by another thread; the steps of the last
     *     gather are kept
     */
    public int gather() {
        world.requireOwnQuery(query); // checks the world before anything here changes
        gathered = false; // until this gather completes: one cut short (a failed growth) leaves the order stale
        gathers++;
        memberCount = 0;
        nodes = 0;
        query.forEach(collector);
        archetypeCount = memberCount;
        firstNode[memberCount] = nodes;
        parentUnpublished = false;
        steps = 0;
        if (nodes > 0) {
            ensureNodes(nodes);
            linkParents();
            linkChildren();
            orderNodes();
            cutSteps();
        }
        if (held > archetypeCount) {
            Arrays.fill(archetypes, archetypeCount, held, null);
        }
        held = archetypeCount;
        gathered = true;
        childOfVersion = world.structureVersion(ChildOf.COMPONENT);
        return steps;
    }

    /**
     * Whether the steps may no longer describe the world (see the class comment): never gathered, cleared, a
     * parent unpublished at the gather, a change to a member archetype or to {@code ChildOf}'s edges, or a change
     * to the shape of an archetype holding a parent.
     */
    public boolean isStale() {
        if (!gathered || parentUnpublished || world.structureVersion(ChildOf.COMPONENT) != childOfVersion) {
            return true;
        }
        for (int a = memberCount; a < archetypeCount; a++) {
            Archetype archetype = archetypes[a];
            if (archetype.structuralCount() != watchStructural[a] || archetype.storageVersion() != watchStorage[a]) {
                return true;
            }
        }
        return false;
    }

    /**
     * Gathers when {@link #isStale()}, again until the world's structure holds still across the gather (its
     * scope may publish what callbacks staged); otherwise keeps the steps and gives back the gather's scratch
     * (about 29 bytes per row). A hierarchy that changes every frame so keeps its scratch and allocates nothing;
     * one that holds still for a frame keeps only its steps, and its next change allocates the scratch once,
     * sized to the rows. The first refresh that finds the order current after a gather also trims the step
     * arrays to the steps when doubling left more than an eighth of them unused: the one allocation a current
     * refresh may make (should it fail, the arrays stay as they were and the error propagates).
     *
     * @return whether the steps were rebuilt
     */
    public boolean refresh() {
        if (!isStale()) {
            releaseScratch();
            return false;
        }
        long version;
        do {
            version = world.structureVersion();
            gather();
        } while (world.structureVersion() != version);
        return true;
    }

    /**
     * Whether the last gather found rows on a {@code ChildOf} cycle (or below one). A composition in this order
     * then reads, on the cycle, values it wrote itself the last time, so composing again can change them even
     * when nothing else changed.
     */
    public boolean hasCycle() {
        return cyclic;
    }

    /** The number of steps: runs of rows with one parent, over the rows matched at the last gather. */
    public int size() {
        return steps;
    }

    /** The archetype whose rows {@code step} composes. */
    public Archetype archetype(int step) {
        return archetypes[stepSlot[Objects.checkIndex(step, steps)]];
    }

    /** The first row of {@code step} in its archetype. */
    public int fromRow(int step) {
        return stepFrom[Objects.checkIndex(step, steps)];
    }

    /** The number of rows of {@code step}: rows {@code [fromRow, fromRow + rowCount)} of its archetype. */
    public int rowCount(int step) {
        return stepCount[Objects.checkIndex(step, steps)];
    }

    /**
     * The archetype holding the parent of every row of {@code step}, or {@code null} when that parent is not
     * published (staged, dead or stale) at the gather.
     */
    public Archetype parentArchetype(int step) {
        int slot = stepParentSlot[Objects.checkIndex(step, steps)];
        return slot < 0 ? null : archetypes[slot];
    }

    /** The parent's row in {@link #parentArchetype}, or -1 when there is no parent archetype. */
    public int parentRow(int step) {
        return stepParentRow[Objects.checkIndex(step, steps)];
    }

    /** Whether {@code step}'s parent archetype is itself a member (its parent row is in some step). */
    public boolean parentIsMember(int step) {
        int slot = stepParentSlot[Objects.checkIndex(step, steps)];
        return slot >= 0 && slot < memberCount;
    }

    /**
     * The number of distinct archetypes the steps name: the members, then the archetypes that hold parents and
     * are not members. Indexes {@code [0, archetypeCount())} are stable until the next gather, so a caller can
     * keep per-archetype state (column views) by index.
     */
    public int archetypeCount() {
        return archetypeCount;
    }

    /** The archetype at {@code index}, {@code 0 <= index < archetypeCount()}. */
    public Archetype archetypeAt(int index) {
        return archetypes[Objects.checkIndex(index, archetypeCount)];
    }

    /** The index ({@link #archetypeAt}) of {@code step}'s archetype. */
    public int archetypeIndex(int step) {
        return stepSlot[Objects.checkIndex(step, steps)];
    }

    /** The index ({@link #archetypeAt}) of {@code step}'s parent archetype, or -1 when it has none. */
    public int parentIndex(int step) {
        return stepParentSlot[Objects.checkIndex(step, steps)];
    }

    /**
     * Empties the order, gives back the gather's scratch and drops its references to the gathered archetypes, so
     * that a caller that copied what it needs holds the archetypes alone. The next {@link #refresh()} gathers.
     */
    public void clear() {
        dropNodes();
        Arrays.fill(archetypes, 0, held, null);
        held = 0;
        memberCount = 0;
        archetypeCount = 0;
        nodes = 0;
        steps = 0;
        gathered = false;
    }

    /** The archetype references the order holds (tests: a smaller gather and {@link #clear} drop the rest). */
    int heldArchetypes() {
        int held = 0;
        for (Archetype archetype : archetypes) {
            held += archetype != null ? 1 : 0;
        }
        return held;
    }

    @Override
    public String toString() {
        return "HierarchyOrder of " + steps + " steps over " + query.descriptor();
    }

    private void collect(Archetype archetype, int count) {
        if (memberCount == archetypes.length) {
            growArchetypes(memberCount * 2);
        }
        int slot = memberCount++;
        enter(archetype, slot);
        rowCount[slot] = count;
        firstNode[slot] = nodes;
        nodes += count;
    }

    /** Puts {@code archetype} at {@code slot} and notes its slot by id, for this gather. */
    private void enter(Archetype archetype, int slot) {
        int id = archetype.id();
        if (id >= stamp.length) {
            int n = Math.max(id + 1, stamp.length * 2);
            var grownStamp = Growth.copyOf(stamp, n); // both first, then assign: a failed growth changes nothing
            var grownSlotOf = Growth.copyOf(slotOf, n);
            stamp = grownStamp;
            slotOf = grownSlotOf;
        }
        archetypes[slot] = archetype;
        stamp[id] = gathers;
        slotOf[id] = slot;
        held = Math.max(held, slot + 1);
    }

    /** The slot of {@code archetype} in this gather, entered as a watched non-member when it is new. */
    private int slotFor(Archetype archetype) {
        int id = archetype.id();
        if (id < stamp.length && stamp[id] == gathers) {
            return slotOf[id];
        }
        if (archetypeCount == archetypes.length) {
            growArchetypes(archetypeCount * 2);
        }
        int slot = archetypeCount++;
        enter(archetype, slot);
        watchStructural[slot] = archetype.structuralCount();
        watchStorage[slot] = archetype.storageVersion();
        return slot;
    }

    private void growArchetypes(int n) {
        // every array first, then assign: a failed growth leaves them all as they were, in step
        var grownArchetypes = Growth.copyOf(archetypes, n);
        var grownRowCount = Growth.copyOf(rowCount, n);
        var grownFirstNode = Growth.copyOf(firstNode, n + 1);
        var grownStructural = Growth.copyOf(watchStructural, n);
        var grownStorage = Growth.copyOf(watchStorage, n);
        archetypes = grownArchetypes;
        rowCount = grownRowCount;
        firstNode = grownFirstNode;
        watchStructural = grownStructural;
        watchStorage = grownStorage;
    }

    private void ensureNodes(int n) {
        if (n <= parentSlot.length) {
            return;
        }
        int size = Math.max(n, parentSlot.length * 2);
        // every array first, then assign: a failed growth leaves them all as they were, in step
        var grownParentSlot = Growth.copyOf(parentSlot, size);
        var grownParentRow = Growth.copyOf(parentRow, size);
        var grownParentNode = Growth.copyOf(parentNode, size);
        var grownNodeMember = Growth.copyOf(nodeMember, size);
        var grownChildStart = Growth.copyOf(childStart, size + 1);
        var grownChildList = Growth.copyOf(childList, size);
        var grownReached = Growth.copyOf(reached, size);
        var grownOrder = Growth.copyOf(order, size);
        parentSlot = grownParentSlot;
        parentRow = grownParentRow;
        parentNode = grownParentNode;
        nodeMember = grownNodeMember;
        childStart = grownChildStart;
        childList = grownChildList;
        reached = grownReached;
        order = grownOrder;
    }

    /**
     * Room for {@code n} steps. The step arrays grow with the steps, not the nodes: a forest whose siblings sit
     * side by side has about one step per parent (a third of the nodes in the transforms forest), and these five
     * arrays are what a frame reads, kept for as long as the order.
     */
    private void ensureSteps(int n) {
        if (n <= stepSlot.length) {
            return;
        }
        resizeSteps(Math.max(n, stepSlot.length * 2));
    }

    /** Copies the five step arrays to {@code size}: every array first, then assigned, so a failure changes none. */
    private void resizeSteps(int size) {
        var resizedStepSlot = Growth.copyOf(stepSlot, size);
        var resizedStepFrom = Growth.copyOf(stepFrom, size);
        var resizedStepCount = Growth.copyOf(stepCount, size);
        var resizedStepParentSlot = Growth.copyOf(stepParentSlot, size);
        var resizedStepParentRow = Growth.copyOf(stepParentRow, size);
        stepSlot = resizedStepSlot;
        stepFrom = resizedStepFrom;
        stepCount = resizedStepCount;
        stepParentSlot = resizedStepParentSlot;
        stepParentRow = resizedStepParentRow;
    }

    /** Reads each node's parent: archetype slot and row, and the parent node when the parent is a member row. */
    private void linkParents() {
        for (int m = 0; m < memberCount; m++) {
            Archetype member = archetypes[m];
            int base = firstNode[m];
            long lastParent = 0;
            int lastSlot = -1;
            int lastRow = -1;
            for (int row = 0; row < rowCount[m]; row++) {
                int node = base + row;
                nodeMember[node] = m;
                long parent = member.firstTarget(ChildOf.COMPONENT, row);
                if (parent != lastParent || row == 0) { // siblings side by side share one lookup
                    lastParent = parent;
                    Archetype owner = parent == 0 ? null : world.archetypeOf(parent);
                    lastSlot = owner == null ? -1 : slotFor(owner);
                    lastRow = owner == null ? -1 : world.rowOf(parent);
                    parentUnpublished |= owner == null;
                }
                parentSlot[node] = lastSlot;
                parentRow[node] = lastRow;
                parentNode[node] = lastSlot >= 0 && lastSlot < memberCount && lastRow < rowCount[lastSlot]
                        ? firstNode[lastSlot] + lastRow : -1;
            }
        }
    }

    /**
     * Drops the node arrays of the last gather, which the steps do not need, and trims the step arrays to the
     * steps when growing them by doubling left more than an eighth of them unused (a copy, once per still frame
     * after a change); a failed trim keeps the arrays as they were.
     */
    private void releaseScratch() {
        if (stepSlot.length - steps > Math.max(16, steps / 8)) {
            resizeSteps(Math.max(16, steps));
        }
        dropNodes();
    }

    private void dropNodes() {
        parentSlot = NO_INTS;
        parentRow = NO_INTS;
        parentNode = NO_INTS;
        nodeMember = NO_INTS;
        childStart = NO_INTS;
        childList = NO_INTS;
        reached = NO_FLAGS;
        order = NO_INTS;
    }

    /** The rows the gather's scratch has room for (0 once given back); read by tests. */
    int scratchNodes() {
        return parentSlot.length;
    }

    /** The steps the step arrays have room for; read by tests. */
    int stepCapacity() {
        return stepSlot.length;
    }

    /** Lists the children of each node, in node order (a counting sort by parent node). */
    private void linkChildren() {
        int n = nodes;
        Arrays.fill(childStart, 0, n + 1, 0);
        for (int i = 0; i < n; i++) {
            int p = parentNode[i];
            if (p >= 0) {
                childStart[p + 1]++;
            }
        }
        for (int i = 0; i < n; i++) {
            childStart[i + 1] += childStart[i]; // now the start of each list
        }
        for (int i = 0; i < n; i++) {
            int p = parentNode[i];
            if (p >= 0) {
                childList[childStart[p]++] = i; // advances each start to its list's end
            }
        }
        System.arraycopy(childStart, 0, childStart, 1, n); // ends back to starts, one slot on
        childStart[0] = 0;
    }

    /** Fills {@code order} with every node, parents first (see the class comment). */
    private void orderNodes() {
        int n = nodes;
        Arrays.fill(reached, 0, n, false);
        int tail = 0;
        for (int i = 0; i < n; i++) {
            if (parentNode[i] >= 0 || reached[i]) {
                continue;
            }
            int head = tail;
            order[tail++] = i;
            reached[i] = true;
            while (i + 1 < n && parentNode[i + 1] < 0 && parentSlot[i + 1] == parentSlot[i]
                    && parentRow[i + 1] == parentRow[i]) { // the rest of the group: the same parent
                order[tail++] = ++i;
                reached[i] = true;
            }
            tail = below(head, tail);
        }
        cyclic = false;
        for (int i = 0; i < n; i++) {
            if (!reached[i]) { // on a cycle, or below one: no start reaches it
                cyclic = true;
                reached[i] = true;
                order[tail] = i;
                tail = below(tail, tail + 1);
            }
        }
    }

    /** Appends, breadth first, every node not yet reached below {@code order[head, tail)}; returns the new tail. */
    private int below(int head, int tail) {
        while (head < tail) {
            int parent = order[head++];
            for (int k = childStart[parent]; k < childStart[parent + 1]; k++) {
                int child = childList[k];
                if (!reached[child]) {
                    reached[child] = true;
                    order[tail++] = child;
                }
            }
        }
        return tail;
    }

    /** Cuts {@code order} into steps: runs of consecutive rows of one member with one parent. */
    private void cutSteps() {
        int s = -1;
        for (int k = 0; k < nodes; k++) {
            int node = order[k];
            int m = nodeMember[node];
            int row = node - firstNode[m];
            if (s >= 0 && stepSlot[s] == m && stepFrom[s] + stepCount[s] == row
                    && stepParentSlot[s] == parentSlot[node] && stepParentRow[s] == parentRow[node]) {
                stepCount[s]++;
                continue;
            }
            s++;
            ensureSteps(s + 1);
            stepSlot[s] = m;
            stepFrom[s] = row;
            stepCount[s] = 1;
            stepParentSlot[s] = parentSlot[node];
            stepParentRow[s] = parentRow[node];
        }
        steps = s + 1;
    }
}
