package dev.jtecs.mutation.internal;

import dev.jtecs.component.BaseRelationship;
import dev.jtecs.component.Component;
import dev.jtecs.component.Input;
import dev.jtecs.component.NativeComponent;
import dev.jtecs.component.PairComponent;
import dev.jtecs.component.StorageKind;
import dev.jtecs.component.TagComponent;
import dev.jtecs.component.RelationshipValue;
import dev.jtecs.component.Components;
import dev.jtecs.entity.Entity;
import dev.jtecs.entity.internal.EntityIndex;
import dev.jtecs.entity.internal.Growth;
import dev.jtecs.storage.internal.ArchetypeRegistry;
import dev.jtecs.storage.internal.Table;
import java.util.Arrays;

/**
 * Publishes the staged changes of committed entities: each record's destination is resolved once when its wave
 * is reserved ({@link #plan}), then its row moves there with its final values ({@link #move}), or stays and is
 * written in place when the net signature did not change.
 *
 * <pre>
 *   plan(record): Destinations.resolve ──► destination (kept per record of the wave)
 *   move(record): removed ─► moveRowTo(destination) ─► defaults, requirements, staged values ─► relocate
 *                 ─► swap-remove the source row ─► placed (hooks, observers)
 * </pre>
 *
 * <p>A write that throws after the row was copied undoes the copy and tells the source's observers the row came
 * back, so the entity stays where it was.
 */
final class MovePlacement {
    private final CommitDrain drain;
    private final EntityIndex index;
    private final ArchetypeRegistry registry;
    private final Transaction transaction;
    private final RequirementPlan requirements;
    private final Destinations destinations;
    private final RequiredEdges requiredEdges;
    private Table[] moveTargets = new Table[64];
    private Table[] moveSources = new Table[64];
    private boolean[] replan = new boolean[64];
    private int waveStart;
    private Component<?>[] runComponents = new Component<?>[8]; // the first record's entries, for a run
    private int[] runPositions = new int[8];

    MovePlacement(CommitDrain drain, EntityIndex index, ArchetypeRegistry registry, Transaction transaction,
            RequirementPlan requirements, Destinations destinations, RequiredEdges requiredEdges) {
        this.drain = drain;
        this.index = index;
        this.registry = registry;
        this.transaction = transaction;
        this.requirements = requirements;
        this.destinations = destinations;
        this.requiredEdges = requiredEdges;
    }

    /** A segment of records {@code [from, to)} is being reserved: room for one destination per record. */
    void startSegment(int from, int to) {
        waveStart = from;
        if (moveTargets.length < to - from) {
            moveTargets = new Table[Math.max(to - from, moveTargets.length * 2)];
            moveSources = new Table[moveTargets.length];
            replan = new boolean[moveTargets.length];
        }
    }

    /** Resolves and keeps the destination of a record whose entity is in {@code current} now; returns it. */
    Table plan(int record, Table current) {
        Table table = destinations.resolve(record, current);
        moveTargets[record - waveStart] = table;
        moveSources[record - waveStart] = current;
        replan[record - waveStart] = requirements.size() > 0;
        return table;
    }

    /**
     * Publishes the moves of records {@code [from, to)}, in record order. A run of consecutive records that takes
     * every row of one table to one other table, where nobody observes either table and no write can fail, moves
     * as a whole (a buffer exchange into an empty destination, one bulk copy per column into a populated one);
     * every other record moves alone. The end state is the same either way.
     */
    void moveAll(int from, int to) {
        int record = from;
        while (record < to) {
            if (transaction.state(record) != TxState.STAGED_MUTATE) {
                record++;
                continue;
            }
            int end = wholeRunEnd(record, to);
            if (end > record) {
                moveWhole(record, end);
                record = end;
            } else {
                move(record++);
            }
        }
    }

