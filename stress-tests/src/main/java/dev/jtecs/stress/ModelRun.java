package dev.jtecs.stress;

import dev.jtecs.component.BaseRelationship;
import dev.jtecs.component.Component;
import dev.jtecs.component.Components;
import dev.jtecs.component.Input;
import dev.jtecs.component.Relationship;
import dev.jtecs.component.RelationshipValue;
import dev.jtecs.entity.Entity;
import dev.jtecs.event.OnDespawn;
import dev.jtecs.event.OnSpawn;
import dev.jtecs.mutation.SpawnQueue;
import dev.jtecs.storage.Archetype;
import dev.jtecs.stress.ModelInput.EdgeTo;
import dev.jtecs.world.World;
import dev.jtecs.world.WorldConfig;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Executes a {@link ModelScript} against a {@link World} and a {@link ReferenceWorld} side by side.
 *
 * <p>After every operation the touched entity and the lifecycle event logs ({@code OnSpawn}, {@code OnDespawn}
 * at address 0 and at observed entities) are compared; after every commit the whole world is: liveness of every
 * id ever seen, every palette component's value, the entity count, and the storage invariants (each archetype
 * row's entity resolves back to that archetype and row), the queries of {@link ModelQueries} (the members their
 * callbacks reported, their iteration by visitor and by cursor, and counts against the model's rule), and dirty
 * marks (every value written since the last check must read dirty, in an archetype the world's dirty queue
 * lists). A {@code commit(true, ...)} also {@code compact()}s the quiet world before the comparison. The batch
 * calls are executed by {@link ModelBatchCalls} and {@link ModelRestores}; every key they try to restore must
 * resolve through {@code byKey} to the entity the model gives it. In a relational script every live entity's
 * edges are compared too, with the relationship reads of {@link ModelRelations} from the commit's root. Frames
 * run the systems of {@link ModelSystems}, and spawn rules stage more work from an {@code OnSpawn} observer.
 *
 * <p>Legality is decided here, from the reference's state when the operation executes: calls naming dead,
 * stale or malformed ids, {@code spawnAt} of a live id, bad batch arguments and {@code EntityKey} in a bulk
 * call that refuses it must throw without changing anything. A spawn's edge to a target that is dead at
 * execution is left out of its inputs (rejected edges are exercised by {@code set}). Some publications fail on
 * purpose (a throwing callback, a bad restored key): the world must fail exactly when the reference does, keep
 * what the reference keeps, and go on working.
 *
 * <p>A mismatch throws {@link ModelMismatch} naming the seed, the operation index, the last operations and the
 * script, so {@code new ModelRun(script).run()} replays it exactly and {@link ModelShrinker} can shrink it.
 */
public final class ModelRun {
    private static final int LOG_TAIL = Integer.getInteger("jtecs.modelLogTail", 40);
    /** Entities a run's world can hold: far more than a script spawns, far fewer than never-used ids name. */
    static final int MAX_ENTITIES = 1 << 16;

    private final ModelScript script;
    private final WorldCalls calls;
    private final ReferenceWorld model = new ReferenceWorld();
    private final ModelBindings bindings = new ModelBindings();
    private final Deque<String> log = new ArrayDeque<>();
    private final boolean instant;
    private final boolean relational;
    private long cascadesChecked;
    private long sparseEdgesCompared;
    private long edgeCalls;
    private long partitionCalls;
    /**
     * Edges given to the world in legal calls, less those a {@code compact()} forgot: the world allocates their
     * pairs (an unmet pair's removal is a no-op).
     */
    private final Set<List<Object>> met = new HashSet<>(); // (relationship, target): payloads play no part
    private final List<String> events = new ArrayList<>();
    private final Set<String> expectDirty = new HashSet<>();
    private final ModelBatchCalls batches = new ModelBatchCalls(this);
    private final ModelFieldWrites fieldWrites = new ModelFieldWrites(this);
    private final ModelRestores restores = new ModelRestores(this);
    private ModelQueries queries;
    private ModelSystems systems;
    private World world;
    private int eventsChecked;
    private int step;
    private int executed;
    private long commits;
    private long rejected;
    private long batchCalls;
    private long failedPublications;
    private long frames;
    private final Set<String> triedKeys = new HashSet<>();

