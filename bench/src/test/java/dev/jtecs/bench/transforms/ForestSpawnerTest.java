package dev.jtecs.bench.transforms;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.builtin.ChildOf;
import dev.jtecs.builtin.RelativeTransform2D;
import dev.jtecs.builtin.Transform2D;
import dev.jtecs.random.RandomStreams;
import dev.jtecs.world.World;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ForestSpawnerTest {
    @Test
    void spawnsEachChildUnderItsParentWithItsOffsetAllChildrenInOneArchetype() {
        ForestShape forest = ForestShape.of(93, 3, 4);
        try (World world = World.create()) {
            long[] ids = new ForestSpawner(forest, new RandomStreams(5).stream("scene"))
                    .spawn(world, TransformsSimulation.ROOT_MOTION);
            assertEquals(93, world.entityCount());
            Set<Integer> childArchetypes = new HashSet<>();
            for (int i = 0; i < forest.nodes(); i++) {
                int p = forest.parent(i);
                if (p < 0) {
                    Transform2D pose = world.get(ids[i], Transform2D.COMPONENT);
                    assertTrue(pose.scaleX() >= 0.5f && pose.scaleX() < 1.5f && pose.scaleX() == pose.scaleY(),
                            pose.toString());
                    assertTrue(pose.layer() >= 0 && pose.layer() < 4);
                    assertTrue(world.has(ids[i], TransformsSimulation.ROOT_MOTION));
                    continue;
                }
                assertEquals(ids[p], world.getFirstRelationship(ids[i], ChildOf.COMPONENT).target(), "node " + i);
                RelativeTransform2D offset = world.get(ids[i], RelativeTransform2D.COMPONENT);
                assertTrue(Math.abs(offset.x()) <= 20 && offset.scaleX() >= 0.8f && offset.scaleY() < 1.2f,
                        offset.toString());
                assertEquals(0.5f, offset.originX());
                assertEquals(Transform2D.IDENTITY, world.get(ids[i], Transform2D.COMPONENT), "not composed yet");
                childArchetypes.add(world.archetypeOf(ids[i]).id());
            }
            assertEquals(1, childArchetypes.size(), "ChildOf is sparse: no archetype per parent");
        }
    }

    @Test
    void theSameStreamDrawsTheSameScene() {
        ForestShape forest = ForestShape.of(40, 3, 4);
        try (World a = World.create(); World b = World.create()) {
            long[] ia = new ForestSpawner(forest, new RandomStreams(9).stream("s")).spawn(a,
                    TransformsSimulation.ROOT_MOTION);
            long[] ib = new ForestSpawner(forest, new RandomStreams(9).stream("s")).spawn(b,
                    TransformsSimulation.ROOT_MOTION);
            for (int i = 1; i < 40; i++) {
                assertEquals(a.get(ia[i], RelativeTransform2D.COMPONENT), b.get(ib[i], RelativeTransform2D.COMPONENT));
            }
            assertEquals(a.get(ia[0], Transform2D.COMPONENT), b.get(ib[0], Transform2D.COMPONENT));
        }
    }
}
