package dev.jtecs.mutation.internal;

import dev.jtecs.builtin.EntityKey;
import dev.jtecs.component.Component;
import dev.jtecs.component.ComponentValue;
import dev.jtecs.component.Input;
import dev.jtecs.component.NativeComponent;
import dev.jtecs.component.RelationshipValue;
import dev.jtecs.component.TagComponent;
import dev.jtecs.entity.Entity;
import dev.jtecs.entity.internal.EntityIndex;
import dev.jtecs.storage.internal.ArchetypeRegistry;
import dev.jtecs.storage.internal.SignatureBuilder;
import dev.jtecs.storage.internal.Table;

/**
 * Places staged single spawns, and plans spawn batches at the call. A single spawn's component sequence is
 * resolved to its table and column positions once and reused while consecutive spawns repeat it (the common
 * case), so placing a row costs no signature work: append the row, write requirement defaults, then the staged
 * values, publish the id.
 *
 * <pre>
 *   spawn(record): shapeOf ──(same sequence as the last?)──► cached SpawnShape | Destinations.resolve(root)
 *                  ──► appendRow ─► defaults and requirements ─► staged values ─► publish id ─► placed
 * </pre>
 *
 * <p>A write that throws removes the appended row again: the spawn is not published and the drain discards it.
 */
final class SpawnPlacement {
    private final CommitDrain drain;
    private final EntityIndex index;
    private final ArchetypeRegistry registry;
    private final Transaction transaction;
    private final RequirementPlan requirements;
    private final Destinations destinations;
    private final RequiredEdges requiredEdges;
    private final RequirementPlan callPlan;
    private final SignatureBuilder callSignature = new SignatureBuilder();
    private SpawnShape lastShape;

    SpawnPlacement(CommitDrain drain, EntityIndex index, ArchetypeRegistry registry, Transaction transaction,
            RequirementPlan requirements, Destinations destinations, RequiredEdges requiredEdges) {
        this.drain = drain;
        this.index = index;
        this.registry = registry;
        this.transaction = transaction;
        this.requirements = requirements;
        this.destinations = destinations;
        this.requiredEdges = requiredEdges;
        this.callPlan = new RequirementPlan(registry.pairs());
    }

    /**
     * Plans a spawn batch at the call: the destination table of {@code inputs} (distinct components, the last
     * input of a component winning) with their requirements, and how each of its columns is written.
     *
     * @throws IllegalArgumentException when the signature holds {@code EntityKey} and {@code allowKey} is false
     */
    BatchOp.SpawnPlan planBatch(Input[] inputs, boolean allowKey) {
        Component<?>[] components = new Component<?>[inputs.length];
        Input[] chosen = new Input[inputs.length];
        int n = 0;
        for (Input input : inputs) {
            int k = 0;
            while (k < n && components[k] != input.component()) {
                k++;
            }
            components[k] = input.component();
            chosen[k] = input;
            n = Math.max(n, k + 1);
        }
        callSignature.clear();
        callPlan.planAdditions(components, n, callSignature);
        if (!allowKey && callSignature.contains(EntityKey.COMPONENT)) {
            throw new IllegalArgumentException("a batch spawn cannot include EntityKey (directly or through "
                    + "requirements): one shared value cannot claim distinct keys; set keys one by one");
        }
        Table table = callSignature.resolve(registry);
        java.util.List<RelationshipValue> sparseRequired = new java.util.ArrayList<>(0);
        for (int i = 0; i < callPlan.size(); i++) {
            if (callPlan.inputAt(i) instanceof RelationshipValue edge && edge.relationship().isSparse()) {
                sparseRequired.add(edge);
            }
        }
        int[] positions = new int[table.componentCount()];
        Input[] values = new Input[positions.length];
        byte[] modes = new byte[positions.length];
        for (int p = 0; p < positions.length; p++) {
            Component<?> component = table.componentAt(p);
            positions[p] = p;
            int k = 0;
            while (k < n && components[k] != component) {
                k++;
            }
            if (k < n) {
                values[p] = chosen[k];
                modes[p] = chosen[k] instanceof ComponentValue<?> ? BatchOp.VALUE : BulkPaths.initialMode(component);
            } else {
                Input required = callPlan.inputFor(component);
                values[p] = required;
                modes[p] = required instanceof ComponentValue<?> ? BatchOp.SHARED : BatchOp.DEFAULT;
            }
        }
        return new BatchOp.SpawnPlan(table, positions, values, modes, table.has(EntityKey.COMPONENT.id()),
                sparseRequired.toArray(RelationshipValue[]::new));
    }

