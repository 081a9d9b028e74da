package dev.jtecs.mutation.internal;

import dev.jtecs.entity.internal.Growth;
import dev.jtecs.builtin.EntityKey;
import dev.jtecs.entity.internal.Failures;
import dev.jtecs.component.Input;
import dev.jtecs.component.BaseRelationship;
import dev.jtecs.component.Component;
import dev.jtecs.component.NativeComponent;
import dev.jtecs.entity.Entity;
import dev.jtecs.entity.internal.EntityIndex;
import dev.jtecs.storage.internal.ArchetypeRegistry;
import dev.jtecs.storage.internal.Table;
import java.util.Arrays;

/**
 * Publishes staged work in waves. Each wave first resolves every destination archetype and reserves its
 * capacity, then runs, in order: despawns (records and quiet despawns in call order; rows removed, slots freed),
 * spawns (rows placed, ids published), moves (rows relocated with their final values), and the sparse edge writes.
 * Work staged by callbacks while a wave runs forms the next wave; more than the configured bound (default
 * {@link #MAX_WAVES}) is reported as a likely observer cascade.
 *
 * <pre>
 *   Transaction ──seal──► wave: resolve+reserve → despawns → spawns → moves → sparse writes
 *                                 ▲                                                  │
 *                                 └──────────── staged by callbacks? next wave ◄─────┘
 * </pre>
 *
 * <p>Callbacks (entity observers, archetype creation) run at consistent points: "removed" before a row leaves,
 * "added" after the row is placed, written and published. When anything throws, rows already published stay,
 * every record not yet published is discarded (reserved spawn slots are released), and the exception
 * propagates; the world stays consistent and usable.
 */
public final class CommitDrain {
    /** The default of the most waves one commit runs before it gives up ({@code WorldConfig.maxSubmissionWaves}). */
    public static final int MAX_WAVES = 64;
    private final int maxWaves;

    private final EntityIndex index;
    private final ArchetypeRegistry registry;
    private final Transaction transaction;
    private final SparseWriteQueue sparseWrites;
    private final KeyIndex keys;
    private final LifecycleEvents lifecycle;
    private final DrainHooks hooks;
    private final RequirementPlan requirements;
    private final RequiredEdges requiredEdges = new RequiredEdges();
    private final Destinations destinations;
    private final SpawnPlacement spawns;
    private final MovePlacement moves;
    private final BulkPaths bulk;
    private final BatchDespawns batchDespawns;
    private final CompactSpawns compact;
    private boolean draining;
    private Table[] reserved = new Table[16];
    private int[] reservedRows = new int[16];
    private int[] reservationOf = new int[16];

    /**
     * A drain publishing {@code transaction} and {@code sparseWrites}; {@code keys} confirms the key claims of what
     * it published, {@code lifecycle} forgets the observers of ids it releases unpublished, and {@code hooks}
     * hears what the relationship layer must settle (see {@link DrainHooks} for the order).
     */
    public CommitDrain(EntityIndex index, ArchetypeRegistry registry, Transaction transaction,
            SparseWriteQueue sparseWrites, KeyIndex keys, LifecycleEvents lifecycle, DrainHooks hooks) {
        this(index, registry, transaction, sparseWrites, keys, lifecycle, hooks, MAX_WAVES);
    }

    /** @param maxWaves the most waves one publication runs, at least 1 */
    public CommitDrain(EntityIndex index, ArchetypeRegistry registry, Transaction transaction,
            SparseWriteQueue sparseWrites, KeyIndex keys, LifecycleEvents lifecycle, DrainHooks hooks,
            int maxWaves) {
        if (maxWaves < 1) {
            throw new IllegalArgumentException("maxWaves=" + maxWaves + " must be at least 1");
        }
        this.maxWaves = maxWaves;
        this.index = index;
        this.registry = registry;
        this.transaction = transaction;
        this.sparseWrites = sparseWrites;
        this.keys = keys;
        this.lifecycle = lifecycle;
        this.hooks = java.util.Objects.requireNonNull(hooks, "hooks");
        this.requirements = new RequirementPlan(registry.pairs());
        this.destinations = new Destinations(registry, transaction, requirements);
        this.spawns = new SpawnPlacement(this, index, registry, transaction, requirements, destinations,
                requiredEdges);
        this.moves = new MovePlacement(this, index, registry, transaction, requirements, destinations,
                requiredEdges);
        this.bulk = new BulkPaths(this, index, registry, transaction, requirements, keys);
        this.batchDespawns = new BatchDespawns(index, registry, transaction, this);
        this.compact = new CompactSpawns(index, registry, transaction);
        transaction.attach(compact);
    }

    /** The world's compact staged spawns ({@code MutationModel} stages them, this drain places them). */
    CompactSpawns compactSpawns() {
        return compact;
    }

    /**
     * Plans a spawn batch at the call: the destination table of {@code inputs} (distinct components, the last
     * input of a component winning) with their requirements, and how each of its columns is written.
     *
     * @throws IllegalArgumentException when the signature holds {@code EntityKey} and {@code allowKey} is false
     */
    public BatchOp.SpawnPlan planSpawn(Input[] inputs, boolean allowKey) {
        return spawns.planBatch(inputs, allowKey);
    }

    public boolean isDraining() {
        return draining;
    }

    /** Whether a call may be published at once: no drain runs and nothing waits for one. */
    private boolean quiet() {
        return !draining && !hasWork() && !keys.hasPending();
    }

    /**
     * The instant {@code set} of a tag or {@code remove} of a component (no scope open): when no drain runs and
     * nothing waits for one (no staged work, sparse write, settlement or key claim), so that the call's
     * publication would hold this one change alone, moves the row at once where {@link MovePlacement#moveAtOnce}
     * can; {@code false}, having changed nothing, sends the call down the staged path. It runs no user code (no
     * observer, no pair, no archetype created), so it only ends its publication as the lone move's would.
     */
    public boolean moveAtOnce(long id, Component<?> component, boolean add) {
        return quiet() && moveAlone(id, component, add, null, null);
    }

