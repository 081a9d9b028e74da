package dev.jtecs.relation.internal;

import dev.jtecs.component.BaseRelationship;
import dev.jtecs.component.PairComponent;
import dev.jtecs.storage.internal.ArchetypeRegistry;
import dev.jtecs.storage.internal.PairRegistry;
import dev.jtecs.storage.internal.SparseEdges;
import dev.jtecs.storage.internal.Table;
import java.util.Objects;

/**
 * From a target to its sources. Dense edges need no index of their own: the sources of (REL, t) are the rows of
 * the archetypes holding that pair, found through the component index. Sparse edges are looked up in the
 * world's edge store, which keeps its own reverse index.
 */
public final class ReverseIndex {
    private final ArchetypeRegistry archetypes;
    private final PairRegistry pairs;
    private final SparseEdges sparse;

    public ReverseIndex(ArchetypeRegistry archetypes) {
        this.archetypes = archetypes;
        this.pairs = archetypes.pairs();
        this.sparse = archetypes.sparseEdges();
    }

    /**
     * The published entities holding an edge of {@code relationship} to {@code target}, ascending.
     *
     * @throws IllegalArgumentException when the relationship has no reverse index
     */
    public long[] sources(BaseRelationship<?> relationship, long target) {
        requireReverseIndex(relationship, "relationshipSources");
        return sourcesOf(relationship, target);
    }

    /** Visits the sources of edges of {@code relationship} to {@code target}, in ascending id order. */
    public void targets(long target, BaseRelationship<?> relationship, java.util.function.LongConsumer action) {
        requireReverseIndex(relationship, "targets");
        Objects.requireNonNull(action, "action");
        for (long source : sourcesOf(relationship, target)) {
            action.accept(source);
        }
    }

    static void requireReverseIndex(BaseRelationship<?> relationship, String operation) {
        if (!Objects.requireNonNull(relationship, "relationship").hasReverseIndex()) {
            throw new IllegalArgumentException(operation + ": relationship " + relationship.name()
                    + " has no reverse index (register it with reverseIndex())");
        }
    }


    /**
     * The published sources of edges to {@code target}, ascending: the archetypes holding the pair, read (dense),
     * or the store's reverse index (sparse).
     */
    private long[] sourcesOf(BaseRelationship<?> relationship, long target) {
        if (relationship.isSparse()) {
            return sparse.sources(relationship, target);
        }
        PairComponent pair = pairs.find(relationship, target);
        if (pair == null) {
            return new long[0];
        }
        int total = 0;
        for (Table table : archetypes.withComponent(pair.id())) {
            total += table.count();
        }
        long[] sources = new long[total];
        int n = 0;
        for (Table table : archetypes.withComponent(pair.id())) {
            table.readEntities(0, table.count(), sources, n);
            n += table.count();
        }
        java.util.Arrays.sort(sources);
        return sources;
    }
}
