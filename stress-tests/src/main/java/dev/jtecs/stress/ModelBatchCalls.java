package dev.jtecs.stress;

import dev.jtecs.component.Component;
import dev.jtecs.component.Input;
import dev.jtecs.component.RelationshipValue;
import dev.jtecs.entity.Entity;
import dev.jtecs.stress.ModelQueries.ModelQuery;
import dev.jtecs.mutation.BatchCallback;
import dev.jtecs.mutation.BatchIds;
import dev.jtecs.world.World;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The bulk calls of a model run: spawn batches ({@code batchSpawn}, {@code batchSpawnAt}, with or without an
 * initializer), query batches ({@code batchSet} with a value or a writer, {@code batchRemove},
 * {@code batchDespawn}) over the run's queries, and {@code clearEntities()}. Each goes to the world and to the
 * reference; bad arguments (a count below 1; malformed, duplicated or occupied ids) must be rejected without a
 * change. Initializers and writers are {@link ModelRewrites}, which the reference replays on values.
 */
final class ModelBatchCalls {
    private final ModelRun run;

    ModelBatchCalls(ModelRun run) {
        this.run = run;
    }

    /** Executes {@code op} when it is one of these calls; returns whether it was. */
    boolean execute(World world, ModelOp op) {
        switch (op) {
            case ModelOp.BatchSpawn b -> batchSpawn(world, b);
            case ModelOp.BatchSpawnAt b -> batchSpawnAt(world, b);
            case ModelOp.BatchSet b -> batchSet(world, b);
            case ModelOp.BatchRewrite b -> {
                ModelQuery query = run.queries().get(b.query());
                run.calls().batchSet(world, query.query(), b.component(), ModelRewrites.writer(b.component()));
                expectDirty(run.model().batchRewrite(query.rule(), b.component()), b.component());
                published(world);
            }
            case ModelOp.BatchRemove b -> {
                ModelQuery query = run.queries().get(b.query());
                run.calls().batchRemove(world, query.query(), b.component());
                run.model().batchRemove(query.rule(), b.component());
                published(world);
            }
            case ModelOp.BatchRemoveEdge b -> batchRemoveEdge(world, b);
            case ModelOp.BatchDespawn b -> {
                ModelQuery query = run.queries().get(b.query());
                run.calls().batchDespawn(world, query.query());
                List<Long> despawned = run.model().batchDespawn(query.rule());
                run.note("  despawns " + despawned.size());
                published(world);
                run.checkEventsPerEntity(); // after publication: on the instant path cascades report with the batch
            }
            case ModelOp.ClearEntities c -> {
                run.calls().clearEntities(world);
                run.model().clear();
                run.compareCleared(world);
            }
            default -> {
                return false;
            }
        }
        return true;
    }

    private void batchSpawn(World world, ModelOp.BatchSpawn op) {
        int count = op.count();
        List<Input> inputs = List.of(run.liveInputs(op.inputs()));
        BatchCallback initializer = initializer(op.init());
        if (count < 1) {
            run.note("  count " + count + ": expect rejection");
            run.expectRejection(world, () -> run.calls().batchSpawn(world, count, inputs, initializer));
            return;
        }
        BatchIds ids = run.calls().batchSpawn(world, count, inputs, initializer);
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
        run.model().batchSpawn(all, inputs, op.init() == null ? List.of() : op.init());
        run.settle();
        for (int i = 0; i < count; i++) {
            run.bind(op.firstHandle() + i, all[i]);
        }
        if (op.observe() >= 0 && op.observe() < count) {
            run.maybeObserve(true, all[op.observe()]);
        }
        run.check(world.isAlive(all[0]) == run.isInstant(), "a batch is alive at once exactly on the instant path");
    }

    private void batchSpawnAt(World world, ModelOp.BatchSpawnAt op) {
        long[] ids = run.resolveAll(op.ids());
        boolean legal = true;
        Set<Integer> slots = new HashSet<>();
        for (long id : ids) {
            legal &= run.isFree(id) && slots.add(Entity.slot(id));
        }
        List<Input> inputs = List.of(run.liveInputs(op.inputs()));
        BatchCallback initializer = initializer(op.init());
        run.note("  ids " + describeIds(ids) + (legal ? "" : ": expect rejection"));
        if (!legal) {
            run.expectRejection(world, () -> run.calls().batchSpawnAt(world, ids, inputs, initializer));
            return;
        }
        run.calls().batchSpawnAt(world, ids, inputs, initializer);
        if (ids.length > 0) {
            run.meetAll(inputs); // an empty array does nothing: the world meets no pair
        }
        run.model().batchSpawnAt(ids, inputs, new ReferenceWorld.Init(op.init() == null ? List.of() : op.init(),
                null, false));
        run.settle();
        for (int i = 0; i < ids.length; i++) {
            run.bind(op.firstHandle() + i, ids[i]);
        }
        if (op.observe() >= 0 && op.observe() < ids.length) {
            run.maybeObserve(true, ids[op.observe()]);
        }
    }

    /** {@code batchSet(query, value)}, or {@code batchSet(query, REL.to(t))} (a dead target is rejected). */
    private void batchSet(World world, ModelOp.BatchSet op) {
        ModelQuery query = run.queries().get(op.query());
        ReferenceWorld model = run.model();
        if (op.value() instanceof ModelInput.EdgeTo to) {
            RelationshipValue edge = to.resolve(run::resolve);
            if (!model.isKnownLiveOrReserved(edge.target())) {
                run.note("  dead target " + Entity.toString(edge.target()) + ": expect rejection");
                run.expectRejection(world, () -> run.calls().batchSet(world, query.query(), edge));
                return;
            }
            run.meet(edge);
            run.calls().batchSet(world, query.query(), edge);
            model.batchSet(query.rule(), edge);
        } else {
            Input value = ((ModelInput.Given) op.value()).input();
            run.calls().batchSet(world, query.query(), value);
            expectDirty(model.batchSet(query.rule(), value), value.component());
        }
        published(world);
    }

    /** {@code batchRemove(query, REL.to(t))}, skipped when the world has no pair for the edge. */
    private void batchRemoveEdge(World world, ModelOp.BatchRemoveEdge op) {
        ModelQuery query = run.queries().get(op.query());
        RelationshipValue edge = op.edge().resolve(run::resolve);
        if (!run.met(edge)) {
            run.note("  skipped: an edge the world has no pair for stages nothing");
            return;
        }
        run.calls().batchRemoveEdge(world, query.query(), edge);
        run.model().batchRemoveEdge(query.rule(), edge);
        published(world);
    }

    /** A query batch is staged exactly on the staged path; on the instant path it has published. */
    private void published(World world) {
        run.check(world.hasPendingChanges() != run.isInstant(), "a query batch is staged exactly on the staged path");
        run.settle();
    }

    private void expectDirty(List<Long> selected, Component<?> component) {
        for (long id : selected) {
            run.expectDirty(id, component);
        }
    }

    static BatchCallback initializer(List<Component<?>> rewritten) {
        return rewritten == null ? null : ModelRewrites.initializer(rewritten);
    }

    static String describeIds(long[] ids) {
        List<String> names = new ArrayList<>();
        for (long id : ids) {
            names.add(Entity.toString(id));
        }
        return names.toString();
    }
}
