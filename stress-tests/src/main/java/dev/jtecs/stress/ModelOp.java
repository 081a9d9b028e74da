package dev.jtecs.stress;

import dev.jtecs.component.Component;
import dev.jtecs.component.Input;
import dev.jtecs.stress.ModelInput.EdgeTo;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.StringJoiner;

/**
 * One recorded operation of a model run: plain data that {@link ModelRun} executes against the world and the
 * reference, deciding at execution (from the reference's state) whether the call is legal, so a script replays
 * the same way from any seed-free start and stays executable when the shrinker removes operations from it.
 *
 * <p>Entities are named by {@link ModelRef}; each spawning operation binds its handles from {@code handle} (or
 * {@code firstHandle}) up, in the order of the ids it spawned, and binds none when the world rejects it.
 * Queries are indexes into {@link ModelQueries}. {@link #toJava()} writes the factory call that rebuilds the
 * operation, so a script prints as the body of a test ({@link ModelSource#junit}).
 */
public sealed interface ModelOp {
    /** The factory call that rebuilds this operation (with {@code ModelOp.*} and {@code ModelComponents.*}). */
    String toJava();

    /** Simpler variants of this operation for the shrinker to try (fewer inputs, smaller counts); may be empty. */
    default List<ModelOp> simpler() {
        return List.of();
    }

    // ---------------------------------------------------------------- single-entity calls

    /** {@code spawn(inputs)} bound to {@code handle}; {@code observe} adds an {@code OnDespawn} observer at it. */
    record Spawn(int handle, boolean observe, List<ModelInput> inputs) implements ModelOp {
        public Spawn {
            inputs = List.copyOf(inputs);
        }

        @Override
        public String toJava() {
            return "spawn(" + handle + ", " + observe + args(inputs) + ")";
        }

        @Override
        public List<ModelOp> simpler() {
            List<ModelOp> simpler = new ArrayList<>();
            if (observe) {
                simpler.add(new Spawn(handle, false, inputs));
            }
            for (List<ModelInput> fewer : fewer(inputs)) {
                simpler.add(new Spawn(handle, observe, fewer));
            }
            return simpler;
        }
    }

    /** {@code spawnAt(id, inputs)} bound to {@code handle} when legal (a free slot), else expected to throw. */
    record SpawnAt(int handle, ModelRef id, boolean observe, List<ModelInput> inputs) implements ModelOp {
        public SpawnAt {
            Objects.requireNonNull(id, "id");
            inputs = List.copyOf(inputs);
        }

        @Override
        public String toJava() {
            return "spawnAt(" + handle + ", " + id.toJava() + ", " + observe + args(inputs) + ")";
        }

        @Override
        public List<ModelOp> simpler() {
            List<ModelOp> simpler = new ArrayList<>();
            if (observe) {
                simpler.add(new SpawnAt(handle, id, false, inputs));
            }
            for (List<ModelInput> fewer : fewer(inputs)) {
                simpler.add(new SpawnAt(handle, id, observe, fewer));
            }
            return simpler;
        }
    }

    /** {@code set(id, input)}: a value, or an edge (a dead target must be rejected). */
    record SetInput(ModelRef id, ModelInput input) implements ModelOp {
        public SetInput {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(input, "input");
        }

        @Override
        public String toJava() {
            return "set(" + id.toJava() + ", " + input.toJava() + ")";
        }
    }

    /**
     * {@code set(id, edge)} as one of a burst of reparentings ({@code ModelGenerator}'s bursts, drawn apart from
     * the other operations): executed exactly as {@link SetInput} of the edge.
     */
    record Reparent(ModelRef id, ModelInput.EdgeTo edge) implements ModelOp {
        public Reparent {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(edge, "edge");
        }

        /** The same call as a {@link SetInput}. */
        SetInput asSet() {
            return new SetInput(id, edge);
        }

        @Override
        public String toJava() {
            return asSet().toJava();
        }
    }

    /** {@code remove(id, component)}; a relationship removes every edge of it. */
    record Remove(ModelRef id, Component<?> component) implements ModelOp {
        public Remove {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(component, "component");
        }

