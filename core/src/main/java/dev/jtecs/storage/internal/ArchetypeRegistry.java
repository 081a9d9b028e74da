package dev.jtecs.storage.internal;

import dev.jtecs.entity.internal.Failures;
import dev.jtecs.entity.internal.Growth;

import dev.jtecs.component.Component;
import dev.jtecs.component.Components;
import dev.jtecs.storage.Archetype;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Every archetype of one world, by id (registry order) and by signature, plus the graph walk that finds the
 * archetype reached by adding or removing one component.
 *
 * <p>Invariants: table ids are their index in registry order; a signature maps to exactly one table; the root
 * (empty signature) is table 0. Edges, once cached, never change: tables are not destroyed while the world lives.
 * Storage blocks ({@link Table#store()}) form a permutation of table ids: each table owns exactly one.
 */
public final class ArchetypeRegistry implements AutoCloseable {
    private final NativeMemory memory;
    private final ArrayList<Table> tables = new ArrayList<>();
    private Table[] byStore = new Table[16];
    // the ids and storage blocks of pruned tables, oldest first, for the next tables made: [freedFirst, freedEnd)
    private int[] freedIds = new int[8];
    private int[] freedStores = new int[8];
    private int freedFirst;
    private int freedEnd;
    private int live;
    private final Map<Object, Table> bySignature = new HashMap<>();
    private final Probe probe = new Probe();
    private final Table root;
    private Consumer<Table> creationListener = table -> { };
    private final ArrayList<Table> dirtyQueue = new ArrayList<>();
    // what a table that turns dirty calls: one object for every table, so registering one allocates none
    private final Consumer<Table> queueDirty = dirtyQueue::add;
    private int tablesRoom; // the capacities tables and dirtyQueue are known to have (ArrayList hides its own)
    private int dirtyRoom;
    // the component index: tables by component id, without boxing (registered ids, then pair ids)
    private final ArrayList<List<Table>> byComponent = new ArrayList<>();
    // pair ids are never reused, so pairs are keyed, and a pair's entry goes when its last table is pruned
    private final LongMap<List<Table>> byPair = new LongMap<>();
    private int indexedComponents;
    private final StructureClock clock = new StructureClock();
    private final SparseEdges sparseEdges = new SparseEdges(clock);
    private final PairRegistry pairs = new PairRegistry();

    public ArchetypeRegistry(NativeMemory memory) {
        this.memory = memory;
        this.root = findOrCreate(new Component<?>[0]);
    }

    /** The world's structure counter: every table of this registry advances it (see {@link StructureClock}). */
    public StructureClock clock() {
        return clock;
    }

    /** The world's pair components (dense relationship edges). */
    public PairRegistry pairs() {
        return pairs;
    }

    /** The world's sparse relationship edges (per entity, outside the archetypes). */
    public SparseEdges sparseEdges() {
        return sparseEdges;
    }

    /** Called with every table registered from now on, before any row is placed in it. */
    public void onCreate(Consumer<Table> listener) {
        this.creationListener = java.util.Objects.requireNonNull(listener, "listener");
    }

    public Table root() {
        return root;
    }

    /** The table with this id, or {@code null} when that id was pruned and not reused yet. */
    public Table get(int id) {
        return tables.get(id);
    }

    /** The number of tables registered now (pruned ones excluded). */
    public int count() {
        return live;
    }

    /**
     * Removes an empty table for good (compaction): its signature, component-index entries, graph edges and
     * queue entry go, its observers hear {@code onArchetypeDestroyed}, its buffers are freed, and its id (with its
     * storage block) is handed to the next table created. Survivors keep their ids.
     *
     * @throws IllegalStateException when the table holds rows
     */
    public void prune(Table table) {
        pruneAll(List.of(table));
    }

    /**
     * Prunes several empty tables at once (compaction), in time linear in the tables and index entries touched,
     * whatever the number pruned: each component index list, the dirty queue and the other tables' move plans
     * are swept once. Every table is unregistered and its buffers freed before its observers hear
     * {@code onArchetypeDestroyed}; an observer that throws does not stop the others, nor the pruning of the
     * rest, and the first exception is rethrown at the end (later ones suppressed).
     *
     * @throws IllegalStateException when one of them holds rows or is the root (nothing is pruned then)
     */
    public void pruneAll(java.util.Collection<Table> prunable) {
        PrunePlan plan = preparePrune(prunable);
        if (plan != null) {
            prune(plan);
        }
    }

    /**
     * Everything a pruning of {@code prunable} allocates, made apart: nothing changes, and a failure here leaves
     * the registry as it was. {@code null} when there is nothing to prune. {@link #prune(PrunePlan)} then changes
     * the registry without allocating.
     *
     * @throws IllegalStateException when one of them holds rows or is the root
     */
    public PrunePlan preparePrune(java.util.Collection<Table> prunable) {
        java.util.Set<Table> set = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        List<Table> ordered = new ArrayList<>(prunable.size()); // the caller's order: ids are freed in it
        for (Table table : prunable) {
            if (table.count() != 0 || table == root || table.isPruned()) {
                throw new IllegalStateException("cannot prune " + table + ": only empty, live, non-root tables");
            }
            if (set.add(table)) {
                ordered.add(table);
            }
        }
        if (set.isEmpty()) {
            return null;
        }
        // everything the pruning allocates comes first (the keys, the index entries touched, the neighbours' edge
        // maps rebuilt, the other tables' plans found, the room to free the ids): once the first table leaves a
        // structure, nothing allocates until every table is out of all of them, and only the observers run after
        Signature[] keys = new Signature[ordered.size()];
        java.util.Set<Integer> touchedSet = new java.util.LinkedHashSet<>();
        java.util.Set<Table> neighbours = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        for (int i = 0; i < ordered.size(); i++) {
            Table table = ordered.get(i);
            keys[i] = new Signature(table.signatureUnsafe());
            for (int id : table.signatureUnsafe()) {
                touchedSet.add(id);
            }
            table.addEdgeNeighbours(neighbours);
        }
        int[] touched = new int[touchedSet.size()];
        int t = 0;
        for (int id : touchedSet) {
            touched[t++] = id;
        }
        Table[] neighbourTables = neighbours.toArray(new Table[0]);
        IntTableMap[][] rebuiltEdges = new IntTableMap[neighbourTables.length][];
        for (int i = 0; i < neighbourTables.length; i++) {
            rebuiltEdges[i] = neighbourTables[i].edgesWithout(set);
        }
        Table[][] plans = new Table[tables.size()][];
        for (int i = 0; i < tables.size(); i++) {
            Table other = tables.get(i);
            if (other != null && !set.contains(other)) {
                plans[i] = other.plansTo(set);
            }
        }
        reserveFreed(ordered.size());
        return new PrunePlan(set, ordered, keys, touched, neighbourTables, rebuiltEdges, plans);
    }

    /** What {@link #preparePrune} made for one pruning: handed to {@link #prune(PrunePlan)}, opaque elsewhere. */
    public static final class PrunePlan {
        final java.util.Set<Table> set;
        final List<Table> ordered;
        final Signature[] keys;
        final int[] touched;
        final Table[] neighbourTables;
        final IntTableMap[][] rebuiltEdges;
        final Table[][] plans;

        PrunePlan(java.util.Set<Table> set, List<Table> ordered, Signature[] keys, int[] touched,
                Table[] neighbourTables, IntTableMap[][] rebuiltEdges, Table[][] plans) {
            this.set = set;
            this.ordered = ordered;
            this.keys = keys;
            this.touched = touched;
            this.neighbourTables = neighbourTables;
            this.rebuiltEdges = rebuiltEdges;
            this.plans = plans;
        }
    }

    /**
     * Prunes the tables of {@code plan}: every table is unregistered and its buffers freed, allocating nothing,
     * before its observers hear {@code onArchetypeDestroyed}; an observer that throws does not stop the others,
     * and the first exception is rethrown at the end (later ones suppressed). The plan is used once, with no
     * table made or pruned in between.
     */
    public void prune(PrunePlan plan) {
        java.util.Set<Table> set = plan.set;
        List<Table> ordered = plan.ordered;
        Table[] neighbourTables = plan.neighbourTables;
        IntTableMap[][] rebuiltEdges = plan.rebuiltEdges;
        Table[][] plans = plan.plans;
        // nothing below allocates until the observers
        for (Signature key : plan.keys) {
            bySignature.remove(key);
        }
        for (int id : plan.touched) {
            List<Table> holders = holders(id, false);
            if (holders != null && removeAll(holders, set) && holders.isEmpty()) {
                indexedComponents--;
                if (id >= Components.FIRST_PAIR_ID) {
                    byPair.remove(id); // nothing holds the pair any more: its entry goes (ids are not reused)
                }
            }
        }
        removeAll(dirtyQueue, set);
        for (int i = 0; i < neighbourTables.length; i++) {
            neighbourTables[i].takeEdges(rebuiltEdges[i]);
        }
        for (int i = 0; i < plans.length; i++) {
            if (plans[i] != null) {
                tables.get(i).forgetPlansTo(plans[i], set);
            }
        }
        for (int i = 0; i < ordered.size(); i++) {
            Table table = ordered.get(i);
            table.forgetOwnPlans();
            tables.set(table.id(), null);
            byStore[table.store()] = null;
            freedIds[freedEnd] = table.id();
            freedStores[freedEnd++] = table.store();
            live--;
            clock.tick(table.signatureUnsafe());
        }
        Throwable failure = null;
        for (Table table : ordered) {
            try {
                table.destroyed();
            } catch (RuntimeException | Error e) {
                failure = Failures.fold(failure, e);
            }
        }
        Failures.throwIfAny(failure);
    }

    /** Removes the members of {@code gone} from {@code list} in place, keeping the order: allocates nothing. */
    private static boolean removeAll(List<Table> list, java.util.Set<Table> gone) {
        int kept = 0;
        int n = list.size();
        for (int i = 0; i < n; i++) {
            Table table = list.get(i);
            if (!gone.contains(table)) {
                list.set(kept++, table);
            }
        }
        for (int i = n - 1; i >= kept; i--) {
            list.remove(i); // from the end: nothing shifts
        }
        return kept < n;
    }

    /** Makes room to free {@code n} more ids, moving the waiting ones to the front first. */
    private void reserveFreed(int n) {
        int waiting = freedEnd - freedFirst;
        if (freedEnd + n <= freedIds.length) {
            return;
        }
        int capacity = Math.max(freedIds.length, waiting + n);
        int[] ids = capacity == freedIds.length ? freedIds : Growth.copyOf(NO_INTS, capacity);
        int[] stores = capacity == freedStores.length ? freedStores : Growth.copyOf(NO_INTS, capacity);
        System.arraycopy(freedIds, freedFirst, ids, 0, waiting);
        System.arraycopy(freedStores, freedFirst, stores, 0, waiting);
        freedIds = ids;
        freedStores = stores;
        freedFirst = 0;
        freedEnd = waiting;
    }

    private static final int[] NO_INTS = new int[0];

    /** The table that owns a storage block now (see {@link Table#store()}). */
    public Table ofStore(int store) {
        return byStore[store];
    }

    /**
     * Moves every row of {@code source} into the empty {@code destination} by exchanging buffers and storage
     * blocks (see {@link Table#exchangeInto}); returns the destination positions left to write.
     */
    public int[] exchange(Table source, Table destination) {
        return exchange(source, destination, source.prepareExchange(destination));
    }

    /** {@link #exchange(Table, Table)} with the buffers {@link Table#prepareExchange} allocated: allocates nothing. */
    public int[] exchange(Table source, Table destination, Table.Exchange prepared) {
        int[] missing = source.exchangeInto(destination, prepared);
        byStore[source.store()] = source;
        byStore[destination.store()] = destination;
        return missing;
    }

    /** The id space in use: ids {@code 0..size()-1}, some of which {@link #get} may answer {@code null} for. */
    public int size() {
        return tables.size();
    }

    public void forEach(Consumer<Table> action) {
        for (int i = 0; i < tables.size(); i++) {
            if (tables.get(i) != null) {
                action.accept(tables.get(i));
            }
        }
    }

    /** The table reached from {@code from} by adding {@code component} (itself when already present). */
    public Table withAdded(Table from, Component<?> component) {
        int id = component.id();
        if (from.has(id)) {
            return from;
        }
        Table cached = from.addEdge(id);
        if (cached != null) {
            return cached;
        }
        Component<?>[] next = new Component<?>[from.componentCount() + 1];
        for (int p = 0; p < from.componentCount(); p++) {
            next[p] = from.componentAt(p);
        }
        next[next.length - 1] = component;
        Arrays.sort(next, Comparator.comparingInt(Component::id));
        Table target = findOrCreate(next);
        from.cacheAddEdge(id, target);
        target.cacheRemoveEdge(id, from);
        return target;
    }

    /** The table reached from {@code from} by removing {@code component} (itself when absent). */
    public Table withRemoved(Table from, Component<?> component) {
        int id = component.id();
        int position = from.position(id);
        if (position < 0) {
            return from;
        }
        Table cached = from.removeEdge(id);
        if (cached != null) {
            return cached;
        }
        Component<?>[] next = new Component<?>[from.componentCount() - 1];
        for (int p = 0, q = 0; p < from.componentCount(); p++) {
            if (p != position) {
                next[q++] = from.componentAt(p);
            }
        }
        Table target = findOrCreate(next);
        from.cacheRemoveEdge(id, target);
        target.cacheAddEdge(id, from);
        return target;
    }

    /**
     * The table with exactly the first {@code length} components of {@code sortedComponents} (sorted by id, no
     * duplicates), or {@code null} when none exists: unlike {@link #findOrCreate}, it never creates one (a creation
     * runs the world's callbacks). Allocates nothing.
     */
    public Table find(Component<?>[] sortedComponents, int length) {
        probe.components = sortedComponents;
        probe.length = length;
        Table table = bySignature.get(probe);
        probe.components = null;
        return table;
    }

    /** The table with exactly these components (sorted by id, no duplicates), created when new. */
    public Table findOrCreate(Component<?>[] sortedComponents) {
        return findOrCreate(sortedComponents, sortedComponents.length);
    }

    /**
     * The table with exactly the first {@code length} components of {@code sortedComponents} (sorted by id, no
     * duplicates), created when new. Finding an existing table allocates nothing.
     */
    public Table findOrCreate(Component<?>[] sortedComponents, int length) {
        Table table = find(sortedComponents, length);
        if (table == null) {
            Component<?>[] exact = Growth.copyOf(sortedComponents, length);
            int[] ids = new int[length];
            for (int i = 0; i < length; i++) {
                ids[i] = exact[i].id();
            }
            for (int id : ids) {
                // every component index list the table joins exists before the table is registered: making one
                // can grow the pair map, and a growth that failed after registration left a table no query knew
                holders(id, true);
            }
            boolean reuse = freedFirst < freedEnd; // a pruned table's id and block, oldest first
            int store = reuse ? freedStores[freedFirst] : tables.size();
            if (store >= byStore.length) { // grown, and the table built, before anything is registered
                byStore = Growth.copyOf(byStore, Math.max(byStore.length * 2, store + 1));
            }
            // room in every list the table joins, before it joins any: after the signature's entry (the first
            // step, and the last that allocates) registering allocates nothing, and neither does a table that
            // turns dirty later (the queue holds each table at most once)
            tablesRoom = Growth.reserve(tables, tablesRoom, tables.size() + 1);
            dirtyRoom = Growth.reserve(dirtyQueue, dirtyRoom, tables.size() + 1);
            for (int id : ids) {
                List<Table> holders = holders(id, true);
                ((ArrayList<Table>) holders).ensureCapacity(holders.size() + 1);
            }
            table = new Table(reuse ? freedIds[freedFirst] : tables.size(), exact, memory, clock);
            table.sparse = sparseEdges;
            bySignature.put(new Signature(ids), table);
            if (reuse) {
                freedFirst++;
                tables.set(table.id(), table);
                table.setStore(store); // the pruned table's block: blocks stay a permutation of ids
            } else {
                tables.add(table);
            }
            live++;
            byStore[table.store()] = table;
            table.dirty().onFirstDirty(queueDirty);
            for (int id : ids) {
                List<Table> holders = holders(id, true);
                if (holders.isEmpty()) {
                    indexedComponents++;
                }
                holders.add(table);
            }
            creationListener.accept(table);
        }
        return table;
    }

    /** The tables that turned dirty since the last {@link #clearDirty()}, in first-dirtied order. */
    public List<Table> dirtyQueue() {
        return dirtyQueue;
    }

    /**
     * Visits the archetypes of the dirty queue that are dirty when the visit reaches them, in first-dirtied order.
     * Tables queued during the visit are not visited; a queue emptied during the visit ends it.
     */
    public void forEachDirty(Consumer<Archetype> action) {
        int count = dirtyQueue.size();
        for (int i = 0; i < count && i < dirtyQueue.size(); i++) { // indexed: per frame, no iterator
            Table table = dirtyQueue.get(i);
            if (table.dirty().anyDirty()) {
                action.accept(table.archetype());
            }
        }
    }

    /** Clears every table's dirty state and empties the queue. */
    public void clearDirty() {
        for (int i = 0; i < dirtyQueue.size(); i++) { // indexed: update() calls this every frame, no iterator
            Table table = dirtyQueue.get(i);
            table.dirty().clear();
            table.dirty().dequeue();
        }
        dirtyQueue.clear();
    }

    /** The number of distinct components in at least one table. */
    public int componentCount() {
        return indexedComponents;
    }

    /** The tables whose signature holds a component id, in registry order, empty ones included. */
    public List<Table> withComponent(int componentId) {
        List<Table> holders = holders(componentId, false);
        return holders == null ? List.of() : holders;
    }

    /** The index list of a component id ({@code null} when absent and {@code create} is false). */
    private List<Table> holders(int componentId, boolean create) {
        if (componentId < 0) {
            return null;
        }
        if (componentId >= Components.FIRST_PAIR_ID) {
            List<Table> holders = byPair.get(componentId);
            if (holders == null && create) {
                holders = new ArrayList<>(2);
                byPair.put(componentId, holders);
            }
            return holders;
        }
        int slot = componentId;
        if (slot >= byComponent.size()) {
            if (!create) {
                return null;
            }
            while (byComponent.size() <= slot) {
                byComponent.add(null);
            }
        }
        List<Table> holders = byComponent.get(slot);
        if (holders == null && create) {
            holders = new ArrayList<>(2);
            byComponent.set(slot, holders);
        }
        return holders;
    }

    /** The number of pairs the component index holds an entry for (each held by at least one table). */
    public int indexedPairs() {
        return byPair.size();
    }

    /** Frees every table's columns. */
    @Override
    public void close() {
        Throwable failure = null;
        for (Table table : tables) {
            if (table != null) {
                try {
                    table.release();
                } catch (RuntimeException | Error e) {
                    failure = Failures.fold(failure, e); // every other table is still released
                }
            }
        }
        Failures.throwIfAny(failure);
    }

    /** A stored key: the exact sorted ids. Hashes like {@link Arrays#hashCode(int[])}, as {@link Probe} does. */
    private record Signature(int[] ids) {
        @Override
        public boolean equals(Object other) {
            return other instanceof Signature s && Arrays.equals(ids, s.ids);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(ids);
        }

        @Override
        public String toString() {
            return Arrays.toString(ids);
        }
    }

    /** A reusable lookup key over a prefix of a component array: finding a table allocates no key. */
    private static final class Probe {
        Component<?>[] components;
        int length;

        @Override
        public int hashCode() {
            int hash = 1;
            for (int i = 0; i < length; i++) {
                hash = 31 * hash + components[i].id();
            }
            return hash;
        }

        @Override
        public boolean equals(Object other) {
            if (!(other instanceof Signature signature) || signature.ids.length != length) {
                return false;
            }
            for (int i = 0; i < length; i++) {
                if (signature.ids[i] != components[i].id()) {
                    return false;
                }
            }
            return true;
        }
    }
}