    /**
     * The end of the run of records starting at {@code first} that moves every row of its source to one
     * destination, or {@code first} when there is none: the records are consecutive, planned without
     * requirements, their entities alive in the source, their entries the same components (tags, scalars, native
     * values, none a relationship), and the two tables unobserved; no write of the run can throw.
     */
    private int wholeRunEnd(int first, int to) {
        int at = first - waveStart;
        Table source = moveSources[at];
        Table target = moveTargets[at];
        // fewer records left than the table has rows can never be the whole table: decided before the costlier checks
        if (target == null || target == source || replan[at] || source.count() == 0 || to - first < source.count()
                || source.observers().length > 0
                || target.observers().length > 0 || !cannotFail(first, target, source)) {
            return first;
        }
        int entries = loadRunEntries(first, target);
        if (entries < 0) {
            return first;
        }
        int end = first;
        int rows = source.count();
        while (end < to && end - first < rows) {
            int k = end - waveStart;
            if (transaction.state(end) != TxState.STAGED_MUTATE || moveSources[k] != source
                    || moveTargets[k] != target || replan[k] || !sameEntries(end, entries)) {
                break;
            }
            int slot = transaction.slot(end);
            if (!index.isAlive(transaction.id(end)) || index.storeOf(slot) != source.store()) {
                break;
            }
            end++;
        }
        return end - first == rows ? end : first; // only when the run is the whole table
    }

    /** Whether defaults the move writes (components the source lacks) cannot call a throwing factory. */
    private static boolean cannotFail(int record, Table target, Table source) {
        for (int position : source.missingPositionsFor(target)) {
            if (!defaultCannotFail(target.componentAt(position))) {
                return false;
            }
        }
        return true;
    }

    private static boolean defaultCannotFail(Component<?> component) {
        return switch (component.storage()) {
            case TAG, SCALAR -> true;
            case NATIVE -> component instanceof dev.jtecs.component.NativeComponent<?> nc && !nc.hasDefaultFactory();
            case MANAGED -> false;
        };
    }

    /**
     * Caches the first record's entries (components and their positions in {@code target}) for the run; returns
     * their number, or -1 when one is a relationship or a definition whose default may throw.
     */
    private int loadRunEntries(int record, Table target) {
        int n = 0;
        for (int e = transaction.firstEntry(record); e >= 0; e = transaction.nextEntry(e)) {
            Component<?> component = transaction.entryComponent(e);
            Input input = transaction.entryInput(e);
            if (component instanceof PairComponent || component instanceof BaseRelationship<?>
                    || input == component && !defaultCannotFail(component)) {
                return -1;
            }
            if (n == runComponents.length) {
                var grownComponents = Growth.copyOf(runComponents, n * 2); // both first: they stay in step
                var grownPositions = Growth.copyOf(runPositions, n * 2);
                runComponents = grownComponents;
                runPositions = grownPositions;
            }
            runComponents[n] = component;
            runPositions[n++] = input == null ? -1 : target.position(component.id());
        }
        return n;
    }

    /**
     * Whether a record stages the run's entries: the same components, in the same order, added or removed alike
     * (whether a definition's default may throw depends on the component only, so the first record decided it).
     */
    private boolean sameEntries(int record, int entries) {
        int i = 0;
        for (int e = transaction.firstEntry(record); e >= 0; e = transaction.nextEntry(e)) {
            Input input = transaction.entryInput(e);
            if (i == entries || transaction.entryComponent(e) != runComponents[i]
                    || (input == null) != (runPositions[i] < 0)) { // (the first record's check covers defaults)
                return false;
            }
            i++;
        }
        return i == entries;
    }

