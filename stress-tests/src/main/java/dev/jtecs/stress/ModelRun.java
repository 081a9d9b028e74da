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
import dev.jtecs.storage.Archetype;
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
import java.util.SplittableRandom;

/**
 * One seeded random operation stream run against a {@link World} and a {@link ReferenceWorld} side by side.
 *
 * <p>After every operation the touched entity and the lifecycle event logs ({@code OnSpawn}, {@code OnDespawn}
 * at address 0 and at observed entities) are compared; after every commit the whole world is: liveness of every
 * id ever seen, every palette component's value, the entity count, and the storage invariants (each archetype
 * row's entity resolves back to that archetype and row), the queries of {@link ModelQueries} (the members their
 * callbacks reported, their iteration and counts against the model's rule), and dirty marks (every value
 * written since the last check must read dirty, in an archetype the world's dirty queue lists). Some commits
 * also {@code compact()} the quiet world before the comparison. The batch calls are driven by
 * {@link ModelBatchCalls} and {@link ModelRestores}; every key they try to restore must resolve through
 * {@code byKey} to the entity the model gives it. Three runs in four also add and remove relationship edges
 * (in single and batch calls; targets die, cascades despawn subtrees), compare every live entity's edges, and
 * check the relationship reads of {@link ModelRelations}. The seed picks the instant path or the staged path.
 * Illegal operations (dead, stale or malformed ids; {@code spawnAt} of a live id; bad batch arguments;
 * {@code EntityKey} in a bulk call that refuses it) are issued on purpose and must throw without changing
 * anything. Some
 * publications fail on purpose (a throwing callback, a bad restored key): the world must fail exactly when the
 * reference does, keep what the reference keeps, and go on working.
 *
 * <p>A mismatch throws {@link ModelMismatch} naming the seed, the operation index and the last operations, so
 * {@code new ModelRun(seed, ops).run()} replays it exactly.
 */
public final class ModelRun {
    private static final int LOG_TAIL = Integer.getInteger("jtecs.modelLogTail", 40);
    /**
     * Relationship edges in three runs in four; {@code -Djtecs.modelRelations=false} leaves them out (to tell
     * whether a mismatch needs them).
     */
    private static final boolean RELATIONS =
            Boolean.parseBoolean(System.getProperty("jtecs.modelRelations", "true"));

    private final long seed;
    private final int operations;
    private final SplittableRandom random;
    private final ReferenceWorld model = new ReferenceWorld();
    private final List<Long> seen = new ArrayList<>();
    private final Deque<String> log = new ArrayDeque<>();
    private final boolean instant;
    private final boolean relational;
    private long cascadesChecked;
    private long sparseEdgesCompared;
    private long edgeCalls;
    /**
     * Edges given to the world in legal calls, less those a {@code compact()} forgot: the world allocates their
     * pairs (an unmet pair's removal is a no-op).
     */
    private final Set<List<Object>> met = new HashSet<>(); // (relationship, target): payloads play no part
    private final List<String> events = new ArrayList<>();
    private final Set<String> expectDirty = new HashSet<>();
    private final ModelBatchCalls batches = new ModelBatchCalls(this);
    private ModelQueries queries;
    private int eventsChecked;
    private int step;
    private long commits;
    private long rejected;
    private long batchCalls;
    private long failedPublications;
    private final Set<String> triedKeys = new HashSet<>();

    /**
     * A run whose seed also picks the mode: the instant path (no scope open, every structural call publishes
     * at once) or the staged path (one {@code defer()} scope per transaction, closed by the commit operations).
     */
    public ModelRun(long seed, int operations) {
        this.seed = seed;
        this.operations = operations;
        this.random = new SplittableRandom(seed);
        this.instant = random.nextBoolean();
        this.relational = random.nextInt(4) != 0 && RELATIONS;
    }

    /** Runs the whole stream; returns how many commits it checked. */
    public long run() {
        try (World world = World.create(WorldConfig.defaults().maxEntities(1 << 16))) {
            world.observe(0, OnSpawn.class, event -> events.add("OnSpawn " + event.entity()));
            world.observe(0, OnDespawn.class, event -> events.add("OnDespawn " + event.entity()));
            queries = new ModelQueries(world, this::fail);
            if (!instant) {
                world.defer();
            }
            for (step = 0; step < operations; step++) {
                apply(world);
                if (instant && (step % 25 == 24)) {
                    commits++; // every call published: compare the whole world now and then
                    compareAll(world);
                }
                checkEvents();
            }
            commit(world);
        }
        return commits;
    }

    /** Whether this run used the instant path. */
    public boolean instant() {
        return instant;
    }

