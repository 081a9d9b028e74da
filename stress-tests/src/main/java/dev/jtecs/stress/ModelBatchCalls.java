package dev.jtecs.stress;

import dev.jtecs.component.BaseRelationship;
import dev.jtecs.component.Component;
import dev.jtecs.component.Input;
import dev.jtecs.component.Relationship;
import dev.jtecs.component.RelationshipValue;
import dev.jtecs.entity.Entity;
import dev.jtecs.stress.ModelQueries.ModelQuery;
import dev.jtecs.world.BatchCallback;
import dev.jtecs.world.BatchIds;
import dev.jtecs.world.World;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * The bulk calls of a model run: spawn batches ({@code batchSpawn}, {@code batchSpawnAt}, with or without an
 * initializer), query batches ({@code batchSet} with a value or a writer, {@code batchRemove},
 * {@code batchDespawn}) over the run's queries, and {@code clearEntities()}. Each goes to the world and to the
 * reference; bad arguments (a count below 1; malformed, duplicated or occupied ids) must be rejected without a
 * change. Initializers and writers are {@link ModelRewrites}, which the reference replays on values.
 */
final class ModelBatchCalls {
    /** The width of the roll {@link #apply} takes. */
    static final int ROLLS = 193;

    private final ModelRun run;
    private final ModelRestores restores;

    ModelBatchCalls(ModelRun run) {
        this.run = run;
        this.restores = new ModelRestores(run);
    }

    /** One bulk call, chosen by {@code roll} in {@code [0, ROLLS)}. */
    void apply(World world, int roll) {
        if (roll < 50) {
            batchSpawn(world);
        } else if (roll < 80) {
            batchSpawnAt(world);
        } else if (roll < 160) {
            queryBatch(world);
        } else if (roll >= 163) {
            restores.apply(world, roll - 163);
        } else {
            run.note("clearEntities");
            world.clearEntities();
            run.model().clear();
            run.compareCleared(world);
        }
    }

    private void batchSpawn(World world) {
        SplittableRandom random = run.random();
        if (random.nextInt(16) == 0) {
            int count = -random.nextInt(3);
            run.note("batchSpawn " + count + " (expect rejection)");
            run.expectRejection(world, () -> world.batchSpawn(count, List.of(ModelComponents.MARKED)));
            return;
        }
        int count = random.nextInt(8) == 0 ? random.nextInt(40, 100) : random.nextInt(1, 9);
        List<Input> inputs = List.of(run.withEdges(run.randomInputs()));
        List<Component<?>> rewritten = randomRewrites(random);
        run.note("batchSpawn " + count + " " + ModelRun.describe(inputs.toArray(new Input[0])) + " init="
                + names(rewritten));
        BatchIds ids = world.batchSpawn(count, inputs, initializer(rewritten));
        run.meetAll(inputs);
        long[] all = ids.toArray();
        run.note("  -> " + ids);
        run.check(ids.count() == count && all.length == count, "batchSpawn returned " + ids + " for count=" + count);
        Set<Integer> slots = new HashSet<>();
        for (int i = 0; i < count; i++) {
            long id = all[i];
            run.check(ids.get(i) == id && (!ids.isContiguous() || id == ids.first() + i),
                    "BatchIds.get(" + i + ") disagrees with toArray: " + ids);
            run.check(Entity.isWellFormed(id) && slots.add(Entity.slot(id)) && run.isFree(id),
                    "batchSpawn handed out " + Entity.toString(id) + ", whose slot is in use");
        }
        run.model().batchSpawn(all, inputs, rewritten == null ? List.of() : rewritten);
        run.settle();
        run.seen(all);
        run.maybeObserve(world, all[random.nextInt(count)]);
        run.check(world.isAlive(all[0]) == run.isInstant(), "a batch is alive at once exactly on the instant path");
    }

