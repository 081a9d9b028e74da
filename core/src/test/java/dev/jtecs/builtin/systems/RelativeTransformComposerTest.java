package dev.jtecs.builtin.systems;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.builtin.ChildOf;
import dev.jtecs.builtin.Name;
import dev.jtecs.builtin.RelativeTransform2D;
import dev.jtecs.builtin.Transform2D;
import dev.jtecs.schedule.Phases;
import dev.jtecs.schedule.SystemConfig;
import dev.jtecs.testing.Allocations;
import dev.jtecs.query.QueryDescriptor;
import dev.jtecs.world.World;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import dev.jtecs.builtin.PreviousTransform2D;
import dev.jtecs.builtin.Transform3D;
import dev.jtecs.component.Component;
import dev.jtecs.component.Input;
import dev.jtecs.entity.internal.AllocationFaults;
import org.junit.jupiter.api.Test;

class RelativeTransformComposerTest {
    private static final Transform2D ROOT = new Transform2D(100, 50, 1, 3, 0.5f, 2, 3);
    private static final RelativeTransform2D ARM = new RelativeTransform2D(10, 0, 0.5f, 0.25f, 0.5f, 2, 0, 0);
    private static final RelativeTransform2D HAND = new RelativeTransform2D(4, -2, 0.25f, -1, 3, 0.5f, 0.5f, 1);
    private static final RelativeTransform2D FINGER = new RelativeTransform2D(1, 1, 0, 0.75f, 1, 1, 0, 0);

    private static long spawnChild(World world, long parent, RelativeTransform2D offset) {
        return world.spawn(ChildOf.COMPONENT.to(parent), RelativeTransform2D.COMPONENT.of(offset));
    }

    @Test
    void threeLevelsComposeWithRotationAndScaleBitForBit() {
        try (World world = World.create()) {
            long root = world.spawn(Transform2D.COMPONENT.of(ROOT));
            long arm = spawnChild(world, root, ARM);
            long hand = spawnChild(world, arm, HAND);
            long finger = spawnChild(world, hand, FINGER);
            world.update(0);
            Transform2D armWorld = ROOT.compose(ARM);
            Transform2D handWorld = armWorld.compose(HAND);
            assertEquals(armWorld, world.get(arm, Transform2D.COMPONENT));
            assertEquals(handWorld, world.get(hand, Transform2D.COMPONENT));
            assertEquals(handWorld.compose(FINGER), world.get(finger, Transform2D.COMPONENT));
            assertEquals(3, world.get(finger, Transform2D.COMPONENT).layer());
            assertEquals(ROOT, world.get(root, Transform2D.COMPONENT), "roots are not written");
        }
    }

    @Test
    void childrenFollowTheirParentsInTheSameFrame() {
        try (World world = World.create()) {
            long root = world.spawn(Transform2D.COMPONENT.of(Transform2D.at(0, 0)));
            long child = spawnChild(world, root, RelativeTransform2D.offset(1, 0));
            long grandchild = spawnChild(world, child, RelativeTransform2D.offset(1, 0));
            world.addSystem(SystemConfig.named("move").phase(Phases.UPDATE).run((dt, w) -> {
                Transform2D t = w.get(root, Transform2D.COMPONENT);
                w.set(root, Transform2D.COMPONENT.of(Transform2D.at(t.x() + 10, 0)));
            }));
            world.update(0);
            assertEquals(Transform2D.at(12, 0), world.get(grandchild, Transform2D.COMPONENT));
            world.update(0);
            assertEquals(Transform2D.at(22, 0), world.get(grandchild, Transform2D.COMPONENT));
        }
    }

