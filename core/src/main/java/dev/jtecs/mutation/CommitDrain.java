package dev.jtecs.mutation;

import dev.jtecs.component.Component;
import dev.jtecs.component.Input;
import dev.jtecs.entity.Entity;
import dev.jtecs.entity.internal.EntityIndex;
import dev.jtecs.storage.internal.ArchetypeRegistry;
import dev.jtecs.storage.internal.SignatureBuilder;
import dev.jtecs.storage.internal.Table;
import java.util.List;

/**
 * Publishes staged work in waves. Each wave handles, in order: despawns (rows removed, slots freed), spawns
 * (rows placed, ids published), then moves (rows relocated with their final values). Work staged while a wave
 * runs forms the next wave; more than {@link #MAX_WAVES} waves is reported as a likely observer cascade.
 *
 * <pre>
 *   Transaction ──seal──► wave: [despawns] → [spawns] → [moves] ──► more staged? ──yes──► next wave
 *                                                                      └─no──► done
 * </pre>
 *
 * <p>Failure: when publishing one entity throws, that entity's partial placement is undone, rows already
 * published stay, every record not yet published is discarded (reserved spawn slots are released), and the
 * exception propagates.
 */
public final class CommitDrain {
    /** The most waves one commit runs before it gives up. */
    public static final int MAX_WAVES = 64;

    private final EntityIndex index;
    private final ArchetypeRegistry registry;
    private final Transaction transaction;
    private boolean draining;
    private SpawnShape lastShape;
    private final SignatureBuilder signature = new SignatureBuilder();

    public CommitDrain(EntityIndex index, ArchetypeRegistry registry, Transaction transaction) {
        this.index = index;
        this.registry = registry;
        this.transaction = transaction;
    }

    public boolean isDraining() {
        return draining;
    }

    /** Publishes everything staged, wave after wave, until nothing is left. */
    public void drain() {
        if (draining) {
            return; // a reentrant commit joins the active drain
        }
        draining = true;
        try {
            int waves = 0;
            while (!transaction.isEmpty()) {
                if (++waves > MAX_WAVES) {
                    discardStaged();
                    throw new IllegalStateException("commit did not reach a fixed point after " + MAX_WAVES
                            + " waves: likely observer cascade (observers or callbacks keep staging work)");
                }
                runWave();
            }
        } finally {
            draining = false;
        }
    }

    private void runWave() {
        transaction.seal();
        int from = transaction.sealedStart();
        int to = transaction.sealedEnd();
        try {
            for (int phase = 0; phase < 3; phase++) {
                for (int record = from; record < to; record++) {
                    publish(record, phase);
                }
            }
        } catch (RuntimeException | Error failure) {
            releaseUnpublished(from, to);
            transaction.recycle();
            discardStaged();
            throw failure;
        }
        transaction.recycle();
    }

    private void publish(int record, int phase) {
        TxState state = transaction.state(record);
        if (phase == 0 && state == TxState.STAGED_DESPAWN) {
            despawn(record);
        } else if (phase == 0 && state == TxState.CANCELLED_SPAWN) {
            index.free(transaction.slot(record));
        } else if (phase == 1 && state == TxState.STAGED_SPAWN) {
            spawn(record);
        } else if (phase == 2 && state == TxState.STAGED_MUTATE) {
            move(record);
        } else {
            return;
        }
        transaction.setState(record, TxState.COMMITTED); // published: a later failure must not undo it
    }

    private void despawn(int record) {
        int slot = transaction.slot(record);
        Table table = registry.get(index.tableOf(slot));
        int row = index.rowOf(slot);
        long moved = table.swapRemove(row);
        if (moved != 0) {
            index.relocate(Entity.slot(moved), table.id(), row);
        }
        index.free(slot);
    }