    /**
     * The instant {@code set} of a new value of a plain record type, given as its fields' bits
     * ({@code RecordWriter.bits}, one long a field; {@link MovePlacement#movePlainBitsFrom}), moved at once from
     * {@code current} as {@link #moveAtOnce} moves a tag, when no drain runs and nothing waits: writing the bits runs
     * no user code, so nothing can stage anything during it and the publication ends with the move. Returns
     * {@code false}, having changed nothing, otherwise.
     */
    public boolean movePlainBitsAtOnce(long id, NativeComponent<?> component, long[] bits, Table current) {
        return quiet() && moveAlone(id, component, true, bits, current);
    }

    /**
     * A move at once that runs no user code: a tag's or a removal's ({@code bits} null) or a plain value's, given as
     * its bits (from {@code current}); the publication it is ends with it, also when it fails.
     */
    private boolean moveAlone(long id, Component<?> component, boolean add, long[] bits, Table current) {
        boolean moved;
        try {
            moved = bits == null ? moves.moveAtOnce(id, component, add, null)
                    : moves.movePlainBitsFrom(id, current, (NativeComponent<?>) component, bits);
        } catch (RuntimeException | Error failure) {
            hooks.publicationEnded(false);
            throw failure;
        }
        if (moved) {
            hooks.publicationEnded(true);
        }
        return moved;
    }

    /**
     * The instant {@code set} of a new value, which {@code Staging} found the entity, published in {@code current},
     * to lack: moved at once as {@link #moveAtOnce} moves a tag ({@link MovePlacement#moveValueFrom}), or
     * {@code false}, having changed nothing. The move runs with the drain marked running, as in the lone move's
     * wave, so the calls its value's accessor makes stage and publish in waves after the move (a failing accessor
     * discards them with the move); it runs inside the scope of the outermost call that set it (asked by
     * {@code MutationModel}), one running call deep as a publication's callbacks are.
     */
    boolean moveValueAtOnce(long id, Input value, Table current) {
        if (!quiet()) {
            return false;
        }
        draining = true;
        boolean moved = false;
        boolean published = false;
        try {
            destinations.forget(); // tables may have been pruned since the last drain
            try {
                moved = moves.moveValueFrom(id, current, value);
            } catch (RuntimeException | Error failure) {
                moved = true; // (a failure comes after the checks, from the row's growth or the value's write)
                abandonWave(); // what the accessor staged goes with the move it failed
                throw failure;
            }
            if (moved) {
                runWaves(1);
                published = true;
            }
            return moved;
        } finally {
            draining = false;
            if (moved) {
                endPublication(published);
            }
        }
    }

    /**
     * Makes room, before a batch moves or places rows, to note {@code rows} rows' writes of {@code edit} and of
     * {@code requiredEdges} more sparse requirements per row without allocating: should one of its writes fail
     * after the rows moved, {@link #sparseRows} notes the rows it leaves unwritten in that room.
     */
    void reserveSparseRows(BatchOp.SparseEdit edit, int requiredEdges, int rows) {
        int perRow = (edit == null ? 0 : edit.relationships().length) + requiredEdges;
        if (perRow > 0) {
            hooks.reserveSparseTouches(Math.multiplyExact(rows, perRow));
        }
    }

    /** Applies a batch's sparse edge edit to the entities in rows {@code [from, to)} of {@code table}. */
    void sparseRows(BatchOp.SparseEdit edit, Table table, int from, int to) {
        BaseRelationship<?>[] relationships = edit.relationships();
        // room for a note of every row and relationship, made before the first write: should a write fail, the
        // rows it leaves unwritten already moved with the markers and are noted without allocating
        hooks.reserveSparseTouches(Math.multiplyExact(to - from, relationships.length));
        for (int row = from; row < to; row++) {
            long entity = table.entityAt(row);
            for (int e = 0; e < relationships.length; e++) {
                try {
                    hooks.applySparse(entity, edit.op(), relationships[e], edit.targets()[e], edit.payloads()[e]);
                } catch (RuntimeException | Error failure) {
                    rememberUnwritten(relationships, table, row, e, to); // the failed write noted itself
                    throw failure;
                }
            }
        }
    }

    /** Notes the writes of a batch after the one at ({@code row}, {@code e}) that failed, to the end of the rows. */
    private void rememberUnwritten(BaseRelationship<?>[] relationships, Table table, int row, int e, int to) {
        for (int r = row; r < to; r++) {
            long entity = table.entityAt(r);
            for (int k = r == row ? e + 1 : 0; k < relationships.length; k++) {
                hooks.rememberUnwritten(entity, relationships[k]);
            }
        }
    }

    /** What the queue flushes into: required edges pass only when planned, the rest goes to the store. */
    private final SparseWriteQueue.Sink flushSink = new SparseWriteQueue.Sink() {
        @Override
        public void apply(long entity, byte op, BaseRelationship<?> relationship, long target, Object payload) {
            flushOne(entity, op, relationship, target, payload);
        }

        @Override
        public boolean applyAddRun(long[] entities, int from, int to, BaseRelationship<?> relationship,
                long target, Object[] payloads) {
            return hooks.applySparseAddRun(entities, from, to, relationship, target, payloads);
        }
    };

    private void flushOne(long entity, byte op, BaseRelationship<?> relationship, long target, Object payload) {
        if (op != SparseWriteQueue.REQUIRE) {
            hooks.applySparse(entity, op, relationship, target, payload);
            return;
        }
        int planned = requiredEdges.find(entity, relationship);
        if (planned >= 0) {
            hooks.applySparse(entity, SparseWriteQueue.ADD, relationship, target, payload);
            requiredEdges.consume(planned); // only once it landed: a retry after a failure still finds it
        }
    }