        @Override
        public String toJava() {
            return "remove(" + id.toJava() + ", " + ModelSource.constant(component) + ")";
        }
    }

    /** {@code remove(id, REL.to(target))}; skipped when the world never met the pair (it stages nothing then). */
    record RemoveEdge(ModelRef id, EdgeTo edge) implements ModelOp {
        public RemoveEdge {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(edge, "edge");
        }

        @Override
        public String toJava() {
            return "removeEdge(" + id.toJava() + ", " + edge.toJava() + ")";
        }
    }

    /** {@code setTag(id, tag)} ({@code set}) or {@code unsetTag(id, tag)} of a partition tag. */
    record PartitionTag(ModelRef id, dev.jtecs.component.TagComponent tag, boolean set) implements ModelOp {
        public PartitionTag {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(tag, "tag");
        }

        @Override
        public String toJava() {
            return "partitionTag(" + id.toJava() + ", " + ModelSource.constant(tag) + ", " + set + ")";
        }
    }

    record Despawn(ModelRef id) implements ModelOp {
        public Despawn {
            Objects.requireNonNull(id, "id");
        }

        @Override
        public String toJava() {
            return "despawn(" + id.toJava() + ")";
        }
    }

    /**
     * A field of a native component written in place, {@code value} converted to the field's kind
     * ({@link ModelFieldWrites#value}): {@code world.write} ({@link ModelFieldWrites#WRITE}), {@code at(id).set}
     * through the run's row writer of the component ({@link ModelFieldWrites#ROW}), or {@code set} alone on the row
     * that writer found last ({@link ModelFieldWrites#AGAIN}, which ignores {@code id}).
     */
    record FieldWrite(ModelRef id, Component<?> component, int field, int value, int mode) implements ModelOp {
        public FieldWrite {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(component, "component");
        }

        @Override
        public String toJava() {
            return "fieldWrite(" + id.toJava() + ", " + ModelSource.constant(component) + ", " + field + ", " + value
                    + ", " + mode + ")";
        }
    }

    /** Compares one entity (any id, live or not) with the reference. */
    record Read(ModelRef id) implements ModelOp {
        public Read {
            Objects.requireNonNull(id, "id");
        }

        @Override
        public String toJava() {
            return "read(" + id.toJava() + ")";
        }
    }

    /**
     * Closes the transaction (staged path) and compares everything; {@code compact} compacts the quiet world
     * first; {@code root} is where the relationship reads start.
     */
    record Commit(boolean compact, ModelRef root) implements ModelOp {
        public Commit {
            Objects.requireNonNull(root, "root");
        }

        @Override
        public String toJava() {
            return "commit(" + compact + ", " + root.toJava() + ")";
        }

        @Override
        public List<ModelOp> simpler() {
            return compact ? List.of(new Commit(false, root)) : List.of();
        }
    }

    /**
     * Commits, then saves the quiet world and loads the snapshot back into it ({@code mode}: 0 the table tree,
     * 1 the table as JSON reads it back, 2 binary into a reused buffer, 3 binary through a file); the run checks
     * that nothing observable changed and that saving again gives the same snapshot.
     */
    record SaveLoad(int mode, ModelRef root) implements ModelOp {
        public SaveLoad {
            Objects.requireNonNull(root, "root");
            if (mode < 0 || mode >= ModelSnapshots.MODES) {
                throw new IllegalArgumentException("mode=" + mode + " outside 0.." + (ModelSnapshots.MODES - 1));
            }
        }

        @Override
        public String toJava() {
            return "saveLoad(" + mode + ", " + root.toJava() + ")";
        }

        @Override
        public List<ModelOp> simpler() {
            return mode == 0 ? List.of(new Commit(false, root)) : List.of(new SaveLoad(0, root));
        }
    }

    // ---------------------------------------------------------------- bulk calls

