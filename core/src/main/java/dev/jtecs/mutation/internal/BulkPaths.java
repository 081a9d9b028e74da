package dev.jtecs.mutation.internal;

import dev.jtecs.component.Component;
import dev.jtecs.component.ComponentValue;
import dev.jtecs.component.Input;
import dev.jtecs.component.PairComponent;
import dev.jtecs.component.BaseRelationship;
import dev.jtecs.component.RelationshipValue;
import dev.jtecs.component.StorageKind;
import dev.jtecs.component.internal.RecordCopier;
import dev.jtecs.entity.Entity;
import dev.jtecs.entity.internal.EntityIndex;
import dev.jtecs.entity.internal.Failures;
import dev.jtecs.storage.internal.ArchetypeRegistry;
import dev.jtecs.storage.internal.SignatureBuilder;
import dev.jtecs.storage.internal.Table;

/**
 * The drain's bulk paths: placing spawn batches and running query batches (set, remove, despawn).
 *
 * <p>A spawn batch with no cancelled member appends all its rows at once, writes each planned column with one
 * fill or doubling bulk copy, calls its initializer once for the whole row range and publishes the ids in one
 * pass. A query batch runs per captured archetype: when the archetype's structural count still equals the one
 * captured at the call, its rows are exactly the captured members and the whole-archetype path applies (a
 * buffer exchange into an empty destination, one bulk copy per column into a populated one, a single
 * truncation for despawn); otherwise each captured member still alive is handled alone.
 */
final class BulkPaths {
    private final EntityIndex index;
    private final ArchetypeRegistry registry;
    private final Transaction transaction;
    private final RequirementPlan requirements;
    private final SignatureBuilder signature = new SignatureBuilder();
    private final Component<?>[] single = new Component<?>[1];
    private final KeyIndex keys;
    private final CommitDrain drain;

    BulkPaths(CommitDrain drain, EntityIndex index, ArchetypeRegistry registry, Transaction transaction,
            RequirementPlan requirements, KeyIndex keys) {
        this.drain = drain;
        this.index = index;
        this.registry = registry;
        this.transaction = transaction;
        this.requirements = requirements;
        this.keys = keys;
    }

    // ---------------------------------------------------------------- spawn batches

    /** Places a spawn batch: rows, planned values, initializer, key claims, ids, then membership. */
    void place(BatchOp op, boolean anyCancelled) {
        Table table = op.table;
        long[] survivors = null;
        int n = op.count;
        if (anyCancelled) {
            survivors = survivors(op);
            n = survivors.length;
        }
        if (n == 0) {
            op.done = true;
            return;
        }
        index.roomForReserved(); // the index's room for the slots it reserved lazily, before anything changes
        drain.reserveSparseRows(op.sparse, 0, n); // before the rows exist: see CommitDrain.sparseRows
        int from = table.appendRows(n);
        int to = from + n;
        boolean published = false;
        try {
            if (survivors != null) {
                table.writeEntities(from, survivors, 0, n);
            } else if (op.idSegment != null) {
                table.writeEntities(from, op.idSegment, n);
            } else if (op.ids != null) {
                table.writeEntities(from, op.ids, op.idsFrom, n);
            } else {
                table.writeConsecutiveEntities(from, n, op.firstId);
            }
            for (int k = 0; k < op.positions.length; k++) {
                if (op.staged == null || table.nativeColumnCount(op.positions[k]) == 0) {
                    write(table, op.positions[k], from, to, op.inputs[k], op.modes[k]);
                }
            }
            if (op.staged != null) { // a spawn queue's batch: native columns come from the staged rows
                if (survivors == null) {
                    op.staged.copyInto(from, op.stagedFrom, n);
                } else {
                    for (int i = 0; i < n; i++) {
                        op.staged.copyInto(from + i, op.stagedFrom + survivorMembers[i], 1);
                    }
                }
            }
            if (op.callback != null) {
                if (op.keyed) {
                    table.setKeyWritable(true);
                }
                try {
                    op.callback.rows(table.archetype(), from, to);
                } finally {
                    table.setKeyWritable(false);
                }
            }
            if (op.keyed) {
                keys.claimRows(table, from, to);
            }
            if (survivors == null && op.restoredSlots != null) {
                index.publishSlots(op.restoredSlots, op.restoredRows, op.restoredFrom, op.restoredFrom + n,
                        table.store(), from); // in slot order
            } else if (survivors == null && op.idSegment != null) {
                publishRows(table, from, n);
            } else if (survivors == null && op.ids == null) {
                index.publishRange(Entity.slot(op.firstId), n, table.store(), from);
            } else {
                for (int i = 0; i < n; i++) {
                    long id = survivors != null ? survivors[i] : op.idAt(i);
                    index.publish(Entity.slot(id), table.store(), from + i);
                }
            }
            published = true;
        } finally {
            if (!published) {
                table.truncate(from);
            }
        }
        op.done = true;
        if (op.sparse != null) {
            drain.sparseRows(op.sparse, table, from, to);
        }
        drain.placed(table, from, to, null);
    }