    /** Moves every row of the run's source into its target at once, then writes each record's staged values. */
    private void moveWhole(int first, int end) {
        Table source = moveSources[first - waveStart];
        Table target = moveTargets[first - waveStart];
        int n = end - first;
        int[] missing;
        int base;
        if (target.count() == 0) {
            missing = registry.exchange(source, target); // the stores swap: no entity needs relocating
            base = 0;
        } else {
            missing = source.missingPositionsFor(target);
            base = source.moveAllTo(target);
            relocateRange(target, base, n);
        }
        for (int position : missing) {
            BulkPaths.write(target, position, base, base + n, target.componentAt(position), BatchOp.DEFAULT);
        }
        int entries = loadRunEntries(first, target);
        for (int record = first; record < end; record++) {
            int row = index.rowOf(transaction.slot(record));
            int i = 0;
            for (int e = transaction.firstEntry(record); e >= 0; e = transaction.nextEntry(e), i++) {
                Input input = transaction.entryInput(e);
                int position = runPositions[i];
                if (input != null && position >= 0 && runComponents[i].storage() != StorageKind.TAG) {
                    target.writeInput(position, row, input);
                }
            }
            moveTargets[record - waveStart] = null;
            moveSources[record - waveStart] = null;
            transaction.setState(record, TxState.COMMITTED);
        }
        for (int i = 0; i < entries; i++) {
            if (runPositions[i] >= 0) {
                target.markDirty(runPositions[i]); // once for the run, as each record would have
            }
            runComponents[i] = null;
        }
        drain.placed(target, base, base + n, source);
    }

    /** Points the index at rows {@code [base, base + n)} of {@code table}, read in bulk. */
    private void relocateRange(Table table, int base, int n) {
        long[] chunk = scratch(n);
        for (int done = 0; done < n; done += chunk.length) {
            int len = Math.min(chunk.length, n - done);
            table.readEntities(base + done, len, chunk, 0);
            index.relocateRange(chunk, len, table.store(), base + done);
        }
    }

    private long[] scratch = new long[0];

    private long[] scratch(int n) {
        if (scratch.length < Math.min(n, 4096)) {
            scratch = new long[Math.min(n, 4096)];
        }
        return scratch;
    }

    void move(int record) {
        int slot = transaction.slot(record);
        if (!index.isAlive(transaction.id(record))) {
            moveTargets[record - waveStart] = null;
            moveSources[record - waveStart] = null;
            transaction.setState(record, TxState.COMMITTED); // its entity died in an earlier segment
            return;
        }
        Table current = registry.ofStore(index.storeOf(slot));
        int row = index.rowOf(slot);
        Table target = moveTargets[record - waveStart];
        moveTargets[record - waveStart] = null;
        moveSources[record - waveStart] = null;
        if (replan[record - waveStart]) {
            destinations.resolve(record, current); // plans the requirement inputs written below
        } else {
            requirements.reset();
        }
        if (target == current) {
            writeInPlace(record, current, row);
            transaction.setState(record, TxState.COMMITTED);
            return;
        }
        current.prepareMoveTo(target); // the destination's room was reserved with the wave; this is the rest
        Notifications.removed(current, row, row + 1, target);
        int destinationRow = current.moveRowTo(row, target);
        try {
            writeMovedRow(record, target, destinationRow, current.missingPositionsFor(target));
        } catch (RuntimeException | Error e) {
            target.swapRemove(destinationRow);
            Notifications.added(current, row, row + 1, target); // it never left: undo the removal report
            throw e;
        }
        transaction.setState(record, TxState.COMMITTED);
        drain.completeRowMove(slot, current, row, target, destinationRow, null);
    }

    /** Writes the planned requirement values (a later staged value of the same component overwrites it). */
    private void writeRequirements(Table target, int row) {
        for (int i = 0; i < requirements.size(); i++) {
            int position = target.position(requirements.componentAt(i).id());
            Input input = requirements.inputAt(i);
            target.writeInput(position, row, input);
            target.markDirty(position);
            if (input instanceof RelationshipValue edge && edge.relationship().isSparse()) {
                requiredEdges.plan(target.entityAt(row), edge.relationship()); // lands with its REQUIRE
            }
        }
    }

    /** Net signature unchanged: write the staged values where the row already is. */
    private void writeInPlace(int record, Table table, int row) {
        writeRequirements(table, row);
        writeEntries(record, table, row);
    }

    /** Writes a record's staged values into its row (entries the final signature dropped are skipped). */
    private void writeEntries(int record, Table table, int row) {
        for (int e = transaction.firstEntry(record); e >= 0; e = transaction.nextEntry(e)) {
            Input input = transaction.entryInput(e);
            if (input != null) {
                int position = table.position(transaction.entryComponent(e).id());
                if (position >= 0) {
                    table.writeInput(position, row, input);
                    table.markDirty(position);
                }
            }
        }
    }

