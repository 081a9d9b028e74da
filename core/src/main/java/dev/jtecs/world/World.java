package dev.jtecs.world;

import dev.jtecs.component.Component;
import dev.jtecs.component.Input;
import dev.jtecs.component.ManagedComponent;
import dev.jtecs.entity.Entity;
import dev.jtecs.entity.internal.EntityIndex;
import dev.jtecs.mutation.CommitDrain;
import dev.jtecs.mutation.Transaction;
import dev.jtecs.mutation.TxState;
import dev.jtecs.storage.Archetype;
import dev.jtecs.storage.internal.ArchetypeRegistry;
import dev.jtecs.storage.internal.NativeMemory;
import dev.jtecs.storage.internal.Table;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * A world: every entity, archetype and native buffer of one simulation. Single-threaded: one thread at a time
 * calls into a world.
 *
 * <p>Mutation model: a spawn returns its id at once but the entity is published by {@link #commit()}; until
 * then {@link #isAlive}, {@link #has}, {@link #get} and archetype iteration do not see it. Structural changes
 * (adding or removing components, despawning) are staged likewise. A {@link #set} of a component the committed
 * entity already has, with nothing structural staged for it, writes through immediately. After commit the state
 * is as if every staged operation had run in call order, last write winning per entity and component.
 *
 * <p>Bad input changes nothing: dead or stale ids, malformed ids, a live id given to {@link #spawnAt}, a
 * definition that has no default, all throw before any state changes. Every method throws
 * {@link IllegalStateException} once the world is closed.
 */
public final class World implements AutoCloseable {
    private final WorldConfig config;
    private final NativeMemory memory = new NativeMemory();
    private final EntityIndex index;
    private final ArchetypeRegistry archetypes;
    private final Transaction transaction = new Transaction();
    private final CommitDrain drain;
    private boolean closed;

    private World(WorldConfig config) {
        this.config = config;
        this.index = new EntityIndex(config.maxEntities());
        this.archetypes = new ArchetypeRegistry(memory);
        this.drain = new CommitDrain(index, archetypes, transaction);
    }

    /** A world with {@link WorldConfig#defaults()}. */
    public static World create() {
        return create(WorldConfig.defaults());
    }

    public static World create(WorldConfig config) {
        return new World(Objects.requireNonNull(config, "config"));
    }

    public WorldConfig config() {
        return config;
    }

    // ---------------------------------------------------------------- structural mutations (staged)

    /** Reserves a new entity with one component (no varargs array); see {@link #spawn(Input...)}. */
    public long spawn(Input a) {
        checkOpen();
        validateInput(a);
        int record = reserve();
        transaction.put(record, a.component(), a);
        return transaction.id(record);
    }

    /** Reserves a new entity with two components (no varargs array); see {@link #spawn(Input...)}. */
    public long spawn(Input a, Input b) {
        checkOpen();
        validateInput(a);
        validateInput(b);
        int record = reserve();
        transaction.put(record, a.component(), a);
        transaction.put(record, b.component(), b);
        return transaction.id(record);
    }

    /** Reserves a new entity with three components (no varargs array); see {@link #spawn(Input...)}. */
    public long spawn(Input a, Input b, Input c) {
        checkOpen();
        validateInput(a);
        validateInput(b);
        validateInput(c);
        int record = reserve();
        transaction.put(record, a.component(), a);
        transaction.put(record, b.component(), b);
        transaction.put(record, c.component(), c);
        return transaction.id(record);
    }

    private int reserve() {
        long id = index.allocate();
        return transaction.begin(id, Entity.slot(id), TxState.STAGED_SPAWN);
    }

    /**
     * Reserves a new entity with these components and returns its id at once; the entity is published (visible
     * to reads and archetype iteration) at the next commit. When one component appears twice, the last input
     * wins.
     */
    public long spawn(Input... inputs) {
        checkOpen();
        validateInputs(inputs);
        long id = index.allocate();
        stageSpawn(id, inputs);
        return id;
    }

    /**
     * Spawns with a caller-chosen id (restoration work): revives the id's slot with the id's generation.
     *
     * @throws IllegalArgumentException when the id is malformed, beyond {@code maxEntities}, or its slot is in use
     */
    public void spawnAt(long id, Input... inputs) {
        checkOpen();
        validateInputs(inputs);
        index.reserveAt(id);
        stageSpawn(id, inputs);
    }

    private void stageSpawn(long id, Input[] inputs) {
        int record = transaction.begin(id, Entity.slot(id), TxState.STAGED_SPAWN);
        for (Input input : inputs) {
            transaction.put(record, input.component(), input);
        }
    }

    /**
     * Writes a component value. Writes through at once when the committed entity already has the component and
     * nothing structural is staged for it; otherwise stages the value (adding the component at commit). Does
     * nothing for an entity staged for despawn.
     */
    public void set(long id, Input input) {
        checkOpen();
        validateInput(input);
        int slot = index.requireLiveOrReserved(id, "set");
        int record = transaction.find(slot);
        if (record < 0) {
            Table table = archetypes.get(index.tableOf(slot));
            int position = table.position(input.component().id());
            if (position >= 0) {
                table.writeInput(position, index.rowOf(slot), input);
                table.markDirty(position);
                return;
            }
            record = transaction.begin(id, slot, TxState.STAGED_MUTATE);
        }
        TxState state = transaction.state(record);
        if (state == TxState.STAGED_SPAWN || state == TxState.STAGED_MUTATE) {
            transaction.put(record, input.component(), input);
        }
    }

    /** Stages removal of a component; does nothing when the entity lacks it or is staged for despawn. */
    public void remove(long id, Component<?> component) {
        checkOpen();
        Objects.requireNonNull(component, "component");
        int slot = index.requireLiveOrReserved(id, "remove");
        int record = transaction.find(slot);
        if (record < 0) {
            if (archetypes.get(index.tableOf(slot)).has(component.id())) {
                transaction.put(transaction.begin(id, slot, TxState.STAGED_MUTATE), component, null);
            }
            return;
        }
        switch (transaction.state(record)) {
            case STAGED_SPAWN -> transaction.drop(record, component);
            case STAGED_MUTATE -> transaction.put(record, component, null);
            default -> { }
        }
    }

    /**
     * Stages removal of an entity. A staged spawn is cancelled (its id goes stale at commit); staged moves of
     * the entity are cancelled; despawning twice does nothing.
     */
    public void despawn(long id) {
        checkOpen();
        int slot = index.requireLiveOrReserved(id, "despawn");
        int record = transaction.find(slot);
        if (record < 0) {
            transaction.begin(id, slot, TxState.STAGED_DESPAWN);
            return;
        }
        switch (transaction.state(record)) {
            case STAGED_SPAWN -> transaction.cancelInto(record, TxState.CANCELLED_SPAWN);
            case STAGED_MUTATE -> transaction.cancelInto(record, TxState.STAGED_DESPAWN);
            default -> { }
        }
    }

    /**
     * Publishes every staged change, in waves (despawns, then spawns, then moves). If publication fails, rows
     * already published stay, the rest of the staged work is discarded, and the exception propagates.
     */
    public void commit() {
        checkOpen();
        drain.drain();
    }

    /** Whether anything is staged and not yet published. */
    public boolean hasPendingChanges() {
        checkOpen();
        return !transaction.isEmpty();
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
        Objects.requireNonNull(component, "component");
        if (!index.isAlive(id)) {
            return false;
        }
        return archetypes.get(index.tableOf(Entity.slot(id))).has(component.id());
    }

    /**
     * A copy of the component's committed value (a fresh record for native components), or {@code null} when
     * the id is dead, stale or unpublished, or the entity lacks the component.
     */
    public <T> T get(long id, Component<T> component) {
        checkOpen();
        Objects.requireNonNull(component, "component");
        if (!index.isAlive(id)) {
            return null;
        }
        int slot = Entity.slot(id);
        Table table = archetypes.get(index.tableOf(slot));
        int position = table.position(component.id());
        return position < 0 ? null : component.valueType().cast(table.readValue(position, index.rowOf(slot)));
    }

    /**
     * Declares that code wrote a component of a published entity outside the tracked paths; marks that column of
     * the entity's archetype dirty. Does nothing for an entity whose spawn is still staged (placement marks it).
     *
     * @throws IllegalArgumentException for dead or stale ids, or when the entity lacks the component
     */
    public void markComponentDirty(long id, Component<?> component) {
        checkOpen();
        Objects.requireNonNull(component, "component");
        int slot = index.requireLiveOrReserved(id, "markComponentDirty");
        if (!index.isAlive(id)) {
            return;
        }
        Table table = archetypes.get(index.tableOf(slot));
        int position = table.position(component.id());
        if (position < 0) {
            throw new IllegalArgumentException("markComponentDirty: entity " + Entity.toString(id)
                    + " has no component " + component.name());
        }
        table.markDirty(position);
    }

    /** The archetype of a published entity, or {@code null} for dead, stale or unpublished ids. */
    public Archetype archetypeOf(long id) {
        checkOpen();
        return index.isAlive(id) ? archetypes.get(index.tableOf(Entity.slot(id))).archetype() : null;
    }

    /** The row of a published entity in its archetype, or -1 for dead, stale or unpublished ids. */
    public int rowOf(long id) {
        checkOpen();
        return index.isAlive(id) ? index.rowOf(Entity.slot(id)) : -1;
    }

    /** Visits every archetype, empty ones included, in registry order. The action must not commit. */
    public void forEachArchetype(Consumer<Archetype> action) {
        checkOpen();
        Objects.requireNonNull(action, "action");
        for (int i = 0; i < archetypes.size(); i++) {
            action.accept(archetypes.get(i).archetype());
        }
    }

    /** The number of published entities. */
    public int entityCount() {
        checkOpen();
        return index.aliveCount();
    }

    public int archetypeCount() {
        checkOpen();
        return archetypes.size();
    }

    /** Native bytes currently reserved by this world's columns. */
    public long nativeBytesReserved() {
        checkOpen();
        return memory.reservedBytes();
    }

    // ---------------------------------------------------------------- lifetime

    /** Frees all native memory. Idempotent; every later call on this world throws. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        archetypes.close();
        memory.close();
    }

    public boolean isClosed() {
        return closed;
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("world is closed");
        }
    }

    private static void validateInputs(Input[] inputs) {
        Objects.requireNonNull(inputs, "inputs");
        for (Input input : inputs) {
            validateInput(input);
        }
    }

    private static void validateInput(Input input) {
        Objects.requireNonNull(input, "input");
        if (input instanceof ManagedComponent<?> managed && !managed.hasDefault()) {
            throw new IllegalArgumentException("component " + managed.name()
                    + " has no default value; pass a constructed value (" + managed.name() + ".of(...))");
        }
    }
}