    /** The run of a seed's script ({@link ModelScript#generate(long, int)}). */
    public ModelRun(long seed, int operations) {
        this(ModelScript.generate(seed, operations));
    }

    public ModelRun(ModelScript script) {
        this(script, WorldCalls.DIRECT);
    }

    /** A run whose calls that change the world go through {@code calls} (a façade, in tests of the harness). */
    public ModelRun(ModelScript script, WorldCalls calls) {
        this.script = Objects.requireNonNull(script, "script");
        this.calls = Objects.requireNonNull(calls, "calls");
        this.instant = script.instant();
        this.relational = script.relational();
    }

    /**
     * Executes every operation, then commits and compares a last time; returns how many commits it compared.
     *
     * @throws ModelMismatch where the world and the reference disagree, or the world threw unexpectedly
     */
    public long run() {
        try (World created = World.create(WorldConfig.defaults().maxEntities(MAX_ENTITIES)
                .partitionConflicts(dev.jtecs.mutation.PartitionConflicts.RAISE))) {
            world = created;
            world.declarePartition(ModelComponents.MOOD);
            world.declarePartition(ModelComponents.FLAG);
            if (script.observed()) { // otherwise nobody listens: the world takes its silent paths, events unchecked
                world.observe(0, OnSpawn.class, event -> events.add("OnSpawn " + event.entity()));
                world.observe(0, OnDespawn.class, event -> events.add("OnDespawn " + event.entity()));
            }
            // an unobserved relational run leaves the archetypes unobserved too when its seed says so
            // (ModelGenerator.unwatched); a run without edges keeps its callbacks: it has no cascade to gain
            queries = new ModelQueries(world, this::fail,
                    script.observed() || !relational || !ModelGenerator.unwatched(script.seed()));
            systems = new ModelSystems(world);
            if (!instant) {
                calls.defer(world);
            }
            List<ModelOp> ops = script.ops();
            for (step = 0; step < ops.size(); step++) {
                executeChecked(ops.get(step));
                checkEvents();
                executed++;
            }
            note("commit (end of script)");
            try {
                commitChecked(false, null, false);
            } catch (RuntimeException e) {
                throw unexpected(e);
            }
        } finally {
            world = null;
            snapshots.close();
        }
        return commits;
    }

    /** The script this run executes. */
    public ModelScript script() {
        return script;
    }

    /** Whether this run used the instant path. */
    public boolean instant() {
        return instant;
    }

    /** Whether this run compared relationship edges. */
    public boolean relational() {
        return relational;
    }

    /** Whether this run observed the world's lifecycle events (and compared them). */
    public boolean observed() {
        return script.observed();
    }

    /** How many of the script's operations the run executed (all of them unless one failed). */
    public int executed() {
        return executed;
    }

    /** How many commits (and frames) the run compared in full, the closing one included. */
    public long commits() {
        return commits;
    }

    /** How many {@code setTag}/{@code unsetTag} operations the run executed (refused ones included). */
    public long partitionCalls() {
        return partitionCalls;
    }

    /** How many single calls with an edge or a relationship (set, remove) the run made. */
    public long edgeCalls() {
        return edgeCalls;
    }

    /** How many sparse edges the run compared (an edge counts at each comparison). */
    public long sparseEdgesCompared() {
        return sparseEdgesCompared;
    }

    /** How many entities despawned because a cascading target died. */
    public long cascades() {
        return model.cascades();
    }

    public long rejected() {
        return rejected;
    }

    /** How many batch calls (spawn batches, query batches, clears, restorations) the run made. */
    public long batchCalls() {
        return batchCalls;
    }

    /** How many publications failed as the reference predicted (a throwing callback, a bad restored key). */
    public long failedPublications() {
        return failedPublications;
    }

    /** What the run's in-place field writes met. */
    ModelFieldWrites fieldWrites() {
        return fieldWrites;
    }

    /** How many frames ({@code world.update}) the run ran. */
    public long frames() {
        return frames;
    }

    // ---------------------------------------------------------------- execution

