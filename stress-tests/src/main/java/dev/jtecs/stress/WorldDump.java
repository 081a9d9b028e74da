package dev.jtecs.stress;

import dev.jtecs.builtin.Disabled;
import dev.jtecs.builtin.EntityKey;
import dev.jtecs.component.BaseRelationship;
import dev.jtecs.component.Component;
import dev.jtecs.component.Components;
import dev.jtecs.component.PairComponent;
import dev.jtecs.component.RelationshipDefinition;
import dev.jtecs.component.RelationshipValue;
import dev.jtecs.entity.Entity;
import dev.jtecs.query.Query;
import dev.jtecs.query.QueryDescriptor;
import dev.jtecs.schedule.SystemInfo;
import dev.jtecs.storage.Archetype;
import dev.jtecs.world.World;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A canonical text dump of a world's whole observable state, for "nothing changed" and "same state" checks: two
 * dumps are equal exactly when their text is.
 *
 * <p>Contents, in a fixed order: one line of world counters (entities, archetypes, pending work, scope depth,
 * native bytes, states, systems, resources, bundles, random seed, fixed steps); every live entity in ascending
 * id order with its archetype and row, every component value (by component name), and every relationship edge
 * (in the world's ascending target order); every archetype with its signature, count, capacity, dirty columns and
 * structural counters, and the dirty queue; every key held, and the given probe keys, with its holder; the
 * reverse index of every relationship that has one, for every edge target and live entity; and, for each given
 * query, its count, groups and members.
 *
 * <p>Taking a dump changes nothing: it reads through calls that open no scope (so pending work is not
 * published), and finds the archetypes through two temporary queries (which register nothing in the world).
 */
public final class WorldDump {
    private final String world;
    private final SortedMap<Long, String> entities;
    private final SortedMap<Long, SortedMap<String, String>> values;
    private final List<String> structure;
    private final String text;

    private WorldDump(String world, SortedMap<Long, String> entities,
            SortedMap<Long, SortedMap<String, String>> values, List<String> structure) {
        this.world = world;
        this.entities = Collections.unmodifiableSortedMap(entities);
        this.values = Collections.unmodifiableSortedMap(values);
        this.structure = List.copyOf(structure);
        StringBuilder sb = new StringBuilder(world).append('\n');
        entities.values().forEach(line -> sb.append(line).append('\n'));
        structure.forEach(line -> sb.append(line).append('\n'));
        this.text = sb.toString();
    }

    /** Dumps a world with no queries and no probe keys. */
    public static WorldDump of(World world) {
        return of(world, List.of(), List.of());
    }

    /**
     * Dumps a world, the membership of {@code queries} (each must belong to it) and the holder of each probe key
     * (keys held by no entity show as held by nobody).
     */
    public static WorldDump of(World world, List<Query> queries, Collection<String> probeKeys) {
        Objects.requireNonNull(world, "world");
        List<Archetype> archetypes = archetypes(world);
        SortedMap<Long, String> entities = new TreeMap<>();
        SortedMap<Long, SortedMap<String, String>> values = new TreeMap<>();
        TreeSet<Long> targets = new TreeSet<>();
        TreeSet<String> keys = new TreeSet<>(probeKeys);
        for (Archetype archetype : archetypes) {
            for (int row = 0; row < archetype.count(); row++) {
                long id = archetype.entity(row);
                SortedMap<String, String> components = new TreeMap<>();
                entities.put(id, entity(world, archetype, row, id, targets, keys, components));
                if (world.archetypeOf(id) == archetype && world.rowOf(id) == row) {
                    values.put(id, Collections.unmodifiableSortedMap(components)); // published rows only
                }
            }
        }
        List<String> structure = new ArrayList<>();
        for (Archetype archetype : archetypes) {
            structure.add(archetype(archetype));
        }
        structure.add("dirty-queue " + world.dirtyArchetypes().stream().map(Archetype::id).toList());
        for (String key : keys) {
            structure.add("key '" + key + "' -> " + Entity.toString(world.byKey(key)));
        }
        targets.addAll(entities.keySet());
        for (Component<?> component : Components.declared()) {
            if (component instanceof BaseRelationship<?> relationship && relationship.hasReverseIndex()) {
                for (long target : targets) {
                    long[] sources = world.relationshipSources(relationship, target);
                    if (sources.length > 0) {
                        structure.add("sources " + relationship.name() + " " + Entity.toString(target) + " <- "
                                + ids(sources));
                    }
                }
            }
        }
        for (int i = 0; i < queries.size(); i++) {
            structure.add(query(i, queries.get(i)));
        }
        return new WorldDump(counters(world), entities, values, structure);
    }

    /** Every archetype of the world, ascending by id: the union of a plain and a {@code Disabled} query. */
    static List<Archetype> archetypes(World world) {
        List<Archetype> all = new ArrayList<>();
        all.addAll(world.newQuery(QueryDescriptor.builder().temp().build()).archetypes());
        all.addAll(world.newQuery(QueryDescriptor.builder().include(Disabled.COMPONENT).temp().build())
                .archetypes());
        all.sort(Comparator.comparingInt(Archetype::id));
        return all;
    }

    private static String counters(World world) {
        List<String> systems = new ArrayList<>();
        for (SystemInfo system : world.listSystems()) {
            systems.add(system.name() + (system.enabled() ? "" : "(off)"));
        }
        return "world entities=" + world.entityCount() + " archetypes=" + world.archetypeCount() + " pending="
                + world.hasPendingChanges() + " depth=" + world.scopeDepth() + " nativeBytes="
                + world.nativeBytesReserved() + " states=" + world.listStates() + " systems=" + systems
                + " resources=" + world.resources().size() + " bundles=" + world.getBundles().keySet() + " seed="
                + world.randomSeed() + " fixedSteps=" + world.fixedStepCount() + " frame="
                + world.getNominalFrameTime();
    }

    private static String entity(World world, Archetype archetype, int row, long id, TreeSet<Long> targets,
            TreeSet<String> keys, SortedMap<String, String> values) {
        StringBuilder sb = new StringBuilder("entity ").append(Entity.toString(id)).append(" @").append(archetype.id())
                .append(':').append(row);
        if (world.archetypeOf(id) != archetype || world.rowOf(id) != row) {
            sb.append(" RESOLVES-TO ").append(world.archetypeOf(id) == null ? "nothing" : world.archetypeOf(id).id())
                    .append(':').append(world.rowOf(id)); // an index out of step with storage shows in the dump
        }
        List<Component<?>> components = new ArrayList<>(archetype.components());
        components.sort(Comparator.comparing(Component::name));
        for (Component<?> component : components) {
            sb.append(" | ").append(component.name());
            if (component instanceof PairComponent) {
                values.put(component.name(), "pair");
                continue; // the pair's edge is listed under its relationship
            }
            if (component instanceof BaseRelationship<?> relationship) {
                List<String> edges = new ArrayList<>();
                world.forEachRelationship(id, relationship, edge -> edges.add(value(edge)));
                collectTargets(world, id, relationship, targets);
                sb.append(" -> ").append(edges);
                values.put(component.name(), edges.toString());
                continue;
            }
            Object value = world.get(id, component);
            sb.append('=').append(value(value));
            values.put(component.name(), value(value));
            if (component == EntityKey.COMPONENT && value != null) {
                keys.add((String) value);
            }
        }
        return sb.toString();
    }

    private static void collectTargets(World world, long id, BaseRelationship<?> relationship, TreeSet<Long> targets) {
        world.forEachRelationship(id, relationship, edge -> targets.add(targetOf(relationship, edge)));
    }

    /** The target of an edge as {@code forEachRelationship} reports it (a value, or a payload record). */
    @SuppressWarnings({"unchecked", "rawtypes"})
    static long targetOf(BaseRelationship<?> relationship, Object edge) {
        if (edge instanceof RelationshipValue value) {
            return value.target();
        }
        return ((RelationshipDefinition) relationship).targetOf((Record) edge);
    }

    private static String value(Object value) {
        if (value instanceof String s) {
            return "'" + s + "'";
        }
        if (value instanceof Double d) {
            return Double.toString(d) + "/" + Long.toHexString(Double.doubleToRawLongBits(d));
        }
        return String.valueOf(value);
    }

    private static String archetype(Archetype archetype) {
        return "archetype " + archetype.id() + " " + archetype.components().stream().map(Component::name).toList()
                + " count=" + archetype.count() + " capacity=" + archetype.capacityRows() + " dirty="
                + archetype.dirtyComponents().stream().map(Component::name).toList() + " structural="
                + archetype.structuralCount() + " added=" + archetype.structuralAdded() + " touched="
                + Arrays.toString(archetype.structuralTouched()) + " values=" + archetype.valueCount();
    }

    private static String query(int index, Query query) {
        TreeSet<Long> members = new TreeSet<>();
        for (Archetype archetype : query.archetypes()) {
            for (int row = 0; row < archetype.count(); row++) {
                members.add(archetype.entity(row));
            }
        }
        StringBuilder groups = new StringBuilder();
        for (int group : query.groups()) {
            groups.append(group).append(':').append(query.getGroupCount(group)).append(' ');
        }
        return "query " + index + " " + query.descriptor() + " count=" + query.count() + " groups=[" + groups.toString()
                .trim() + "] members=" + ids(members.stream().mapToLong(Long::longValue).toArray());
    }

    private static String ids(long[] ids) {
        StringBuilder sb = new StringBuilder("[");
        for (long id : ids) {
            sb.append(sb.length() > 1 ? ", " : "").append(Entity.toString(id));
        }
        return sb.append(']').toString();
    }

    /** The whole dump, one item per line. */
    public String text() {
        return text;
    }

    /** The world counters line. */
    public String counters() {
        return world;
    }

    /** Each live entity's line (archetype, row, values, edges) by id, ascending. */
    public SortedMap<Long, String> entities() {
        return entities;
    }

    /**
     * Each published entity's components by name, ascending: the rendered value, the edge list of a
     * relationship, {@code "pair"} for a dense pair; no location, so entities compare across worlds whose rows
     * differ. A row being placed (taken inside a publication) is left out until its entity resolves to it.
     */
    public SortedMap<Long, SortedMap<String, String>> values() {
        return values;
    }

    /** The archetype, dirty-queue, key, reverse-index and query lines. */
    public List<String> structure() {
        return structure;
    }

    /** Up to {@code limit} lines that differ between the two dumps, each marked with the side it is on. */
    public String diff(WorldDump other, int limit) {
        List<String> mine = List.of(text.split("\n"));
        List<String> theirs = List.of(other.text.split("\n"));
        List<String> out = new ArrayList<>();
        for (String line : mine) {
            if (!theirs.contains(line) && out.size() < limit) {
                out.add("- " + line);
            }
        }
        for (String line : theirs) {
            if (!mine.contains(line) && out.size() < limit) {
                out.add("+ " + line);
            }
        }
        return String.join("\n", out);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof WorldDump dump && dump.text.equals(text);
    }

    @Override
    public int hashCode() {
        return text.hashCode();
    }

    @Override
    public String toString() {
        return text;
    }

    /** The counters and entity lines of {@code map} as one string, for the entity-level comparisons. */
    static String entityLines(Map<Long, String> map) {
        return String.join("\n", map.values());
    }
}
