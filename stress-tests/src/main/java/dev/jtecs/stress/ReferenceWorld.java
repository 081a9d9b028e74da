package dev.jtecs.stress;

import static dev.jtecs.stress.ReferenceRows.REMOVED;

import dev.jtecs.component.BaseRelationship;
import dev.jtecs.component.Component;
import dev.jtecs.component.TagComponent;
import dev.jtecs.mutation.PartitionDimension;
import dev.jtecs.component.Input;
import dev.jtecs.component.ManagedComponent;
import dev.jtecs.component.NativeComponent;
import dev.jtecs.component.RelationshipValue;
import dev.jtecs.component.TargetSelector;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.LongFunction;
import java.util.function.Predicate;

/**
 * A deliberately naive model of the world's observable behaviour: hash maps of values and an explicit
 * per-entity transaction state, written from the rules of the mutation model rather than from the engine's code.
 *
 * <p>It does not allocate ids: callers tell it which ids the world returned (ids are the world's business), and
 * it predicts everything observable about them: liveness, component values, write-through and staged values,
 * lifecycle events.
 *
 * <p>The open transaction is a list of segments. A query batch ({@code batchSet}, {@code batchRemove},
 * {@code batchDespawn}) ends the open segment: at publication the segments run in order, each one's records
 * (despawns, then spawn batches and spawns, then changes) before its query batch. A query batch selects the
 * entities that match its rule in the committed state at the call. Once one is pending, {@code set} no longer
 * writes through and {@code remove} stages even a component the entity lacks now (the batch may add it); an
 * entity a batch despawn selected ignores every later {@code set}, {@code remove} and {@code despawn}.
 *
 * <pre>
 *   segment 0: records, spawn batches │ query batch │ segment 1: records, spawn batches │ ... │ open segment
 * </pre>
 *
 * <p>A publication can fail: a spawn batch whose initializer throws or whose restored keys are missing, empty,
 * duplicated or held by a live entity, or a query batch whose writer throws. What was published before the
 * failing step stays (earlier segments with their query batches; in the failing segment the despawns and the
 * spawn batches placed before it, {@code batchSpawn} ones ahead of restoration ones), and the rest of the
 * transaction is discarded. {@link #commit} then names the failure.
 */
public final class ReferenceWorld {
    private enum State { SPAWN, MUTATE, DESPAWN, CANCELLED }

    private enum Kind { SET, REWRITE, REMOVE, REMOVE_EDGE, DESPAWN }

    private enum SparseOp { ADD, REMOVE, REMOVE_ALL }

    /** A sparse edge write queued in call order; {@code stored} is the payload, or {@code TRUE}. */
    private record SparseWrite(long id, SparseOp op, BaseRelationship<?> relationship, long target, Object stored) {}

    /** One entity's staged work inside one segment: a state and the staged entries (values or removals). */
    private static final class Record {
        final long id;
        final int segment;
        State state;
        final Map<Component<?>, Object> entries = new LinkedHashMap<>();

        Record(long id, int segment, State state) {
            this.id = id;
            this.segment = segment;
            this.state = state;
        }

        boolean despawning() {
            return state == State.DESPAWN || state == State.CANCELLED;
        }
    }

    /**
     * What a spawn batch's initializer does: the components it rewrites ({@link ModelRewrites#initializer}), the
     * keys it writes ({@code id -> key}; {@code null} for none, or for an id whose key it leaves as planned),
     * and whether it throws instead.
     */
    public record Init(List<Component<?>> rewritten, LongFunction<String> keys, boolean throwing) {
        public static final Init NONE = new Init(List.of(), null, false);

        public Init {
            rewritten = List.copyOf(rewritten);
        }
    }

    /**
     * Reserved ids placed together with one row shape; {@code restoring} for {@code batchSpawnAt} and
     * {@code batchSpawnAtRaw}, which are placed after the {@code batchSpawn} batches of their segment.
     */
    private record SpawnBatch(long[] ids, Map<Component<?>, Object> row, Init init, boolean restoring,
            List<RelationshipValue> sparse) {
        Map<Component<?>, Object> rowOf(long id) {
            Map<Component<?>, Object> placed = new LinkedHashMap<>(row);
            for (Component<?> component : init.rewritten()) {
                if (placed.containsKey(component)) {
                    placed.put(component, ModelRewrites.rewrite(component, id, placed.get(component)));
                }
            }
            String key = init.keys() == null ? null : init.keys().apply(id);
            if (key != null && placed.containsKey(ModelComponents.KEY)) {
                placed.put(ModelComponents.KEY, key);
            }
            return placed;
        }
    }

    /**
     * A query batch: the ids it selected at the call and what it does to each one still alive; {@code failing}
     * is the writer that may throw part way (it records which rows it saw).
     */
    private record QueryBatch(Kind kind, List<Long> selected, Component<?> component, Object value,
            ModelRewrites.Failing failing) {}

    private static final class Segment {
        final Map<Long, Record> records = new LinkedHashMap<>();
        final List<SpawnBatch> batches = new ArrayList<>();
        final List<SparseWrite> writes = new ArrayList<>();
        QueryBatch boundary;
    }

    /** The sparse edge store: entity, relationship, target to payload ({@code TRUE} for a target-only edge). */
    private final Map<Long, Map<BaseRelationship<?>, TreeMap<Long, Object>>> store = new HashMap<>();
    /** The (entity, relationship) pairs whose sparse edges changed in the current wave. */
    private final Map<Long, Set<BaseRelationship<?>>> touched = new LinkedHashMap<>();