    @Test
    void parentsComeFirstWhateverOrderTheRowsWereMadeIn() {
        try (World world = World.create()) {
            long root = world.spawn(Transform2D.COMPONENT.of(ROOT));
            long middle = world.spawn(Transform2D.COMPONENT, RelativeTransform2D.COMPONENT.of(ARM));
            long leaf = spawnChild(world, middle, HAND);   // the leaf takes a row of the composed archetype...
            world.set(middle, ChildOf.COMPONENT.to(root)); // ...and its parent the next one
            assertSame(world.archetypeOf(leaf), world.archetypeOf(middle));
            assertTrue(world.rowOf(leaf) < world.rowOf(middle));
            world.update(0);
            assertEquals(ROOT.compose(ARM).compose(HAND), world.get(leaf, Transform2D.COMPONENT));
        }
    }

    @Test
    void aParentWithoutATransformCountsAsTheIdentity() {
        try (World world = World.create()) {
            long group = world.spawn(Name.COMPONENT.of("group"));
            long member = spawnChild(world, group, HAND);
            world.update(0);
            assertEquals(Transform2D.IDENTITY.compose(HAND), world.get(member, Transform2D.COMPONENT));
        }
    }

    @Test
    void aParentWithAChildOfButNoOffsetKeepsItsOwnTransform() {
        try (World world = World.create()) {
            long root = world.spawn(Transform2D.COMPONENT.of(ROOT));
            long placed = world.spawn(ChildOf.COMPONENT.to(root), Transform2D.COMPONENT.of(Transform2D.at(7, 7)));
            long child = spawnChild(world, placed, FINGER);
            world.update(0);
            assertEquals(Transform2D.at(7, 7), world.get(placed, Transform2D.COMPONENT));
            assertEquals(Transform2D.at(7, 7).compose(FINGER), world.get(child, Transform2D.COMPONENT));
        }
    }

    @Test
    void aStillHierarchyLeavesTransformsClean() {
        try (World world = World.create()) {
            long root = world.spawn(Transform2D.COMPONENT.of(ROOT));
            long child = spawnChild(world, root, ARM);
            List<Boolean> dirty = new ArrayList<>();
            world.addSystem(SystemConfig.named("probe").phase(Phases.LAST).run((dt, w) ->
                    dirty.add(w.archetypeOf(child).isComponentDirty(Transform2D.COMPONENT))));
            world.update(0); // placed and composed
            world.update(0); // nothing moved
            world.set(root, Transform2D.COMPONENT.of(Transform2D.at(1, 1)));
            world.update(0);
            assertEquals(List.of(true, false, true), dirty);
        }
    }

