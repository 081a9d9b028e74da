package dev.jtecs.relation.internal;

import static dev.jtecs.relation.internal.RelationFixtures.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import dev.jtecs.builtin.ChildOf;
import dev.jtecs.component.Relationship;
import dev.jtecs.entity.Entity;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import dev.jtecs.world.World;

/** The walks ({@link Traversal}): {@code traverse} and {@code walkUp}, driven through the world. */
class TraversalTest {
    private final World world = World.create();

    @AfterEach
    void close() {
        world.close();
    }

    @Test
    void traverseIsDepthFirstExcludesTheRootAndVisitsEachEntityOnce() {
        long root = world.spawn();
        long a = world.spawn(KNOWS.to(root));
        long b = world.spawn(KNOWS.to(root));
        long a1 = world.spawn(KNOWS.to(a));
        long a2 = world.spawn(KNOWS.to(a), KNOWS.to(b)); // two parents: visited once
        long a11 = world.spawn(KNOWS.to(a1));
        world.set(root, KNOWS.to(a11)); // a cycle back to the root
        List<String> visits = new ArrayList<>();
        world.traverse(root, KNOWS, (entity, depth) -> visits.add(entity + "@" + depth));
        assertEquals(List.of(a + "@0", a1 + "@1", a11 + "@2", a2 + "@1", b + "@0"), visits);
    }

    @Test
    void walkUpFollowsTheFirstEdgeStopsOnRequestAndRaisesOnCyclesAndDepth() {
        long top = world.spawn();
        long mid = world.spawn(PARENT.to(top));
        long low = world.spawn(PARENT.to(mid));
        List<String> seen = new ArrayList<>();
        world.walkUp(low, PARENT, (ancestor, depth) -> seen.add(ancestor + "@" + depth));
        assertEquals(List.of(mid + "@1", top + "@2"), seen);
        seen.clear();
        world.walkUp(low, PARENT, (ancestor, depth) -> {
            seen.add(ancestor + "@" + depth);
            return false;
        });
        assertEquals(List.of(mid + "@1"), seen, "the visitor stopped the walk");
        assertThrows(IllegalStateException.class, () -> world.walkUp(low, PARENT, (x, d) -> true, 1));
        world.set(top, PARENT.to(low));
        assertThrows(IllegalStateException.class, () -> world.walkUp(low, PARENT, (x, d) -> true));
    }

    @Test
    void traversalsNestAndAnObserverMayTraverseDuringACascade() {
        long root = world.spawn();
        long a = world.spawn(KNOWS.to(root));
        long b = world.spawn(KNOWS.to(root));
        world.spawn(KNOWS.to(a));
        List<String> visits = new ArrayList<>();
        world.traverse(root, KNOWS, (entity, depth) -> {
            int[] below = {0};
            world.traverse(entity, KNOWS, (inner, d) -> below[0]++);
            visits.add(entity + ":" + below[0]);
        });
        assertEquals(List.of(a + ":1", (a + 2) + ":0", b + ":0").size(), visits.size());
        assertEquals(a + ":1", visits.get(0));

        Relationship childOf = dev.jtecs.builtin.ChildOf.COMPONENT;
        long top = world.spawn();
        long mid = world.spawn(childOf.to(top));
        long leaf = world.spawn(childOf.to(mid));
        List<Integer> counts = new ArrayList<>();
        world.observe(Entity.WORLD, dev.jtecs.event.OnDespawn.class, e -> {
            int[] n = {0};
            world.traverse(top, KNOWS, (x, d) -> n[0]++); // a nested walk from inside the cascade
            counts.add(n[0]);
        });
        world.despawn(top);
        assertFalse(world.isAlive(leaf));
        assertEquals(3, counts.size(), "top, mid and leaf, once each");
    }

    @Test
    void walkUpRefusesANegativeDepthBeforeVisiting() {
        long root = world.spawn();
        long child = world.spawn(PARENT.to(root));
        List<Long> visited = new ArrayList<>();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> world.walkUp(child, PARENT, (ancestor, depth) -> visited.add(ancestor), -1));
        assertTrue(e.getMessage().contains("maxDepth=-1"), e.getMessage());
        assertEquals(List.of(), visited);
    }
}