    private void executeChecked(ModelOp op) {
        try {
            execute(op);
        } catch (RuntimeException e) {
            throw unexpected(e);
        }
    }

    private void execute(ModelOp op) {
        note(op.toJava());
        switch (op) {
            case ModelOp.Spawn s -> spawn(s);
            case ModelOp.SpawnAt s -> spawnAt(s);
            case ModelOp.SetInput s -> set(s);
            case ModelOp.Reparent r -> set(r.asSet());
            case ModelOp.Remove r -> {
                long id = resolve(r.id());
                if (r.component() instanceof BaseRelationship<?>) {
                    edgeCalls++;
                }
                mutate(id, () -> calls.remove(world, id, r.component()), () -> model.remove(id, r.component()));
            }
            case ModelOp.RemoveEdge r -> removeEdge(r);
            case ModelOp.PartitionTag p -> partitionTag(p);
            case ModelOp.Despawn d -> {
                long id = resolve(d.id());
                mutate(id, () -> calls.despawn(world, id), () -> model.despawn(id));
            }
            case ModelOp.Read r -> {
                long id = resolve(r.id());
                note("  reads " + Entity.toString(id));
                compareEntity(world, id);
            }
            case ModelOp.Commit c -> commit(c.compact(), c.root());
            case ModelOp.SaveLoad s -> saveLoad(s.mode(), s.root());
            case ModelOp.ObserveSpawns o -> systems.observeSpawns(world, o);
            case ModelOp.FieldWrite w -> fieldWrites.execute(world, w);
            case ModelOp.Update u -> update();
            default -> {
                batchCalls++;
                if (!batches.execute(world, op)) {
                    restores.execute(world, op);
                }
            }
        }
    }

    private void set(ModelOp.SetInput op) {
        long id = resolve(op.id());
        if (op.input() instanceof EdgeTo to) {
            edgeCalls++;
            RelationshipValue edge = to.resolve(this::resolve);
            // every other edge of a relationship without a payload goes through set(id, relationship, target), which
            // must leave what set(id, edge) leaves: the reference does not tell the two apart
            Runnable call = edge.relationship() instanceof Relationship plain && (edgeCalls & 1) == 0
                    ? () -> calls.setTarget(world, id, plain, edge.target()) : () -> calls.set(world, id, edge);
            if (!model.isKnownLiveOrReserved(edge.target())) {
                note("  dead target " + Entity.toString(edge.target()) + ": expect rejection");
                expectRejection(world, call);
                return;
            }
            if (model.isKnownLiveOrReserved(id)) {
                meet(edge);
            }
            mutate(id, call, () -> model.set(id, edge));
            return;
        }
        Input input = ((ModelInput.Given) op.input()).input();
        mutate(id, () -> calls.set(world, id, input), () -> {
            model.set(id, input);
            expectDirty(id, input.component());
        });
    }

    /**
     * {@code setTag}/{@code unsetTag}: refused for {@code unsetTag} on a multi-variant dimension and for ids that
     * are not live; a conflicting operation in this submission throws (the world raises) and changes nothing;
     * otherwise the reference stages what the rules say.
     */
    private void partitionTag(ModelOp.PartitionTag op) {
        partitionCalls++;
        long id = resolve(op.id());
        dev.jtecs.component.TagComponent tag = op.tag();
        dev.jtecs.mutation.PartitionDimension dimension = ModelComponents.dimensionOf(tag);
        Runnable onWorld = op.set() ? () -> world.setTag(id, tag) : () -> world.unsetTag(id, tag);
        if (!op.set() && !dimension.isPresence()) {
            note("  unsetTag on a multi-variant dimension: expect rejection");
            expectRejection(world, onWorld);
            return;
        }
        if (model.isKnownLiveOrReserved(id) && model.partitionConflicts(id, dimension, tag, op.set())) {
            note("  a second operation on " + dimension.name() + " in this submission: expect a conflict");
            int before = world.entityCount();
            boolean pendingBefore = world.hasPendingChanges();
            try {
                onWorld.run();
                fail("expected a PartitionConflictException");
            } catch (dev.jtecs.mutation.PartitionConflictException expected) {
                rejected++;
                check(world.entityCount() == before && world.hasPendingChanges() == pendingBefore,
                        "a refused partition operation changed the world");
            }
            return;
        }
        mutate(id, onWorld, () -> model.partition(id, dimension, tag, op.set()));
    }