    private final long[] chunk = new long[4096];

    /** Publishes the ids just written into rows {@code [from, from + n)}, read back in chunks (no per-row get). */
    private void publishRows(Table table, int from, int n) {
        for (int done = 0; done < n; done += chunk.length) {
            int len = Math.min(chunk.length, n - done);
            table.readEntities(from + done, len, chunk, 0);
            for (int i = 0; i < len; i++) {
                index.publish(Entity.slot(chunk[i]), table.store(), from + done + i);
            }
        }
    }

    /** The ids of a batch still reserved (not cancelled by a despawn), in batch order. */
    private long[] survivors(BatchOp op) {
        long[] kept = new long[op.count];
        if (survivorMembers.length < op.count) {
            survivorMembers = new int[op.count];
        }
        int n = 0;
        for (int i = 0; i < op.count; i++) {
            long id = op.idAt(i);
            if (index.stateOf(id) == EntityIndex.RESERVED && index.batchArchetype(Entity.slot(id)) == op.table.id()) {
                survivorMembers[n] = i; // which member it is: a queue's staged row
                kept[n++] = id; // still reserved for this batch (not cancelled, not revived by a spawnAt)
            }
        }
        return n == kept.length ? kept : java.util.Arrays.copyOf(kept, n);
    }

    private int[] survivorMembers = new int[0];

    /** Writes one planned column into rows {@code [from, to)}. */
    static void write(Table table, int position, int from, int to, Input input, byte mode) {
        Component<?> component = table.componentAt(position);
        switch (mode) {
            case BatchOp.ZERO -> table.values().zeroRows(position, from, to);
            case BatchOp.NONE -> { }
            case BatchOp.VALUE -> {
                if (!(input instanceof ComponentValue<?> constant)) {
                    write(table, position, from, to, input, BatchOp.DEFAULT); // a definition: its default
                } else if (component.storage() == StorageKind.MANAGED) {
                    Object value = constant.value();
                    for (int row = from; row < to; row++) {
                        table.values().writeHeap(position, row, RecordCopier.copyOrShare(value));
                    }
                } else {
                    table.values().fillInput(position, from, to, input);
                }
            }
            case BatchOp.DEFAULT -> {
                if (component.storage() == StorageKind.MANAGED) {
                    for (int row = from; row < to; row++) {
                        table.values().writeHeap(position, row, component.newDefault());
                    }
                } else {
                    table.values().fillInput(position, from, to, input);
                }
            }
            default -> table.values().fillInput(position, from, to, input); // SHARED: one instance for every row
        }
    }

    /** Frees the slots of a spawn batch that were never placed (a failed or discarded commit). */
    void releaseSpawn(BatchOp op) {
        op.done = true;
        for (int i = 0; i < op.count; i++) {
            long id = op.idAt(i);
            if (index.stateOf(id) == EntityIndex.RESERVED) {
                index.free(Entity.slot(id));
                drain.reportReleased(id);
            }
        }
    }

    /** Forgets the claims and selection marks of a query batch that never ran. */
    void releaseQuery(BatchOp op) {
        op.withdrawCaptures();
        if (op.kind != BatchOp.Kind.DESPAWN) {
            return;
        }
        for (long[] members : op.members) {
            if (members == null) {
                continue;
            }
            for (long id : members) {
                if (index.isAlive(id)) {
                    transaction.undoom(Entity.slot(id));
                }
            }
        }
    }

    // ---------------------------------------------------------------- query batches

    /**
     * Runs a query batch over the members it captured at the call. A table whose capture was never copied has
     * not changed since the call: its rows are the members, and the whole-archetype path applies.
     */
    void run(BatchOp op) {
        Object[] made = op.kind == BatchOp.Kind.SET ? recordCopies(op) : null; // may throw: nothing changed yet
        Object[] outer = copies; // (a batch run from inside another's callbacks keeps its own copies)
        int outerNext = nextCopy;
        copies = made;
        nextCopy = 0;
        try {
            runTables(op);
        } finally {
            copies = outer;
            nextCopy = outerNext;
        }
    }

