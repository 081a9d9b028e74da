package dev.jtecs.stress;

import static dev.jtecs.stress.ModelComponents.KEY;
import static dev.jtecs.stress.ModelComponents.KEYED;

import dev.jtecs.component.Component;
import dev.jtecs.component.Input;
import dev.jtecs.entity.Entity;
import dev.jtecs.stress.ModelOp.KeyPlan;
import dev.jtecs.stress.ModelQueries.ModelQuery;
import dev.jtecs.stress.ReferenceWorld.Init;
import dev.jtecs.mutation.BatchCallback;
import dev.jtecs.mutation.BatchIds;
import dev.jtecs.world.World;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.LongFunction;

/**
 * The bulk calls of a model run that restore keys or fail on purpose: {@code batchSpawnAtRaw} (ids from a native
 * array whose arena is closed as soon as the call returns, keys written by the initializer and claimed at
 * placement, some of them missing, duplicated or held so the publication fails), spawn initializers and
 * {@code batchSet} writers that throw, and {@code EntityKey} in the bulk calls that must reject it.
 *
 * <p>A failing spawn batch may share its transaction with any other work: the reference replays what a failed
 * wave keeps. A failing writer is called alone in its transaction (on the staged path what is staged is
 * committed before it, and it is committed at once), so every archetype it captured is still whole when it
 * runs and the reference can replay its calls from what the writer saw.
 *
 * <p>It also issues {@code batchSet} of a component that requires {@code EntityKey}, which the world must reject
 * as it rejects {@code EntityKey} itself ({@code -Djtecs.modelKeyedBatchSet=false} leaves those calls out).
 */
final class ModelRestores {
    private final ModelRun run;

    ModelRestores(ModelRun run) {
        this.run = run;
    }

    /** Executes {@code op}, one of these calls. */
    void execute(World world, ModelOp op) {
        boolean alone = (op instanceof ModelOp.Restore || op instanceof ModelOp.FailingSpawn)
                && run.isRelational() && !run.isInstant();
        if (alone) {
            // a failed wave discards the edge removals and cascades its despawns staged (dangling edges the
            // reference does not predict): in relational runs these batches publish alone
            run.commit(world);
        }
        switch (op) {
            case ModelOp.Restore r -> restore(world, r);
            case ModelOp.FailingSpawn f -> failingSpawn(world, f);
            case ModelOp.FailingWriter f -> failingWriter(world, f);
            case ModelOp.KeyRejection k -> keyRejection(world, k);
            default -> throw new IllegalArgumentException("not a model operation the run knows: " + op);
        }
        if (alone && (world.hasPendingChanges() || run.model().hasPending())) {
            run.commit(world);
        }
    }

    // ---------------------------------------------------------------- batchSpawnAtRaw

    private void restore(World world, ModelOp.Restore op) {
        long[] ids = legalIds(op.ids());
        KeyPlan plan = op.keys().plan();
        if (plan == KeyPlan.CONSTANT) {
            ids = new long[] {ids[0]};
        }
        List<Input> inputs = new ArrayList<>(op.inputs());
        List<Component<?>> rewritten = op.init();
        LongFunction<String> keys = null;
        boolean rejected = false;
        if (plan == KeyPlan.CONSTANT) {
            String key = op.keys().held() >= 0 ? heldKey(op.keys().held()) : null;
            key = key != null ? key : freshKey(ids[0]);
            inputs.add(KEY.of(key));
            run.triedKey(key);
            rejected = run.model().holderOf(key) != 0; // checked at the call
        } else if (plan != KeyPlan.NONE) {
            inputs.add(op.keys().input() == null ? KEY : op.keys().input());
            keys = plan == KeyPlan.NO_INITIALIZER ? null : keyPlan(plan, ids, op.keys().odd(), op.keys().held());
            rewritten = plan == KeyPlan.NO_INITIALIZER ? null : rewritten == null ? List.of() : rewritten;
            for (long id : ids) {
                run.triedKey(keys == null ? null : keys.apply(id));
            }
        }
        int count = op.badCount() < 0 ? -1 : op.badCount() > 0 ? ids.length + 1 : ids.length;
        rejected |= op.badCount() != 0;
        BatchCallback initializer = rewritten == null ? null : ModelRewrites.keyedInitializer(rewritten, keys);
        long[] chosen = ids;
        run.note("  ids " + ModelBatchCalls.describeIds(ids) + " count=" + count + (rejected ? ": expect rejection"
                : ""));
        if (rejected) {
            run.expectRejection(world, () -> spawnAtRaw(world, chosen, count, inputs, initializer));
            return;
        }
        RuntimeException thrown = call(() -> spawnAtRaw(world, chosen, count, inputs, initializer));
        run.model().batchSpawnAt(ids, inputs, new Init(rewritten == null ? List.of() : rewritten, keys, false));
        run.settle(thrown);
        bindAll(op.firstHandle(), ids);
        run.maybeObserve(op.observe(), ids[0]);
    }