    private void spawn(int record) {
        SpawnShape shape = shapeOf(record);
        Table target = shape.table;
        int row = target.appendRow(transaction.id(record));
        try {
            for (int k = 0; k < shape.defaultPositions.length; k++) {
                target.writeInput(shape.defaultPositions[k], row, shape.defaultInputs[k]);
            }
            int i = 0;
            for (int e = transaction.firstEntry(record); e >= 0; e = transaction.nextEntry(e)) {
                target.writeInput(shape.entryPositions[i++], row, transaction.entryInput(e));
            }
        } catch (RuntimeException | Error e) {
            target.swapRemove(row);
            throw e;
        }
        index.publish(transaction.slot(record), target.id(), row);
    }

    /**
     * The resolved shape of a staged spawn: consecutive spawns with the same component sequence (the common
     * case) reuse the last one, so placing a row costs no graph walk and no signature search.
     */
    private SpawnShape shapeOf(int record) {
        SpawnShape cached = lastShape;
        if (cached != null && cached.matches(transaction, record)) {
            return cached;
        }
        Table root = registry.root();
        Table target = resolveTarget(record, root);
        int entries = 0;
        for (int e = transaction.firstEntry(record); e >= 0; e = transaction.nextEntry(e)) {
            entries++;
        }
        Component<?>[] components = new Component<?>[entries];
        int[] entryPositions = new int[entries];
        int i = 0;
        for (int e = transaction.firstEntry(record); e >= 0; e = transaction.nextEntry(e)) {
            components[i] = transaction.entryComponent(e);
            entryPositions[i++] = target.position(components[i - 1].id());
        }
        int defaults = target.componentCount() - entries;
        int[] defaultPositions = new int[defaults];
        Input[] defaultInputs = new Input[defaults];
        int k = 0;
        for (int position = 0; position < target.componentCount(); position++) {
            Component<?> component = target.componentAt(position);
            if (transaction.findEntry(record, component) < 0) {
                Input required = requirementFor(record, component, target, root);
                defaultPositions[k] = position;
                defaultInputs[k++] = required != null ? required : component;
            }
        }
        lastShape = new SpawnShape(components, target, entryPositions, defaultPositions, defaultInputs);
        return lastShape;
    }

    /** A spawn's component sequence resolved to its table and column positions. */
    private record SpawnShape(Component<?>[] components, Table table, int[] entryPositions, int[] defaultPositions,
            Input[] defaultInputs) {
        boolean matches(Transaction transaction, int record) {
            int i = 0;
            for (int e = transaction.firstEntry(record); e >= 0; e = transaction.nextEntry(e)) {
                if (i == components.length || components[i++] != transaction.entryComponent(e)) {
                    return false;
                }
            }
            return i == components.length;
        }
    }

    private void move(int record) {
        int slot = transaction.slot(record);
        Table current = registry.get(index.tableOf(slot));
        int row = index.rowOf(slot);
        Table target = resolveTarget(record, current);
        if (target == current) {
            writeInPlace(record, current, row);
            return;
        }
        int destinationRow = current.moveRowTo(row, target);
        try {
            writeNewRow(record, target, destinationRow, current, current.missingPositionsFor(target));
        } catch (RuntimeException | Error e) {
            target.swapRemove(destinationRow);
            throw e;
        }
        long moved = current.swapRemove(row);
        if (moved != 0) {
            index.relocate(Entity.slot(moved), current.id(), row);
        }
        index.relocate(slot, target.id(), destinationRow);
    }

    /** Net signature unchanged: write the staged values where the row already is. */
    private void writeInPlace(int record, Table table, int row) {
        for (int e = transaction.firstEntry(record); e >= 0; e = transaction.nextEntry(e)) {
            Input input = transaction.entryInput(e);
            if (input != null) {
                int position = table.position(transaction.entryComponent(e).id());
                table.writeInput(position, row, input);
                table.markDirty(position);
            }
        }
    }