    void spawn(int record) {
        SpawnShape shape = shapeOf(record);
        Table target = shape.table;
        int row = target.appendRow(transaction.id(record));
        try {
            for (int k = 0; k < shape.defaultPositions.length; k++) {
                Input input = shape.defaultInputs[k];
                target.writeInput(shape.defaultPositions[k], row, input);
                if (input instanceof RelationshipValue edge && edge.relationship().isSparse()) { // a required edge
                    requiredEdges.plan(transaction.id(record), edge.relationship()); // lands with its REQUIRE
                }
            }
            int i = 0;
            for (int e = transaction.firstEntry(record); e >= 0; e = transaction.nextEntry(e)) {
                int position = shape.entryPositions[i++];
                if (position >= 0) { // negative: a relationship marker its pairs' removal dropped
                    target.writeInput(position, row, transaction.entryInput(e));
                }
            }
        } catch (RuntimeException | Error e) {
            target.swapRemove(row);
            throw e;
        }
        index.publish(transaction.slot(record), target.store(), row);
        transaction.setState(record, TxState.COMMITTED);
        drain.placed(target, row, row + 1, null);
    }

    /**
     * The resolved shape of a staged spawn: consecutive spawns with the same component sequence (the common
     * case) reuse the last one, so placing a row costs no signature work.
     */
    SpawnShape shapeOf(int record) {
        SpawnShape cached = lastShape;
        if (cached != null && cached.matches(transaction, record)) {
            return cached;
        }
        Table root = registry.root();
        Table target = destinations.resolve(record, root);
        int entries = 0;
        for (int e = transaction.firstEntry(record); e >= 0; e = transaction.nextEntry(e)) {
            entries++;
        }
        Component<?>[] components = new Component<?>[entries];
        int[] entryPositions = new int[entries];
        int i = 0;
        int placed = 0; // entries the table holds: a marker whose last pair staging dropped is normalized away
        for (int e = transaction.firstEntry(record); e >= 0; e = transaction.nextEntry(e)) {
            components[i] = transaction.entryComponent(e);
            entryPositions[i] = target.position(components[i].id());
            placed += entryPositions[i] >= 0 ? 1 : 0;
            i++;
        }
        int defaults = target.componentCount() - placed;
        int[] defaultPositions = new int[defaults];
        Input[] defaultInputs = new Input[defaults];
        int k = 0;
        for (int position = 0; position < target.componentCount(); position++) {
            Component<?> component = target.componentAt(position);
            if (transaction.findEntry(record, component) < 0) {
                Input required = requirements.inputFor(component);
                defaultPositions[k] = position;
                defaultInputs[k++] = required != null ? required : component;
            }
        }
        lastShape = new SpawnShape(components, target, entryPositions, defaultPositions, defaultInputs);
        return lastShape;
    }

