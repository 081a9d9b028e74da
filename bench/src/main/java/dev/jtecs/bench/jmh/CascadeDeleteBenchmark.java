package dev.jtecs.bench.jmh;

import dev.jtecs.world.World;
import dev.jtecs.world.WorldConfig;
import java.util.Arrays;
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
 * {@code cascade_delete}: one {@code ChildOf} tree of exactly N entities (the first N, breadth first, of a complete
 * tree of {@code fanOut} children per node), deleted from its root. One operation = {@code world.despawn(root)} at
 * scope depth 0, which despawns the whole subtree through {@code ChildOf} in the same commit; time is per
 * operation (ns per entity = time / N). With {@code storage=sparse} (the built-in {@code ChildOf}) the children
 * share one archetype and the cascade follows the edge store's reverse index. With {@code storage=dense} (a dense,
 * exclusive, reverse-indexed, cascading twin, what {@code ChildOf} was before issue 21) each (relationship, parent)
 * pair is its own archetype component, so the tree spans one archetype per inner node, about N / {@code fanOut}:
 * the fan-out sets how many entities each archetype of the cascade holds.
 *
 * <p>Before each operation, untimed ({@code Level.Invocation}), the tree is rebuilt once the last operation
 * deleted it, with the root from {@code spawn()} and the children of each parent from one {@code batchSpawn}
 * holding {@code ChildOf.COMPONENT.to(parent)}, then a full collection, so the garbage of the building (and of a
 * closed world) is not collected during the timed despawn (on a loaded machine such collections, 70 ms each, made
 * the means of a 10,000-entity cascade swing from 1.6 to 60 ms). The world holds only the tree; only jtecs methods
 * build one ({@link EngineUnderTest}).
 *
 * <p>With {@code storage=sparse} the same world is refilled, as the baseline reuses its arrays: the next tree takes
 * the slots the last one had, nothing in the world grows from one operation to the next (the test checks both), and
 * the despawn frees the slots in an order that keeps each tree laid out as in a new world, its slots ascending down
 * the levels (turned by one place each time: the root's slot, freed first, goes to the tree's last entity). In a new
 * world each operation, the despawn also grew that world's arrays to the tree's size for the first time, which a world
 * pays once: sparse, fan-out 32, 100,000 entities, one fork each, 1,124 &plusmn; 61 &micro;s in a new world against
 * 786 &plusmn; 44 refilled (at 10,000 the two measured the same). With {@code storage=dense} each operation has a new
 * world, the old one closed: the world keeps the pair component of every (relationship, target) it has met, dead
 * targets included ({@code compact()} prunes their archetypes, not the pairs), so a refilled world would grow by N /
 * {@code fanOut} pairs per operation and each operation would run in a larger world than the last.
 *
 * <p>The forks run with a fixed heap ({@code -Xms1g -Xmx1g}). With the default, growable heap every full collection
 * of the rebuild shrank the heap and gave its pages back to the system; the timed despawn, which grows the
 * world's staging arrays from their first size, then took page faults on memory the JVM committed again: about
 * half of its time (sparse, fan-out 4, 100,000 entities, two forks: 9.7 &plusmn; 2.3 ms with the default heap,
 * 4.6 &plusmn; 0.1 ms with the fixed one; the baseline, which allocates nothing, did not move). A game's
 * heap does not shrink between frames, so the fixed heap measures what one sees. A gigabyte holds every
 * parameter's world (dense, fan-out 4, 100,000 entities, 25,000 archetypes, included).
 *
 * <p>The full collection also costs the despawn right after it a fixed amount, whatever the tree's size: on a
 * harness pinned to one core (sparse, fan-out 4, a new world each round), a tree of 16 entities took 123 &micro;s to
 * despawn after a collection and 2.6 &micro;s without one, a tree of 1,000 entities 138 &micro;s against 12. It
 * belongs to the code's first run after the collection, not to the tree's memory: despawning a small tree in a
 * scratch world between the collection and the timed despawn takes it away (3.2 &micro;s for the 16 entities, 19
 * for the 1,000), though the timed tree's memory is as cold as before. A game does not collect the whole heap before
 * each frame, so the rebuild, after its collection, despawns such a tree ({@link #reenterAfterCollection},
 * untimed): one of the same shape and {@value #SCRATCH_ENTITIES} entities, in a world of its own, closed before the
 * timed despawn. At 10,000 entities this took the operation from 450 &plusmn; 116 to 176 &plusmn; 48 &micro;s
 * (fan-out 4, one fork each); at 100,000 it changed nothing beyond the errors.
 *
 * <p>The collection also decides where the reverse index's lists lie. The despawn reads each parent's list of
 * children, a heap array of its own, and a collection copies those arrays next to each other, in the order the index
 * holds them. Lists that the rebuild has just made lie among its other allocations instead. On a harness pinned to
 * one core (sparse, 10,000 entities, the world refilled, medians of the last 200 of 400 rounds, 6 December 2026), a
 * collection right after the rebuild gave 8.2 and 8.7 ns per entity at fan-out 4, and one before the rebuild gave
 * 13.3 and 13.8. At fan-out 32, with an eighth as many lists, the two overlapped (7.4 to 8.3 against 7.7 to 9.2). In
 * a profile of the second case, reading the lists rose from a third of the despawn to almost half. This benchmark
 * measures the first case; a game that deletes a hierarchy right after building it, before any collection, sees the
 * second. Lists kept in one array per relationship would lie in the engine's order whatever the collector does.
 *
 * <p>Baselines: the same tree as plain {@code int} arrays ({@link Forest}), deleted by a recursive walk that frees
 * each node after its children (clears its alive flag, pushes its index on a free list, counts it). It skips what
 * the engine does per entity beyond that (removing rows, retiring the id's generation, membership and lifecycle
 * bookkeeping), so it is the floor, not an equal. The walk runs under two fixtures. {@code plainRecursive} refills
 * its arrays and runs on them warm. {@code plainAfterCollection} gets the rebuild jtecs gets: a full collection
 * (which moves the walk's arrays as it moves the engine's), then a scratch tree of the same shape deleted, untimed.
 * Issue 21's ratio is taken against {@code plainAfterCollection}, the same footing; {@code plainRecursive} stays as
 * the warm floor. Two forks, 10,000 entities, 7 December 2026: the warm walk 31.7 &plusmn; 0.5 &micro;s at fan-out 4
 * and 18.9 &plusmn; 4.3 at fan-out 32, the walk after the collection 46.1 &plusmn; 5.8 and 39.1 &plusmn; 1.3 (see
 * docs/relationships.md, the twenty-first pass). Dominion, Artemis-odb and Ashley have no built-in hierarchy or
 * cascading delete (no parent relation, and deleting an entity never deletes others), so no peer runs here; a
 * hand-written hierarchy on top of them would measure that code, not the peers.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector",
    "--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow", "-Xms1g", "-Xmx1g"})
