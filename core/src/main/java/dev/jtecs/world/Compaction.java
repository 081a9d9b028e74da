package dev.jtecs.world;

import dev.jtecs.component.PairComponent;
import dev.jtecs.entity.internal.EntityIndex;
import dev.jtecs.storage.Archetype;
import dev.jtecs.storage.internal.ArchetypeRegistry;
import dev.jtecs.storage.internal.Table;
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

    /** Runs the pass; {@code beforePrune} hears of each archetype before it is pruned. */
    CompactResult run(Consumer<Archetype> beforePrune) {
        int pruned = 0;
        int rebuilt = 0;
        for (int i = 0; i < archetypes.size(); i++) {
            Table table = archetypes.get(i);
            if (table == null) {
                continue;
            }
            if (table.count() == 0 && hasDeadTarget(table)) {
                beforePrune.accept(table.archetype());
                archetypes.prune(table);
                pruned++;
            } else if (table.capacityRows() > Table.ROW_PADDING && table.count() < table.highWater() / 4
                    && table.rebuild()) {
                rebuilt++;
            }
        }
        return new CompactResult(pruned, rebuilt);
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