    /**
     * The keys an initializer writes: fresh ones derived from each id, one written twice ({@code TWIN}), one a
     * live entity holds ({@code HELD}), or one not written at all ({@code MISSING}), so the publication fails
     * unless the odd member is cancelled first (or the holder despawned).
     */
    private LongFunction<String> keyPlan(KeyPlan plan, long[] ids, int oddIndex, int heldIndex) {
        long odd = ids[oddIndex % ids.length];
        if (plan == KeyPlan.TWIN && ids.length > 1) {
            long twin = ids[(oddIndex % ids.length + 1) % ids.length];
            return id -> freshKey(id == odd ? twin : id);
        }
        String held = plan == KeyPlan.HELD ? heldKey(heldIndex) : null;
        if (held != null) {
            return id -> id == odd ? held : freshKey(id);
        }
        if (plan == KeyPlan.MISSING) {
            return id -> id == odd ? null : freshKey(id);
        }
        return ModelRestores::freshKey;
    }

    /** A key derived from the id: distinct for distinct ids. */
    static String freshKey(long id) {
        return "k" + Entity.slot(id) + "." + Entity.generation(id);
    }

    /** The key of a live keyed entity ({@code index} modulo how many hold one), or {@code null} when none does. */
    private String heldKey(int index) {
        List<String> held = new ArrayList<>();
        for (var row : run.model().rows().values()) {
            if (row.get(KEY) instanceof String key) {
                held.add(key);
            }
        }
        return held.isEmpty() ? null : held.get(index % held.size());
    }

