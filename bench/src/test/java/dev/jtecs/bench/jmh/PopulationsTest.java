package dev.jtecs.bench.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.bench.particles.Particles;
import dev.jtecs.component.TagComponent;
import dev.jtecs.world.World;
import dev.jtecs.world.WorldConfig;
import org.junit.jupiter.api.Test;

/** The bulk-spawned fixture holds exactly the shared start values, entity by entity. */
class PopulationsTest {
    private static final int N = 1000;

    @Test
    void everyEntityGetsItsOwnStartValuesAndTheConstants() {
        try (World world = World.create(WorldConfig.defaults().maxEntities(N + 1))) {
            long[] ids = Populations.spawnMoving(world, N, new TagComponent[0],
                    IterateReadBenchmark.MASS.of(new IterateReadBenchmark.Mass(1)));
            assertEquals(N, world.entityCount());
            for (int i = 0; i < N; i++) {
                assertEquals(new Particles.Position(PeerWorlds.x0(i), PeerWorlds.y0(i)),
                        world.get(ids[i], Particles.POSITION), "entity " + i);
                assertEquals(new Particles.Velocity(PeerWorlds.vx0(i), PeerWorlds.vy0(i)),
                        world.get(ids[i], Particles.VELOCITY), "entity " + i);
                assertEquals(new IterateReadBenchmark.Mass(1), world.get(ids[i], IterateReadBenchmark.MASS));
            }
        }
    }

    @Test
    void tagsSplitTheEntitiesByIndex() {
        TagComponent[] tags = IntegrateFragBenchmark.TAGS;
        try (World world = World.create(WorldConfig.defaults().maxEntities(N + 1))) {
            long[] ids = Populations.spawnMoving(world, N, tags);
            assertEquals(tags.length, world.findArchetypes(Particles.POSITION).size());
            for (int i = 0; i < N; i++) {
                assertTrue(world.has(ids[i], tags[i % tags.length]), "entity " + i);
                assertEquals(new Particles.Position(PeerWorlds.x0(i), PeerWorlds.y0(i)),
                        world.get(ids[i], Particles.POSITION), "entity " + i);
            }
        }
    }
}
