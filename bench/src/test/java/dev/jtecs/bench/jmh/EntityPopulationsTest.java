package dev.jtecs.bench.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.artemis.WorldConfigurationBuilder;
import com.badlogic.ashley.core.Engine;
import dev.dominion.ecs.api.Dominion;
import dev.dominion.ecs.api.Entity;
import dev.jtecs.bench.particles.Particles;
import dev.jtecs.bench.peers.PeerComponents.ArtemisPosition;
import dev.jtecs.bench.peers.PeerComponents.ArtemisVelocity;
import dev.jtecs.bench.peers.PeerComponents.AshleyPosition;
import dev.jtecs.bench.peers.PeerComponents.AshleyVelocity;
import dev.jtecs.bench.peers.PeerComponents.DominionVelocity;
import dev.jtecs.query.QueryDescriptor;
import dev.jtecs.world.World;
import dev.jtecs.world.WorldConfig;
import org.junit.jupiter.api.Test;

/** Every engine's per-entity population holds entity i's own values, handle by handle, in creation order. */
class EntityPopulationsTest {
    private static final int N = 700;

    @Test
    void jtecsEntitiesHoldTheirOwnValuesWithAndWithoutVelocity() {
        try (World world = World.create(WorldConfig.defaults().maxEntities(2 * N + 1))) {
            long[] moving = EntityPopulations.jtecs(world, N, true);
            long[] still = EntityPopulations.jtecs(world, N, false); // a second batch into a table in use
            for (int i = 0; i < N; i++) {
                Particles.Position p = new Particles.Position(PeerWorlds.x0(i), PeerWorlds.y0(i));
                assertEquals(p, world.get(moving[i], Particles.POSITION), "entity " + i);
                assertEquals(new Particles.Velocity(PeerWorlds.vx0(i), PeerWorlds.vy0(i)),
                        world.get(moving[i], Particles.VELOCITY), "entity " + i);
                assertEquals(p, world.get(still[i], Particles.POSITION), "entity " + i);
                assertFalse(world.has(still[i], Particles.VELOCITY), "entity " + i);
            }
        }
    }

    @Test
    void theVelocityWriterGivesEachRowItsOwnEntitysVelocity() {
        try (World world = World.create(WorldConfig.defaults().maxEntities(N + 1))) {
            long[] ids = EntityPopulations.jtecs(world, N, false);
            world.defer();
            for (int i = N - 1; i >= 0; i -= 2) {
                world.despawn(ids[i]); // rows out of creation order for the rest
            }
            world.commit();
            world.batchSet(world.newQuery(QueryDescriptor.builder().include(Particles.POSITION).build()),
                    Particles.VELOCITY, EntityPopulations.VELOCITY_FROM_POSITION);
            for (int i = N % 2 == 0 ? 0 : 1; i < N; i += 2) {
                assertEquals(new Particles.Velocity(PeerWorlds.vx0(i), PeerWorlds.vy0(i)),
                        world.get(ids[i], Particles.VELOCITY), "entity " + i);
            }
        }
    }

    @Test
    void peersHoldTheSameValues() {
        Dominion dominion = dev.jtecs.bench.peers.DominionWorlds.create();
        com.artemis.World artemis = new com.artemis.World(new WorldConfigurationBuilder().build());
        try {
            Entity[] dominionEntities = EntityPopulations.dominion(dominion, N, true);
            int[] artemisEntities = EntityPopulations.artemis(artemis, N, true);
            com.badlogic.ashley.core.Entity[] ashleyEntities = EntityPopulations.ashley(new Engine(), N, false);
            for (int i = 0; i < N; i++) {
                DominionVelocity v = dominionEntities[i].get(DominionVelocity.class);
                assertEquals(PeerWorlds.vx0(i), v.x, "entity " + i);
                assertEquals(PeerWorlds.vy0(i), v.y, "entity " + i);
                assertEquals(PeerWorlds.y0(i), artemis.getMapper(ArtemisPosition.class).get(artemisEntities[i]).y);
                assertEquals(PeerWorlds.vx0(i), artemis.getMapper(ArtemisVelocity.class).get(artemisEntities[i]).x);
                assertEquals(PeerWorlds.x0(i), ashleyEntities[i].getComponent(AshleyPosition.class).x);
                assertNull(ashleyEntities[i].getComponent(AshleyVelocity.class), "entity " + i);
            }
            assertEquals(N, EntityPopulations.all(dominion).size());
            assertEquals(PeerWorlds.vy0(3), EntityPopulations.ashleyVelocity(3).y);
        } finally {
            dominion.close();
            artemis.dispose();
        }
    }
}
