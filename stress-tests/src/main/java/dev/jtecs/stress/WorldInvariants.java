package dev.jtecs.stress;

import dev.jtecs.builtin.EntityKey;
import dev.jtecs.component.BaseRelationship;
import dev.jtecs.component.Component;
import dev.jtecs.component.Components;
import dev.jtecs.component.PairComponent;
import dev.jtecs.entity.Entity;
import dev.jtecs.query.Query;
import dev.jtecs.storage.Archetype;
import dev.jtecs.world.World;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The consistency rules a world must satisfy whenever no publication is running, checked through the public API
 * only, so they hold after any failure the world recovered from.
 *
 * <ul>
 *   <li>Storage: rows are dense (each archetype's rows {@code 0..count-1} hold distinct live entities), every row's
 *       entity resolves back to that archetype and row, the archetype counts add up to {@code entityCount()}, and
 *       every id the caller has seen is alive exactly when some row holds it.
 *   <li>Relationships: an entity has a relationship's marker exactly when it has an edge of it; a dense edge has
 *       its pair in the signature; exclusive relationships hold one edge at most; dense edges point at live
 *       targets and no live entity holds a cascading edge to a dead target; every reverse index lists exactly the
 *       sources whose edges point at each target.
 *   <li>Keys: every key held by a live entity resolves to it through {@code byKey}, and no two entities hold one
 *       key; probe keys nobody holds resolve to nothing.
 *   <li>Queries: a query's archetypes are exactly the world's archetypes its descriptor matches (temporary ones:
 *       a subset), its count is theirs, and, for queries whose callbacks the caller tracked, the members the
 *       callbacks reported are exactly the members.
 *   <li>Entity observers: once nothing is pending, no dead id the caller has seen keeps observers of the given
 *       event types.
 * </ul>
 */
public final class WorldInvariants {
    /** A query and the members its callbacks reported ({@code null}: untracked). */
    public record Tracked(Query query, Set<Long> members) {}

    private final World world;
    private final List<String> violations = new ArrayList<>();

    private WorldInvariants(World world) {
        this.world = world;
    }

    /**
     * Checks every rule; returns the violations found (empty when consistent).
     *
     * @param seen ids the caller handed out or met, live or dead
     * @param queries queries to check, with the members their callbacks reported where tracked
     * @param probeKeys keys to look up besides those entities hold
     * @param observed event types whose entity-address observers must not outlive their entity
     */
    public static List<String> check(World world, Collection<Long> seen, List<Tracked> queries,
            Collection<String> probeKeys, Collection<Class<?>> observed) {
        WorldInvariants invariants = new WorldInvariants(world);
        List<Archetype> archetypes = WorldDump.archetypes(world);
        Set<Long> rows = invariants.storage(archetypes, seen);
        invariants.relationships(rows);
        invariants.keys(rows, probeKeys);
        invariants.queries(archetypes, queries);
        if (!world.hasPendingChanges()) { // else a seen id may be a staged spawn, observed legally
            invariants.observers(rows, seen, observed);
        }
        return invariants.violations;
    }

    private void violation(String message) {
        if (violations.size() < 20) {
            violations.add(message);
        }
    }

    private Set<Long> storage(List<Archetype> archetypes, Collection<Long> seen) {
        Set<Long> rows = new HashSet<>();
        long total = 0;
        for (Archetype archetype : archetypes) {
            total += archetype.count();
            for (int row = 0; row < archetype.count(); row++) {
                long id = archetype.entity(row);
                if (!rows.add(id)) {
                    violation("entity " + Entity.toString(id) + " holds two rows (archetype " + archetype.id()
                            + " row " + row + ")");
                }
                if (!world.isAlive(id)) {
                    violation("archetype " + archetype.id() + " row " + row + " holds dead " + Entity.toString(id));
                } else if (world.archetypeOf(id) != archetype || world.rowOf(id) != row) {
                    violation("entity " + Entity.toString(id) + " at archetype " + archetype.id() + " row " + row
                            + " resolves to archetype " + world.archetypeOf(id).id() + " row " + world.rowOf(id));
                }
            }
        }
        if (total != world.entityCount()) {
            violation("archetype rows=" + total + " but entityCount=" + world.entityCount());
        }
        for (long id : seen) {
            if (world.isAlive(id) != rows.contains(id)) {
                violation("isAlive(" + Entity.toString(id) + ")=" + world.isAlive(id) + " but "
                        + (rows.contains(id) ? "a row holds it" : "no row holds it"));
            }
        }
        return rows;
    }

    private void relationships(Set<Long> rows) {
        List<BaseRelationship<?>> relationships = new ArrayList<>();
        for (Component<?> component : Components.declared()) {
            if (component instanceof BaseRelationship<?> relationship) {
                relationships.add(relationship);
            }
        }
        Map<BaseRelationship<?>, Map<Long, TreeSet<Long>>> sources = new HashMap<>();
        for (long id : rows) {
            Archetype archetype = world.archetypeOf(id);
            for (BaseRelationship<?> relationship : relationships) {
                List<Long> targets = new ArrayList<>();
                world.forEachRelationship(id, relationship, edge -> targets.add(WorldDump.targetOf(relationship,
                        edge)));
                if (world.has(id, relationship) != !targets.isEmpty()) {
                    violation(Entity.toString(id) + " has(" + relationship.name() + ")=" + world.has(id, relationship)
                            + " with edges to " + targets);
                }
                if (relationship.isExclusive() && targets.size() > 1) {
                    violation(Entity.toString(id) + " holds " + targets.size() + " edges of exclusive "
                            + relationship.name());
                }
                for (long target : targets) {
                    edge(archetype, id, relationship, target, rows);
                    sources.computeIfAbsent(relationship, r -> new HashMap<>())
                            .computeIfAbsent(target, t -> new TreeSet<>()).add(id);
                }
            }
        }
        for (BaseRelationship<?> relationship : relationships) {
            if (!relationship.hasReverseIndex()) {
                continue;
            }
            Map<Long, TreeSet<Long>> expected = sources.getOrDefault(relationship, Map.of());
            Set<Long> targets = new TreeSet<>(rows);
            targets.addAll(expected.keySet());
            for (long target : targets) {
                List<Long> actual = new ArrayList<>();
                for (long source : world.relationshipSources(relationship, target)) {
                    actual.add(source);
                }
                List<Long> wanted = new ArrayList<>(expected.getOrDefault(target, new TreeSet<>()));
                if (!actual.equals(wanted)) {
                    violation("relationshipSources(" + relationship.name() + ", " + Entity.toString(target) + ")="
                            + names(actual) + " but the edges say " + names(wanted));
                }
            }
        }
    }

    private void edge(Archetype archetype, long id, BaseRelationship<?> relationship, long target, Set<Long> rows) {
        boolean targetAlive = rows.contains(target);
        if (!relationship.isSparse()) {
            boolean pair = false;
            for (Component<?> component : archetype.components()) {
                pair |= component instanceof PairComponent p && p.relationship() == relationship
                        && p.target() == target;
            }
            if (!pair) {
                violation(Entity.toString(id) + " reports an edge " + relationship.name() + "->"
                        + Entity.toString(target) + " its archetype has no pair for");
            }
            if (!targetAlive) {
                violation(Entity.toString(id) + " keeps a dense edge " + relationship.name() + " to dead "
                        + Entity.toString(target));
            }
        }
        if (relationship.isCascadeDelete() && !targetAlive) {
            violation(Entity.toString(id) + " outlived its cascading target " + Entity.toString(target) + " ("
                    + relationship.name() + ")");
        }
    }

    private void keys(Set<Long> rows, Collection<String> probeKeys) {
        Map<String, Long> holders = new TreeMap<>();
        for (long id : rows) {
            String key = world.get(id, EntityKey.COMPONENT);
            if (key != null) {
                Long other = holders.put(key, id);
                if (other != null) {
                    violation("key '" + key + "' held by " + Entity.toString(other) + " and " + Entity.toString(id));
                }
            }
        }
        for (Map.Entry<String, Long> held : holders.entrySet()) {
            if (world.byKey(held.getKey()) != held.getValue()) {
                violation("byKey('" + held.getKey() + "')=" + Entity.toString(world.byKey(held.getKey()))
                        + " but " + Entity.toString(held.getValue()) + " holds it");
            }
        }
        for (String key : probeKeys) {
            if (!holders.containsKey(key) && world.byKey(key) != 0) {
                violation("byKey('" + key + "')=" + Entity.toString(world.byKey(key)) + " but nobody holds it");
            }
        }
    }

    private void queries(List<Archetype> archetypes, List<Tracked> queries) {
        for (Tracked tracked : queries) {
            Query query = tracked.query();
            Set<Archetype> matched = Set.copyOf(query.archetypes());
            Set<Long> members = new TreeSet<>();
            for (Archetype archetype : archetypes) {
                boolean matches = query.descriptor().matches(archetype);
                if (matches && !matched.contains(archetype) && !query.isTemporary()) {
                    violation(query.descriptor() + " misses matching archetype " + archetype.id());
                }
                if (!matches && matched.contains(archetype)) {
                    violation(query.descriptor() + " holds archetype " + archetype.id() + " it does not match");
                }
                if (matches && matched.contains(archetype)) {
                    for (int row = 0; row < archetype.count(); row++) {
                        members.add(archetype.entity(row));
                    }
                }
            }
            if (query.count() != members.size()) {
                violation(query.descriptor() + " count=" + query.count() + " but " + members.size() + " members");
            }
            if (tracked.members() != null && !new TreeSet<>(tracked.members()).equals(members)) {
                Set<Long> missing = new TreeSet<>(members);
                missing.removeAll(tracked.members());
                Set<Long> extra = new TreeSet<>(tracked.members());
                extra.removeAll(members);
                violation(query.descriptor() + " callbacks reported members that differ: not reported "
                        + names(missing) + ", reported but absent " + names(extra));
            }
        }
    }

    private void observers(Set<Long> rows, Collection<Long> seen, Collection<Class<?>> observed) {
        for (long id : seen) {
            if (!rows.contains(id) && Entity.isWellFormed(id)) {
                for (Class<?> type : observed) {
                    if (world.hasObservers(id, type)) {
                        violation("dead " + Entity.toString(id) + " keeps " + type.getSimpleName() + " observers");
                    }
                }
            }
        }
    }

    private static List<String> names(Collection<Long> ids) {
        return ids.stream().map(Entity::toString).toList();
    }
}
