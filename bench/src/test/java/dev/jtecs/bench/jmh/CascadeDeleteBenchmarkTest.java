package dev.jtecs.bench.jmh;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.component.Relationship;
import dev.jtecs.entity.Entity;
import dev.jtecs.world.World;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Both {@code cascade_delete} variants delete the whole N-entity tree from its root, and the untimed rebuild
 * gives each its tree back (sparse: in the same world, on the same slots; dense: in a new world), so repeated
 * operations do the same work.
 */
class CascadeDeleteBenchmarkTest {
    private static final int N = 300;

    @ParameterizedTest
    @CsvSource({"4, dense", "32, dense", "4, sparse", "32, sparse"})
    void bothVariantsDeleteTheWholeTreeAndAreRebuilt(int fanOut, String storage) {
        CascadeDeleteBenchmark bench = new CascadeDeleteBenchmark();
        bench.entities = N;
        bench.fanOut = fanOut;
        bench.storage = storage;
        Relationship parentOf = Forest.parentOf(storage);
        bench.setUp(EngineUnderTest.ALL);
        try {
            World first = null;
            int archetypes = 0;
            int[] firstSlots = null;
            for (int round = 0; round < 3; round++) {
                bench.rebuild();
                assertEquals(2 * round + 1, bench.reentries, "each rebuilt tree is followed by a scratch cascade");
                assertEquals(2 * round + 1, bench.plainReentries, "and each rebuilt plain tree by a scratch deletion");
                int[] slots = slotsOfTree(bench.world, parentOf, bench.root);
                assertEquals(N, slots.length);
                if (round == 0) {
                    first = bench.world;
                    archetypes = first.archetypeCount();
                    firstSlots = slots;
                } else if (storage.equals("sparse")) {
                    assertSame(first, bench.world, "sparse: the same world, refilled");
                    assertEquals(archetypes, first.archetypeCount(), "a refilled world does not grow");
                    assertArrayEquals(firstSlots, slots, "the tree takes the same slots again");
                } else {
                    assertNotSame(first, bench.world, "dense: a new world each operation");
                }
                World world = bench.world;
                assertEquals(N, world.entityCount(), "jtecs before operation " + round);
                assertEquals(N, bench.plainAliveCount(), "plain before operation " + round);
                assertEquals(fanOut, world.relationshipSources(parentOf, bench.root).length);
                long[] deepest = world.relationshipSources(parentOf,
                        world.relationshipSources(parentOf, bench.root)[0]);
                assertTrue(deepest.length > 0, "the tree is more than two levels deep");

                assertEquals(0, bench.reenterAfterCollection(), "the scratch tree went whole"); // (a second one)
                assertEquals(0, bench.reenterPlainAfterCollection(), "the plain scratch tree went whole");
                assertEquals(N, bench.plainAliveCount(), "the plain scratch tree is not the measured one");
                bench.jtecs();
                assertEquals(0, world.entityCount(), "jtecs after operation " + round);
                assertFalse(world.isAlive(bench.root));
                assertFalse(world.isAlive(deepest[0]), "the cascade reached the third level");

                assertEquals(0, round % 2 == 0 ? bench.plainRecursive() : bench.plainAfterCollection(),
                        "plain after operation " + round);
                for (int node = 0; node < N; node++) {
                    assertFalse(bench.plainAlive(node), "plain node " + node);
                }
            }
        } finally {
            bench.tearDown();
        }
    }

    @ParameterizedTest
    @CsvSource({"plainRecursive, 0", "plainAfterCollection, 3"})
    void onlyTheCollectedBaselineRebuildsAfterACollection(String selected, int reentries) {
        CascadeDeleteBenchmark bench = new CascadeDeleteBenchmark();
        bench.entities = N;
        bench.fanOut = 4;
        bench.setUp(selected);
        try {
            for (int round = 0; round < 3; round++) {
                bench.rebuild();
                assertEquals(N, bench.plainAliveCount(), "plain before operation " + round);
                assertEquals(0, selected.equals("plainRecursive") ? bench.plainRecursive()
                        : bench.plainAfterCollection(), "plain after operation " + round);
            }
            assertEquals(reentries, bench.plainReentries, selected);
            assertEquals(0, bench.reentries, "no jtecs world is built for a baseline");
            assertNull(bench.world);
        } finally {
            bench.tearDown();
        }
    }

    /** The slots of the tree's entities, ascending, found down the edges from its root. */
    private static int[] slotsOfTree(World world, Relationship parentOf, long root) {
        List<Long> tree = new ArrayList<>(List.of(root));
        for (int i = 0; i < tree.size(); i++) {
            for (long child : world.relationshipSources(parentOf, tree.get(i))) {
                tree.add(child);
            }
        }
        return tree.stream().mapToInt(Entity::slot).sorted().toArray();
    }
}