    /** A spawn's component sequence resolved to its table and column positions. */
    record SpawnShape(Component<?>[] components, Table table, int[] entryPositions, int[] defaultPositions,
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

    // ---------------------------------------------------------------- spawns at once

    // the inputs' components, in call order, of the last spawn placed at once ([0, onceCount)), its table (null:
    // none), and where each input goes there: calls that name the same components in the same order reuse them.
    // The arrays only grow: a call that names other components refills them, allocating nothing
    private Component<?>[] onceComponents = new Component<?>[4];
    private int[] oncePositions = new int[4];
    private int onceCount;
    private Table onceTable;
    private Component<?>[] sortScratch = new Component<?>[4];
    private static final java.util.Comparator<Component<?>> BY_ID = java.util.Comparator.comparingInt(Component::id);

    /**
     * The instant spawn of {@code n} inputs ({@code inputs[0, n)}, or {@code a}, {@code b}, {@code c} when
     * {@code inputs} is null), for a caller that found no scope open, nothing staged or waiting and nobody
     * observing spawns. When every input is a value of a plain component without requirements (a native one of a
     * record type with generated accessors, a scalar one other than {@code EntityKey}, a managed one) or a tag
     * without requirements, no two name the same component, their archetype exists already (creating one runs the
     * world's callbacks) and nobody observes it and it holds no pairs, the entity is placed at once: an id, a row
     * with the values, the slot published. That is what the publication of the same spawn staged would do, in the
     * same order, without staging it. The table's room and the index's slot are made before anything changes, and
     * the writes run no user code, so a failure changes nothing. Returns the id, or 0 having changed nothing: the
     * caller then stages the spawn.
     */
    long spawnAtOnce(Input[] inputs, Input a, Input b, Input c, int n) {
        Table target = onceTarget(inputs, a, b, c, n);
        if (target == null || target.observers().length != 0 || index.available() == 0) {
            return 0;
        }
        index.reserveSlots(1); // the index's room, then the table's: after these nothing allocates
        target.ensureCapacity(target.count() + 1);
        long id = index.allocate();
        int row = target.appendRow(id);
        int[] positions = oncePositions;
        for (int i = 0; i < n; i++) {
            Input input = inputAt(inputs, a, b, c, i);
            if (input instanceof ComponentValue<?>) {
                target.writeInput(positions[i], row, input);
            }
        }
        index.publish(Entity.slot(id), target.store(), row);
        return id;
    }

    /**
     * The existing archetype of exactly the components {@code components[0, n)} (sorted here by id) when it holds no
     * relationship pairs, else null: also when a component is named twice (the last input wins, on the general
     * path) or the archetype does not exist (creating one runs the world's callbacks). The spawns that skip the
     * record path place their rows only into such an archetype.
     */
    static Table plainArchetype(ArchetypeRegistry registry, Component<?>[] components, int n) {
        java.util.Arrays.sort(components, 0, n, BY_ID);
        for (int i = 1; i < n; i++) {
            if (components[i].id() == components[i - 1].id()) {
                return null;
            }
        }
        Table table = registry.find(components, n);
        return table == null || table.hasPairs() ? null : table;
    }

    /** Input {@code i} of a spawn at once: {@code inputs[i]}, or {@code a}, {@code b}, {@code c} when it is null. */
    static Input inputAt(Input[] inputs, Input a, Input b, Input c, int i) {
        return inputs != null ? inputs[i] : i == 0 ? a : i == 1 ? b : c;
    }

    /**
     * The table a spawn of these inputs lands in when {@link #spawnAtOnce} may place it (see there), else null.
     * The last answer is kept while calls name the same components in the same order.
     */
    private Table onceTarget(Input[] inputs, Input a, Input b, Input c, int n) {
        Table cached = onceTable;
        if (cached != null && n == onceCount && registry.ofStore(cached.store()) == cached) {
            Component<?>[] last = onceComponents;
            boolean same = true;
            for (int i = 0; i < n && same; i++) {
                // the same component, given as a value (or a tag): a bare component asks for its default instead
                Input input = inputAt(inputs, a, b, c, i);
                same = input.component() == last[i]
                        && (input instanceof ComponentValue<?> || input instanceof TagComponent);
            }
            if (same) {
                return cached;
            }
        }
        if (sortScratch.length < n) {
            sortScratch = new Component<?>[n];
        }
        Component<?>[] sorted = sortScratch;
        for (int i = 0; i < n; i++) {
            Input input = inputAt(inputs, a, b, c, i);
            if (!(input instanceof TagComponent tag ? tag.requires().isEmpty() : Staging.addsAsPlainMove(input))) {
                java.util.Arrays.fill(sorted, 0, i, null);
                return null; // a default, a requirement, an edge, a key: the general path
            }
            sorted[i] = input.component();
        }
        Table target = plainArchetype(registry, sorted, n);
        java.util.Arrays.fill(sorted, 0, n, null);
        if (target == null) {
            return null;
        }
        onceTable = null; // refilled below: kept again only once every input checks out
        if (onceComponents.length < n) {
            onceComponents = new Component<?>[n];
            oncePositions = new int[n];
        }
        for (int i = 0; i < n; i++) {
            Component<?> component = inputAt(inputs, a, b, c, i).component();
            int position = target.position(component.id());
            if (component instanceof NativeComponent<?> && !target.isPlainRecord(position)) {
                return null; // a record type whose accessors are code of its own: the general path runs them
            }
            onceComponents[i] = component;
            oncePositions[i] = position;
        }
        java.util.Arrays.fill(onceComponents, n, onceComponents.length, null);
        onceCount = n;
        onceTable = target;
        return target;
    }
}