    /**
     * The compare that decides the mark looks at every field on its own, in a run of steps and in a lone step: a
     * frame that rewrites a parent with the same value composes and stays clean, and a frame that changes one field
     * of one child's pose (its offset's, or its parent's layer) marks the archetype. The parents are unrotated, so
     * each offset field moves exactly one field of the child's transform.
     */
    @Test
    void theMarkFollowsAChangeOfAnySingleFieldInARunAndInALoneStep() {
        for (int parents : new int[] {3, 1}) { // three parents' children compose as one run; one parent's as a step
            try (World world = World.create()) {
                Transform2D pose = new Transform2D(5, 6, 1, 2, 0, 2, 3);
                long[] roots = new long[parents];
                long last = 0;
                for (int p = 0; p < parents; p++) {
                    roots[p] = world.spawn(Transform2D.COMPONENT.of(pose));
                    for (int c = 0; c < 4; c++) {
                        last = spawnChild(world, roots[p], ARM);
                    }
                }
                long child = last; // in the last step: the steps before it compare clean first
                List<Boolean> dirty = new ArrayList<>();
                world.addSystem(SystemConfig.named("probe").phase(Phases.LAST).run((dt, w) ->
                        dirty.add(w.archetypeOf(child).isComponentDirty(Transform2D.COMPONENT))));
                world.update(0);
                RelativeTransform2D a = ARM;
                List<RelativeTransform2D> offsets = List.of(
                        new RelativeTransform2D(a.x() + 1, a.y(), a.z(), a.rotation(), a.scaleX(), a.scaleY(), 0, 0),
                        new RelativeTransform2D(a.x(), a.y() + 1, a.z(), a.rotation(), a.scaleX(), a.scaleY(), 0, 0),
                        new RelativeTransform2D(a.x(), a.y(), a.z() + 1, a.rotation(), a.scaleX(), a.scaleY(), 0, 0),
                        new RelativeTransform2D(a.x(), a.y(), a.z(), a.rotation() + 1, a.scaleX(), a.scaleY(), 0, 0),
                        new RelativeTransform2D(a.x(), a.y(), a.z(), a.rotation(), a.scaleX() + 1, a.scaleY(), 0, 0),
                        new RelativeTransform2D(a.x(), a.y(), a.z(), a.rotation(), a.scaleX(), a.scaleY() + 1, 0, 0));
                for (RelativeTransform2D offset : offsets) {
                    world.set(roots[0], Transform2D.COMPONENT.of(pose)); // the same pose: composed, nothing moves
                    world.update(0);
                    world.set(child, RelativeTransform2D.COMPONENT.of(offset));
                    world.update(0);
                    world.set(child, RelativeTransform2D.COMPONENT.of(ARM));
                    world.update(0);
                }
                world.set(roots[parents - 1], Transform2D.COMPONENT.of(
                        new Transform2D(5, 6, 1, 7, 0, 2, 3))); // the layer alone
                world.update(0);
                List<Boolean> expected = new ArrayList<>(List.of(true));
                for (int i = 0; i < offsets.size(); i++) {
                    expected.addAll(List.of(false, true, true));
                }
                expected.add(true);
                assertEquals(expected, dirty, parents + " parents");
                assertEquals(new Transform2D(5, 6, 1, 7, 0, 2, 3).compose(ARM),
                        world.get(child, Transform2D.COMPONENT));
            }
        }
    }

    /** A frame after one write to each of the two components of one archetype composes: both counters count. */
    @Test
    void aWriteToEachComponentOfOneArchetypeInOneFrameIsComposed() {
        try (World world = World.create()) {
            long root = world.spawn(Transform2D.COMPONENT.of(ROOT));
            long child = spawnChild(world, root, ARM);
            world.update(0);
            world.set(child, Transform2D.COMPONENT.of(Transform2D.at(-1, -1))); // overwritten by the composition
            world.set(child, RelativeTransform2D.COMPONENT.of(HAND));
            world.update(0);
            assertEquals(ROOT.compose(HAND), world.get(child, Transform2D.COMPONENT));
        }
    }

    @Test
    void aCycleEndsTheRunWithoutThrowing() {
        try (World world = World.create()) {
            long a = world.spawn(Transform2D.COMPONENT, RelativeTransform2D.COMPONENT.of(ARM));
            long b = spawnChild(world, a, HAND);
            world.set(a, ChildOf.COMPONENT.to(b));
            long c = spawnChild(world, b, FINGER);
            world.update(0);
            world.update(0);
            assertTrue(world.isAlive(c));
        }
    }

    @Test
    void theDisabledSystemLeavesTransformsAlone() {
        try (World world = World.create()) {
            long root = world.spawn(Transform2D.COMPONENT.of(ROOT));
            long child = spawnChild(world, root, ARM);
            world.setSystemEnabled(BuiltinSystems.RELATIVE_TRANSFORMS, false);
            world.update(0);
            assertEquals(Transform2D.IDENTITY, world.get(child, Transform2D.COMPONENT));
            world.setSystemEnabled(BuiltinSystems.RELATIVE_TRANSFORMS, true);
            world.update(0);
            assertEquals(ROOT.compose(ARM), world.get(child, Transform2D.COMPONENT));
        }
    }