    /** Whether anything waits for a drain: staged records or sparse writes, or a settlement left over. */
    public boolean hasWork() {
        return !transaction.isEmpty() || !sparseWrites.isEmpty() || hooks.pendingSettlement();
    }

    /**
     * One publication: drains every wave, then tells the hooks it ended (also when it failed) and confirms the
     * key claims it staged (only those, never every key: claims of rows it published stand, claims of discarded
     * ones lapse, since their entity does not hold the key).
     */
    public void publish() {
        boolean published = false;
        try {
            drain();
            published = true;
        } finally {
            endPublication(published);
        }
    }

    /** The end of a publication, also a failed one: the hooks hear of it, the key claims it staged are settled. */
    private void endPublication(boolean published) {
        hooks.publicationEnded(published);
        if (keys.hasPending()) {
            keys.reconcile();
        }
    }

    /** Publishes everything staged, wave after wave, until nothing is left. A reentrant call returns at once. */
    public void drain() {
        if (draining) {
            return; // a commit requested from a callback joins the active drain
        }
        draining = true;
        destinations.forget(); // tables may have been pruned since the last drain
        try {
            runWaves(0);
        } finally {
            draining = false;
        }
    }

    /** Runs waves while there is work, {@code waves} of them already run in this drain. */
    private void runWaves(int waves) {
        while (hasWork()) {
            if (++waves > maxWaves) {
                String cascade = describeCascade();
                discardStaged();
                throw new IllegalStateException("commit did not reach a fixed point after " + maxWaves
                        + " waves: likely observer cascade (observers or callbacks keep staging work; wave "
                        + waves + " would have published " + cascade + "; the bound is "
                        + "WorldConfig.maxSubmissionWaves)");
            }
            runWave();
        }
    }

    /**
     * The instant {@code set} of a sparse edge of a published entity whose table holds the relationship's marker
     * (a reparenting, say), when no drain runs and nothing waits: the write is the call's whole publication, no row
     * moves and the marker stays in step, so the edge is added at once ({@link DrainHooks#addSparseAtOnce}) with
     * nothing staged. Counts the call as one submission. Returns {@code false}, having changed nothing,
     * otherwise: the caller stages the write.
     */
    public boolean setSparseAtOnce(long id, BaseRelationship<?> relationship, long target, Object payload) {
        if (!quiet()) {
            return false;
        }
        int store = index.aliveStore(id);
        if (store < 0 || !registry.ofStore(store).has(relationship.id())) {
            return false; // a new marker moves the row: the general path
        }
        boolean added;
        try {
            added = hooks.addSparseAtOnce(id, relationship, target, payload);
        } catch (RuntimeException | Error failure) {
            hooks.publicationEnded(false);
            throw failure;
        }
        if (added) {
            transaction.countSubmission();
            hooks.publicationEnded(true);
        }
        return added;
    }

    /**
     * The instant spawn of plain inputs into an archetype nobody observes ({@link SpawnPlacement#spawnAtOnce}),
     * when no drain runs and nothing waits for one: the call's publication would hold this spawn alone, and with
     * no pair, observer or hook to run it has nothing else to do. Counts the call as one submission. Returns the
     * new id, or 0 having changed nothing: the caller stages the spawn.
     */
    public long spawnAtOnce(Input[] inputs, Input a, Input b, Input c, int n) {
        if (!quiet()) {
            return 0;
        }
        long id = spawns.spawnAtOnce(inputs, a, b, c, n);
        if (id != 0) {
            transaction.countSubmission();
        }
        return id;
    }

    /**
     * The instant {@code despawn} of a published entity that nothing can hear leave (no scope open, nobody
     * observing despawns, checked by the caller): when no drain runs and nothing waits for one, no relationship
     * edge leaves with it or points at it ({@link DrainHooks#hearsDespawnOf} is false) and no observer watches its
     * table, its row leaves and its slot is freed, and nothing else happens: the
     * publication {@link #despawnAtOnce} would run has no callback to call, no mark anybody could read, no hook
     * with anything to do and no later wave. The result is the same world. What the removal allocates is made
     * first, so a failed allocation changes nothing. Returns {@code false}, having changed nothing, otherwise.
     */
    public boolean despawnUnheard(long id) {
        int store = index.aliveStore(id);
        if (store < 0 || !quiet()) {
            return false;
        }
        Table table = registry.ofStore(store);
        if (table.observers().length != 0 || hooks.hearsDespawnOf(id, table)) {
            return false;
        }
        int slot = Entity.slot(id);
        index.reserveFree(1);
        table.prepareRowRemoval();
        transaction.countSubmission(); // the call is a submission of its own, as its publication would be
        detachRow(index, table, index.rowOf(slot));
        index.free(slot);
        return true;
    }

    /**
     * The instant {@code despawn} of a published entity (no scope open, nobody observing despawns): when no drain
     * runs and nothing waits for one (no staged work, sparse write, settlement or key claim), publishes it as the
     * call's publication would, as its one quiet despawn ({@link #publishLoneQuietDespawn}: the row leaves, the
     * segment and the wave end, the waves its callbacks or settlements staged follow, then the publication ends),
     * without staging it first. The slot carries the despawn's mark while the row leaves, as a staged despawn's
     * does, so a callback sees the entity as despawning. Returns {@code false}, having changed nothing, otherwise:
     * the caller stages the call. The caller holds the running call of a publication open around it
     * ({@code Scopes.enterPublication}).
     */
    public boolean despawnAtOnce(long id) {
        if (!quiet() || index.aliveStore(id) < 0) {
            return false;
        }
        int slot = Entity.slot(id);
        transaction.doom(slot); // (may grow the marks: a failure there changes nothing)
        transaction.countSubmission(); // the call is a submission of its own, as when its wave is sealed
        boolean published = false;
        draining = true;
        try {
            destinations.forget();
            quietNext = 0;
            try {
                despawnEntity(id, -1);
                hooks.segmentDone();
                endWave();
            } catch (RuntimeException | Error failure) {
                if (quietNext == 0) {
                    transaction.undoom(slot); // it never left: the entity stays alive, unmarked
                }
                quietNext = 0;
                abandonWave();
                throw failure;
            }
            runWaves(1);
            published = true;
        } finally {
            draining = false;
            endPublication(published);
        }
        return true;
    }