@State(Scope.Thread)
public class CascadeDeleteBenchmark {
    @Param({"10000", "100000"})
    public int entities;

    @Param({"4", "32"})
    public int fanOut;

    /** {@code sparse}: the built-in {@code ChildOf}; {@code dense}: its dense twin ({@link Forest#DENSE_CHILD_OF}). */
    @Param({"dense", "sparse"})
    public String storage = "sparse";

    Forest tree;
    /** The scratch tree of {@link #reenterAfterCollection}: past the cascade queue's first size, so it grows too. */
    private static final int SCRATCH_ENTITIES = 256;
    private Forest scratchTree;
    int reentries; // how many times reenterAfterCollection ran (tests)
    private boolean jtecsSelected;

    World world;
    long root;

    /** The baseline's tree, and the scratch one its rebuild deletes after the collection (as jtecs's does). */
    private PlainTree plain;
    private PlainTree plainScratch;
    /** Whether the baseline's rebuild collects as jtecs's does ({@link #plainAfterCollection} or every engine). */
    private boolean plainCollected;
    int plainReentries; // how many times reenterPlainAfterCollection ran (tests)

    @Setup(Level.Trial)
    public void setUp(BenchmarkParams params) {
        setUp(EngineUnderTest.of(params));
    }

    /** Builds the tree's arrays, and notes whether {@code selected} measures jtecs ({@link EngineUnderTest}). */
    void setUp(String selected) {
        tree = Forest.truncated(entities, fanOut);
        scratchTree = Forest.truncated(Math.min(entities, SCRATCH_ENTITIES), fanOut);
        plain = new PlainTree(tree);
        plainScratch = new PlainTree(scratchTree);
        jtecsSelected = EngineUnderTest.needs(selected, "jtecs");
        plainCollected = selected.equals(EngineUnderTest.ALL) || selected.equals("plainAfterCollection");
    }

