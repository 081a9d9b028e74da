package dev.jtecs.world;

import dev.jtecs.entity.internal.Failures;
import dev.jtecs.builtin.EntityKey;
import dev.jtecs.component.Component;
import dev.jtecs.component.ComponentValue;
import dev.jtecs.component.Input;
import dev.jtecs.component.FloatField;
import dev.jtecs.component.IntField;
import dev.jtecs.component.LongField;
import dev.jtecs.component.DoubleField;
import dev.jtecs.component.ShortField;
import dev.jtecs.component.ByteField;
import dev.jtecs.component.CharField;
import dev.jtecs.component.BooleanField;
import dev.jtecs.component.PairComponent;
import dev.jtecs.component.BaseRelationship;
import dev.jtecs.component.Relationship;
import dev.jtecs.component.RelationshipValue;
import dev.jtecs.component.TagComponent;
import dev.jtecs.component.TargetSelector;
import dev.jtecs.entity.Entity;
import dev.jtecs.entity.internal.EntityIndex;
import dev.jtecs.event.ArchetypeCreated;
import dev.jtecs.event.Observer;
import dev.jtecs.event.OnDespawn;
import dev.jtecs.event.OnSpawn;
import dev.jtecs.event.internal.ObserverRegistry;
import dev.jtecs.mutation.internal.CommitDrain;
import dev.jtecs.mutation.internal.Confinement;
import dev.jtecs.query.Query;
import dev.jtecs.query.QueryDescriptor;
import dev.jtecs.query.internal.QueryHost;
import dev.jtecs.query.internal.WorldQuery;
import dev.jtecs.random.RandomStreams;
import dev.jtecs.random.Xoshiro128;
import dev.jtecs.schedule.DispatchScope;
import dev.jtecs.schedule.FixedTiming;
import dev.jtecs.schedule.Phase;
import dev.jtecs.schedule.PhaseDefinition;
import dev.jtecs.schedule.PhaseGroup;
import dev.jtecs.schedule.PhaseSelection;
import dev.jtecs.schedule.Pipeline;
import dev.jtecs.schedule.SystemBody;
import dev.jtecs.schedule.SystemConfig;
import dev.jtecs.schedule.SystemInfo;
import dev.jtecs.state.StatePolicy;
import dev.jtecs.storage.Archetype;
import dev.jtecs.storage.internal.ArchetypeRegistry;
import dev.jtecs.storage.internal.NativeMemory;
import dev.jtecs.storage.internal.PairRegistry;
import dev.jtecs.storage.internal.Table;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import dev.jtecs.relation.AncestorVisitor;
import dev.jtecs.mutation.BatchCallback;
import dev.jtecs.mutation.BatchIds;
import dev.jtecs.mutation.PartitionConflictException;
import dev.jtecs.mutation.PartitionDimension;
import dev.jtecs.mutation.SpawnQueue;
import dev.jtecs.mutation.internal.MutationModel;
import dev.jtecs.mutation.internal.Scopes;
import dev.jtecs.relation.TraversalVisitor;
import dev.jtecs.relation.internal.Relations;
import dev.jtecs.snapshot.Snapshot;
import dev.jtecs.snapshot.SnapshotHandler;
import dev.jtecs.snapshot.SnapshotOptions;
import dev.jtecs.snapshot.SnapshotPrelude;
import dev.jtecs.snapshot.internal.SnapshotEngine;
import dev.jtecs.snapshot.internal.SnapshotHost;
import java.nio.file.Path;

/**
 * A world: every entity, archetype and native buffer of one simulation. Confined: only its owner thread (the
 * creating thread, until {@link #transferTo} or {@link #release}/{@link #claim} hands it on) calls into it; every
 * public method but {@link #owner()}, {@link #config()} and {@link #toString()} throws
 * {@link WrongThreadException} on any other thread, before anything changes. The scheduler, queries, cursors and
 * resources of a world check the same. Archetypes and column views do not: kernels on worker threads read (and
 * write) column segments while the owner waits for them.
 *
 * <p>Scopes and publication: structural changes (spawning, adding or removing components, despawning) are
 * staged in a transaction and published by the commit drain when the outermost scope closes. Outside any scope
 * (depth 0) every structural call is its own scope, so it is published before the call returns (the instant
 * path); inside a scope ({@link #defer()} ... {@link #commit()}, a {@link #forEachArchetype} visit, a query
 * iteration, a batch call, or the drain itself while it runs callbacks) changes wait for the scope to close.
 * Inside a scope, staged structure is invisible to {@link #isAlive}, {@link #has}, {@link #get} and iteration;
 * spawn ids are usable at once. A {@link #set} of a component the committed entity already has, with nothing
 * structural staged for it and no query batch pending, writes through immediately. Publication order is
 * despawns, then spawns (spawn batches first), then moves, last write winning per entity and component; a
 * query batch ({@link #batchSet}, {@link #batchRemove}, {@link #batchDespawn}) runs between the work staged
 * before it and the work staged after it.
 *
 * <p>Bad input changes nothing: dead or stale ids, malformed ids, a live id given to {@link #spawnAt}, a
 * definition that has no default, a duplicate {@code EntityKey}, all throw before any state changes. Every
 * method throws {@link IllegalStateException} once the world is closed.
 */
public final class World implements AutoCloseable {
    private static final AtomicLong CREATED = new AtomicLong();
    private static final VarHandle OWNER;