    /**
     * Writes a moved row: defaults where a new component has no staged value, the values of components that
     * requirements (re-)added, then the staged values.
     */
    private void writeMovedRow(int record, Table target, int row, int[] missing) {
        for (int position : missing) {
            Component<?> component = target.componentAt(position);
            int entry = transaction.findEntry(record, component);
            if ((entry < 0 || transaction.entryInput(entry) == null) && requirements.inputFor(component) == null) {
                target.writeInput(position, row, component);
            }
        }
        writeRequirements(target, row);
        writeEntries(record, target, row);
    }

    // ---------------------------------------------------------------- tag moves

    // the plan of each sealed tag move, by table id (tables keep their ids when a whole-table exchange swaps their
    // stores); -1: nothing to move. Plain ints: a reference store per entity would pay a GC barrier each
    private int[] tagSources = new int[64];
    private int[] tagTargets = new int[64];
    private int tagMoves; // planned for this wave
    private int tagNext; // the first planned one not published yet
    // the last planned change (the entity's store and the packed tag) and its tables: a run of entities in one
    // table taking one tag resolves its edge once
    private int lastStore = -1;
    private int lastTag;
    private Table lastSource;
    private Table lastTarget;
    // the source of the wave's tag moves when planRun planned them as one run, and its structural count when the
    // run's first move was staged: while the count is the same, every entity of the run is still in it
    private Table runSource;
    private long runStamp;
    // the moves before this one belong to a run a whole-table scan already refused: it is not scanned again
    private int scannedUntil;

    /**
     * A wave with {@code n} sealed tag moves is being reserved (0 for a segment with none to move): forgets the
     * plan a failed wave may have left and makes room for this one (allocated before anything changes).
     */
    void startTags(int n) {
        tagMoves = 0;
        tagNext = 0;
        lastStore = -1;
        lastSource = null;
        lastTarget = null;
        runSource = null;
        scannedUntil = 0;
        if (tagSources.length < n) {
            int capacity = Math.max(n, tagSources.length * 2);
            var grownSources = Growth.copyOf(tagSources, capacity);
            var grownTargets = Growth.copyOf(tagTargets, capacity);
            tagSources = grownSources;
            tagTargets = grownTargets;
        }
        tagMoves = n;
    }

    /**
     * Plans all {@code n} sealed tag moves at once when they are one run ({@link Transaction#sealedRunTable}) whose
     * table nothing has entered or left since the run's first move was staged: each move's entity was in that table
     * when it was staged, so it still is, alive, and every move has the same source and destination. Returns
     * whether it planned them; {@link #runTarget()} is then the destination, or {@code null} when the change leaves
     * the entities where they are. Returns {@code false}, having planned nothing, for any other wave: the caller
     * plans move by move ({@link #planTag}).
     */
    boolean planRun(int n) {
        Table source = transaction.sealedRunTable();
        if (source == null || source.dirty().structuralCount() != transaction.sealedRunStamp()) {
            return false;
        }
        assert !source.isReleased() && index.aliveStore(transaction.tagMoveId(0)) == source.store()
                && index.aliveStore(transaction.tagMoveId(n - 1)) == source.store() : "a run left its table";
        Component<?> tag = Components.findById(transaction.tagMoveComponent(0));
        Table target = transaction.tagMoveAdds(0) ? registry.withAdded(source, tag)
                : registry.withRemoved(source, tag);
        if (target == source) {
            Arrays.fill(tagSources, 0, n, -1);
            lastTarget = null;
            return true;
        }
        Arrays.fill(tagSources, 0, n, source.id());
        Arrays.fill(tagTargets, 0, n, target.id());
        runSource = source;
        runStamp = transaction.sealedRunStamp();
        lastTarget = target;
        return true;
    }

    /** The destination {@link #planRun} planned, or {@code null} when its moves change nothing. */
    Table runTarget() {
        return lastTarget;
    }