    private void removeEdge(ModelOp.RemoveEdge op) {
        long id = resolve(op.id());
        edgeCalls++;
        RelationshipValue edge = op.edge().resolve(this::resolve); // the target may be dead: removing checks none
        if (!met(edge)) {
            note("  skipped: the world never met this pair, so removing it stages nothing");
            return;
        }
        Runnable call = (edgeCalls & 1) == 0 // every other one through remove(id, relationship, target)
                ? () -> calls.removeTarget(world, id, edge.relationship(), edge.target())
                : () -> calls.removeEdge(world, id, edge);
        mutate(id, call, () -> model.removeEdge(id, edge));
    }

    private void spawn(ModelOp.Spawn op) {
        Input[] inputs = liveInputs(op.inputs());
        SpawnQueue queue = op.handle() % 3 == 1 ? queueOf(inputs) : null;
        if (queue != null) {
            note("  through the spawn queue of its inputs");
        }
        long id = queue != null ? calls.spawn(queue) : calls.spawn(world, inputs);
        spawned(op.handle(), id, inputs, op.observe(), queue != null);
    }

    // the spawn queues of this run's world, by their inputs: every third spawn goes through one, sharing its staged
    // rows and batches with the spawns of the same inputs before it (the reference places it as a batch of one)
    private final Map<List<Input>, SpawnQueue> queues = new java.util.HashMap<>();
    private World queuesOf;

    /** The queue of {@code inputs} in this world; null when the world makes none of them (World.spawn then). */
    private SpawnQueue queueOf(Input[] inputs) {
        if (queuesOf != world) {
            queues.clear();
            queuesOf = world;
        }
        List<Input> shape = List.of(inputs);
        SpawnQueue queue = queues.get(shape);
        if (queue == null) {
            try {
                queue = world.spawnQueue(shape);
            } catch (IllegalArgumentException refused) { // a shape a queue does not take (keys, sparse edges, ...)
                return null;
            }
            queues.put(shape, queue);
        }
        return queue;
    }

    private void spawnAt(ModelOp.SpawnAt op) {
        Input[] inputs = liveInputs(op.inputs());
        long id = resolve(op.id());
        if (!isFree(id)) {
            note("  " + Entity.toString(id) + " is in use: expect rejection");
            expectRejection(world, () -> calls.spawnAt(world, id, inputs));
            return;
        }
        calls.spawnAt(world, id, inputs);
        spawned(op.handle(), id, inputs, op.observe(), false);
    }

    /** What follows a single spawn the world accepted: the reference, the spawn rules, the handle, an observer. */
    private void spawned(int handle, long id, Input[] inputs, boolean observe, boolean queued) {
        meetAll(List.of(inputs));
        note("  -> " + Entity.toString(id));
        if (queued) {
            model.queueSpawn(id, inputs);
        } else {
            model.spawn(id, inputs);
        }
        for (Input value : systems.applyRules(id, model)) {
            note("  a spawn rule sets " + describe(value));
            expectDirty(id, value.component());
        }
        settle();
        bind(handle, id);
        maybeObserve(observe, id);
        check(world.isAlive(id) == model.isAlive(id), "a spawn is alive at once exactly on the instant path "
                + "(unless a spawn rule cancelled it): " + Entity.toString(id));
    }

    /** The inputs of a spawn, edges resolved, those whose target is dead at execution left out. */
    Input[] liveInputs(List<ModelInput> inputs) {
        List<Input> live = new ArrayList<>(inputs.size());
        for (ModelInput input : inputs) {
            Input resolved = input.resolve(this::resolve);
            if (!(resolved instanceof RelationshipValue edge) || model.isKnownLiveOrReserved(edge.target())) {
                live.add(resolved);
            }
        }
        return live.toArray(new Input[0]);
    }

