package dev.jtecs.testing;

import dev.jtecs.builtin.EntityKey;
import dev.jtecs.component.BaseRelationship;
import dev.jtecs.component.Component;
import dev.jtecs.component.Components;
import dev.jtecs.component.PairComponent;
import dev.jtecs.entity.Entity;
import dev.jtecs.query.Query;
import dev.jtecs.schedule.SystemInfo;
import dev.jtecs.snapshot.SnapshotOptions;
import dev.jtecs.storage.Archetype;
import dev.jtecs.world.World;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The whole state of a world that a snapshot load could change, as text, for "a rejected load changed nothing"
 * checks: two dumps are equal exactly when the states are. (Core tests cannot use the stress tests'
 * {@code WorldDump}; this one adds the metadata a snapshot carries.)
 *
 * <p>Contents, in a fixed order:
 * <ul>
 *   <li>the world's table snapshot, whole: every saved entity with its id and generation and every saved value,
 *       dense and sparse edges with their payloads, keys, the free slot stack with its generations,
 *       {@code nextEntityId}, the random seed and every stream's state words, the state stack, the fixed-step
 *       remainder and every leaf phase's flag;</li>
 *   <li>what a snapshot leaves out: the world counters (entity and archetype counts, pending work, scope depth,
 *       native bytes, structure version, random seed, systems, resources, bundles, fixed steps, frame time, the
 *       dirty queue); every archetype with its signature, count, capacity, dirty columns and structural counters;
 *       every entity with its archetype, row and every component value, transient ones included; every key's
 *       holder; the reverse index of every relationship that keeps one; and the count and members of each
 *       given query.</li>
 * </ul>
 *
 * <p>Taking it saves a table snapshot, so it runs the world's snapshot handlers and {@code OnSnapshotSave}
 * observers (use it where those only read), and it refuses a world with pending work, which a save would
 * publish. It changes nothing else: the archetypes are visited in a scope that stages nothing.
 */
public final class WorldState {
    private WorldState() {
    }

    /**
     * The dump of {@code world} and of the membership of {@code queries} (each must belong to it).
     *
     * @throws IllegalStateException when the world has pending work
     */
    public static String of(World world, Query... queries) {
        if (world.hasPendingChanges()) {
            throw new IllegalStateException("WorldState: the world has pending work, which a save would publish");
        }
        StringBuilder sb = new StringBuilder();
        sb.append("snapshot ").append(world.saveSnapshot(SnapshotOptions.table()).table()).append('\n');
        List<String> systems = new ArrayList<>();
        for (SystemInfo system : world.listSystems()) {
            systems.add(system.name() + (system.enabled() ? "" : "(off)"));
        }
        sb.append("world entities=").append(world.entityCount()).append(" archetypes=").append(world.archetypeCount())
                .append(" pending=").append(world.hasPendingChanges()).append(" depth=").append(world.scopeDepth())
                .append(" nativeBytes=").append(world.nativeBytesReserved()).append(" structure=")
                .append(world.structureVersion()).append(" seed=").append(world.randomSeed()).append(" systems=")
                .append(systems).append(" resources=").append(world.resources().size()).append(" bundles=")
                .append(world.getBundles().keySet()).append(" fixedSteps=").append(world.fixedStepCount())
                .append(" frame=").append(world.getNominalFrameTime()).append(" dirty=")
                .append(world.dirtyArchetypes().stream().map(Archetype::id).toList()).append('\n');
        List<Archetype> archetypes = new ArrayList<>();
        world.forEachArchetype(archetypes::add);
        archetypes.sort(Comparator.comparingInt(Archetype::id));
        TreeMap<Long, String> entities = new TreeMap<>();
        TreeSet<String> keys = new TreeSet<>();
        for (Archetype archetype : archetypes) {
            sb.append("archetype ").append(archetype.id()).append(' ')
                    .append(archetype.components().stream().map(Component::name).toList()).append(" count=")
                    .append(archetype.count()).append(" capacity=").append(archetype.capacityRows())
                    .append(" dirty=").append(archetype.dirtyComponents().stream().map(Component::name).toList())
                    .append(" structural=").append(archetype.structuralCount()).append(" added=")
                    .append(archetype.structuralAdded()).append(" touched=")
                    .append(Arrays.toString(archetype.structuralTouched())).append(" values=")
                    .append(archetype.valueCount()).append('\n');
            for (int row = 0; row < archetype.count(); row++) {
                long id = archetype.entity(row);
                entities.put(id, entity(world, archetype, row, id, keys));
            }
        }
        entities.values().forEach(line -> sb.append(line).append('\n'));
        for (String key : keys) {
            sb.append("key '").append(key).append("' -> ").append(Entity.toString(world.byKey(key))).append('\n');
        }
        for (Component<?> component : Components.declared()) {
            if (component instanceof BaseRelationship<?> relationship && relationship.hasReverseIndex()) {
                for (long target : entities.keySet()) {
                    long[] sources = world.relationshipSources(relationship, target);
                    if (sources.length > 0) {
                        sb.append("sources ").append(relationship.name()).append(' ').append(Entity.toString(target))
                                .append(" <- ").append(Arrays.toString(sources)).append('\n');
                    }
                }
            }
        }
        for (int i = 0; i < queries.length; i++) {
            TreeSet<Long> members = new TreeSet<>();
            for (Archetype archetype : queries[i].archetypes()) {
                for (int row = 0; row < archetype.count(); row++) {
                    members.add(archetype.entity(row));
                }
            }
            sb.append("query ").append(i).append(" count=").append(queries[i].count()).append(" members=")
                    .append(members).append('\n');
        }
        return sb.toString();
    }

    private static String entity(World world, Archetype archetype, int row, long id, TreeSet<String> keys) {
        StringBuilder sb = new StringBuilder("entity ").append(Entity.toString(id)).append(" @")
                .append(archetype.id()).append(':').append(row).append(" resolves ")
                .append(world.archetypeOf(id) == null ? "nothing" : world.archetypeOf(id).id()).append(':')
                .append(world.rowOf(id));
        List<Component<?>> components = new ArrayList<>(archetype.components());
        components.sort(Comparator.comparing(Component::name));
        for (Component<?> component : components) {
            sb.append(" | ").append(component.name());
            if (component instanceof PairComponent) {
                continue; // its edge is listed under its relationship
            }
            if (component instanceof BaseRelationship<?> relationship) {
                List<String> edges = new ArrayList<>();
                world.forEachRelationship(id, relationship, edge -> edges.add(value(edge)));
                sb.append(" -> ").append(edges);
                continue;
            }
            Object value = world.get(id, component);
            sb.append('=').append(value(value));
            if (component == EntityKey.COMPONENT && value != null) {
                keys.add((String) value);
            }
        }
        return sb.toString();
    }

    /** A value's text; doubles and floats with their bits, so -0.0 and NaN payloads show. */
    private static String value(Object value) {
        if (value instanceof String s) {
            return "'" + s + "'";
        }
        if (value instanceof Double d) {
            return d + "/" + Long.toHexString(Double.doubleToRawLongBits(d));
        }
        if (value instanceof Float f) {
            return f + "/" + Integer.toHexString(Float.floatToRawIntBits(f));
        }
        return String.valueOf(value);
    }
}
