package dev.jtecs.bench.jmh;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.jtecs.bench.peers.PeerComponents.AshleyTag;
import dev.jtecs.bench.peers.PeerComponents.DominionTag;
import dev.jtecs.storage.Archetype;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.ToIntFunction;
import org.junit.jupiter.api.Test;

/**
 * Every {@code add_remove_tag} implementation tags all N entities in its first pass and untags them all in its
 * second, leaving positions as they were, so repeated operations do the same work.
 */
class AddRemoveTagBenchmarkTest {
    private static final int N = 500;

    /** One engine's two passes, how it counts tagged entities, and how it reads positions. */
    record Engine(String method, Consumer<AddRemoveTagBenchmark> add, Consumer<AddRemoveTagBenchmark> remove,
            ToIntFunction<AddRemoveTagBenchmark> tagged, Function<AddRemoveTagBenchmark, long[]> positions) {}

    @Test
    void everyEngineTagsAllThenNoneAndKeepsItsPositions() {
        check(new Engine("jtecs", AddRemoveTagBenchmark::addJtecs, AddRemoveTagBenchmark::removeJtecs,
                b -> b.world.findArchetypes(AddRemoveTagBenchmark.TAG).stream().mapToInt(Archetype::count).sum(),
                b -> Positions.of(b.world)));
        check(new Engine("jtecsInstant", AddRemoveTagBenchmark::addJtecsInstant,
                AddRemoveTagBenchmark::removeJtecsInstant,
                b -> b.world.findArchetypes(AddRemoveTagBenchmark.TAG).stream().mapToInt(Archetype::count).sum(),
                b -> Positions.of(b.world)));
        check(new Engine("dominion", AddRemoveTagBenchmark::addDominion, AddRemoveTagBenchmark::removeDominion,
                b -> {
                    int[] count = {0};
                    b.dominion.findEntitiesWith(DominionTag.class).forEach(r -> count[0]++);
                    return count[0];
                }, b -> Positions.of(b.dominion)));
        check(new Engine("artemis", AddRemoveTagBenchmark::addArtemis, AddRemoveTagBenchmark::removeArtemis,
                b -> {
                    int count = 0;
                    for (int entity : b.artemisEntities) {
                        count += b.artemisTags.has(entity) ? 1 : 0;
                    }
                    return count;
                }, b -> Positions.of(b.artemis)));
        check(new Engine("ashley", AddRemoveTagBenchmark::addAshley, AddRemoveTagBenchmark::removeAshley,
                b -> {
                    int count = 0;
                    for (com.badlogic.ashley.core.Entity entity : b.ashleyEntities) {
                        count += entity.getComponent(AshleyTag.class) != null ? 1 : 0;
                    }
                    return count;
                }, b -> Positions.of(b.ashley)));
    }

    private static void check(Engine engine) {
        AddRemoveTagBenchmark bench = new AddRemoveTagBenchmark();
        bench.entities = N;
        bench.setUp(engine.method());
        try {
            long[] start = engine.positions().apply(bench);
            assertEquals(N, start.length, engine.method() + " population");
            for (int round = 0; round < 2; round++) {
                assertEquals(0, engine.tagged().applyAsInt(bench), engine.method() + " before round " + round);
                engine.add().accept(bench);
                assertEquals(N, engine.tagged().applyAsInt(bench), engine.method() + " after adding, round " + round);
                engine.remove().accept(bench);
                assertEquals(0, engine.tagged().applyAsInt(bench), engine.method() + " after removing, round " + round);
                assertArrayEquals(start, engine.positions().apply(bench), engine.method() + " positions");
            }
        } finally {
            bench.tearDown();
        }
    }
}