    private final Map<Long, Map<Component<?>, Object>> committed = new LinkedHashMap<>();
    private final List<Segment> segments = new ArrayList<>(List.of(new Segment()));
    private final Map<Long, Record> latest = new HashMap<>();
    private final Set<Long> reserved = new HashSet<>();
    private final Set<Long> doomed = new HashSet<>();
    /** Cancelled spawns whose segment published: freed as despawned entities are, not released by a failure. */
    private final Set<Long> freedCancels = new HashSet<>();
    /** Observers of {@code OnDespawn} per entity address: registrations add up, a despawn clears them. */
    private final Map<Long, Integer> observed = new HashMap<>();
    private final List<String> events = new ArrayList<>();

    /** A reference of an empty world, with nothing staged. */
    public ReferenceWorld() {
    }

    // ---------------------------------------------------------------- spawning

    /** Records a spawn the world answered with {@code id}. */
    public void spawn(long id, Input... inputs) {
        events.add("OnSpawn " + id);
        reserved.add(id);
        Record record = begin(id, State.SPAWN);
        for (Input input : inputs) {
            if (input instanceof RelationshipValue edge && edge.relationship().isSparse()) {
                record.entries.put(edge.relationship(), edge); // the marker moves with the row...
                queue(id, SparseOp.ADD, edge); // ...the edge lands at the segment's flush
            } else if (input instanceof RelationshipValue edge) {
                stageEdge(record, null, edge);
            } else {
                record.entries.put(input.component(), ReferenceRows.valueOf(input));
            }
        }
    }

    /**
     * Records a spawn through a spawn queue of {@code inputs} the world answered with {@code id}: an event at once,
     * as a spawn's, and a spawn batch of one (placed with the batches of its segment, before the single spawns),
     * whose native and managed components named by their definitions start at their defaults, as a spawn's do.
     */
    public void queueSpawn(long id, Input... inputs) {
        events.add("OnSpawn " + id);
        List<Input> valued = new ArrayList<>(inputs.length);
        for (Input input : inputs) {
            valued.add(input instanceof ManagedComponent<?> managed ? managedDefault(managed)
                    : input instanceof NativeComponent<?> nativeComponent ? nativeDefault(nativeComponent) : input);
        }
        addBatch(new long[] {id}, valued, Init.NONE, false);
    }

    private static <T> Input managedDefault(ManagedComponent<T> managed) {
        return managed.of(managed.newDefault());
    }

    private static <R extends java.lang.Record> Input nativeDefault(NativeComponent<R> nativeComponent) {
        return nativeComponent.of(nativeComponent.newDefault());
    }

    /**
     * Records a spawn batch the world answered with {@code ids}; {@code rewritten} lists what the initializer
     * rewrites ({@link ModelRewrites#initializer}), empty when there is none. No event.
     */
    public void batchSpawn(long[] ids, List<? extends Input> inputs, List<Component<?>> rewritten) {
        batchSpawn(ids, inputs, new Init(rewritten, null, false));
    }

    /** Records a {@code batchSpawn} the world answered with {@code ids}, with what its initializer does. */
    public void batchSpawn(long[] ids, List<? extends Input> inputs, Init init) {
        addBatch(ids, inputs, init, false);
    }

    /**
     * Records a restoration batch ({@code batchSpawnAt}, {@code batchSpawnAtRaw}) of these ids. Its signature may
     * hold {@code EntityKey}: the keys (planned, then written by the initializer) are claimed at placement.
     */
    public void batchSpawnAt(long[] ids, List<? extends Input> inputs, Init init) {
        addBatch(ids, inputs, init, true);
    }

    private void addBatch(long[] ids, List<? extends Input> inputs, Init init, boolean restoring) {
        for (long id : ids) {
            reserved.add(id);
        }
        open().batches.add(new SpawnBatch(ids.clone(), ReferenceRows.batchRow(inputs), init, restoring,
                sparseEdgesOf(inputs)));
    }

    /** A spawn batch's sparse edges, each written for every member: per target the last input, exclusive the last. */
    private static List<RelationshipValue> sparseEdgesOf(List<? extends Input> inputs) {
        Map<List<Object>, RelationshipValue> edges = new LinkedHashMap<>();
        for (Input input : inputs) {
            if (input instanceof RelationshipValue edge && edge.relationship().isSparse()) {
                if (edge.relationship().isExclusive()) {
                    edges.keySet().removeIf(key -> key.get(0) == edge.relationship());
                }
                edges.put(List.of(edge.relationship(), edge.target()), edge);
            }
        }
        return List.copyOf(edges.values());
    }

    /** The live entity whose committed row holds {@code key}, or 0. */
    public long holderOf(String key) {
        for (Map.Entry<Long, Map<Component<?>, Object>> entity : committed.entrySet()) {
            if (key.equals(entity.getValue().get(ModelComponents.KEY))) {
                return entity.getKey();
            }
        }
        return 0;
    }

    /** Whether the id is live or reserved in this transaction, i.e. whether calls naming it are legal. */
    public boolean isKnownLiveOrReserved(long id) {
        return committed.containsKey(id) || reserved.contains(id);
    }

    /** Registers an observer of {@code OnDespawn} at the entity's address (cleared by its despawn). */
    public void observe(long id) {
        observed.merge(id, 1, Integer::sum);
    }

    // ---------------------------------------------------------------- set, remove, despawn

    public void set(long id, Input input) {
        if (input instanceof RelationshipValue edge && edge.relationship().isSparse()) {
            setSparse(id, edge);
        } else if (input instanceof RelationshipValue edge) {
            setEdge(id, edge);
        } else {
            setValue(id, input.component(), ReferenceRows.valueOf(input));
        }
    }

