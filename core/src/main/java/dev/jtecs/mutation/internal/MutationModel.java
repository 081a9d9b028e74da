package dev.jtecs.mutation.internal;

import dev.jtecs.builtin.EntityKey;
import dev.jtecs.component.BaseRelationship;
import dev.jtecs.component.Component;
import dev.jtecs.component.ComponentValue;
import dev.jtecs.component.Input;
import dev.jtecs.component.NativeComponent;
import dev.jtecs.component.PairComponent;
import dev.jtecs.component.Relationship;
import dev.jtecs.component.RelationshipValue;
import dev.jtecs.component.TagComponent;
import dev.jtecs.component.TargetSelector;
import dev.jtecs.component.internal.RecordCodec;
import dev.jtecs.entity.Entity;
import dev.jtecs.entity.internal.EntityIndex;
import dev.jtecs.entity.internal.Growth;
import dev.jtecs.event.OnDespawn;
import dev.jtecs.event.internal.ObserverRegistry;
import dev.jtecs.mutation.BatchCallback;
import dev.jtecs.mutation.BatchIds;
import dev.jtecs.mutation.PartitionConflicts;
import dev.jtecs.mutation.PartitionDimension;
import dev.jtecs.mutation.SpawnQueue;
import dev.jtecs.query.Query;
import dev.jtecs.storage.internal.ArchetypeRegistry;
import dev.jtecs.storage.internal.PairRegistry;
import dev.jtecs.storage.internal.RecordWriter;
import dev.jtecs.storage.internal.StagedValues;
import dev.jtecs.storage.internal.Table;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * The mutation model of one world: every structural call, from the call (checks, scope, staging, events) to its
 * publication by the drain. The world's facade checks the thread and delegates here.
 *
 * <pre>
 *   call ──► InputChecks ──► Scopes.enter ──► Staging (per entity) | Batches (bulk) ──► LifecycleEvents
 *        ──► Scopes.exit ──(outermost)──► CommitDrain.publish ──► waves ──► DrainHooks (relationships)
 * </pre>
 *
 * <p>Invariants: a call rejected by a check stages nothing and delivers nothing; every call is one scope, so
 * outside any scope it is published before it returns; the transaction, the sparse write queue and the key
 * claims are only changed here and by the drain.
 */
public final class MutationModel {
    private final EntityIndex index;
    private final ArchetypeRegistry archetypes;
    private final PairRegistry pairs;
    private final Transaction transaction = new Transaction();
    private final SparseWriteQueue sparseWrites = new SparseWriteQueue();
    private final KeyIndex keys;
    private final Staging staging;
    private final LifecycleEvents lifecycle;
    private final CommitDrain drain;
    private final CompactSpawns compact;
    private final Scopes scopes;
    private final InputChecks checks;
    private final Batches batches;
    private final Supplier<TagComponent> stateTag;
    private final PartitionLedger partitions;
    // by component id, once plainBits has looked the component up: its plain record type's spun writer, or NOT_PLAIN;
    // and the bits of the value set reads (one long a field), as long as the largest such record's
    private static final Object NOT_PLAIN = new Object();
    private Object[] plainWriters = new Object[0];
    private long[] valueBits = new long[0];
    private final MethodHandle setBitsCall; // setBitsAtOnce bound to this model (see setBits)

    /**
     * @param stateTag the tag spawn paths add (the active state's), or {@code null} while no state is active
     * @param despawnContext what {@link OnDespawn} reads committed values and requests despawns through
     * @param hooks the relationship layer's part in publication
     */
    public MutationModel(EntityIndex index, ArchetypeRegistry archetypes, ObserverRegistry observers,
            Supplier<TagComponent> stateTag, OnDespawn.Context despawnContext, DrainHooks hooks) {
        this(index, archetypes, observers, stateTag, despawnContext, hooks, CommitDrain.MAX_WAVES,
                PartitionConflicts.HIGHEST_WINS);
    }