    /** The record copies a batch set writes, one per row, made before any row moves; see {@link #recordCopies}. */
    private Object[] copies;
    private int nextCopy;

    /**
     * The shallow copies a batch set of a managed record writes, one per member still alive, or null when the
     * value is no record (it is shared, no code runs). Each copy runs the record's canonical constructor, which is
     * user code and may throw: all of them are made here, before any row is moved or written, so such a throw
     * leaves every captured entity as it was.
     */
    private Object[] recordCopies(BatchOp op) {
        if (!(op.value instanceof ComponentValue<?> constant) || op.component.storage() != StorageKind.MANAGED
                || constant.value() == null || !constant.value().getClass().isRecord()) {
            return null;
        }
        long total = 0;
        for (int t = 0; t < op.tables.length; t++) {
            long[] members = op.members[t];
            if (members == null) {
                total += op.counts[t];
            } else {
                for (long id : members) {
                    if (index.isAlive(id)) {
                        total++;
                    }
                }
            }
        }
        Object[] made = new Object[Math.toIntExact(total)];
        Object value = constant.value();
        for (int i = 0; i < made.length; i++) {
            made[i] = RecordCopier.copyOrShare(value);
        }
        return made;
    }

    private void runTables(BatchOp op) {
        for (int t = 0; t < op.tables.length; t++) {
            Table table = op.tables[t];
            table.removeCapture(op); // from here on this op's own changes need no copy
            long[] members = op.members[t];
            boolean whole = members == null
                    || table.dirty().structuralCount() == op.structuralCounts[t] && table.count() == members.length;
            int count = members == null ? op.counts[t] : members.length;
            if (count == 0) {
                continue;
            }
            switch (op.kind) {
                case DESPAWN -> {
                    if (whole) {
                        despawnWhole(table, members);
                    } else {
                        for (long id : members) {
                            despawnOne(id);
                        }
                    }
                }
                case REMOVE, SET -> {
                    if (whole) {
                        changeWhole(op, table, members);
                    } else {
                        for (long id : members) {
                            changeOne(op, id);
                        }
                    }
                }
                default -> throw new IllegalStateException("not a query batch: " + op.kind);
            }
        }
    }

    /** Despawns every row of a table: one pass freeing the ids (read in bulk), one truncation. */
    private void despawnWhole(Table table, long[] members) {
        int n = table.count();
        if (members == null && drain.reportsWholeDespawns()) {
            members = new long[n]; // the listener needs each id: copy them while the rows exist
            table.readEntities(0, n, members, 0);
        }
        long[] chunk = members == null ? scratch(n) : null;
        index.reserveFree(n); // what freeing the ids allocates comes before any observer hears of the despawn
        if (members != null) {
            drain.prepareDespawns(n, index.highWater()); // the despawns it reports below
        }
        table.settleCaptures(); // other batches copy (and may mark) these rows now: the copies allocate
        CommitDrain.notifyRemoved(table, 0, n, null);
        table.settleCaptures(); // and those the observers staged just now, before the marks go
        if (members != null) {
            for (long id : members) {
                transaction.undoom(Entity.slot(id));
            }
            index.freeAll(members, n);
        } else {
            for (int end = n; end > 0; end -= chunk.length) { // last rows first: see EntityIndex.freeAll
                int len = Math.min(chunk.length, end);
                table.readEntities(end - len, len, chunk, 0);
                for (int i = 0; i < len; i++) {
                    transaction.undoom(Entity.slot(chunk[i]));
                }
                index.freeAll(chunk, len);
            }
        }
        table.truncate(0);
        try {
            CommitDrain.notifyDeactivated(table);
        } catch (RuntimeException | Error e) {
            // the entities are gone either way: their despawns are reported (cascades, edges to them settled)
            // even when an observer throws, as for a single row (CommitDrain.reportRemovedRow)
            try {
                reportWholeDespawns(members);
            } catch (RuntimeException | Error next) {
                e.addSuppressed(next);
            }
            throw e;
        }
        reportWholeDespawns(members);
    }

    private void reportWholeDespawns(long[] members) {
        if (drain.reportsWholeDespawns()) {
            drain.reportDespawnedRun(members, 0, members.length);
        }
    }


    private long[] scratch = new long[0];

    private long[] scratch(int n) {
        if (scratch.length < Math.min(n, 4096)) {
            scratch = new long[Math.min(n, 4096)];
        }
        return scratch;
    }

