package dev.jtecs.stress;

import dev.jtecs.component.BaseRelationship;
import dev.jtecs.component.Component;
import dev.jtecs.component.Input;
import dev.jtecs.component.Relationship;
import dev.jtecs.component.RelationshipValue;
import dev.jtecs.query.Query;
import dev.jtecs.mutation.BatchCallback;
import dev.jtecs.mutation.BatchIds;
import dev.jtecs.mutation.SpawnQueue;
import dev.jtecs.world.World;
import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * The calls that change a world, as a model run makes them: one method per call, each forwarding to the world
 * by default. Reads and comparisons go to the world directly, so a decorated {@code WorldCalls} is a façade
 * that can misbehave the way an engine bug would (drop a despawn, write one row too few) while the run
 * observes the world as it really is; tests of the harness use that to prove it notices.
 */
public interface WorldCalls {
    /** Forwards every call unchanged. */
    WorldCalls DIRECT = new WorldCalls() {};

    default long spawn(World world, Input... inputs) {
        return world.spawn(inputs);
    }

    /** {@code queue.spawn()}: the queue's inputs, as {@link #spawn(World, Input...)} of them spawns. */
    default long spawn(SpawnQueue queue) {
        return queue.spawn();
    }

    default void spawnAt(World world, long id, Input... inputs) {
        world.spawnAt(id, inputs);
    }

    default void set(World world, long id, Input input) {
        world.set(id, input);
    }

    /** {@code world.set(id, relationship, target)}: an edge of a relationship without a payload, and no edge value. */
    default void setTarget(World world, long id, Relationship relationship, long target) {
        world.set(id, relationship, target);
    }

    default void remove(World world, long id, Component<?> component) {
        world.remove(id, component);
    }

    default void removeEdge(World world, long id, RelationshipValue edge) {
        world.remove(id, edge);
    }

    /** {@code world.remove(id, relationship, target)}: one edge, and no edge value. */
    default void removeTarget(World world, long id, BaseRelationship<?> relationship, long target) {
        world.remove(id, relationship, target);
    }

    default void despawn(World world, long id) {
        world.despawn(id);
    }

    default BatchIds batchSpawn(World world, int count, List<? extends Input> inputs, BatchCallback initializer) {
        return world.batchSpawn(count, inputs, initializer);
    }

    default void batchSpawnAt(World world, long[] ids, List<? extends Input> inputs, BatchCallback initializer) {
        world.batchSpawnAt(ids, inputs, initializer);
    }

    default void batchSpawnAtRaw(World world, MemorySegment ids, int count, List<? extends Input> inputs,
            BatchCallback initializer) {
        world.batchSpawnAtRaw(ids, count, inputs, initializer);
    }

    default void batchSet(World world, Query query, Input value) {
        world.batchSet(query, value);
    }

    default void batchSet(World world, Query query, Component<?> component, BatchCallback writer) {
        world.batchSet(query, component, writer);
    }

    default void batchRemove(World world, Query query, Component<?> component) {
        world.batchRemove(query, component);
    }

    default void batchRemoveEdge(World world, Query query, RelationshipValue edge) {
        world.batchRemove(query, edge);
    }

    default void batchDespawn(World world, Query query) {
        world.batchDespawn(query);
    }

    default void clearEntities(World world) {
        world.clearEntities();
    }

    default void defer(World world) {
        world.defer();
    }

    default void commit(World world) {
        world.commit();
    }

    default void compact(World world) {
        world.compact();
    }

    default void update(World world, double dt) {
        world.update(dt);
    }

    default dev.jtecs.snapshot.Snapshot saveSnapshot(World world, dev.jtecs.snapshot.SnapshotOptions options) {
        return world.saveSnapshot(options);
    }

    /** Loads a table (a map), binary bytes (a segment) or a file (a path). */
    @SuppressWarnings("unchecked")
    default void loadSnapshot(World world, Object snapshot) {
        switch (snapshot) {
            case java.util.Map<?, ?> table -> world.loadSnapshot((java.util.Map<String, ?>) table);
            case MemorySegment bytes -> world.loadSnapshot(bytes);
            case java.nio.file.Path file -> world.loadSnapshot(file);
            default -> world.loadSnapshot((dev.jtecs.snapshot.Snapshot) snapshot);
        }
    }
}