    /**
     * Whether {@code spawnAt(id)} is legal: well formed, no live or reserved entity holds the id's slot, and the id
     * is not stale: a dead id of the slot with the same or a later generation means the slot's generation has
     * moved past the id's (a freed slot's generation is one more than its last occupant's).
     */
    boolean isFree(long id) {
        if (!Entity.isWellFormed(id) || Entity.slot(id) > MAX_ENTITIES) {
            return false;
        }
        for (long other : bindings.seen()) {
            if (Entity.slot(other) == Entity.slot(id)
                    && (model.isKnownLiveOrReserved(other) || Entity.generation(other) >= Entity.generation(id))) {
                return false;
            }
        }
        return !model.isKnownLiveOrReserved(id);
    }

    /** An {@code OnDespawn} observer at a live or staged entity's own address, when the operation asks. */
    void maybeObserve(boolean observe, long id) {
        if (observe && script.observed() && model.isKnownLiveOrReserved(id)) {
            note("  observe " + Entity.toString(id));
            world.observe(id, OnDespawn.class, event -> events.add("OnDespawn@ " + event.entity()));
            model.observe(id);
        }
    }

    private void mutate(long id, Runnable onWorld, Runnable onModel) {
        if (model.isKnownLiveOrReserved(id)) {
            onWorld.run();
            onModel.run();
            settle();
            compareEntity(world, id);
        } else {
            note("  " + Entity.toString(id) + " is not live: expect rejection");
            expectRejection(world, onWorld);
        }
    }

    /**
     * One frame: staged work is committed and everything compared first (the frame clears the dirty marks that
     * comparison checks), then the systems run on the world and on the reference.
     */
    private void update() {
        commitChecked(false, null, false); // on the staged path this closes the scope: the frame runs outside any
        frames++;
        RuntimeException thrown = null;
        try {
            calls.update(world, ModelSystems.DT);
        } catch (RuntimeException e) {
            thrown = e;
        }
        published(thrown, ModelSystems.update(model));
        checkEventsPerEntity(); // the reaping reports in storage order
        expectDirty.clear(); // a frame ends by clearing every dirty mark
        commits++;
        compareAll(world, bindings.last());
        if (!instant) {
            calls.defer(world);
        }
    }

    // ---------------------------------------------------------------- handles

    /** The id a reference names now (see {@link ModelBindings}). */
    long resolve(ModelRef ref) {
        return bindings.resolve(ref);
    }

    long[] resolveAll(List<ModelRef> refs) {
        return bindings.resolveAll(refs);
    }

    /** Binds a handle to an id the world accepted; the id joins those every comparison checks. */
    void bind(int handle, long id) {
        bindings.bind(handle, id);
    }

    // ---------------------------------------------------------------- publication

    /** On the instant path every call is published before it returns: the model publishes too. */
    void settle() {
        settle(null);
    }

    /**
     * {@link #settle()} after a call that may fail at publication: on the instant path the call itself threw
     * ({@code thrown}) exactly when the reference's publication fails.
     */
    void settle(RuntimeException thrown) {
        if (instant) {
            published(thrown, model.commit());
        } else if (thrown != null) {
            fail("a staged call threw " + thrown);
        }
    }

    /** Checks that the world's publication failed exactly when the reference's did. */
    private void published(RuntimeException thrown, String failure) {
        if ((thrown == null) != (failure == null)) {
            ModelMismatch mismatch = mismatch("publication: world " + (thrown == null ? "succeeded" : "threw "
                    + thrown) + ", model " + (failure == null ? "succeeds" : "fails: " + failure));
            if (thrown != null) {
                mismatch.initCause(thrown); // where the world threw
            }
            throw mismatch;
        }
        if (model.cascades() != cascadesChecked) {
            cascadesChecked = model.cascades();
            checkEventsPerEntity(); // a cascade reports its despawns in the world's traversal order
        }
        if (thrown != null) {
            failedPublications++;
            note("  failed as predicted: " + failure);
            if (!instant) {
                expectDirty.clear(); // the discarded part of the transaction wrote nothing
            }
        }
    }

