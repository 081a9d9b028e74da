package dev.jtecs.stress;

import static dev.jtecs.stress.ModelComponents.CHILD_OF;
import static dev.jtecs.stress.ModelComponents.DISABLED;
import static dev.jtecs.stress.ModelComponents.FOLLOWS;
import static dev.jtecs.stress.ModelComponents.LEADS;
import static dev.jtecs.stress.ModelComponents.HEALTH;
import static dev.jtecs.stress.ModelComponents.LABEL;
import static dev.jtecs.stress.ModelComponents.LEVEL;
import static dev.jtecs.stress.ModelComponents.MARKED;
import static dev.jtecs.stress.ModelComponents.NAME;
import static dev.jtecs.stress.ModelComponents.PAUSED;
import static dev.jtecs.stress.ModelComponents.POSITION;
import static dev.jtecs.stress.ModelComponents.STATS;
import static dev.jtecs.stress.ModelComponents.VELOCITY;

import dev.jtecs.component.Component;
import dev.jtecs.query.Query;
import dev.jtecs.query.QueryCursor;
import dev.jtecs.query.QueryDescriptor;
import dev.jtecs.storage.LongColumn;
import dev.jtecs.world.World;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The queries of a model run. Each one keeps the member set its membership callbacks describe; at every commit
 * that set, the query's iteration (by visitor and by cursor) and its count must equal the entities the
 * model's rule selects. The same
 * queries select the entities of query batches.
 *
 * <p>The rule is written from the query's parts, not read back from its descriptor: every {@code include},
 * one {@code includeAny} when any are listed, no {@code exclude}, no {@code Disabled} unless named, and for a
 * logic query no {@code Paused} unless named.
 */
final class ModelQueries {
    /** One query, the members its callbacks reported, and the model's rule for it. */
    record ModelQuery(Query query, Set<Long> members, Predicate<Map<Component<?>, Object>> rule) {
        String name() {
            return query.descriptor().toString();
        }
    }

    /** How many queries a run has; operations name them by index. */
    static final int COUNT = 11;

    private final Consumer<String> fail;
    private final List<ModelQuery> queries = new ArrayList<>();

    private final boolean callbacks;

    /**
     * Creates the queries on {@code world}; {@code fail} reports a callback that broke its contract. Without
     * {@code callbacks} the queries have no membership callbacks (so they observe no archetype), and their member
     * sets are not compared; their iteration and count still are.
     */
    ModelQueries(World world, Consumer<String> fail, boolean callbacks) {
        this.fail = fail;
        this.callbacks = callbacks;
        add(world, List.of(POSITION), List.of(), List.of(), false);
        add(world, List.of(HEALTH), List.of(), List.of(MARKED), false);
        add(world, List.of(), List.of(LABEL, NAME), List.of(STATS), false);
        add(world, List.of(LEVEL), List.of(), List.of(), true);
        add(world, List.of(DISABLED), List.of(), List.of(), false);
        add(world, List.of(), List.of(VELOCITY, PAUSED), List.of(), true);
        add(world, List.of(), List.of(), List.of(), false); // everything not disabled
        add(world, List.of(FOLLOWS), List.of(), List.of(), false); // any edge of a relationship
        add(world, List.of(), List.of(LEADS, CHILD_OF), List.of(FOLLOWS), true);
        // sparse markers match like components: any edge in the store, whatever its target
        add(world, List.of(ModelComponents.WATCHES), List.of(), List.of(ModelComponents.HELD_BY), false);
        add(world, List.of(), List.of(ModelComponents.LOAN, ModelComponents.SPRING), List.of(), false);
        if (queries.size() != COUNT) {
            throw new IllegalStateException("queries=" + queries.size() + " COUNT=" + COUNT);
        }
    }

    /** The query an operation names by index (modulo {@link #COUNT}). */
    ModelQuery get(int index) {
        return queries.get(Math.floorMod(index, queries.size()));
    }

    /** Compares each query's callback members, iteration and count with its rule over the model's live rows. */
    void compare(Map<Long, Map<Component<?>, Object>> alive) {
        for (ModelQuery q : queries) {
            Set<Long> expected = new HashSet<>();
            for (Map.Entry<Long, Map<Component<?>, Object>> entity : alive.entrySet()) {
                if (q.rule().test(entity.getValue())) {
                    expected.add(entity.getKey());
                }
            }
            Set<Long> iterated = new HashSet<>();
            q.query().forEach((archetype, count) -> {
                for (int row = 0; row < count; row++) {
                    iterated.add(archetype.entity(row));
                }
            });
            Set<Long> cursored = new HashSet<>();
            try (QueryCursor cursor = q.query().cursor()) {
                while (cursor.next()) {
                    LongColumn entities = cursor.entities();
                    for (int row = 0; row < cursor.count(); row++) {
                        cursored.add(entities.get(row));
                    }
                }
            }
            if (callbacks && !expected.equals(q.members())) {
                fail.accept("callback members of " + q.name() + " world=" + q.members() + " model=" + expected);
            }
            if (!expected.equals(iterated)) {
                fail.accept("iteration of " + q.name() + " world=" + iterated + " model=" + expected);
            }
            if (!expected.equals(cursored)) {
                fail.accept("cursor of " + q.name() + " world=" + cursored + " model=" + expected);
            }
            if (q.query().count() != expected.size()) {
                fail.accept("count of " + q.name() + " world=" + q.query().count() + " model=" + expected.size());
            }
        }
    }

    private void add(World world, List<Component<?>> include, List<Component<?>> any,
            List<Component<?>> exclude, boolean logic) {
        Set<Long> members = new HashSet<>();
        QueryDescriptor.Builder builder = QueryDescriptor.builder()
                .include(include.toArray(new Component<?>[0]))
                .includeAny(any.toArray(new Component<?>[0]))
                .exclude(exclude.toArray(new Component<?>[0]));
        if (logic) {
            builder.logic();
        }
        if (!callbacks) {
            queries.add(new ModelQuery(world.newQuery(builder.build()), members, rule(include, any, exclude, logic)));
            return;
        }
        builder.onEntitiesAdded((archetype, from, to) -> {
            for (int row = from; row < to; row++) {
                if (!members.add(archetype.entity(row))) {
                    fail.accept("added twice: " + archetype.entity(row));
                }
            }
        }).onEntitiesRemoved((archetype, from, to) -> {
            for (int row = from; row < to; row++) {
                if (!members.remove(archetype.entity(row))) {
                    fail.accept("removed a non-member: " + archetype.entity(row));
                }
            }
        });
        queries.add(new ModelQuery(world.newQuery(builder.build()), members, rule(include, any, exclude, logic)));
    }

    private static Predicate<Map<Component<?>, Object>> rule(List<Component<?>> include, List<Component<?>> any,
            List<Component<?>> exclude, boolean logic) {
        boolean namesDisabled = include.contains(DISABLED) || any.contains(DISABLED);
        boolean namesPaused = include.contains(PAUSED) || any.contains(PAUSED);
        return row -> {
            for (Component<?> c : include) {
                if (!row.containsKey(c)) {
                    return false;
                }
            }
            boolean anyMet = any.isEmpty();
            for (Component<?> c : any) {
                anyMet |= row.containsKey(c);
            }
            for (Component<?> c : exclude) {
                if (row.containsKey(c)) {
                    return false;
                }
            }
            return anyMet && (namesDisabled || !row.containsKey(DISABLED))
                    && (!logic || namesPaused || !row.containsKey(PAUSED));
        };
    }
}