    /** Whether this run added relationship edges (three runs in four). */
    public boolean relational() {
        return relational;
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

    /** How many batch calls (spawn batches, query batches, clears) the run made. */
    public long batchCalls() {
        return batchCalls;
    }

    /** How many publications failed as the reference predicted (a throwing callback, a bad restored key). */
    public long failedPublications() {
        return failedPublications;
    }

    private void apply(World world) {
        int roll = random.nextInt(1000);
        if (roll < 200 || seen.isEmpty()) {
            spawn(world);
        } else if (roll < 380 && relational && random.nextInt(3) == 0) {
            setEdge(world);
        } else if (roll < 510 && roll >= 380 && relational && random.nextInt(3) == 0) {
            removeEdges(world);
        } else if (roll < 380) {
            long id = pickId();
            Input input = ModelComponents.randomInput(pickComponent(), random);
            mutate(world, "set " + Entity.toString(id) + " " + describe(input), id,
                    () -> world.set(id, input), () -> {
                        model.set(id, input);
                        expectDirty(id, input.component());
                    });
        } else if (roll < 510) {
            long id = pickId();
            Component<?> component = pickComponent();
            mutate(world, "remove " + Entity.toString(id) + " " + component.name(), id,
                    () -> world.remove(id, component), () -> model.remove(id, component));
        } else if (roll < 610) {
            long id = pickId();
            mutate(world, "despawn " + Entity.toString(id), id, () -> world.despawn(id), () -> model.despawn(id));
        } else if (roll < 670) {
            spawnAt(world);
        } else if (roll < 670 + ModelBatchCalls.ROLLS) {
            batchCalls++;
            batches.apply(world, roll - 670);
        } else if (roll < 970) {
            commit(world);
        } else {
            long id = random.nextInt(3) == 0 ? random.nextLong() : pickId();
            note("read " + id);
            compareEntity(world, id);
        }
    }

    private void setEdge(World world) {
        long id = pickId();
        RelationshipValue edge = randomEdge();
        edgeCalls++;
        if (!model.isKnownLiveOrReserved(edge.target())) {
            note("set " + Entity.toString(id) + " " + edge + " (dead target: expect rejection)");
            expectRejection(world, () -> world.set(id, edge));
            return;
        }
        if (model.isKnownLiveOrReserved(id)) {
            meet(edge);
        }
        mutate(world, "set " + Entity.toString(id) + " " + edge, id, () -> world.set(id, edge),
                () -> model.set(id, edge));
    }

    private void removeEdges(World world) {
        long id = pickId();
        edgeCalls++;
        if (random.nextBoolean()) {
            BaseRelationship<?> relationship = pickRelationship();
            mutate(world, "remove " + Entity.toString(id) + " " + relationship.name(), id,
                    () -> world.remove(id, relationship), () -> model.remove(id, relationship));
        } else {
            RelationshipValue edge = randomEdge(); // the target may be dead: removing names an edge, checks none
            if (!met(edge)) {
                return; // removing an edge the world has no pair for stages nothing: the model cannot tell
            }
            boolean known = true;
            mutate(world, "remove " + Entity.toString(id) + " " + edge, id, () -> world.remove(id, edge),
                    () -> {
                        if (known) {
                            model.removeEdge(id, edge);
                        }
                    });
        }
    }

    /** An edge of a random relationship to a seen id (live, staged or dead), sometimes one never used. */
    RelationshipValue randomEdge() {
        long target = random.nextInt(30) == 0 ? Entity.pack(random.nextInt(1, 5000) + 200_000, 0)
                : seen.get(random.nextInt(seen.size()));
        return ModelComponents.edge(pickRelationship(), target, random);
    }

    BaseRelationship<?> pickRelationship() {
        return ModelComponents.RELATIONSHIPS.get(random.nextInt(ModelComponents.RELATIONSHIPS.size()));
    }

    /** In a relational run, one input list in three also gets one to three edges to live or staged targets. */
    Input[] withEdges(Input[] inputs) {
        if (!relational || seen.isEmpty() || random.nextInt(3) != 0) {
            return inputs;
        }
        List<Input> all = new ArrayList<>(List.of(inputs));
        for (int n = random.nextInt(1, 4); n > 0; n--) {
            RelationshipValue edge = randomEdge();
            if (model.isKnownLiveOrReserved(edge.target())) {
                all.add(random.nextInt(all.size() + 1), edge);
            }
        }
        return all.toArray(new Input[0]);
    }

    private void spawn(World world) {
        Input[] inputs = withEdges(randomInputs());
        long id = world.spawn(inputs);
        meetAll(List.of(inputs));
        note("spawn -> " + Entity.toString(id) + " " + describe(inputs));
        model.spawn(id, inputs);
        settle();
        seen.add(id);
        maybeObserve(world, id);
        check(world.isAlive(id) == instant, "a spawn is alive at once exactly on the instant path: "
                + Entity.toString(id));
    }

    private void spawnAt(World world) {
        Input[] inputs = withEdges(randomInputs());
        long id = candidateForSpawnAt();
        boolean legal = isFree(id);
        note("spawnAt " + Entity.toString(id) + " " + describe(inputs) + (legal ? "" : " (expect rejection)"));
        if (legal) {
            world.spawnAt(id, inputs);
            meetAll(List.of(inputs));
            model.spawn(id, inputs);
            settle();
            seen.add(id);
            maybeObserve(world, id);
        } else {
            expectRejection(world, () -> world.spawnAt(id, inputs));
        }
    }

    /** A slot used before (with a generation past its last one), a live id, or a slot beyond any used so far. */
    long candidateForSpawnAt() {
        int choice = random.nextInt(3);
        if (choice == 0 && !seen.isEmpty()) {
            long old = seen.get(random.nextInt(seen.size()));
            return Entity.pack(Entity.slot(old), Entity.generation(old) + random.nextInt(1, 3));
        }
        if (choice == 1 && !seen.isEmpty()) {
            return seen.get(random.nextInt(seen.size()));
        }
        int maxSlot = 0;
        for (long id : seen) {
            maxSlot = Math.max(maxSlot, Entity.slot(id));
        }
        return Entity.pack(maxSlot + random.nextInt(1, 6), random.nextInt(3));
    }

    /** Whether {@code spawnAt(id)} is legal: no live or reserved entity holds the id's slot. */
    boolean isFree(long id) {
        for (long other : seen) {
            if (Entity.slot(other) == Entity.slot(id) && model.isKnownLiveOrReserved(other)) {
                return false;
            }
        }
        return !model.isKnownLiveOrReserved(id);
    }

    /** One spawn in ten also gets an {@code OnDespawn} observer at its own address. */
    void maybeObserve(World world, long id) {
        if (random.nextInt(10) == 0) {
            note("observe " + Entity.toString(id));
            world.observe(id, OnDespawn.class, event -> events.add("OnDespawn@ " + event.entity()));
            model.observe(id);
        }
    }

    private void mutate(World world, String description, long id, Runnable onWorld, Runnable onModel) {
        note(description);
        if (model.isKnownLiveOrReserved(id)) {
            onWorld.run();
            onModel.run();
            settle();
            compareEntity(world, id);
        } else {
            expectRejection(world, onWorld);
        }
    }

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

    /** Closes the transaction (staged path) and compares everything; one commit in five also compacts first. */
    void commit(World world) {
        note("commit");
        RuntimeException thrown = null;
        try {
            world.commit();
        } catch (RuntimeException e) {
            thrown = e;
        }
        published(thrown, model.commit());
        commits++;
        if (random.nextInt(5) == 0) {
            note("compact");
            world.compact(); // a quiet world: must change nothing observable
            met.removeIf(edge -> !model.isAlive((Long) edge.get(1))); // it forgets the pairs of dead targets
        }
        compareAll(world);
        if (!instant && step < operations) {
            world.defer();
        }
    }

    // ---------------------------------------------------------------- comparisons

    /** Compares the event entries logged since the last check (the logs only grow). */
    private void checkEvents() {
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

    private void compareAll(World world) {
        queries.compare(model.rows());
        compareDirty(world);
        check(world.entityCount() == model.aliveCount(),
                "entityCount world=" + world.entityCount() + " model=" + model.aliveCount());
        check(!world.hasPendingChanges(), "pending changes after commit");
        compareSeen(world);
        compareKeys(world);
        if (relational && !seen.isEmpty()) {
            ModelRelations.compare(world, model, seen.get(random.nextInt(seen.size())), this::fail);
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
        for (long id : seen) {
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

    // ---------------------------------------------------------------- random choices and logging

    Input[] randomInputs() {
        int n = random.nextInt(0, 5);
        Input[] inputs = new Input[n];
        for (int i = 0; i < n; i++) {
            inputs[i] = ModelComponents.randomInput(pickComponent(), random);
        }
        return inputs;
    }

    Component<?> pickComponent() {
        return ModelComponents.ALL.get(random.nextInt(ModelComponents.ALL.size()));
    }

    /** Mostly ids seen before (live, staged or dead); sometimes malformed or never-used ids. */
    private long pickId() {
        int roll = random.nextInt(20);
        if (roll == 0) {
            return random.nextInt(3) - 1L; // 0, -1 or 1
        }
        if (roll == 1) {
            return Entity.pack(random.nextInt(1, 5000) + 200_000, 0);
        }
        return seen.get(random.nextInt(seen.size()));
    }

    SplittableRandom random() {
        return random;
    }

    ReferenceWorld model() {
        return model;
    }

    ModelQueries queries() {
        return queries;
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

    /** Records ids the world handed out (or accepted), so later operations pick them. */
    void seen(long[] ids) {
        for (long id : ids) {
            seen.add(id);
        }
    }

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
        return new ModelMismatch(seed, step, message, List.copyOf(log));
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
