package dev.jtecs.builtin.systems;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.builtin.ChildOf;
import dev.jtecs.builtin.Name;
import dev.jtecs.builtin.PreviousTransform2D;
import dev.jtecs.builtin.RelativeTransform2D;
import dev.jtecs.builtin.Transform2D;
import dev.jtecs.builtin.Transform3D;
import dev.jtecs.component.Component;
import dev.jtecs.component.Input;
import dev.jtecs.query.Query;
import dev.jtecs.query.QueryDescriptor;
import dev.jtecs.storage.Archetype;
import dev.jtecs.testing.Allocations;
import dev.jtecs.world.World;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class HierarchyOrderTest {
    private static final QueryDescriptor CHILDREN = QueryDescriptor.builder().include(ChildOf.ANY).build();
    private static final QueryDescriptor COMPOSED = QueryDescriptor.builder()
            .include(RelativeTransform2D.COMPONENT, ChildOf.ANY).build();

    // the first six: 64 combinations, filler archetypes and members alike
    private static final List<dev.jtecs.component.TagComponent> TAGS = List.of(
            dev.jtecs.component.Components.tag("test.HierarchyOrder.t0"),
            dev.jtecs.component.Components.tag("test.HierarchyOrder.t1"),
            dev.jtecs.component.Components.tag("test.HierarchyOrder.t2"),
            dev.jtecs.component.Components.tag("test.HierarchyOrder.t3"),
            dev.jtecs.component.Components.tag("test.HierarchyOrder.t4"),
            dev.jtecs.component.Components.tag("test.HierarchyOrder.t5"));

    /** {@code inputs} and the tags whose bits are set in {@code bits}: a distinct archetype per combination. */
    private static Input[] tagged(int bits, Input... inputs) {
        List<Input> all = new ArrayList<>(List.of(inputs));
        for (int bit = 0; bit < TAGS.size(); bit++) {
            if ((bits >> bit & 1) != 0) {
                all.add(TAGS.get(bit));
            }
        }
        return all.toArray(Input[]::new);
    }

    private static HierarchyOrder orderOf(World world, QueryDescriptor descriptor) {
        return new HierarchyOrder(world, world.newQuery(descriptor));
    }

    /** A child of a fresh root that has a transform and no parent (so it is no member). */
    private static long childOfANewRoot(World world) {
        long root = world.spawn(Transform2D.COMPONENT);
        return world.spawn(ChildOf.COMPONENT.to(root));
    }

    private static List<Archetype> steps(HierarchyOrder order) {
        List<Archetype> steps = new ArrayList<>();
        for (int k = 0; k < order.size(); k++) {
            steps.add(order.archetype(k));
        }
        return steps;
    }

    /** Each step as "entities of its rows <- parent entity" (0 for none), in step order. */
    private static List<String> runs(HierarchyOrder order) {
        List<String> runs = new ArrayList<>();
        for (int k = 0; k < order.size(); k++) {
            Archetype archetype = order.archetype(k);
            List<Long> rows = new ArrayList<>();
            for (int row = order.fromRow(k); row < order.fromRow(k) + order.rowCount(k); row++) {
                rows.add(archetype.entity(row));
            }
            Archetype parent = order.parentArchetype(k);
            runs.add(rows + " <- " + (parent == null ? 0 : parent.entity(order.parentRow(k))));
        }
        return runs;
    }


    private static List<Archetype> nonEmptyInQueryOrder(Query query) {
        List<Archetype> members = new ArrayList<>();
        for (Archetype archetype : query.archetypes()) {
            if (archetype.count() > 0) {
                members.add(archetype);
            }
        }
        return members;
    }

    @Test
    void ordersRowsBreadthFirstAndCutsStepsWhereTheParentOrTheArchetypeChanges() {
        try (World world = World.create()) {
            Query query = world.newQuery(CHILDREN);
            HierarchyOrder order = new HierarchyOrder(world, query);
            long root = world.spawn(Transform2D.COMPONENT);
            long a = world.spawn(ChildOf.COMPONENT.to(root));
            long b = world.spawn(ChildOf.COMPONENT.to(a));
            long c = world.spawn(ChildOf.COMPONENT.to(a), Name.COMPONENT.of("c")); // a sibling in another archetype
            long d = world.spawn(ChildOf.COMPONENT.to(b));
            Archetype shared = world.archetypeOf(a);
            assertSame(shared, world.archetypeOf(b)); // ChildOf is sparse: a, b and d share one archetype
            assertSame(shared, world.archetypeOf(d));
            assertEquals(List.of(shared, world.archetypeOf(c)), nonEmptyInQueryOrder(query));

            assertEquals(4, order.gather());
            assertEquals(List.of("[" + a + "] <- " + root, "[" + b + "] <- " + a, "[" + c + "] <- " + a,
                    "[" + d + "] <- " + b), runs(order), "a's children together, then the level below");
            assertSame(world.archetypeOf(root), order.parentArchetype(0));
            assertEquals(world.rowOf(root), order.parentRow(0));
            assertFalse(order.parentIsMember(0));
            for (int k = 1; k < 4; k++) {
                assertTrue(order.parentIsMember(k), "step " + k);
            }
            assertSame(shared, order.parentArchetype(3));
            assertEquals(world.rowOf(b), order.parentRow(3));
            assertEquals(world.rowOf(d), order.fromRow(3));
        }
    }

    @Test
    void siblingsSpawnedSideBySideAreOneStepAndTheStepsFollowTheRows() {
        try (World world = World.create()) {
            HierarchyOrder order = orderOf(world, CHILDREN);
            long r1 = world.spawn(Transform2D.COMPONENT);
            long r2 = world.spawn(Transform2D.COMPONENT);
            long[] a = world.batchSpawn(3, List.of(ChildOf.COMPONENT.to(r1))).toArray();
            long[] x = world.batchSpawn(2, List.of(ChildOf.COMPONENT.to(a[0]))).toArray();
            long b = world.spawn(ChildOf.COMPONENT.to(r2));

            assertEquals(3, order.gather());
            assertEquals(List.of(List.of(a[0], a[1], a[2]) + " <- " + r1, List.of(x[0], x[1]) + " <- " + a[0],
                    "[" + b + "] <- " + r2), runs(order), "the group of r1's children, below it, then r2's");
            for (int k = 0, row = 0; k < 3; row += order.rowCount(k), k++) {
                assertEquals(row, order.fromRow(k), "step " + k + " starts where the last one ended");
            }
        }
    }

    @Test
    void parentsComeBeforeChildrenWhateverOrderTheRowsWereMadeIn() {
        try (World world = World.create()) {
            HierarchyOrder order = orderOf(world, CHILDREN);
            long root = world.spawn(Transform2D.COMPONENT);
            long middle = world.spawn(Transform2D.COMPONENT);
            long leaf = world.spawn(Transform2D.COMPONENT, ChildOf.COMPONENT.to(middle)); // the leaf's row first...
            world.set(middle, ChildOf.COMPONENT.to(root));          // ...and its parent's after it
            assertSame(world.archetypeOf(leaf), world.archetypeOf(middle));
            assertTrue(world.rowOf(leaf) < world.rowOf(middle));

            order.gather();
            assertEquals(List.of("[" + middle + "] <- " + root, "[" + leaf + "] <- " + middle), runs(order));
        }
    }

    @Test
    void aCycleIsWalkedOnceAfterEveryRootsWalk() {
        try (World world = World.create()) {
            HierarchyOrder order = orderOf(world, CHILDREN);
            long p = world.spawn(Name.COMPONENT.of("p"));
            long q = world.spawn(ChildOf.COMPONENT.to(p));
            world.set(p, ChildOf.COMPONENT.to(q)); // p and q: a cycle, made before the tree below
            long root = world.spawn(Transform2D.COMPONENT);
            long x = world.spawn(ChildOf.COMPONENT.to(root));

            assertEquals(3, order.gather());
            assertEquals(List.of(world.archetypeOf(x), world.archetypeOf(q), world.archetypeOf(p)), steps(order),
                    "the root's walk, then the cycle from its first member in query order");
            assertTrue(order.parentIsMember(1));
            assertTrue(order.parentIsMember(2));
            assertSame(world.archetypeOf(p), order.parentArchetype(1));
            assertSame(world.archetypeOf(q), order.parentArchetype(2));
        }
    }

    @Test
    void aMemberWhoseParentIsNotMatchedStartsAWalk() {
        try (World world = World.create()) {
            HierarchyOrder order = orderOf(world, COMPOSED);
            long root = world.spawn(Transform2D.COMPONENT);
            long placed = world.spawn(ChildOf.COMPONENT.to(root), Transform2D.COMPONENT); // no offset: not matched
            long early = world.spawn(ChildOf.COMPONENT.to(root), RelativeTransform2D.COMPONENT);
            long leaf = world.spawn(ChildOf.COMPONENT.to(placed), RelativeTransform2D.COMPONENT);

            assertEquals(2, order.gather());
            assertEquals(List.of(world.archetypeOf(early), world.archetypeOf(leaf)), steps(order));
            assertSame(world.archetypeOf(placed), order.parentArchetype(1));
            assertEquals(world.rowOf(placed), order.parentRow(1));
            assertFalse(order.parentIsMember(1));
        }
    }

    @Test
    void aParentNotYetPublishedHasNoArchetypeAndItsChildStartsAWalk() {
        try (World world = World.create()) {
            HierarchyOrder order = orderOf(world, CHILDREN);
            List<String> seen = new ArrayList<>();
            world.newQuery(QueryDescriptor.builder().include(ChildOf.ANY).onEntitiesAdded((archetype, from, to) -> {
                order.gather(); // inside the publication: the child is placed, its parent not yet
                seen.add(order.size() + " " + order.parentArchetype(0) + " " + order.parentRow(0) + " "
                        + order.parentIsMember(0));
            }).build());
            world.defer();
            long child = world.spawn(RelativeTransform2D.COMPONENT);
            long parent = world.spawn(Transform2D.COMPONENT);
            world.set(child, ChildOf.COMPONENT.to(parent));
            world.commit();

            assertEquals(List.of("1 null -1 false"), seen);
            order.gather();
            assertSame(world.archetypeOf(parent), order.parentArchetype(0), "published now");
        }
    }

    @Test
    void rowCountsAreWhatTheQueryReported() {
        try (World world = World.create()) {
            HierarchyOrder order = orderOf(world, CHILDREN);
            long root = world.spawn(Transform2D.COMPONENT);
            long first = world.spawn(ChildOf.COMPONENT.to(root));
            world.spawn(ChildOf.COMPONENT.to(root));
            world.spawn(ChildOf.COMPONENT.to(root));
            world.spawn(ChildOf.COMPONENT.to(first));
            order.gather();
            assertEquals(3, order.rowCount(0));
            assertEquals(1, order.rowCount(1));
        }
    }

    @Test
    void emptyArchetypesAreNotSteps() {
        try (World world = World.create()) {
            HierarchyOrder order = orderOf(world, CHILDREN);
            long child = childOfANewRoot(world);
            assertEquals(1, order.gather());
            world.despawn(child);
            assertEquals(0, order.gather());
            assertThrows(IndexOutOfBoundsException.class, () -> order.archetype(0));
        }
    }

    /** Random forests, reparented so that parents come later and cycles form. Replay with -Djtecs.seed=... */
    @Test
    void randomForestsWithReparentingMatchARecursiveReference() {
        Long replay = Long.getLong("jtecs.seed");
        int unreachedSeen = 0;
        for (long seed : replay != null ? new long[] {replay} : new long[] {1, 2, 3, System.nanoTime()}) {
            System.out.println("HierarchyOrderTest.randomForestsWithReparentingMatchARecursiveReference seed=" + seed);
            unreachedSeen += randomForests(seed);
        }
        if (replay == null) {
            assertTrue(unreachedSeen > 0, "the fixed seeds make cycles");
        }
    }

    /** Five rounds of one seed; returns how many steps no root reached (on or below a cycle). */
    private static int randomForests(long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        List<Component<?>> extras = List.of(Name.COMPONENT, PreviousTransform2D.COMPONENT, Transform3D.COMPONENT);
        int unreached = 0;
        try (World world = World.create()) {
            Query query = world.newQuery(CHILDREN);
            HierarchyOrder order = new HierarchyOrder(world, query);
            for (int round = 0; round < 5; round++) {
                int n = 300;
                long[] ids = new long[n];
                for (int i = 0; i < n; i++) {
                    List<Input> inputs = new ArrayList<>();
                    for (Component<?> extra : extras) {
                        if (random.nextInt(3) == 0) {
                            inputs.add(extra);
                        }
                    }
                    if (i >= 10) {
                        inputs.add(ChildOf.COMPONENT.to(ids[random.nextInt(i)]));
                    }
                    inputs.add(Transform2D.COMPONENT);
                    ids[i] = world.spawn(inputs.toArray(Input[]::new));
                }
                for (int r = 0; r < 30; r++) { // later parents, cycles now and then
                    int node = random.nextInt(n);
                    int parent = random.nextInt(n);
                    if (node != parent) {
                        world.set(ids[node], ChildOf.COMPONENT.to(ids[parent]));
                    }
                }
                order.gather();
                assertEquals(reference(nonEmptyInQueryOrder(query)), rowsInOrder(order), "rows, round " + round
                        + ", seed " + seed);
                assertStepsAreMaximalRuns(order, seed);
                unreached += assertParentsFirstOutsideCycles(order, seed);
                for (int i = 0; i < n; i++) {
                    if (world.isAlive(ids[i])) { // despawning a parent took its subtree along
                        world.despawn(ids[i]);
                    }
                }
            }
        }
        return unreached;
    }

    /** The entities of every step's rows, in step order. */
    private static List<Long> rowsInOrder(HierarchyOrder order) {
        List<Long> rows = new ArrayList<>();
        for (int k = 0; k < order.size(); k++) {
            for (int row = order.fromRow(k); row < order.fromRow(k) + order.rowCount(k); row++) {
                rows.add(order.archetype(k).entity(row));
            }
        }
        return rows;
    }

    /**
     * The order by its definition, with lists: rows in member order; a start is a row whose parent is no row;
     * consecutive starts with one parent form a group, emitted with everything below it breadth first (children
     * in row order); then, from each row not yet emitted, the same.
     */
    private static List<Long> reference(List<Archetype> members) {
        List<Long> rows = new ArrayList<>();
        List<Long> parents = new ArrayList<>();
        for (Archetype member : members) {
            for (int row = 0; row < member.count(); row++) {
                rows.add(member.entity(row));
                parents.add(member.getFirstRelationship(ChildOf.COMPONENT, row).target());
            }
        }
        List<Long> out = new ArrayList<>();
        java.util.Set<Long> emitted = new java.util.HashSet<>();
        for (int i = 0; i < rows.size(); i++) {
            if (rows.contains(parents.get(i)) || emitted.contains(rows.get(i))) {
                continue;
            }
            java.util.ArrayDeque<Long> queue = new java.util.ArrayDeque<>();
            int j = i;
            do {
                emitted.add(rows.get(j));
                out.add(rows.get(j));
                queue.add(rows.get(j));
                j++;
            } while (j < rows.size() && !rows.contains(parents.get(j)) && parents.get(j).equals(parents.get(i)));
            breadthFirst(queue, rows, parents, emitted, out);
        }
        for (long row : rows) {
            if (emitted.add(row)) {
                out.add(row);
                breadthFirst(new java.util.ArrayDeque<>(List.of(row)), rows, parents, emitted, out);
            }
        }
        return out;
    }

    private static void breadthFirst(java.util.ArrayDeque<Long> queue, List<Long> rows, List<Long> parents,
            java.util.Set<Long> emitted, List<Long> out) {
        while (!queue.isEmpty()) {
            long parent = queue.poll();
            for (int i = 0; i < rows.size(); i++) {
                if (parents.get(i) == parent && emitted.add(rows.get(i))) {
                    out.add(rows.get(i));
                    queue.add(rows.get(i));
                }
            }
        }
    }

    /** Each step is a run of consecutive rows with one parent, and no two neighbouring steps could be one. */
    private static void assertStepsAreMaximalRuns(HierarchyOrder order, long seed) {
        for (int k = 0; k < order.size(); k++) {
            Archetype archetype = order.archetype(k);
            Archetype parent = order.parentArchetype(k);
            long parentId = parent == null ? 0 : parent.entity(order.parentRow(k));
            for (int row = order.fromRow(k); row < order.fromRow(k) + order.rowCount(k); row++) {
                long target = archetype.firstTarget(ChildOf.COMPONENT, row);
                assertTrue(target == parentId || parent == null, "step " + k + " row " + row + ", seed " + seed);
            }
            if (k > 0 && order.archetype(k - 1) == archetype
                    && order.fromRow(k - 1) + order.rowCount(k - 1) == order.fromRow(k)) {
                assertTrue(order.parentArchetype(k - 1) != parent || order.parentRow(k - 1) != order.parentRow(k),
                        "steps " + (k - 1) + " and " + k + " could be one, seed " + seed);
            }
        }
    }

    /**
     * Checks that every row a root reaches (following parents up ends outside the members) comes after its
     * parent's row, and returns how many rows no root reaches (following parents up loops).
     */
    private static int assertParentsFirstOutsideCycles(HierarchyOrder order, long seed) {
        java.util.Map<Long, Integer> position = new java.util.HashMap<>(); // entity -> place in the order
        List<Long> parentOf = new ArrayList<>();
        for (int k = 0; k < order.size(); k++) {
            Archetype parent = order.parentArchetype(k);
            for (int row = order.fromRow(k); row < order.fromRow(k) + order.rowCount(k); row++) {
                position.put(order.archetype(k).entity(row), parentOf.size());
                parentOf.add(parent == null ? 0 : parent.entity(order.parentRow(k)));
            }
        }
        int n = parentOf.size();
        int unreached = 0;
        for (int i = 0; i < n; i++) {
            int up = i;
            int hops = 0;
            while (position.containsKey(parentOf.get(up)) && hops <= n) {
                up = position.get(parentOf.get(up));
                hops++;
            }
            if (hops > n) {
                unreached++;
            } else if (position.containsKey(parentOf.get(i))) {
                assertTrue(position.get(parentOf.get(i)) < i, "row " + i + " comes before its parent's, seed " + seed);
            }
        }
        return unreached;
    }

    @Test
    void aWarmGatherAllocatesNothing() {
        try (World world = World.create()) {
            HierarchyOrder order = orderOf(world, COMPOSED);
            for (int tree = 0; tree < 50; tree++) {
                long root = world.spawn(Transform2D.COMPONENT);
                for (int i = 0; i < 3; i++) {
                    long child = world.spawn(ChildOf.COMPONENT.to(root), RelativeTransform2D.COMPONENT);
                    for (int j = 0; j < 3; j++) {
                        world.spawn(ChildOf.COMPONENT.to(child), RelativeTransform2D.COMPONENT);
                    }
                }
            }
            long bytes = Allocations.quietestWindow(order::gather, 2000, 1000, 5);
            assertEquals(300, order.size()); // per tree: 3 children apart (grandchildren between), 3 runs below
            assertEquals(0, bytes, "the quietest 1000 gathers over 600 rows allocated " + bytes + " bytes");
        }
    }

    @Test
    void aRefreshThatFindsTheOrderCurrentGivesBackTheScratchAndKeepsTheSteps() {
        try (World world = World.create()) {
            HierarchyOrder order = orderOf(world, CHILDREN);
            long r1 = world.spawn(Transform2D.COMPONENT);
            long r2 = world.spawn(Transform2D.COMPONENT);
            long a = world.spawn(ChildOf.COMPONENT.to(r1));
            long b = world.spawn(ChildOf.COMPONENT.to(a));
            assertEquals(0, order.scratchNodes(), "nothing held before the first gather");
            assertTrue(order.refresh());
            assertEquals(2, order.scratchNodes(), "sized to the rows");
            world.set(b, ChildOf.COMPONENT.to(r2));
            assertTrue(order.refresh());
            assertEquals(2, order.scratchNodes(), "a change in the next frame reuses the scratch");
            List<String> steps = runs(order);

            assertFalse(order.refresh());
            assertEquals(0, order.scratchNodes(), "current: the scratch goes back");
            assertEquals(steps, runs(order), "the steps stay");
            assertFalse(order.isStale());

            long c = world.spawn(ChildOf.COMPONENT.to(r2));
            assertTrue(order.refresh());
            assertEquals(3, order.scratchNodes(), "the next change allocates it again, sized to the rows");
            assertEquals(List.of("[" + a + "] <- " + r1, "[" + b + ", " + c + "] <- " + r2), runs(order));
            order.clear();
            assertEquals(0, order.scratchNodes(), "clear gives it back too");
        }
    }

    @Test
    void aCurrentRefreshTrimsStepArraysThatDoublingLeftMostlyUnused() {
        try (World world = World.create()) {
            HierarchyOrder order = orderOf(world, CHILDREN);
            List<Long> roots = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                roots.add(world.spawn(Transform2D.COMPONENT));
            }
            for (int i = 0; i < 10; i++) { // one row per root: a step each
                world.spawn(ChildOf.COMPONENT.to(roots.get(i)));
            }
            assertTrue(order.refresh());
            assertFalse(order.refresh());
            assertEquals(16, order.stepCapacity(), "6 unused of 16: kept");
            for (int i = 10; i < 33; i++) {
                world.spawn(ChildOf.COMPONENT.to(roots.get(i)));
            }
            assertTrue(order.refresh());
            assertEquals(33, order.size());
            assertEquals(64, order.stepCapacity(), "doubled from 16 to 32 to 64");
            List<String> steps = runs(order);
            assertFalse(order.refresh());
            assertEquals(33, order.stepCapacity(), "trimmed to the steps");
            assertEquals(steps, runs(order));
            assertFalse(order.refresh());
            assertEquals(33, order.stepCapacity());

            world.spawn(ChildOf.COMPONENT.to(roots.get(33)));
            assertTrue(order.refresh());
            assertEquals(66, order.stepCapacity(), "one more step doubles them again");
            assertFalse(order.refresh());
            assertEquals(34, order.stepCapacity(), "and the next still frame trims them again");
            assertEquals(34, order.size());
        }
    }

    @Test
    void clearEmptiesTheOrderAndTheNextGatherRebuildsIt() {
        try (World world = World.create()) {
            HierarchyOrder order = orderOf(world, CHILDREN);
            long a = childOfANewRoot(world);
            world.spawn(ChildOf.COMPONENT.to(a));
            order.gather();
            List<Archetype> before = steps(order);
            order.clear();
            assertEquals(0, order.size());
            assertThrows(IndexOutOfBoundsException.class, () -> order.parentArchetype(0));
            assertEquals(2, order.gather());
            assertEquals(before, steps(order));
        }
    }

    /** A gather over fewer archetypes, and {@link HierarchyOrder#clear}, keep no reference to the ones left. */
    @Test
    void aSmallerGatherAndClearHoldOnlyTheArchetypesTheyName() {
        try (World world = World.create()) {
            HierarchyOrder order = orderOf(world, CHILDREN);
            long root = world.spawn(Transform2D.COMPONENT);
            world.spawn(ChildOf.COMPONENT.to(root));
            long tagged = world.spawn(ChildOf.COMPONENT.to(root), TAGS.get(0));
            long named = world.spawn(ChildOf.COMPONENT.to(root), Name.COMPONENT.of("n"));
            order.gather();
            assertEquals(4, order.archetypeCount());
            assertEquals(4, order.heldArchetypes());
            world.despawn(tagged);
            world.despawn(named);
            order.gather();
            assertEquals(2, order.archetypeCount());
            assertEquals(2, order.heldArchetypes(), "the two archetypes no longer named are let go");
            // the roots' archetype now has the slot a member had: none of that member's rows is read for it
            assertSame(world.archetypeOf(root), order.archetypeAt(1));
            assertEquals(1, order.size());
            assertFalse(order.parentIsMember(0));
            assertFalse(order.hasCycle());
            assertFalse(order.isStale(), "no row of the roots' archetype was read as a member's");
            order.clear();
            assertEquals(0, order.heldArchetypes());
        }
    }

    /** A gather over fewer rows than the last reads nothing its scratch arrays still hold past the rows. */
    @Test
    void aSmallerGatherReadsNoneOfTheLastGathersLeftoverRows() {
        try (World world = World.create()) {
            HierarchyOrder order = orderOf(world, CHILDREN);
            long root = world.spawn(Transform2D.COMPONENT);
            long[] siblings = world.batchSpawn(3, List.of(ChildOf.COMPONENT.to(root))).toArray();
            assertEquals(1, order.gather());
            assertEquals(3, order.rowCount(0));
            world.despawn(siblings[2]);
            assertEquals(1, order.gather());
            assertEquals(2, order.rowCount(0), "two siblings, one step");
            assertEquals("HierarchyOrder of 1 steps over " + CHILDREN, order.toString());
        }
    }

    /**
     * A gather cut short by a failed growth, at any of its heap growths, is stale afterwards, and {@code clear}
     * then drops every archetype it had entered; the next gather orders every row.
     */
    @Test
    void aGatherCutShortByAFailedGrowthIsClearedWhole() {
        try (World world = World.create()) {
            long root = world.spawn(Transform2D.COMPONENT);
            int rows = 0;
            for (int m = 0; m < 20; m++) { // more members than the order's first arrays hold
                world.spawn(tagged(m, ChildOf.COMPONENT.to(root)));
                rows++;
            }
            int failed = 0;
            for (int k = 1; ; k++) {
                HierarchyOrder order = orderOf(world, CHILDREN); // a new one: the growths made earlier stay made
                dev.jtecs.testing.FaultAttempt.Outcome outcome = dev.jtecs.testing.FaultAttempt.run(
                        dev.jtecs.entity.internal.AllocationFaults.Kind.HEAP, k, order::gather);
                if (outcome == dev.jtecs.testing.FaultAttempt.Outcome.UNSPENT) {
                    break;
                }
                if (outcome == dev.jtecs.testing.FaultAttempt.Outcome.FAILED) {
                    failed++;
                    assertTrue(order.isStale(), "growth " + k);
                    order.clear();
                    assertEquals(0, order.heldArchetypes(), "growth " + k);
                }
                order.gather();
                int ordered = 0;
                for (int step = 0; step < order.size(); step++) {
                    ordered += order.rowCount(step);
                }
                assertEquals(rows, ordered, "growth " + k);
                assertEquals(21, order.heldArchetypes(), "growth " + k);
            }
            assertTrue(failed >= 3, "the growths of the archetypes, the nodes and the steps failed: " + failed);
        }
    }

    @Test
    void aQueryOfAnotherWorldIsRejectedAndNothingChanges() {
        try (World world = World.create(); World other = World.create()) {
            Query foreign = other.newQuery(CHILDREN);
            childOfANewRoot(other);
            long version = world.structureVersion();
            long otherVersion = other.structureVersion();
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> new HierarchyOrder(world, foreign));
            assertTrue(e.getMessage().contains("another world"), e.getMessage());
            assertEquals(version, world.structureVersion());
            assertEquals(otherVersion, other.structureVersion());
            assertEquals(1, new HierarchyOrder(other, foreign).gather(), "the query still serves its own world");
        }
    }

    @Test
    void aQueryThatDoesNotIncludeChildOfIsRejected() {
        try (World world = World.create()) {
            Query flat = world.newQuery(QueryDescriptor.builder().include(Transform2D.COMPONENT).build());
            world.spawn(Transform2D.COMPONENT);
            long version = world.structureVersion();
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> new HierarchyOrder(world, flat));
            assertTrue(e.getMessage().contains(flat.descriptor().toString()), e.getMessage());
            assertTrue(e.getMessage().contains("ChildOf"), e.getMessage());
            assertEquals(version, world.structureVersion());
            assertEquals(1, flat.count());
        }
    }

    @Test
    void staleAfterAReparentThatMovesNoRowAndAfterANewChildButNotAfterUnrelatedChurn() {
        try (World world = World.create()) {
            HierarchyOrder order = orderOf(world, CHILDREN);
            long r1 = world.spawn(Transform2D.COMPONENT);
            long r2 = world.spawn(Transform2D.COMPONENT);
            long child = world.spawn(ChildOf.COMPONENT.to(r1));
            assertTrue(order.isStale(), "never gathered");
            assertTrue(order.refresh());
            assertFalse(order.isStale());
            assertFalse(order.refresh(), "nothing changed: the steps are kept");

            world.spawn(Name.COMPONENT.of("elsewhere")); // no ChildOf, no parent's archetype
            assertFalse(order.isStale());

            int row = world.rowOf(child);
            world.set(child, ChildOf.COMPONENT.to(r2)); // the edge store changes, the row does not
            assertEquals(row, world.rowOf(child));
            assertTrue(order.isStale());
            assertTrue(order.refresh());
            assertEquals(List.of("[" + child + "] <- " + r2), runs(order));

            world.spawn(ChildOf.COMPONENT.to(r2));
            assertTrue(order.isStale(), "a new row in a member");
            order.refresh();
            assertEquals(2, order.rowCount(0));
            order.clear();
            assertTrue(order.isStale(), "cleared");
        }
    }

    @Test
    void staleWhenAParentsArchetypeThatIsNoMemberChangesShape() {
        try (World world = World.create()) {
            HierarchyOrder order = orderOf(world, COMPOSED);
            long root = world.spawn(Transform2D.COMPONENT);
            world.spawn(Transform2D.COMPONENT); // a second root: row 1 of the roots' archetype
            long child = world.spawn(ChildOf.COMPONENT.to(root), RelativeTransform2D.COMPONENT);
            order.refresh();
            assertSame(world.archetypeOf(root), order.parentArchetype(0));
            assertEquals(1, order.archetypeCount() - 1, "the roots' archetype is named after the member");
            assertSame(world.archetypeOf(root), order.archetypeAt(order.parentIndex(0)));
            assertSame(world.archetypeOf(child), order.archetypeAt(order.archetypeIndex(0)));

            world.despawn(world.spawn(Transform2D.COMPONENT)); // the roots' archetype changes: rows may move
            assertTrue(order.isStale());
            order.refresh();
            assertEquals(world.rowOf(root), order.parentRow(0));
        }
    }

    @Test
    void anUnpublishedParentKeepsTheOrderStale() {
        try (World world = World.create()) {
            HierarchyOrder order = orderOf(world, CHILDREN);
            List<Boolean> stale = new ArrayList<>();
            world.newQuery(QueryDescriptor.builder().include(ChildOf.ANY).onEntitiesAdded((archetype, from, to) -> {
                order.gather(); // the row is placed, its edge and its parent not yet
                stale.add(order.isStale());
            }).build());
            long parent = world.spawn(Transform2D.COMPONENT);
            world.spawn(ChildOf.COMPONENT.to(parent));
            assertEquals(List.of(true), stale);
            order.gather();
            assertFalse(order.isStale(), "published now");
        }
    }

    @Test
    void nullsAreRejectedByName() {
        try (World world = World.create()) {
            Query query = world.newQuery(CHILDREN);
            assertEquals("world", assertThrows(NullPointerException.class,
                    () -> new HierarchyOrder(null, query)).getMessage());
            assertEquals("query", assertThrows(NullPointerException.class,
                    () -> new HierarchyOrder(world, null)).getMessage());
        }
    }

    @Test
    void aGatherOnAClosedWorldThrowsAndKeepsTheLastSteps() {
        World world = World.create();
        HierarchyOrder order = orderOf(world, CHILDREN);
        long child = childOfANewRoot(world);
        world.spawn(ChildOf.COMPONENT.to(child)); // a second step, whose parent is a member row
        Archetype archetype = world.archetypeOf(child);
        order.gather();
        world.close();
        assertThrows(IllegalStateException.class, order::gather);
        assertEquals(2, order.size());
        assertSame(archetype, order.archetype(0));
        assertEquals(1, order.rowCount(0));
        assertFalse(order.parentIsMember(0));
        assertTrue(order.parentIsMember(1), "the members of the last gather are kept too");
        assertEquals(2, order.archetypeCount());
    }

    /**
     * Each step's archetype and parent archetype, read by index ({@link HierarchyOrder#archetypeIndex},
     * {@link HierarchyOrder#parentIndex}), are the ones read by step, over several members and parents that are
     * no members.
     */
    @Test
    void theIndexesOfAStepNameItsArchetypeAndItsParentsArchetype() {
        try (World world = World.create()) {
            HierarchyOrder order = orderOf(world, COMPOSED);
            long root = world.spawn(Transform2D.COMPONENT);
            long named = world.spawn(Transform2D.COMPONENT, Name.COMPONENT.of("root"));
            long a = world.spawn(ChildOf.COMPONENT.to(root), RelativeTransform2D.COMPONENT);
            long b = world.spawn(ChildOf.COMPONENT.to(named), RelativeTransform2D.COMPONENT,
                    Name.COMPONENT.of("b"));
            world.spawn(ChildOf.COMPONENT.to(b), RelativeTransform2D.COMPONENT);
            world.spawn(ChildOf.COMPONENT.to(a), RelativeTransform2D.COMPONENT, Name.COMPONENT.of("d"));
            order.gather();
            assertEquals(4, order.size());
            assertEquals(4, order.archetypeCount(), "two members, two archetypes of parents that are not");
            for (int k = 0; k < order.size(); k++) {
                assertSame(order.archetype(k), order.archetypeAt(order.archetypeIndex(k)), "step " + k);
                assertSame(order.parentArchetype(k), order.archetypeAt(order.parentIndex(k)), "step " + k);
                assertEquals(order.parentIndex(k) < 2, order.parentIsMember(k), "step " + k);
            }
            assertEquals(List.of(0, 1), List.of(order.archetypeIndex(0), order.archetypeIndex(1)));
        }
    }

    /**
     * More member archetypes than the order's arrays first hold (16), with archetype ids past its first id table
     * (16, doubled to 32), and parents in an archetype entered after all the members: every row is in one step
     * and every step names its parent's row.
     */
    @Test
    void moreArchetypesThanTheFirstArraysHoldAreAllOrdered() {
        for (int members : new int[] {16, 17, 33}) {
            try (World world = World.create()) {
                for (int i = 0; i < 40; i++) { // archetypes made first, so the members' ids are 40 and over
                    world.spawn(tagged(i, Transform2D.COMPONENT));
                }
                HierarchyOrder order = orderOf(world, CHILDREN);
                long root = world.spawn(RelativeTransform2D.COMPONENT); // no member: no ChildOf
                List<Long> children = new ArrayList<>();
                for (int m = 0; m < members; m++) {
                    long child = world.spawn(tagged(m, ChildOf.COMPONENT.to(root)));
                    assertTrue(world.archetypeOf(child).id() >= 40);
                    children.add(child);
                    children.add(world.spawn(ChildOf.COMPONENT.to(child)));
                }
                order.gather();
                // the grandchildren share the first child's archetype (ChildOf alone); the root's comes last
                assertEquals(members + 1, order.archetypeCount(), members + " members");
                int rows = 0;
                for (int k = 0; k < order.size(); k++) {
                    Archetype archetype = order.archetype(k);
                    assertSame(archetype, order.archetypeAt(order.archetypeIndex(k)));
                    for (int row = order.fromRow(k); row < order.fromRow(k) + order.rowCount(k); row++) {
                        long parent = archetype.firstTarget(ChildOf.COMPONENT, row);
                        assertEquals(parent, order.parentArchetype(k).entity(order.parentRow(k)));
                        rows++;
                    }
                }
                assertEquals(children.size(), rows);
            }
        }
    }

    @Test
    void aStepOutOfRangeIsRejected() {
        try (World world = World.create()) {
            HierarchyOrder order = orderOf(world, CHILDREN);
            long child = childOfANewRoot(world);
            order.gather();
            assertSame(world.archetypeOf(child), order.archetype(0));
            IndexOutOfBoundsException e = assertThrows(IndexOutOfBoundsException.class, () -> order.parentRow(1));
            assertTrue(e.getMessage().contains("1") && e.getMessage().contains("length 1"), e.getMessage());
            assertThrows(IndexOutOfBoundsException.class, () -> order.rowCount(-1));
        }
    }
}