    /**
     * {@code batchSpawn(count, inputs, initializer)}: {@code init} lists what the initializer rewrites
     * ({@code null}: none); {@code observe} is the index of the member that gets an observer, or -1; a count
     * below 1 must be rejected.
     */
    record BatchSpawn(int firstHandle, int count, List<Component<?>> init, int observe, List<ModelInput> inputs)
            implements ModelOp {
        public BatchSpawn {
            init = init == null ? null : List.copyOf(init);
            inputs = List.copyOf(inputs);
        }

        @Override
        public String toJava() {
            return "batchSpawn(" + firstHandle + ", " + count + ", " + ModelSource.components(init) + ", " + observe
                    + args(inputs) + ")";
        }

        @Override
        public List<ModelOp> simpler() {
            List<ModelOp> simpler = new ArrayList<>();
            if (count > 1) {
                simpler.add(new BatchSpawn(firstHandle, 1, init, observe == -1 ? -1 : 0, inputs));
                simpler.add(new BatchSpawn(firstHandle, count / 2, init, Math.min(observe, count / 2 - 1), inputs));
            }
            if (init != null) {
                simpler.add(new BatchSpawn(firstHandle, count, null, observe, inputs));
            }
            if (observe >= 0) {
                simpler.add(new BatchSpawn(firstHandle, count, init, -1, inputs));
            }
            for (List<ModelInput> fewer : fewer(inputs)) {
                simpler.add(new BatchSpawn(firstHandle, count, init, observe, fewer));
            }
            return simpler;
        }
    }

    /** {@code batchSpawnAt(ids, inputs, initializer)}: rejected unless the ids are well formed, distinct and free. */
    record BatchSpawnAt(int firstHandle, List<ModelRef> ids, List<Component<?>> init, int observe,
            List<ModelInput> inputs) implements ModelOp {
        public BatchSpawnAt {
            ids = List.copyOf(ids);
            init = init == null ? null : List.copyOf(init);
            inputs = List.copyOf(inputs);
        }

        @Override
        public String toJava() {
            return "batchSpawnAt(" + firstHandle + ", " + refs(ids) + ", " + ModelSource.components(init) + ", "
                    + observe + args(inputs) + ")";
        }

        @Override
        public List<ModelOp> simpler() {
            List<ModelOp> simpler = new ArrayList<>();
            if (init != null) {
                simpler.add(new BatchSpawnAt(firstHandle, ids, null, observe, inputs));
            }
            if (observe >= 0) {
                simpler.add(new BatchSpawnAt(firstHandle, ids, init, -1, inputs));
            }
            for (List<ModelInput> fewer : fewer(inputs)) {
                simpler.add(new BatchSpawnAt(firstHandle, ids, init, observe, fewer));
            }
            return simpler;
        }
    }

    /** {@code batchSet(query, value)}: a value, or an edge (a dead target must be rejected). */
    record BatchSet(int query, ModelInput value) implements ModelOp {
        public BatchSet {
            Objects.requireNonNull(value, "value");
        }

        @Override
        public String toJava() {
            return "batchSet(" + query + ", " + value.toJava() + ")";
        }
    }

    /** {@code batchSet(query, component, writer)} with the {@link ModelRewrites#writer} of the component. */
    record BatchRewrite(int query, Component<?> component) implements ModelOp {
        public BatchRewrite {
            Objects.requireNonNull(component, "component");
        }

        @Override
        public String toJava() {
            return "batchRewrite(" + query + ", " + ModelSource.constant(component) + ")";
        }
    }

    /** {@code batchRemove(query, component)}; a relationship removes every edge of it. */
    record BatchRemove(int query, Component<?> component) implements ModelOp {
        public BatchRemove {
            Objects.requireNonNull(component, "component");
        }

        @Override
        public String toJava() {
            return "batchRemove(" + query + ", " + ModelSource.constant(component) + ")";
        }
    }

    /** {@code batchRemove(query, REL.to(target))}; skipped when the world never met the pair. */
    record BatchRemoveEdge(int query, EdgeTo edge) implements ModelOp {
        public BatchRemoveEdge {
            Objects.requireNonNull(edge, "edge");
        }