    /**
     * Runs one wave. Query batches (set, remove, despawn) split it into segments: the records staged before such
     * a call publish, in the usual phases, before it runs; those staged after it publish after it. Spawn batches
     * are placed in the spawn phase of the segment they were called in, before the single spawns.
     */
    private void runWave() {
        transaction.seal();
        sparseWrites.seal();
        quietNext = 0;
        int quiet = transaction.sealedQuietDespawns();
        boolean general = transaction.sealedCompactSpawns() > 0; // the short paths below know no compact spawn
        if (!general && transaction.sealedOps() == 0 && transaction.sealedTagMoves() == 0 && quiet == 0
                && transaction.sealedEnd() == transaction.sealedStart() && !sparseWrites.isEmpty()) {
            publishSparseOnly(); // the wave of an instant sparse edge call, mostly (a reparenting)
            return;
        }
        if (!general && transaction.sealedOps() == 0 && sparseWrites.isEmpty()) { // one instant call's, mostly
            int records = transaction.sealedEnd() - transaction.sealedStart();
            int tagMoves = transaction.sealedTagMoves();
            if (tagMoves == 1 && records == 0 && quiet == 0 && !hooks.pendingSettlement() && publishLoneMove()) {
                return;
            }
            if (tagMoves == 0 && records == 0 && quiet == 1) {
                publishLoneQuietDespawn();
                return;
            }
            if (tagMoves == 0 && records == 1 && quiet == 0) {
                TxState state = transaction.state(transaction.sealedStart());
                if (state == TxState.STAGED_DESPAWN || state == TxState.STAGED_SPAWN) {
                    publishLoneRecord(transaction.sealedStart(), state);
                    return;
                }
            }
        }
        int from = transaction.sealedStart();
        int to = transaction.sealedEnd();
        int ops = transaction.sealedOps();
        boolean cancels = transaction.sealedBatchCancels();
        int segmentStart = from; // the segment being published, for a failure's edge completion
        int segmentEnd = from;
        int segmentMark = 0;
        int segmentQuiet = 0; // the first quiet despawn the segment being published may publish
        try {
            // a failure's edge completion needs room for the slots the wave publishes: made before any is (a
            // failure here is handled as any other, with nothing published)
            int room = to - from + transaction.sealedQuietDespawns() - quietNext + transaction.sealedCompactSpawns();
            if (publishedSlots.length < room) {
                publishedSlots = Growth.newInts(Math.max(room, 2 * publishedSlots.length));
            }
            int segment = from;
            int firstOp = 0;
            for (int k = 0; k <= ops; k++) {
                BatchOp op = k < ops ? transaction.op(k) : null;
                if (op != null && !op.isBoundary()) {
                    continue;
                }
                int end = op == null ? to : op.recordMark;
                segmentStart = segment;
                segmentEnd = end;
                segmentMark = op == null ? Integer.MAX_VALUE : k;
                segmentQuiet = quietNext;
                runSegment(segment, end, firstOp, k, cancels, op == null);
                sparseWrites.flush(op == null ? Integer.MAX_VALUE : k, index, flushSink);
                hooks.segmentDone();
                if (op != null) {
                    bulk.run(op);
                    ranOps = k + 1;
                    hooks.segmentDone();
                }
                segment = end;
                firstOp = k + 1;
            }
            endWave();
        } catch (RuntimeException | Error failure) {
            completePublishedEdges(failure, segmentStart, segmentEnd, segmentMark, segmentQuiet);
            releaseUnpublished(from, to);
            releaseCompactSpawns();
            releaseQuietDespawns(quietNext);
            releaseOps(ranOps, ops);
            abandonWave();
            throw failure;
        } finally {
            ranOps = 0;
        }
        transaction.recycle();
        sparseWrites.recycle();
    }

    private int ranOps;

    /**
     * The end of every wave, once its segments published: a requirement whose {@code REQUIRE} did not come is not
     * ours to add, and relationship markers follow the edges where the wave left them.
     */
    private void endWave() {
        requiredEdges.clear();
        hooks.settleSparse();
    }

    /** A wave failed: it is recycled, and everything still staged (the rest of it, what callbacks staged) goes. */
    private void abandonWave() {
        transaction.recycle();
        discardStaged();
    }

    /**
     * The wave just sealed holds sparse edge writes and nothing else (no record, no batch, no tag move): the
     * instant {@code set} or {@code remove} of a sparse edge whose marker needs no move, such as a reparenting.
     * It flushes the writes and ends the segment and the wave as a general wave does, without a segment's
     * reservation and passes over records it does not have. A failure ends it as it ends a general wave: the
     * writes applied stay, the rest are discarded.
     */
    private void publishSparseOnly() {
        try {
            sparseWrites.flush(Integer.MAX_VALUE, index, flushSink);
            hooks.segmentDone();
            endWave();
        } catch (RuntimeException | Error failure) {
            abandonWave();
            throw failure;
        }
        transaction.recycle();
        sparseWrites.recycle();
    }

    /**
     * The wave just sealed holds one spawn or despawn record and nothing else (no other record, no batch, no tag
     * move, no sparse write): the lone {@code spawn} or {@code despawn} of a call outside any scope, or a scope
     * that staged only that. It runs what a general wave runs for it, in the same order (the spawn, whose table
     * grows for its row before anything changes, or the despawn; the segment's end; the wave's end), without the
     * tallies and the passes over records that have nothing to do. A failure ends it as it ends a general wave.
     */
    private void publishLoneRecord(int record, TxState state) {
        try {
            if (state == TxState.STAGED_SPAWN) {
                spawns.spawn(record); // its table grows for the row before anything changes (appendRow)
            } else {
                despawn(record);
            }
            hooks.segmentDone();
            endWave();
        } catch (RuntimeException | Error failure) {
            releaseUnpublished(record, record + 1);
            abandonWave();
            throw failure;
        }
        transaction.recycle(); // (the sparse queue was empty when sealed: its recycling would change nothing)
    }