    static {
        try {
            OWNER = MethodHandles.lookup().findVarHandle(World.class, "owner", Thread.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The thread allowed to call into this world, {@code null} while released; first, so others may use it. */
    private Thread owner = Thread.currentThread();
    /** The owner while the world is open, for the spawn queues' checks: kept in step with owner and closed. */
    private final Confinement confinement = new Confinement(owner, this::rejectCall);
    private final long serial = CREATED.incrementAndGet();
    private final WorldConfig config;
    private final NativeMemory memory = new NativeMemory();
    private final EntityIndex index;
    private final ArchetypeRegistry archetypes;
    private final ObserverRegistry observers = new ObserverRegistry();
    private final OnDespawn.Context despawnContext = new DespawnContext();
    private final ArrayList<WorldQuery> queries = new ArrayList<>();
    private final QueryHost queryHost = new Host();
    private final PairRegistry pairs;
    private final Relations relations;
    private final MutationModel mutations;
    private final Scopes scopes;
    /** Where misuse that the world survives but should not go unnoticed is reported (close, update). */
    private static final System.Logger LOG = System.getLogger(World.class.getName());

    private final CommitDrain drain;
    private final Compaction compaction;
    private final Resources resources = new Resources(this);
    private final RandomStreams random = new RandomStreams();
    private final States states = new States(this);
    private final Bundles bundles = new Bundles(this);
    private final Pipeline pipeline;
    private final SnapshotEngine snapshots;
    private double nominalFrameTime;
    private boolean closed;

    private World(WorldConfig config) {
        this.config = config;
        this.index = new EntityIndex(config.maxEntities());
        this.archetypes = new ArchetypeRegistry(memory);
        this.pairs = archetypes.pairs();
        this.relations = new Relations(index, archetypes);
        this.mutations = new MutationModel(index, archetypes, observers, states::activeTag, despawnContext,
                relations, config.maxSubmissionWaves(), config.partitionConflicts());
        relations.bind(mutations); // the relationship layer stages its settlements through the model
        this.scopes = mutations.scopes();
        this.drain = mutations.drain();
        this.compaction = new Compaction(index, archetypes);
        archetypes.onCreate(this::announceArchetype);
        this.nominalFrameTime = config.nominalFrameTime();
        this.snapshots = new SnapshotEngine(index, archetypes, mutations, observers, random, new SnapshotSide());
        try {
            this.pipeline = Objects.requireNonNull(config.pipelineFactory().create(this, new Dispatches()),
                    "pipelineFactory returned null");
            BuiltinSystemsLink.install(this); // last: the systems need a complete world
        } catch (RuntimeException | Error e) {
            // User code ran on a usable world (the factory, the pipeline it made): whatever it allocated would be
            // held for good, since the caller never gets the world to close
            abandon(e);
            throw e;
        }
    }

    /**
     * Closes a world whose construction failed after it became usable, without {@link #close()}'s checks (the
     * failed code may have left a scope or a delivery open): every native buffer goes back, and the world the
     * factory saw is closed. A failure while closing is added to {@code failure} as suppressed.
     */
    private void abandon(Throwable failure) {
        if (closed) {
            return;
        }
        closed = true;
        confinement.admit(null);
        try {
            scopes.close();
            archetypes.close();
        } catch (RuntimeException | Error again) {
            failure.addSuppressed(again);
        } finally {
            memory.close();
        }
    }

    /**
     * A new archetype joins every persistent query that matches it, then {@link ArchetypeCreated} is delivered.
     * User code runs here ({@code groupBy}, observers); when it throws, the rest still happens (a query whose
     * {@code groupBy} threw holds the archetype in group 0) and the first exception propagates afterwards, the
     * later ones suppressed. A query that cannot take the archetype at all (an allocation failed) withdraws it:
     * every query forgets it, the registry prunes it, and the failure propagates, so no query ever misses one.
     */
    private void announceArchetype(Table table) {
        Throwable failure = null;
        for (int i = 0; i < queries.size(); i++) {
            WorldQuery query = queries.get(i);
            try {
                query.adopt(table.archetype());
            } catch (RuntimeException | Error e) {
                failure = Failures.fold(failure, e);
                if (query.matches(table.archetype()) && !query.isMember(table.archetype())) {
                    // the query could not take it (memory ran out): no query may miss an archetype, so it goes
                    withdraw(table, failure);
                }
            }
        }
        if (observers.has(Entity.WORLD, ArchetypeCreated.class)) {
            try {
                observers.deliver(Entity.WORLD, ArchetypeCreated.class, new ArchetypeCreated(table.archetype()));
            } catch (RuntimeException | Error e) {
                failure = Failures.fold(failure, e);
            }
        }
        Failures.throwIfAny(failure);
    }

    /**
     * Takes back an archetype that was just created, before anyone but the queries heard of it: they forget it and
     * the registry prunes it (it is empty), then {@code failure} propagates from the call that needed it.
     */
    private void withdraw(Table table, Throwable failure) {
        try {
            for (WorldQuery query : queries) {
                query.forget(table.archetype());
            }
            archetypes.prune(table);
        } catch (RuntimeException | Error again) {
            Failures.fold(failure, again);
        }
        throw Failures.rethrow(failure);
    }

    /** A world with {@link WorldConfig#defaults()}. */
    public static World create() {
        return create(WorldConfig.defaults());
    }

    /**
     * A world with {@code config}. The config's pipeline factory runs last, on a world that is usable but has no
     * systems yet, and the builtin systems then register through the pipeline it made. When either throws, the
     * world closes itself (its native memory returned; the instance the factory saw refuses every call) and the
     * exception propagates.
     */
    public static World create(WorldConfig config) {
        return new World(Objects.requireNonNull(config, "config"));
    }

    public WorldConfig config() {
        return config;
    }

    // ---------------------------------------------------------------- spawning

    /** Spawns an entity with no components; see {@link #spawn(Input...)}. */
    public long spawn() {
        checkOpen();
        return spawnOf(null, null, null);
    }

    /** Spawns an entity with one component (no varargs array); see {@link #spawn(Input...)}. */
    public long spawn(Input a) {
        checkOpen();
        return spawnOf(Objects.requireNonNull(a, "input"), null, null);
    }

    /** Spawns an entity with two components (no varargs array); see {@link #spawn(Input...)}. */
    public long spawn(Input a, Input b) {
        checkOpen();
        return spawnOf(Objects.requireNonNull(a, "input"), Objects.requireNonNull(b, "input"), null);
    }

    /** Spawns an entity with three components (no varargs array); see {@link #spawn(Input...)}. */
    public long spawn(Input a, Input b, Input c) {
        checkOpen();
        return spawnOf(Objects.requireNonNull(a, "input"), Objects.requireNonNull(b, "input"),
                Objects.requireNonNull(c, "input"));
    }

    private long spawnOf(Input a, Input b, Input c) { // (each caller checked the world open first)
        return mutations.spawn(a, b, c);
    }

    /**
     * Creates an entity with these components and returns its id at once. Outside a scope the entity is
     * published before this returns; inside one it is published when the outermost scope closes. When one
     * component appears twice, the last input wins. While a state is active the entity also gets that state's
     * tag ({@link #createState}). Delivers {@link OnSpawn} at address 0 during the call.
     */
    public long spawn(Input... inputs) {
        checkOpen();
        return mutations.spawn(inputs);
    }

    /**
     * Spawns with a caller-chosen id (restoration work): revives the id's slot with the id's generation. Adds no
     * state tag: the inputs are the whole of what is restored.
     *
     * @throws IllegalArgumentException when the id is malformed, beyond {@code maxEntities}, or its slot is in use,
     *     or the id is stale: its generation is older than its free slot's, so reviving it would make handles of
     *     an entity that is gone valid again
     */
    public void spawnAt(long id, Input... inputs) {
        checkOpen();
        mutations.spawnAt(id, inputs);
    }

    // ---------------------------------------------------------------- set, remove, despawn

    /**
     * Writes a component value. Writes through at once when the committed entity already has the component and
     * nothing structural is staged for it; otherwise stages the value (adding the component on publication).
     * Does nothing for an entity staged for despawn.
     */
    public void set(long id, Input input) {
        checkOpen();
        if (input instanceof ComponentValue<?> value) {
            // a plain record is read first and only its bits go on: see docs/world.md (the record need not be made)
            long[] bits = mutations.plainBits(value);
            if (bits != null ? mutations.setBits(id, value.component(), bits) : mutations.setAtOnce(id, value)) {
                return; // written through, staged as a compact move, or moved at once (MutationModel.setBitsAtOnce)
            }
        }
        setOtherwise(id, input);
    }

    /**
     * Sets the edge of a target-only relationship from {@code id} to {@code target}: what
     * {@code set(id, relationship.to(target))} does, without the edge object. For a sparse relationship (such as
     * {@code ChildOf}) whose edge takes the short path of {@link #set} (the entity published with nothing staged
     * for it and its table already carrying the relationship's marker, as a reparenting finds it) the call
     * allocates nothing; every other case takes {@code set(id, relationship.to(target))} itself, its checks and
     * exceptions included.
     *
     * @throws NullPointerException when {@code relationship} is null
     * @throws IllegalArgumentException when {@code target} is not an entity id, or not alive or staged
     */
    public void set(long id, Relationship relationship, long target) {
        checkOpen();
        Objects.requireNonNull(relationship, "relationship");
        if (relationship.isSparse() && Entity.isWellFormed(target)
                && mutations.setSparseEdge(id, relationship, target, null)) {
            return; // queued alone, or written at once with no scope open: no edge was made
        }
        mutations.set(id, relationship.to(target)); // where set(id, edge) ends after its short paths (no retry)
    }

    /** {@link #set} past its short paths, out of line: a tag, a sparse edge, or the general path. */
    private void setOtherwise(long id, Input input) {
        if (input instanceof TagComponent tag && mutations.stageTagMove(id, tag, true)) {
            return; // a tag staged as a compact move, or moved at once with no scope open (MutationModel.stageTagMove)
        }
        if (input instanceof RelationshipValue edge && mutations.setSparseEdge(id, edge)) {
            return; // a sparse edge queued alone, or written at once with no scope open (MutationModel.setSparseEdge)
        }
        mutations.set(id, input);
    }

    /**
     * Removes the edge of {@code relationship} from {@code id} to {@code target}: what
     * {@code remove(id, relationship.to(target))} (or, for a dense relationship, the removal of its
     * {@code targeting(target)} selector) does, without the edge value. Does nothing when the entity does not have
     * the edge.
     *
     * @throws NullPointerException when {@code relationship} is null
     * @throws IllegalArgumentException when {@code target} is not an entity id, or {@code id} is not alive or staged
     */
    public void remove(long id, BaseRelationship<?> relationship, long target) {
        checkOpen();
        Objects.requireNonNull(relationship, "relationship");
        if (!Entity.isWellFormed(target)) { // as an edge value or a selector refuses it
            throw new IllegalArgumentException("relationship target " + target + " is not an entity id");
        }
        mutations.remove(id, relationship, target);
    }

    /** Removes a component; does nothing when the entity lacks it or is staged for despawn. */
    public void remove(long id, Component<?> component) {
        checkOpen();
        if (component != null && mutations.stageTagMove(id, component, false)) {
            return; // staged as a compact move, or moved at once with no scope open (MutationModel.stageTagMove)
        }
        mutations.remove(id, component, this);
    }

    // ---------------------------------------------------------------- partitions

    /**
     * Declares a partition dimension on this world (see {@link PartitionDimension} and docs/partitions.md);
     * declaring the same dimension again does nothing. From then on its tags change only through
     * {@link #setTag} and {@link #unsetTag} (and spawns): {@code set}, {@code remove}, {@code batchSet} and
     * {@code batchRemove} of them throw.
     *
     * @throws IllegalArgumentException when another dimension has the name or one of the tags
     */
    public void declarePartition(PartitionDimension dimension) {
        checkOpen();
        mutations.partitions().declare(dimension);
    }

    /** The dimensions declared on this world, in declaration order. */
    public List<PartitionDimension> partitionDimensions() {
        checkOpen();
        return mutations.partitions().dimensions();
    }

    /**
     * Turns a presence tag on, or switches a multi-variant dimension to this variant (removing the other variant,
     * keeping every other dimension). Staged like any structural change: every partition change of one entity in
     * one submission is published as one move. Does nothing when the published entity already has the tag and
     * nothing else touched the dimension this submission, when the same operation was already staged, or when
     * the entity is staged for despawn (remove wins).
     *
     * @throws IllegalArgumentException when the tag is in no declared dimension, or the id is dead or stale
     * @throws PartitionConflictException when the world raises on conflicts and another operation on this
     *     dimension of this entity is staged in this submission (nothing changes)
     */
    public void setTag(long id, TagComponent tag) {
        checkOpen();
        mutations.partition(id, tag, true);
    }

    /**
     * Turns a presence tag off; the counterpart of {@link #setTag} for presence dimensions only.
     *
     * @throws IllegalArgumentException for a tag of a multi-variant dimension (it has no absent state), a tag in
     *     no declared dimension, or a dead or stale id
     * @throws PartitionConflictException as {@link #setTag}
     */
    public void unsetTag(long id, TagComponent tag) {
        checkOpen();
        mutations.partition(id, tag, false);
    }

    /**
     * The variant of a dimension a published entity holds, or {@code null} when it holds none (for a presence
     * dimension: the tag when on). Staged changes do not count until published.
     *
     * @throws IllegalArgumentException when the dimension is not declared on this world
     */
    public TagComponent partitionOf(long id, PartitionDimension dimension) {
        checkOpen();
        Objects.requireNonNull(dimension, "dimension");
        if (!mutations.partitions().dimensions().contains(dimension)) {
            throw new IllegalArgumentException(dimension + " is not declared on " + this);
        }
        if (!index.isAlive(id)) {
            return null;
        }
        Archetype archetype = archetypeOf(id);
        for (TagComponent tag : dimension.tags()) {
            if (archetype.has(tag)) {
                return tag;
            }
        }
        return null;
    }

    /**
     * Removes one edge of a relationship ({@code remove(id, REL)} removes them all); does nothing when the
     * entity does not have it.
     */
    public void remove(long id, RelationshipValue edge) {
        checkOpen();
        mutations.remove(id, edge);
    }

    /**
     * The first edge of a relationship (ascending target order) of a published entity, or {@code null} when it
     * has none or is dead, stale or unpublished. {@code get(id, REL)} answers the same.
     */
    public <V> V getFirstRelationship(long id, BaseRelationship<V> relationship) {
        checkOpen();
        return get(id, Objects.requireNonNull(relationship, "relationship"));
    }

    /**
     * Visits every edge of a relationship of a published entity, in ascending target order: the
     * {@link RelationshipValue} of a target-only edge, the record of a payload edge.
     */
    public <V> void forEachRelationship(long id, BaseRelationship<V> relationship, Consumer<? super V> action) {
        checkOpen();
        Objects.requireNonNull(relationship, "relationship");
        Objects.requireNonNull(action, "action");
        if (!index.isAlive(id)) {
            return;
        }
        int slot = Entity.slot(id);
        archetypes.ofStore(index.storeOf(slot)).forEachEdge(relationship, index.rowOf(slot),
                (target, payload) -> action.accept(relationship.edgeValue(target, payload)));
    }

    /** The default depth limit of {@link #walkUp}. */
    public static final int DEFAULT_WALK_DEPTH = 100;

    /**
     * The published entities holding an edge of {@code relationship} to {@code target}, ascending.
     *
     * @throws IllegalArgumentException when the relationship has no reverse index
     */
    public long[] relationshipSources(BaseRelationship<?> relationship, long target) {
        checkOpen();
        return relations.sources(relationship, target);
    }

    /** Visits the sources of edges of {@code relationship} to {@code target}, in ascending id order. */
    public void targets(long target, BaseRelationship<?> relationship, java.util.function.LongConsumer action) {
        checkOpen();
        relations.targets(target, relationship, action);
    }

    /**
     * Visits, depth first, every entity that reaches {@code root} through edges of {@code relationship} (its
     * children, their children, ...): the root itself is not visited, direct children have depth 0, children are
     * visited in ascending id order, and each entity at most once (cycles end there). Reads published edges.
     *
     * @throws IllegalArgumentException when the relationship has no reverse index
     */
    public void traverse(long root, BaseRelationship<?> relationship, TraversalVisitor visitor) {
        checkOpen();
        relations.traverse(root, relationship, visitor);
    }

    /** {@link #walkUp(long, BaseRelationship<?>, AncestorVisitor, int)} with {@link #DEFAULT_WALK_DEPTH}. */
    public void walkUp(long id, BaseRelationship<?> relationship, AncestorVisitor visitor) {
        walkUp(id, relationship, visitor, DEFAULT_WALK_DEPTH);
    }

    /**
     * Follows the first edge of {@code relationship} (ascending target order) from {@code id} upward: the direct
     * target at depth 1, its first target at depth 2, ..., until an entity has no edge or the visitor returns
     * false.
     *
     * @throws IllegalStateException on a cycle, or when the walk would go deeper than {@code maxDepth}
     * @throws IllegalArgumentException for a negative {@code maxDepth} (nothing is visited)
     */
    public void walkUp(long id, BaseRelationship<?> relationship, AncestorVisitor visitor, int maxDepth) {
        checkOpen();
        relations.walkUp(id, relationship, visitor, maxDepth);
    }

    /**
     * Despawns an entity. Delivers {@link OnDespawn} at the entity's address and then at address 0 while the
     * entity is still alive and readable, then clears the observers at its address. A staged spawn is cancelled
     * (its id goes stale); staged moves are cancelled; despawning an entity already being despawned does
     * nothing.
     */
    public void despawn(long id) {
        checkOpen();
        mutations.despawn(id);
    }

    /**
     * Despawns the entities {@code ids[from, to)}: the same as {@link #despawn(long)} for each, in that order and in
     * one scope (events delivered during the call, publication when the outermost scope closes), after every id
     * was checked. Ids already being despawned are skipped, as {@code despawn(id)} skips them, and so are ids that
     * the events of earlier ones despawned; the array is only read during the call.
     *
     * @return how many of them this call began despawning
     * @throws IllegalArgumentException for a dead, stale or malformed id, or an id listed twice; nothing is
     *     staged or delivered then
     * @throws IndexOutOfBoundsException unless {@code 0 <= from <= to <= ids.length}
     */
    public int despawn(long[] ids, int from, int to) {
        checkOpen();
        return mutations.despawn(ids, from, to);
    }

    /** What {@link OnDespawn} reads and requests through. */
    private final class DespawnContext implements OnDespawn.Context {
        @Override
        public <T> T committedValue(long entity, Component<T> component) {
            return get(entity, component);
        }

        @Override
        public void despawn(long entity) {
            World.this.despawn(entity);
        }
    }

    // ---------------------------------------------------------------- bulk paths

    /** {@link #batchSpawn(int, List, BatchCallback)} without an initializer. */
    public BatchIds batchSpawn(int count, List<? extends Input> inputs) {
        return batchSpawn(count, inputs, null);
    }

    /**
     * Reserves {@code count} entities sharing one signature (the inputs and their requirements) and places them
     * at the next publication with one row range. No constructor runs: a native component named by its
     * definition starts as zero bits, a scalar as its default, a managed one empty ({@code null}) until the
     * initializer writes it; requirements get their defaults; constructed values are copied to every row (a
     * managed record constant as a shallow copy per entity). {@code initializer}, when given, is called once with
     * the placed rows, before any membership callback; no {@link OnSpawn} is delivered. Calls on the reserved
     * ids made later in the transaction apply after initialization; an id despawned before its batch is placed
     * gets no row (a query batch staged in between places the batch first, in call order). While a state is
     * active its tag joins the signature, as in {@link #spawn(Input...)}.
     *
     * @return the ids: consecutive ({@link BatchIds#isContiguous()}) when they line up, explicit otherwise
     * @throws IllegalArgumentException for a count below 1, null inputs, or {@code EntityKey} in the signature
     * @throws IllegalStateException when fewer than {@code count} ids are left
     */
    public BatchIds batchSpawn(int count, List<? extends Input> inputs, BatchCallback initializer) {
        checkOpen();
        return mutations.batchSpawn(count, inputs, initializer);
    }

    /**
     * {@link #batchSpawn(int, List, BatchCallback)} writing the reserved ids, in batch order, into the caller's
     * {@code ids[offset, offset + count)} instead of returning them: once warm (the same inputs list again, the
     * world's buffers grown), a call allocates nothing per entity, so a burst spawned every frame makes no garbage.
     * Same staging, publication and failures; the ids are usable at once.
     *
     * @throws IllegalArgumentException also when {@code ids} cannot hold {@code count} ids from {@code offset};
     *     nothing is reserved or written then
     */
    public void batchSpawn(int count, List<? extends Input> inputs, BatchCallback initializer, long[] ids,
            int offset) {
        checkOpen();
        mutations.batchSpawn(count, inputs, initializer, ids, offset);
    }

    /**
     * A spawn queue for entities of one shape: the inputs, their requirements and, at each spawn, the active
     * state's tag. The typed per-entity spawn path: {@link SpawnQueue#spawn()} returns an id at once like
     * {@link #spawn(Input...)}, and its {@code set} calls write the new entity's values straight into its staged
     * row, so spawning allocates nothing per entity; the entities a transaction queues are placed together, one bulk
     * copy per column. See {@link SpawnQueue}.
     *
     * @throws IllegalArgumentException for null inputs, {@code EntityKey} in the shape (directly or through
     *     requirements), a bare relationship, pair or selector, or an edge to a dead target
     */
    public SpawnQueue spawnQueue(List<? extends Input> inputs) {
        checkOpen();
        return mutations.spawnQueue(inputs, confinement);
    }

    /**
     * Restoration: reserves exactly these ids (in order) for one batch, like {@link #spawnAt} for each (no state
     * tag). The array is copied at the start of the call: a callback that changes it meanwhile (a {@code groupBy}
     * or {@code ArchetypeCreated} observer of the batch's new archetype) changes nothing. Every id is checked
     * before any is reserved, and again after such callbacks ran. An empty array does nothing.
     *
     * @throws IllegalArgumentException for a malformed, out-of-range, duplicated or occupied id, or
     *     {@code EntityKey} in the signature; nothing is reserved then
     */
    public void batchSpawnAt(long[] ids, List<? extends Input> inputs, BatchCallback initializer) {
        checkOpen();
        mutations.batchSpawnAt(ids, inputs, initializer);
    }

    /**
     * Restoration from a native array: reserves the first {@code count} {@code long} ids of {@code ids}, read in
     * bulk (one copy into a {@code long[]}, no list of boxed ids). The array is read once, at the start of the call,
     * so it may be changed (even by a callback the call runs) or freed once it returns. Unlike other batches the signature may hold {@code EntityKey}: the initializer may write the
     * key column, and the keys are claimed after it returns (a missing, empty or duplicate key fails the
     * publication).
     *
     * @throws IllegalArgumentException for a negative count, an array shorter than {@code count} ids, or an
     *     invalid, duplicated or occupied id; nothing is reserved then
     */
    public void batchSpawnAtRaw(MemorySegment ids, int count, List<? extends Input> inputs,
            BatchCallback initializer) {
        checkOpen();
        mutations.batchSpawnAtRaw(ids, count, inputs, initializer);
    }

    /**
     * Sets a component to one value on every entity the query matches now (members arriving later in the
     * transaction are not selected), adding it where missing (with its requirements). A managed record value is
     * copied shallowly per entity. Published in call order with the rest of the transaction.
     *
     * @throws IllegalArgumentException for a query of another world or an {@code EntityKey} value
     */
    public void batchSet(Query query, Input value) {
        checkOpen();
        requireOwnQuery(query);
        mutations.batchSet(query, value);
    }

    /**
     * Rewrites a component on every entity the query matches now: at publication, {@code writer} is called
     * once per contiguous row range holding selected entities, after earlier staged work and before later
     * value writes. Entities lacking the component get it first (native columns zeroed, requirements
     * defaulted), and the writer runs before any membership callback sees them.
     *
     * @throws IllegalArgumentException for a query of another world or {@code EntityKey}
     */
    public void batchSet(Query query, Component<?> component, BatchCallback writer) {
        checkOpen();
        requireOwnQuery(query);
        mutations.batchSet(query, component, writer);
    }

    /** Removes a component from every entity the query matches now. */
    public void batchRemove(Query query, Component<?> component) {
        checkOpen();
        requireOwnQuery(query);
        mutations.batchRemove(query, component);
    }

    /**
     * Despawns every entity the query matches now, with the usual lifecycle: {@link OnDespawn} at each entity's
     * address and at address 0 during this call (entities stay alive and readable until publication), then
     * the observers at each address are cleared. Entities already being despawned are skipped. When an observer
     * throws, every other member still gets its events, the despawn stays staged (like any call whose observer
     * throws) and the first exception propagates.
     */
    public void batchDespawn(Query query) {
        checkOpen();
        requireOwnQuery(query);
        mutations.batchDespawn(query);
    }

    /**
     * Maintenance on a quiet world: prunes empty archetypes whose signature holds an edge to a dead target
     * (their entity observers hear {@code onArchetypeDestroyed}, persistent queries drop them, and their ids are
     * reused by the next archetypes created; survivors keep theirs), and reallocates the storage of archetypes
     * that hold far fewer rows than their high-water mark (under a quarter of it) at the smallest padded
     * capacity. It also gives back the arrays a snapshot load keeps for the next one (about 16 bytes per entity
     * the last load restored). Views are invalid afterwards. The pass always completes: an
     * {@code onArchetypeDestroyed} observer that throws, or a reallocation that fails for want of memory (that
     * archetype keeps its buffers and is shrunk by a later pass), does not stop it; the first such exception is
     * rethrown once every archetype was dealt with. Last, the pair components of dead targets that no archetype
     * holds any more are forgotten, all of them or, when memory runs out on the way, none (a later pass tries
     * again); a failure there is rethrown after the pass's own.
     *
     * @throws IllegalStateException inside a scope, during publication, or with unpublished work
     */
    public CompactResult compact() {
        checkOpen();
        if (drain.isDraining() || scopes.depth() > 0) {
            throw new IllegalStateException("compact: not allowed inside a scope or during publication (depth="
                    + scopes.depth() + ")");
        }
        if (drain.hasWork()) {
            throw new IllegalStateException("compact: the world has unpublished work; commit first");
        }
        snapshots.releaseScratch();
        CompactResult result = null;
        Throwable failure = null;
        try {
            result = compaction.run(pruned -> {
                long[][] rooms = new long[queries.size()][]; // every query's room first: then none can fail
                for (int i = 0; i < rooms.length; i++) {
                    rooms[i] = queries.get(i).forgetRoom();
                }
                for (int i = 0; i < rooms.length; i++) { // releases their entries (and group entries)
                    queries.get(i).forgetAll(pruned, rooms[i]);
                }
            });
        } catch (RuntimeException | Error e) {
            failure = e;
        }
        if (!pairs.isEmpty()) { // pairs of dead targets that no archetype holds any more are forgotten too
            try { // all or nothing: a failed allocation leaves them for the next compaction
                pairs.forgetDead(index::isAlive, id -> !archetypes.withComponent(id).isEmpty());
            } catch (RuntimeException | Error e) {
                failure = Failures.fold(failure, e); // the pass's own failure, when it had one, comes first
            }
        }
        Failures.throwIfAny(failure);
        return result;
    }

    /**
     * Removes every entity (and every staged change, reserved ids included; all old ids go stale) while keeping
     * archetypes, queries and observers at address 0. Membership callbacks see each archetype's rows leave;
     * no {@link OnDespawn} is delivered and observers at entity addresses are dropped. New ids start again from
     * the lowest slots.
     *
     * @throws IllegalStateException during publication or inside an iteration
     */
    public void clearEntities() {
        checkOpen();
        mutations.clearEntities();
    }

    /** Fills {@code fill} (or a new record when {@code null}) with the world's current counts; returns it. */
    public WorldStats getStats(WorldStats fill) {
        checkOpen();
        WorldStats stats = fill != null ? fill : new WorldStats();
        stats.entities = index.aliveCount();
        stats.archetypes = archetypes.count();
        stats.components = archetypes.componentCount();
        stats.systems = pipeline.systemCount();
        stats.fixedTimeDropped = pipeline.fixedTimeDropped();
        stats.fixedStepsDropped = pipeline.fixedStepsDropped();
        stats.nativeBytes = memory.reservedBytes();
        stats.partitionConflictsResolved = mutations.partitions().conflictsResolved();
        return stats;
    }

    /** Removes one edge from every entity the query matches now; see {@link #batchRemove(Query, Component)}. */
    public void batchRemove(Query query, RelationshipValue edge) {
        checkOpen();
        Objects.requireNonNull(edge, "edge");
        requireOwnQuery(query);
        mutations.batchRemove(query, edge);
    }

    // ---------------------------------------------------------------- scopes and publication

    /**
     * Opens an explicit scope: structural changes wait until the matching {@link #commit()} (or
     * {@link #unwind()}) closes it. Scopes nest; the outermost one to close publishes.
     */
    public void defer() {
        checkOpen();
        scopes.defer();
    }

    /**
     * Closes the innermost {@link #defer()} scope, if one is open, and publishes everything staged once no scope
     * remains open. Inside a running system this is synchronous too: the dispatch's hold does not count as an
     * open scope here (an iteration or a {@code defer()} the system opened does). Called from a callback while the
     * drain runs, it joins the active drain (whose next wave publishes the callback's work). If publication fails,
     * rows already published stay, the rest of the staged work is discarded, and the exception propagates; the
     * world stays usable. Edges to targets that died in the failed publication, whose settlement (removal, or a
     * cascade of despawns) was discarded with the rest, are settled by the next publication: that work shows as
     * pending, and {@link #unwind()} publishes it at once.
     */
    public void commit() {
        checkOpen();
        scopes.commit(); // inside a running system too: only the dispatch's own hold stays open
    }

    /**
     * Recovers after an exception: closes every open {@link #defer()} scope and every open cursor, and publishes
     * pending work. Safe to call at any time; a cursor or {@code commit()} that closes later finds its scope gone and
     * changes nothing. Inside a running system it closes the scopes the system opened and publishes, and the
     * dispatch keeps holding later work. Inside a running call (a {@code forEach}, {@link #forEachArchetype} or
     * {@link #forEachDirtyArchetype} visit, an observer or callback of a structural call, a publication callback)
     * the calls keep their own scopes, so the rows a visit is looking at stay where they are: the depth stays at
     * one per running call, structural calls keep being staged, and the publication happens when the outermost
     * running call returns successfully (after a failure the work waits, as usual, for the next publication).
     */
    public void unwind() {
        checkOpen();
        scopes.unwind(); // a running dispatch keeps its hold
    }

    /** How many scopes are open (0: structural calls publish at once). */
    public int scopeDepth() {
        checkOpen();
        return scopes.depth();
    }

    /** Whether anything is staged and not yet published. */
    public boolean hasPendingChanges() {
        checkOpen();
        return drain.hasWork();
    }

    /** Runs {@code body} as one implicit scope (state transitions). */
    void inScope(Runnable body) {
        scopes.run(body);
    }

    /** A barrier: publishes pending work unless a scope other than a running dispatch's hold is open. */
    void publishUnlessScoped() {
        scopes.barrier();
    }

    // ---------------------------------------------------------------- queries

    /**
     * Creates a query over this world. A persistent query keeps up with new archetypes from now on; a temporary
     * one ({@code temp()}) matches only the archetypes that exist now. A query with an {@code onEntitiesAdded}
     * callback receives the rows it starts with before this returns (work those calls stage is published). When
     * its {@code groupBy} throws for an archetype that exists, no query is made and the exception propagates;
     * when it throws for an archetype created later, the query holds that archetype in group 0 and the exception
     * propagates from the call that created it, after every query and {@link ArchetypeCreated} observer heard of
     * the archetype.
     */
    public Query newQuery(QueryDescriptor descriptor) {
        checkOpen();
        WorldQuery query = new WorldQuery(queryHost, Objects.requireNonNull(descriptor, "descriptor"));
        if (!descriptor.isTemporary()) {
            queries.ensureCapacity(queries.size() + 1); // before any archetype hears of the query
        }
        scopes.enter(); // groupBy is user code: the world is running a call (not published on exit: it stages none)
        try {
            for (int i = 0; i < archetypes.size(); i++) {
                Table table = archetypes.get(i);
                if (table != null) {
                    query.consider(table.archetype());
                }
            }
        } catch (RuntimeException | Error e) { // a groupBy threw: no query, and nothing of it stays behind
            query.abandon();
            throw e;
        } finally {
            scopes.exit(false);
        }
        if (!descriptor.isTemporary()) {
            queries.add(query);
        }
        if (descriptor.onEntitiesAdded() != null) {
            scopes.run(query::announceInitialMembers);
        }
        return query;
    }

    /**
     * Checks that a query was made by this world.
     *
     * @throws IllegalArgumentException for a query of another world
     */
    public void requireOwnQuery(Query query) {
        checkOpen();
        if (!(Objects.requireNonNull(query, "query") instanceof WorldQuery own && own.belongsTo(queryHost))) {
            throw new IllegalArgumentException(query + " belongs to another world, not " + this);
        }
    }

    /** Iteration scopes for queries. */
    private final class Host implements QueryHost {
        @Override
        public void enterScope() {
            scopes.enter();
        }

        @Override
        public void exitScope(boolean publishIfOutermost) {
            if (!closed) {
                scopes.exit(publishIfOutermost);
            }
        }

        @Override
        public int openCursorScope() {
            return scopes.openCursor();
        }

        @Override
        public void closeCursorScope(int token) {
            if (!closed) {
                scopes.closeCursor(token);
            }
        }

        @Override
        public void checkOpen() {
            World.this.checkOpen();
        }

        @Override
        public void checkThread() {
            World.this.checkThread();
        }
    }

    // ---------------------------------------------------------------- keys

    /** The live entity holding an {@code EntityKey}, or 0 when none does. */
    public long byKey(String key) {
        checkOpen();
        return mutations.byKey(key);
    }

    /**
     * The live entity holding an {@code EntityKey}.
     *
     * @throws java.util.NoSuchElementException when no live entity holds it
     */
    public long requireKey(String key) {
        long holder = byKey(key);
        if (holder == 0) {
            throw new java.util.NoSuchElementException("no live entity holds EntityKey '" + key + "'");
        }
        return holder;
    }

    // ---------------------------------------------------------------- events

    /** Registers an observer of one event type at an address (an entity id, or 0 for the world). */
    public <E> void observe(long address, Class<E> type, Observer<? super E> callback) {
        observe(address, type, callback, null);
    }

    /**
     * Registers an observer under an id, unique per address and type.
     *
     * @throws IllegalArgumentException for an address that is neither 0 nor a live or staged entity, or a
     *     duplicate id
     */
    public <E> void observe(long address, Class<E> type, Observer<? super E> callback, String id) {
        checkOpen();
        checkAddress(address, "observe");
        observers.observe(address, type, callback, id, false);
    }

    /** Registers an observer that is removed before its first delivery runs. */
    public <E> void observeOnce(long address, Class<E> type, Observer<? super E> callback) {
        observeOnce(address, type, callback, null);
    }

    public <E> void observeOnce(long address, Class<E> type, Observer<? super E> callback, String id) {
        checkOpen();
        checkAddress(address, "observeOnce");
        observers.observe(address, type, callback, id, true);
    }

    /** Removes an observer (by callback identity); returns whether it was registered. */
    public <E> boolean stopObserving(long address, Class<E> type, Observer<? super E> callback) {
        checkOpen();
        Objects.requireNonNull(type, "type");
        return observers.stop(address, type, Objects.requireNonNull(callback, "callback"));
    }

    /** Removes an observer by its id; returns whether it was registered. */
    public boolean stopObserving(long address, Class<?> type, String id) {
        checkOpen();
        Objects.requireNonNull(type, "type");
        return observers.stop(address, type, id);
    }

    /**
     * How many observer registrations are live, over every address and event type: each {@code observe} adds one,
     * and one goes when it is stopped, when a once-observer has fired, when its address is cleared, and when its
     * entity is despawned. A count that only grows over a session points to registrations that are never
     * stopped.
     */
    public int observerCount() {
        checkOpen();
        return observers.count();
    }

    public boolean hasObservers(long address, Class<?> type) {
        checkOpen();
        Objects.requireNonNull(type, "type");
        return observers.has(address, type);
    }

    /** Delivers an event, under its own class, to the observers at an address, synchronously. */
    public <E> void emit(long address, E event) {
        checkOpen();
        Objects.requireNonNull(event, "event");
        @SuppressWarnings("unchecked")
        Class<E> type = (Class<E>) event.getClass();
        deliver(address, type, event);
    }

    /** Delivers an event under an explicit type (for example an interface it implements). */
    public <E> void deliver(long address, Class<E> type, E event) {
        checkOpen();
        checkAddress(address, "deliver");
        Objects.requireNonNull(type, "type");
        observers.deliver(address, type, type.cast(Objects.requireNonNull(event, "event")));
    }

    /** Removes every observer at an address. */
    public void clearObservers(long address) {
        checkOpen();
        observers.clear(address);
    }

    private void requireOwnPair(Component<?> component, String operation) {
        mutations.checks().ownPair(component, operation, this);
    }

    private void checkAddress(long address, String operation) {
        if (address != Entity.WORLD) {
            index.requireLiveOrReserved(address, operation);
        }
    }

    // ---------------------------------------------------------------- reads (committed state)

    /** Exact for any {@code long}: whether the id names a published entity of the current generation. */
    public boolean isAlive(long id) {
        checkOpen();
        return index.isAlive(id);
    }

    /** Whether a published entity has the component; {@code false} for dead, stale or unpublished ids. */
    public boolean has(long id, Component<?> component) {
        checkOpen();
        requireOwnPair(component, "has");
        if (!index.isAlive(id)) {
            return false;
        }
        return archetypes.ofStore(index.storeOf(Entity.slot(id))).archetype().has(component);
    }

    /**
     * A copy of the component's committed value (a fresh record for native components), or {@code null} when
     * the id is dead, stale or unpublished, or the entity lacks the component.
     */
    public <T> T get(long id, Component<T> component) {
        checkOpen();
        requireOwnPair(component, "get");
        if (!index.isAlive(id)) {
            return null;
        }
        int slot = Entity.slot(id);
        Table table = archetypes.ofStore(index.storeOf(slot));
        if (component instanceof TargetSelector<?> || component instanceof BaseRelationship<?>) {
            return table.archetype().getValue(index.rowOf(slot), component);
        }
        int position = table.position(component.id());
        return position < 0 ? null : component.valueType().cast(table.readValue(position, index.rowOf(slot)));
    }

    /**
     * {@link #get} for code about to change the value: marks the column it reads dirty first, then answers what
     * {@code get} answers (and {@code null} in the same cases, marking nothing). For a managed component or a
     * payload edge stored by reference the answer is the stored object itself, so changes to its fields reach
     * the world; it stays the entity's value until the next structural publication (a commit, a phase end,
     * compaction, clear or snapshot load), after which read it again. A native or scalar component's answer is
     * a fresh record, as records cannot be changed in place: write the new value back with {@link #set} or a
     * column. A relationship marks the column of the edge it answers (its first edge, in ascending target
     * order), a selector the column of its target's edge.
     */
    public <T> T getMut(long id, Component<T> component) {
        checkOpen();
        requireOwnPair(component, "getMut");
        if (!index.isAlive(id)) {
            return null;
        }
        int slot = Entity.slot(id);
        int row = index.rowOf(slot);
        Table table = archetypes.ofStore(index.storeOf(slot));
        if (component instanceof TargetSelector<?> || component instanceof BaseRelationship<?>) {
            BaseRelationship<?> relationship = component instanceof TargetSelector<?> selector
                    ? selector.relationship() : (BaseRelationship<?>) component;
            long target = component instanceof TargetSelector<?> selector ? selector.target()
                    : table.firstTarget(relationship, row);
            T value = target == 0 ? null : table.archetype().getValue(row, component);
            if (value == null) {
                return null;
            }
            int pair = table.pairPosition(relationship, target);
            if (pair >= 0) {
                table.markDirty(pair);
            }
            int wildcard = table.position(relationship.id());
            if (wildcard >= 0) {
                table.markDirty(wildcard);
            }
            return value;
        }
        int position = table.position(component.id());
        if (position < 0) {
            return null;
        }
        table.markDirty(position);
        return component.valueType().cast(table.readValue(position, row));
    }

    /**
     * Writes one field of a published entity's native component in place, now, and marks the component's column
     * dirty: what a write through {@link #getMut}'s live row would do in an engine with mutable rows. Unlike
     * {@link #set}, it is never staged, inside a {@code defer} scope or not: the entity's row takes the value at
     * once, and staged work on the entity keeps its place (a staged move carries the row, value included, to the
     * new archetype; a staged value of the same component, applied at publication, replaces it; a staged
     * despawn discards it). The way to change a few fields of many entities one by one without a record per
     * call: no input object is made, nothing is allocated.
     *
     * <p>A field of a {@link TargetSelector} writes the payload of the entity's edge to that target, marking the
     * relationship's wildcard column too.
     *
     * @throws IllegalArgumentException when the id is dead, stale or malformed, or the entity lacks the field's
     *     component (nothing changes)
     * @throws IllegalStateException when the entity's spawn is staged: it has no row until its scope commits
     *     (give the value to its spawn, or to its {@code SpawnQueue}'s {@code set})
     */
    public void write(long id, FloatField field, float value) {
        liveField(id, field).writeFloat(fieldPosition, field.field(), fieldRow, value);
    }

    /** {@link #write(long, FloatField, float)} for a {@code int} field. */
    public void write(long id, IntField field, int value) {
        liveField(id, field).writeInt(fieldPosition, field.field(), fieldRow, value);
    }

    /** {@link #write(long, FloatField, float)} for a {@code long} field. */
    public void write(long id, LongField field, long value) {
        liveField(id, field).writeLong(fieldPosition, field.field(), fieldRow, value);
    }

    /** {@link #write(long, FloatField, float)} for a {@code double} field. */
    public void write(long id, DoubleField field, double value) {
        liveField(id, field).writeDouble(fieldPosition, field.field(), fieldRow, value);
    }

    /** {@link #write(long, FloatField, float)} for a {@code short} field. */
    public void write(long id, ShortField field, short value) {
        liveField(id, field).writeShort(fieldPosition, field.field(), fieldRow, value);
    }

    /** {@link #write(long, FloatField, float)} for a {@code byte} field. */
    public void write(long id, ByteField field, byte value) {
        liveField(id, field).writeByte(fieldPosition, field.field(), fieldRow, value);
    }

    /** {@link #write(long, FloatField, float)} for a {@code char} field. */
    public void write(long id, CharField field, char value) {
        liveField(id, field).writeChar(fieldPosition, field.field(), fieldRow, value);
    }

    /** {@link #write(long, FloatField, float)} for a {@code boolean} field. */
    public void write(long id, BooleanField field, boolean value) {
        liveField(id, field).writeBoolean(fieldPosition, field.field(), fieldRow, value);
    }

    // the row of the entity liveField last found, and its component's position in the table: read right after it
    // returns (owner thread only)
    private int fieldRow;
    private int fieldPosition;

    /**
     * The table of a published entity with a field, the field's column marked dirty; the entity's row is left in
     * {@link #fieldRow}, the component's position in {@link #fieldPosition}, for the table's store of the field.
     */
    private Table liveField(long id, dev.jtecs.component.FieldHandle field) {
        checkOpen();
        Component<?> component = field.component(); // a NativeComponent or a TargetSelector (FieldSource), no pair
        int store = index.aliveStore(id);
        if (store < 0) {
            throw notWritable(id, component);
        }
        Table table = archetypes.ofStore(store);
        int position = table.fieldPosition(field);
        if (position < 0) {
            throw new IllegalArgumentException("write: entity " + Entity.toString(id) + " has no component "
                    + component.name() + " (field " + field.name() + "); add it with set first");
        }
        if (component instanceof TargetSelector<?> selector) { // as getMut: the wildcard column reads changed too
            int wildcard = table.position(selector.relationship().id());
            if (wildcard >= 0) {
                table.markDirty(wildcard);
            }
        }
        table.markDirty(position);
        fieldRow = index.rowOf(Entity.slot(id));
        fieldPosition = position;
        return table;
    }

    /** Why {@code write} cannot reach an entity's row: its spawn is still staged, or the id is not alive. */
    private RuntimeException notWritable(long id, Component<?> component) {
        return notWritable(id, component, "write");
    }

    /** Why {@code operation} cannot reach an entity's row: its spawn is still staged, or the id is not alive. */
    RuntimeException notWritable(long id, Component<?> component, String operation) {
        if (index.stateOf(id) == EntityIndex.RESERVED) {
            return new IllegalStateException(operation + ": entity " + Entity.toString(id) + " is staged for spawn and "
                    + "has no row until its scope commits; give " + component.name() + " to its spawn instead");
        }
        return new IllegalArgumentException(index.describeDead(id, operation));
    }

    /**
     * A {@link RowWriter} of {@code component}'s fields: a reusable reference to one entity's row at a time, the
     * way to change a few fields of many entities one by one at the cost of a column write each.
     *
     * @throws IllegalArgumentException for a component with no native fields (a tag, a managed or scalar
     *     component, a relationship or its pair), or a selector of a sparse relationship
     */
    public RowWriter rowWriter(Component<?> component) {
        checkOpen();
        Objects.requireNonNull(component, "component");
        if (component instanceof PairComponent || component instanceof BaseRelationship<?>
                || component.storage() != dev.jtecs.component.StorageKind.NATIVE
                || component.layout().nativeColumnCount() == 0) {
            throw new IllegalArgumentException("rowWriter(" + component.name() + "): a row writer reaches the fields"
                    + " of a native component, or of a dense relationship's native payload through its selector");
        }
        if (component instanceof TargetSelector<?> selector && selector.relationship().isSparse()) {
            throw new IllegalArgumentException("rowWriter(" + component.name() + "): " + selector.relationship().name()
                    + " is sparse; its edges have no column to write (set the edge instead)");
        }
        return new RowWriter(this, index, archetypes, component);
    }

    /** Whether the calling thread may use the world now: the owner's, and the world open. */
    boolean usableHere() {
        return Thread.currentThread() == owner && !closed;
    }

    /**
     * Declares that code wrote a component of a published entity outside the tracked paths; marks that column of
     * the entity's archetype dirty. Does nothing for an entity whose spawn is still staged (placement marks it).
     *
     * @throws IllegalArgumentException for dead or stale ids, or when the entity lacks the component
     */
    public void markComponentDirty(long id, Component<?> component) {
        checkOpen();
        requireOwnPair(component, "markComponentDirty");
        int slot = index.requireLiveOrReserved(id, "markComponentDirty");
        if (!index.isAlive(id)) {
            return;
        }
        Table table = archetypes.ofStore(index.storeOf(slot));
        int position = table.position(component.id());
        if (position < 0) {
            throw new IllegalArgumentException("markComponentDirty: entity " + Entity.toString(id)
                    + " has no component " + component.name());
        }
        table.markDirty(position);
    }

    /**
     * A counter of structural change: it advances whenever an archetype is created or pruned, rows are placed,
     * moved or removed, or column buffers are replaced, and never otherwise (value writes, dirty marks and
     * clears leave it alone). Between two equal readings every archetype holds the same entities at the same
     * rows, column views and their segments stay valid, and {@link #archetypeOf}/{@link #rowOf} answer the same
     * for every entity: code that caches a plan built from the world's shape (archetype lists, parent rows,
     * segments) can compare this one number instead of rebuilding the plan. Only published changes count:
     * staged work advances it when it is published.
     */
    public long structureVersion() {
        checkOpen();
        return archetypes.clock().version();
    }

    /**
     * The counter of structural change scoped to one component: like {@link #structureVersion()}, but it advances
     * only when a change touches an archetype whose signature holds {@code component} (created or pruned, rows
     * placed, moved in or out or removed, buffers replaced). Between two equal readings every archetype holding
     * the component keeps the same entities at the same rows and valid views, whatever happens elsewhere: a plan
     * over, say, the archetypes of a hierarchy survives the particles spawning beside it. For a sparse relationship
     * the counter also advances at every change to its edges (added, retargeted, removed), which move no row: a
     * plan built from who points at whom, such as a parents-first order over {@code ChildOf}, checks this one
     * number.
     *
     * @throws IllegalArgumentException for a relationship pair or selector (no counter of their own: scope by a
     *     registered component the archetypes also hold)
     */
    public long structureVersion(Component<?> component) {
        checkOpen();
        Objects.requireNonNull(component, "component");
        if (component instanceof TargetSelector<?> || component instanceof PairComponent) {
            throw new IllegalArgumentException("structureVersion(" + component.name() + "): relationship pairs and "
                    + "selectors have no structure counter; scope by a registered component instead");
        }
        return archetypes.clock().version(component.id());
    }

    /** The archetype of a published entity, or {@code null} for dead, stale or unpublished ids. */
    public Archetype archetypeOf(long id) {
        checkOpen();
        return index.isAlive(id) ? archetypes.ofStore(index.storeOf(Entity.slot(id))).archetype() : null;
    }

    /** The row of a published entity in its archetype, or -1 for dead, stale or unpublished ids. */
    public int rowOf(long id) {
        checkOpen();
        return index.isAlive(id) ? index.rowOf(Entity.slot(id)) : -1;
    }

    /**
     * Visits every archetype, empty ones included, in registry order. The visit is a scope: structural calls
     * made by the action are staged and published when the visit ends (when it ends by an exception, they wait
     * for the next publication or {@link #unwind()}); an {@link #unwind()} from the action does not close it.
     * Archetypes created meanwhile are not visited.
     */
    public void forEachArchetype(Consumer<Archetype> action) {
        checkOpen();
        Objects.requireNonNull(action, "action");
        scopes.enter(); // not Scopes.run: a capturing lambda per visit would allocate
        boolean ok = false;
        try {
            int count = archetypes.size();
            for (int i = 0; i < count; i++) {
                Table table = archetypes.get(i);
                if (table != null) { // a pruned id not reused yet
                    action.accept(table.archetype());
                }
            }
            ok = true;
        } finally {
            scopes.exit(ok);
        }
    }

    /**
     * The archetypes with dirty state, in the order they first turned dirty since the last
     * {@link #clearDirty()}, empty ones (emptied by removals) included. The returned list is an independent
     * snapshot; do not change structure while relying on it.
     */
    public List<Archetype> dirtyArchetypes() {
        checkOpen();
        List<Archetype> dirty = new ArrayList<>();
        archetypes.forEachDirty(dirty::add);
        return dirty;
    }

    /**
     * Visits the archetypes {@link #dirtyArchetypes()} lists, in the same order, without building a list: the
     * allocation-free form for per-frame consumers. Each archetype is checked as the visit reaches it (one cleared
     * by an earlier step of the visit is skipped); archetypes that turn dirty during the visit are not visited.
     * The visit is a scope, as {@link #forEachArchetype} is.
     */
    public void forEachDirtyArchetype(Consumer<Archetype> action) {
        checkOpen();
        Objects.requireNonNull(action, "action");
        scopes.enter(); // not Scopes.run: a per-frame consumer must allocate nothing
        boolean ok = false;
        try {
            archetypes.forEachDirty(action);
            ok = true;
        } finally {
            scopes.exit(ok);
        }
    }

    /** Clears every archetype's dirty bits, structural flag and row residue (write counts survive). */
    public void clearDirty() {
        checkOpen();
        archetypes.clearDirty();
    }

    /** Every archetype holding a component, in registry order, empty ones included. */
    public List<Archetype> findArchetypes(Component<?> component) {
        checkOpen();
        requireOwnPair(component, "findArchetypes");
        List<Archetype> found = new ArrayList<>();
        int id = component.id();
        if (component instanceof TargetSelector<?> edge) {
            PairComponent pair = pairs.find(edge.relationship(), edge.target());
            if (pair == null) {
                return found;
            }
            id = pair.id();
        }
        for (Table table : archetypes.withComponent(id)) {
            found.add(table.archetype());
        }
        return found;
    }

    /** The number of published entities. */
    public int entityCount() {
        checkOpen();
        return index.aliveCount();
    }

    /** The number of archetypes registered now (pruned ones excluded). */
    public int archetypeCount() {
        checkOpen();
        return archetypes.count();
    }

    /** Native bytes currently reserved by this world's columns. */
    public long nativeBytesReserved() {
        checkOpen();
        return memory.reservedBytes();
    }

    /**
     * Native bytes this world holds from the system: the slabs its small buffers are carved from and its large
     * buffers; at least {@link #nativeBytesReserved()}.
     */
    public long nativeFootprintBytes() {
        checkOpen();
        return memory.footprintBytes();
    }

    /**
     * Native bytes every open world of this process holds from the system, the sum of their
     * {@link #nativeFootprintBytes()}: closing a world takes its share off at once. Any thread may ask; for
     * leak checks and monitoring.
     */
    public static long nativeBytesHeldByOpenWorlds() {
        return NativeMemory.heldByAllOpen();
    }

    /**
     * Native bytes the process keeps for reuse: the memory of large column buffers (over 256 KiB) that worlds
     * freed or closed, which the next large buffers of any world take instead of fresh memory from the system.
     * Kept only where native access is enabled for the core (as the {@code jtecs} launcher does), and at most the
     * system property {@code jtecs.nativePoolBytes} (128 MiB unless set; 0 keeps none). Not part of any world's
     * footprint. Any thread may ask.
     */
    public static long nativeBytesKeptForReuse() {
        return NativeMemory.idleBlockBytes();
    }

    /**
     * Returns the memory counted by {@link #nativeBytesKeptForReuse()} to the system, say after unloading a large
     * level that will not come back; returns how many bytes that was. Any thread may call it; worlds keep working
     * and simply take fresh memory for their next large buffers.
     */
    public static long releaseNativeBytesKeptForReuse() {
        return NativeMemory.releaseIdleBlocks();
    }

    // ---------------------------------------------------------------- systems and the frame (see Scheduler)

    /**
     * Runs one frame: the systems of the main phases, the fixed steps due and the render phases (see
     * {@link dev.jtecs.schedule.Phases}), then clears every dirty bit. Closes scopes left open and publishes
     * pending work before the first system runs; a scope the caller left open is reported as a
     * {@link System.Logger.Level#WARNING} on the {@code dev.jtecs.world.World} logger, as it usually means a
     * missing {@code commit()} or {@code cursor.close()}. Systems run inside a dispatch scope: their structural work is
     * published after each phase and at commit barriers; an explicit {@link #commit()} publishes at once.
     */
    public void update(double dt) {
        checkOpen();
        if (scopes.depth() > 0 && !scopes.inCall() && !drain.isDraining()) {
            LOG.log(System.Logger.Level.WARNING, () -> "update: " + this + " has " + scopes.depth() + " scope(s) "
                    + "left open by the caller (a defer() without its commit(), or a cursor never closed); update "
                    + "closes them and publishes " + (drain.hasWork() ? "the work staged in them" : "nothing staged")
                    + " before the systems run");
        }
        pipeline.update(dt);
        if (!closed) {
            archetypes.clearDirty();
        }
    }

    /** Runs the startup phases once, with {@code dt = 0}. */
    public void startup() {
        checkOpen();
        pipeline.run(PhaseGroup.STARTUP, 0);
    }

    /** Runs the shutdown phases once, with {@code dt = 0}. */
    public void shutdown() {
        checkOpen();
        pipeline.run(PhaseGroup.SHUTDOWN, 0);
    }

    /** Runs a phase, phase tree or group once with {@code dt = 0}; see {@link #runPhase(PhaseSelection, double)}. */
    public void runPhase(PhaseSelection selection) {
        runPhase(selection, 0);
    }

    /** Runs a phase, phase tree or group once, passing {@code dt} to its systems; callable from a system. */
    public void runPhase(PhaseSelection selection, double dt) {
        checkOpen();
        pipeline.run(selection, dt);
    }

    /** Registers a system; returns its unique name. See {@link Pipeline#addSystem}. */
    public String addSystem(SystemConfig config) {
        checkOpen();
        return pipeline.addSystem(config);
    }

    /** Unregisters a system, with effect at once; returns whether it existed. */
    public boolean removeSystem(String name) {
        checkOpen();
        return pipeline.removeSystem(name);
    }

    /**
     * Gives a registered system a new body and keeps its name, phase, place in the dispatch order, ordering
     * constraints, run condition, barriers and enabled state, with effect at once; returns false when no system
     * has this name. This is how a module swaps a builtin system for another implementation without moving it
     * behind systems registered after it. See {@link Pipeline#replaceSystemBody}.
     *
     * @throws UnsupportedOperationException when a custom pipeline cannot swap bodies
     */
    public boolean replaceSystemBody(String name, SystemBody body) {
        checkOpen();
        return pipeline.replaceSystemBody(name, body);
    }

    /** Enables or disables a system, with effect at once; returns false when no system has this name. */
    public boolean setSystemEnabled(String name, boolean enabled) {
        checkOpen();
        return pipeline.setSystemEnabled(name, enabled);
    }

    /** The registered systems in dispatch order, as detached records. */
    public List<SystemInfo> listSystems() {
        checkOpen();
        return pipeline.listSystems();
    }

    /** Registers a custom phase or phase tree (not while systems run). */
    public void registerPhase(PhaseDefinition definition) {
        checkOpen();
        pipeline.registerPhase(definition);
    }

    public void enablePhase(PhaseSelection selection) {
        checkOpen();
        pipeline.enablePhase(selection);
    }

    public void disablePhase(PhaseSelection selection) {
        checkOpen();
        pipeline.disablePhase(selection);
    }

    public boolean isPhaseEnabled(Phase phase) {
        checkOpen();
        return pipeline.isPhaseEnabled(phase);
    }

    /**
     * Asks for a publication barrier: from a running system's body or run condition, once after it returns
     * (repeated requests coalesce); anywhere else, at once unless a scope is open or a publication is running.
     */
    public void enqueueCommit() {
        checkOpen();
        pipeline.enqueueCommit();
    }

    public FixedTiming getFixedTiming() {
        checkOpen();
        return pipeline.fixedTiming();
    }

    public long fixedStepCount() {
        checkOpen();
        return pipeline.fixedStepCount();
    }

    /**
     * Seconds per presentation tick, the rate at which frame-counted waits ({@link
     * dev.jtecs.schedule.RunIf#afterFrames}) turn into phase time; starts at the config's value.
     */
    public double getNominalFrameTime() {
        checkOpen();
        return nominalFrameTime;
    }

    /**
     * Changes the seconds per presentation tick for waits that start from now on: a frame-counted wait already
     * under way keeps the deadline it converted when it started.
     *
     * @throws IllegalArgumentException unless {@code seconds} is positive and finite (nothing changes)
     */
    public void setNominalFrameTime(double seconds) {
        checkOpen();
        if (!(seconds > 0) || Double.isInfinite(seconds)) {
            throw new IllegalArgumentException("nominalFrameTime=" + seconds + " must be positive and finite");
        }
        nominalFrameTime = seconds;
    }

    /** The scheduler this world forwards system and phase calls to. */
    public Pipeline pipeline() {
        checkOpen();
        return pipeline;
    }

    /** What the pipeline uses to hold and publish structural work around systems. */
    private final class Dispatches implements DispatchScope {
        @Override
        public void unwind() {
            World.this.unwind();
        }

        @Override
        public void hold() {
            scopes.hold();
        }

        @Override
        public void release(boolean publish) {
            scopes.release(publish);
        }

        @Override
        public void barrier() {
            scopes.barrier();
        }

        @Override
        public void checkThread() {
            World.this.checkThread();
        }
    }

    // ---------------------------------------------------------------- random streams and resources

    /**
     * This world's random stream with this name, created on first use; every call with the name returns the
     * same generator. Its sequence depends only on the world seed and the name (see {@link RandomStreams}).
     *
     * @throws IllegalArgumentException when the name is empty
     */
    public Xoshiro128 randomStream(String name) {
        checkOpen();
        return random.stream(name);
    }

    /** Restarts every random stream from a new seed, in place; streams created later derive from it too. */
    public void seedRandom(int seed) {
        checkOpen();
        random.reseed(seed);
    }

    /** The seed the random streams derive from ({@link RandomStreams#DEFAULT_SEED} until reseeded). */
    public int randomSeed() {
        checkOpen();
        return random.seed();
    }

    /** This world's typed singletons. */
    public Resources resources() {
        checkOpen();
        return resources;
    }

    // ---------------------------------------------------------------- snapshots

    /** {@link #saveSnapshot(SnapshotOptions)} with {@link SnapshotOptions#defaults()}: a table snapshot. */
    public Snapshot saveSnapshot() {
        return saveSnapshot(SnapshotOptions.defaults());
    }

    /**
     * Saves the committed entities and the world's durable metadata (entity index, random streams, state stack,
     * the pipeline's fixed-step remainder and phase flags, custom data) as a table or binary snapshot; see
     * {@code docs/snapshots.md}. Pending work is published first. Handlers run, then {@link
     * dev.jtecs.snapshot.OnSnapshotSave} is delivered, then the entities are read. The world itself is not
     * changed by a save.
     *
     * @throws IllegalStateException during publication, from a running system, inside a scope, or from a
     *     snapshot event or handler
     * @throws IllegalArgumentException for invalid options, a repeated or reserved data key, a value that is not a
     *     detached tree, or a component whose values no codec can encode
     * @throws java.io.UncheckedIOException when the file cannot be written (an earlier file stays)
     */
    public Snapshot saveSnapshot(SnapshotOptions options) {
        checkOpen();
        return snapshots.save(Objects.requireNonNull(options, "options"));
    }

    /**
     * Replaces every entity with a snapshot's and restores its metadata, keeping registered components, systems,
     * queries, resources, bundles, observers at address 0 and handlers. The snapshot is decoded and checked in
     * full first: a bad one throws {@link dev.jtecs.snapshot.InvalidSnapshotException} and changes nothing.
     * Queries see the old rows leave and the loaded rows arrive through their membership callbacks; observers at
     * entity addresses are dropped; no {@code OnSpawn} is delivered. Column views taken before are stale.
     *
     * @throws IllegalStateException during publication, from a running system, inside a scope, from a
     *     snapshot event or handler, or during a state transition (from its event observers or its policy's
     *     effects); nothing changes then
     */
    public SnapshotPrelude loadSnapshot(Snapshot snapshot) {
        checkOpen();
        return snapshots.load(snapshot);
    }

    /** Loads a table snapshot: a save's {@link Snapshot#table()}, or its JSON read back into maps and lists. */
    public SnapshotPrelude loadSnapshot(Map<String, ?> table) {
        checkOpen();
        return snapshots.loadTable(table);
    }

    /** Loads the bytes of a binary snapshot (heap or native); the segment is only read during the call. */
    public SnapshotPrelude loadSnapshot(MemorySegment binary) {
        checkOpen();
        return snapshots.loadBinary(binary);
    }

    /** Loads the bytes of a binary snapshot. */
    public SnapshotPrelude loadSnapshot(byte[] binary) {
        checkOpen();
        return snapshots.loadBytes(binary);
    }

    /**
     * Loads a binary snapshot file: memory-mapped and read in place (no heap copy of its bytes), unmapped before
     * this returns.
     *
     * @throws java.io.UncheckedIOException when the file cannot be read
     */
    public SnapshotPrelude loadSnapshot(Path file) {
        checkOpen();
        return snapshots.loadFile(file);
    }

    /**
     * Registers a named snapshot handler: its value is saved under its name and handed back on load.
     *
     * @throws IllegalArgumentException for an empty or reserved name ({@link Snapshot#RANDOM_KEY}), or a name
     *     another handler has
     */
    public void addSnapshotHandler(SnapshotHandler<? super World> handler) {
        checkOpen();
        snapshots.addHandler(handler);
    }

    /** The names of the registered snapshot handlers, in registration order. */
    public List<String> snapshotHandlerNames() {
        checkOpen();
        return snapshots.handlerNames();
    }

    /** What snapshots need from the world layer. */
    private final class SnapshotSide implements SnapshotHost {
        @Override
        public Object facade() {
            return World.this;
        }

        @Override
        public void checkQuiet(String operation) {
            if (drain.isDraining() || scopes.isHeld()) {
                throw new IllegalStateException(operation + ": not allowed during publication or while systems run "
                        + "(draining=" + drain.isDraining() + ", dispatch=" + scopes.isHeld() + ")");
            }
            if (scopes.depth() > 0) {
                throw new IllegalStateException(operation + ": not allowed inside a scope (depth=" + scopes.depth()
                        + "); commit or unwind first");
            }
            if (operation.equals("loadSnapshot")) {
                states.checkIdle(operation); // a load replaces the state stack: refused before it replaces anything
            }
        }

        @Override
        public void publishPending() {
            if (drain.hasWork()) {
                scopes.unwind();
            }
        }

        @Override
        public List<String> states() {
            return states.list();
        }

        @Override
        public boolean hasState(String name) {
            return states.has(name);
        }

        @Override
        public void restoreStates(List<String> stack) {
            states.restore(stack);
        }

        @Override
        public List<String> leafPhases() {
            List<String> names = new ArrayList<>();
            for (Phase phase : pipeline.leafPhases()) {
                names.add(phase.name());
            }
            return names;
        }

        @Override
        public boolean isPhaseEnabled(String leaf) {
            return pipeline.isPhaseEnabled(Phase.of(leaf));
        }

        @Override
        public void setPhaseEnabled(String leaf, boolean enabled) {
            if (enabled) {
                pipeline.enablePhase(Phase.of(leaf));
            } else {
                pipeline.disablePhase(Phase.of(leaf));
            }
        }

        @Override
        public double fixedAccumulator() {
            return pipeline.fixedTiming().accumulator();
        }

        @Override
        public void restoreFixedAccumulator(double seconds) {
            pipeline.restoreFixedAccumulator(seconds);
        }
    }

    // ---------------------------------------------------------------- states and bundles

    /**
     * Creates a state in this world and returns its tag, the process-wide tag named {@code "state:" + name}.
     * Entities spawned while the state is active carry the tag; the policy says what happens to them when the
     * state is pushed, popped, covered or uncovered. See {@link #pushState}.
     *
     * @throws IllegalArgumentException for a blank name or a state this world already has (nothing changes)
     */
    public TagComponent createState(String name, StatePolicy policy) {
        checkOpen();
        return states.create(name, policy);
    }

    /**
     * Pushes a created state: it becomes the active state, the one spawn paths tag new entities with and
     * {@code RunIf.inState} reports. Pending work is published first unless a scope is open (a running system's
     * own hold does not count); then the covered state's {@code onBlur} operation runs and
     * {@link dev.jtecs.event.StateBlur} is delivered, then the pushed state's {@code onEnter} and
     * {@link dev.jtecs.event.StateEnter}. Each operation is published before its event outside a scope. Once
     * the state is on the stack the push completes: an exception from an event observer or an operation does not
     * stop the later steps, and the first one is rethrown (the others suppressed) after the last step.
     *
     * @throws IllegalArgumentException for a name never created here or a state already on the stack
     * @throws IllegalStateException from a state event observer or policy effect of a transition in progress;
     *     in all these cases nothing changes
     */
    public void pushState(String name) {
        checkOpen();
        states.push(name);
    }

    /**
     * Pops the active state: {@link dev.jtecs.event.StateExit} is delivered while it is still on top and its
     * entities untouched, then its {@code onExit} operation runs and it leaves the stack; the state below, if
     * any, becomes active, gets its {@code onFocus} operation and {@link dev.jtecs.event.StateFocus}. Like a push,
     * a pop that has begun completes, and an observer's or operation's exception is rethrown after its last step.
     *
     * @throws IllegalStateException when the stack is empty, or from a transition in progress (nothing changes)
     */
    public void popState() {
        checkOpen();
        states.pop();
    }

    /** The active state (the top of the stack), or {@code null} when the stack is empty. */
    public String peekState() {
        checkOpen();
        return states.peek();
    }

    /** The state stack, bottom first, the active state last; an immutable copy. */
    public List<String> listStates() {
        checkOpen();
        return states.list();
    }

    /**
     * Registers a bundle, a named spawn shape, in this world.
     *
     * @throws IllegalArgumentException for a blank name or a name this world already has a bundle under
     */
    public Bundle newBundle(String name, BundleDefinition definition) {
        checkOpen();
        return bundles.create(name, definition);
    }

    /**
     * Spawns an entity of the bundle of that name; see {@link #spawnBundle(Bundle, Input...)}.
     *
     * @throws IllegalArgumentException for a name without a bundle, or a missing required component
     */
    public long spawnBundle(String name, Input... inputs) {
        checkOpen();
        return bundles.spawn(name, inputs);
    }

    /**
     * Spawns an entity with the bundle's defaults and these inputs, as {@link #spawn(Input...)} does (state tag,
     * {@link OnSpawn}, staging); see {@link Bundle}.
     *
     * @throws IllegalArgumentException for a bundle of another world, or a missing required component (nothing
     *     is spawned)
     */
    public long spawnBundle(Bundle bundle, Input... inputs) {
        checkOpen();
        return bundles.spawn(bundle, inputs);
    }

    /** The bundle registered under that name, or {@code null} when there is none. */
    public Bundle getBundle(String name) {
        checkOpen();
        return bundles.find(name);
    }

    /** Every bundle of this world by name, in registration order; an unmodifiable snapshot. */
    public Map<String, Bundle> getBundles() {
        checkOpen();
        return bundles.all();
    }

    // ---------------------------------------------------------------- lifetime

    /**
     * Frees all native memory. Idempotent; every later call on this world throws. Structural work staged and
     * never published is discarded, with a {@link System.Logger.Level#WARNING} on the {@code dev.jtecs.world.World}
     * logger (not an exception: {@code close} runs from try-with-resources, often while another exception is on
     * its way out, and must not replace it). Only the owner thread may
     * close a world (column views read on other threads must be finished first), and only between calls: the
     * code that called back into the caller would go on with a closed world and freed memory.
     *
     * @throws IllegalStateException from code the world is running: a system or run condition, a
     *     {@code forEach}/{@link #forEachArchetype}/{@link #forEachDirtyArchetype} visit, an observer, a
     *     {@code groupBy}, a callback of a structural call or of a publication (the world stays open and nothing
     *     changes; close it once the call has returned). An open cursor or {@link #defer()} scope does not stop
     *     it.
     */
    @Override
    public void close() {
        checkThread();
        if (closed) {
            return;
        }
        if (scopes.inCall() || drain.isDraining() || observers.isDelivering()) {
            throw new IllegalStateException("close: " + this + " cannot be closed from code it is running (a system,"
                    + " a visit, an observer or another callback); close it after that call returns (dispatch="
                    + scopes.isHeld() + " draining=" + drain.isDraining() + " delivering="
                    + observers.isDelivering() + " depth=" + scopes.depth() + ")");
        }
        if (drain.hasWork()) {
            LOG.log(System.Logger.Level.WARNING, () -> "close: " + this + " discards structural work staged and "
                    + "never published (" + scopes.depth() + " scope(s) open); call commit() before close() to "
                    + "keep it");
        }
        closed = true;
        confinement.admit(null);
        try {
            pipeline.close(); // the parallel systems' workers
        } finally {
            scopes.close();
            archetypes.close();
            memory.close();
        }
    }

    public boolean isClosed() {
        checkThread();
        return closed;
    }

    // ---------------------------------------------------------------- thread confinement

    /**
     * The thread allowed to call into this world now: the creating thread until {@link #transferTo} or
     * {@link #release} hands the world on; {@code null} while it is released. Any thread may ask; from a thread
     * other than the owner the answer is only as fresh as the synchronization that handed the world over.
     */
    public Thread owner() {
        return owner;
    }

    /**
     * Hands this world to another thread: from now on only {@code thread} may call into it, and this thread's
     * calls throw {@link WrongThreadException}. The hand-off itself does not publish this thread's writes: pass
     * the world to the new owner through something that does (a queue, a future, {@link Thread#start()}).
     *
     * @throws WrongThreadException unless called by the owner
     * @throws IllegalStateException from a running system, an iteration (an open cursor included), an observer
     *     or another callback, or once the world is closed (in every case the owner stays)
     */
    public void transferTo(Thread thread) {
        checkOpen();
        Objects.requireNonNull(thread, "thread");
        requireHandOffPoint("transferTo");
        owner = thread;
        confinement.admit(thread);
    }

    /**
     * Releases this world: no thread owns it until one calls {@link #claim()}, the hand-off for a pool whose next
     * worker is not known in advance. Every call but {@code claim()} throws {@link WrongThreadException} while it
     * is released.
     *
     * @throws WrongThreadException unless called by the owner
     * @throws IllegalStateException from a running system, an iteration (an open cursor included), an observer
     *     or another callback, or once the world is closed
     */
    public void release() {
        checkOpen();
        requireHandOffPoint("release");
        confinement.admit(null); // before the release: the next owner's claim orders it before its own
        OWNER.setRelease(this, null);
    }

    /**
     * Makes the calling thread the owner of a released world; does nothing when it already owns it. Of two
     * threads claiming at once, one wins and the other gets the exception.
     *
     * @throws WrongThreadException when another thread owns the world (nothing changes)
     */
    public void claim() {
        Thread caller = Thread.currentThread();
        if (owner == caller) {
            return;
        }
        if (!OWNER.compareAndSet(this, (Thread) null, caller)) {
            throw wrongThread("claim", caller);
        }
        confinement.admit(caller); // a released world is open: release refuses a closed one
    }

    /**
     * Hands-off happen between calls and outside iterations, never from code the world is running on this thread
     * nor while a loop over its rows is open (cursors included: close them, or {@link #unwind()}, first).
     */
    private void requireHandOffPoint(String operation) {
        if (scopes.isHeld() || drain.isDraining() || !scopes.onlyDeferred() || observers.isDelivering()) {
            throw new IllegalStateException(operation + ": " + this + " cannot change threads from a running "
                    + "system, an iteration (cursors included), an observer or another callback (held="
                    + scopes.isHeld() + " draining=" + drain.isDraining() + " delivering="
                    + observers.isDelivering() + " depth=" + scopes.depth() + ")");
        }
    }

    /**
     * Throws unless the calling thread owns this world: the confinement check of every entry point, and of the
     * scheduler, queries and resources that reach the world. Cost: one field compare.
     *
     * @throws WrongThreadException from any other thread
     */
    public void checkThread() {
        if (Thread.currentThread() != owner) {
            throw wrongThread(null, Thread.currentThread());
        }
    }

    /** Throws what any call on a closed world or from a foreign thread throws (row writers call it too). */
    void checkOpen() {
        if (!usableHere()) {
            rejectCall(); // out of line: the hot path is the compare in usableHere
        }
    }

    private void rejectCall() {
        checkThread();
        throw new IllegalStateException(this + " is closed");
    }

    private WrongThreadException wrongThread(String operation, Thread caller) {
        Thread current = owner;
        return new WrongThreadException((operation == null ? "" : operation + ": ") + this + " is confined to "
                + (current == null ? "no thread (released; call claim() first)" : describe(current))
                + ", called from " + describe(caller)
                + "; hand it over with transferTo(thread) or release() and claim()");
    }

    private static String describe(Thread thread) {
        return "thread '" + thread.getName() + "' (id " + thread.threadId() + ")";
    }

    /** {@code world#<n>}: the n-th world this process created. */
    @Override
    public String toString() {
        return "world#" + serial;
    }

}