    private void despawnOne(long id) {
        if (!index.isAlive(id)) {
            return;
        }
        int slot = Entity.slot(id);
        transaction.undoom(slot);
        Table table = registry.ofStore(index.storeOf(slot));
        int row = index.rowOf(slot);
        index.reserveFree(1); // what the removal allocates, before observers hear of it
        table.prepareRowRemoval();
        drain.prepareDespawns(1, slot);
        CommitDrain.notifyRemoved(table, row, row + 1, null);
        int last = table.count() - 1;
        long moved = CommitDrain.detachRow(index, table, row);
        // the index forgets the id before observers hear of the row move: one that throws cannot leave a zombie
        index.free(slot);
        transaction.undoom(slot); // removing the row may have let another capture mark it again
        drain.reportRemovedRow(table, moved, last, row, id);
    }

    /** The table a batch set or remove takes rows of {@code from} to (requirements planned). */
    private Table targetOf(BatchOp op, Table from) {
        requirements.reset();
        if (op.sparse != null && op.sparse.op() == SparseWriteQueue.REMOVE) {
            return from; // one sparse edge: the marker stays unless it was the last (settled afterwards)
        }
        if (op.kind == BatchOp.Kind.REMOVE) {
            if (op.component instanceof BaseRelationship<?> relationship) { // every edge, and the marker
                if (!from.has(relationship.id())) {
                    return from;
                }
                signature.loadFrom(from);
                signature.removeEdgesOf(relationship, null);
                signature.remove(relationship);
                return signature.resolve(registry);
            }
            if (op.component instanceof PairComponent pair) { // one edge; the marker goes with the last
                if (!from.has(pair.id())) {
                    return from;
                }
                signature.loadFrom(from);
                signature.remove(pair);
                signature.normalizeRelationships();
                return signature.resolve(registry);
            }
            return registry.withRemoved(from, op.component);
        }
        if (from.has(op.component.id())) {
            return from; // (an exclusive relationship's edge present: it is the only one)
        }
        signature.loadFrom(from);
        if (op.component instanceof PairComponent pair) {
            if (pair.relationship().isExclusive()) {
                signature.removeEdgesOf(pair.relationship(), pair);
            }
            pairWithMarker[0] = pair;
            pairWithMarker[1] = pair.relationship();
            requirements.planAdditions(pairWithMarker, 2, signature);
            pairWithMarker[0] = null;
            pairWithMarker[1] = null;
            signature.normalizeRelationships();
            return signature.resolve(registry);
        }
        single[0] = op.component;
        requirements.planAdditions(single, 1, signature);
        single[0] = null;
        return signature.resolve(registry);
    }

    private final Component<?>[] pairWithMarker = new Component<?>[2];

    private void changeWhole(BatchOp op, Table table, long[] members) {
        Table target = targetOf(op, table);
        int n = table.count();
        if (target == table) {
            if (op.kind == BatchOp.Kind.SET) {
                writeSet(op, table, 0, n);
            }
            if (op.sparse != null) {
                drain.sparseRows(op.sparse, table, 0, n);
            }
            return;
        }
        // what the move allocates comes first: a failed allocation throws before any observer hears of a move
        int[] added = table.missingPositionsFor(target);
        drain.reserveSparseRows(op.sparse, requiredSparseEdges(added, target), n);
        Table.Exchange prepared = null;
        if (target.count() == 0) {
            prepared = table.prepareExchange(target);
        } else {
            target.ensureCapacity(target.count() + n);
        }
        try {
            table.settleCaptures(); // other batches copy both tables' rows now: the copies allocate
            target.settleCaptures();
            CommitDrain.notifyRemoved(table, 0, n, target);
        } catch (RuntimeException | Error e) {
            if (prepared != null) {
                prepared.free();
            }
            throw e;
        }
        int from;
        int[] missing;
        if (prepared != null) {
            missing = registry.exchange(table, target, prepared);
            from = 0;
        } else {
            missing = added;
            from = table.moveAllTo(target);
            long[] chunk = scratch(n);
            for (int done = 0; done < n; done += chunk.length) {
                int len = Math.min(chunk.length, n - done);
                target.readEntities(from + done, len, chunk, 0);
                index.relocateRange(chunk, len, target.store(), from + done);
            }
        }
        int to = from + n;
        boolean written = false;
        Throwable failure = null;
        try {
            writeMissing(op, target, missing, from, to);
            if (op.kind == BatchOp.Kind.SET) {
                writeSet(op, target, from, to);
            }
            if (op.sparse != null) {
                drain.sparseRows(op.sparse, target, from, to);
            }
            written = true;
        } catch (RuntimeException | Error e) {
            failure = e;
        }
        // the rows are published where they are now, even when a writer threw: observers must learn it, the
        // destination's too when an observer of the emptied source throws (as for one row: completeRowMove)
        try {
            CommitDrain.notifyDeactivated(table);
        } catch (RuntimeException | Error e) {
            failure = Failures.fold(failure, e);
        }
        try {
            if (written) {
                drain.placed(target, from, to, table);
            } else { // unwinding: no dead-target check, what it staged would be discarded
                CommitDrain.notifyAdded(target, from, to, table);
            }
        } catch (RuntimeException | Error e) {
            failure = Failures.fold(failure, e);
        }
        Failures.throwIfAny(failure);
    }

