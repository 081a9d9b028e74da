package dev.jtecs.relation.internal;

import dev.jtecs.entity.internal.Growth;

import dev.jtecs.component.BaseRelationship;
import dev.jtecs.component.PairComponent;
import dev.jtecs.storage.internal.ArchetypeRegistry;
import dev.jtecs.storage.internal.PairRegistry;
import dev.jtecs.storage.internal.SparseEdges;
import dev.jtecs.storage.internal.Table;

/** A reusable depth-first stack of (entity, depth): traversals allocate only to grow it. */
final class TraversalStack {
    private final ArchetypeRegistry archetypes;
    private final PairRegistry pairs;
    private final SparseEdges sparse;
    long[] entities = new long[64];
    int[] depths = new int[64];
    private int[] stamps = new int[64]; // per slot: the visit that saw it (no clearing between visits)
    private int visit;

    TraversalStack(ArchetypeRegistry archetypes) {
        this.archetypes = archetypes;
        this.pairs = archetypes.pairs();
        this.sparse = archetypes.sparseEdges();
    }

    private void ensure(int size) {
        if (size > entities.length) {
            int capacity = Math.max(size, entities.length * 2);
            // every array first, then assign: a failed growth leaves them all as they were, in step
            var grownEntities = Growth.copyOf(entities, capacity);
            var grownDepths = Growth.copyOf(depths, capacity);
            entities = grownEntities;
            depths = grownDepths;
        }
    }

    /**
     * Sorts {@code a[from, to)} descending: insertion sort for the few children a node usually has (the
     * library sort's set-up costs more than the whole job there), the library sort beyond that.
     */
    private static void sortDescending(long[] a, int from, int to) {
        if (to - from > 24) {
            java.util.Arrays.sort(a, from, to);
            for (int i = from, j = to - 1; i < j; i++, j--) {
                long swap = a[i];
                a[i] = a[j];
                a[j] = swap;
            }
            return;
        }
        for (int i = from + 1; i < to; i++) {
            long value = a[i];
            int j = i - 1;
            while (j >= from && a[j] < value) {
                a[j + 1] = a[j];
                j--;
            }
            a[j + 1] = value;
        }
    }

    /**
     * Pushes {@code from[begin, end)}, which is ascending, so that it pops in that order, at {@code depth};
     * returns the new top.
     */
    int pushDescending(long[] from, int begin, int end, int depth, int top) {
        ensure(top + end - begin);
        long[] entities = this.entities;
        int[] depths = this.depths;
        for (int i = end - 1; i >= begin; i--) {
            entities[top] = from[i];
            depths[top++] = depth;
        }
        return top;
    }

    /** Starts a visit: every slot counts as unseen again. */
    void newVisit() {
        if (++visit == Integer.MAX_VALUE) {
            java.util.Arrays.fill(stamps, 0);
            visit = 1;
        }
    }

    /** Marks a slot seen in this visit; returns whether it was unseen. */
    boolean markSeen(int slot) {
        if (slot >= stamps.length) {
            stamps = Growth.copyOf(stamps, Math.max(slot + 1, stamps.length * 2));
        }
        if (stamps[slot] == visit) {
            return false;
        }
        stamps[slot] = visit;
        return true;
    }

    /**
     * Pushes the sources of edges to {@code parent} so that they pop in ascending id order (sparse: copied from
     * the store's reverse index, which keeps them ascending; dense: read from the archetypes holding the pair in
     * bulk, then sorted); returns the new top.
     */
    int pushChildren(BaseRelationship<?> relationship, long parent, int depth, int top) {
        int start = top;
        if (relationship.isSparse()) {
            int end = sparse.copySourcesDescending(relationship, parent, entities, top); // kept sorted: no sort
            if (end < 0) { // no room: grow, then copy (the one case that looks the target up twice)
                ensure(top - 1 - end);
                end = sparse.copySourcesDescending(relationship, parent, entities, top);
            }
            for (int i = top; i < end; i++) {
                depths[i] = depth;
            }
            return end;
        } else {
            PairComponent pair = pairs.find(relationship, parent);
            if (pair == null) {
                return top;
            }
            for (Table table : archetypes.withComponent(pair.id())) {
                int n = table.count();
                ensure(top + n);
                table.readEntities(0, n, entities, top);
                top += n;
            }
        }
        sortDescending(entities, start, top); // so the smallest pops first
        java.util.Arrays.fill(depths, start, top, depth);
        return top;
    }
}
