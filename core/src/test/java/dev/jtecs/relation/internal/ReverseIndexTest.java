package dev.jtecs.relation.internal;

import static dev.jtecs.relation.internal.RelationFixtures.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import dev.jtecs.component.Relationship;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import dev.jtecs.world.World;

/** The reverse index ({@link ReverseIndex}): from a target to its sources, driven through the world. */
class ReverseIndexTest {
    private final World world = World.create();

    @AfterEach
    void close() {
        world.close();
    }

    private List<Long> targets(long id, Relationship relationship) {
        return RelationFixtures.targets(world, id, relationship);
    }

    @Test
    void sourcesAndTargetsComeInAscendingIdOrder() {
        long hub = world.spawn();
        long a = world.spawn(KNOWS.to(hub));
        long b = world.spawn(KNOWS.to(hub), MARK);
        long c = world.spawn(KNOWS.to(hub));
        world.spawn(KNOWS.to(a));
        assertEquals(List.of(a, b, c), java.util.Arrays.stream(world.relationshipSources(KNOWS, hub)).boxed()
                .toList());
        List<Long> seen = new ArrayList<>();
        world.targets(hub, KNOWS, seen::add);
        assertEquals(List.of(a, b, c), seen);
        assertEquals(0, world.relationshipSources(KNOWS, c).length);
        assertThrows(IllegalArgumentException.class, () -> world.relationshipSources(FOLLOWS, hub),
                "FOLLOWS has no reverse index");
        assertThrows(IllegalArgumentException.class, () -> world.traverse(hub, FOLLOWS, (e, d) -> { }));
        List<Long> visited = new ArrayList<>();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> world.targets(hub, FOLLOWS, visited::add));
        assertEquals(true, e.getMessage().contains("targets: relationship " + FOLLOWS.name()), e.getMessage());
        assertEquals(List.of(), visited, "refused before any visit");
    }
}