    /** Remembers a key the run tried to restore: every comparison checks who holds it. */
    void triedKey(String key) {
        if (key != null && !key.isEmpty()) {
            triedKeys.add(key);
        }
    }

    void expectRejection(World world, Runnable call) {
        int before = world.entityCount();
        boolean pendingBefore = world.hasPendingChanges();
        try {
            call.run();
        } catch (IllegalArgumentException expected) {
            rejected++;
            check(world.entityCount() == before && world.hasPendingChanges() == pendingBefore,
                    "a rejected call changed the world");
            return;
        }
        fail("expected the world to reject the call");
    }

    private void commit(boolean compact, ModelRef root) {
        long id = resolve(root);
        commitChecked(compact, bindings.isBound(id) ? id : bindings.last(), true);
    }

    /**
     * Commits and compares, saves the quiet world, loads the snapshot back into it, and checks against the
     * reference everything a commit compares (a load reapplies requirements the rows lack, as {@code spawnAt}
     * does), that key holders and reverse indexes read as before, and that a loaded world saves and loads back
     * to an identical snapshot.
     */
    private void saveLoad(int mode, ModelRef root) {
        long id = resolve(root);
        long rootId = bindings.isBound(id) ? id : bindings.last();
        commitChecked(false, rootId, false);
        String mismatch = snapshots.roundTrip(world, calls, mode, triedKeys);
        if (mismatch != null) {
            fail(mismatch);
        }
        snapshotsChecked++;
        model.restoreFromSnapshot(); // requirements reapplied, observers at entity addresses dropped
        compareAll(world, rootId);
        if (!instant) {
            calls.defer(world);
        }
    }

    /** How many snapshot round trips the run checked. */
    public long snapshotsChecked() {
        return snapshotsChecked;
    }

    private long snapshotsChecked;
    private final ModelSnapshots snapshots = new ModelSnapshots();

    /** A commit the run makes on its own (before a call that must publish alone): no compaction. */
    void commit(World world) {
        note("commit");
        commitChecked(false, null, true);
    }

    /**
     * Closes the transaction (staged path) and compares everything from {@code root} ({@code null}: the last id
     * seen); {@code compact} compacts the quiet world first; {@code reopen} opens the next scope (staged path).
     */
    private void commitChecked(boolean compact, Long root, boolean reopen) {
        RuntimeException thrown = null;
        try {
            calls.commit(world);
        } catch (RuntimeException e) {
            thrown = e;
        }
        published(thrown, model.commit());
        commits++;
        if (compact) {
            note("  compact");
            calls.compact(world); // a quiet world: must change nothing observable
            met.removeIf(edge -> !model.isAlive((Long) edge.get(1))); // it forgets the pairs of dead targets
        }
        compareAll(world, root == null ? bindings.last() : root);
        if (!instant && reopen) {
            calls.defer(world);
        }
    }

    // ---------------------------------------------------------------- comparisons

    /** Compares the event entries logged since the last check (the logs only grow). */
    private void checkEvents() {
        if (!script.observed()) {
            return; // nothing observes the world: it logs no event to compare
        }
        List<String> expected = model.events();
        int i = eventsChecked;
        while (i < events.size() && i < expected.size() && events.get(i).equals(expected.get(i))) {
            i++;
        }
        if (i < events.size() || i < expected.size()) {
            fail("event logs differ from entry " + i + ": world=" + around(events, i) + " model="
                    + around(expected, i));
        }
        eventsChecked = events.size();
    }

    private static List<String> around(List<String> log, int index) {
        return log.subList(Math.max(0, index - 3), Math.min(log.size(), index + 3));
    }

    /**
     * Compares the entries logged since the last check per entity, in any entity order: a batch despawn
     * delivers in storage order, which the model does not predict (each entity's own entries keep their order).
     */
    void checkEventsPerEntity() {
        if (!script.observed()) {
            return;
        }
        List<String> expected = model.events();
        Comparator<String> byEntity = Comparator.comparingLong(e -> Long.parseLong(e.substring(e.indexOf(' ') + 1)));
        List<String> actual = new ArrayList<>(events.subList(eventsChecked, events.size()));
        List<String> wanted = new ArrayList<>(expected.subList(Math.min(eventsChecked, expected.size()),
                expected.size()));
        actual.sort(byEntity);
        wanted.sort(byEntity);
        if (!actual.equals(wanted)) {
            fail("batch despawn events differ: world=" + actual + " model=" + wanted);
        }
        eventsChecked = events.size();
    }

