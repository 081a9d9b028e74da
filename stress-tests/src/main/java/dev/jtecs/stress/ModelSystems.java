package dev.jtecs.stress;

import static dev.jtecs.stress.ModelComponents.DISABLED;
import static dev.jtecs.stress.ModelComponents.HEALTH;
import static dev.jtecs.stress.ModelComponents.LEVEL;

import dev.jtecs.component.Component;
import dev.jtecs.component.Input;
import dev.jtecs.entity.Entity;
import dev.jtecs.event.OnSpawn;
import dev.jtecs.query.Query;
import dev.jtecs.query.QueryDescriptor;
import dev.jtecs.schedule.Phases;
import dev.jtecs.schedule.SystemConfig;
import dev.jtecs.storage.DoubleColumn;
import dev.jtecs.storage.IntColumn;
import dev.jtecs.world.World;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The systems and the work-staging observer of a model run, each with its twin on the reference.
 *
 * <p>Systems, registered on every run's world and run by {@link ModelOp.Update} ({@code world.update(dt)}):
 * {@code stress.Grow} adds 1 to every {@code Level} through its column (a write in place), then
 * {@code stress.Reap} despawns, from inside its iteration, every entity whose {@code Health} is at most
 * {@value #REAP_AT}; the despawns publish at the phase's barrier, and the frame ends by clearing every dirty mark.
 * Both queries leave disabled entities out, as every query that does not name {@code Disabled} does.
 *
 * <p>Spawn rules ({@link ModelOp.ObserveSpawns}): one {@code OnSpawn} observer at address 0, registered with the
 * first rule, applies the rules in order to each spawned entity during its {@code spawn} or {@code spawnAt}
 * call: a rule whose {@code every} divides the entity's slot sets its value on it, or despawns it (cancelling
 * the staged spawn), which ends the rules for that entity.
 */
final class ModelSystems {
    /** The frame time each update passes. */
    static final double DT = 1 / 60.0;
    /** The health at or below which {@code stress.Reap} despawns. */
    static final double REAP_AT = 25.0;

    private final List<ModelOp.ObserveSpawns> rules = new ArrayList<>();
    private boolean observing;

    /** Registers the two systems on a new world. */
    ModelSystems(World world) {
        Query growing = world.newQuery(QueryDescriptor.builder().include(LEVEL).build());
        Query reaping = world.newQuery(QueryDescriptor.builder().include(HEALTH).build());
        world.addSystem(SystemConfig.named("stress.Grow").phase(Phases.UPDATE).run((dt, w) ->
                growing.forEach((archetype, count) -> {
                    IntColumn level = archetype.getMut(LEVEL);
                    for (int row = 0; row < count; row++) {
                        level.set(row, level.get(row) + 1);
                    }
                })));
        world.addSystem(SystemConfig.named("stress.Reap").phase(Phases.UPDATE).after("stress.Grow").run((dt, w) ->
                reaping.forEach((archetype, count) -> {
                    DoubleColumn health = archetype.get(HEALTH);
                    for (int row = 0; row < count; row++) {
                        if (health.get(row) <= REAP_AT) {
                            w.despawn(archetype.entity(row)); // staged: the iteration is a scope
                        }
                    }
                })));
    }

    /** The reference's twin of one frame's systems: the growth written through, then the reaping committed. */
    static String update(ReferenceWorld model) {
        List<Long> growing = new ArrayList<>();
        List<Long> reaped = new ArrayList<>();
        for (Map.Entry<Long, Map<Component<?>, Object>> entity : model.rows().entrySet()) {
            Map<Component<?>, Object> row = entity.getValue();
            if (row.containsKey(DISABLED)) {
                continue;
            }
            if (row.containsKey(LEVEL)) {
                growing.add(entity.getKey());
            }
            if (row.containsKey(HEALTH) && (Double) row.get(HEALTH) <= REAP_AT) {
                reaped.add(entity.getKey());
            }
        }
        for (long id : growing) {
            model.set(id, LEVEL.of((Integer) model.get(id, LEVEL) + 1));
        }
        for (long id : reaped) {
            model.despawn(id);
        }
        return model.commit();
    }

    /** Adds a spawn rule; the first one registers the observer on the world. */
    void observeSpawns(World world, ModelOp.ObserveSpawns rule) {
        rules.add(rule);
        if (!observing) {
            observing = true;
            world.observe(0, OnSpawn.class, event -> applyRules(event.entity(), world));
        }
    }

    private void applyRules(long id, World world) {
        for (ModelOp.ObserveSpawns rule : rules) {
            if (Entity.slot(id) % rule.every() == 0) {
                if (rule.value() == null) {
                    world.despawn(id);
                    return;
                }
                world.set(id, rule.value());
            }
        }
    }

    /** The reference's twin of the rules for a spawn it just recorded; returns the values set. */
    List<Input> applyRules(long id, ReferenceWorld model) {
        List<Input> set = new ArrayList<>();
        for (ModelOp.ObserveSpawns rule : rules) {
            if (Entity.slot(id) % rule.every() == 0) {
                if (rule.value() == null) {
                    model.despawn(id);
                    return set;
                }
                model.set(id, rule.value());
                set.add(rule.value());
            }
        }
        return set;
    }
}