    private void setValue(long id, Component<?> component, Object value) {
        if (doomed.contains(id)) {
            return; // a staged batch despawn selected it
        }
        Record record = latest.get(id);
        if (record != null && isClosed(record)) {
            if (!record.despawning()) {
                begin(id, State.MUTATE).entries.put(component, value);
            }
            return;
        }
        if (record == null) {
            Map<Component<?>, Object> row = committed.get(id);
            if (row != null && segments.size() == 1 && row.containsKey(component)) {
                row.put(component, value); // write-through: no query batch to overtake
                return;
            }
            record = begin(id, State.MUTATE);
        }
        if (record.state == State.SPAWN || record.state == State.MUTATE) {
            record.entries.put(component, value);
        }
    }

    /** {@code remove(id, component)}; a relationship removes every edge, a selector ({@code REL.targeting(t)}) one. */
    public void remove(long id, Component<?> component) {
        if (component instanceof BaseRelationship<?> relationship && relationship.isSparse()) {
            removeAllSparse(id, relationship);
        } else if (component instanceof BaseRelationship<?> relationship) {
            removeEdges(id, relationship);
        } else {
            removeComponent(id, component);
        }
    }

    private void removeComponent(long id, Component<?> component) {
        if (doomed.contains(id)) {
            return;
        }
        Record record = latest.get(id);
        if (record != null && isClosed(record)) {
            if (!record.despawning()) {
                begin(id, State.MUTATE).entries.put(component, REMOVED);
            }
            return;
        }
        if (record == null) {
            Map<Component<?>, Object> row = committed.get(id);
            // after a query batch the entity may hold the component by then (a batch set adds it)
            if (row == null || segments.size() > 1 || row.containsKey(component)) {
                begin(id, State.MUTATE).entries.put(component, REMOVED);
            }
            return;
        }
        if (record.state == State.SPAWN) {
            record.entries.remove(component);
        } else if (record.state == State.MUTATE) {
            record.entries.put(component, REMOVED);
        }
    }

    // ---------------------------------------------------------------- partitions

    /** The partition operations of the open submission: "id/dimension" to the value held (0: unset). */
    private final Map<String, Integer> partitionOps = new HashMap<>();

    private static int partitionValue(PartitionDimension dimension, TagComponent tag, boolean set) {
        return set ? dimension.tags().indexOf(tag) + 1 : 0;
    }

    /** Whether a despawn staged in this submission drops partition operations on the entity (remove wins). */
    private boolean partitionDropped(long id) {
        if (doomed.contains(id)) {
            return true;
        }
        Record record = latest.get(id);
        return record != null && record.despawning();
    }

    /**
     * Whether {@code setTag}/{@code unsetTag} meets a different operation on the same dimension of the entity
     * in this submission (the world then raises and changes nothing).
     */
    public boolean partitionConflicts(long id, PartitionDimension dimension, TagComponent tag, boolean set) {
        if (partitionDropped(id)) {
            return false;
        }
        Integer held = partitionOps.get(id + "/" + dimension.name());
        return held != null && held != partitionValue(dimension, tag, set);
    }

    /**
     * {@code setTag} ({@code set}) or {@code unsetTag}, without a conflict: dropped for an entity being
     * despawned, nothing when repeated or when the published entity already is so, else staged as the removal of
     * the dimension's other tags and the addition of this one (or its removal).
     */
    public void partition(long id, PartitionDimension dimension, TagComponent tag, boolean set) {
        if (partitionDropped(id)) {
            return;
        }
        int value = partitionValue(dimension, tag, set);
        String key = id + "/" + dimension.name();
        Integer held = partitionOps.get(key);
        if (held == null) {
            Map<Component<?>, Object> row = committed.get(id);
            if (row != null && row.containsKey(tag) == set) {
                return;
            }
        } else if (held == value) {
            return;
        }
        partitionOps.put(key, value);
        if (!set) {
            remove(id, tag);
            return;
        }
        for (TagComponent other : dimension.tags()) {
            if (other != tag) {
                remove(id, other);
            }
        }
        set(id, tag);
    }

    // ---------------------------------------------------------------- relationship edges

    /**
     * {@code set(id, REL.to(t))}: an edge is staged like a tag keyed by its selector, with the marker; an
     * exclusive relationship stages the removal of every other edge the entity is known to hold (committed or
     * staged). An edge the published entity holds already, with no query batch pending, changes nothing.
     */
    private void setEdge(long id, RelationshipValue value) {
        if (doomed.contains(id)) {
            return;
        }
        TargetSelector<?> edge = value.relationship().targeting(value.target());
        Record record = latest.get(id);
        Record earlier = null;
        if (record != null && isClosed(record)) {
            if (record.despawning()) {
                return;
            }
            earlier = record;
            record = begin(id, State.MUTATE);
        } else if (record == null) {
            Map<Component<?>, Object> row = committed.get(id);
            if (row != null && segments.size() == 1 && row.containsKey(edge)) {
                row.put(edge, ReferenceRows.stored(value)); // held: a payload is written through, else nothing
                ReferenceRows.normalize(row);
                return;
            }
            record = begin(id, State.MUTATE);
        }
        if (record.state == State.SPAWN || record.state == State.MUTATE) {
            stageEdge(record, earlier, value);
        }
    }

    private void stageEdge(Record record, Record earlier, RelationshipValue value) {
        BaseRelationship<?> relationship = value.relationship();
        TargetSelector<?> edge = relationship.targeting(value.target());
        if (relationship.isExclusive()) {
            List<TargetSelector<?>> others = knownEdges(record.id, record, earlier, relationship);
            others.remove(edge);
            unstage(record, others);
        }
        record.entries.put(edge, ReferenceRows.stored(value));
        record.entries.put(relationship, value);
    }