    /**
     * @param maxWaves the most waves one publication runs before it reports a cascade
     * @param conflicts what a same-dimension partition conflict does
     */
    public MutationModel(EntityIndex index, ArchetypeRegistry archetypes, ObserverRegistry observers,
            Supplier<TagComponent> stateTag, OnDespawn.Context despawnContext, DrainHooks hooks, int maxWaves,
            PartitionConflicts conflicts) {
        this.index = index;
        this.archetypes = archetypes;
        this.pairs = archetypes.pairs();
        this.stateTag = stateTag;
        this.keys = new KeyIndex(this::currentKey);
        this.staging = new Staging(index, archetypes, transaction, keys, pairs, sparseWrites);
        this.lifecycle = new LifecycleEvents(index, archetypes, observers, despawnContext);
        this.drain = new CommitDrain(index, archetypes, transaction, sparseWrites, keys, lifecycle, hooks, maxWaves);
        this.compact = drain.compactSpawns();
        this.partitions = new PartitionLedger(index, archetypes, transaction, staging, conflicts);
        this.scopes = new Scopes(drain);
        // a new value set by an outermost call (no scope open but its own) moves at once where nothing waits
        staging.moveValuesAtOnceWith((id, input, table) -> scopes.isOutermostCall()
                && drain.moveValueAtOnce(id, input, table));
        this.checks = new InputChecks(index, pairs, keys, drain);
        this.batches = new Batches(index, archetypes, transaction, drain, keys, pairs, staging, scopes, lifecycle,
                checks, stateTag);
        this.setBitsCall = SET_BITS.bindTo(this);
    }

    public Scopes scopes() {
        return scopes;
    }

    public CommitDrain drain() {
        return drain;
    }

    public Staging staging() {
        return staging;
    }

    public Transaction transaction() {
        return transaction;
    }

    public LifecycleEvents lifecycle() {
        return lifecycle;
    }

    public PartitionLedger partitions() {
        return partitions;
    }

    public InputChecks checks() {
        return checks;
    }

    /** The key a live entity holds now, or {@code null} when it is dead or has none. */
    private String currentKey(long id) {
        if (!index.isAlive(id)) {
            return null;
        }
        int slot = Entity.slot(id);
        Table table = archetypes.ofStore(index.storeOf(slot));
        int position = table.position(EntityKey.COMPONENT.id());
        return position < 0 ? null : (String) table.readValue(position, index.rowOf(slot));
    }

    /** The live entity holding an {@code EntityKey}, or 0 when none does. */
    public long byKey(String key) {
        Objects.requireNonNull(key, "key");
        long holder = keys.holder(key);
        return holder != 0 && index.isAlive(holder) ? holder : 0;
    }

    // ---------------------------------------------------------------- spawning

    /** The fixed-arity spawns: up to three inputs, {@code null} where absent, so no array is allocated. */
    public long spawn(Input a, Input b, Input c) {
        if (a != null) {
            checks.spawnInput(a);
        }
        if (b != null) {
            checks.spawnInput(b);
        }
        if (c != null) {
            checks.spawnInput(c);
        }
        if ((a != null || b == null && c == null) && (b != null || c == null)) { // the inputs given come first
            int n = a == null ? 0 : b == null ? 1 : c == null ? 2 : 3;
            long placed = spawnAtOnce(null, a, b, c, n);
            if (placed == 0) {
                placed = spawnCompactly(null, a, b, c, n);
            }
            if (placed != 0) {
                return placed;
            }
        }
        scopes.enter();
        boolean ok = false;
        try {
            long id = index.allocate();
            int record = staging.beginSpawn(id);
            if (a != null) {
                staging.stageSpawnInput(record, a);
            }
            if (b != null) {
                staging.stageSpawnInput(record, b);
            }
            if (c != null) {
                staging.stageSpawnInput(record, c);
            }
            TagComponent tag = stateTag.get(); // a spawn path: tagged with the active state
            if (tag != null) {
                staging.stageSpawnInput(record, tag);
            }
            lifecycle.spawned(id);
            ok = true;
            return id;
        } finally {
            scopes.exit(ok);
        }
    }

    /** A spawn of any number of inputs (the last input of a component wins), tagged with the active state. */
    public long spawn(Input[] inputs) {
        checks.spawnInputs(inputs);
        long placed = spawnAtOnce(inputs, null, null, null, inputs.length);
        if (placed != 0) {
            return placed; // published at once: nobody to tell, nothing else to publish (CommitDrain.spawnAtOnce)
        }
        placed = spawnCompactly(inputs, null, null, null, inputs.length);
        if (placed != 0) {
            return placed; // staged as its id and its values' bits (CompactSpawns)
        }
        scopes.enter();
        boolean ok = false;
        try {
            long id = index.allocate();
            stageSpawn(id, inputs, stateTag.get());
            ok = true;
            return id;
        } finally {
            scopes.exit(ok);
        }
    }

