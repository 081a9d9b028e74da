package dev.jtecs.bench.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.bench.peers.PeerComponents.AshleyTag;
import dev.jtecs.bench.peers.PeerComponents.DominionTag;
import dev.jtecs.entity.Entity;
import dev.jtecs.storage.Archetype;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.ToIntFunction;
import org.junit.jupiter.api.Test;

/**
 * Every {@code add_remove_tag_part} implementation tags exactly its N handles, every 16th of its N x 16 entities,
 * and untags them again, so repeated operations do the same work; jtecs's changed entities share one archetype
 * with the unchanged ones before each pass.
 */
class AddRemoveTagPartBenchmarkTest {
    private static final int N = 40;

    /** One engine's passes, its whole operation, and how it counts its tagged and all its entities. */
    record Engine(String method, Consumer<AddRemoveTagBenchmark> add, Consumer<AddRemoveTagBenchmark> remove,
            Function<AddRemoveTagPartBenchmark, Object> roundTrip, ToIntFunction<AddRemoveTagBenchmark> tagged,
            ToIntFunction<AddRemoveTagBenchmark> population) {}

    @Test
    void everyEngineChangesEverySixteenthEntityOfItsPopulationAndOnlyThose() {
        ToIntFunction<AddRemoveTagBenchmark> jtecsTagged =
                b -> b.world.findArchetypes(AddRemoveTagBenchmark.TAG).stream().mapToInt(Archetype::count).sum();
        ToIntFunction<AddRemoveTagBenchmark> jtecsPopulation = b -> b.world.getStats(null).entities();
        check(new Engine("jtecs", AddRemoveTagBenchmark::addJtecs, AddRemoveTagBenchmark::removeJtecs,
                AddRemoveTagPartBenchmark::jtecs, jtecsTagged, jtecsPopulation));
        check(new Engine("jtecsInstant", AddRemoveTagBenchmark::addJtecsInstant,
                AddRemoveTagBenchmark::removeJtecsInstant, AddRemoveTagPartBenchmark::jtecsInstant, jtecsTagged,
                jtecsPopulation));
        check(new Engine("dominion", AddRemoveTagBenchmark::addDominion, AddRemoveTagBenchmark::removeDominion,
                AddRemoveTagPartBenchmark::dominion, b -> {
            int[] count = {0};
            b.dominion.findEntitiesWith(DominionTag.class).forEach(r -> count[0]++);
            return count[0];
        }, b -> {
            int[] count = {0};
            b.dominion.findAllEntities().forEach(e -> count[0]++);
            return count[0];
        }));
        check(new Engine("artemis", AddRemoveTagBenchmark::addArtemis, AddRemoveTagBenchmark::removeArtemis,
                AddRemoveTagPartBenchmark::artemis, b -> {
            int count = 0;
            for (int entity : b.artemisEntities) {
                count += b.artemisTags.has(entity) ? 1 : 0;
            }
            return count;
        }, b -> b.artemis.getAspectSubscriptionManager().get(com.artemis.Aspect.all()).getEntities().size()));
        check(new Engine("ashley", AddRemoveTagBenchmark::addAshley, AddRemoveTagBenchmark::removeAshley,
                AddRemoveTagPartBenchmark::ashley, b -> {
            int count = 0;
            for (com.badlogic.ashley.core.Entity entity : b.ashleyEntities) {
                count += entity.getComponent(AshleyTag.class) != null ? 1 : 0;
            }
            return count;
        }, b -> b.ashley.getEntities().size()));
    }

    private static void check(Engine engine) {
        AddRemoveTagPartBenchmark bench = new AddRemoveTagPartBenchmark();
        bench.entities = N;
        bench.setUp(engine.method());
        AddRemoveTagBenchmark passes = bench.passes;
        try {
            assertEquals(N * AddRemoveTagPartBenchmark.SPREAD, engine.population().applyAsInt(passes),
                    engine.method() + " population");
            for (int round = 0; round < 2; round++) {
                assertEquals(0, engine.tagged().applyAsInt(passes), engine.method() + " before round " + round);
                engine.add().accept(passes);
                assertEquals(N, engine.tagged().applyAsInt(passes), engine.method() + " after adding, round " + round);
                engine.remove().accept(passes);
                assertEquals(0, engine.tagged().applyAsInt(passes), engine.method() + " after removing");
                engine.roundTrip().apply(bench); // the whole operation: back where it started
                assertEquals(0, engine.tagged().applyAsInt(passes), engine.method() + " after a round trip");
            }
        } finally {
            bench.tearDown();
        }
    }

    @Test
    void jtecsChangesEverySixteenthEntityOfOneArchetype() {
        AddRemoveTagPartBenchmark bench = new AddRemoveTagPartBenchmark();
        bench.entities = N;
        bench.setUp("jtecs");
        try {
            long[] ids = bench.passes.ids;
            assertEquals(N, ids.length);
            Archetype before = bench.passes.world.archetypeOf(ids[0]);
            assertEquals(N * AddRemoveTagPartBenchmark.SPREAD, before.count(), "one archetype holds them all");
            for (int i = 1; i < N; i++) {
                assertEquals(AddRemoveTagPartBenchmark.SPREAD, Entity.slot(ids[i]) - Entity.slot(ids[i - 1]),
                        "every 16th entity");
                assertTrue(before == bench.passes.world.archetypeOf(ids[i]));
            }
        } finally {
            bench.tearDown();
        }
    }
}