    @Test
    void randomForestsMatchAValueByValueReference() {
        long seed = new SplittableRandom().nextLong();
        System.out.println("RelativeTransformComposerTest seed " + seed);
        SplittableRandom random = new SplittableRandom(seed);
        try (World world = World.create()) {
            int n = 2000;
            long[] ids = new long[n];
            int[] parent = new int[n];
            Transform2D[] expected = new Transform2D[n];
            RelativeTransform2D[] offsets = new RelativeTransform2D[n];
            for (int i = 0; i < n; i++) {
                parent[i] = i < 20 ? -1 : random.nextInt(i); // parents first: any earlier node
                if (parent[i] < 0) {
                    expected[i] = new Transform2D(f(random, 100), f(random, 100), f(random, 1), random.nextInt(4),
                            f(random, 4), 1 + f(random, 0.5f), 1 + f(random, 0.5f));
                    ids[i] = world.spawn(Transform2D.COMPONENT.of(expected[i]));
                } else {
                    offsets[i] = new RelativeTransform2D(f(random, 10), f(random, 10), f(random, 1), f(random, 2),
                            1 + f(random, 0.2f), 1 + f(random, 0.2f), 0, 0);
                    ids[i] = spawnChild(world, ids[parent[i]], offsets[i]);
                    expected[i] = expected[parent[i]].compose(offsets[i]);
                }
            }
            world.update(0);
            for (int i = 0; i < n; i++) {
                assertEquals(expected[i], world.get(ids[i], Transform2D.COMPONENT), "node " + i + ", seed " + seed);
            }
        }
    }

    /**
     * Levels spawned breadth first with a few children per parent lie in consecutive rows, so the composer takes
     * many steps as one run ({@link RelativeTransformComposer#RUN_ROWS} rows at most): runs cut at the limit, at a
     * parent among the run's own rows (each child of a level's first node sits right after the level), and a step
     * longer than a run, all bit for bit what {@link Transform2D#compose} gives, parents first.
     */
    @Test
    void breadthFirstLevelsComposedInRunsMatchComposeBitForBit() {
        long seed = new SplittableRandom().nextLong();
        System.out.println("RelativeTransformComposerTest runs seed " + seed);
        composeLevels(new int[] {RelativeTransformComposer.RUN_ROWS * 2 + 7, 3, 1, 2}, seed); // wide levels
        composeLevels(new int[] {3, 3, 3, 2}, seed); // levels smaller than a run: parents inside it
    }

    /** A tree of the given fan-out per level, spawned level by level, composed twice (the root moved between). */
    private static void composeLevels(int[] fanOut, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        try (World world = World.create()) {
            List<Long> ids = new ArrayList<>();
            List<Transform2D> expected = new ArrayList<>();
            List<Integer> parents = new ArrayList<>();
            List<RelativeTransform2D> all = new ArrayList<>();
            parents.add(-1);
            all.add(null);
            Transform2D rootPose = new Transform2D(3, -4, 1, 2, 0.75f, 1.5f, 0.5f);
            ids.add(world.spawn(Transform2D.COMPONENT.of(rootPose)));
            expected.add(rootPose);
            int levelFrom = 0;
            int levelTo = 1;
            for (int children : fanOut) {
                for (int p = levelFrom; p < levelTo; p++) {
                    int count = children == 1 ? 1 + random.nextInt(3) : children;
                    RelativeTransform2D[] offsets = new RelativeTransform2D[count];
                    for (int i = 0; i < count; i++) {
                        offsets[i] = new RelativeTransform2D(f(random, 10), f(random, 10), f(random, 1),
                                f(random, 3), 1 + f(random, 0.2f), 1 + f(random, 0.2f), 0, 0);
                        expected.add(expected.get(p).compose(offsets[i]));
                        parents.add(p);
                        all.add(offsets[i]);
                    }
                    long parent = ids.get(p);
                    long[] batch = world.batchSpawn(count, List.of(ChildOf.COMPONENT.to(parent),
                            RelativeTransform2D.COMPONENT), (archetype, fromRow, toRow) -> {
                                for (int row = fromRow; row < toRow; row++) {
                                    archetype.set(row, RelativeTransform2D.COMPONENT.of(offsets[row - fromRow]));
                                }
                            }).toArray();
                    for (long id : batch) {
                        ids.add(id);
                    }
                }
                levelFrom = levelTo;
                levelTo = ids.size();
            }
            world.update(0);
            for (int i = 0; i < ids.size(); i++) {
                assertEquals(expected.get(i), world.get(ids.get(i), Transform2D.COMPONENT), "node " + i + ", seed "
                        + seed);
            }
            world.set(ids.get(0), Transform2D.COMPONENT.of(Transform2D.at(-7, 8))); // the root moves: all again
            world.update(0);
            expected.set(0, Transform2D.at(-7, 8));
            for (int i = 1; i < ids.size(); i++) { // parents come before their children in this list
                expected.set(i, expected.get(parents.get(i)).compose(all.get(i)));
                assertEquals(expected.get(i), world.get(ids.get(i), Transform2D.COMPONENT), "moved, node " + i
                        + ", seed " + seed);
            }
        }
    }