    /**
     * Writes a freshly placed row: requirement inputs or defaults for every component that arrived without a
     * staged input, then the staged inputs. {@code missing} lists the positions a move left unwritten
     * ({@code null} for a spawn: every position).
     */
    private void writeNewRow(int record, Table target, int row, Table before, int[] missing) {
        int n = missing == null ? target.componentCount() : missing.length;
        for (int k = 0; k < n; k++) {
            int position = missing == null ? k : missing[k];
            Component<?> component = target.componentAt(position);
            int entry = transaction.findEntry(record, component);
            if (entry >= 0 && transaction.entryInput(entry) != null) {
                continue;
            }
            Input required = requirementFor(record, component, target, before);
            target.writeInput(position, row, required != null ? required : component);
        }
        for (int e = transaction.firstEntry(record); e >= 0; e = transaction.nextEntry(e)) {
            Input input = transaction.entryInput(e);
            if (input != null) {
                int position = target.position(transaction.entryComponent(e).id());
                target.writeInput(position, row, input);
                if (missing != null) {
                    target.markDirty(position);
                }
            }
        }
    }

    /**
     * The table a record's row ends in: {@code before} plus its staged writes, minus its staged removals, closed
     * under the requirements of every component it gains. A lone change follows the cached graph edge; anything
     * else is assembled in a scratch signature and looked up once, so no intermediate archetype is created.
     */
    private Table resolveTarget(int record, Table before) {
        int first = transaction.firstEntry(record);
        if (first >= 0 && transaction.nextEntry(first) < 0) {
            Component<?> component = transaction.entryComponent(first);
            if (transaction.entryInput(first) == null) {
                return registry.withRemoved(before, component);
            }
            if (component.requires().isEmpty() || before.has(component.id())) {
                return registry.withAdded(before, component);
            }
        }
        signature.loadFrom(before);
        for (int e = first; e >= 0; e = transaction.nextEntry(e)) {
            if (transaction.entryInput(e) != null) {
                signature.add(transaction.entryComponent(e));
            } else {
                signature.remove(transaction.entryComponent(e));
            }
        }
        closeOverRequirements(before);
        return signature.resolve(registry);
    }

    /** Adds, transitively, what every component gained over {@code before} requires. */
    private void closeOverRequirements(Table before) {
        int i = 0;
        while (i < signature.size()) {
            Component<?> component = signature.get(i);
            boolean grew = false;
            if (!before.has(component.id())) {
                List<Input> requires = component.requires();
                for (int r = 0; r < requires.size(); r++) {
                    grew |= signature.add(requires.get(r).component());
                }
            }
            i = grew ? 0 : i + 1;
        }
    }

    /**
     * The input that supplies a required component, or {@code null} for its plain default. The staged
     * components' requirements are consulted first, in staging order (the caller's argument order), then those
     * of components that arrived through requirements, in signature order.
     */
    private Input requirementFor(int record, Component<?> component, Table target, Table before) {
        for (int e = transaction.firstEntry(record); e >= 0; e = transaction.nextEntry(e)) {
            Component<?> requirer = transaction.entryComponent(e);
            if (transaction.entryInput(e) != null && !before.has(requirer.id())) {
                Input found = requiredInput(requirer, component);
                if (found != null) {
                    return found;
                }
            }
        }
        for (int p = 0; p < target.componentCount(); p++) {
            Component<?> requirer = target.componentAt(p);
            if (!before.has(requirer.id())) {
                Input found = requiredInput(requirer, component);
                if (found != null) {
                    return found;
                }
            }
        }
        return null;
    }

    private static Input requiredInput(Component<?> requirer, Component<?> component) {
        List<Input> requires = requirer.requires();
        for (int r = 0; r < requires.size(); r++) {
            if (requires.get(r).component() == component) {
                return requires.get(r);
            }
        }
        return null;
    }

    /** Releases the reserved slots of spawns a failed wave never published; other records simply lapse. */
    private void releaseUnpublished(int from, int to) {
        for (int record = from; record < to; record++) {
            TxState state = transaction.state(record);
            if (state == TxState.STAGED_SPAWN || state == TxState.CANCELLED_SPAWN) {
                index.free(transaction.slot(record)); // never published: the reserved id goes stale
            }
            transaction.setState(record, TxState.COMMITTED);
        }
    }

    /** Drops everything still staged in the transaction (used when a commit fails or gives up). */
    public void discardStaged() {
        if (transaction.isEmpty()) {
            return;
        }
        transaction.seal();
        releaseUnpublished(transaction.sealedStart(), transaction.sealedEnd());
        transaction.recycle();
    }
}