    /**
     * {@link CommitDrain#spawnAtOnce} for a spawn that may take it: no scope open, no {@code OnSpawn} observer, no
     * state tag to add, no partition tag among the inputs ({@code inputs[0, n)}, or {@code a}, {@code b},
     * {@code c} when it is null); 0, having changed nothing, otherwise.
     */
    private long spawnAtOnce(Input[] inputs, Input a, Input b, Input c, int n) {
        if (scopes.depth() != 0 || !lifecycle.spawnIsSilent() || stateTag.get() != null
                || namesVariant(inputs, a, b, c, n)) {
            return 0;
        }
        return drain.spawnAtOnce(inputs, a, b, c, n);
    }

    /** The compact staged spawns (tests). */
    CompactSpawns compactSpawns() {
        return compact;
    }

    /**
     * A spawn inside a scope staged compactly ({@link CompactSpawns}): when no drain runs, nobody observes
     * {@code OnSpawn} (whose observers could call back before the call returns) and no input is a partition tag,
     * and the inputs and the wave allow it (see there); 0, having changed nothing, otherwise. It runs no user
     * code, so it does without the call's own scope: entering and leaving it inside an open one changes nothing.
     */
    private long spawnCompactly(Input[] inputs, Input a, Input b, Input c, int n) {
        if (scopes.depth() == 0 || drain.isDraining() || !lifecycle.spawnIsSilent()
                || namesVariant(inputs, a, b, c, n)) {
            return 0;
        }
        return compact.stage(inputs, a, b, c, n, stateTag.get());
    }

    /** Whether a spawn's inputs name a partition variant, whose dimension's rules only the general path keeps. */
    private boolean namesVariant(Input[] inputs, Input a, Input b, Input c, int n) {
        for (int i = 0; i < n; i++) {
            if (SpawnPlacement.inputAt(inputs, a, b, c, i) instanceof TagComponent tag
                    && partitions.dimensionOf(tag) != null) {
                return true;
            }
        }
        return false;
    }

    /** Restoration: a spawn with a caller-chosen id, and no state tag. */
    public void spawnAt(long id, Input[] inputs) {
        checks.spawnInputs(inputs);
        scopes.enter();
        boolean ok = false;
        try {
            index.reserveAt(id);
            stageSpawn(id, inputs, null);
            ok = true;
        } finally {
            scopes.exit(ok);
        }
    }

    private void stageSpawn(long id, Input[] inputs, TagComponent tag) {
        int record = staging.beginSpawn(id);
        for (Input input : inputs) {
            staging.stageSpawnInput(record, input);
        }
        if (tag != null) {
            staging.stageSpawnInput(record, tag);
        }
        lifecycle.spawned(id);
    }

    // ---------------------------------------------------------------- set, remove, despawn

    /**
     * The fields of {@code value} as their bits (one long a field, {@code RecordWriter.bits}) when its component is
     * native and its record type plain, else {@code null}. Reading them runs no user code (the accessors are the
     * record's own), so {@code set} reads them first and hands the rest of its short path ({@link #setBitsAtOnce})
     * nothing but the bits: the record need not outlive this call, and where the JIT compiles {@code set} into a
     * caller's loop, it need not be made at all. The array is this model's, good until the next call.
     */
    public long[] plainBits(ComponentValue<?> value) {
        int id = value.component().id();
        Object writer = id < plainWriters.length ? plainWriters[id] : null;
        if (writer == null) {
            writer = learnPlain(value.component()); // out of line: once per component
        }
        if (writer == NOT_PLAIN) {
            return null;
        }
        long[] bits = valueBits;
        ((RecordWriter) writer).bits(value.value(), bits);
        return bits;
    }

    /**
     * Looks up whether {@code component}'s values are plain records and makes room for their bits; returns its
     * entry of {@code plainWriters}.
     */
    private Object learnPlain(Component<?> component) {
        int id = component.id();
        RecordWriter writer = component instanceof NativeComponent<?> nc ? StagedValues.plainWriter(nc) : null;
        int fields = writer == null ? 0 : RecordCodec.of(component.valueType()).fieldCount();
        Object[] writers = id < plainWriters.length ? plainWriters
                : Growth.copyOf(plainWriters, Math.max(id + 1, plainWriters.length * 2));
        long[] bits = fields <= valueBits.length ? valueBits : Growth.newLongs(fields);
        // both arrays are made first: a failed allocation changes nothing
        writers[id] = writer == null ? NOT_PLAIN : writer;
        plainWriters = writers;
        valueBits = bits;
        return writers[id];
    }

