package dev.jtecs.world;

import dev.jtecs.entity.internal.Failures;
import dev.jtecs.component.PairComponent;
import dev.jtecs.entity.internal.EntityIndex;
import dev.jtecs.storage.Archetype;
import dev.jtecs.storage.internal.ArchetypeRegistry;
import dev.jtecs.storage.internal.Table;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The world's maintenance pass ({@code World.compact()}): prunes empty archetypes whose signature holds an edge to
 * a dead target, and reallocates archetypes that shrank far below their high-water mark.
 */
final class Compaction {
    private final EntityIndex index;
    private final ArchetypeRegistry archetypes;

    Compaction(EntityIndex index, ArchetypeRegistry archetypes) {
        this.index = index;
        this.archetypes = archetypes;
    }

    /**
     * Runs the pass; {@code beforePrune} hears of the archetypes about to be pruned, all at once. Every archetype
     * is visited even when one fails: a rebuild whose allocation fails keeps its old buffers (and is tried again
     * next time), an {@code onArchetypeDestroyed} observer that throws does not keep any archetype from being
     * pruned and freed. The first failure is rethrown after the pass (later ones suppressed).
     */
    CompactResult run(Consumer<Set<Archetype>> beforePrune) {
        List<Table> prunable = new ArrayList<>();
        int rebuilt = 0;
        Throwable failure = null;
        for (int i = 0; i < archetypes.size(); i++) {
            Table table = archetypes.get(i);
            if (table == null) {
                continue;
            }
            if (table.count() == 0 && hasDeadTarget(table)) {
                prunable.add(table);
            } else if (table.capacityRows() > Table.ROW_PADDING && table.count() < table.highWater() / 4) {
                try {
                    if (table.rebuild()) {
                        rebuilt++;
                    }
                } catch (RuntimeException | Error e) {
                    failure = Failures.fold(failure, e);
                }
            }
        }
        if (!prunable.isEmpty()) {
            // the pruning's allocations, then the queries' (beforePrune, which allocates before it changes any),
            // then the pruning itself, which allocates nothing: a failure before it leaves every archetype where
            // it was, known to every query, for the next pass
            try {
                Set<Archetype> pruned = Collections.newSetFromMap(new IdentityHashMap<>());
                for (Table table : prunable) {
                    pruned.add(table.archetype());
                }
                ArchetypeRegistry.PrunePlan plan = archetypes.preparePrune(prunable);
                beforePrune.accept(pruned);
                archetypes.prune(plan); // throws only for its observers, after every archetype is pruned
            } catch (RuntimeException | Error e) {
                failure = Failures.fold(failure, e);
            }
        }
        Failures.throwIfAny(failure);
        return new CompactResult(prunable.size(), rebuilt);
    }

    /** Whether a table's signature holds an edge to an entity that is no longer alive. */
    private boolean hasDeadTarget(Table table) {
        for (int p = table.componentCount() - 1; p >= 0; p--) {
            if (!(table.componentAt(p) instanceof PairComponent pair)) {
                return false; // pairs sort last
            }
            if (!index.isAlive(pair.target())) {
                return true;
            }
        }
        return false;
    }
}