        @Override
        public String toJava() {
            return "batchRemoveEdge(" + query + ", " + edge.toJava() + ")";
        }
    }

    record BatchDespawn(int query) implements ModelOp {
        @Override
        public String toJava() {
            return "batchDespawn(" + query + ")";
        }
    }

    record ClearEntities() implements ModelOp {
        @Override
        public String toJava() {
            return "clearEntities()";
        }
    }

    // ---------------------------------------------------------------- restorations and failing callbacks

    /** How a restoration's keys are planned (see {@link ModelRestores}). */
    enum KeyPlan {
        /** No key at all. */
        NONE,
        /** {@code EntityKey} with a constant key as an input, on the first id only (held when one is held). */
        CONSTANT,
        /** Keyed rows, a fresh key per id written by the initializer. */
        FRESH,
        /** One id writes its neighbour's key: the publication fails (one id: as {@link #FRESH}). */
        TWIN,
        /** One id writes a key a live entity holds (none held: as {@link #FRESH}). */
        HELD,
        /** One id's key is not written: the publication fails. */
        MISSING,
        /** Keyed rows and no initializer: every key stays empty and the publication fails. */
        NO_INITIALIZER
    }

    /**
     * A restoration's keys: the plan, the keyed input ({@code KEY} or {@code KEYED}, or {@code null} for
     * {@link KeyPlan#NONE} and {@link KeyPlan#CONSTANT}), the odd member's index and the held key's index
     * (both modulo what exists at execution; {@code held} -1 asks a constant key to be fresh).
     */
    record Keys(KeyPlan plan, Component<?> input, int odd, int held) {
        public Keys {
            Objects.requireNonNull(plan, "plan");
        }

        String toJava() {
            return "keys(KeyPlan." + plan + ", " + (input == null ? "null" : ModelSource.constant(input)) + ", " + odd + ", "
                    + held + ")";
        }
    }

    /**
     * {@code batchSpawnAtRaw} of the legal ids among {@code ids} (at least one), ids in a native array closed as
     * soon as the call returns; {@code badCount} -1 passes a negative count, +1 one past the array (both rejected).
     */
    record Restore(int firstHandle, List<ModelRef> ids, List<Component<?>> init, Keys keys, int badCount,
            boolean observe, List<Input> inputs) implements ModelOp {
        public Restore {
            ids = List.copyOf(ids);
            init = init == null ? null : List.copyOf(init);
            Objects.requireNonNull(keys, "keys");
            inputs = List.copyOf(inputs);
        }

        @Override
        public String toJava() {
            return "restore(" + firstHandle + ", " + refs(ids) + ", " + ModelSource.components(init) + ", "
                    + keys.toJava() + ", " + badCount + ", " + observe + plain(inputs) + ")";
        }

        @Override
        public List<ModelOp> simpler() {
            List<ModelOp> simpler = new ArrayList<>();
            if (ids.size() > 1) {
                simpler.add(new Restore(firstHandle, ids.subList(0, 1), init, keys, badCount, observe, inputs));
            }
            if (observe) {
                simpler.add(new Restore(firstHandle, ids, init, keys, badCount, false, inputs));
            }
            for (List<Input> fewer : fewer(inputs)) {
                simpler.add(new Restore(firstHandle, ids, init, keys, badCount, observe, fewer));
            }
            return simpler;
        }
    }

    /**
     * A spawn batch whose initializer throws: {@code mode} 0 {@code batchSpawn(count)}, 1 {@code batchSpawnAt},
     * 2 {@code batchSpawnAtRaw} of the legal ids among {@code ids}.
     */
    record FailingSpawn(int firstHandle, int mode, int count, List<ModelRef> ids, List<Component<?>> init,
            List<Input> inputs) implements ModelOp {
        public FailingSpawn {
            ids = List.copyOf(ids);
            init = List.copyOf(init);
            inputs = List.copyOf(inputs);
        }

        @Override
        public String toJava() {
            return "failingSpawn(" + firstHandle + ", " + mode + ", " + count + ", " + refs(ids) + ", "
                    + ModelSource.components(init) + plain(inputs) + ")";
        }

        @Override
        public List<ModelOp> simpler() {
            List<ModelOp> simpler = new ArrayList<>();
            if (count > 1) {
                simpler.add(new FailingSpawn(firstHandle, mode, 1, ids, init, inputs));
            }
            for (List<Input> fewer : fewer(inputs)) {
                simpler.add(new FailingSpawn(firstHandle, mode, count, ids, init, fewer));
            }
            return simpler;
        }
    }