    /**
     * The short paths of {@link #set} for the value of a native component with a plain record type, given as its
     * fields' bits ({@link #plainBits}), on a published entity with nothing staged (no record, no doom, no open
     * batch boundary): it does exactly what {@code set} would, without opening the call's scope or repeating the
     * checks such a value always passes, and returns true.
     *
     * <ul>
     *   <li>The entity has the component: the value is written through, unless no scope is open and earlier work
     *       waits, which {@code set} would publish.
     *   <li>The entity lacks the component and it requires nothing: inside a scope the value is staged as a
     *       compact value move, as {@code set} stages it when its call is not the outermost; with no scope open,
     *       the row moves with the value at once where nothing waits and nobody is to be told, and otherwise the
     *       call opens its scope as {@code set} does, stages the move and publishes it when the scope closes.
     * </ul>
     *
     * <p>Returns false, having changed nothing, in every other case; the caller then calls {@code set}.
     */
    boolean setBitsAtOnce(long id, Component<?> component, long[] bits) {
        int store = index.aliveStore(id);
        if (store < 0) {
            return false;
        }
        Table table = archetypes.ofStore(store);
        int position = table.position(component.id());
        int slot = Entity.slot(id);
        if (position >= 0) {
            return staging.nothingStaged(slot, table) && !(scopes.depth() == 0 && drain.hasWork())
                    && table.writePlainBits(position, index.rowOf(slot), bits);
        }
        NativeComponent<?> nc = (NativeComponent<?>) component;
        if (!nc.requires().isEmpty() || !staging.nothingStaged(slot, table)) {
            return false; // requirements: a record
        }
        if (scopes.depth() > 0) {
            transaction.stageBitsMove(id, slot, nc, bits, table);
            return true;
        }
        if (drain.movePlainBitsAtOnce(id, nc, bits, table)) {
            return true; // nothing waited and nobody is told: the move was the whole publication
        }
        scopes.enter(); // the outermost call, as set's: the move stages and publishes when the scope closes
        boolean ok = false;
        try {
            transaction.stageBitsMove(id, slot, nc, bits, table);
            ok = true;
        } finally {
            scopes.exit(ok);
        }
        return true;
    }

    /**
     * {@link #setBitsAtOnce}, called through a method handle held in a field, which the JIT calls and never inlines
     * (it inlines a method handle only where it is a constant). That keeps what {@code World.set} compiles to small:
     * with the short path inlined into it, {@code set} compiled to more than the JIT's limit for inlining compiled
     * code into a caller ({@code -XX:InlineSmallCode}, 2,500 bytes), so it stayed a call out of the caller's loop,
     * and the record and its {@code ComponentValue} (48 bytes) were made for every call. Without it {@code set} is
     * about 1,400 bytes, inlines into the loop with the record's accessors ({@link #plainBits}), and escape analysis
     * removes both objects. See docs/world.md.
     */
    public boolean setBits(long id, Component<?> component, long[] bits) {
        try {
            return (boolean) setBitsCall.invokeExact(id, component, bits);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) { // setBitsAtOnce declares no checked exception
            throw new AssertionError(t);
        }
    }

