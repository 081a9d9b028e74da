package dev.jtecs.mutation.internal;

import dev.jtecs.component.Component;
import dev.jtecs.component.Input;
import dev.jtecs.component.RelationshipValue;
import dev.jtecs.entity.internal.EntityIndex;
import dev.jtecs.storage.internal.ArchetypeRegistry;
import dev.jtecs.storage.internal.Table;

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
    private boolean[] replan = new boolean[64];
    private int waveStart;

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
            replan = new boolean[moveTargets.length];
        }
    }

    /** Resolves and keeps the destination of a record whose entity is in {@code current} now; returns it. */
    Table plan(int record, Table current) {
        Table table = destinations.resolve(record, current);
        moveTargets[record - waveStart] = table;
        replan[record - waveStart] = requirements.size() > 0;
        return table;
    }

    void move(int record) {
        int slot = transaction.slot(record);
        if (!index.isAlive(transaction.id(record))) {
            moveTargets[record - waveStart] = null;
            transaction.setState(record, TxState.COMMITTED); // its entity died in an earlier segment
            return;
        }
        Table current = registry.ofStore(index.storeOf(slot));
        int row = index.rowOf(slot);
        Table target = moveTargets[record - waveStart];
        moveTargets[record - waveStart] = null;
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
        Notifications.removed(current, row, row + 1, target);
        int destinationRow = current.moveRowTo(row, target);
        try {
            writeMovedRow(record, target, destinationRow, current.missingPositionsFor(target));
        } catch (RuntimeException | Error e) {
            target.swapRemove(destinationRow);
            Notifications.added(current, row, row + 1, target); // it never left: undo the removal report
            throw e;
        }
        index.relocate(slot, target.store(), destinationRow);
        transaction.setState(record, TxState.COMMITTED);
        CommitDrain.removeRow(index, current, row);
        drain.placed(target, destinationRow, destinationRow + 1, current);
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
}