    /** A {@code batchSet} writer that throws on call {@code failAt}, alone in its transaction. */
    record FailingWriter(int query, Component<?> component, int failAt) implements ModelOp {
        public FailingWriter {
            Objects.requireNonNull(component, "component");
        }

        @Override
        public String toJava() {
            return "failingWriter(" + query + ", " + ModelSource.constant(component) + ", " + failAt + ")";
        }
    }

    /**
     * {@code EntityKey} (named or required) in a bulk call that must reject it: {@code call} 0 {@code batchSpawn},
     * 1 {@code batchSpawnAt}, 2 and 3 {@code batchSet} of the key (value, writer), 4 and 5 of {@code Keyed}.
     */
    record KeyRejection(int call, int count, List<ModelRef> ids, int query, List<Input> inputs) implements ModelOp {
        public KeyRejection {
            ids = List.copyOf(ids);
            inputs = List.copyOf(inputs);
        }

        @Override
        public String toJava() {
            return "keyRejection(" + call + ", " + count + ", " + refs(ids) + ", " + query + plain(inputs) + ")";
        }
    }

    // ---------------------------------------------------------------- observers and systems

    /**
     * Registers an {@code OnSpawn} observer at address 0 that stages more work for each spawned entity whose
     * slot is a multiple of {@code every}: it sets {@code value} on it, or despawns it when {@code value} is
     * {@code null}.
     */
    record ObserveSpawns(int every, Input value) implements ModelOp {
        public ObserveSpawns {
            if (every < 1) {
                throw new IllegalArgumentException("every=" + every + " must be at least 1");
            }
        }

        @Override
        public String toJava() {
            return "observeSpawns(" + every + ", " + (value == null ? "null" : ModelSource.input(value)) + ")";
        }
    }

    /** One frame, {@code world.update(dt)}, running the systems of {@link ModelSystems}. */
    record Update() implements ModelOp {
        @Override
        public String toJava() {
            return "update()";
        }
    }

    // ---------------------------------------------------------------- factories (what emitted tests call)

    static ModelRef h(int handle) {
        return new ModelRef.Handle(handle);
    }

    static ModelRef id(long id) {
        return new ModelRef.Raw(id);
    }

    static ModelRef revive(int handle, int generationStep) {
        return new ModelRef.Revive(handle, generationStep);
    }

    static ModelRef beyond(int slotStep, int generation) {
        return new ModelRef.Beyond(slotStep, generation);
    }

    static ModelRef slotOf(int index, int generation) {
        return new ModelRef.SlotOf(index, generation);
    }

    static EdgeTo edge(dev.jtecs.component.BaseRelationship<?> relationship, ModelRef target) {
        return new EdgeTo(relationship, target, null);
    }

    static EdgeTo edge(dev.jtecs.component.BaseRelationship<?> relationship, ModelRef target, Object payload) {
        return new EdgeTo(relationship, target, payload);
    }

    static Keys keys(KeyPlan plan, Component<?> input, int odd, int held) {
        return new Keys(plan, input, odd, held);
    }

    static Spawn spawn(int handle, boolean observe, Object... inputs) {
        return new Spawn(handle, observe, ModelInput.of(inputs));
    }

    static SpawnAt spawnAt(int handle, ModelRef id, boolean observe, Object... inputs) {
        return new SpawnAt(handle, id, observe, ModelInput.of(inputs));
    }

    static SetInput set(ModelRef id, Object input) {
        return new SetInput(id, ModelInput.of(input).get(0));
    }

