package dev.jtecs.bench.jmh;

import com.artemis.Aspect;
import com.artemis.ComponentMapper;
import com.artemis.EntityEdit;
import com.artemis.WorldConfigurationBuilder;
import com.artemis.utils.IntBag;
import com.badlogic.ashley.core.Component;
import com.badlogic.ashley.core.Engine;
import com.badlogic.ashley.core.Entity;
import com.badlogic.ashley.core.Family;
import com.badlogic.ashley.utils.ImmutableArray;
import dev.dominion.ecs.api.Dominion;
import dev.jtecs.bench.peers.PeerComponents.ArtemisMass;
import dev.jtecs.bench.peers.PeerComponents.ArtemisPosition;
import dev.jtecs.bench.peers.PeerComponents.ArtemisVelocity;
import dev.jtecs.bench.peers.PeerComponents.AshleyMass;
import dev.jtecs.bench.peers.PeerComponents.AshleyPosition;
import dev.jtecs.bench.peers.PeerComponents.AshleyVelocity;
import dev.jtecs.bench.peers.PeerComponents.DominionMass;
import dev.jtecs.bench.peers.PeerComponents.DominionPosition;
import dev.jtecs.bench.peers.PeerComponents.DominionVelocity;
import dev.jtecs.bench.peers.PeerTags;

/**
 * The peers' populations and loops for the read and integrate workloads, written as each engine documents:
 * Dominion iterates {@code findEntitiesWith} results, Artemis-odb walks an aspect subscription's entity bag
 * through component mappers (what its {@code IteratingSystem} does), Ashley walks a family's entity array
 * through component mappers (what its {@code IteratingSystem} does).
 */
final class PeerWorlds implements AutoCloseable {
    final Dominion dominion = Dominion.create();
    final com.artemis.World artemis = new com.artemis.World(new WorldConfigurationBuilder().build());
    final Engine ashley = new Engine();
    private final ComponentMapper<ArtemisPosition> artemisPositions = artemis.getMapper(ArtemisPosition.class);
    private final ComponentMapper<ArtemisVelocity> artemisVelocities = artemis.getMapper(ArtemisVelocity.class);
    private final ComponentMapper<ArtemisMass> artemisMasses = artemis.getMapper(ArtemisMass.class);
    private final com.badlogic.ashley.core.ComponentMapper<AshleyPosition> ashleyPositions =
            com.badlogic.ashley.core.ComponentMapper.getFor(AshleyPosition.class);
    private final com.badlogic.ashley.core.ComponentMapper<AshleyVelocity> ashleyVelocities =
            com.badlogic.ashley.core.ComponentMapper.getFor(AshleyVelocity.class);
    private final com.badlogic.ashley.core.ComponentMapper<AshleyMass> ashleyMasses =
            com.badlogic.ashley.core.ComponentMapper.getFor(AshleyMass.class);