    /**
     * The wave just sealed holds one quiet despawn and nothing else: the lone {@code despawn} of a call outside any
     * scope, or a scope that staged only that. It runs what a general wave runs for it, as
     * {@link #publishLoneRecord} does for a despawn record; a failure ends it as it ends a general wave.
     */
    private void publishLoneQuietDespawn() {
        try {
            despawnEntity(transaction.quietDespawnIds()[0], -1);
            hooks.segmentDone();
            endWave();
        } catch (RuntimeException | Error failure) {
            releaseQuietDespawns(quietNext);
            abandonWave();
            throw failure;
        }
        transaction.recycle(); // (the sparse queue was empty when sealed: its recycling would change nothing)
    }

    /**
     * The wave just sealed holds one compact move and nothing else (no record, no batch, no sparse write, no
     * settlement pending): the lone {@code set} or {@code remove} of a call outside any scope, or a scope that
     * staged one change. When {@link MovePlacement#moveLone} can publish it without any callback (neither table
     * is observed or holds pairs), it does so here, without the segment machinery of a general wave; returns
     * {@code false} when it changed nothing and the general wave must run. A failure (an allocation, a value's
     * accessor) ends the wave as a general wave's failure does: the move is discarded and the world is as before.
     */
    private boolean publishLoneMove() {
        boolean published;
        try {
            published = moves.moveLone();
        } catch (RuntimeException | Error failure) {
            abandonWave();
            throw failure;
        }
        if (published) {
            transaction.recycle(); // (the sparse queue was empty when sealed: its recycling would change nothing)
        }
        return published;
    }

    /**
     * A wave failed part way through a segment: the entities whose records it already published get their
     * sparse edge writes of that segment now, so a published row never carries a relationship marker without its
     * edges (or the other way round); the writes of everything not published are discarded with it.
     */
    private void completePublishedEdges(Throwable failure, int segmentStart, int segmentEnd, int segmentMark,
            int segmentQuiet) {
        // in the room the wave made before it began (publishedSlots): nothing here allocates, so the releases
        // that follow always run; a write that fails is the flush's to handle (flushPublished)
        int[] slots = publishedSlots;
        int count = 0;
        for (int record = segmentStart; record < segmentEnd; record++) {
            if (transaction.state(record) == TxState.COMMITTED) {
                slots[count++] = transaction.slot(record);
            }
        }
        for (int k = segmentQuiet; k < quietNext; k++) { // the quiet despawns the segment published
            slots[count++] = Entity.slot(transaction.quietDespawnIds()[k]);
        }
        if (segmentMark == Integer.MAX_VALUE) { // the last segment: the one that places compact spawns
            for (int i = 0; i < compact.placed(); i++) {
                slots[count++] = Entity.slot(compact.id(i));
            }
        }
        if (count == 0) {
            return;
        }
        Arrays.sort(slots, 0, count);
        publishedCount = count;
        try {
            sparseWrites.flushPublished(segmentMark, index, flushSink, isPublished);
        } catch (RuntimeException | Error e) {
            failure.addSuppressed(e);
        }
    }

    private int[] publishedSlots = new int[16];
    private int publishedCount; // slots [0, publishedCount) of publishedSlots, ascending, during a completion
    private final java.util.function.IntPredicate isPublished =
            slot -> Arrays.binarySearch(publishedSlots, 0, publishedCount, slot) >= 0;

    /** Publishes records {@code [from, to)} and the spawn batches among ops {@code [firstOp, endOp)}. */
    private void runSegment(int from, int to, int firstOp, int endOp, boolean cancels, boolean last) {
        resolveAndReserve(from, to, firstOp, endOp, last);
        int quietEnd = transaction.sealedQuietDespawns();
        for (int record = from; record < to; record++) {
            if (quietNext < quietEnd && transaction.quietDespawnMark(quietNext) <= record) {
                publishQuietDespawns(record); // staged before this record began: they go first
            }
            int runEnd = record;
            if (transaction.state(record) == TxState.STAGED_DESPAWN) { // a run stops at the next quiet despawn
                int limit = quietNext < quietEnd ? Math.min(to, transaction.quietDespawnMark(quietNext)) : to;
                runEnd = batchDespawns.runEnd(transaction.recordIds(), record, limit, true);
            }
            if (runEnd > record) {
                // a run of despawns from one table: same result, grouped
                batchDespawns.removeRun(transaction.recordIds(), record, runEnd);
                transaction.commitRecords(record, runEnd);
                batchDespawns.reportRun(runEnd - record);
                record = runEnd - 1;
            } else {
                publish(record, 0);
            }
        }
        if (quietNext < quietEnd) {
            publishQuietDespawns(to); // (staged before the wave's first batch boundary: all of them here)
        }
        for (BatchOp.Kind kind : SPAWN_ORDER) {
            for (int k = firstOp; k < endOp; k++) {
                BatchOp op = transaction.op(k);
                if (op.kind == kind) {
                    bulk.place(op, cancels);
                    ranOps = Math.max(ranOps, k + 1);
                }
            }
        }
        boolean compactSpawns = last && transaction.sealedCompactSpawns() > 0; // (a wave with them: one segment)
        for (int record = from; record < to; record++) {
            if (compactSpawns) {
                compact.placeBefore(record, this); // those staged before this record began, as their records
            }
            publish(record, 1);
        }
        if (compactSpawns) {
            compact.placeBefore(Integer.MAX_VALUE, this);
        }
        if (last && transaction.sealedTagMoves() > 0) {
            moves.moveAllWithTags(from, to); // (a wave with tag moves holds no batch boundary: one segment)
        } else {
            moves.moveAll(from, to);
        }
    }

