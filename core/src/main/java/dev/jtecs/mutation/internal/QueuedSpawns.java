package dev.jtecs.mutation.internal;

import dev.jtecs.entity.internal.Growth;

import dev.jtecs.component.BooleanField;
import dev.jtecs.component.ByteField;
import dev.jtecs.component.CharField;
import dev.jtecs.component.Component;
import dev.jtecs.component.DoubleField;
import dev.jtecs.component.FieldHandle;
import dev.jtecs.component.FloatField;
import dev.jtecs.component.Input;
import dev.jtecs.component.IntField;
import dev.jtecs.component.LongField;
import dev.jtecs.component.RelationshipValue;
import dev.jtecs.component.ShortField;
import dev.jtecs.component.TagComponent;
import dev.jtecs.entity.Entity;
import dev.jtecs.entity.internal.EntityIndex;
import dev.jtecs.mutation.SpawnQueue;
import dev.jtecs.storage.BooleanColumn;
import dev.jtecs.storage.ByteColumn;
import dev.jtecs.storage.CharColumn;
import dev.jtecs.storage.Column;
import dev.jtecs.storage.DoubleColumn;
import dev.jtecs.storage.FloatColumn;
import dev.jtecs.storage.IntColumn;
import dev.jtecs.storage.LongColumn;
import dev.jtecs.storage.ShortColumn;
import dev.jtecs.storage.internal.ArchetypeRegistry;
import dev.jtecs.storage.internal.StagedRows;
import dev.jtecs.storage.internal.Table;
import java.util.List;
import java.util.function.Supplier;

/**
 * The world's {@link SpawnQueue}: a planned shape, its staged rows, and the open spawn batch that queued entities
 * join while no other batch operation follows it in the transaction.
 *
 * <pre>
 *   spawn(): room first (rows, id buffer) ─► staged row (constants, defaults) ─► id reserved and stamped for
 *            the shape's archetype ─► joins the open batch (or opens one) ─► OnSpawn ─► scope closes
 *   set(field, v): the last spawn's staged row, or its live row once published
 *   drain: the batch places its rows as a range; native columns copied from the staged rows
 * </pre>
 *
 * <p>Invariants: the staged rows and the id buffer are reset only when the queue's last batch is done (placed or
 * released), so a batch being placed never reads rows a later spawn overwrote; a queued entity is a spawn-batch
 * member to the rest of the model (stamped with its archetype), so later calls on its id apply after placement.
 */
final class QueuedSpawns implements SpawnQueue {
    private final EntityIndex index;
    private final ArchetypeRegistry archetypes;
    private final Transaction transaction;
    private final Scopes scopes;
    private final LifecycleEvents lifecycle;
    private final InputChecks checks;
    private final Batches batches;
    private final Supplier<TagComponent> stateTag;
    private final Confinement confinement;
    private final Input[] given;
    private final List<Input> inputs;
    private final boolean hasEdges;
    private Batches.Planned planned;
    private Table table;
    private StagedRows rows;
    private BatchOp open;
    private long[] ids = new long[64];
    private int idCount;
    private long cursorId;
    private int cursorRow;
    private BatchOp cursorOp;
    // by component id: the staged column of the component's first native field, plus one (0: the shape has no native
    // field of that id); ids past FIRST_COLUMNS_MAX, and pair selectors (id -1), are looked up by position instead
    private int[] firstColumns = new int[0];

    QueuedSpawns(EntityIndex index, ArchetypeRegistry archetypes, Transaction transaction, Scopes scopes,
            LifecycleEvents lifecycle, InputChecks checks, Batches batches, Supplier<TagComponent> stateTag,
            Confinement confinement, Input[] given) {
        this.index = index;
        this.archetypes = archetypes;
        this.transaction = transaction;
        this.scopes = scopes;
        this.lifecycle = lifecycle;
        this.checks = checks;
        this.batches = batches;
        this.stateTag = stateTag;
        this.confinement = confinement;
        this.given = given;
        this.inputs = List.of(given);
        boolean edges = false;
        for (Input input : given) {
            edges |= input instanceof RelationshipValue;
        }
        this.hasEdges = edges;
        replan(stateTag.get());
    }