    /** Every value written since the last clear must be reported dirty; then clear. */
    private void compareDirty(World world) {
        List<Archetype> queued = world.dirtyArchetypes();
        for (String written : expectDirty) {
            int bar = written.indexOf('|');
            long id = Long.parseLong(written.substring(0, bar));
            Component<?> component = Components.findByName(written.substring(bar + 1));
            if (world.isAlive(id) && world.has(id, component)) {
                Archetype archetype = world.archetypeOf(id);
                check(archetype.isComponentDirty(component), "a write to " + Entity.toString(id) + " "
                        + component.name() + " was not marked dirty");
                check(queued.contains(archetype), "dirty archetype missing from the queue");
            }
        }
        expectDirty.clear();
        world.clearDirty();
    }

    void expectDirty(long id, Component<?> component) {
        expectDirty.add(id + "|" + component.name());
    }

    private void compareAll(World world, long root) {
        queries.compare(model.rows());
        compareDirty(world);
        check(world.entityCount() == model.aliveCount(),
                "entityCount world=" + world.entityCount() + " model=" + model.aliveCount());
        check(!world.hasPendingChanges(), "pending changes after commit");
        compareSeen(world);
        compareKeys(world);
        if (relational && !bindings.seen().isEmpty()) {
            ModelRelations.compare(world, model, root, this::fail);
        }
        int[] rows = {0};
        world.forEachArchetype(archetype -> rows[0] += checkArchetype(world, archetype));
        check(rows[0] == model.aliveCount(), "archetype rows=" + rows[0] + " alive=" + model.aliveCount());
    }

    /** Every key tried so far resolves to the entity whose row holds it, or to nothing. */
    private void compareKeys(World world) {
        Map<String, Long> holders = new java.util.HashMap<>();
        for (Map.Entry<Long, Map<Component<?>, Object>> entity : model.rows().entrySet()) {
            Object key = entity.getValue().get(ModelComponents.KEY);
            if (key != null && holders.put((String) key, entity.getKey()) != null) {
                fail("the model gave key '" + key + "' to two entities");
            }
        }
        for (String key : triedKeys) {
            long expected = holders.getOrDefault(key, 0L);
            if (world.byKey(key) != expected) {
                fail("byKey('" + key + "') world=" + Entity.toString(world.byKey(key)) + " model="
                        + Entity.toString(expected));
            }
        }
    }

    /** After {@code clearEntities()}: nothing alive, nothing pending, every query empty. */
    void compareCleared(World world) {
        check(world.entityCount() == 0 && model.aliveCount() == 0, "entities left after clearEntities: world="
                + world.entityCount() + " model=" + model.aliveCount());
        check(!world.hasPendingChanges(), "pending changes after clearEntities");
        queries.compare(Map.of());
        compareSeen(world);
        compareKeys(world);
    }

    /** Every id ever seen: live ones compared in full, dead ones must read dead. */
    private void compareSeen(World world) {
        for (long id : bindings.seen()) {
            if (model.isAlive(id)) {
                compareEntity(world, id);
            } else if (world.isAlive(id)) {
                fail("isAlive(" + Entity.toString(id) + ") world=true model=false");
            }
        }
    }

    private int checkArchetype(World world, Archetype archetype) {
        for (int row = 0; row < archetype.count(); row++) {
            long id = archetype.entity(row);
            if (!world.isAlive(id)) {
                fail("archetype " + archetype.id() + " row " + row + " holds dead " + Entity.toString(id));
            }
            if (world.archetypeOf(id) != archetype || world.rowOf(id) != row) {
                fail("entity " + Entity.toString(id) + " does not resolve to archetype " + archetype.id() + " row "
                        + row);
            }
            Map<Component<?>, Object> expected = model.row(id);
            for (Component<?> component : ModelComponents.COMPARED) {
                if (expected == null || archetype.has(component) != expected.containsKey(component)) {
                    fail("archetype membership of " + component.name() + " for " + Entity.toString(id));
                }
            }
        }
        return archetype.count();
    }