    private static final BatchOp.Kind[] SPAWN_ORDER = {BatchOp.Kind.SPAWN, BatchOp.Kind.SPAWN_AT};

    /** Releases what the batch operations {@code [from, to)} of a failed wave hold (reserved slots, marks). */
    private void releaseOps(int from, int to) {
        for (int k = 0; k < to; k++) {
            BatchOp op = transaction.op(k);
            if (op.isBoundary()) {
                if (k >= from) {
                    bulk.releaseQuery(op);
                }
            } else {
                bulk.releaseSpawn(op); // frees only slots still reserved
            }
        }
    }

    /**
     * Resolves every spawn's and move's destination and grows each destination once for all rows the wave
     * brings it, net of the rows this wave's despawns free there (they run first), so no buffer is reallocated
     * while the wave's callbacks run and no entity moves twice.
     */
    private void resolveAndReserve(int from, int to, int firstOp, int endOp, boolean last) {
        moves.startSegment(from, to);
        int distinct = 0;
        try {
            Table recordTable = null; // consecutive records of one table (a run of despawns, say) are tallied once
            int recordRows = 0;
            for (int record = from; record < to; record++) {
                TxState state = transaction.state(record);
                Table table;
                int delta;
                if (state == TxState.STAGED_SPAWN) {
                    table = spawns.shapeOf(record).table();
                    delta = 1;
                } else if (state == TxState.STAGED_MUTATE) {
                    Table current = currentTable(record);
                    if (current == null) {
                        continue; // the entity died before this segment: the record lapses in move()
                    }
                    table = moves.plan(record, current);
                    delta = 1;
                } else if (state == TxState.STAGED_DESPAWN) {
                    int store = index.aliveStore(transaction.id(record));
                    if (store < 0) {
                        continue;
                    }
                    table = registry.ofStore(store);
                    delta = -1;
                } else {
                    continue;
                }
                if (table != recordTable) {
                    if (recordTable != null) {
                        distinct = tally(recordTable, recordRows, distinct);
                    }
                    recordTable = table;
                    recordRows = 0;
                }
                recordRows += delta;
            }
            if (recordTable != null) {
                distinct = tally(recordTable, recordRows, distinct);
            }
            for (int k = firstOp; k < endOp; k++) {
                BatchOp op = transaction.op(k);
                distinct = tally(op.table, op.count, distinct);
            }
            if (last && transaction.sealedCompactSpawns() > 0) {
                for (int shape = 0; shape < compact.shapes(); shape++) {
                    if (compact.rows(shape) > 0) {
                        distinct = tally(compact.table(shape), compact.rows(shape), distinct);
                    }
                }
            }
            int tagMoves = last ? transaction.sealedTagMoves() : 0;
            moves.startTags(tagMoves);
            Table runTarget = null; // consecutive moves to one table are tallied once
            int runRows = 0;
            if (tagMoves > 0 && moves.planRun(tagMoves)) { // one run, planned at once
                runTarget = moves.runTarget();
                runRows = runTarget == null ? 0 : tagMoves;
                tagMoves = 0;
            }
            for (int move = 0; move < tagMoves; move++) {
                Table target = moves.planTag(move);
                if (target != runTarget) {
                    if (runRows > 0) {
                        distinct = tally(runTarget, runRows, distinct);
                    }
                    runTarget = target;
                    runRows = 0;
                }
                if (target != null) {
                    runRows++;
                }
            }
            if (runRows > 0) {
                distinct = tally(runTarget, runRows, distinct);
            }
            if (distinct > 0) { // the rows quiet despawns free matter only to a table that also gets rows
                distinct = tallyQuietDespawns(to, distinct);
            }
            for (int k = 0; k < distinct; k++) {
                if (reservedRows[k] > 0) {
                    reserved[k].ensureCapacity(reserved[k].count() + reservedRows[k]);
                }
            }
        } finally {
            for (int k = 0; k < distinct; k++) {
                reservationOf[reserved[k].id()] = 0;
                reserved[k] = null;
            }
        }
    }

    /**
     * {@link #tally}s the rows that the pending quiet despawns staged before record {@code mark} free in tables
     * already tallied (only a table that gets rows needs its net count).
     */
    private int tallyQuietDespawns(int mark, int distinct) {
        long[] ids = transaction.quietDespawnIds();
        Table runTable = null; // consecutive despawns from one table (a spent list, say) are tallied once
        int runRows = 0;
        for (int k = quietNext; k < transaction.sealedQuietDespawns() && transaction.quietDespawnMark(k) <= mark;
                k++) {
            int store = index.aliveStore(ids[k]);
            if (store < 0) {
                continue;
            }
            Table table = registry.ofStore(store);
            if (table != runTable) {
                if (runTable != null && isTallied(runTable)) {
                    distinct = tally(runTable, runRows, distinct);
                }
                runTable = table;
                runRows = 0;
            }
            runRows--;
        }
        return runTable != null && isTallied(runTable) ? tally(runTable, runRows, distinct) : distinct;
    }

    private boolean isTallied(Table table) {
        return table.id() < reservationOf.length && reservationOf[table.id()] != 0;
    }

    /**
     * The table a record's entity is in when its segment starts: where it lives, or, for an entity of a spawn
     * batch this segment places, that batch's table; {@code null} when it is dead.
     */
    private Table currentTable(int record) {
        long id = transaction.id(record);
        int slot = transaction.slot(record);
        if (index.isAlive(id)) {
            return registry.ofStore(index.storeOf(slot));
        }
        if (index.stateOf(id) == EntityIndex.RESERVED && index.batchArchetype(slot) >= 0) {
            return registry.get(index.batchArchetype(slot));
        }
        return null;
    }