    /** Plans the shape for {@code tag}; a failure (an allocation) leaves the queue on its last plan. */
    private void replan(TagComponent tag) {
        Batches.Planned next = batches.planQueue(given, tag);
        Table nextTable = next.plan().table();
        if (table != nextTable) {
            StagedRows nextRows = StagedRows.of(nextTable, next.plan().inputs()); // every allocation first
            int[] nextFirst = nextRows.firstColumnsById(FIRST_COLUMNS_MAX);
            table = nextTable;
            rows = nextRows;
            firstColumns = nextFirst;
            open = null;
        }
        planned = next;
    }

    /** The ids with room in {@link #firstColumns}: a shape holding a component past it looks that one up by position. */
    static final int FIRST_COLUMNS_MAX = 1024;

    @Override
    public SpawnQueue reserve(int count) {
        confinement.check();
        index.reserveSlots(count); // first: it refuses a count the world cannot hold, before anything grows
        boolean pending = open != null && !open.done; // otherwise the next spawn starts the rows and ids afresh
        int held = pending ? idCount : 0;
        rows.reserve((pending ? rows.size() : 0) + count);
        if (held + count > ids.length) {
            ids = Growth.copyOf(ids, held + count);
        }
        return this;
    }

    @Override
    public List<Input> inputs() {
        return inputs;
    }

    @Override
    public long last() {
        confinement.check();
        return cursorId;
    }

    @Override
    public long spawn() {
        confinement.check();
        TagComponent tag = stateTag.get();
        boolean pending = open != null && !open.done;
        if (tag != planned.stateTag() || table.isPruned()) {
            if (pending) { // the pending batch keeps its rows and ids; the new shape stages apart
                ids = new long[ids.length];
            }
            replan(tag);
            open = null;
            pending = false;
        }
        boolean join = pending && transaction.isLastOpenOp(open);
        if (!join && hasEdges) {
            for (Input input : given) {
                if (input instanceof RelationshipValue) {
                    checks.input(input); // its target may have died since the queue last opened a batch
                }
            }
        }
        if (!pending) {
            rows.reset(); // every batch of this queue is done: its rows and ids are free
            idCount = 0;
        }
        rows.ensureRoom(); // room first: nothing below allocates
        // the batch's ids stay implicit while they run on from its first (see BatchOp.addQueued): only a member
        // that breaks the run, and every one after it, needs the id buffer, so that is when it grows and is written;
        // the positions of the implicit ids before it were counted but never written, so they may be far past it
        boolean listed = join && (open.ids != null || index.nextId() != open.firstId + open.count);
        if (listed && idCount >= ids.length) {
            ids = Growth.copyOf(ids, Math.max(ids.length * 2, idCount + 1));
        }
        if (!join) {
            transaction.reserveOps(1); // the batch this spawn opens
        }
        BatchOp op = join ? open : BatchOp.queued(planned.plan(), rows, rows.size(), idCount)
                .withSparse(planned.sparse());
        int row = rows.append(); // a default factory may throw: nothing has changed then
        long id;
        try {
            id = index.allocateStamped(table.id()); // a fresh slot is written (and the index grown) at publication
        } catch (RuntimeException | Error e) {
            rows.dropLast();
            throw e;
        }
        assert listed || !join || id == open.firstId + open.count : "the index handed out another id than it named";
        if (listed) {
            if (open.ids == null) { // the run breaks here: the ids before this one were never written
                for (int i = 0; i < open.count; i++) {
                    ids[open.idsFrom + i] = open.firstId + i;
                }
            }
            ids[idCount] = id;
        }
        idCount++;
        if (join && scopes.depth() > 0 && lifecycle.spawnIsSilent()) {
            // the spawn joins an open batch inside an open scope and nobody hears it: nothing below can throw or run
            // user code, and the scope the call would open could publish nothing when it closed
            op.addQueued(id, ids);
            cursorAt(id, row, op);
            return id;
        }
        scopes.enter();
        boolean ok = false;
        try {
            if (!join) {
                transaction.addOp(op);
                open = op;
            }
            op.addQueued(id, ids);
            cursorAt(id, row, op); // what set() writes, also for an OnSpawn observer's set() on last()
            lifecycle.spawned(id);
            ok = true;
        } finally {
            cursorAt(id, row, op); // an OnSpawn observer may have spawned through this queue meanwhile
            scopes.exit(ok);
        }
        return id;
    }