    /**
     * Plans sealed tag move {@code move}: its source and destination (the graph edge of its tag), or none when its
     * entity died or already has the tag's final state. Returns the destination, for reservation, or {@code null}.
     */
    Table planTag(int move) {
        long id = transaction.tagMoveId(move);
        int store = id == 0 ? -1 : index.aliveStore(id);
        if (store < 0) {
            tagSources[move] = -1;
            return null;
        }
        int packed = transaction.tagMovePacked(move);
        if (store != lastStore || packed != lastTag) {
            Table current = registry.ofStore(store);
            Component<?> tag = Components.findById(transaction.tagMoveComponent(move));
            Table target = transaction.tagMoveAdds(move) ? registry.withAdded(current, tag)
                    : registry.withRemoved(current, tag);
            lastStore = store;
            lastTag = packed;
            lastSource = current;
            lastTarget = target == current ? null : target;
        }
        if (lastTarget == null) {
            tagSources[move] = -1;
            return null;
        }
        tagSources[move] = lastSource.id();
        tagTargets[move] = lastTarget.id();
        return lastTarget;
    }

    /**
     * Publishes the records' moves of {@code [from, to)} and the planned tag moves in staging order: each tag move
     * after the records begun before it was staged ({@link Transaction#tagMoveMark}), before the others.
     */
    void moveAllWithTags(int from, int to) {
        int record = from;
        while (record < to) {
            moveTags(record);
            if (transaction.state(record) != TxState.STAGED_MUTATE) {
                record++;
                continue;
            }
            // a run of records stops at the next tag move staged among them (its mark is past this record)
            int limit = tagNext < tagMoves ? Math.min(to, transaction.tagMoveMark(tagNext)) : to;
            int end = wholeRunEnd(record, limit);
            if (end > record) {
                moveWhole(record, end);
                record = end;
            } else {
                move(record++);
            }
        }
        moveTags(Integer.MAX_VALUE);
        tagMoves = 0;
        tagNext = 0;
        lastSource = null;
        lastTarget = null;
        runSource = null;
        scannedUntil = 0;
    }

    /**
     * Publishes the planned tag moves staged before record {@code mark} was begun, in order: a run that takes every
     * row of an unobserved table to one other unobserved table moves it whole, every other move alone (as a
     * record's move would, with its notifications).
     */
    void moveTags(int mark) {
        while (tagNext < tagMoves && transaction.tagMoveMark(tagNext) <= mark) {
            int move = tagNext;
            int sourceId = tagSources[move];
            if (sourceId < 0) {
                transaction.tagMoveDone(move);
                tagNext++;
                continue;
            }
            int targetId = tagTargets[move];
            Table source = registry.get(sourceId);
            Table target = registry.get(targetId);
            int end = move;
            int rows = source.count();
            // a whole-table move needs a run of at least as many moves as the table has rows (checked first: a
            // run of fewer moves than rows would be scanned again at each of its moves)
            if (source.observers().length == 0 && target.observers().length == 0 && tagMoves - move >= rows
                    && move >= scannedUntil) {
                if (source == runSource && move == 0 && source.dirty().structuralCount() == runStamp) {
                    end = rows == tagMoves ? tagMoves : move; // planRun's run, its table untouched since
                } else {
                    end = sameChangeEnd(move, move + rows, mark, source.store(), false);
                    if (end - move != rows) {
                        // each later move of [move, end) would stop at the same place with one row fewer:
                        // refused too, so not scanned again (a run of k moves would cost k squared)
                        scannedUntil = end;
                        end = move;
                    }
                }
            }
            if (end > move) {
                moveTagsWhole(move, end, source, target);
            } else if ((end = rowRunEnd(move, mark, source, target)) > move + 1) {
                moveTagRows(move, end, source, target);
            } else {
                moveTagOne(move, target);
                end = move + 1;
            }
            tagNext = end;
        }
    }