    /**
     * {@code remove(id, REL)}: stages the removal of every edge the entity is known to hold and of the marker.
     * After a query batch it stages the removal even when none is known (the batch may add edges).
     */
    private void removeEdges(long id, BaseRelationship<?> relationship) {
        if (doomed.contains(id)) {
            return;
        }
        Record record = latest.get(id);
        Record earlier = null;
        if (record != null && isClosed(record)) {
            if (record.despawning()) {
                return;
            }
            earlier = record;
            record = null;
        }
        List<TargetSelector<?>> edges = knownEdges(id, record, earlier, relationship);
        if (record == null) {
            Map<Component<?>, Object> row = committedOrPlanned(id);
            if (edges.isEmpty() && segments.size() == 1 && (row == null || !row.containsKey(relationship))) {
                return; // nothing to remove
            }
            record = begin(id, State.MUTATE);
        }
        if (record.state != State.SPAWN && record.state != State.MUTATE) {
            return;
        }
        unstage(record, edges);
        if (record.state == State.SPAWN) {
            record.entries.remove(relationship);
        } else {
            record.entries.put(relationship, REMOVED);
        }
    }

    /**
     * The distinct edges of a relationship the entity holds (committed, or planned by its pending spawn batch) or
     * has staged (in {@code record}, {@code earlier}; either may be {@code null}).
     */
    private List<TargetSelector<?>> knownEdges(long id, Record record, Record earlier,
            BaseRelationship<?> relationship) {
        List<TargetSelector<?>> edges = new ArrayList<>();
        Map<Component<?>, Object> row = committedOrPlanned(id);
        if (row != null) {
            for (Component<?> component : row.keySet()) {
                if (component instanceof TargetSelector<?> edge && edge.relationship() == relationship) {
                    edges.add(edge);
                }
            }
        }
        for (Record r : new Record[] {earlier, record}) {
            if (r == null) {
                continue;
            }
            for (Map.Entry<Component<?>, Object> entry : r.entries.entrySet()) {
                if (entry.getKey() instanceof TargetSelector<?> edge && edge.relationship() == relationship
                        && entry.getValue() != REMOVED && !edges.contains(edge)) {
                    edges.add(edge);
                }
            }
        }
        return edges;
    }

    /**
     * The row an entity holds as far as staging can see: its committed row, or, for a member of a spawn batch of
     * this transaction not placed yet, the row that batch places (its edges do not depend on the initializer).
     */
    private Map<Component<?>, Object> committedOrPlanned(long id) {
        Map<Component<?>, Object> row = committed.get(id);
        if (row != null || !reserved.contains(id)) {
            return row;
        }
        for (Segment segment : segments) {
            for (SpawnBatch batch : segment.batches) {
                for (long member : batch.ids()) {
                    if (member == id) {
                        return batch.row();
                    }
                }
            }
        }
        return null;
    }

    private static void unstage(Record record, List<TargetSelector<?>> edges) {
        for (TargetSelector<?> edge : edges) {
            if (record.state == State.SPAWN) {
                record.entries.remove(edge);
            } else {
                record.entries.put(edge, REMOVED);
            }
        }
    }

    // ---------------------------------------------------------------- sparse edges

    /**
     * {@code set(id, SPARSE.to(t))}: the write is queued for the segment's flush; the marker is staged like a
     * component, unless the published entity carries it and nothing structural is pending for it (then only the
     * write is queued, and later sets still write through).
     */
    private void setSparse(long id, RelationshipValue value) {
        Record record = latest.get(id);
        if (doomed.contains(id) || record != null && record.despawning()) {
            return;
        }
        Map<Component<?>, Object> row = committed.get(id);
        if (record != null || row == null || segments.size() > 1 || !row.containsKey(value.relationship())) {
            setValue(id, value.relationship(), value);
        }
        queue(id, SparseOp.ADD, value);
    }

    /** {@code remove(id, SPARSE)}: the marker's removal is staged, and a write removing every edge queued. */
    private void removeAllSparse(long id, BaseRelationship<?> relationship) {
        Record record = latest.get(id);
        if (doomed.contains(id) || record != null && record.despawning()) {
            return;
        }
        removeComponent(id, relationship);
        open().writes.add(new SparseWrite(id, SparseOp.REMOVE_ALL, relationship, 0, null));
    }

    /**
     * {@code remove(id, REL.to(t))}: for a dense relationship the edge's selector, for a sparse one a queued
     * removal (the marker follows at the end of the wave). The payload plays no part.
     */
    public void removeEdge(long id, RelationshipValue value) {
        if (!value.relationship().isSparse()) {
            remove(id, value.relationship().targeting(value.target()));
            return;
        }
        Record record = latest.get(id);
        if (doomed.contains(id) || record != null && record.despawning()) {
            return;
        }
        queue(id, SparseOp.REMOVE, value);
    }

    private void queue(long id, SparseOp op, RelationshipValue value) {
        open().writes.add(new SparseWrite(id, op, value.relationship(), value.target(), ReferenceRows.stored(value)));
    }

    /** Applies the queued writes of a segment, in call order, to the entities still alive. */
    private void flush(Segment segment) {
        for (SparseWrite write : segment.writes) {
            if (committed.containsKey(write.id())) {
                write(write.id(), write.op(), write.relationship(), write.target(), write.stored());
            }
        }
    }