    /** The last spawn, whose staged row (or live row, once published) {@code set} writes. */
    private void cursorAt(long id, int row, BatchOp op) {
        cursorId = id;
        cursorRow = row;
        cursorOp = op;
    }

    /**
     * Whether the last spawn's entity still waits in its staged row: its batch is not done (a member despawned
     * meanwhile keeps its staged row, which its batch skips, so writing it is harmless).
     */
    private boolean staged() {
        if (cursorOp == null) {
            throw new IllegalStateException("spawn queue of " + inputs + ": call spawn() before set");
        }
        return !cursorOp.done;
    }

    /**
     * The staged column of a field of the shape: its component's first column by id, one array load (every call of
     * {@code set} makes it), or by the component's position for an id that has no room there.
     */
    private int column(FieldHandle field) {
        int id = field.component().id();
        int[] first = firstColumns;
        int start = id >= 0 && id < first.length ? first[id] : 0;
        return start != 0 ? start - 1 + field.field() : rows.column(position(table, field), field.field());
    }

    /** The position of a field's component in {@code in}. */
    private int position(Table in, FieldHandle field) {
        Component<?> component = field.component();
        int position = in.fieldPosition(field);
        if (position < 0) {
            throw new IllegalArgumentException("spawn queue of " + inputs + ": " + Entity.toString(cursorId)
                    + " has no component " + component.name() + " (field " + field.name() + ")");
        }
        return position;
    }

    /** The live column of a published entity's field, marked dirty; the entity's row is {@link #liveRow}. */
    private Column live(FieldHandle field) {
        int slot = index.requireLiveOrReserved(cursorId, "set");
        Table current = archetypes.ofStore(index.storeOf(slot));
        int position = position(current, field);
        current.markDirty(position);
        liveRow = index.rowOf(slot);
        return current.nativeColumn(position, field.field());
    }

    private int liveRow;

    @Override
    public SpawnQueue set(FloatField field, float value) {
        confinement.check();
        if (staged()) {
            rows.setFloat(column(field), cursorRow, value);
        } else {
            ((FloatColumn) live(field)).set(liveRow, value);
        }
        return this;
    }

    @Override
    public SpawnQueue set(IntField field, int value) {
        confinement.check();
        if (staged()) {
            rows.setInt(column(field), cursorRow, value);
        } else {
            ((IntColumn) live(field)).set(liveRow, value);
        }
        return this;
    }

    @Override
    public SpawnQueue set(LongField field, long value) {
        confinement.check();
        if (staged()) {
            rows.setLong(column(field), cursorRow, value);
        } else {
            ((LongColumn) live(field)).set(liveRow, value);
        }
        return this;
    }

    @Override
    public SpawnQueue set(DoubleField field, double value) {
        confinement.check();
        if (staged()) {
            rows.setDouble(column(field), cursorRow, value);
        } else {
            ((DoubleColumn) live(field)).set(liveRow, value);
        }
        return this;
    }

    @Override
    public SpawnQueue set(ShortField field, short value) {
        confinement.check();
        if (staged()) {
            rows.setShort(column(field), cursorRow, value);
        } else {
            ((ShortColumn) live(field)).set(liveRow, value);
        }
        return this;
    }

    @Override
    public SpawnQueue set(ByteField field, byte value) {
        confinement.check();
        if (staged()) {
            rows.setByte(column(field), cursorRow, value);
        } else {
            ((ByteColumn) live(field)).set(liveRow, value);
        }
        return this;
    }

    @Override
    public SpawnQueue set(CharField field, char value) {
        confinement.check();
        if (staged()) {
            rows.setChar(column(field), cursorRow, value);
        } else {
            ((CharColumn) live(field)).set(liveRow, value);
        }
        return this;
    }

    @Override
    public SpawnQueue set(BooleanField field, boolean value) {
        confinement.check();
        if (staged()) {
            rows.setBoolean(column(field), cursorRow, value);
        } else {
            ((BooleanColumn) live(field)).set(liveRow, value);
        }
        return this;
    }

    @Override
    public String toString() {
        return "SpawnQueue" + inputs;
    }

    /** The rows staged since the queue's batches were last all done (they start again then): for tests. */
    int stagedRows() {
        return rows.size();
    }
}