    private static final MethodHandle SET_BITS;
    static {
        try {
            SET_BITS = MethodHandles.lookup().findVirtual(MutationModel.class, "setBitsAtOnce",
                    MethodType.methodType(boolean.class, long.class, Component.class, long[].class));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * {@link #setBitsAtOnce} for the value of a native component whose record type is not plain (an accessor of its
     * own), which only the move can take: on a published entity with nothing staged that lacks the component and
     * a component that requires nothing, staged as a compact value move inside a scope, or with no scope open moved
     * at once (its accessors then run in a wave of their own, {@code CommitDrain.moveValueAtOnce}) or staged and
     * published when the call's scope closes. Returns false, having changed nothing, in every other case.
     */
    public boolean setAtOnce(long id, ComponentValue<?> value) {
        int store = index.aliveStore(id);
        if (store < 0 || !(value.component() instanceof NativeComponent<?> component)) {
            return false;
        }
        Table table = archetypes.ofStore(store);
        int slot = Entity.slot(id);
        if (table.position(component.id()) >= 0 || !component.requires().isEmpty()
                || !staging.nothingStaged(slot, table)) {
            return false; // a write-through of a record with accessors of its own, or requirements: the general path
        }
        if (scopes.depth() > 0) {
            transaction.stageValueMove(id, slot, value, table);
            return true;
        }
        scopes.enter(); // the outermost call, as set's: the row moves at once where nothing waits, else it stages
        boolean ok = false;
        try {
            if (!drain.moveValueAtOnce(id, value, table)) {
                transaction.stageValueMove(id, slot, value, table);
            }
            ok = true;
        } finally {
            scopes.exit(ok); // publishes what waits, as set's scope does
        }
        return true;
    }

    public void set(long id, Input input) {
        checks.input(input);
        partitions.refusePlain(input.component(), "set");
        int slot = index.requireLiveOrReserved(id, "set");
        if (input.component() == EntityKey.COMPONENT) {
            keys.checkClaim(Staging.keyOf(input), id);
        }
        scopes.enter();
        boolean ok = false;
        try {
            staging.set(id, slot, input); // a new value of the outermost call may move at once (see the constructor)
            ok = true;
        } finally {
            scopes.exit(ok);
        }
    }

    /**
     * {@link #set} of an edge of a sparse relationship to a published entity that carries its marker, in short:
     * inside a scope, when nothing is staged for the entity (no record, tag move or despawn) and no batch boundary
     * is open, the edge is queued for the store exactly as {@code set} queues it, and nothing else ({@code
     * Staging.stageSparseEdge}); with no scope open, it is written into the store at once where nothing waits to
     * be published ({@code CommitDrain.setSparseAtOnce}). Returns true when the call is done, or false having
     * changed nothing, and the caller takes the general path. The edge's own checks run first, as {@code set} runs
     * them (its target live or staged, or an {@link IllegalArgumentException}); of the rest, an edge passes all
     * but the entity's, which both short ways make.
     */
    public boolean setSparseEdge(long id, RelationshipValue edge) {
        return setSparseEdge(id, edge.relationship(), edge.target(), edge.payload());
    }

    /**
     * {@link #setSparseEdge(long, RelationshipValue)} of the edge of {@code relationship} to {@code target} with
     * {@code payload} (null for a target-only relationship), without an edge object: the caller has checked the three
     * as the edge's constructor checks them.
     */
    public boolean setSparseEdge(long id, BaseRelationship<?> relationship, long target, Object payload) {
        if (!relationship.isSparse()) {
            return false;
        }
        checks.edge(relationship, target);
        return scopes.depth() > 0 ? staging.stageSparseEdge(id, relationship, target, payload)
                : drain.setSparseAtOnce(id, relationship, target, payload);
    }

    /**
     * {@link #set} of a tag ({@code add}) or {@link #remove} of a component, in short: inside a scope, stages the
     * compact tag move the general path would stage (see {@code Staging.stageTagMove}); with no scope open, moves
     * the row at once where nothing waits to be published and nobody is to be told ({@code CommitDrain.moveAtOnce}).
     * Returns true when the call is done, or false having changed nothing, and the caller takes the general path.
     * A partition tag and every other case are left to the general path.
     */
    public boolean stageTagMove(long id, Component<?> component, boolean add) {
        if (partitions.dimensionOf(component) != null) {
            return false;
        }
        return scopes.depth() > 0 ? staging.stageTagMove(id, component, add)
                : drain.moveAtOnce(id, component, add); // runs no user code
    }

    /** Removes a component, or every edge of a relationship; a selector names one edge. */
    public void remove(long id, Component<?> component, Object owner) {
        Objects.requireNonNull(component, "component");
        if (component instanceof TargetSelector<?> edge) {
            remove(id, edge.relationship(), edge.target());
            return;
        }
        checks.ownPair(component, "remove", owner);
        partitions.refusePlain(component, "remove");
        int slot = index.requireLiveOrReserved(id, "remove");
        scopes.enter();
        boolean ok = false;
        try {
            staging.remove(id, slot, component);
            ok = true;
        } finally {
            scopes.exit(ok);
        }
    }

    /** Removes one edge; does nothing when no entity of this world ever had it. */
    public void remove(long id, RelationshipValue edge) {
        Objects.requireNonNull(edge, "edge");
        remove(id, edge.relationship(), edge.target());
    }

    /**
     * Removes the edge of {@code relationship} to {@code target}, a well-formed id; does nothing when no entity of
     * this world ever had it. Makes no edge object.
     */
    public void remove(long id, BaseRelationship<?> relationship, long target) {
        int slot = index.requireLiveOrReserved(id, "remove");
        PairComponent pair = null;
        if (!relationship.isSparse()) {
            pair = pairs.find(relationship, target);
            if (pair == null) {
                return;
            }
        }
        scopes.enter();
        boolean ok = false;
        try {
            if (pair == null) {
                staging.removeSparse(id, slot, relationship, target);
            } else {
                staging.remove(id, slot, pair);
            }
            ok = true;
        } finally {
            scopes.exit(ok);
        }
    }

    /**
     * {@code setTag} ({@code set}) or {@code unsetTag} of a partition tag: decided by the ledger, then staged as
     * plain tag changes in one scope.
     *
     * @throws IllegalArgumentException for a tag in no dimension, {@code unsetTag} on a multi-variant dimension
     * @throws PartitionConflictException in {@code RAISE} mode (see {@link PartitionLedger#decide})
     */
    public void partition(long id, TagComponent tag, boolean set) {
        String operation = set ? "setTag" : "unsetTag";
        PartitionDimension dimension = partitions.require(tag, set);
        int slot = index.requireLiveOrReserved(id, operation);
        int value = partitions.decide(id, slot, dimension, tag, set);
        if (value < 0) {
            return;
        }
        scopes.enter();
        boolean ok = false;
        try {
            partitions.apply(id, slot, dimension, value);
            ok = true;
        } finally {
            scopes.exit(ok);
        }
    }

    public void despawn(long id) {
        if (lifecycle.despawnIsSilent() && (scopes.depth() > 0 ? staging.stageQuietDespawn(id)
                : drain.despawnUnheard(id) || despawnAtOnce(id))) {
            return; // nobody to tell: inside a scope staged in short, with none published at once
        }
        int slot = index.requireLiveOrReserved(id, "despawn");
        scopes.enter();
        boolean ok = false;
        try {
            TxState before = staging.despawn(id, slot);
            if (before != null) {
                lifecycle.despawned(id, before);
            }
            ok = true;
        } finally {
            scopes.exit(ok);
        }
    }

    /** {@code CommitDrain.despawnAtOnce} inside the running call of a publication, as a publication runs. */
    private boolean despawnAtOnce(long id) {
        scopes.enterPublication();
        try {
            return drain.despawnAtOnce(id);
        } finally {
            scopes.exitPublication();
        }
    }

    public int despawn(long[] ids, int from, int to) {
        return batches.despawn(ids, from, to);
    }

    /**
     * A spawn queue of this shape (see {@link SpawnQueue}); every call of the queue checks {@code confinement}, the
     * world's.
     *
     * @throws IllegalArgumentException for null inputs, {@code EntityKey} in the shape, a bare relationship, pair
     *     or selector, or an edge to a dead target
     */
    public SpawnQueue spawnQueue(List<? extends Input> inputs, Confinement confinement) {
        Input[] given = checks.batchInputs(inputs);
        return new QueuedSpawns(index, archetypes, transaction, scopes, lifecycle, checks, batches, stateTag,
                confinement, given);
    }

    // ---------------------------------------------------------------- bulk paths

    public BatchIds batchSpawn(int count, List<? extends Input> inputs, BatchCallback initializer) {
        return batches.spawn(count, inputs, initializer);
    }

    public void batchSpawn(int count, List<? extends Input> inputs, BatchCallback initializer, long[] ids,
            int offset) {
        batches.spawnInto(count, inputs, initializer, ids, offset);
    }

    public void batchSpawnAt(long[] ids, List<? extends Input> inputs, BatchCallback initializer) {
        batches.spawnAt(Objects.requireNonNull(ids, "ids"), checks.batchInputs(inputs), initializer);
    }

    public void batchSpawnAtRaw(MemorySegment ids, int count, List<? extends Input> inputs,
            BatchCallback initializer) {
        batches.spawnAtRaw(Objects.requireNonNull(ids, "ids"), count, checks.batchInputs(inputs), initializer);
    }

    public void batchSet(Query query, Input value) {
        checks.input(value);
        partitions.refusePlain(value.component(), "batchSet");
        batches.set(query, value.component(), value, null);
    }

    public void batchSet(Query query, Component<?> component, BatchCallback writer) {
        Objects.requireNonNull(component, "component");
        partitions.refusePlain(component, "batchSet");
        batches.set(query, component, null, Objects.requireNonNull(writer, "writer"));
    }

    public void batchRemove(Query query, Component<?> component) {
        Objects.requireNonNull(component, "component");
        partitions.refusePlain(component, "batchRemove");
        batches.remove(query, component);
    }

    /** Removes one edge from every member; a dense edge is its pair, a sparse one edits the store. */
    public void batchRemove(Query query, RelationshipValue edge) {
        Objects.requireNonNull(edge, "edge");
        if (edge.relationship().isSparse()) {
            batches.removeSparseEdge(query, edge);
            return;
        }
        batchRemove(query, edge.relationship().targeting(edge.target()));
    }

    public void batchDespawn(Query query) {
        batches.despawn(query);
    }

    /**
     * One batch of a whole-world restoration: the first {@code count} ids (native byte order) of {@code ids}, read
     * at publication, placed with one signature ({@code inputs}, requirements expanded as for {@code spawnAt})
     * and written by {@code initializer} before any membership callback sees the rows. {@code slots[from, from +
     * count)} holds the slots of the ids ascending and {@code rows} (at the same indices) the index in {@code ids}
     * of each one's entity, so the entity index is stamped and published in slot order ({@code null} for both: in
     * the ids' order); the arrays may be longer (a loader's reused buffers) and nothing outside that range is read.
     * The initializer writes every row of every column of the components in {@code initialized}, so their columns
     * are not first zeroed or defaulted ({@code null}: none).
     */
    public record RestoreBatch(MemorySegment ids, int count, Input[] inputs, BatchCallback initializer, int[] slots,
            int[] rows, int from, java.util.Set<Component<?>> initialized) {
        public RestoreBatch {
            if ((slots == null) != (rows == null) || slots != null && (from < 0 || count < 0
                    || (long) from + count > slots.length || (long) from + count > rows.length)) {
                throw new IllegalArgumentException("slots and rows come together, one per id from index " + from);
            }
        }
    }

    /**
     * Replaces every entity (a snapshot load): in one scope, clears the world as {@link #clearEntities} does,
     * lays out the entity index ({@code highWater}, the free stack bottom first with its generations), reserves
     * every batch's ids and stages the batches; publication follows when the scope closes (membership callbacks
     * see the old rows leave and the new ones arrive). The caller has validated everything: ids well formed,
     * distinct, below {@code highWater}; free slots distinct and disjoint from them; dense edge targets among the
     * restored ids; keys distinct. When the restoration fails part way all the same (an allocation the machine
     * cannot make, a callback that throws), the world is cleared again, so it holds no entity rather than some of
     * the snapshot's, and the exception propagates.
     *
     * @param restoredSlots the slots of every batch's ids, ascending, in {@code [0, restoredCount)}
     * @param restoredGenerations the generation of each restored slot's id, in the same order
     * @param restoredCount how many restored slots the two arrays hold (they may be longer)
     * @throws IllegalStateException during publication or inside a scope
     */
    public void restore(int highWater, int[] freeSlots, int[] freeGenerations, int[] restoredSlots,
            int[] restoredGenerations, int restoredCount, RestoreBatch[] restored) {
        if (drain.isDraining() || scopes.depth() > 0) {
            throw new IllegalStateException("restore: not allowed during publication or inside a scope");
        }
        try {
            scopes.run(() -> batches.restore(highWater, freeSlots, freeGenerations, restoredSlots, restoredGenerations,
                    restoredCount, restored));
        } catch (RuntimeException | Error e) {
            // the old entities are gone and the new ones did not all arrive (an allocation or a callback failed):
            // the world is left empty rather than half loaded
            try {
                scopes.run(batches::clear);
            } catch (RuntimeException | Error again) {
                e.addSuppressed(again);
            }
            throw e;
        }
    }

    /**
     * Removes every entity and every staged change, inside one scope (membership callbacks see the rows leave);
     * the world's archetypes, queries and observers at address 0 stay.
     *
     * @throws IllegalStateException during publication or inside an iteration
     */
    public void clearEntities() {
        if (drain.isDraining() || !scopes.onlyDeferred()) {
            throw new IllegalStateException("clearEntities: not allowed during publication or iteration");
        }
        scopes.run(batches::clear);
    }
}