    /** One write to the store (an exclusive relationship's edge replaces the others); records a change. */
    private void write(long id, SparseOp op, BaseRelationship<?> relationship, long target, Object stored) {
        Map<Long, Object> edges = store.computeIfAbsent(id, k -> new HashMap<>())
                .computeIfAbsent(relationship, k -> new TreeMap<>());
        boolean changed = switch (op) {
            case ADD -> {
                boolean others = relationship.isExclusive() && edges.keySet().removeIf(t -> t != target);
                yield !stored.equals(edges.put(target, stored)) || others;
            }
            case REMOVE -> edges.remove(target) != null;
            case REMOVE_ALL -> {
                boolean any = !edges.isEmpty();
                edges.clear();
                yield any;
            }
        };
        if (changed) {
            touched.computeIfAbsent(id, k -> new LinkedHashSet<>()).add(relationship);
        }
    }

    /**
     * The end of a wave: each entity whose sparse edges changed carries the marker exactly while it holds an
     * edge; where they disagree, the next wave adds the marker (with its requirements) or removes it.
     */
    private void correctMarkers() {
        for (Map.Entry<Long, Set<BaseRelationship<?>>> entity : touched.entrySet()) {
            Map<Component<?>, Object> row = committed.get(entity.getKey());
            for (BaseRelationship<?> relationship : row == null ? Set.<BaseRelationship<?>>of() : entity.getValue()) {
                boolean holds = !sparseEdges(entity.getKey(), relationship).isEmpty();
                if (holds && !row.containsKey(relationship)) {
                    ReferenceRows.add(row, relationship, null);
                } else if (!holds && row.containsKey(relationship)) {
                    row.remove(relationship);
                }
            }
        }
        touched.clear();
    }

    /** A despawned entity's edges leave the store (a recycled id starts without edges). */
    private void dropDeadSources() {
        store.keySet().retainAll(committed.keySet());
    }

    private Map<Long, Object> sparseEdges(long id, BaseRelationship<?> relationship) {
        Map<BaseRelationship<?>, TreeMap<Long, Object>> edges = store.get(id);
        TreeMap<Long, Object> targets = edges == null ? null : edges.get(relationship);
        return targets == null ? Map.of() : targets;
    }