    /**
     * Deletes a small tree of the same shape in a scratch world (untimed), so that the despawn's code has run once
     * since the collection before the timed despawn runs it; see the class comment. Returns how many of the
     * scratch tree's entities were left (0).
     */
    int reenterAfterCollection() {
        reentries++;
        World scratch = World.create(WorldConfig.defaults().maxEntities(scratchTree.nodes() + 1));
        try {
            scratch.despawn(scratchTree.spawnInto(scratch, Forest.parentOf(storage))[0]);
            return scratch.entityCount();
        } finally {
            scratch.close();
        }
    }

    /**
     * Deletes the scratch tree of the baseline's shape (untimed), as {@link #reenterAfterCollection} does for jtecs;
     * returns how many of its nodes were left (0).
     */
    int reenterPlainAfterCollection() {
        plainReentries++;
        plainScratch.refill();
        plainScratch.delete(0);
        return plainScratch.aliveCount;
    }

    /**
     * Rebuilds the tree the last operation deleted (untimed), then collects the heap and deletes a scratch tree:
     * for jtecs always, for the baseline when {@link #plainAfterCollection} is measured.
     */
    @Setup(Level.Invocation)
    public void rebuild() {
        if (jtecsSelected && (world == null || world.entityCount() == 0)) {
            if (world == null || !storage.equals("sparse")) { // sparse: the same world refilled
                if (world != null) {
                    world.close();
                }
                world = World.create(WorldConfig.defaults().maxEntities(entities + 1));
            }
            root = tree.spawnInto(world, Forest.parentOf(storage))[0];
            System.gc(); // the closed world and the building are garbage: collect them here, not in the despawn
            reenterAfterCollection();
        }
        if (plain.aliveCount == 0) {
            plain.refill();
            if (plainCollected) {
                System.gc(); // the same collection the jtecs rebuild makes (nothing to collect): see the class comment
                reenterPlainAfterCollection();
            }
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        if (world != null) {
            world.close();
            world = null;
        }
    }

    @Benchmark
    public World jtecs() {
        world.despawn(root); // scope depth 0: the cascade is published before it returns
        return world;
    }

    @Benchmark
    public int plainRecursive() {
        return deletePlainTree();
    }

    /**
     * The same baseline measured as jtecs is: its rebuild collects the heap and then deletes a scratch tree of the
     * same shape, untimed, as jtecs's rebuild does.
     */
    @Benchmark
    public int plainAfterCollection() {
        return deletePlainTree();
    }

    /** Deletes the baseline's tree from its root; returns how many of its nodes are left (0). */
    private int deletePlainTree() {
        PlainTree plain = this.plain;
        plain.delete(0);
        return plain.aliveCount;
    }

    /** How many nodes of the baseline's tree are alive (tests). */
    int plainAliveCount() {
        return plain.aliveCount;
    }

    /** Whether the plain tree's node is alive (tests). */
    boolean plainAlive(int node) {
        return plain.alive[node];
    }

    /** The baseline: a tree as plain arrays, its nodes' alive flags, a free list and a count of the living. */
    static final class PlainTree {
        private final Forest tree;
        private final boolean[] alive;
        private final int[] freeList;
        private int freeCount;
        int aliveCount;

        PlainTree(Forest tree) {
            this.tree = tree;
            this.alive = new boolean[tree.nodes()];
            this.freeList = new int[tree.nodes()];
        }

        /** Makes every node alive again, the free list empty. */
        void refill() {
            Arrays.fill(alive, true);
            freeCount = 0;
            aliveCount = tree.nodes();
        }

        /** Frees {@code node} after its children, recursively. */
        void delete(int node) {
            int first = tree.firstChild[node];
            for (int child = first, end = first + tree.childCount[node]; child < end; child++) {
                delete(child);
            }
            alive[node] = false;
            freeList[freeCount++] = node;
            aliveCount--;
        }
    }
}