    static Remove remove(ModelRef id, Component<?> component) {
        return new Remove(id, component);
    }

    static RemoveEdge removeEdge(ModelRef id, EdgeTo edge) {
        return new RemoveEdge(id, edge);
    }

    static PartitionTag partitionTag(ModelRef id, dev.jtecs.component.TagComponent tag, boolean set) {
        return new PartitionTag(id, tag, set);
    }

    static Despawn despawn(ModelRef id) {
        return new Despawn(id);
    }

    static FieldWrite fieldWrite(ModelRef id, Component<?> component, int field, int value, int mode) {
        return new FieldWrite(id, component, field, value, mode);
    }

    static Read read(ModelRef id) {
        return new Read(id);
    }

    static Commit commit(boolean compact, ModelRef root) {
        return new Commit(compact, root);
    }

    static SaveLoad saveLoad(int mode, ModelRef root) {
        return new SaveLoad(mode, root);
    }

    static BatchSpawn batchSpawn(int firstHandle, int count, List<Component<?>> init, int observe,
            Object... inputs) {
        return new BatchSpawn(firstHandle, count, init, observe, ModelInput.of(inputs));
    }

    static BatchSpawnAt batchSpawnAt(int firstHandle, List<ModelRef> ids, List<Component<?>> init, int observe,
            Object... inputs) {
        return new BatchSpawnAt(firstHandle, ids, init, observe, ModelInput.of(inputs));
    }

    static BatchSet batchSet(int query, Object value) {
        return new BatchSet(query, ModelInput.of(value).get(0));
    }

    static BatchRewrite batchRewrite(int query, Component<?> component) {
        return new BatchRewrite(query, component);
    }

    static BatchRemove batchRemove(int query, Component<?> component) {
        return new BatchRemove(query, component);
    }

    static BatchRemoveEdge batchRemoveEdge(int query, EdgeTo edge) {
        return new BatchRemoveEdge(query, edge);
    }

    static BatchDespawn batchDespawn(int query) {
        return new BatchDespawn(query);
    }

    static ClearEntities clearEntities() {
        return new ClearEntities();
    }

    static Restore restore(int firstHandle, List<ModelRef> ids, List<Component<?>> init, Keys keys, int badCount,
            boolean observe, Input... inputs) {
        return new Restore(firstHandle, ids, init, keys, badCount, observe, List.of(inputs));
    }

    static FailingSpawn failingSpawn(int firstHandle, int mode, int count, List<ModelRef> ids,
            List<Component<?>> init, Input... inputs) {
        return new FailingSpawn(firstHandle, mode, count, ids, init, List.of(inputs));
    }

    static FailingWriter failingWriter(int query, Component<?> component, int failAt) {
        return new FailingWriter(query, component, failAt);
    }

    static KeyRejection keyRejection(int call, int count, List<ModelRef> ids, int query, Input... inputs) {
        return new KeyRejection(call, count, ids, query, List.of(inputs));
    }

    static ObserveSpawns observeSpawns(int every, Input value) {
        return new ObserveSpawns(every, value);
    }

    static Update update() {
        return new Update();
    }

    // ---------------------------------------------------------------- source helpers

    private static String args(List<ModelInput> inputs) {
        StringBuilder sb = new StringBuilder();
        inputs.forEach(input -> sb.append(", ").append(input.toJava()));
        return sb.toString();
    }

    private static String plain(List<Input> inputs) {
        StringBuilder sb = new StringBuilder();
        inputs.forEach(input -> sb.append(", ").append(ModelSource.input(input)));
        return sb.toString();
    }

    private static String refs(List<ModelRef> refs) {
        StringJoiner joined = new StringJoiner(", ", "List.of(", ")");
        refs.forEach(ref -> joined.add(ref.toJava()));
        return joined.toString();
    }

    /** Each list with one element left out. */
    private static <T> List<List<T>> fewer(List<T> list) {
        List<List<T>> fewer = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            List<T> copy = new ArrayList<>(list);
            copy.remove(i);
            fewer.add(copy);
        }
        return fewer;
    }
}