    /** Copies the ids into a native array with a live id behind them, calls, and closes the array at once. */
    private void spawnAtRaw(World world, long[] ids, int count, List<Input> inputs, BatchCallback initializer) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment array = arena.allocate(ValueLayout.JAVA_LONG, ids.length + 1L);
            for (int i = 0; i < ids.length; i++) {
                array.setAtIndex(ValueLayout.JAVA_LONG, i, ids[i]);
            }
            long behind = run.model().aliveCount() > 0 ? run.model().aliveIds().get(0) : 0L;
            array.setAtIndex(ValueLayout.JAVA_LONG, ids.length, behind); // beyond count: must not be read
            MemorySegment passed = count > ids.length ? array.asSlice(0, (long) ids.length * Long.BYTES) : array;
            run.calls().batchSpawnAtRaw(world, passed, count, inputs, initializer);
        }
    }

    /**
     * The ids among the candidates that {@code spawnAt} would accept now, in distinct slots; when none is, one
     * slot past every slot seen.
     */
    private long[] legalIds(List<ModelRef> candidates) {
        List<Long> ids = new ArrayList<>();
        Set<Integer> slots = new HashSet<>();
        for (long id : run.resolveAll(candidates)) {
            if (run.isFree(id) && slots.add(Entity.slot(id))) {
                ids.add(id);
            }
        }
        if (ids.isEmpty()) {
            ids.add(run.resolve(new ModelRef.Beyond(1, 0)));
        }
        return ids.stream().mapToLong(Long::longValue).toArray();
    }

    private void bindAll(int firstHandle, long[] ids) {
        for (int i = 0; i < ids.length; i++) {
            run.bind(firstHandle + i, ids[i]);
        }
    }

    // ---------------------------------------------------------------- failing callbacks

    /** A spawn batch whose initializer throws: its rows are taken back and its ids released. */
    private void failingSpawn(World world, ModelOp.FailingSpawn op) {
        List<Input> inputs = op.inputs();
        ModelRewrites.Failing initializer = new ModelRewrites.Failing(ModelRewrites.initializer(op.init()), 0);
        Init init = new Init(op.init(), null, true);
        if (op.mode() == 0) {
            int count = Math.max(1, op.count());
            BatchIds[] ids = new BatchIds[1];
            RuntimeException thrown = call(() -> ids[0] = run.calls().batchSpawn(world, count, inputs, initializer));
            long[] all = ids[0] != null ? ids[0].toArray()
                    : initializer.failedRows().stream().mapToLong(Long::longValue).toArray();
            run.check(all.length == count, "the failing initializer saw " + all.length + " of " + count + " rows");
            run.model().batchSpawn(all, inputs, init);
            expectFailure(thrown);
            bindAll(op.firstHandle(), all);
            return;
        }
        long[] ids = legalIds(op.ids());
        run.note("  ids " + ModelBatchCalls.describeIds(ids));
        RuntimeException thrown = call(op.mode() == 1
                ? () -> run.calls().batchSpawnAt(world, ids, inputs, initializer)
                : () -> spawnAtRaw(world, ids, ids.length, inputs, initializer));
        run.model().batchSpawnAt(ids, inputs, init);
        expectFailure(thrown);
        bindAll(op.firstHandle(), ids);
    }

    /**
     * A {@code batchSet} writer that throws on its first, second or third call, alone in its transaction (what
     * is staged is committed first): the calls before it complete, the rows it was given keep the move they
     * were given (a whole archetype that moved stays moved), the rest is untouched.
     */
    private void failingWriter(World world, ModelOp.FailingWriter op) {
        ModelQuery query = run.queries().get(op.query());
        Component<?> component = op.component();
        if (run.model().hasPending() || world.hasPendingChanges()) {
            run.commit(world); // the writer's transaction holds nothing else
        }
        ModelRewrites.Failing writer = new ModelRewrites.Failing(ModelRewrites.writer(component), op.failAt());
        RuntimeException thrown = call(() -> run.calls().batchSet(world, query.query(), component, writer));
        List<Long> selected = run.model().batchRewrite(query.rule(), component, writer);
        if (run.isInstant()) {
            run.settle(thrown);
            for (long id : writer.completed()) {
                run.expectDirty(id, component);
            }
        } else {
            run.check(thrown == null, "a staged batch set threw " + thrown);
            run.commit(world);
        }
        Set<Long> seen = new HashSet<>(writer.completed());
        seen.addAll(writer.failedRows());
        run.check(selected.containsAll(seen), "the writer was given rows of entities the query did not select");
        run.check(op.failAt() > 0 || selected.isEmpty() || writer.failed(), "the writer was never called");
    }

    /** On the instant path the call itself failed at publication, with the callback's own exception. */
    private void expectFailure(RuntimeException thrown) {
        if (thrown != null && !ModelRewrites.Failing.MESSAGE.equals(thrown.getMessage())) {
            run.fail("the call failed with another exception than the callback's: " + thrown);
        }
        run.settle(thrown);
    }

    // ---------------------------------------------------------------- EntityKey in bulk calls

    /** {@code EntityKey}, named or required, in a bulk call other than a restoration from a raw array. */
    private void keyRejection(World world, ModelOp.KeyRejection op) {
        List<Input> inputs = op.inputs();
        ModelQuery query = run.queries().get(op.query());
        BatchCallback nothing = (archetype, fromRow, toRow) -> { };
        WorldCalls calls = run.calls();
        switch (op.call()) {
            case 0 -> run.expectRejection(world, () -> calls.batchSpawn(world, Math.max(1, op.count()), inputs, null));
            case 1 -> {
                long[] ids = legalIds(op.ids());
                run.expectRejection(world, () -> calls.batchSpawnAt(world, ids, inputs, nothing));
            }
            case 2 -> run.expectRejection(world, () -> calls.batchSet(world, query.query(), KEY.of("boss")));
            case 3 -> run.expectRejection(world, () -> calls.batchSet(world, query.query(), KEY, nothing));
            case 4 -> run.expectRejection(world, () -> calls.batchSet(world, query.query(), KEYED));
            default -> run.expectRejection(world, () -> calls.batchSet(world, query.query(), KEYED, nothing));
        }
    }

    private static RuntimeException call(Runnable call) {
        try {
            call.run();
            return null;
        } catch (RuntimeException e) {
            return e;
        }
    }
}
