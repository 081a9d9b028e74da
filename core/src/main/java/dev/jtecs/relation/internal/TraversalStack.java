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
    private final SlotStamps seen = new SlotStamps(); // per slot: the visit that saw it (one round a visit)

    TraversalStack(ArchetypeRegistry archetypes) {
        this.archetypes = archetypes;
        this.pairs = archetypes.pairs();
        this.sparse = archetypes.sparseEdges();
    }

    private void ensure(int size) {
        if (size > entities.length) {
            int capacity = Growth.nextCapacity(entities.length, size, Long.BYTES);
            // every array first, then assign: a failed growth leaves them all as they were, in step
            var grownEntities = Growth.copyOf(entities, capacity);
            var grownDepths = Growth.copyOf(depths, capacity);
            entities = grownEntities;
            depths = grownDepths;
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
        seen.nextRound();
    }

    /** Marks a slot seen in this visit; returns whether it was unseen. */
    boolean markSeen(int slot) {
        return seen.mark(slot);
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
        // so the smallest pops first: ascending by the library sort (insertion sort below its threshold), reversed
        java.util.Arrays.sort(entities, start, top);
        for (int k = 0, half = (top - start) >>> 1; k < half; k++) {
            long swap = entities[start + k];
            entities[start + k] = entities[top - 1 - k];
            entities[top - 1 - k] = swap;
        }
        java.util.Arrays.fill(depths, start, top, depth);
        return top;
    }
}