    /** Adds {@code delta} rows to a table's tally for this wave (O(1) by table id); returns the tallies in use. */
    private int tally(Table table, int delta, int distinct) {
        if (table.id() >= reservationOf.length) {
            reservationOf = Growth.copyOf(reservationOf, Math.max(table.id() + 1, reservationOf.length * 2));
        }
        int k = reservationOf[table.id()] - 1;
        if (k < 0) {
            if (distinct == reserved.length) {
                var grownReserved = Growth.copyOf(reserved, distinct * 2); // both first: they stay in step
                var grownRows = Growth.copyOf(reservedRows, distinct * 2);
                reserved = grownReserved;
                reservedRows = grownRows;
            }
            k = distinct++;
            reserved[k] = table;
            reservedRows[k] = 0;
            reservationOf[table.id()] = k + 1;
        }
        reservedRows[k] += delta;
        return distinct;
    }

    private void publish(int record, int phase) {
        TxState state = transaction.state(record);
        if (phase == 0 && state == TxState.STAGED_DESPAWN) {
            despawn(record);
        } else if (phase == 0 && state == TxState.CANCELLED_SPAWN) {
            transaction.setState(record, TxState.COMMITTED);
            index.free(transaction.slot(record));
            hooks.despawned(transaction.id(record)); // edges staged to it must not outlive it
        } else if (phase == 1 && state == TxState.STAGED_SPAWN) {
            spawns.spawn(record);
        }
    }

    // ---------------------------------------------------------------- despawn

    private int quietNext; // the sealed quiet despawns below it are published

    /**
     * Publishes the pending quiet despawns staged before record {@code mark} began (all of a wave's are staged
     * before its first batch boundary), in call order: runs from one unobserved table grouped as a run of despawn
     * records is, the others one at a time.
     */
    private void publishQuietDespawns(int mark) {
        int end = quietNext;
        while (end < transaction.sealedQuietDespawns() && transaction.quietDespawnMark(end) <= mark) {
            end++;
        }
        while (quietNext < end) {
            // read again each time: a despawn's observer may stage quiet despawns of the next wave, which may
            // replace the array (a grown copy: the sealed ones keep their places)
            long[] ids = transaction.quietDespawnIds();
            int runEnd = batchDespawns.runEnd(ids, quietNext, end, false);
            if (runEnd > quietNext) {
                int n = runEnd - quietNext;
                batchDespawns.removeRun(ids, quietNext, runEnd);
                quietNext = runEnd;
                batchDespawns.reportRun(n);
            } else {
                despawnEntity(ids[quietNext], -1);
            }
        }
    }

    /** A wave failed: the quiet despawns from {@code from} on were not published, and their slots lose the mark. */
    private void releaseQuietDespawns(int from) {
        long[] ids = transaction.quietDespawnIds();
        for (int k = from; k < transaction.sealedQuietDespawns(); k++) {
            transaction.undoom(Entity.slot(ids[k])); // the entity stays alive
        }
        quietNext = 0;
    }

    private void despawn(int record) {
        despawnEntity(transaction.id(record), record);
    }

    /** Marks the despawn of record {@code record}, or of the next quiet despawn when it is -1, published. */
    private void despawnPublished(int record) {
        if (record >= 0) {
            transaction.setState(record, TxState.COMMITTED);
        } else {
            quietNext++;
        }
    }

    /** Despawns one entity: the despawn of record {@code record}, or the next quiet despawn when it is -1. */
    private void despawnEntity(long id, int record) {
        int slot = Entity.slot(id);
        if (!index.isAlive(id)) {
            if (index.stateOf(id) == EntityIndex.RESERVED) {
                index.free(slot); // a member of a spawn batch not placed yet: it never gets a row
                transaction.undoom(slot); // its despawn's mark: the slot must come back unmarked
                hooks.despawned(id);
            }
            despawnPublished(record);
            return;
        }
        Table table = registry.ofStore(index.storeOf(slot));
        int row = index.rowOf(slot);
        index.reserveFree(1); // what the removal allocates, before observers hear of it
        table.prepareRowRemoval();
        hooks.prepareDespawns(1, slot);
        notifyRemoved(table, row, row + 1, null);
        despawnPublished(record);
        int last = table.count() - 1;
        long moved = detachRow(index, table, row);
        // the index forgets the id before observers hear of the row move: one that throws cannot leave a zombie
        index.free(slot);
        transaction.undoom(slot); // a capture copied while the row left may have marked it
        reportRemovedRow(table, moved, last, row, id);
    }

    /**
     * After a despawn's row left: tells the table's observers of the swap-remove, then reports the despawn even when
     * one of them threw (the entity is gone either way); the first exception propagates.
     */
    void reportRemovedRow(Table table, long moved, int last, int row, long id) {
        try {
            Notifications.swapRemoved(table, moved, last, row);
        } catch (RuntimeException | Error e) {
            try {
                hooks.despawned(id);
            } catch (RuntimeException | Error next) {
                e.addSuppressed(next);
            }
            throw e;
        }
        hooks.despawned(id);
    }

    /** Whether whole-archetype despawns call the despawn listener per entity (a pass the world needs only once
     * relationships exist). */
    public void reportWholeDespawns(boolean report) {
        this.wholeDespawns = report;
    }

    private boolean wholeDespawns;

    boolean reportsWholeDespawns() {
        return wholeDespawns;
    }

    void prepareDespawns(int count, int highestSlot) {
        hooks.prepareDespawns(count, highestSlot);
    }

    /**
     * For a cascade's settlement: despawns {@code ids[0, n)} now, silently, in the reverse of their order, instead
     * of staging their despawns for the next wave, when nothing could tell the two apart: a publication is draining,
     * nothing is staged (no record, tag move, batch operation, waiting quiet despawn, mark or sparse write) and every
     * entity is alive in a table that no entity observer watches. Returns {@code false}, having changed nothing,
     * otherwise. Reports nothing: the caller tells the edge store. See {@link BatchDespawns#removeSubtree}.
     */
    public boolean despawnSubtreeAtOnce(long[] ids, int n) {
        if (!draining || !transaction.holdsNoWork() || !sparseWrites.isEmpty()) {
            return false;
        }
        return batchDespawns.removeSubtree(ids, n);
    }