    /**
     * The end of the run of planned tag moves from {@code move} that {@link #moveTagRows} can publish together:
     * the same source and destination, neither observed nor holding pairs (nobody is told of a row, and no edge
     * settles), staged before record {@code mark}, adding or removing no value, each entity alive in the source.
     * Returns {@code move} when the first move is not such a one.
     */
    private int rowRunEnd(int move, int mark, Table source, Table target) {
        if (source.observers().length != 0 || target.observers().length != 0 || source.hasPairs()
                || target.hasPairs()) {
            return move;
        }
        return sameChangeEnd(move, tagMoves, mark, source.store(), true);
    }

    /**
     * The end of the planned tag moves from {@code move}, before {@code limit}, that make the same change from the
     * same table as {@code move}: planned with its source and destination, staged before record {@code mark}, each
     * entity still alive in the source (of store {@code store}); with {@code withoutValues}, a move that writes a
     * value ends them too.
     */
    private int sameChangeEnd(int move, int limit, int mark, int store, boolean withoutValues) {
        int sourceId = tagSources[move];
        int targetId = tagTargets[move];
        int end = move;
        while (end < limit && tagSources[end] == sourceId && tagTargets[end] == targetId
                && transaction.tagMoveMark(end) <= mark && (!withoutValues || !transaction.tagMoveHasValue(end))
                && isIn(transaction.tagMoveId(end), store)) {
            end++;
        }
        return end;
    }

    /**
     * Publishes tag moves {@code [first, end)} ({@link #rowRunEnd}'s run) one row at a time, as {@link #moveTagOne}
     * would in turn, but with the destination's rows appended at once and each table marked structurally changed
     * once: the rows land in the same places, in the same order. What may allocate (the source's residue room, a
     * pending capture's copy) does before anything changes; the destination's room was reserved with the wave.
     * Nobody is told and no edge settles: neither table has observers or pairs ({@link #rowRunEnd}).
     */
    private void moveTagRows(int first, int end, Table source, Table target) {
        int n = end - first;
        source.prepareRowRemovals(n);
        source.missingPositionsFor(target); // the move plan between the two may be new: made before anything changes
        int base = target.appendRows(n);
        int store = source.store();
        for (int k = 0; k < n; k++) {
            int slot = Entity.slot(transaction.tagMoveId(first + k));
            int row = index.rowOf(slot);
            source.copyRowInto(row, target, base + k);
            index.relocate(slot, target.store(), base + k);
            long moved = source.swapRemoveUnmarked(row);
            if (moved != 0) {
                index.relocate(Entity.slot(moved), store, row);
            }
            markTag(target, first + k);
        }
        source.markStructural();
        transaction.tagMovesDone(first, end);
    }

    /** Whether an entity is alive and in {@code table} (the distinct entities of a run then fill its rows). */
    private boolean isIn(long id, int store) {
        return index.aliveStore(id) == store;
    }

    /**
     * Moves every row of {@code source} (the entities of tag moves {@code [first, end)}, one per row: the same
     * source and target mean the same change) into {@code target} at once.
     */
    private void moveTagsWhole(int first, int end, Table source, Table target) {
        int n = end - first;
        int base;
        int[] missing;
        if (target.count() == 0) {
            missing = registry.exchange(source, target); // the stores swap: no entity needs relocating
            base = 0;
        } else {
            missing = source.missingPositionsFor(target);
            base = source.moveAllTo(target);
            relocateRange(target, base, n);
        }
        if (transaction.tagMoveHasValue(first)) { // a run of one change: all value moves, or none
            writeValues(first, end, target, missing, base, n);
        }
        transaction.tagMovesDone(first, end);
        markTag(target, first);
        drain.placed(target, base, base + n, source);
    }