    private static final dev.jtecs.component.TagComponent MARKED =
            dev.jtecs.component.Components.tag("test.RelativeTransformComposer.marked");
    private static final dev.jtecs.component.TagComponent OTHER =
            dev.jtecs.component.Components.tag("test.RelativeTransformComposer.other");

    /**
     * A step of one archetype ends at the row where the next step, of another archetype, begins: the two are not
     * one run. Four archetypes in the order, exactly what the composer's per-archetype arrays first hold.
     */
    @Test
    void stepsOfTwoArchetypesThatMeetAtARowBoundaryAreComposedApart() {
        try (World world = World.create()) {
            long root = world.spawn(Transform2D.COMPONENT.of(ROOT));
            Transform2D otherPose = Transform2D.at(5, 6);
            long otherRoot = world.spawn(Transform2D.COMPONENT.of(otherPose), Name.COMPONENT.of("other"));
            long first = spawnChild(world, otherRoot, FINGER); // A row 0
            List<Long> arms = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                arms.add(spawnChild(world, root, ARM)); // A rows 1..3
            }
            List<Long> late = new ArrayList<>(); // B rows 0..3: below hands[0] once reparented (no row moves)
            for (int i = 0; i < 4; i++) {
                late.add(world.spawn(ChildOf.COMPONENT.to(root), RelativeTransform2D.COMPONENT.of(FINGER), MARKED));
            }
            List<Long> hands = new ArrayList<>(); // B rows 4..6
            for (int i = 0; i < 3; i++) {
                hands.add(world.spawn(ChildOf.COMPONENT.to(root), RelativeTransform2D.COMPONENT.of(HAND), MARKED));
            }
            for (long id : late) {
                world.set(id, ChildOf.COMPONENT.to(hands.get(0)));
            }
            HierarchyOrder order = new HierarchyOrder(world, world.newQuery(QueryDescriptor.builder()
                    .include(Transform2D.COMPONENT, RelativeTransform2D.COMPONENT, ChildOf.ANY).build()));
            order.gather();
            assertEquals(4, order.archetypeCount());
            int boundary = -1; // the step of A that ends at row 4, right before B's step from row 4
            for (int k = 0; k + 1 < order.size(); k++) {
                if (order.fromRow(k) + order.rowCount(k) == 4 && order.fromRow(k + 1) == 4
                        && order.archetype(k) != order.archetype(k + 1)) {
                    boundary = k;
                }
            }
            assertTrue(boundary >= 0, "the layout this test is about");

            world.update(0);
            assertEquals(otherPose.compose(FINGER), world.get(first, Transform2D.COMPONENT));
            for (long arm : arms) {
                assertEquals(ROOT.compose(ARM), world.get(arm, Transform2D.COMPONENT));
            }
            for (long hand : hands) {
                assertEquals(ROOT.compose(HAND), world.get(hand, Transform2D.COMPONENT));
            }
            for (long id : late) {
                assertEquals(ROOT.compose(HAND).compose(FINGER), world.get(id, Transform2D.COMPONENT));
            }
        }
    }

    /** A short step right before one longer than a run: the two are not one run (its arrays hold RUN_ROWS). */
    @Test
    void aShortStepBeforeAStepLongerThanARunIsComposedAlone() {
        try (World world = World.create()) {
            long left = world.spawn(Transform2D.COMPONENT.of(ROOT));
            long right = world.spawn(Transform2D.COMPONENT.of(Transform2D.at(-3, 9)));
            long[] few = world.batchSpawn(3, List.of(ChildOf.COMPONENT.to(left), RelativeTransform2D.COMPONENT.of(ARM)))
                    .toArray();
            int many = RelativeTransformComposer.RUN_ROWS + 100;
            long[] rest = world.batchSpawn(many, List.of(ChildOf.COMPONENT.to(right),
                    RelativeTransform2D.COMPONENT.of(HAND))).toArray();
            assertEquals(3, world.rowOf(rest[0]), "the long step starts where the short one ends");
            world.update(0);
            for (long id : few) {
                assertEquals(ROOT.compose(ARM), world.get(id, Transform2D.COMPONENT));
            }
            for (long id : rest) {
                assertEquals(Transform2D.at(-3, 9).compose(HAND), world.get(id, Transform2D.COMPONENT));
            }
        }
    }

    /** A gather after the members' columns grew (moved) takes the new columns' views, not the old ones. */
    @Test
    void aGatherAfterTheColumnsGrewComposesThroughTheNewViews() {
        RelativeTransformComposer body = new RelativeTransformComposer();
        try (World world = withBody(body)) {
            long root = world.spawn(Transform2D.COMPONENT.of(ROOT));
            long arm = spawnChild(world, root, ARM);
            world.update(0);
            long[] more = world.batchSpawn(5000, List.of(ChildOf.COMPONENT.to(arm),
                    RelativeTransform2D.COMPONENT.of(HAND))).toArray();
            world.set(root, Transform2D.COMPONENT.of(Transform2D.at(1, 2)));
            world.update(0);
            assertEquals(2, body.composedFrames);
            assertEquals(Transform2D.at(1, 2).compose(ARM), world.get(arm, Transform2D.COMPONENT));
            for (long id : more) {
                assertEquals(Transform2D.at(1, 2).compose(ARM).compose(HAND), world.get(id, Transform2D.COMPONENT));
            }
        }
    }

    /** A gather over fewer archetypes than the last one drops the views of the archetypes it no longer names. */
    @Test
    void aSmallerGatherDropsTheViewsOfArchetypesItNoLongerNames() {
        RelativeTransformComposer body = new RelativeTransformComposer();
        try (World world = withBody(body)) {
            long root = world.spawn(Transform2D.COMPONENT.of(ROOT)); // the roots' archetype: 7 views
            long kept = spawnChild(world, root, ARM); // three member archetypes: 13 views each
            long marked = world.spawn(ChildOf.COMPONENT.to(root), RelativeTransform2D.COMPONENT.of(HAND), MARKED);
            long other = world.spawn(ChildOf.COMPONENT.to(root), RelativeTransform2D.COMPONENT.of(HAND), OTHER);
            world.update(0);
            assertEquals(3 * 13 + 7, body.heldViews());
            world.despawn(marked);
            world.despawn(other);
            world.update(0);
            assertEquals(13 + 7, body.heldViews(), "only the member and the roots' archetype are viewed");
            assertEquals(ROOT.compose(ARM), world.get(kept, Transform2D.COMPONENT));
        }
    }

    @Test
    void aReparentThatMovesNoRowIsComposedUnderTheNewParentNextFrame() {
        try (World world = World.create()) {
            long left = world.spawn(Transform2D.COMPONENT.of(Transform2D.at(-100, 0)));
            long right = world.spawn(Transform2D.COMPONENT.of(ROOT));
            long child = spawnChild(world, left, ARM);
            world.update(0);
            assertEquals(Transform2D.at(-100, 0).compose(ARM), world.get(child, Transform2D.COMPONENT));
            int row = world.rowOf(child);

            world.set(child, ChildOf.COMPONENT.to(right)); // the edge store changes; the row stays
            assertEquals(row, world.rowOf(child));
            world.update(0);
            assertEquals(ROOT.compose(ARM), world.get(child, Transform2D.COMPONENT), "the cached order was dropped");
        }
    }

    /** Every heap growth one run reaches fails once in turn; the next run composes right all the same. */
    @Test
    void aRunCutShortByAFailedGrowthLeavesTheNextRunRight() {
        List<List<Component<?>>> extras = List.of(List.of(), List.of(Name.COMPONENT),
                List.of(PreviousTransform2D.COMPONENT), List.of(Transform3D.COMPONENT),
                List.of(Name.COMPONENT, PreviousTransform2D.COMPONENT), List.of(Name.COMPONENT, Transform3D.COMPONENT));
        int failures = 0;
        for (int k = 1; ; k++) {
            try (World world = World.create()) {
                long[] children = new long[extras.size()];
                for (int i = 0; i < extras.size(); i++) { // roots in six archetypes: more views than at first
                    List<Input> inputs = new ArrayList<>(extras.get(i));
                    inputs.add(Transform2D.COMPONENT.of(Transform2D.at(i, 0)));
                    long root = world.spawn(inputs.toArray(Input[]::new));
                    children[i] = spawnChild(world, root, ARM);
                }
                RelativeTransformComposer composer = new RelativeTransformComposer();
                boolean failed = false;
                AllocationFaults.failAt(AllocationFaults.Kind.HEAP, k);
                try {
                    composer.run(0, world);
                } catch (OutOfMemoryError e) {
                    failed = true;
                } finally {
                    AllocationFaults.disarm();
                }
                composer.run(0, world);
                for (int i = 0; i < children.length; i++) {
                    assertEquals(Transform2D.at(i, 0).compose(ARM), world.get(children[i], Transform2D.COMPONENT),
                            "child " + i + " after growth " + k + " failed");
                }
                if (!failed) {
                    break;
                }
                failures++;
            }
        }
        assertTrue(failures >= 2, "the order's growths and the views' were reached: " + failures);
    }

    @Test
    void aSteadyFrameAllocatesNothing() {
        try (World world = World.create()) {
            for (int tree = 0; tree < 50; tree++) {
                long root = world.spawn(Transform2D.COMPONENT.of(ROOT));
                for (int i = 0; i < 3; i++) {
                    long child = spawnChild(world, root, ARM);
                    for (int j = 0; j < 3; j++) {
                        spawnChild(world, child, HAND);
                    }
                }
            }
            long bytes = Allocations.quietestWindow(() -> world.update(1 / 60.0), 2000, 1000, 5);
            assertTrue(bytes < 1024, "the quietest 1000 frames over 600 composed rows allocated " + bytes + " bytes");
            assertFalse(world.listSystems().isEmpty());
        }
    }

    private static float f(SplittableRandom random, float range) {
        return (float) random.nextDouble(-range, range);
    }

    /** A world whose composition runs through {@code body} (the builtin one removed), so its counter is readable. */
    private static World withBody(RelativeTransformComposer body) {
        World world = World.create();
        world.removeSystem(BuiltinSystems.RELATIVE_TRANSFORMS);
        world.addSystem(SystemConfig.named("test.compose").phase(Phases.POST_UPDATE).run(body));
        return world;
    }

    @Test
    void aFrameInWhichNoInputChangedIsSkippedAndEveryKindOfChangeComposesAgain() {
        RelativeTransformComposer body = new RelativeTransformComposer();
        try (World world = withBody(body)) {
            long root = world.spawn(Transform2D.COMPONENT.of(ROOT));
            long arm = spawnChild(world, root, ARM);
            long hand = spawnChild(world, arm, HAND);
            world.update(0);
            assertEquals(1, body.composedFrames);
            world.update(0);
            world.update(0);
            assertEquals(1, body.composedFrames, "a still hierarchy is sampled, not composed");
            assertEquals(ROOT.compose(ARM).compose(HAND), world.get(hand, Transform2D.COMPONENT));

            world.set(root, Transform2D.COMPONENT.of(Transform2D.at(5, 6))); // a parent moved (between frames)
            world.update(0);
            assertEquals(2, body.composedFrames);
            assertEquals(Transform2D.at(5, 6).compose(ARM).compose(HAND), world.get(hand, Transform2D.COMPONENT));

            world.set(arm, RelativeTransform2D.COMPONENT.of(FINGER)); // an offset changed
            world.update(0);
            assertEquals(3, body.composedFrames);
            assertEquals(Transform2D.at(5, 6).compose(FINGER).compose(HAND), world.get(hand, Transform2D.COMPONENT));

            world.set(hand, Transform2D.COMPONENT.of(Transform2D.at(-1, -1))); // a composed value overwritten
            world.update(0);
            assertEquals(4, body.composedFrames);
            assertEquals(Transform2D.at(5, 6).compose(FINGER).compose(HAND), world.get(hand, Transform2D.COMPONENT),
                    "composition puts the composed value back");

            world.archetypeOf(root).getMut(Transform2D.X); // a marked write through a view, with the dirty bits
            world.clearDirty();                             // cleared before the next frame: the counter stays
            world.update(0);
            assertEquals(5, body.composedFrames);

            long other = world.spawn(Transform2D.COMPONENT.of(Transform2D.at(100, 0)));
            world.set(hand, ChildOf.COMPONENT.to(other)); // reparented: an edge change
            world.update(0);
            assertEquals(6, body.composedFrames);
            assertEquals(Transform2D.at(100, 0).compose(HAND), world.get(hand, Transform2D.COMPONENT));
            world.update(0);
            assertEquals(6, body.composedFrames, "still again");
        }
    }

    @Test
    void aSkippedFrameMarksNothingDirty() {
        RelativeTransformComposer body = new RelativeTransformComposer();
        try (World world = withBody(body)) {
            long root = world.spawn(Transform2D.COMPONENT.of(ROOT));
            long arm = spawnChild(world, root, ARM);
            List<Boolean> dirty = new ArrayList<>();
            world.addSystem(SystemConfig.named("test.watch").phase(Phases.LAST).run((dt, w) ->
                    dirty.add(w.archetypeOf(arm).isComponentDirty(Transform2D.COMPONENT))));
            world.update(0);
            world.update(0);
            assertEquals(List.of(true, false), dirty);
        }
    }

    @Test
    void aHierarchyWithACycleIsComposedEveryFrame() {
        RelativeTransformComposer body = new RelativeTransformComposer();
        try (World world = withBody(body)) {
            long a = world.spawn(Transform2D.COMPONENT, RelativeTransform2D.COMPONENT.of(ARM));
            long b = world.spawn(ChildOf.COMPONENT.to(a), RelativeTransform2D.COMPONENT.of(HAND));
            world.set(a, ChildOf.COMPONENT.to(b));
            world.update(0);
            Transform2D first = world.get(b, Transform2D.COMPONENT);
            world.update(0);
            assertEquals(2, body.composedFrames, "on a cycle, each composition reads the last one's values");
            assertFalse(first.equals(world.get(b, Transform2D.COMPONENT)));
        }
    }
}