    void compareEntity(World world, long id) {
        Map<Component<?>, Object> row = model.row(id);
        if (world.isAlive(id) != (row != null)) {
            fail("isAlive(" + Entity.toString(id) + ") world=" + world.isAlive(id) + " model=" + (row != null));
        }
        for (Component<?> component : ModelComponents.COMPARED) {
            Object expected = row == null ? null : row.get(component);
            if (component instanceof BaseRelationship<?> sparse && sparse.isSparse()) { // get reads the store
                List<Object> edges = model.edges(id, sparse);
                expected = edges.isEmpty() ? null : edges.get(0);
            }
            boolean present = expected != null || (row != null && row.containsKey(component));
            Object actual = world.get(id, component);
            if (!Objects.equals(expected, actual)) { // messages are built only on failure: this runs millions of times
                fail("get(" + Entity.toString(id) + ", " + component.name() + ") world=" + actual + " model="
                        + expected);
            }
            if (world.has(id, component) != present) {
                fail("has(" + Entity.toString(id) + ", " + component.name() + ") world=" + !present);
            }
        }
        if (relational && row != null) {
            for (BaseRelationship<?> relationship : ModelComponents.RELATIONSHIPS) {
                List<Object> targets = new ArrayList<>();
                world.forEachRelationship(id, relationship, targets::add); // records with their payloads
                List<Object> expected = model.edges(id, relationship);
                if (relationship.isSparse()) {
                    sparseEdgesCompared += expected.size();
                }
                if (!targets.equals(expected)) {
                    fail("forEachRelationship(" + Entity.toString(id) + ", " + relationship.name() + ") world="
                            + targets + " model=" + expected);
                }
            }
        }
    }

    // ---------------------------------------------------------------- state shared with the bulk calls

    ReferenceWorld model() {
        return model;
    }

    ModelQueries queries() {
        return queries;
    }

    WorldCalls calls() {
        return calls;
    }

    /**
     * Whether the world surely knows this edge's pair: given in a call, and not forgotten by a {@code compact()}
     * since (which forgets the pairs of dead targets, even of an id that a restoration later brings back).
     */
    boolean met(RelationshipValue edge) {
        return edge.relationship().isSparse() || met.contains(pair(edge)); // sparse edges make no pair
    }

    void meet(RelationshipValue edge) {
        met.add(pair(edge));
    }

    private static List<Object> pair(RelationshipValue edge) {
        return List.of(edge.relationship(), edge.target());
    }

    /** Records the edges among inputs a call accepted. */
    void meetAll(Iterable<? extends Input> inputs) {
        for (Input input : inputs) {
            if (input instanceof RelationshipValue edge) {
                meet(edge);
            }
        }
    }

    boolean isRelational() {
        return relational;
    }

    boolean isInstant() {
        return instant;
    }

    // ---------------------------------------------------------------- logging and failing

    void note(String entry) {
        if (log.size() == LOG_TAIL) {
            log.removeFirst();
        }
        log.addLast("#" + step + " " + entry);
    }

    void check(boolean condition, String message) {
        if (!condition) {
            fail(message);
        }
    }

    void fail(String message) {
        throw mismatch(message);
    }

    private ModelMismatch mismatch(String message) {
        return new ModelMismatch(script, step, message, List.copyOf(log));
    }

    /** The world threw where the reference expected nothing: a mismatch that carries the world's exception. */
    private ModelMismatch unexpected(RuntimeException thrown) {
        ModelMismatch mismatch = mismatch("the world threw " + thrown);
        mismatch.initCause(thrown);
        return mismatch;
    }

    static String describe(Input... inputs) {
        StringBuilder sb = new StringBuilder("[");
        for (Input input : inputs) {
            sb.append(sb.length() > 1 ? ", " : "").append(describe(input));
        }
        return sb.append(']').toString();
    }

    static String describe(Input input) {
        return input instanceof Component<?> c ? c.name() + "(default)" : input.toString();
    }
}
