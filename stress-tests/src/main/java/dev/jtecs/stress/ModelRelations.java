package dev.jtecs.stress;

import static dev.jtecs.stress.ModelComponents.FOLLOWS;

import dev.jtecs.component.BaseRelationship;
import dev.jtecs.component.Component;
import dev.jtecs.component.TargetSelector;
import dev.jtecs.entity.Entity;
import dev.jtecs.query.Query;
import dev.jtecs.query.QueryDescriptor;
import dev.jtecs.world.World;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The relationship reads of a model run, compared after a commit from one root, for dense and sparse
 * relationships alike: {@code relationshipSources}
 * (ascending, a sparse edge's dead target included), {@code traverse} (depth first, children ascending, each entity once, root excluded),
 * {@code walkUp} (first edge upward; a cycle or a walk past the depth limit raises), and a temporary query on
 * {@code REL.targeting(root)}; and both walks of the sparse hierarchy ({@code HeldBy}) from every entity, twice, so
 * that the second pass reads the preorder index the first earned. The reference answers each one by scanning its
 * rows.
 */
final class ModelRelations {
    private static final int WALK_DEPTH = 8;

    private ModelRelations() {}

    static void compare(World world, ReferenceWorld model, long root, Consumer<String> fail) {
        Map<Long, Map<Component<?>, Object>> rows = model.rows();
        for (BaseRelationship<?> relationship : ModelComponents.RELATIONSHIPS) {
            if (!relationship.hasReverseIndex()) {
                continue;
            }
            List<Long> sources = boxed(world.relationshipSources(relationship, root));
            List<Long> expected = model.sources(relationship, root);
            if (!sources.equals(expected)) {
                fail.accept("relationshipSources(" + relationship.name() + ", " + Entity.toString(root) + ") world="
                        + sources + " model=" + expected);
            }
            List<String> visits = new ArrayList<>();
            world.traverse(root, relationship, (entity, depth) -> visits.add(entity + "@" + depth));
            List<String> wanted = traverse(model, relationship, root);
            if (!visits.equals(wanted)) {
                fail.accept("traverse(" + Entity.toString(root) + ", " + relationship.name() + ") world=" + visits
                        + " model=" + wanted);
            }
        }
        for (BaseRelationship<?> relationship : ModelComponents.RELATIONSHIPS) {
            String walked = walkUp(world, relationship, root);
            String wanted = walkUp(model, relationship, root);
            if (!walked.equals(wanted)) {
                fail.accept("walkUp(" + Entity.toString(root) + ", " + relationship.name() + ") world=" + walked
                        + " model=" + wanted);
            }
        }
        // the sparse hierarchy from every entity, twice: the first pass earns the preorder index, the second reads it
        List<Long> everyone = new ArrayList<>(new java.util.TreeSet<>(rows.keySet()));
        for (int pass = 0; pass < 2; pass++) {
            for (long id : everyone) {
                List<String> visits = new ArrayList<>();
                world.traverse(id, ModelComponents.HELD_BY, (entity, depth) -> visits.add(entity + "@" + depth));
                List<String> wanted = traverse(model, ModelComponents.HELD_BY, id);
                if (!visits.equals(wanted)) {
                    fail.accept("traverse(" + Entity.toString(id) + ", HeldBy), pass " + pass + ": world=" + visits
                            + " model=" + wanted);
                }
                String walked = walkUp(world, ModelComponents.HELD_BY, id);
                String up = walkUp(model, ModelComponents.HELD_BY, id);
                if (!walked.equals(up)) {
                    fail.accept("walkUp(" + Entity.toString(id) + ", HeldBy), pass " + pass + ": world=" + walked
                            + " model=" + up);
                }
            }
        }
        TargetSelector<?> selector = FOLLOWS.targeting(root);
        Query query = world.newQuery(QueryDescriptor.builder().include(selector).temp().build());
        Set<Long> iterated = new HashSet<>();
        query.forEach((archetype, count) -> {
            for (int row = 0; row < count; row++) {
                iterated.add(archetype.entity(row));
            }
        });
        Set<Long> expected = new HashSet<>();
        for (Map.Entry<Long, Map<Component<?>, Object>> entity : rows.entrySet()) {
            if (entity.getValue().containsKey(selector)
                    && !entity.getValue().containsKey(ModelComponents.DISABLED)) {
                expected.add(entity.getKey());
            }
        }
        if (!iterated.equals(expected) || query.count() != expected.size()) {
            fail.accept("query on " + selector.name() + " world=" + iterated + " count=" + query.count() + " model="
                    + expected);
        }
    }

    private static List<String> traverse(ReferenceWorld model, BaseRelationship<?> relationship, long root) {
        List<String> visits = new ArrayList<>();
        Set<Long> seen = new HashSet<>(List.of(root));
        Deque<long[]> stack = new ArrayDeque<>();
        pushChildren(stack, model.sources(relationship, root), 0);
        while (!stack.isEmpty()) {
            long[] next = stack.pop();
            if (seen.add(next[0])) {
                visits.add(next[0] + "@" + next[1]);
                pushChildren(stack, model.sources(relationship, next[0]), next[1] + 1);
            }
        }
        return visits;
    }

    private static void pushChildren(Deque<long[]> stack, List<Long> children, long depth) {
        for (int i = children.size() - 1; i >= 0; i--) {
            stack.push(new long[] {children.get(i), depth});
        }
    }

    private static String walkUp(World world, BaseRelationship<?> relationship, long id) {
        List<String> seen = new ArrayList<>();
        try {
            world.walkUp(id, relationship, (ancestor, depth) -> seen.add(ancestor + "@" + depth), WALK_DEPTH);
        } catch (IllegalStateException e) {
            seen.add("raised");
        }
        return seen.toString();
    }

    private static String walkUp(ReferenceWorld model, BaseRelationship<?> relationship, long id) {
        List<String> seen = new ArrayList<>();
        Set<Long> visited = new HashSet<>(List.of(id));
        long current = id;
        for (int depth = 1; ; depth++) {
            List<Long> targets = model.targets(current, relationship); // a dead entity holds none
            if (targets.isEmpty()) {
                break;
            }
            long target = targets.get(0);
            if (!visited.add(target) || depth > WALK_DEPTH) {
                seen.add("raised");
                break;
            }
            seen.add(target + "@" + depth);
            current = target;
        }
        return seen.toString();
    }

    private static List<Long> boxed(long[] ids) {
        List<Long> list = new ArrayList<>();
        for (long id : ids) {
            list.add(id);
        }
        return list;
    }
}
