package dev.jtecs.bench.jmh;

import com.artemis.Aspect;
import com.artemis.ComponentMapper;
import com.artemis.utils.IntBag;
import com.badlogic.ashley.core.Engine;
import com.badlogic.ashley.core.Entity;
import com.badlogic.ashley.core.Family;
import dev.dominion.ecs.api.Dominion;
import dev.jtecs.bench.particles.Particles;
import dev.jtecs.bench.peers.PeerComponents.ArtemisPosition;
import dev.jtecs.bench.peers.PeerComponents.ArtemisVelocity;
import dev.jtecs.bench.peers.PeerComponents.AshleyPosition;
import dev.jtecs.bench.peers.PeerComponents.AshleyVelocity;
import dev.jtecs.bench.peers.PeerComponents.DominionPosition;
import dev.jtecs.bench.peers.PeerComponents.DominionVelocity;
import dev.jtecs.storage.Archetype;
import dev.jtecs.world.World;
import java.util.function.Consumer;

/**
 * Test support: a census of the entities an engine holds with both Position and Velocity: how many, and
 * {@code sum(x * vx + y * vy)}, which ties each velocity to the position of its own entity (a velocity that
 * landed on another entity changes the sum).
 */
record Velocities(int count, double weighted) {
    /** The census of entities {@code 0..n-1} holding {@link EntityPopulations}'s values. */
    static Velocities expected(int n) {
        double weighted = 0;
        for (int i = 0; i < n; i++) {
            weighted += (double) PeerWorlds.x0(i) * PeerWorlds.vx0(i) + (double) PeerWorlds.y0(i) * PeerWorlds.vy0(i);
        }
        return new Velocities(n, weighted);
    }

    static Velocities of(World world) {
        int[] count = {0};
        double[] weighted = {0};
        world.forEachArchetype((Consumer<Archetype>) archetype -> {
            if (!archetype.has(Particles.POSITION) || !archetype.has(Particles.VELOCITY)) {
                return;
            }
            for (int row = 0; row < archetype.count(); row++) {
                count[0]++;
                weighted[0] += (double) archetype.get(Particles.X).get(row) * archetype.get(Particles.VX).get(row)
                        + (double) archetype.get(Particles.Y).get(row) * archetype.get(Particles.VY).get(row);
            }
        });
        return new Velocities(count[0], weighted[0]);
    }

    static Velocities of(Dominion dominion) {
        int[] count = {0};
        double[] weighted = {0};
        dominion.findEntitiesWith(DominionPosition.class, DominionVelocity.class).forEach(r -> {
            count[0]++;
            weighted[0] += (double) r.comp1().x * r.comp2().x + (double) r.comp1().y * r.comp2().y;
        });
        return new Velocities(count[0], weighted[0]);
    }

    static Velocities of(com.artemis.World artemis) {
        ComponentMapper<ArtemisPosition> positions = artemis.getMapper(ArtemisPosition.class);
        ComponentMapper<ArtemisVelocity> velocities = artemis.getMapper(ArtemisVelocity.class);
        IntBag bag = artemis.getAspectSubscriptionManager()
                .get(Aspect.all(ArtemisPosition.class, ArtemisVelocity.class)).getEntities();
        double weighted = 0;
        for (int i = 0; i < bag.size(); i++) {
            ArtemisPosition p = positions.get(bag.get(i));
            ArtemisVelocity v = velocities.get(bag.get(i));
            weighted += (double) p.x * v.x + (double) p.y * v.y;
        }
        return new Velocities(bag.size(), weighted);
    }

    static Velocities of(Engine ashley) {
        var entities = ashley.getEntitiesFor(Family.all(AshleyPosition.class, AshleyVelocity.class).get());
        double weighted = 0;
        for (int i = 0; i < entities.size(); i++) {
            Entity e = entities.get(i);
            AshleyPosition p = e.getComponent(AshleyPosition.class);
            AshleyVelocity v = e.getComponent(AshleyVelocity.class);
            weighted += (double) p.x * v.x + (double) p.y * v.y;
        }
        return new Velocities(entities.size(), weighted);
    }
}