    private void batchSpawnAt(World world) {
        SplittableRandom random = run.random();
        long[] ids = new long[random.nextInt(6)];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = run.candidateForSpawnAt();
        }
        if (ids.length > 0 && random.nextInt(6) == 0) {
            int k = random.nextInt(ids.length);
            ids[k] = random.nextBoolean() || ids.length == 1
                    ? new long[] {0L, -1L, Long.MIN_VALUE, 1L << 32}[random.nextInt(4)] // malformed: slot 0 or negative
                    : Entity.pack(Entity.slot(ids[(k + 1) % ids.length]), random.nextInt(4)); // a slot twice
        }
        boolean legal = true;
        Set<Integer> slots = new HashSet<>();
        for (long id : ids) {
            legal &= Entity.isWellFormed(id) && slots.add(Entity.slot(id)) && run.isFree(id);
        }
        List<Input> inputs = List.of(run.withEdges(run.randomInputs()));
        List<Component<?>> rewritten = randomRewrites(random);
        run.note("batchSpawnAt " + describeIds(ids) + " " + ModelRun.describe(inputs.toArray(new Input[0]))
                + " init=" + names(rewritten) + (legal ? "" : " (expect rejection)"));
        if (!legal) {
            run.expectRejection(world, () -> world.batchSpawnAt(ids, inputs, initializer(rewritten)));
            return;
        }
        world.batchSpawnAt(ids, inputs, initializer(rewritten));
        if (ids.length > 0) {
            run.meetAll(inputs); // an empty array does nothing: the world meets no pair
        }
        run.model().batchSpawnAt(ids, inputs, new ReferenceWorld.Init(rewritten == null ? List.of() : rewritten,
                null, false));
        run.settle();
        run.seen(ids);
        if (ids.length > 0) {
            run.maybeObserve(world, ids[random.nextInt(ids.length)]);
        }
    }

    private void queryBatch(World world) {
        SplittableRandom random = run.random();
        ModelQuery query = run.queries().pick(random);
        int kind = random.nextInt(10);
        ReferenceWorld model = run.model();
        if (run.isRelational() && random.nextInt(4) == 0) {
            edgeBatch(world, query);
            return;
        }
        if (kind < 4) {
            Input value = ModelComponents.randomInput(run.pickComponent(), random);
            run.note("batchSet " + query.name() + " " + ModelRun.describe(value));
            world.batchSet(query.query(), value);
            expectDirty(model.batchSet(query.rule(), value), value.component());
        } else if (kind < 6) {
            Component<?> component = run.pickComponent();
            run.note("batchSet " + query.name() + " " + component.name() + " with a writer");
            world.batchSet(query.query(), component, ModelRewrites.writer(component));
            expectDirty(model.batchRewrite(query.rule(), component), component);
        } else if (kind < 8) {
            Component<?> component = run.pickComponent();
            run.note("batchRemove " + query.name() + " " + component.name());
            world.batchRemove(query.query(), component);
            model.batchRemove(query.rule(), component);
        } else {
            run.note("batchDespawn " + query.name());
            world.batchDespawn(query.query());
            List<Long> despawned = model.batchDespawn(query.rule());
            run.note("  despawns " + despawned.size());
        }
        run.check(world.hasPendingChanges() != run.isInstant(), "a query batch is staged exactly on the staged path");
        run.settle();
        if (kind >= 8) {
            run.checkEventsPerEntity(); // after publication: on the instant path cascades report with the batch
        }
    }

    /**
     * {@code batchSet(query, REL.to(t))} (a dead target is rejected), {@code batchRemove(query, REL)} or
     * {@code batchRemove(query, REL.to(t))}.
     */
    private void edgeBatch(World world, ModelQuery query) {
        ReferenceWorld model = run.model();
        RelationshipValue edge = run.randomEdge();
        switch (run.random().nextInt(3)) {
            case 0 -> {
                if (!model.isKnownLiveOrReserved(edge.target())) {
                    run.note("batchSet " + query.name() + " " + edge + " (dead target: expect rejection)");
                    run.expectRejection(world, () -> world.batchSet(query.query(), edge));
                    return;
                }
                run.note("batchSet " + query.name() + " " + edge);
                run.meet(edge);
                world.batchSet(query.query(), edge);
                model.batchSet(query.rule(), edge);
            }
            case 1 -> {
                BaseRelationship<?> relationship = edge.relationship();
                run.note("batchRemove " + query.name() + " " + relationship.name());
                world.batchRemove(query.query(), relationship);
                model.batchRemove(query.rule(), relationship);
            }
            default -> {
                if (!run.met(edge)) {
                    return; // an edge the world has no pair for stages nothing: the model cannot tell
                }
                run.note("batchRemove " + query.name() + " " + edge);
                world.batchRemove(query.query(), edge);
                model.batchRemoveEdge(query.rule(), edge);
            }
        }
        run.check(world.hasPendingChanges() != run.isInstant(), "a query batch is staged exactly on the staged path");
        run.settle();
    }

    private void expectDirty(List<Long> selected, Component<?> component) {
        for (long id : selected) {
            run.expectDirty(id, component);
        }
    }

    /** No initializer one time in three; otherwise the components it rewrites (each palette one in three). */
    static List<Component<?>> randomRewrites(SplittableRandom random) {
        if (random.nextInt(3) == 0) {
            return null;
        }
        List<Component<?>> rewritten = new ArrayList<>();
        for (Component<?> component : ModelComponents.ALL) {
            if (random.nextInt(3) == 0) {
                rewritten.add(component);
            }
        }
        return rewritten;
    }

    static BatchCallback initializer(List<Component<?>> rewritten) {
        return rewritten == null ? null : ModelRewrites.initializer(rewritten);
    }

    static String names(List<Component<?>> components) {
        return components == null ? "none" : components.stream().map(Component::name).toList().toString();
    }

    static String describeIds(long[] ids) {
        List<String> names = new ArrayList<>();
        for (long id : ids) {
            names.add(Entity.toString(id));
        }
        return names.toString();
    }
}