    /**
     * Publishes sealed tag move 0, the wave's only work, when that needs no callback: its entity is alive, and
     * neither its table nor the destination has observers or relationship pairs (so no observer, query
     * membership or edge settlement hears of it). Does exactly what the general wave does for such a move
     * ({@link #planTag}, the reservation, {@link #moveTagOne}), minus the bookkeeping of runs, tallies and
     * segments. Returns {@code false}, having changed nothing, when the move needs the general wave; a move that
     * changes nothing (the entity died, or already has the final state) is done here.
     *
     * @throws RuntimeException or Error from the destination's growth (before anything changes) or from a
     *     value's accessor (the row is back where it was, as in {@link #moveTagOne})
     */
    boolean moveLone() {
        long id = transaction.tagMoveId(0);
        int store = id == 0 ? -1 : index.aliveStore(id);
        if (store < 0) {
            return false; // lapsed or dead: the general wave's rules apply
        }
        Table current = registry.ofStore(store);
        Component<?> component = Components.findById(transaction.tagMoveComponent(0));
        Table target = transaction.tagMoveAdds(0) ? registry.withAdded(current, component)
                : registry.withRemoved(current, component);
        if (target != current && (current.observers().length != 0 || target.observers().length != 0
                || current.hasPairs() || target.hasPairs())) {
            return false;
        }
        moveTagOne(0, target); // the general wave's move of one entity; with nobody to tell, it tells nobody
        return true;
    }

    /**
     * Moves one entity as {@link #move} moves a record's: what the removal allocates is made first, the row
     * moves, and the destination hears of it even when an observer of the source throws.
     */
    private void moveTagOne(int move, Table target) {
        long id = transaction.tagMoveId(move);
        int slot = Entity.slot(id);
        if (!index.isAlive(id)) {
            transaction.tagMoveDone(move); // (nothing in a wave despawns an entity with a tag move: a safeguard)
            return;
        }
        Table current = registry.ofStore(index.storeOf(slot));
        if (current == target) {
            transaction.tagMoveDone(move);
            return;
        }
        int row = index.rowOf(slot);
        int destination = moveRow(row, current, target, transaction.tagMoveComponent(move),
                transaction.tagMoveAdds(move), null, null, move);
        transaction.tagMoveDone(move);
        drain.completeRowMove(slot, current, row, target, destination, null);
    }

    /**
     * The row move of one entity's change: what the removal allocates is made first, the row is copied to
     * {@code target} with {@code value}, with a plain record's {@code bits} (one long a field), or with tag move
     * {@code move}'s value when {@code move} is not negative (a value move's; a tag or a removal writes nothing
     * else), and an added component's column is marked. Returns the
     * destination row; the caller completes the move ({@code CommitDrain.completeRowMove}). A failure leaves the
     * row where it was, only there.
     */
    private int moveRow(int row, Table current, Table target, int componentId, boolean add, Input value, long[] bits,
            int move) {
        current.prepareMoveTo(target); // the destination's room was reserved with the wave; this is the rest
        Notifications.removed(current, row, row + 1, target);
        int destination = current.moveRowTo(row, target);
        if (value != null || bits != null || move >= 0 && transaction.tagMoveHasValue(move)) {
            try {
                if (bits != null) {
                    target.writeMovedBits(target.position(componentId), destination, bits);
                } else if (value != null) {
                    target.writeInput(target.position(componentId), destination, value);
                } else {
                    transaction.writeTagMoveValue(move, target, target.position(componentId), destination);
                }
            } catch (RuntimeException | Error e) {
                target.swapRemove(destination);
                Notifications.added(current, row, row + 1, target); // it never left: undo the removal report
                throw e;
            }
        }
        if (add) {
            target.markDirty(target.position(componentId));
        }
        return destination;
    }

    /**
     * The instant {@code set} of a tag or of a new component value, or {@code remove} of a component, moved at
     * once: called with no scope open and nothing staged or pending anywhere (the caller checks), for a tag without
     * requirements ({@code value} null), a value of {@code component} that {@code Staging.addsAsPlainMove} allows,
     * or a removal that {@code Staging.removesAsPlainMove} allows. When the entity is published and lacks what it
     * adds (has what it removes), the destination is one its table's edge cache holds (a new archetype's creation
     * runs user code, left to the general path), and neither table has observers or relationship pairs,
     * the row moves here with no staging and no wave, exactly as {@link #moveLone} would move it after a wave of
     * that one change: the same row copy, value, marks and index, and a failure (an allocation, the value's
     * accessor) leaves the entity where it was. A removal of a component the entity lacks does nothing and counts
     * as done. Returns {@code false}, having changed nothing, for everything else (adding what the entity has is a
     * write-through): the caller stages the call.
     */
    boolean moveAtOnce(long id, Component<?> component, boolean add, Input value) {
        boolean plain = !add ? Staging.removesAsPlainMove(component)
                : value == null ? component instanceof TagComponent && component.requires().isEmpty()
                : value.component() == component && Staging.addsAsPlainMove(value);
        if (!plain) {
            return false;
        }
        int store = index.aliveStore(id);
        if (store < 0) {
            return false; // reserved, dead or stale: the general path names it
        }
        Table current = registry.ofStore(store);
        if (current.position(component.id()) >= 0 == add) {
            return !add; // adding a tag it has marks the column (the general path's write-through)
        }
        return moveFrom(id, current, component, add, value, null);
    }

