package dev.jtecs.bench.jmh;

import dev.jtecs.component.Relationship;
import dev.jtecs.relation.AncestorVisitor;
import dev.jtecs.relation.TraversalVisitor;
import dev.jtecs.world.World;
import dev.jtecs.world.WorldConfig;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * {@code hierarchy_traverse} and {@code hierarchy_walk_up}: a {@code ChildOf} forest shaped like the
 * {@code transforms} workload, N entities in complete trees of {@value #LEVELS} levels (a root, then
 * {@value #FAN_OUT} children per inner node: {@value #TREE_SIZE} entities per tree, N / {@value #TREE_SIZE} trees,
 * 27 of every 40 entities leaves). Time is per operation.
 *
 * <ul>
 *   <li>{@code ...Traverse}: one operation = visiting every entity of every tree depth first, children in
 *       ascending order: each root, then its descendants ({@code world.traverse(root, ChildOf.COMPONENT, ...)}),
 *       counting visits and summing each entity's depth below its root. ns per entity = time / N.
 *   <li>{@code ...WalkUp}: one operation = walking from every leaf up to its root
 *       ({@code world.walkUp(leaf, ChildOf.COMPONENT, ...)}, 3 ancestors per leaf), counting ancestors and summing
 *       their distance from the leaf. ns per leaf = time / (27 N / 40).
 * </ul>
 *
 * <p>The forest is built once per trial and never changes. Only jtecs methods build a world
 * ({@link EngineUnderTest}). With {@code storage=sparse} (the built-in {@code ChildOf}) every child sits in one
 * archetype and the edges live in the world's edge store; with {@code storage=dense} (a dense, exclusive,
 * reverse-indexed, cascading twin, what {@code ChildOf} was before issue 21) each (relationship, parent) pair is its
 * own archetype component, so the world holds one archetype per inner node (13 of every 40 entities) besides the
 * roots' empty archetype.
 *
 * <p>Baseline ({@code plain...}): the same forest as plain {@code int} arrays ({@link Forest}: parent indices, and
 * the children of each node as a consecutive index range), the same depth-first order with an explicit stack, and
 * the walk up as a chase of parent indices. It knows it holds a forest, so it keeps no visited set, whereas
 * {@code traverse} guards against cycles and repeated visits, and {@code walkUp} against cycles and a depth limit.
 * Dominion, Artemis-odb and Ashley have no built-in hierarchy (no parent relation, reverse index or traversal),
 * so no peer runs here; code of our own on top of them would measure that code, not the peers.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector",
    "--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow"})
@State(Scope.Thread)
public class HierarchyTraversalBenchmark {
    static final int FAN_OUT = Forest.TRANSFORMS_FAN_OUT;
    static final int LEVELS = Forest.TRANSFORMS_LEVELS;
    static final int TREE_SIZE = Forest.TRANSFORMS_TREE_SIZE;

    @Param({"10000", "100000"})
    public int entities;

    /** {@code sparse}: the built-in {@code ChildOf}; {@code dense}: its dense twin ({@link Forest#DENSE_CHILD_OF}). */
    @Param({"dense", "sparse"})
    public String storage = "sparse";

    Relationship parentOf;

    Forest forest;
    private int[] plainRoots;
    private int[] plainLeaves;
    private int[] stack;

    World world;
    long[] roots;
    private long[] leaves;
    private final DescendantTally descendants = new DescendantTally();
    private final AncestorTally ancestors = new AncestorTally();

    /** Visits made by the last operation (the methods return the depth sum). */
    long visits;

    @Setup(Level.Trial)
    public void setUp(BenchmarkParams params) {
        setUp(EngineUnderTest.of(params));
    }

    /** Builds the forest, and the world when {@code selected} measures jtecs ({@link EngineUnderTest}). */
    void setUp(String selected) {
        forest = Forest.transformsShaped(entities);
        plainRoots = forest.roots();
        plainLeaves = forest.leaves();
        stack = new int[entities];
        if (EngineUnderTest.needs(selected, "jtecs")) {
            world = World.create(WorldConfig.defaults().maxEntities(entities + 1));
            parentOf = Forest.parentOf(storage);
            long[] ids = forest.spawnInto(world, parentOf);
            roots = select(ids, plainRoots);
            leaves = select(ids, plainLeaves);
        }
    }

    private static long[] select(long[] ids, int[] indexes) {
        long[] out = new long[indexes.length];
        for (int i = 0; i < indexes.length; i++) {
            out[i] = ids[indexes[i]];
        }
        return out;
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        if (world != null) {
            world.close();
        }
    }

    @Benchmark
    public long jtecsTraverse() {
        DescendantTally t = descendants;
        t.reset();
        for (long root : roots) {
            t.visit(root, -1); // traverse leaves the root out and puts its children at depth 0
            world.traverse(root, parentOf, t);
        }
        visits = t.visits;
        return t.depthSum;
    }

    @Benchmark
    public long plainTraverse() {
        int[] firstChild = forest.firstChild;
        int[] childCount = forest.childCount;
        int[] depth = forest.depth;
        int[] stack = this.stack;
        long count = 0;
        long depthSum = 0;
        for (int root : plainRoots) {
            int top = 0;
            stack[top++] = root;
            while (top > 0) {
                int node = stack[--top];
                count++;
                depthSum += depth[node];
                for (int c = firstChild[node] + childCount[node] - 1; c >= firstChild[node]; c--) {
                    stack[top++] = c; // pushed last to first, so the first child is visited first
                }
            }
        }
        visits = count;
        return depthSum;
    }

    @Benchmark
    public long jtecsWalkUp() {
        AncestorTally t = ancestors;
        t.reset();
        for (long leaf : leaves) {
            world.walkUp(leaf, parentOf, t);
        }
        visits = t.visits;
        return t.depthSum;
    }

    @Benchmark
    public long plainWalkUp() {
        int[] parent = forest.parent;
        long count = 0;
        long depthSum = 0;
        for (int leaf : plainLeaves) {
            int distance = 0;
            for (int node = parent[leaf]; node >= 0; node = parent[node]) {
                distance++;
                count++;
                depthSum += distance;
            }
        }
        visits = count;
        return depthSum;
    }

    /** Counts and sums what one operation reports. One instance per benchmark: no lambda allocated per call. */
    abstract static class Tally {
        long visits;
        long depthSum;

        void reset() {
            visits = 0;
            depthSum = 0;
        }
    }

    /** Sums each entity's depth below its root: {@code traverse}'s depth + 1. */
    static final class DescendantTally extends Tally implements TraversalVisitor {
        @Override
        public void visit(long entity, int depth) {
            visits++;
            depthSum += depth + 1;
        }
    }

    /** Sums each ancestor's distance above the leaf: {@code walkUp}'s depth. */
    static final class AncestorTally extends Tally implements AncestorVisitor {
        @Override
        public boolean visit(long ancestor, int depth) {
            visits++;
            depthSum += depth;
            return true;
        }
    }
}