    private void changeOne(BatchOp op, long id) {
        if (!index.isAlive(id)) {
            return;
        }
        int slot = Entity.slot(id);
        Table current = registry.ofStore(index.storeOf(slot));
        int row = index.rowOf(slot);
        Table target = targetOf(op, current);
        if (target == current) {
            if (op.kind == BatchOp.Kind.SET) {
                writeSet(op, current, row, row + 1);
            }
            if (op.sparse != null) {
                drain.sparseRows(op.sparse, current, row, row + 1);
            }
            return;
        }
        int[] missing = current.missingPositionsFor(target);
        drain.reserveSparseRows(op.sparse, requiredSparseEdges(missing, target), 1);
        target.ensureCapacity(target.count() + 1); // what the move allocates, before observers hear of it
        current.prepareMoveTo(target);
        CommitDrain.notifyRemoved(current, row, row + 1, target);
        int destination = current.moveRowTo(row, target);
        try {
            writeMissing(op, target, missing, destination, destination + 1);
            if (op.kind == BatchOp.Kind.SET) {
                writeSet(op, target, destination, destination + 1);
            }
        } catch (RuntimeException | Error e) {
            target.swapRemove(destination);
            CommitDrain.notifyAdded(current, row, row + 1, target); // it never left: undo the removal report
            throw e;
        }
        drain.completeRowMove(slot, current, row, target, destination, op.sparse);
    }

    /** How many of the columns a move adds are sparse markers a requirement brings with an edge to write. */
    private int requiredSparseEdges(int[] missing, Table target) {
        int edges = 0;
        for (int position : missing) {
            if (requirements.inputFor(target.componentAt(position)) instanceof RelationshipValue edge
                    && edge.relationship().isSparse()) {
                edges++;
            }
        }
        return edges;
    }

    /** Initializes the columns a move added: the set component (left to its value), requirements, defaults. */
    private void writeMissing(BatchOp op, Table target, int[] missing, int from, int to) {
        for (int position : missing) {
            Component<?> component = target.componentAt(position);
            if (component == op.component) {
                if (op.value == null) { // writer mode: no constructor runs; the writer initializes
                    write(target, position, from, to, component, initialMode(component));
                }
                continue;
            }
            Input required = requirements.inputFor(component);
            if (required == null) {
                write(target, position, from, to, component, BatchOp.DEFAULT);
            } else if (required instanceof RelationshipValue edge && edge.relationship().isSparse()) {
                drain.sparseRows(BatchOp.SparseEdit.of(SparseWriteQueue.ADD, edge.relationship(), edge.target(),
                        edge.payload()), target, from, to);
            } else {
                write(target, position, from, to, required,
                        required instanceof ComponentValue<?> ? BatchOp.SHARED : BatchOp.DEFAULT);
                target.markDirty(position);
            }
        }
    }

    /** How a component named by its definition starts in a batch: zero bits, its scalar default, or empty. */
    static byte initialMode(Component<?> component) {
        return switch (component.storage()) {
            case NATIVE -> BatchOp.ZERO;
            case SCALAR -> BatchOp.DEFAULT;
            case MANAGED, TAG -> BatchOp.NONE;
        };
    }

    /**
     * Writes a batch set's value (or calls its writer) on rows {@code [from, to)} and marks the column. A managed
     * record's copies were made before the batch touched anything ({@link #recordCopies}): they are taken in turn.
     */
    private void writeSet(BatchOp op, Table table, int from, int to) {
        int position = table.position(op.component.id());
        if (copies != null) {
            for (int row = from; row < to; row++) {
                Object copy = nextCopy < copies.length ? copies[nextCopy++] // always: the count is exact
                        : RecordCopier.copyOrShare(((ComponentValue<?>) op.value).value());
                table.values().writeHeap(position, row, copy);
            }
        } else if (op.value != null) {
            write(table, position, from, to, op.value, BatchOp.VALUE);
        } else {
            op.callback.rows(table.archetype(), from, to);
        }
        table.markDirty(position);
    }
}