    /**
     * {@link #moveAtOnce} of a new value for a caller that has made its first checks: the entity is published in
     * {@code current}, which lacks the value's component, and the value is a plain move's
     * ({@code Staging.addsAsPlainMove}).
     */
    boolean moveValueFrom(long id, Table current, Input value) {
        return moveFrom(id, current, value.component(), true, value, null);
    }

    /**
     * {@link #moveValueFrom} of a new value whose write runs no user code: a native component's plain record, given
     * as its fields' bits ({@code RecordWriter.bits}, one long a field). False, having changed nothing, when the
     * destination is not in {@code current}'s edge cache, the record type is not plain in it, or wherever
     * {@code moveValueFrom} would refuse.
     */
    boolean movePlainBitsFrom(long id, Table current, NativeComponent<?> component, long[] bits) {
        Table target = current.addEdge(component.id());
        if (target == null || !target.isPlainRecord(target.position(component.id()))) {
            return false;
        }
        return moveFrom(id, current, component, true, null, bits);
    }

    private boolean moveFrom(long id, Table current, Component<?> component, boolean add, Input value, long[] bits) {
        // only a destination the table's edge cache knows: creating an archetype runs user code (query groupBy,
        // ArchetypeCreated observers), which the general path runs inside the drain
        Table target = add ? current.addEdge(component.id()) : current.removeEdge(component.id());
        if (target == null || current.observers().length != 0 || target.observers().length != 0
                || current.hasPairs() || target.hasPairs()) {
            return false;
        }
        transaction.countSubmission(); // the call is a submission of its own, as when its wave is sealed
        int slot = Entity.slot(id);
        int row = index.rowOf(slot);
        int destination = moveRow(row, current, target, component.id(), add, value, bits, -1);
        drain.completeRowMove(slot, current, row, target, destination, null);
        return true;
    }

    /**
     * Writes the values of value moves {@code [first, end)} (all of one component, the run's only new column) into
     * their entities' rows of {@code target}. The column first gets its default in rows {@code [base, base + n)},
     * as a run of records does, so a value that throws leaves the rows it did not reach at the default rather than
     * at what the buffer held.
     */
    private void writeValues(int first, int end, Table target, int[] missing, int base, int n) {
        for (int position : missing) {
            BulkPaths.write(target, position, base, base + n, target.componentAt(position), BatchOp.DEFAULT);
        }
        int position = target.position(transaction.tagMoveComponent(first));
        int move = first;
        while (move < end) {
            int row = index.rowOf(Entity.slot(transaction.tagMoveId(move)));
            int value = transaction.tagMoveStagedValue(move);
            if (value < 0) {
                transaction.writeTagMoveValue(move, target, position, row);
                move++;
                continue;
            }
            // values staged in the order their rows now follow (the usual case: set in row order) go in one copy
            int run = 1;
            while (move + run < end && transaction.tagMoveStagedValue(move + run) == value + run
                    && index.rowOf(Entity.slot(transaction.tagMoveId(move + run))) == row + run) {
                run++;
            }
            transaction.writeStagedValues(move, run, target, position, row);
            move += run;
        }
    }

    /** An added tag's column reads dirty, as a staged set of it marks it. */
    private void markTag(Table target, int move) {
        if (transaction.tagMoveAdds(move)) {
            target.markDirty(target.position(transaction.tagMoveComponent(move)));
        }
    }
}