    /** Whether a live entity holds a cascading sparse edge to a dead target, or to one a settlement despawns. */
    private boolean holdsCascadingToDead(long id, Set<Long> dying) {
        Map<BaseRelationship<?>, TreeMap<Long, Object>> edges = store.get(id);
        if (edges == null) {
            return false;
        }
        for (Map.Entry<BaseRelationship<?>, TreeMap<Long, Object>> entry : edges.entrySet()) {
            if (entry.getKey().isCascadeDelete()) {
                for (long target : entry.getValue().keySet()) {
                    if (!committed.containsKey(target) || dying.contains(target)) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    public void despawn(long id) {
        if (doomed.contains(id)) {
            return;
        }
        Record record = latest.get(id);
        if (record != null && !isClosed(record)) {
            if (record.state == State.SPAWN || record.state == State.MUTATE) {
                record.state = record.state == State.SPAWN ? State.CANCELLED : State.DESPAWN;
                record.entries.clear();
                despawned(id);
            }
            return;
        }
        if (record != null && record.despawning()) {
            return;
        }
        begin(id, State.DESPAWN);
        despawned(id);
    }

    // ---------------------------------------------------------------- query batches

    /** The committed entities whose rows a query's rule accepts now, in a fixed order. */
    public List<Long> select(Predicate<Map<Component<?>, Object>> rule) {
        List<Long> selected = new ArrayList<>();
        for (Map.Entry<Long, Map<Component<?>, Object>> entity : committed.entrySet()) {
            if (rule.test(entity.getValue())) {
                selected.add(entity.getKey());
            }
        }
        return selected;
    }

    /** {@code batchSet(query, value)}; returns the selected ids. */
    public List<Long> batchSet(Predicate<Map<Component<?>, Object>> rule, Input value) {
        return boundary(Kind.SET, select(rule), value.component(), ReferenceRows.valueOf(value));
    }

    /** {@code batchSet(query, component, ModelRewrites.writer(component))}; returns the selected ids. */
    public List<Long> batchRewrite(Predicate<Map<Component<?>, Object>> rule, Component<?> component) {
        return boundary(Kind.REWRITE, select(rule), component, null);
    }

    /**
     * {@code batchSet(query, component, failing)}: when the writer's failing call happened, the members whose
     * rows a call completed are rewritten, those the failing call was given keep the component as the move left
     * it (added uninitialized, with requirements, where missing), the others are untouched, and the publication
     * fails there.
     */
    public List<Long> batchRewrite(Predicate<Map<Component<?>, Object>> rule, Component<?> component,
            ModelRewrites.Failing failing) {
        return boundary(Kind.REWRITE, select(rule), component, null, failing);
    }

    public List<Long> batchRemove(Predicate<Map<Component<?>, Object>> rule, Component<?> component) {
        return boundary(Kind.REMOVE, select(rule), component, null);
    }

    /** {@code batchRemove(query, REL.to(t))}: one edge (the target only; a sparse marker follows at wave end). */
    public List<Long> batchRemoveEdge(Predicate<Map<Component<?>, Object>> rule, RelationshipValue edge) {
        if (!edge.relationship().isSparse()) {
            return batchRemove(rule, edge.relationship().targeting(edge.target()));
        }
        return boundary(Kind.REMOVE_EDGE, select(rule), edge.relationship(), edge);
    }

    /**
     * {@code batchDespawn(query)}: each selected entity not already being despawned gets its events now and
     * ignores later set, remove and despawn calls of this transaction. Returns the ids it despawns.
     */
    public List<Long> batchDespawn(Predicate<Map<Component<?>, Object>> rule) {
        List<Long> selected = new ArrayList<>();
        for (long id : select(rule)) {
            Record record = latest.get(id);
            if (doomed.contains(id) || (record != null && record.despawning())) {
                continue;
            }
            doomed.add(id);
            despawned(id);
            selected.add(id);
        }
        return boundary(Kind.DESPAWN, selected, null, null);
    }

    private List<Long> boundary(Kind kind, List<Long> selected, Component<?> component, Object value) {
        return boundary(kind, selected, component, value, null);
    }

    private List<Long> boundary(Kind kind, List<Long> selected, Component<?> component, Object value,
            ModelRewrites.Failing failing) {
        open().boundary = new QueryBatch(kind, selected, component, value, failing);
        segments.add(new Segment());
        return selected;
    }

    // ---------------------------------------------------------------- maintenance

    /**
     * A snapshot load of a quiet world into itself: the same entities come back, each row with the requirements
     * of its components reapplied where it lacks them (a load follows {@code spawnAt}), and the observers at
     * entity addresses are dropped.
     */
    public void restoreFromSnapshot() {
        observed.clear();
        for (Map.Entry<Long, Map<Component<?>, Object>> entity : committed.entrySet()) {
            entity.setValue(ReferenceRows.restored(entity.getValue()));
        }
    }

    /** {@code clearEntities()}: every entity and all staged work gone, entity-address observers dropped. */
    public void clear() {
        committed.clear();
        store.clear();
        touched.clear();
        forgetTransaction();
        observed.clear();
    }

    // ---------------------------------------------------------------- publication

    /**
     * Publishes the segments in order, each followed by its query batch, until a step fails; forgets the rest.
     *
     * @return {@code null}, or why the publication failed (the world's commit must throw then)
     */
    public String commit() {
        partitionOps.clear(); // the submission ends: the next one judges conflicts afresh
        String failure = null;
        for (Segment segment : segments) {
            failure = publish(segment);
            if (failure == null) {
                settleDeadTargets(); // the world settles a dead target's edges once its segment has published
            }
            if (failure == null && segment.boundary != null) {
                failure = run(segment.boundary);
                if (failure == null) {
                    settleDeadTargets();
                }
            }
            if (failure != null) {
                break;
            }
        }
        if (failure == null) {
            correctMarkers(); // staged at the end of the wave, like the settlement: both land in the next
            applySettlement();
        }
        touched.clear();
        dropDeadSources();
        settledDespawns.clear(); // after a failure: staged in a wave that is discarded (their events stand)
        settledRemovals.clear();
        if (failure != null) {
            for (long id : reserved) {
                if (!committed.containsKey(id) && !freedCancels.contains(id)) {
                    observed.remove(id); // released unpublished: the world drops its observers
                }
            }
        }
        forgetTransaction();
        return failure;
    }

    private String publish(Segment segment) {
        for (Record record : segment.records.values()) {
            if (record.state == State.DESPAWN) {
                committed.remove(record.id);
            } else if (record.state == State.CANCELLED) {
                freedCancels.add(record.id); // freed with the segment's despawns, even if a later step fails
            }
        }
        for (boolean restoring : new boolean[] {false, true}) {
            for (SpawnBatch batch : segment.batches) {
                String failure = batch.restoring() == restoring ? place(segment, batch) : null;
                if (failure != null) {
                    return failure;
                }
            }
        }
        for (Record record : segment.records.values()) {
            if (record.state == State.SPAWN) {
                committed.put(record.id, ReferenceRows.replay(Map.of(), record.entries));
            }
        }
        for (Record record : segment.records.values()) {
            Map<Component<?>, Object> row = committed.get(record.id);
            if (record.state == State.MUTATE && row != null) {
                committed.put(record.id, ReferenceRows.replay(row, record.entries));
            }
        }
        flush(segment); // after the moves, before the segment's query batch
        return null;
    }

    /** Places a spawn batch's members not cancelled in its segment, all or none; returns why it failed. */
    private String place(Segment segment, SpawnBatch batch) {
        List<Long> placed = new ArrayList<>();
        for (long id : batch.ids()) {
            Record record = segment.records.get(id);
            if (record == null || record.state != State.DESPAWN) {
                placed.add(id);
            }
        }
        if (placed.isEmpty()) {
            return null; // nothing placed: the initializer is not called and no key is claimed
        }
        if (batch.init().throwing()) {
            return "the initializer of the batch of " + placed + " throws";
        }
        Set<String> keys = new HashSet<>();
        for (long id : batch.row().containsKey(ModelComponents.KEY) ? placed : List.<Long>of()) {
            String key = (String) batch.rowOf(id).get(ModelComponents.KEY);
            if (key.isEmpty()) {
                return "no key written for " + id;
            }
            if (!keys.add(key)) {
                return "the key '" + key + "' written twice in one batch";
            }
            if (holderOf(key) != 0) {
                return "the key '" + key + "' of " + id + " is held by " + holderOf(key);
            }
        }
        for (long id : placed) {
            committed.put(id, batch.rowOf(id));
            for (RelationshipValue edge : batch.sparse()) { // written as the rows are placed
                write(id, SparseOp.ADD, edge.relationship(), edge.target(), ReferenceRows.stored(edge));
            }
        }
        return null;
    }

    /** Runs a query batch; returns why it failed (its writer threw), or {@code null}. */
    private String run(QueryBatch batch) {
        ModelRewrites.Failing failing = batch.failing();
        boolean failed = failing != null && failing.failed();
        for (long id : batch.selected()) {
            Map<Component<?>, Object> row = committed.get(id);
            if (row == null) {
                continue; // died before the batch ran
            }
            Component<?> component = batch.component();
            if (failed && !failing.completed().contains(id)) {
                if (failing.failedRows().contains(id) && !row.containsKey(component)) {
                    ReferenceRows.add(row, component, ModelComponents.uninitialized(component));
                }
                continue; // the failing call wrote nothing; later calls never came
            }
            switch (batch.kind()) {
                case DESPAWN -> committed.remove(id);
                case REMOVE -> {
                    ReferenceRows.removeFrom(row, component);
                    if (component instanceof BaseRelationship<?> relationship && relationship.isSparse()) {
                        write(id, SparseOp.REMOVE_ALL, relationship, 0, null);
                    }
                }
                case REMOVE_EDGE -> {
                    RelationshipValue edge = (RelationshipValue) batch.value();
                    write(id, SparseOp.REMOVE, edge.relationship(), edge.target(), null);
                }
                case SET -> {
                    if (batch.value() instanceof RelationshipValue edge && edge.relationship().isSparse()) {
                        if (!row.containsKey(edge.relationship())) {
                            ReferenceRows.add(row, edge.relationship(), edge); // only those lacking it move
                        }
                        write(id, SparseOp.ADD, edge.relationship(), edge.target(), ReferenceRows.stored(edge));
                    } else if (batch.value() instanceof RelationshipValue edge) {
                        ReferenceRows.addEdge(row, edge);
                    } else if (row.containsKey(component)) {
                        row.put(component, batch.value());
                    } else {
                        ReferenceRows.add(row, component, batch.value());
                    }
                }
                case REWRITE -> {
                    if (!row.containsKey(component)) {
                        ReferenceRows.add(row, component, ModelComponents.uninitialized(component));
                    }
                    row.put(component, ModelRewrites.rewrite(component, id, row.get(component)));
                }
            }
        }
        return failed ? "the writer of the batch set of " + component(batch) + " throws" : null;
    }

    private static String component(QueryBatch batch) {
        return batch.component().name();
    }

    /**
     * Once a segment (or its query batch) has published, the sources of edges to dead targets (despawned, or
     * staged spawns cancelled, whatever the staging order) are found where the segment left them; what happens
     * to them is staged as a further wave, after every segment and query batch of this publication, so those
     * still see the edges (a batch adding an edge of the same relationship adds no requirements). A cascading
     * edge's source is despawned, reported now, and its subtree through cascading edges with it, as it is now: an
     * entity that a later segment gives an edge to a member is judged when that member dies, in a later wave
     * ({@link #dropEdgesToDead}), and is spared if re-targeted by then; another edge is removed. An entity already being despawned (its despawn staged in a later segment, or a pending batch
     * despawn selected it) is left to that despawn: it was reported at the call, and like every later call for
     * it, a cascade does nothing.
     */
    private void settleDeadTargets() {
        Set<Long> staged = new HashSet<>(); // the subtrees this settlement stages: despawns staged by an earlier one
        boolean changed = true; // are judged when they publish, so an edge placed to them since is not followed
        while (changed) {
            changed = false;
            for (Map.Entry<Long, Map<Component<?>, Object>> entity : committed.entrySet()) {
                long id = entity.getKey();
                if (settledDespawns.contains(id) || isBeingDespawned(id)) {
                    continue;
                }
                for (Component<?> component : entity.getValue().keySet()) {
                    if (!(component instanceof TargetSelector<?> edge)) {
                        continue;
                    }
                    boolean dead = !committed.containsKey(edge.target());
                    if (edge.relationship().isCascadeDelete() && (dead || staged.contains(edge.target()))) {
                        settledDespawns.add(id);
                        staged.add(id);
                        despawned(id);
                        cascades++;
                        changed = true;
                        break;
                    }
                    if (dead) {
                        settledRemovals.computeIfAbsent(id, k -> new LinkedHashSet<>()).add(edge);
                    }
                }
                if (!settledDespawns.contains(id) && holdsCascadingToDead(id, staged)) {
                    settledDespawns.add(id);
                    staged.add(id);
                    despawned(id);
                    cascades++;
                    changed = true;
                }
            }
        }
    }

    /** Entities a settlement despawns, and edges it removes, in the further wave of this publication. */
    private final Set<Long> settledDespawns = new LinkedHashSet<>();
    private final Map<Long, Set<TargetSelector<?>>> settledRemovals = new LinkedHashMap<>();

    /**
     * The further waves of a publication: what the settlements staged, then, as the entities it despawns die,
     * their own sources' edges, until nothing changes.
     */
    private void applySettlement() {
        for (long id : settledDespawns) {
            committed.remove(id);
        }
        for (Map.Entry<Long, Set<TargetSelector<?>>> removal : settledRemovals.entrySet()) {
            Map<Component<?>, Object> row = committed.get(removal.getKey());
            for (TargetSelector<?> edge : row == null ? Set.<TargetSelector<?>>of() : removal.getValue()) {
                ReferenceRows.removeFrom(row, edge);
            }
        }
        dropEdgesToDead();
    }

    /**
     * No live entity holds an edge to a dead one: the edge is removed, or for a cascading relationship its
     * source is despawned (reported once), until nothing changes (the waves after the first, where no query
     * batch runs between the finding and the change).
     */
    private void dropEdgesToDead() {
        List<Long> holders = new ArrayList<>();
        do {
            holders.clear();
            for (Map.Entry<Long, Map<Component<?>, Object>> entity : committed.entrySet()) {
                if ((holdsEdgeToDead(entity.getValue()) || holdsCascadingToDead(entity.getKey(), Set.of()))
                        && !isBeingDespawned(entity.getKey())) {
                    holders.add(entity.getKey()); // runs after every segment: copy only the rows that change
                }
            }
            for (long id : holders) {
                Map<Component<?>, Object> row = committed.get(id);
                if (holdsCascadingToDead(id, Set.of())) {
                    committed.remove(id);
                    despawned(id);
                    cascades++;
                    continue;
                }
                for (Component<?> component : List.copyOf(row.keySet())) {
                    if (component instanceof TargetSelector<?> edge && !committed.containsKey(edge.target())) {
                        if (edge.relationship().isCascadeDelete()) {
                            committed.remove(id);
                            despawned(id);
                            cascades++;
                            break;
                        }
                        ReferenceRows.removeFrom(row, edge);
                    }
                }
            }
        } while (!holders.isEmpty());
    }

    private boolean holdsEdgeToDead(Map<Component<?>, Object> row) {
        for (Component<?> component : row.keySet()) {
            if (component instanceof TargetSelector<?> edge && !committed.containsKey(edge.target())) {
                return true;
            }
        }
        return false;
    }

    /** Whether a despawn of this transaction was called for the entity (and reported) and waits for its segment. */
    private boolean isBeingDespawned(long id) {
        Record record = latest.get(id);
        return doomed.contains(id) || record != null && record.despawning();
    }

    /** How many entities target deaths have despawned so far (cascading relationships). */
    public long cascades() {
        return cascades;
    }

    private long cascades;

    private void forgetTransaction() {
        partitionOps.clear();
        segments.clear();
        segments.add(new Segment());
        latest.clear();
        reserved.clear();
        doomed.clear();
        freedCancels.clear();
    }

    // ---------------------------------------------------------------- reads

    /**
     * The lifecycle events so far: {@code OnSpawn id} at each spawn; at each despawn {@code OnDespawn@ id} (the
     * entity's own address, when observed) then {@code OnDespawn id}. Spawn batches deliver none.
     */
    public List<String> events() {
        return events;
    }

    public boolean isAlive(long id) {
        return committed.containsKey(id);
    }

    /** The visible value of a component (committed state plus write-throughs), or {@code null}. */
    public Object get(long id, Component<?> component) {
        Map<Component<?>, Object> row = committed.get(id);
        return row == null ? null : row.get(component);
    }

    /** Whether a published entity has the component (its value may be {@code null}). */
    public boolean has(long id, Component<?> component) {
        Map<Component<?>, Object> row = committed.get(id);
        return row != null && row.containsKey(component);
    }

    /** The committed row of a live entity (read it, do not change it), or {@code null}. */
    Map<Component<?>, Object> row(long id) {
        return committed.get(id);
    }

    /**
     * A field of a native component written in place in a published row ({@code world.write} or a row writer):
     * the committed value takes it now, and whatever is staged for the entity applies over it at publication, as
     * it applies over the row in the world. The caller checked that the committed row holds the component.
     */
    void writeField(long id, Component<?> component, String field, Object value) {
        Map<Component<?>, Object> row = committed.get(id);
        row.put(component, ReferenceRows.withField((java.lang.Record) row.get(component), field, value));
    }

    /** Every live entity with its committed row (read them, do not change them). */
    Map<Long, Map<Component<?>, Object>> rows() {
        return committed;
    }

    /**
     * What {@code forEachRelationship} reports for a live entity, by ascending target: payload records, or
     * {@code RelationshipValue}s for a target-only relationship; dense edges from the row, sparse ones from the store.
     */
    public List<Object> edges(long id, BaseRelationship<?> relationship) {
        Map<Component<?>, Object> row = committed.get(id);
        if (row == null) {
            return List.of();
        }
        if (!relationship.isSparse()) {
            return ReferenceRows.edges(row, relationship);
        }
        List<Object> edges = new ArrayList<>();
        for (Map.Entry<Long, Object> edge : sparseEdges(id, relationship).entrySet()) {
            edges.add(ReferenceRows.reported(relationship, edge.getKey(), edge.getValue()));
        }
        return edges;
    }

    /** The targets of a live entity's edges of a relationship, ascending. */
    public List<Long> targets(long id, BaseRelationship<?> relationship) {
        Map<Component<?>, Object> row = committed.get(id);
        if (row == null) {
            return List.of();
        }
        return relationship.isSparse() ? new ArrayList<>(sparseEdges(id, relationship).keySet())
                : ReferenceRows.targets(row, relationship);
    }

    /** The live entities holding an edge of the relationship to {@code target}, ascending (dead targets too). */
    public List<Long> sources(BaseRelationship<?> relationship, long target) {
        List<Long> sources = new ArrayList<>();
        for (long id : committed.keySet()) {
            if (targets(id, relationship).contains(target)) {
                sources.add(id);
            }
        }
        sources.sort(null);
        return sources;
    }

    public int aliveCount() {
        return committed.size();
    }

    public List<Long> aliveIds() {
        return new ArrayList<>(committed.keySet());
    }

    public boolean hasPending() {
        return segments.size() > 1 || !open().records.isEmpty() || !open().batches.isEmpty()
                || !open().writes.isEmpty();
    }

    // ---------------------------------------------------------------- internals

    private Segment open() {
        return segments.get(segments.size() - 1);
    }

    /** Whether a record precedes a query batch: later calls for its entity open a record after the batch. */
    private boolean isClosed(Record record) {
        return record.segment < segments.size() - 1;
    }

    private Record begin(long id, State state) {
        Record record = new Record(id, segments.size() - 1, state);
        open().records.put(id, record);
        latest.put(id, record);
        return record;
    }

    private void despawned(long id) {
        // registrations at one address add up; ids a failed publication released lost theirs (see commit)
        for (int n = observed.getOrDefault(id, 0); n > 0; n--) {
            events.add("OnDespawn@ " + id);
        }
        observed.remove(id);
        events.add("OnDespawn " + id);
    }
}
