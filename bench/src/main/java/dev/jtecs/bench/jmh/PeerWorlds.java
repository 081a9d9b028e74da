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
 *
 * <p>Entity {@code i} holds the same values in every engine and in the plain baselines: Position
 * ({@link #x0 x0(i)}, {@link #y0 y0(i)}), Velocity ({@link #vx0 vx0(i)}, {@link #vy0 vy0(i)}), Mass 1. Only the
 * engines a run needs are built (the others stay {@code null}): a million entities held by an idle peer would
 * burden the measured engine's garbage collections.
 */
final class PeerWorlds implements AutoCloseable {
    final Dominion dominion;
    final com.artemis.World artemis;
    final Engine ashley;
    private final ComponentMapper<ArtemisPosition> artemisPositions;
    private final ComponentMapper<ArtemisVelocity> artemisVelocities;
    private final ComponentMapper<ArtemisMass> artemisMasses;
    private final com.badlogic.ashley.core.ComponentMapper<AshleyPosition> ashleyPositions =
            com.badlogic.ashley.core.ComponentMapper.getFor(AshleyPosition.class);
    private final com.badlogic.ashley.core.ComponentMapper<AshleyVelocity> ashleyVelocities =
            com.badlogic.ashley.core.ComponentMapper.getFor(AshleyVelocity.class);
    private final com.badlogic.ashley.core.ComponentMapper<AshleyMass> ashleyMasses =
            com.badlogic.ashley.core.ComponentMapper.getFor(AshleyMass.class);

    /** Entity {@code i}'s start position x. */
    static float x0(int i) {
        return i;
    }

    /** Entity {@code i}'s start position y. */
    static float y0(int i) {
        return -i;
    }

    /** Entity {@code i}'s velocity x: 1..8, so neighbouring entities differ. */
    static float vx0(int i) {
        return 1 + (i & 7);
    }

    /** Entity {@code i}'s velocity y: -1..2. */
    static float vy0(int i) {
        return 2 - (i & 3);
    }

    /** Spawns {@code n} entities with position, velocity and mass in every peer; tags split them when > 0. */
    PeerWorlds(int n, int tags) {
        this(n, tags, EngineUnderTest.ALL);
    }

    /**
     * Spawns {@code n} entities with position, velocity and mass in the peers {@code selected} needs (a benchmark
     * method name or {@link EngineUnderTest#ALL}, see {@link EngineUnderTest#needs}); {@code tags > 0} gives
     * entity {@code i} the tag type {@code i % tags} as well.
     */
    PeerWorlds(int n, int tags, String selected) {
        if (tags < 0 || tags > PeerTags.DOMINION.length) {
            throw new IllegalArgumentException("tags=" + tags + " outside 0.." + PeerTags.DOMINION.length);
        }
        dominion = EngineUnderTest.needs(selected, "dominion") ? dev.jtecs.bench.peers.DominionWorlds.create() : null;
        artemis = EngineUnderTest.needs(selected, "artemis")
                ? new com.artemis.World(new WorldConfigurationBuilder().build()) : null;
        ashley = EngineUnderTest.needs(selected, "ashley") ? new Engine() : null;
        artemisPositions = artemis == null ? null : artemis.getMapper(ArtemisPosition.class);
        artemisVelocities = artemis == null ? null : artemis.getMapper(ArtemisVelocity.class);
        artemisMasses = artemis == null ? null : artemis.getMapper(ArtemisMass.class);
        try {
            for (int i = 0; i < n; i++) {
                if (dominion != null) {
                    spawnDominion(i, tags);
                }
                if (artemis != null) {
                    spawnArtemis(i, tags);
                }
                if (ashley != null) {
                    spawnAshley(i, tags);
                }
            }
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
        if (artemis != null) {
            artemis.process();
        }
    }

    private void spawnDominion(int i, int tags) throws ReflectiveOperationException {
        DominionPosition p = new DominionPosition(x0(i), y0(i));
        DominionVelocity v = new DominionVelocity(vx0(i), vy0(i));
        DominionMass m = new DominionMass(1);
        if (tags > 0) {
            dominion.createEntity(p, v, m, PeerTags.DOMINION[i % tags].getDeclaredConstructor().newInstance());
        } else {
            dominion.createEntity(p, v, m);
        }
    }

    private void spawnArtemis(int i, int tags) {
        EntityEdit edit = artemis.edit(artemis.create());
        ArtemisPosition p = edit.create(ArtemisPosition.class);
        p.x = x0(i);
        p.y = y0(i);
        ArtemisVelocity v = edit.create(ArtemisVelocity.class);
        v.x = vx0(i);
        v.y = vy0(i);
        edit.create(ArtemisMass.class).m = 1;
        if (tags > 0) {
            edit.create(PeerTags.ARTEMIS[i % tags]);
        }
    }

    private void spawnAshley(int i, int tags) throws ReflectiveOperationException {
        Entity entity = ashley.createEntity();
        AshleyPosition p = new AshleyPosition();
        p.x = x0(i);
        p.y = y0(i);
        AshleyVelocity v = new AshleyVelocity();
        v.x = vx0(i);
        v.y = vy0(i);
        AshleyMass m = new AshleyMass();
        m.m = 1;
        entity.add(p).add(v).add(m);
        if (tags > 0) {
            Component tag = PeerTags.ASHLEY[i % tags].getDeclaredConstructor().newInstance();
            entity.add(tag);
        }
        ashley.addEntity(entity);
    }

    /**
     * Fairness: Dominion's documented iteration, {@code findEntitiesWith(...).forEach} over its composition
     * tables, updating the component objects in place; the query is not cached because Dominion caches it.
     */
    void integrateDominion(float dt) {
        dominion.findEntitiesWith(DominionPosition.class, DominionVelocity.class).forEach(r -> {
            DominionPosition p = r.comp1();
            DominionVelocity v = r.comp2();
            p.x += v.x * dt;
            p.y += v.y * dt;
        });
    }

    /**
     * Fairness: what Artemis-odb's {@code IteratingSystem} does for each entity, without the system dispatch
     * around it: the aspect subscription's live entity bag walked by index, components read through mappers.
     */
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

    /**
     * Fairness: what Ashley's {@code IteratingSystem} does, without the system dispatch: the family's live entity
     * array (cached by the engine) walked by index, components read through {@code ComponentMapper}s.
     */
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

    /** Fairness: as {@link #integrateDominion}; the sum lives in a one-element array the lambda captures. */
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

    /** Fairness: as {@link #integrateArtemis}, reading one field of each matched component. */
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

    /** Fairness: as {@link #integrateAshley}, reading one field of each matched component. */
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
        if (dominion != null) {
            dominion.close();
        }
        if (artemis != null) {
            artemis.dispose();
        }
        if (ashley != null) {
            ashley.removeAllEntities();
        }
    }
}