    /** Spawns {@code n} entities with position, velocity and mass in every peer; tags split them when > 0. */
    PeerWorlds(int n, int tags) {
        try {
            for (int i = 0; i < n; i++) {
                Object[] dominionParts = tags > 0
                        ? new Object[] {new DominionPosition(i, -i), new DominionVelocity(1, 2), new DominionMass(1),
                            PeerTags.DOMINION[i % tags].getDeclaredConstructor().newInstance()}
                        : new Object[] {new DominionPosition(i, -i), new DominionVelocity(1, 2), new DominionMass(1)};
                dominion.createEntity(dominionParts);

                int e = artemis.create();
                EntityEdit edit = artemis.edit(e);
                ArtemisPosition ap = edit.create(ArtemisPosition.class);
                ap.x = i;
                ap.y = -i;
                ArtemisVelocity av = edit.create(ArtemisVelocity.class);
                av.x = 1;
                av.y = 2;
                edit.create(ArtemisMass.class).m = 1;
                if (tags > 0) {
                    edit.create(PeerTags.ARTEMIS[i % tags]);
                }

                Entity entity = ashley.createEntity();
                AshleyPosition sp = new AshleyPosition();
                sp.x = i;
                sp.y = -i;
                AshleyVelocity sv = new AshleyVelocity();
                sv.x = 1;
                sv.y = 2;
                AshleyMass sm = new AshleyMass();
                sm.m = 1;
                entity.add(sp).add(sv).add(sm);
                if (tags > 0) {
                    Component tag = PeerTags.ASHLEY[i % tags].getDeclaredConstructor().newInstance();
                    entity.add(tag);
                }
                ashley.addEntity(entity);
            }
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
        artemis.process();
    }

    void integrateDominion(float dt) {
        dominion.findEntitiesWith(DominionPosition.class, DominionVelocity.class).forEach(r -> {
            DominionPosition p = r.comp1();
            DominionVelocity v = r.comp2();
            p.x += v.x * dt;
            p.y += v.y * dt;
        });
    }

    void integrateArtemis(float dt) {
        IntBag bag = artemis.getAspectSubscriptionManager()
                .get(Aspect.all(ArtemisPosition.class, ArtemisVelocity.class)).getEntities();
        int[] ids = bag.getData();
        for (int i = 0, n = bag.size(); i < n; i++) {
            ArtemisPosition p = artemisPositions.get(ids[i]);
            ArtemisVelocity v = artemisVelocities.get(ids[i]);
            p.x += v.x * dt;
            p.y += v.y * dt;
        }
    }

    void integrateAshley(float dt) {
        ImmutableArray<Entity> entities =
                ashley.getEntitiesFor(Family.all(AshleyPosition.class, AshleyVelocity.class).get());
        for (int i = 0, n = entities.size(); i < n; i++) {
            Entity e = entities.get(i);
            AshleyPosition p = ashleyPositions.get(e);
            AshleyVelocity v = ashleyVelocities.get(e);
            p.x += v.x * dt;
            p.y += v.y * dt;
        }
    }

    float readDominion(int components) {
        float[] sum = {0};
        switch (components) {
            case 1 -> dominion.findEntitiesWith(DominionPosition.class).forEach(r -> sum[0] += r.comp().x);
            case 2 -> dominion.findEntitiesWith(DominionPosition.class, DominionVelocity.class)
                    .forEach(r -> sum[0] += r.comp1().x + r.comp2().x);
            default -> dominion.findEntitiesWith(DominionPosition.class, DominionVelocity.class, DominionMass.class)
                    .forEach(r -> sum[0] += r.comp1().x + r.comp2().x + r.comp3().m);
        }
        return sum[0];
    }

    float readArtemis(int components) {
        Aspect.Builder aspect = switch (components) {
            case 1 -> Aspect.all(ArtemisPosition.class);
            case 2 -> Aspect.all(ArtemisPosition.class, ArtemisVelocity.class);
            default -> Aspect.all(ArtemisPosition.class, ArtemisVelocity.class, ArtemisMass.class);
        };
        IntBag bag = artemis.getAspectSubscriptionManager().get(aspect).getEntities();
        int[] ids = bag.getData();
        float sum = 0;
        for (int i = 0, n = bag.size(); i < n; i++) {
            sum += artemisPositions.get(ids[i]).x;
            if (components > 1) {
                sum += artemisVelocities.get(ids[i]).x;
            }
            if (components > 2) {
                sum += artemisMasses.get(ids[i]).m;
            }
        }
        return sum;
    }

    float readAshley(int components) {
        Family family = switch (components) {
            case 1 -> Family.all(AshleyPosition.class).get();
            case 2 -> Family.all(AshleyPosition.class, AshleyVelocity.class).get();
            default -> Family.all(AshleyPosition.class, AshleyVelocity.class, AshleyMass.class).get();
        };
        ImmutableArray<Entity> entities = ashley.getEntitiesFor(family);
        float sum = 0;
        for (int i = 0, n = entities.size(); i < n; i++) {
            Entity e = entities.get(i);
            sum += ashleyPositions.get(e).x;
            if (components > 1) {
                sum += ashleyVelocities.get(e).x;
            }
            if (components > 2) {
                sum += ashleyMasses.get(e).m;
            }
        }
        return sum;
    }

    @Override
    public void close() {
        dominion.close();
        artemis.dispose();
        ashley.removeAllEntities();
    }
}
