package dev.jtecs.stress;

import static dev.jtecs.stress.ModelComponents.KEY;
import static dev.jtecs.stress.ModelComponents.KEYED;

import dev.jtecs.component.Component;
import dev.jtecs.component.Input;
import dev.jtecs.entity.Entity;
import dev.jtecs.stress.ModelQueries.ModelQuery;
import dev.jtecs.stress.ReferenceWorld.Init;
import dev.jtecs.world.BatchCallback;
import dev.jtecs.world.BatchIds;
import dev.jtecs.world.World;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
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
    /** The width of the roll {@link #apply} takes. */
    static final int ROLLS = 30;

    private static final boolean KEYED_BATCH_SET =
            Boolean.parseBoolean(System.getProperty("jtecs.modelKeyedBatchSet", "true"));

    private final ModelRun run;

    ModelRestores(ModelRun run) {
        this.run = run;
    }

    /** One call, chosen by {@code roll} in {@code [0, ROLLS)}. */
    void apply(World world, int roll) {
        if (roll < 19 && run.isRelational() && !run.isInstant()) {
            // a failed wave discards the edge removals and cascades its despawns staged (dangling edges the
            // reference does not predict): in relational runs these batches publish alone
            run.commit(world);
            applyNow(world, roll);
            if (world.hasPendingChanges() || run.model().hasPending()) {
                run.commit(world);
            }
            return;
        }
        applyNow(world, roll);
    }

    private void applyNow(World world, int roll) {
        if (roll < 14) {
            restore(world);
        } else if (roll < 19) {
            failingSpawn(world);
        } else if (roll < 24) {
            failingWriter(world);
        } else {
            keyRejection(world);
        }
    }

    // ---------------------------------------------------------------- batchSpawnAtRaw

    private void restore(World world) {
        SplittableRandom random = run.random();
        long[] ids = legalIds(random.nextInt(1, 6));
        List<Input> inputs = new ArrayList<>(List.of(run.randomInputs()));
        List<Component<?>> rewritten = ModelBatchCalls.randomRewrites(random);
        LongFunction<String> keys = null;
        String plan = "unkeyed";
        boolean rejected = false;
        if (random.nextInt(4) != 0) {
            int policy = random.nextInt(10);
            if (policy == 9 && ids.length == 1) {
                String key = random.nextBoolean() ? heldKey(random) : null;
                key = key != null ? key : freshKey(ids[0]);
                inputs.add(KEY.of(key));
                run.triedKey(key);
                rejected = run.model().holderOf(key) != 0; // checked at the call
                plan = "constant " + key;
            } else {
                inputs.add(random.nextBoolean() ? KEY : KEYED);
                keys = policy == 9 ? null : keyPlan(random, ids, policy);
                rewritten = policy == 9 ? null : rewritten == null ? List.of() : rewritten;
                plan = policy == 9 ? "keyed, no initializer" : "keyed, policy " + policy;
                for (long id : ids) {
                    run.triedKey(keys == null ? null : keys.apply(id));
                }
            }
        }
        int count = ids.length;
        if (random.nextInt(12) == 0) {
            count = random.nextBoolean() ? -1 : ids.length + 1; // negative, or longer than the array
            rejected = true;
        }
        BatchCallback initializer = rewritten == null ? null : ModelRewrites.keyedInitializer(rewritten, keys);
        run.note("batchSpawnAtRaw " + ModelBatchCalls.describeIds(ids) + " count=" + count + " "
                + ModelRun.describe(inputs.toArray(new Input[0])) + " init=" + ModelBatchCalls.names(rewritten)
                + " " + plan + (rejected ? " (expect rejection)" : ""));
        int n = count;
        if (rejected) {
            run.expectRejection(world, () -> spawnAtRaw(world, ids, n, inputs, initializer));
            return;
        }
        RuntimeException thrown = call(() -> spawnAtRaw(world, ids, n, inputs, initializer));
        run.model().batchSpawnAt(ids, inputs, new Init(rewritten == null ? List.of() : rewritten, keys, false));
        run.settle(thrown);
        run.seen(ids);
        if (run.model().isKnownLiveOrReserved(ids[0])) {
            run.maybeObserve(world, ids[0]);
        }
    }

    /**
     * The keys an initializer writes: fresh ones derived from each id (policies 0 to 5), one written twice (6),
     * one a live entity holds (7), or one not written at all (8), so the publication fails unless the odd
     * member is cancelled first (or the holder despawned).
     */
    private LongFunction<String> keyPlan(SplittableRandom random, long[] ids, int policy) {
        long odd = ids[random.nextInt(ids.length)];
        if (policy == 6 && ids.length > 1) {
            long twin = ids[(indexOf(ids, odd) + 1) % ids.length];
            return id -> freshKey(id == odd ? twin : id);
        }
        String held = policy == 7 ? heldKey(random) : null;
        if (held != null) {
            return id -> id == odd ? held : freshKey(id);
        }
        if (policy == 8) {
            return id -> id == odd ? null : freshKey(id);
        }
        return ModelRestores::freshKey;
    }

    private static int indexOf(long[] ids, long id) {
        int i = 0;
        while (ids[i] != id) {
            i++;
        }
        return i;
    }

    /** A key derived from the id: distinct for distinct ids. */
    static String freshKey(long id) {
        return "k" + Entity.slot(id) + "." + Entity.generation(id);
    }

    /** The key of a random live keyed entity, or {@code null} when none holds one. */
    private String heldKey(SplittableRandom random) {
        List<String> held = new ArrayList<>();
        for (var row : run.model().rows().values()) {
            if (row.get(KEY) instanceof String key) {
                held.add(key);
            }
        }
        return held.isEmpty() ? null : held.get(random.nextInt(held.size()));
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
            world.batchSpawnAtRaw(passed, count, inputs, initializer);
        }
    }

    /** Up to {@code n} ids that {@code spawnAt} would accept now, in distinct slots (at least one). */
    private long[] legalIds(int n) {
        List<Long> ids = new ArrayList<>();
        Set<Integer> slots = new HashSet<>();
        for (int tries = 0; ids.size() < n && tries < 4 * n; tries++) {
            long id = run.candidateForSpawnAt();
            if (Entity.isWellFormed(id) && slots.add(Entity.slot(id)) && run.isFree(id)) {
                ids.add(id);
            }
        }
        while (ids.isEmpty()) {
            long id = run.candidateForSpawnAt();
            if (Entity.isWellFormed(id) && run.isFree(id)) {
                ids.add(id);
            }
        }
        return ids.stream().mapToLong(Long::longValue).toArray();
    }

    // ---------------------------------------------------------------- failing callbacks

    /** A spawn batch whose initializer throws: its rows are taken back and its ids released. */
    private void failingSpawn(World world) {
        SplittableRandom random = run.random();
        List<Input> inputs = List.of(run.randomInputs());
        List<Component<?>> rewritten = ModelBatchCalls.randomRewrites(random);
        rewritten = rewritten == null ? List.of() : rewritten;
        ModelRewrites.Failing initializer = new ModelRewrites.Failing(ModelRewrites.initializer(rewritten), 0);
        Init init = new Init(rewritten, null, true);
        int mode = random.nextInt(3);
        if (mode == 0) {
            int count = random.nextInt(1, 9);
            run.note("batchSpawn " + count + " " + ModelRun.describe(inputs.toArray(new Input[0]))
                    + " with a throwing initializer");
            BatchIds[] ids = new BatchIds[1];
            RuntimeException thrown = call(() -> ids[0] = world.batchSpawn(count, inputs, initializer));
            long[] all = ids[0] != null ? ids[0].toArray()
                    : initializer.failedRows().stream().mapToLong(Long::longValue).toArray();
            run.check(all.length == count, "the failing initializer saw " + all.length + " of " + count + " rows");
            run.model().batchSpawn(all, inputs, init);
            expectFailure(thrown);
            run.seen(all);
            return;
        }
        long[] ids = legalIds(random.nextInt(1, 6));
        run.note((mode == 1 ? "batchSpawnAt " : "batchSpawnAtRaw ") + ModelBatchCalls.describeIds(ids) + " "
                + ModelRun.describe(inputs.toArray(new Input[0])) + " with a throwing initializer");
        RuntimeException thrown = call(mode == 1 ? () -> world.batchSpawnAt(ids, inputs, initializer)
                : () -> spawnAtRaw(world, ids, ids.length, inputs, initializer));
        run.model().batchSpawnAt(ids, inputs, init);
        expectFailure(thrown);
        run.seen(ids);
    }

    /**
     * A {@code batchSet} writer that throws on its first, second or third call, alone in its transaction (what
     * is staged is committed first): the calls before it complete, the rows it was given keep the move they
     * were given (a whole archetype that moved stays moved), the rest is untouched.
     */
    private void failingWriter(World world) {
        SplittableRandom random = run.random();
        ModelQuery query = run.queries().pick(random);
        Component<?> component = run.pickComponent();
        int failAt = random.nextInt(3);
        if (run.model().hasPending() || world.hasPendingChanges()) {
            run.commit(world); // the writer's transaction holds nothing else
        }
        ModelRewrites.Failing writer = new ModelRewrites.Failing(ModelRewrites.writer(component), failAt);
        run.note("batchSet " + query.name() + " " + component.name() + " with a writer that throws on call "
                + failAt);
        RuntimeException thrown = call(() -> world.batchSet(query.query(), component, writer));
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
        run.check(failAt > 0 || selected.isEmpty() || writer.failed(), "the writer was never called");
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
    private void keyRejection(World world) {
        SplittableRandom random = run.random();
        Component<?> keyed = random.nextBoolean() ? KEY : KEYED;
        List<Input> inputs = new ArrayList<>(List.of(run.randomInputs()));
        inputs.add(random.nextInt(inputs.size() + 1), keyed);
        ModelQuery query = run.queries().pick(random);
        BatchCallback nothing = (archetype, fromRow, toRow) -> { };
        switch (random.nextInt(KEYED_BATCH_SET ? 6 : 4)) {
            case 0 -> {
                int count = random.nextInt(1, 5);
                run.note("batchSpawn " + count + " " + ModelRun.describe(inputs.toArray(new Input[0]))
                        + " (expect rejection: EntityKey)");
                run.expectRejection(world, () -> world.batchSpawn(count, inputs, null));
            }
            case 1 -> {
                long[] ids = legalIds(random.nextInt(1, 4));
                run.note("batchSpawnAt " + ModelBatchCalls.describeIds(ids) + " "
                        + ModelRun.describe(inputs.toArray(new Input[0])) + " (expect rejection: EntityKey)");
                run.expectRejection(world, () -> world.batchSpawnAt(ids, inputs, nothing));
            }
            case 2 -> {
                run.note("batchSet " + query.name() + " Key(boss) (expect rejection)");
                run.expectRejection(world, () -> world.batchSet(query.query(), KEY.of("boss")));
            }
            case 3 -> {
                run.note("batchSet " + query.name() + " Key with a writer (expect rejection)");
                run.expectRejection(world, () -> world.batchSet(query.query(), KEY, nothing));
            }
            case 4 -> {
                run.note("batchSet " + query.name() + " Keyed (expect rejection: requires EntityKey)");
                run.expectRejection(world, () -> world.batchSet(query.query(), KEYED));
            }
            default -> {
                run.note("batchSet " + query.name() + " Keyed with a writer (expect rejection: requires EntityKey)");
                run.expectRejection(world, () -> world.batchSet(query.query(), KEYED, nothing));
            }
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