    /** The drain's despawn runs (tests). */
    BatchDespawns batchDespawns() {
        return batchDespawns;
    }

    /** Reports {@code ids[from, to)}, despawned together (rows gone, slots freed), in one call of the hooks. */
    void reportDespawnedRun(long[] ids, int from, int to) {
        hooks.despawnedRun(ids, from, to);
    }

    /** Whether {@link #reportDespawnedRun} may do anything now ({@link DrainHooks#hearsDespawns}). */
    boolean reportsDespawns() {
        return hooks.hearsDespawns();
    }

    void reportReleased(long id) {
        lifecycle.released(id);
    }

    /**
     * Ends a single-row move whose destination row is written: the index follows the entity, the source closes
     * its hole, and the observers of both tables hear of it, the destination's even when a source observer throws
     * (the row has moved all the same); {@code sparse}, when not null, is a query batch's sparse edit of the moved
     * row, applied before the destination hears of it. The first failure is rethrown at the end.
     */
    void completeRowMove(int slot, Table current, int row, Table target, int destination, BatchOp.SparseEdit sparse) {
        index.relocate(slot, target.store(), destination);
        int last = current.count() - 1;
        long moved = detachRow(index, current, row);
        Throwable failure = null;
        try {
            Notifications.swapRemoved(current, moved, last, row);
        } catch (RuntimeException | Error e) {
            failure = e;
        }
        try {
            if (sparse != null) {
                sparseRows(sparse, target, destination, destination + 1);
            }
            placed(target, destination, destination + 1, current);
        } catch (RuntimeException | Error e) {
            failure = Failures.fold(failure, e);
        }
        Failures.throwIfAny(failure);
    }

    /** Rows {@code [from, to)} were placed in {@code table}: edges to dead targets are settled, observers told. */
    void placed(Table table, int from, int to, Table other) {
        if (table.hasPairs()) {
            hooks.placedWithPairs(table, from, to);
        }
        notifyAdded(table, from, to, other);
    }

    /**
     * Swap-removes a row and relocates the entity that filled the hole, telling nobody (runs no user code); returns
     * that entity, or 0 when the row was the last. The caller reports it with {@link Notifications#swapRemoved}
     * once its own bookkeeping is done.
     */
    static long detachRow(EntityIndex index, Table table, int row) {
        long moved = table.swapRemove(row);
        if (moved != 0) {
            index.relocate(Entity.slot(moved), table.store(), row);
        }
        return moved;
    }

    // ---------------------------------------------------------------- notifications

    /**
     * Tells a table's observers that rows {@code [from, to)} are about to leave (for {@code other}, or die); when
     * one throws, the rows stay and the others hear them come back ({@link Notifications#removed}).
     */
    static void notifyRemoved(Table table, int from, int to, Table other) {
        Notifications.removed(table, from, to, other);
    }

    /** Tells a table's observers that rows {@code [from, to)} arrived (activation first when it was empty). */
    static void notifyAdded(Table table, int from, int to, Table other) {
        Notifications.added(table, from, to, other);
    }

    /** Tells a table's observers it became empty, when it did. */
    static void notifyDeactivated(Table table) {
        Notifications.deactivated(table);
    }

    // ---------------------------------------------------------------- failure

    /** The sealed compact spawns not placed yet are released as unpublished spawn records are. */
    private void releaseCompactSpawns() {
        if (transaction.sealedCompactSpawns() > 0) {
            compact.releaseUnplaced(releaseSpawn);
        }
    }

    private final java.util.function.LongConsumer releaseSpawn = this::releaseSpawn;

    private void releaseSpawn(long id) {
        index.free(Entity.slot(id)); // never published: the reserved id goes stale
        lifecycle.released(id);
    }

    /** Releases the reserved slots of spawns a failed wave never published; other records simply lapse. */
    private void releaseUnpublished(int from, int to) {
        for (int record = from; record < to; record++) {
            TxState state = transaction.state(record);
            if (state == TxState.STAGED_SPAWN || state == TxState.CANCELLED_SPAWN) {
                releaseSpawn(transaction.id(record));
            } else if (state == TxState.STAGED_DESPAWN) {
                transaction.undoom(transaction.slot(record)); // a cascade's mark: the entity stays alive
            }
            transaction.setState(record, TxState.COMMITTED);
        }
    }

    /**
     * Empties every table: membership callbacks see each table's rows leave (and the table deactivate), then
     * everything staged, including what those callbacks staged, is discarded. The caller then resets the entity
     * index.
     */
    public void clearAll() {
        for (int i = 0; i < registry.size(); i++) { // the copies pending batches take allocate: before any row goes
            Table table = registry.get(i);
            if (table != null && table.count() > 0) {
                table.settleCaptures();
            }
        }
        for (int i = 0; i < registry.size(); i++) {
            Table table = registry.get(i);
            if (table != null && table.count() > 0) {
                notifyRemoved(table, 0, table.count(), null);
            }
        }
        for (int i = 0; i < registry.size(); i++) {
            Table table = registry.get(i);
            if (table != null && table.count() > 0) {
                table.truncate(0);
                notifyDeactivated(table);
            }
        }
        discardStaged();
        transaction.undoomAll();
    }

    /** What the wave that was not run would have published, for the cascade error. */
    private String describeCascade() {
        return transaction.describeOpen() + ", " + sparseWrites.size() + " sparse edge writes";
    }

    /** Drops everything still staged (used when a commit fails or gives up, and by clearing). */
    public void discardStaged() {
        sparseWrites.clear();
        requiredEdges.clear();
        if (transaction.isEmpty()) {
            return;
        }
        transaction.seal();
        releaseUnpublished(transaction.sealedStart(), transaction.sealedEnd());
        releaseCompactSpawns();
        releaseQuietDespawns(0);
        releaseOps(0, transaction.sealedOps());
        transaction.recycle();
    }
}
